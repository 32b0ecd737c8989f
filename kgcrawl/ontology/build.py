"""`kgcrawl build-ontology`: corpus → terms → formal context → lattice → taxonomy → OWL.

The stages of SPEC §3.1 in order, each timed. Everything that can be wrong
with the input (base ontology, terms file, options, corpus) is checked before
the slow work starts; a lattice past the guard stops the build after the
`.cxt` is written, so the context can still be inspected.
"""

from __future__ import annotations

import re
import shlex
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from kgcrawl.fit import counted
from kgcrawl.names import check_domain_name
from kgcrawl.ontology.fca import FormalContext, write_cxt
from kgcrawl.ontology.hasse import lattice_dot, taxonomy_dot, write_diagram
from kgcrawl.ontology.lattice import Lattice, build_lattice, check_lattice_options
from kgcrawl.ontology.merge import Merged, merge_taxonomy, topic_root
from kgcrawl.ontology.model import Ontology, OntologyError
from kgcrawl.ontology.taxonomy import (
    DEFAULT_LIFT,
    DEFAULT_SECOND,
    DEFAULT_THETA,
    Taxonomy,
    build_taxonomy,
    check_taxonomy_options,
)
from kgcrawl.ontology.terms import (
    TermSelection,
    TermsError,
    TermStats,
    check_term_options,
    plurals_of_terms,
    read_terms_file,
    rekeyed,
    select_terms,
)
from kgcrawl.text.corpus import Corpus, Document, read_corpus
from kgcrawl.text.english import english_terms
from kgcrawl.text.matching import token_length
from kgcrawl.text.tokenize import add_user_words, join_phrases, keep_content, phrase_of, segment

IRI_BASE = "https://w3id.org/kgcrawl/fca/"

# progress(stage, done, total); total 0 when unknown.
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class BuildOptions:
    """Every knob of SPEC §3.1; the defaults are the SPEC's."""

    domain: str | None = None  # default: the corpus folder's name
    topic: str | None = None  # default: the base ontology's root, else the domain
    base: Path | None = None
    out: Path | None = None  # default: ontologies/<domain>.fca.owl
    lattice_dir: Path = Path("lattice")
    min_df: int = 2
    max_df: float = 0.8
    max_terms: int = 120
    min_chars: int = 2
    nouns_only: bool = True  # Chinese: count only the words jieba tags as nouns
    terms: tuple[str, ...] = ()
    terms_file: Path | None = None
    min_support: int = 0
    max_concepts: int = 200_000
    engine: str = "cbo"
    hasse_limit: int = 60  # draw the full lattice up to this many concepts
    subsumption: float = DEFAULT_THETA  # θ of taxonomy.py; 1.0 = strict inclusion
    second_parent: float = DEFAULT_SECOND  # confidence a second asserted parent needs
    lift: float = DEFAULT_LIFT  # P(u|t) / P(u) a parent u needs


@dataclass
class BuildResult:
    """What the build read, found and wrote, with seconds per stage."""

    domain: str
    corpus: Corpus
    selection: TermSelection
    context: FormalContext
    lattice: Lattice
    taxonomy: Taxonomy
    merged: Merged
    variants: dict[str, tuple[str, ...]] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    svg_skipped: bool = False  # Graphviz `dot` not installed
    svg_removed: Path | None = None  # an earlier build's SVG, removed: it drew another .gv
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def ontology(self) -> Ontology:
        return self.merged.ontology

    def top_terms(self, n: int) -> list[str]:
        """The n terms of highest termhood (pinned terms have none of their own)."""
        termhood = self.selection.termhood
        return sorted(termhood, key=lambda t: -termhood[t])[:n]

    def summary(self, files: bool = True) -> list[tuple[str, str]]:
        """(what, value) rows for the closing report (`files`: a row per file written)."""
        corpus = self.corpus
        zh = sum(doc.lang == "zh" for doc in corpus.documents)
        onto = self.ontology
        rows = [
            ("documents read", f"{len(corpus)} ({zh} Chinese, {len(corpus) - zh} other)"),
            ("documents skipped", str(len(corpus.skipped))),
            ("terms", f"{len(self.selection.terms)} of {self.selection.candidates} candidates"),
            ("terms left out", self.selection.left_out_text() or "none"),
            ("context density", f"{self.context.density():.1%}"),
            ("formal concepts", f"{len(self.lattice):,}" + _support(self.lattice)),
            ("classes", f"{len(self.taxonomy.classes)} from terms, {len(onto)} concepts in all"),
            ("joined base concepts", str(len(self.merged.joined))),
            ("depth", f"{onto.max_depth} ({onto.levels} levels)"),
            ("directly under the root", _under_root(self.merged)),
            ("highest termhood", ", ".join(self.top_terms(10))),
            ("seconds", f"{sum(self.timings.values()):.2f}"),
        ]
        if self.selection.missing:
            rows.append(("pinned terms not found", ", ".join(self.selection.missing)))
        rows += [("written", str(path)) for path in self.files if files]
        if self.svg_skipped:
            old = self.svg_removed
            rows.append(
                (
                    "not written",
                    "SVG: needs Graphviz's `dot` (package `graphviz`: "
                    "apt-get/brew install graphviz); the .gv opens in any "
                    "Graphviz viewer"
                    + (f"; removed the old {old.name}, drawn from an earlier .gv" if old else ""),
                )
            )
        return rows

    def next_step(self) -> str:
        """The command that crawls with the new ontology: the domain's pipeline if it has
        one, else the one that writes a pipeline for it."""
        from kgcrawl.config import SettingsError, resolve_pipeline

        owl = _shell_word(str(next(path for path in self.files if path.suffix == ".owl")))
        try:
            resolve_pipeline(self.domain)
        except SettingsError:
            init = f"kgcrawl pipeline init {self.domain} --ontology {owl}"
            return f"{init}{self._init_options()} --seeds URL"
        return f"kgcrawl crawl {self.domain} --ontology {owl}"

    def _init_options(self) -> str:
        """What `pipeline init` must be told that its defaults would get wrong: the pages'
        language when most documents are Chinese, and the corpus, which calibrates α,
        when it is not corpus/DOMAIN (else the first crawl stops for want of one)."""
        corpus = self.corpus
        options = ""
        if 2 * sum(doc.lang == "zh" for doc in corpus.documents) > len(corpus):
            options += " --language zh"
        if corpus.root.resolve() != (Path("corpus") / self.domain).resolve():
            options += f" --corpus {_shell_word(str(corpus.root))}"
        return options


