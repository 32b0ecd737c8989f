"""The formal context of SPEC §3.1.4 and its Burmeister `.cxt` file.

Objects are documents, attributes are terms, and a document has a term when
the term occurs in it. Each attribute's extent (the documents that hold the
term) is kept as a Python int used as a bitset, bit d for document d: set
intersection and inclusion are then single integer operations, which is what
the closure algorithm and the taxonomy spend their time on.

>>> ctx = FormalContext.from_documents(["d1", "d2"], [{"a", "b"}, {"b"}], ["a", "b"])
>>> ctx.extents
(1, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kgcrawl.errors import KgcrawlError


class ContextError(KgcrawlError):
    """A .cxt file that cannot be read as a formal context."""


@dataclass(frozen=True)
class FormalContext:
    """Documents × terms; `extents[t]` is the bitset of documents holding term t."""

    objects: tuple[str, ...]
    attributes: tuple[str, ...]
    extents: tuple[int, ...]

    @classmethod
    def from_documents(
        cls, ids: Sequence[str], doc_terms: Sequence[Iterable[str]], terms: Sequence[str]
    ) -> FormalContext:
        """Incidence = the term is among the document's terms."""
        index = {term: i for i, term in enumerate(terms)}
        extents = [0] * len(terms)
        for d, tokens in enumerate(doc_terms):
            bit = 1 << d
            for term in set(tokens):
                t = index.get(term)
                if t is not None:
                    extents[t] |= bit
        return cls(tuple(ids), tuple(terms), tuple(extents))

    @classmethod
    def from_bools(
        cls, objects: Sequence[str], attributes: Sequence[str], rows: Sequence[Sequence[bool]]
    ) -> FormalContext:
        """From a table of rows (one per object): how tests and readers write contexts."""
        extents = [0] * len(attributes)
        for d, row in enumerate(rows):
            for t, has in enumerate(row):
                if has:
                    extents[t] |= 1 << d
        return cls(tuple(objects), tuple(attributes), tuple(extents))

    def has(self, obj: int, attr: int) -> bool:
        """The incidence relation: does object `obj` have attribute `attr`?"""
        return bool(self.extents[attr] >> obj & 1)

    def rows(self) -> list[tuple[bool, ...]]:
        """The cross table, one row per object."""
        return [
            tuple(self.has(d, t) for t in range(len(self.attributes)))
            for d in range(len(self.objects))
        ]

    def row_bits(self) -> list[int]:
        """Each object's attribute set as a bitset, bit t for attribute t."""
        rows = [0] * len(self.objects)
        for t, extent in enumerate(self.extents):
            for d in iter_bits(extent):
                rows[d] |= 1 << t
        return rows

    def density(self) -> float:
        """Share of crosses in the table (concept counts grow fast with it, NOTES.md)."""
        cells = len(self.objects) * len(self.attributes)
        return sum(e.bit_count() for e in self.extents) / cells if cells else 0.0

    def to_concepts(self, transpose: bool = False):
        """The `concepts` library's Context; transposed = terms as objects (NOTES.md)."""
        import concepts

        if transpose:
            rows = [
                tuple(bool(extent >> d & 1) for d in range(len(self.objects)))
                for extent in self.extents
            ]
            return concepts.Context(self.attributes, self.objects, rows)
        return concepts.Context(self.objects, self.attributes, self.rows())


def iter_bits(bits: int) -> Iterable[int]:
    """Indexes of the set bits, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def write_cxt(ctx: FormalContext, path: str | Path) -> Path:
    """Burmeister .cxt (ConExp, `concepts.Context.fromfile(path, frmat='cxt')`), UTF-8."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["B", "", str(len(ctx.objects)), str(len(ctx.attributes)), ""]
    lines += [_one_line(name) for name in ctx.objects]
    lines += [_one_line(name) for name in ctx.attributes]
    lines += ["".join("X" if has else "." for has in row) for row in ctx.rows()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_cxt(path: str | Path) -> FormalContext:
    """A Burmeister .cxt file as a FormalContext, read with the `concepts` library."""
    import concepts

    try:
        ctx = concepts.Context.fromfile(str(path), frmat="cxt", encoding="utf-8")
    except FileNotFoundError:
        raise ContextError(f"{path}: no such file") from None
    except (ValueError, IndexError, UnicodeDecodeError) as exc:
        raise ContextError(f"{path}: not a Burmeister .cxt context ({exc})") from None
    return FormalContext.from_bools(ctx.objects, ctx.properties, ctx.bools)


def _one_line(name: str) -> str:
    """Names are one line each in .cxt: fold any line break into a space."""
    return " ".join(name.splitlines())
