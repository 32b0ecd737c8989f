"""The concept lattice of a formal context (SPEC §3.1.5), with its blow-up guard.

Two engines compute the same concepts (held together by one parametrised
test): `cbo`, our Close-by-One over bitsets (closure.py), the default because
it is two orders of magnitude faster and can stop at the guard or prune by
support as it goes; and `concepts`, the `concepts` library (Lindig's algorithm)
run on the transposed context (terms as objects, documents as attributes: the
same concepts 14–25× faster than untransposed when documents far outnumber
terms, NOTES.md; on the sample corpora, 72–81 × 120, untransposed is faster),
which enumerates the whole lattice before the guard or the support threshold
can apply.

Concept counts grow explosively with density, so a lattice past `max_concepts`
is an error that suggests what to change, and `min_support` keeps only the
concepts with at least that many documents (the iceberg lattice).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kgcrawl.errors import KgcrawlError
from kgcrawl.ontology.closure import close_by_one
from kgcrawl.ontology.fca import FormalContext

ENGINES = ("cbo", "concepts")


class LatticeError(KgcrawlError):
    """The lattice cannot be built as asked (too many concepts, bad option)."""


@dataclass(frozen=True)
class Lattice:
    """Formal concepts as (extent bits over documents, intent bits over terms)."""

    context: FormalContext
    concepts: tuple[tuple[int, int], ...]
    min_support: int = 0

    def __len__(self) -> int:
        return len(self.concepts)

    def upper_covers(self) -> list[tuple[int, int]]:
        """Hasse edges (i, j): concept j covers concept i (extent i ⊂ extent j, none between).

        Quadratic in the number of concepts: meant for lattices small enough to draw.
        """
        order = sorted(range(len(self.concepts)), key=lambda i: self.concepts[i][0].bit_count())
        edges = []
        for pos, i in enumerate(order):
            low = self.concepts[i][0]
            covers: list[int] = []
            for j in order[pos + 1 :]:
                high = self.concepts[j][0]
                between = (self.concepts[k][0] for k in covers)
                if high != low and low & high == low and not any(m & high == m for m in between):
                    covers.append(j)
            edges += [(i, j) for j in covers]
        return edges


def build_lattice(
    ctx: FormalContext,
    min_support: int = 0,
    max_concepts: int = 200_000,
    engine: str = "cbo",
    progress: Callable[[int], None] | None = None,
) -> Lattice:
    """All concepts with ≥ min_support documents; LatticeError past `max_concepts`.

    `progress(count)` is called every 1 000 concepts.
    """
    check_lattice_options(min_support, max_concepts, engine)
    found: list[tuple[int, int]] = []
    source = (
        close_by_one(ctx, min_support)
        if engine == "cbo"
        else (c for c in library_concepts(ctx) if c[0].bit_count() >= min_support)
    )
    for concept in source:
        found.append(concept)
        if len(found) > max_concepts:
            raise LatticeError(_too_many(ctx, max_concepts, min_support))
        if progress is not None and len(found) % 1000 == 0:
            progress(len(found))
    return Lattice(ctx, tuple(found), min_support)


def check_lattice_options(min_support: int, max_concepts: int, engine: str) -> None:
    """Raise LatticeError naming the option that cannot work."""
    if engine not in ENGINES:
        raise LatticeError(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if min_support < 0:
        raise LatticeError(f"--min-support must not be negative, got {min_support}")
    if max_concepts < 1:
        raise LatticeError(f"--max-concepts must be at least 1, got {max_concepts}")


def library_concepts(ctx: FormalContext, transpose: bool = True) -> list[tuple[int, int]]:
    """The `concepts` library's lattice, read back as (document bits, term bits)."""
    lattice = ctx.to_concepts(transpose=transpose).lattice
    doc_bit = {name: 1 << i for i, name in enumerate(ctx.objects)}
    term_bit = {name: 1 << i for i, name in enumerate(ctx.attributes)}
    out = []
    for concept in lattice:
        docs, terms = (
            (concept.intent, concept.extent) if transpose else (concept.extent, concept.intent)
        )
        out.append((sum(doc_bit[d] for d in docs), sum(term_bit[t] for t in terms)))
    return out


def _too_many(ctx: FormalContext, max_concepts: int, min_support: int) -> str:
    support = f"--min-support {min_support}" if min_support else "no --min-support"
    return (
        f"the lattice has more than {max_concepts:,} formal concepts "
        f"({len(ctx.objects)} documents × {len(ctx.attributes)} terms, "
        f"{ctx.density():.1%} dense, {support}); use a smaller --max-terms, "
        f"a --min-support of a few documents, or a larger --max-concepts"
    )
