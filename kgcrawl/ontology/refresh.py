"""`kgcrawl refresh-ontology`: new terms from crawled pages → a new ontology version (SPEC §9).

The crawl finds words the ontology lacks. The relevant pages (R(p) > α) come
from the knowledge graph — pages fetched by crawls of the domain — or from one
run's state; the irrelevant pages downloaded alongside are the contrast set.
The ontology refined is the pipeline's, or with a run the one that run judged
its pages by (`crawl --ontology FILE` may have named another); `--set
ontology=FILE` chooses.

1. Candidates (new_terms.py): words of the pages, segmented as `build-ontology`
   segments, that no label names, common among the relevant pages, rare among the
   irrelevant ones beyond chance (and among calibration's off-topic documents, which
   speak for the words most relevant pages hold: a crawl whose focus works meets
   few irrelevant pages), and no word of general language; the best `max_new` are
   accepted.
2. The formal context is rebuilt (fca.py) over the domain's corpus documents
   plus the relevant pages, with the ontology's concepts (a document has a
   concept when it holds any of its labels) and the accepted terms as
   attributes, and its lattice recomputed (lattice.py) up to `max_concepts`.
   Crawled pages name many concepts each (a third of the cells on the sandbox),
   so the full lattice soon runs to hundreds of thousands of concepts: past the
   guard it is reported as such, not enumerated, and the refresh goes on,
   because placing a term needs only the attribute extents (taxonomy.py).
3. Each accepted term goes under the existing concept whose extent contains
   its extent most tightly: the smallest containing extent, ties to the deeper
   concept, then the earlier one; the root when no extent contains it.
   **Interpretation**: an equal extent counts as containing, and the term
   becomes a child (Is-a), not a synonym: a word seen only alongside a concept
   is more likely a part or kind of it than another name for it.
4. The new version is `<ontology folder>/<domain>.v<N>.owl` + `.ttl`, N the next
   free number (the unversioned file counts as version 1), the old ones kept;
   the graph's Concept nodes and W_T weights are rewritten when a graph is
   configured. A dry run, or a refresh that accepts no term, writes nothing.
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kgcrawl.ontology.crawled_pages import (
    CrawledPage,
    RefreshError,
    graph_pages,
    judged,
    most_relevant,
    run_ontology,
    run_pages,
)
from kgcrawl.ontology.fca import FormalContext
from kgcrawl.ontology.lattice import LatticeError, build_lattice, check_lattice_options
from kgcrawl.ontology.merge import ncname
from kgcrawl.ontology.model import Concept, Edge, Ontology
from kgcrawl.ontology.new_terms import Background, beyond_chance, candidates
from kgcrawl.text.english import english_terms, plural_forms
from kgcrawl.text.tokenize import (
    add_user_words,
    is_chinese,
    join_phrases,
    keep_content,
    lang_of,
    normalise_label,
    phrase_of,
    segment,
)

if TYPE_CHECKING:
    from kgcrawl.config import Settings
    from kgcrawl.graph.writer import WriteReport
    from kgcrawl.ontology.build import Progress


@dataclass(frozen=True)
class RefreshOptions:
    """Where the pages come from, the candidate thresholds, and what to write."""

    run: str | None = None  # read the pages of this run's state instead of the graph,
    # and refine the ontology the run crawled with
    dry_run: bool = False
    corpus: Path | None = None  # default: calibration.positives, else corpus/<domain>
    overrides: tuple[str, ...] = ()  # --set section.key=value
    min_pages: int = 2
    min_share: float = 0.05
    min_lift: float = 1.5  # relevant share / irrelevant share
    significance: float = 0.05  # chance that any accepted term's split is a fluke; 1 = no test
    # contrast with the off-topic documents calibration uses too (new_terms.py says why)
    background: bool = True
    max_new: int = 20
    min_chars: int = 2
    nouns_only: bool = True  # Chinese: only words jieba tags as nouns, as build-ontology
    # Relevant pages read, and as many irrelevant ones, most relevant first: segmenting
    # Chinese nouns runs at ≈ 0.1 MB/s, and a few hundred pages show which words are common.
    max_pages: int = 500
    max_concepts: int = 20_000  # enumerate the lattice up to this many concepts


@dataclass(frozen=True)
class NewTerm:
    """An accepted term: its new concept, where it went, and the counts that chose it."""

    term: str
    iri: str
    parent: str
    parent_label: str
    relevant_pages: int
    irrelevant_pages: int
    score: float  # relevant share − the larger of the irrelevant and background shares
    background: int  # off-topic documents holding it
    extent: int  # documents of the rebuilt context holding the term
    parent_extent: int


@dataclass
class RefreshResult:
    """What the refresh read, added and wrote."""

    domain: str
    source: str
    relevant_pages: int
    irrelevant_pages: int
    background_documents: int  # off-topic documents contrasted (calibration.negatives)
    no_background: str  # why there are none, when they were asked for
    corpus_documents: int
    candidates: int  # terms that passed every filter but the significance test
    beyond_chance: int  # of them, those that passed it too
    tested: int  # terms whose split was tested (Bonferroni's count)
    significance: float
    lattice_concepts: int | None  # None: more than max_concepts, not enumerated
    max_concepts: int
    added: list[NewTerm]
    ontology: Ontology  # the new version (the old one when nothing was added)
    old_path: Path
    pipeline: Path  # the pipeline file
    dry_run: bool
    files: list[Path] = field(default_factory=list)
    graph: WriteReport | None = None
    held: tuple[int, int] = (0, 0)  # relevant, irrelevant pages the source held (max_pages read)
    graph_uri: str | None = None

    def summary(self, files: bool = True) -> list[tuple[str, str]]:
        """(what, value) rows for the closing report (`files`: a row per file written)."""
        rows = [
            ("pages from", self.source),
            ("relevant pages", _read(self.relevant_pages, self.held[0])),
            ("irrelevant pages (contrast)", _read(self.irrelevant_pages, self.held[1])),
            ("off-topic documents (contrast)", self._background()),
            ("corpus documents", str(self.corpus_documents)),
            ("candidate terms", f"{self.candidates}, {self._beyond_chance()}"),
            ("terms added", str(len(self.added))),
            ("formal concepts", self._lattice()),
            ("concepts", f"{len(self.ontology)} (was {len(self.ontology) - len(self.added)})"),
        ]
        rows += [("written", str(path)) for path in self.files if files]
        if self.graph is not None:
            rows.append(("graph", f"{self.graph.concepts} Concept nodes in {self.graph_uri}"))
        if self.dry_run:
            rows.append(("dry run", "nothing written"))
        return rows

    def _background(self) -> str:
        if self.no_background:
            return f"none: {self.no_background}"
        return str(self.background_documents)

    def _beyond_chance(self) -> str:
        if self.significance >= 1:
            return "not tested for chance"
        if not self.irrelevant_pages and not self.background_documents:
            return "none beyond chance: no irrelevant page or document to contrast with"
        bar = self.significance / max(self.tested, 1)
        return (
            f"{self.beyond_chance} beyond chance (Fisher p < {bar:.1e} = "
            f"{self.significance} / {self.tested} terms tested)"
        )

    def _lattice(self) -> str:
        if self.lattice_concepts is not None:
            return f"{self.lattice_concepts:,}"
        return f"more than {self.max_concepts:,} (not enumerated; placing reads the extents)"

    def how_to_use(self) -> str | None:
        """How to point the pipeline at the new version; None when none was written."""
        if not self.files:
            return None
        where = Path(os.path.relpath(self.files[0], self.pipeline.parent)).as_posix()
        if where.startswith("../../"):  # not beside the pipelines folder: say where it is
            where = self.files[0].as_posix()
        return (
            f"crawl with --ontology {self.files[0]} (a resumed run takes it from its next "
            f'page on), or set ontology = "{where}" in {self.pipeline.name}'
        )


def refresh_ontology(
    domain: str, options: RefreshOptions | None = None, progress: Progress | None = None
) -> RefreshResult:
    """SPEC §9 for the pipeline `domain` (a name or a .toml path): read, propose, place, write.

    `progress(stage, done, total)` hears of each stage, and of each text segmented.
    """
    from kgcrawl.config import load_settings, parse_overrides
    from kgcrawl.ontology.owl import read_ontology

    report = progress or (lambda stage, done, total: None)
    report("reading pages", 0, 0)
    opts = options or RefreshOptions()
    _check_options(opts)
    overrides = parse_overrides(list(opts.overrides))
    settings = load_settings(domain, overrides)
    folder = settings.ontology.parent  # where the new version goes: beside the one refined
    if opts.run is not None and "ontology" not in overrides:
        settings, folder = run_ontology(opts.run, settings)
    onto = read_ontology(settings.ontology)
    uri = settings.graph.uri
    if opts.run is None and uri == "none":
        raise RefreshError(
            f"{settings.source}: no graph to read pages from (graph.uri = none); use --run ID"
        )
    store = None
    if uri != "none" and not (opts.dry_run and opts.run is not None):
        from kgcrawl.graph.store import connect

        store = connect(uri, schema_setup=not opts.dry_run)
    try:
        if opts.run is not None:
            pages = run_pages(opts.run, settings.domain)
            source = f"run {opts.run}"
        else:
            pages = graph_pages(store, settings.domain, opts.max_pages)
            source = f"graph {store.uri}"
        result = _refresh(settings, onto, judged(pages, settings), source, opts, report, folder)
        if store is not None and result.files:
            from kgcrawl.graph.writer import GraphWriter
            from kgcrawl.ontology.topic import build_topic_model

            model = build_topic_model(
                result.ontology, settings.topic, settings.relevance.k, settings.relevance.tau
            )
            result.graph = GraphWriter(store).write_ontology(
                model, settings.domain, settings.language
            )
            result.graph_uri = store.uri
        return result
    finally:
        if store is not None:
            store.close()


def next_version(folder: Path, domain: str) -> int:
    """The next free N of `<domain>.v<N>.owl` in `folder`; the unversioned file is 1."""
    pattern = re.compile(rf"^{re.escape(domain)}\.v(\d+)\.(owl|ttl)$")
    taken = [int(m.group(1)) for p in folder.glob("*") if (m := pattern.match(p.name))]
    return max([1, *taken]) + 1


def _read(read: int, held: int) -> str:
    """How many pages were read, and of how many when `RefreshOptions.max_pages` left some.

    >>> _read(500, 598), _read(40, 40)
    ('500 of 598, the most relevant', '40')
    """
    return f"{read} of {held}, the most relevant" if held > read else str(read)


def _refresh(
    settings: Settings,
    onto: Ontology,
    pages: list[CrawledPage],
    source: str,
    opts: RefreshOptions,
    report: Progress,
    folder: Path,
) -> RefreshResult:
    """The refresh proper (module docstring, steps 1–4); a new version goes into `folder`."""
    relevant = most_relevant([p for p in pages if p.relevant], opts.max_pages)
    irrelevant = most_relevant([p for p in pages if not p.relevant], opts.max_pages)
    if not relevant:
        raise RefreshError(f"no relevant page of {settings.domain!r} in the {source}")
    corpus_docs = _corpus_documents(settings, opts.corpus)
    off_topic, no_background = _off_topic_documents(settings) if opts.background else ([], "")

    label_owner = _label_owners(onto)
    phrases = {phrase_of(text) for c in onto.concepts.values() for text in c.all_labels()}
    add_user_words(text for c in onto.concepts.values() for text in c.all_labels())

    texts = len(relevant) + len(irrelevant) + len(corpus_docs) + len(off_topic)
    done = itertools.count(1)  # each of those texts is segmented once, in turn

    def terms_of(text: str) -> set[str]:
        chinese = is_chinese(text)
        tokens = join_phrases(segment(text, chinese, opts.nouns_only), phrases)
        report("segmenting", next(done), texts)
        # Other text: the words as written (labels, altLabels) and build-ontology's terms.
        return set(keep_content(tokens)) | (set() if chinese else set(english_terms(text).counts))

    relevant_terms = [terms_of(p.text) for p in relevant]
    irrelevant_terms = [terms_of(p.text) for p in irrelevant]
    corpus_terms = [terms_of(text) for _, text in corpus_docs]
    background = Background.of([terms_of(t) for t in off_topic], list(map(is_chinese, off_topic)))
    # a label's plural is the label: the crawler counts it so (`plural_forms`), and a plural
    # simplemma does not know ("stratovolcanoes") would otherwise be offered as a new term
    known = set(label_owner) | {p for label in label_owner for p in plural_forms(label)}
    lifted, tested = candidates(relevant_terms, irrelevant_terms, known, opts, background)
    scored = beyond_chance(lifted, len(relevant), tested, opts.significance)
    accepted = scored[: opts.max_new]

    concept_iris = list(onto.concepts)
    attributes = concept_iris + [term for term, *_ in accepted]
    accepted_set = {term for term, *_ in accepted}
    doc_terms = [
        {label_owner[t] for t in terms if t in label_owner} | (terms & accepted_set)
        for terms in corpus_terms + relevant_terms
    ]
    ids = [doc_id for doc_id, _ in corpus_docs] + [p.url for p in relevant]
    context = FormalContext.from_documents(ids, doc_terms, attributes)
    report("lattice", 0, 0)
    try:
        lattice_concepts: int | None = len(build_lattice(context, max_concepts=opts.max_concepts))
    except LatticeError:
        lattice_concepts = None

    extent = dict(zip(attributes, context.extents, strict=True))
    new_concepts = dict(onto.concepts)
    namespace = _namespace(onto.concepts[onto.root].iri)
    taken = {iri[len(namespace) :] for iri in onto.concepts if iri.startswith(namespace)}
    added = []
    for term, rel_df, irr_df, score, off, _ in accepted:
        parent = _tightest(onto, extent, extent[term])
        iri = namespace + _unique(ncname(term), taken)
        new_concepts[iri] = Concept(
            iri=iri, labels={lang_of(term): term}, parent=parent, edge=Edge.IS_A
        )
        added.append(
            NewTerm(
                term=term,
                iri=iri,
                parent=parent,
                parent_label=onto.concepts[parent].label(settings.language),
                relevant_pages=rel_df,
                irrelevant_pages=irr_df,
                score=score,
                background=off,
                extent=extent[term].bit_count(),
                parent_extent=extent[parent].bit_count(),
            )
        )
    result = RefreshResult(
        domain=settings.domain,
        source=source,
        relevant_pages=len(relevant),
        irrelevant_pages=len(irrelevant),
        held=(sum(p.relevant for p in pages), sum(not p.relevant for p in pages)),
        background_documents=len(off_topic),
        no_background=no_background,
        corpus_documents=len(corpus_docs),
        candidates=len(lifted),
        beyond_chance=len(scored),
        tested=tested,
        significance=opts.significance,
        lattice_concepts=lattice_concepts,
        max_concepts=opts.max_concepts,
        added=added,
        ontology=Ontology(iri=onto.iri, concepts=new_concepts),
        old_path=settings.ontology,
        pipeline=settings.source,
        dry_run=opts.dry_run,
    )
    if added and not opts.dry_run:
        from kgcrawl.ontology.owl import write_ontology

        stem = f"{settings.domain}.v{next_version(folder, settings.domain)}"
        owl_path, ttl_path = folder / f"{stem}.owl", folder / f"{stem}.ttl"
        write_ontology(result.ontology, owl_path, ttl_path)
        result.files = [owl_path, ttl_path]
    return result


def _tightest(onto: Ontology, extent: dict[str, int], bits: int) -> str:
    """The concept whose extent contains `bits` most tightly (module docstring, step 3)."""
    order = {iri: n for n, iri in enumerate(onto.concepts)}
    containing = [iri for iri in onto.concepts if extent[iri] & bits == bits]
    if not containing:
        return onto.root
    return min(
        containing,
        key=lambda iri: (extent[iri].bit_count(), -onto.depth[iri], order[iri]),
    )


def _label_owners(onto: Ontology) -> dict[str, str]:
    """Every label and altLabel, as a token reads it, → the IRI of its concept."""
    owners: dict[str, str] = {}
    for concept in onto.concepts.values():
        for text in concept.all_labels():
            token = normalise_label(text) if is_chinese(text) else " ".join(phrase_of(text))
            if token:
                owners.setdefault(token, concept.iri)
    return owners


def _corpus_documents(settings: Settings, corpus: Path | None) -> list[tuple[str, str]]:
    """(id, text) of the domain's corpus (`calibrate.positives_folder` unless `corpus`
    names one); none when the pipeline's folder does not exist."""
    from kgcrawl.calibrate import positives_folder
    from kgcrawl.text.corpus import read_corpus

    if corpus is None:
        corpus = positives_folder(settings)
        if not corpus.is_dir():
            return []
    return [(doc.id, doc.text) for doc in read_corpus(corpus).documents]