def build_ontology(
    corpus_path: str | Path, options: BuildOptions | None = None, progress: Progress | None = None
) -> BuildResult:
    """Run SPEC §3.1 steps 1–8 and write .cxt, .gv (.svg), .owl and .ttl."""
    from kgcrawl.ontology.owl import read_ontology, write_ontology

    opts = options or BuildOptions()
    report = progress or (lambda stage, done, total: None)
    timings: dict[str, float] = {}
    check_term_options(opts.min_df, opts.max_df, opts.max_terms, opts.min_chars)
    check_lattice_options(opts.min_support, opts.max_concepts, opts.engine)
    check_taxonomy_options(opts.subsumption, opts.second_parent, opts.lift)
    base = read_ontology(opts.base) if opts.base is not None else None
    pinned = list(opts.terms) + (read_terms_file(opts.terms_file) if opts.terms_file else [])
    corpus_path = Path(corpus_path)
    domain = opts.domain or (corpus_path.resolve().stem or "corpus")
    check_domain_name(domain, "--domain" if opts.domain else "--domain (the corpus folder's name)")
    owl_path = opts.out or Path("ontologies") / f"{domain}.fca.owl"
    iri = IRI_BASE + quote(domain, safe="")
    if base is None:
        base = topic_root(iri, opts.topic or domain)
        topic = None
    else:
        topic = opts.topic
        if topic and base.find(topic) is None:  # said before the lattice, not after it
            raise OntologyError(f"--topic {topic!r}: {opts.base} has no concept with that label")

    with _timed(timings, "read"):
        corpus = read_corpus(corpus_path, lambda done, total: report("read", done, total))
    _make_folders({"--out": owl_path.parent, "--lattice-dir": opts.lattice_dir})

    with _timed(timings, "segment"):
        words = [text for c in base.concepts.values() for text in c.all_labels()] + pinned
        add_user_words(words)
        phrases = {phrase_of(text) for text in words}
        stats = TermStats()
        surfaces: Counter[tuple[str, str]] = Counter()
        for n, doc in enumerate(corpus.documents, start=1):
            _count_document(doc, phrases, opts.nouns_only, stats, surfaces)
            report("segment", n, len(corpus))
        # a term pinned as written stays so; a plural's surfaces become its singular's altLabels
        kept = {term.lower() for term in pinned}
        plurals = {p: s for p, s in plurals_of_terms(stats.count).items() if p not in kept}
        stats.merge(plurals)
        surfaces = rekeyed(surfaces, lambda pair: (plurals.get(pair[0], pair[0]), pair[1]))

    with _timed(timings, "terms"):
        report("terms", 0, 1)
        selection = select_terms(
            stats, opts.min_df, opts.max_df, opts.max_terms, pinned, opts.min_chars
        )
        if not selection.terms:
            raise _no_terms(corpus_path, len(corpus), selection, opts)
        variants = _variants(selection.terms, surfaces)

    files: list[Path] = []
    with _timed(timings, "context"):
        report("context", 0, 1)
        ids = [doc.id for doc in corpus.documents]
        context = FormalContext.from_documents(ids, stats.doc_terms, selection.terms)
        files.append(write_cxt(context, opts.lattice_dir / f"{domain}.cxt"))

    with _timed(timings, "lattice"):
        report("lattice", 0, 0)
        lattice = build_lattice(
            context,
            opts.min_support,
            opts.max_concepts,
            opts.engine,
            lambda count: report("lattice", count, 0),
        )

    with _timed(timings, "taxonomy"):
        report("taxonomy", 0, 1)
        taxonomy = build_taxonomy(
            context.attributes,
            context.extents,
            opts.subsumption,
            opts.second_parent,
            opts.lift,
            len(context.objects),
        )
        merged = merge_taxonomy(taxonomy, base, iri, topic, variants)

    with _timed(timings, "diagram"):
        report("diagram", 0, 1)
        topic_label = merged.ontology.concepts[merged.topic].label()
        title = f"{domain} lattice"
        dot = (
            lattice_dot(lattice, title)
            if len(lattice) <= opts.hasse_limit
            else taxonomy_dot(taxonomy, topic_label, f"{domain} attribute concepts")
        )
        gv_path = opts.lattice_dir / f"{domain}.gv"
        old_svg = gv_path.with_suffix(".svg")
        had_svg = old_svg.is_file()  # write_diagram removes it: it drew the old .gv
        svg_path = write_diagram(dot, gv_path)
        files += [gv_path] + ([svg_path] if svg_path else [])

    with _timed(timings, "owl"):
        report("owl", 0, 1)
        ttl_path = owl_path.with_suffix(".ttl")
        write_ontology(merged.ontology, owl_path, ttl_path)
        files += [owl_path, ttl_path]

    return BuildResult(
        domain=domain,
        corpus=corpus,
        selection=selection,
        context=context,
        lattice=lattice,
        taxonomy=taxonomy,
        merged=merged,
        variants=variants,
        files=files,
        svg_skipped=svg_path is None,
        svg_removed=old_svg if had_svg and svg_path is None else None,
        timings=timings,
    )


