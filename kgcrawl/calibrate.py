"""Calibrated α and β (SPEC §4.6): found per ontology, cached, never guessed.

The paper tuned α on its own implementation; ours tops out near R(p) = 0.6, so
a fixed α = 0.70 judges no page relevant on any world measured. Calibration
scores pages made of on-topic text (the domain's corpus) and off-topic text
(the shipped background corpus, 18 unrelated topics in Chinese and English)
through the same parse, topic-word counts and R(p) (Eq. 3–4) the crawl uses,
and takes α = the middle of the thresholds whose F1 between pages that are
mostly on topic and the others is within `calibration.tolerance` of the best (or
the lowest α with a given precision); β = r2·α·margin
admits a link found on a page just judged relevant, even with no PageRank and
no anchor evidence (scoring/thresholds.py).

**Interpretation** (the spec says "documents scored as pages"): whole documents
did not transfer. R(p) grows with the number of distinct topic words a page
names, so it depends on page length, and off-topic web pages mention the topic
in passing (navigation, related links, a companion theme) where a clean
background document mentions it never. Scored as they are, tourism documents
(p50 0.33) and background documents (max 0.13) gave α = 0.14; on a BFS crawl
of the default sandbox that α has F1 0.68 against the truth, the best α (0.49)
0.87. So calibration composes pages as the web does: each page has a topic
share s drawn uniformly in [0, 1], is `calibration.page_tokens` tokens of
paragraphs drawn from on-topic documents (share s) and background documents
(the rest) under the title of one of them, and counts as relevant when
s ≥ `calibration.share`. At 600 tokens (the sandbox's median page is 560–610
tokens; a web page's main text is typically 400–1 000 words) and share 0.5
this gives α = 0.39 (tourism) and 0.52 (rainstorm) against best-F1 α of 0.49
and 0.55 on the default sandbox (benchmarks/bench_calibrate.py).

Why the middle and not the argmax: for rainstorm the calibration pages' F1 is
flat from α 0.30 to 0.54 (0.75–0.78), so the argmax (0.51) was noise, and on the
sparse and flat webs, where the best α is 0.39–0.42, it cut F1 to 0.83 × the
best (benchmarks/bench_focus.py).

Why within 0.04 of the best (`calibration.tolerance`): on 400 composed pages the
F1 of one threshold has a bootstrap standard error of 0.012–0.017, and rainstorm's
curve has two near-equal modes (a plateau at 0.35–0.43, a peak at 0.48–0.52). Within
0.02 (≈ 1.3 standard errors) the middle jumped between them: 0.42, where the median
over 100 bootstrap resamples of the same pages is 0.47–0.49, and 0.50 once English
labels were counted in the plural too (scoring/relevance.py `topic_labels`), which
raised the best F1 by 0.003. Within 0.04 the chosen α equals that bootstrap median
to ±0.01 with either scoring (tourism 0.38 / 0.39, rainstorm 0.41 / 0.42; keyword
models 0.39 / 0.39 and 0.42 / 0.44). Replayed over the 59 crawls below (their R(p)
as recorded, before the plurals), F1 ≥ 0.9 × the best was reached by 46 (0.02: 42)
and, at the α with plurals, by 45 (0.02: 40, losing fcits_oh on sparse rainstorm);
the worst is still BFS on flat rainstorm, 0.72.

Why one α per ontology, not one per crawl: a crawl that meets few relevant pages
(BFS, 16–47 % on the profiles) wants a higher α than the half-relevant calibration
pages give, a focused one (90 %+) does not, and a world in a narrow register (flat)
wants a lower one. Replayed over 59 crawls of 3 000 pages (10 strategies × 3
profiles × 2 domains, `benchmarks/alpha_rules.py`), F1 ≥ 0.9 × the best threshold's
was reached by 42 with the α calibrated within 0.02 (worst 0.72: BFS on flat), 46 / 51 with α
raised by 0.03 / 0.06 (worst 0.50 / 0.14: FCTS and FCITS on flat), 36 with α adapted
to each crawl's prevalence estimated from the two calibration densities (worst 0.00)
and 42 when the densities may also shift (worst 0.01). Estimates from a crawl's own
unlabelled R values fail where the world's pages score unlike the calibration's, and
then they fail completely; the calibrated α's worst case is the mildest. Nor would
the truth's own best α per ontology do: the α that passes every strategy of all three
profiles is 0.42–0.43 for tourism's ontology (calibrated 0.38) and none for rainstorm's
(default needs ≥ 0.49, sparse ≤ 0.48); the keyword models pass with 0.23–0.38 and
0.20–0.43 (calibrated 0.39 and 0.45).

The composed pages are cached with α (as W_D of the topic words each names), and
after its first `calibration.probe_pages` pages a crawl calibrates again on them,
projected onto the topic words its pages name, and goes on with that α where it is
lower (scoring/web_alpha.py, crawl/core.py `_judge_pending`): a web whose register the
corpora do not share scores lower. A page language's α is raised, at the probe or
later, to what the pages whose main text names no topic word reach through their
navigation alone (scoring/navigation_floor.py): the composed pages have no
navigation, and this is what a crawl that meets few relevant pages (BFS, above) was
missing.

The result is cached by a hash of everything that changes it: the ontology
file's contents, the topic, k, τ, whether the strategy weighs every topic word
alike (FCTS, FCITS), r2, the calibration settings and the two corpora's
contents. The anchor evidence settings (`anchors.*`) are not in it: α is a
threshold on R(p), which no link evidence enters, and β admits a link with no
evidence at all, which URL or context words can only lift above β, never
below. The cache lives in the user's cache folder (`$KGCRAWL_CACHE`, else
`$XDG_CACHE_HOME/kgcrawl`, else `~/.cache/kgcrawl`), shared by every run and
data folder, as pip's and jieba's are. An α chosen on pages the user labelled
(labelled.py) is cached beside it for one strategy, and found first.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kgcrawl.calibration_pages import compose_pages, document_page, folder_of, near_folders
from kgcrawl.config import AUTO, CHECKOUT, Settings, cache_dir
from kgcrawl.errors import KgcrawlError
from kgcrawl.scoring.thresholds import (
    Separation,
    admission_beta,
    nearest_separation,
    precise_separation,
    ranked_above,
    robust_separation,
)
from kgcrawl.scoring.web_alpha import ComposedPage

if TYPE_CHECKING:
    from kgcrawl.text.analysis import PageAnalysis
    from kgcrawl.text.corpus import Document

CACHE_VERSION = 8  # bump when the making or scoring of calibration pages changes


class CalibrationError(KgcrawlError):
    """Calibration cannot run: a corpus is missing, or no threshold fits."""


@dataclass(frozen=True)
class Thresholds:
    """α and β of one topic model, how well α separated the documents, and the scores."""

    alpha: float
    beta: float
    separation: Separation  # "R > α" on the documents: precision, recall, F1
    positives: tuple[float, ...]  # R of each composed page that is mostly on topic
    negatives: tuple[float, ...]  # R of each of the others
    key: str
    origin: str = "calibrated now"
    strategy: str | None = None  # None: every strategy of the model; else labelled.py's
    source: str = ""  # what it was calibrated on, when not the corpora
    composed: tuple[ComposedPage, ...] = ()  # the corpora's pages, for a crawl's web α
    left_out: dict[str, float] = field(default_factory=dict)  # near folders: median R

    @property
    def plot(self) -> Path:
        return entry(self.key, self.strategy, ".png")


def entry(key: str, strategy: str | None = None, suffix: str = ".json") -> Path:
    """A cache file: the corpora's thresholds of a key, or those of labelled pages for a
    strategy beside them."""
    return cache_dir() / f"{key}{'.' + strategy if strategy else ''}{suffix}"


def default_positives(pipelines: Path, domain: str) -> Path:
    """The on-topic documents of a pipeline in the folder `pipelines` that names none."""
    return pipelines.parent / "corpus" / domain


def positives_folder(settings: Settings) -> Path:
    """The domain's on-topic documents (the corpus its ontology comes from, which calibrates
    α and which the refresh learns beside): `calibration.positives`, else corpus/<domain>."""
    here = settings.source.parent if settings.source else Path.cwd()
    positives = settings.calibration.positives
    return here / positives if positives else default_positives(here, settings.domain)


def corpus_folders(settings: Settings) -> tuple[Path, Path]:
    """(on-topic, off-topic) folders: the settings', else corpus/<domain> and corpus/background."""
    cal = settings.calibration
    here = settings.source.parent if settings.source else Path.cwd()
    positives = positives_folder(settings)
    negatives = here / cal.negatives if cal.negatives else CHECKOUT / "corpus" / "background"
    for what, key, folder in (
        ("on-topic", "calibration.positives", positives),
        ("off-topic", "calibration.negatives", negatives),
    ):
        if not folder.is_dir():
            raise CalibrationError(
                f"{settings.source}: no {what} documents to calibrate α on ({folder} is not a "
                f"folder): set {key}, or give relevance.alpha and relevance.beta as numbers"
            )
    return positives.resolve(), negatives.resolve()


