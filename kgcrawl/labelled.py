"""α calibrated on pages the user labelled: `kgcrawl calibrate DOMAIN --truth FILE --run RUN`.

Calibration on the corpora (calibrate.py) gives one α per ontology, chosen on
composed pages half of which are on topic. The F1 of "R(p) > α" on a crawl also
depends on the share of relevant pages the crawl meets, and that share differs
by strategy and by world (BFS met 16–62 % on the sandbox profiles, a focused
crawl 90 % and more), so no α chosen away from the crawl serves every crawl
(benchmarks/alpha_rules.py). A user who labels pages of their own crawl brings
that share with them: the labels are the JSON Lines manifest of `evaluate
--truth`, the pages those of the run that the manifest lists, each scored with
R(p) as a crawl with today's ontology scores it, from the topic-word counts the
run recorded.

**Interpretation** (the spec calibrates on documents only): the labels correct
the corpora's α only as far as they must. Of the thresholds whose F1 on the
labelled pages is within `calibration.labelled_tolerance` (0.02) of the best, the one nearest
the corpora's α is taken (`calibration.precision`, when set, rules as it does for
the corpora), and it is kept for crawls with the run's strategy only. The middle
of that range, as on the corpora, fell 0.11 below the corpora's α on a typical
crawl: on a crawl nearly all relevant F1 hardly moves below its best threshold,
so the middle judged every page relevant. Replayed over 59 crawls of 3 000
pages (10 strategies × 3 profiles × 2 domains, 5 draws each, `python
benchmarks/alpha_rules.py`), α from 200 labelled pages of the crawl itself gave
F1 ≥ 0.9 × the best threshold's in 295 of 295 draws (worst 0.92; the middle:
294, worst 0.88), from 100 pages in 291 (worst 0.68); the corpora's α passes 46
of 59 crawls. Within 0.04, the corpora's tolerance (calibrate.py says why), α from
200 labels passed 295 and 292 of 295 in two sets of draws (`--labelled 100 200`, and
`--labelled 200`), within 0.02 295 and 294: the labels are pages of the user's own
web, whose best region is the target, so they keep the narrower band
(`calibration.labelled_tolerance`). The same 200 labels taken from the world's
fcits_oh crawl and used for every strategy passed 180 of 235 (worst 0.72: BFS),
which is why the result is not shared across strategies. Crawled again with it (`python
benchmarks/bench_labelled.py`: 1 000 pages, fcits_oh, BFS and FCITS on every profile
and domain, 200 labels of the first crawl), 18 of 18 crawls judged their pages with
F1 ≥ 0.9 × best against 11 of 18 with the corpora's α, and no true harvest fell.
Hence also the floor: fewer than MIN_PAGES labelled pages, or none of one class,
is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from kgcrawl.calibrate import (
    CalibrationError,
    Thresholds,
    cached,
    calibrate,
    keep,
    thresholds_on,
)
from kgcrawl.config import Settings, with_overrides
from kgcrawl.crawl.versions import OntologyVersion, file_sha256, in_force, recorded
from kgcrawl.evaluate.judge import Judge
from kgcrawl.ontology.topic import TopicModel
from kgcrawl.runs import Run, open_run
from kgcrawl.scoring.relevance import dense_counts, page_relevance, topic_nameable
from kgcrawl.scoring.thresholds import separation

MIN_PAGES = 50  # fewer labelled pages are refused: at 100 the worst replayed F1 ratio was 0.68
STEADY_PAGES = 200  # and at 200, 0.92: below this the command says more would help


def wants_labels(truth: object, run: object) -> bool:
    """Whether a calibration is on labelled pages: a manifest and a run, or neither."""
    if (truth is None) != (run is None):
        raise CalibrationError("calibrate: --truth and --run go together (labelled pages of a run)")
    return truth is not None


@dataclass(frozen=True)
class Labelled:
    """R(p) of a run's labelled pages by label, and the pages that could not be used."""

    relevant: tuple[float, ...]
    irrelevant: tuple[float, ...]
    unlisted: int  # downloaded pages the manifest does not list
    other_ontology: int  # pages counted with an ontology other than today's

    @property
    def count(self) -> int:
        return len(self.relevant) + len(self.irrelevant)

    def check(self, where: str) -> None:
        """Refuse too few labelled pages, or labels all of one kind (`where` names them)."""
        if self.count < MIN_PAGES:
            raise CalibrationError(
                f"{where}: {self.count} labelled pages; α needs at least {MIN_PAGES} "
                f"({STEADY_PAGES} or more make it steady; `kgcrawl runs sample` draws them)"
            )
        if not self.relevant or not self.irrelevant:
            kind = "relevant" if self.relevant else "not relevant"
            raise CalibrationError(f"{where}: every labelled page is {kind}; label some of both")