def _shell_word(text: str) -> str:
    """`text` as a shell reads it back: quoted only when it must be (Chinese needs not).

    >>> _shell_word("ontologies/咖啡.fca.owl"), _shell_word("my corpus")
    ('ontologies/咖啡.fca.owl', "'my corpus'")
    """
    return text if _SHELL_SAFE.fullmatch(text) else shlex.quote(text)


_SHELL_SAFE = re.compile(r"[\w@%+=:,./-]+")


def _make_folders(folders: dict[str, Path]) -> None:
    """The folders the build writes into, made before the slow work (a file in the way
    stops it with the option's name; no permission, with the folder's)."""
    for option, folder in folders.items():
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise TermsError(f"{option}: {folder} is not a folder (a file is in the way)") from None


def _no_terms(
    corpus_path: Path, n_docs: int, selection: TermSelection, opts: BuildOptions
) -> TermsError:
    """Why the corpus gave no term, and what would give some: a class needs a term."""
    if opts.max_df * n_docs < opts.min_df:
        why = (
            f"with {counted(n_docs, 'document')} no word can be in {opts.min_df} or "
            f"more (--min-df) and in at most {opts.max_df:.0%} of them (--max-df {opts.max_df:g})"
        )
    elif selection.candidates:
        why = f"of {selection.candidates} candidate words: {selection.left_out_text()}"
    else:
        why = "its documents hold no words"
    if selection.missing:
        why += f" (pinned, in no document: {', '.join(selection.missing)})"
    return TermsError(
        f"{corpus_path}: no term to build classes from: {why}; add documents on different "
        "parts of the topic, set --min-df or --max-df, or name terms with --term"
    )


def _count_document(
    doc: Document,
    phrases: set[tuple[str, ...]],
    nouns_only: bool,
    stats: TermStats,
    surfaces: Counter[tuple[str, str]],
) -> None:
    """A document's term counts: jieba nouns for Chinese, lemmas and phrases otherwise."""
    if doc.lang == "zh":
        tokens = join_phrases(segment(doc.text, True, nouns_only), phrases)
        stats.add(Counter(keep_content(tokens)), token_length(doc.text))
    else:
        found = english_terms(doc.text)
        stats.add(found.counts, found.tokens, found.inside, found.contexts, found.heads)
        surfaces.update(found.surfaces)


def _variants(
    terms: tuple[str, ...], surfaces: Counter[tuple[str, str]]
) -> dict[str, tuple[str, ...]]:
    """Other spellings of each chosen term as written ("tomatoes" for "tomato"), commonest first.

    They become altLabels, so the crawler, which matches words as written, finds them.
    """
    chosen = set(terms)
    seen: dict[str, Counter[str]] = {}
    for (term, surface), count in surfaces.items():
        if term in chosen and surface != term:
            seen.setdefault(term, Counter())[surface] += count
    return {term: tuple(s for s, _ in counts.most_common()) for term, counts in seen.items()}


def _under_root(merged: Merged) -> str:
    onto = merged.ontology
    classes = len(onto) - 1
    under = len(onto.children[merged.topic])
    return f"{under} of {classes} classes ({under / classes:.0%})" if classes else "0"


def _support(lattice: Lattice) -> str:
    return f" (≥ {lattice.min_support} documents each)" if lattice.min_support else ""


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = time.perf_counter() - start