def _off_topic_documents(settings: Settings) -> tuple[list[str], str]:
    """The text of the off-topic documents calibration contrasts the domain with: the
    settings' `calibration.negatives` (the shipped background corpus by default) without
    the folders as on topic as the domain's corpus (calibrate.corpora); none, and why,
    when calibration could not read them (the refresh goes on without)."""
    from kgcrawl.calibrate import CalibrationError, corpora

    try:
        return [doc.text for doc in corpora(settings)[1]], ""
    except CalibrationError as exc:
        return [], str(exc)


def _check_options(opts: RefreshOptions) -> None:
    """Raise RefreshError naming the option that cannot work."""
    check_lattice_options(0, opts.max_concepts, "cbo")
    if not 0 <= opts.min_share <= 1:
        raise RefreshError(f"--min-share is a share of the pages in [0, 1], got {opts.min_share}")
    if opts.min_lift < 1:
        raise RefreshError(f"--min-lift must be at least 1, got {opts.min_lift}")
    if not 0 < opts.significance <= 1:
        raise RefreshError(f"--significance is a probability in (0, 1], got {opts.significance}")
    for name in ("min_pages", "max_new", "min_chars", "max_pages"):
        value = getattr(opts, name)
        if value < 1:
            raise RefreshError(f"{_flag(name)} must be at least 1, got {value}")


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _namespace(iri: str) -> str:
    return iri[: max(iri.rfind("#"), iri.rfind("/")) + 1]


def _unique(name: str, taken: set[str]) -> str:
    unique, n = name, 1
    while unique in taken:
        n += 1
        unique = f"{name}_{n}"
    taken.add(unique)
    return unique