def labelled_scores(run: Run, judge: Judge, settings: Settings, topic: TopicModel) -> Labelled:
    """R(p) under `topic` (`settings`' ontology) of each page of `run` the judge labels.

    A page counted while the run used another ontology version is left out: its
    counts are by that version's concepts.
    """
    today = file_sha256(settings.ontology)
    versions = recorded(run.meta)
    firsts = [version.first for version in versions]
    vector, nameable = topic.vector, topic_nameable(topic)
    scores: tuple[list[float], list[float]] = ([], [])
    unlisted = other = 0
    for outcome in run.outcomes():
        if not outcome.downloaded:  # failures and duplicates: never scored
            continue
        if versions[in_force(firsts, outcome.seq)].sha256 != today:
            other += 1
            continue
        label = judge.label(judge.page(outcome.final_url))
        if label is None:
            unlisted += 1
            continue
        counts = dense_counts(outcome.counts, len(vector))
        relevance = page_relevance(counts, vector, nameable.get(outcome.lang))
        scores[0 if label else 1].append(relevance)
    return Labelled(tuple(scores[0]), tuple(scores[1]), unlisted, other)


@dataclass(frozen=True)
class LabelledCalibration:
    """α from labelled pages, the pages, and the corpora's α with its F1 on those pages."""

    thresholds: Thresholds
    pages: Labelled
    corpus: Thresholds
    corpus_f1: float
    ontology: Path  # the ontology the α is for (`scoring_ontology`)


def calibrate_labelled(settings: Settings, run_id: str, truth: Path) -> LabelledCalibration:
    """Calibrate `settings`' domain on the pages of run `run_id` that the manifest labels.

    The α is for crawls with the run's strategy; the corpora's α (calibrated now
    if missing) stays for the others.
    """
    from kgcrawl.crawl.strategies.base import uses_keywords
    from kgcrawl.evaluate.truth import read_truth
    from kgcrawl.ontology.topic import topic_model_for

    judge = read_truth(truth)
    with open_run(run_id) as run:
        strategy = run.meta["settings"]["crawl.strategy"]
        settings = with_overrides(settings, {"crawl.strategy": strategy}, f"run {run_id}")
        if run.meta.get("domain", settings.domain) != settings.domain:
            raise CalibrationError(
                f"run {run_id} is a crawl of {run.meta['domain']}, not of {settings.domain}: "
                f"calibrate {run.meta['domain']} on it"
            )
        settings = scoring_ontology(settings, recorded(run.meta))
        keywords = uses_keywords(settings)
        pages = labelled_scores(run, judge, settings, topic_model_for(settings, keywords=keywords))
    if pages.count == 0 and pages.other_ontology:
        raise CalibrationError(
            f"run {run_id}: none of its pages was counted with {settings.ontology} as it is "
            "now, and the ontology files it crawled with have changed since; label pages of "
            "a crawl with an ontology as it is now"
        )
    source = f"labelled pages of run {run_id} ({truth})"
    pages.check(source)  # before the corpora's calibration, which may take seconds
    corpus = cached(settings, keywords, labelled=False) or calibrate(settings, keywords)
    # the corpora's α, moved by the labels only as far as they ask (the Interpretation above)
    result = thresholds_on(settings, keywords, pages.relevant, pages.irrelevant, source,
                           prior=corpus.alpha)  # fmt: skip
    result = replace(result, strategy=settings.crawl.strategy, source=source)
    result = keep(result, settings.domain)
    corpus_f1 = separation(pages.relevant, pages.irrelevant, corpus.alpha).f1
    return LabelledCalibration(result, pages, corpus, corpus_f1, settings.ontology)


def scoring_ontology(settings: Settings, versions: list[OntologyVersion]) -> Settings:
    """`settings` with the ontology a run's pages can be scored under: the pipeline's when
    the run crawled with it as it is now, else the last of the run's own that is unchanged.

    A page's recorded counts are by its ontology version's concepts, so a run crawled
    with another file (the demo's FCA ontology, a refreshed `tourism.v2.owl`) has no page
    the pipeline's ontology can score; `runs sample`'s hint named the pipeline's domain
    all the same, and calibrating stopped there. Its α is then the run's ontology's, used
    by crawls given that file (`crawl --ontology FILE`).
    """
    today = file_sha256(settings.ontology)
    if any(version.sha256 == today for version in versions):
        return settings
    for version in reversed(versions):
        path = Path(version.path)
        if path.is_file() and file_sha256(path) == version.sha256:
            return replace(settings, ontology=path)
    return settings