def readable_corpus(folder: Path, key: str) -> None:
    """A one-line error naming `key` unless `folder` holds a document calibration can read:
    `pipeline init` and `check` said ok to a folder of empty or binary files, and the
    first crawl then failed on it."""
    from kgcrawl.text.corpus import CorpusError, read_corpus

    try:
        read_corpus(folder)
    except CorpusError as exc:
        raise CalibrationError(f"{key} {exc}") from None  # "--corpus x: empty corpus (…)"


def calibration_key(settings: Settings, keywords: bool) -> str:
    """A hash of everything that changes the calibrated values: 16 hex digits (64 bits), so
    that the cache file's path, which `runs show` and `pipeline check` print, fits a line."""
    digest = hashlib.blake2b(digest_size=8)
    rel, cal = settings.relevance, settings.calibration
    positives, negatives = corpus_folders(settings)
    parts = [CACHE_VERSION, settings.topic, rel.k, rel.tau, keywords, rel.r[1], asdict(cal)]
    digest.update(json.dumps(parts).encode())
    digest.update(settings.ontology.read_bytes())
    for folder in (positives, negatives):
        for file in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(file.relative_to(folder).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


def cached(settings: Settings, keywords: bool = False, labelled: bool = True) -> Thresholds | None:
    """The cached thresholds of these settings, or None.

    Those calibrated on labelled pages of a crawl with the settings' strategy
    (labelled.py) come first, unless `labelled` is False.
    """
    key = calibration_key(settings, keywords)
    strategies = [settings.crawl.strategy] if labelled else []
    for path in (entry(key, strategy) for strategy in [*strategies, None]):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            data["separation"] = Separation(**data["separation"])
            data["positives"] = tuple(data["positives"])
            data["negatives"] = tuple(data["negatives"])
            data["composed"] = tuple(map(ComposedPage.from_json, data.get("composed", ())))
            on = f" on {data['source']}" if data.get("source") else ""
            return Thresholds(**{**data, "origin": f"calibrated{on}, cached in {path}"})
        except (OSError, ValueError, TypeError, KeyError):
            continue  # missing or unreadable: calibrate again
    return None


def composed_for(settings: Settings) -> tuple[ComposedPage, ...]:
    """The composed pages of the settings' α when it is the corpora's calibrated one (a
    crawl recalibrates on them for its web, scoring/web_alpha.py); () for an α set as a
    number or chosen on labelled pages."""
    from kgcrawl.crawl.strategies.base import uses_keywords

    if not settings.origins.get("relevance.alpha", "").startswith("calibrated"):
        return ()
    found = cached(settings, uses_keywords(settings))
    if found is None or found.source or found.alpha != settings.relevance.alpha:
        return ()
    return found.composed


def labelled_entry(settings: Settings, keywords: bool) -> Path:
    """Where α calibrated on labelled pages of a crawl with the settings' strategy is cached."""
    return entry(calibration_key(settings, keywords), settings.crawl.strategy)


def page_scorer(
    settings: Settings, keywords: bool
) -> Callable[[bytes], tuple[float, PageAnalysis]]:
    """R(p) of a page (Eq. 3–4) as a crawl with these settings scores it, and its analysis."""
    from kgcrawl.ontology.topic import topic_model_for
    from kgcrawl.scoring.relevance import nameable_words, page_relevance, topic_matcher
    from kgcrawl.text.analysis import analyse_page

    topic = topic_model_for(settings, keywords=keywords)
    matcher = topic_matcher(topic)
    nameable = nameable_words(matcher.words)

    def score(page: bytes) -> tuple[float, PageAnalysis]:
        analysis = analyse_page(page, "http://calibration/", matcher)
        return page_relevance(analysis.counts, topic.vector, nameable.get(analysis.lang)), analysis

    return score


def corpora(
    settings: Settings, score: Callable[[bytes], tuple[float, PageAnalysis]] | None = None
) -> tuple[list[Document], list[Document], dict[str, float]]:
    """The on-topic and off-topic documents, and the off-topic folders left out as near the
    domain with their median R (calibration_pages.near_folders); `score` is a page scorer
    of the settings (`page_scorer`), made here when not given. refresh-ontology contrasts
    a crawl's relevant pages with the same off-topic documents."""
    from kgcrawl.text.corpus import read_corpus

    positives_dir, negatives_dir = corpus_folders(settings)
    score = score or page_scorer(settings, keywords=False)
    positives = read_corpus(positives_dir).documents
    negatives = read_corpus(negatives_dir).documents
    left_out = near_folders(positives, negatives, lambda text: score(document_page(text))[0])
    negatives = [doc for doc in negatives if folder_of(doc) not in left_out]
    if not negatives:
        raise CalibrationError(
            f"{negatives_dir}: every folder of off-topic documents ({', '.join(left_out)}) is "
            f"as on topic as {positives_dir}: set calibration.negatives (--negatives) to others"
        )
    return positives, negatives, left_out


def calibrate(settings: Settings, keywords: bool = False) -> Thresholds:
    """Score both corpora as pages, choose α and β, write the cache and the plot."""
    positives_dir, negatives_dir = corpus_folders(settings)
    score = page_scorer(settings, keywords)
    positives, negatives, left_out = corpora(settings, score)
    scores: tuple[list[float], list[float]] = ([], [])
    composed = []
    for page, relevant in compose_pages(positives, negatives, settings.calibration):
        relevance, analysis = score(page)
        scores[0 if relevant else 1].append(relevance)
        composed.append(ComposedPage.of(analysis.counts, analysis.lang, relevant))
    result = thresholds_on(settings, keywords, *scores, f"{positives_dir} against {negatives_dir}")
    result = replace(result, composed=tuple(composed), left_out=left_out)
    with contextlib.suppress(OSError):  # a cache that cannot be written has no such entry
        labelled_entry(settings, keywords).unlink(missing_ok=True)  # the corpora's α, for all
    return keep(result, settings.domain)


def thresholds_on(
    settings: Settings,
    keywords: bool,
    relevant: Sequence[float],
    irrelevant: Sequence[float],
    what: str,
    prior: float | None = None,
) -> Thresholds:
    """α and β from R of pages known to be relevant and not; `what` names them in the
    error when no α fits. α: the lowest of `calibration.precision`, else of those whose F1
    is within `calibration.tolerance` of the best the middle, or with a `prior` (labelled
    pages, labelled.py) of those within `calibration.labelled_tolerance` the nearest it."""
    cal = settings.calibration
    if cal.precision:
        chosen = precise_separation(relevant, irrelevant, cal.precision)
        if chosen is None:
            raise CalibrationError(
                f"{settings.source}: no α reaches precision {cal.precision} on {what}"
            )
    elif prior is None:
        chosen = robust_separation(relevant, irrelevant, cal.tolerance)
    else:
        chosen = nearest_separation(relevant, irrelevant, cal.labelled_tolerance, prior)
    beta = admission_beta(chosen.alpha, settings.relevance.r[1], cal.beta_margin)
    return Thresholds(chosen.alpha, round(beta, 4), chosen, tuple(relevant),
                      tuple(irrelevant), calibration_key(settings, keywords))  # fmt: skip


def thresholds_for(
    settings: Settings,
    keywords: bool = False,
    announce: Callable[[str], None] | None = None,
    compute: bool = True,
) -> Thresholds | None:
    """Cached thresholds, or a calibration now (said in one line through `announce`).

    With `compute=False` a missing cache gives None (for `pipeline check`).
    """
    found = cached(settings, keywords)
    if found is not None or not compute:
        return found
    if announce is not None:
        announce(
            f"calibrating α and β for {settings.domain} (no cached values for this ontology); "
            f"`kgcrawl calibrate {settings.domain}` shows the details"
        )
    return calibrate(settings, keywords)


def resolve_thresholds(
    settings: Settings, announce: Callable[[str], None] | None = None, compute: bool = True
) -> Settings:
    """Settings with `alpha = "auto"` / `beta = "auto"` replaced by calibrated numbers.

    β = "auto" with a numeric α follows that α (`admission_beta`); the origins
    say where each value came from, for `pipeline check` and the run's record.
    With `compute=False` and nothing cached, "auto" stays and its origin says so.
    """
    from kgcrawl.crawl.strategies.base import uses_keywords

    rel = settings.relevance
    if AUTO not in (rel.alpha, rel.beta):
        return settings
    keywords = uses_keywords(settings)
    origins = dict(settings.origins)
    alpha = rel.alpha
    if alpha == AUTO:
        why = f"not calibrated yet: `kgcrawl calibrate {settings.domain}`"
        try:
            found = thresholds_for(settings, keywords, announce, compute)
        except CalibrationError as exc:  # no corpus: `pipeline check` says so, a crawl stops
            if compute:
                raise
            found, why = None, f"cannot calibrate: {exc}"
        if found is None:
            for key in ("relevance.alpha", "relevance.beta"):
                origins[key] = why
            return replace(settings, origins=origins)
        alpha = found.alpha
        origins["relevance.alpha"] = found.origin
        warning = weak_separation(found, settings.domain)
        if warning and announce is not None:
            announce(warning)
    beta = rel.beta
    if beta == AUTO:
        margin = settings.calibration.beta_margin
        beta = round(admission_beta(alpha, rel.r[1], margin), 4)
        origins["relevance.beta"] = f"r2 · α · {margin} (calibration.beta_margin)"
    return replace(settings, relevance=replace(rel, alpha=alpha, beta=beta), origins=origins)


# Interpretation: below this share of (on-topic, off-topic) pairs ranked right by R(p)
# (`ranked_above`), the corpora's pages do not separate and α is said to be no judge. The
# 33 calibrations of the shipped and demo ontologies cached here rank 86–98 % of pairs
# right; a tester's own 26-document volcano corpus, whose Chinese W_T held six words,
# 40–43 %: its off-topic pages scored higher, and its α of 0.36 (recall 100 %) judged
# a crawl's clearly on-topic pages irrelevant and off-topic ones relevant, unsaid.
WEAK_SEPARATION = 0.7


def weak_separation(result: Thresholds, domain: str) -> str | None:
    """One line when R(p) hardly tells the calibration's pages apart, else None.

    >>> from kgcrawl.scoring.thresholds import separation
    >>> pages = Thresholds(0.36, 0.06, separation([0.7], [0.8], 0.36), (0.7,), (0.8,), "k")
    >>> print(weak_separation(pages, "volcanoes"))  # doctest: +NORMALIZE_WHITESPACE
    warning: R(p) hardly tells the on-topic pages of the calibration from the off-topic
    ones (it ranks 0% of pairs right; 50% is chance), so α = 0.36 is no judge of
    relevance: label pages of a crawl (`kgcrawl runs sample RUN`, then `kgcrawl calibrate
    volcanoes --truth FILE`), or give a larger corpus of the domain
    """
    right = ranked_above(result.positives, result.negatives)
    if right >= WEAK_SEPARATION:
        return None
    return (
        f"warning: R(p) hardly tells the on-topic pages of the calibration from the off-topic "
        f"ones (it ranks {right:.0%} of pairs right; 50% is chance), so α = {result.alpha:.2f} "
        f"is no judge of relevance: label pages of a crawl (`kgcrawl runs sample RUN`, then "
        f"`kgcrawl calibrate {domain} --truth FILE`), or give a larger corpus of the domain"
    )


NOT_CACHED = "calibrated now, not cached"


def keep(result: Thresholds, domain: str) -> Thresholds:
    """`result` with its cache entry and plot written. Where the cache folder cannot be
    written (a read-only home) α is calibrated all the same, every time, and its origin
    says so: `calibrate` and a first crawl used to fail there."""
    try:
        write_cache(result)
        plot_distributions(result, domain)
    except OSError as exc:
        return replace(result, origin=f"{NOT_CACHED} ({cache_dir()}: {exc.strerror or exc})")
    return result


def write_cache(result: Thresholds) -> None:
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    data = asdict(result)
    del data["origin"]
    final = entry(result.key, result.strategy)
    temporary = folder / f".{final.name}.{os.getpid()}.tmp"
    temporary.write_text(json.dumps(data), encoding="utf-8")
    temporary.replace(final)  # atomic: parallel crawls may race


def plot_distributions(result: Thresholds, domain: str) -> Path:
    """Histograms of R on both corpora with α marked (PNG beside the cache entry)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 3.6))
    axes = figure.subplots()
    bins = [step / 50 for step in range(51)]
    names = ("not relevant", "relevant") if result.source else ("off-topic", "on-topic")
    what = "labelled pages" if result.source else "on-topic and off-topic documents"
    axes.hist(result.negatives, bins=bins, alpha=0.6, label=f"{names[0]} ({len(result.negatives)})")
    axes.hist(result.positives, bins=bins, alpha=0.6, label=f"{names[1]} ({len(result.positives)})")
    axes.axvline(result.alpha, color="black", linestyle="--", label=f"α = {result.alpha:.2f}")
    axes.axvline(result.beta, color="grey", linestyle=":", label=f"β = {result.beta:.3f}")
    axes.set_xlabel("R(p)")
    axes.set_ylabel("pages" if result.source else "documents")
    axes.set_title(f"{domain}: R(p) of {what} (F1 {result.separation.f1:.2f})")
    axes.legend(fontsize=8)
    figure.tight_layout()
    result.plot.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(result.plot, dpi=100)
    return result.plot
