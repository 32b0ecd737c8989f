"""One crawl's algorithm state: select the next link, fold an outcome in (Algorithm 2).

`fold` is the heart of SPEC §5.1: dedup, R(p) (Eq. 3–4), the counters, the
corpus statistics, the PageRank graph, each child the trap guard admits
(crawl/trap_guard.py) with its R(A) (Eq. 5–6) and P (Eq. 9) into Q_wait or the
discarded pool, a PageRank solve every `pagerank_every` pages
with a vectorised re-scoring of every unvisited link, and the strategy's
`observe`. It does no I/O, so replaying a run's log through it rebuilds the crawl
exactly (crawl/state.py).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from kgcrawl.config import Settings
from kgcrawl.crawl.dedup import Fingerprints
from kgcrawl.crawl.explore import exploring, fruitless, most_linked
from kgcrawl.crawl.frontier import Frontier
from kgcrawl.crawl.held import Held
from kgcrawl.crawl.outcome import DEFERRED, ROBOTS_DOWN, Outcome
from kgcrawl.crawl.strategies.base import CrawlCounters, strategy_class
from kgcrawl.crawl.trap_guard import TrapGuard
from kgcrawl.ontology.topic import TopicModel
from kgcrawl.scoring.anchors import CorpusStats
from kgcrawl.scoring.evidence import EvidenceScorer, source_weights
from kgcrawl.scoring.navigation_floor import floored, navigation_floors, sought_past_probe
from kgcrawl.scoring.pagerank import PageRankGraph
from kgcrawl.scoring.relevance import (
    dense_counts,
    nameable_words,
    page_relevance,
    topic_matcher,
)
from kgcrawl.scoring.thresholds import admission_beta
from kgcrawl.scoring.web_alpha import ComposedPage, WebAlpha, corpora_floor, web_alpha
from kgcrawl.text.urls import canonical_url


@dataclass
class Counters(CrawlCounters):
    """DP and LP (what strategies read), and every outcome folded in."""

    outcomes: int = 0
    promoted: int = 0  # pool links promoted because Q_wait ran dry (SPEC §5.1 turn 2)
    trapped: int = 0  # new links the trap guard did not admit (crawl/trap_guard.py)
    explored: int = 0  # links taken by exploration (crawl/explore.py)
    explore_ended: int = 0  # DP at which exploration ended for good: it did not pay


Rejudged = tuple[tuple[int, bool], ...]  # (seq, relevant) of outcomes judged anew


class _Judged(NamedTuple):
    """A page downloaded while an α may still be found: what `_judge_pending` needs to
    judge it again."""

    seq: int
    link: int
    relevance: float
    lang: str | None
    navigation_only: bool  # its main text names no topic word, yet R(p) > 0


@dataclass(frozen=True)
class Decision:
    """What `Crawl.fold` made of an outcome: R(p) and the judgement, each link's (R(A), P),
    or the page it duplicates (then it is no DP); `rejudged`, earlier outcomes (this one
    too) whose judgement the α found at this page changed."""

    relevance: float | None = None
    relevant: bool = False
    link_scores: list[tuple[float, float]] = field(default_factory=list)
    duplicate_of: str | None = None
    rejudged: Rejudged = ()
    held: bool = False  # refused while its host's robots.txt failed: asked again later

    def applied(self, outcome: Outcome) -> Outcome:
        """The outcome as the run log keeps it: with this decision."""
        reason = f"duplicate of {self.duplicate_of}" if self.duplicate_of else outcome.reason
        if self.held:
            reason = DEFERRED
        return replace(outcome, reason=reason, relevance=self.relevance,
                       relevant=self.relevant, link_scores=self.link_scores)  # fmt: skip


class Crawl:
    """Topic model, frontier, scores and strategy of one crawl."""

    def __init__(
        self,
        settings: Settings,
        rng: random.Random,
        topic: TopicModel,
        composed: Sequence[ComposedPage] = (),
    ) -> None:
        """`topic` is the crawl's topic model (`topic_for(settings)`): the core reads no file.

        `composed`: the pages α was calibrated on (kgcrawl/calibrate.py), when it was
        calibrated on the corpora; with them α is recalibrated on the web's own topic
        words and raised to the navigation floor (`_judge_pending`).
        """
        self.settings = settings
        rel = settings.relevance
        if not all(isinstance(x, float | int) for x in (rel.alpha, rel.beta)):
            raise ValueError(  # kgcrawl.calibrate.resolve_thresholds turns "auto" into numbers
                f"relevance.alpha and relevance.beta must be numbers here, not "
                f"{rel.alpha!r} and {rel.beta!r}: resolve the settings first"
            )
        strategy_cls = strategy_class(settings.crawl.strategy)
        self.counters = Counters(max_pages=settings.crawl.max_pages)
        self.strategy = strategy_cls(settings, rng, self.counters)
        self.frontier = Frontier(
            r=rel.r,
            beta=rel.beta if strategy_cls.uses_beta else None,
            discard_keep=settings.crawl.discard_keep,
            pagerank_scale=rel.pagerank_scale,
        )
        self._use_topic(topic, CorpusStats.empty(len(topic.vector)), {})
        self.graph = PageRankGraph()
        self.fingerprints = Fingerprints()
        self.traps = TrapGuard(settings.crawl.trap_cap)
        fetch = settings.fetch
        self.held = Held(round(fetch.robots_retry * 1000), fetch.robots_tries)  # crawl/held.py
        self.relevances: list[float] = []  # R(p) of each page downloaded, in order
        self._explore_before: np.ndarray | None = None  # R(p) before exploration could begin
        self._explore_since = 0.0  # their sum since
        self.composed = tuple(composed)
        self.web_alpha: WebAlpha | None = None  # α recalibrated on the web's words, if it was
        # the pages an α still to be found would judge again (None: none will be found)
        probes = self.composed and settings.calibration.probe_pages
        self._pending: list[_Judged] | None = [] if probes else None
        self._navigation: Counter[str] = Counter()  # of them, per language, pages whose main
        # text names no topic word
        self._passed = 0  # the pages the settings' α had passed at the probe

    def use_ontology(self, settings: Settings, topic: TopicModel) -> None:
        """Go on with the ontology of `settings` (a new version, crawl/versions.py).

        A concept keeps its document frequency and its anchors' BM25 sums under
        its new index; a new concept starts from nothing; scores already given
        stand. Pages from now on are counted and scored with the new W_T.
        """
        self.settings = settings
        new_index = {iri: j for j, iri in enumerate(topic.weights)}
        moved = {i: new_index[iri] for i, iri in enumerate(self.topic.weights) if iri in new_index}
        stats = CorpusStats.empty(len(new_index))
        stats.pages, stats.total_length = self.stats.pages, self.stats.total_length
        stats.doc_freq[list(moved.values())] = self.stats.doc_freq[list(moved)]
        sums = {
            source: {
                link: {moved[i]: s for i, s in per_word.items() if i in moved}
                for link, per_word in per_link.items()
            }
            for source, per_link in self.anchors.all_sums().items()
        }
        self._use_topic(topic, stats, sums)
        self.composed = ()  # counted with the old version's word indices: no probe
        self._pending = None

    def _use_topic(
        self, topic: TopicModel, stats: CorpusStats, sums: dict[str, dict[int, dict[int, float]]]
    ) -> None:
        rel = self.settings.relevance
        anchors = self.settings.anchors
        weights = source_weights(anchors.evidence, anchors.weights)
        self.topic = topic
        self.topic_vector = topic.vector
        self.matcher = topic_matcher(topic)
        self.nameable = nameable_words(self.matcher.words)
        self.stats = stats
        self.anchors = EvidenceScorer(
            self.topic_vector, self.stats, weights, rel.bm25_k, rel.bm25_b, sums
        )
        self.strategy.use_topic(topic)

    # -- selection -------------------------------------------------------------------

    def seed(self, urls: list[str]) -> None:
        canonical = [c for c in (canonical_url(u) for u in urls) if c]
        self.strategy.seed(self.frontier, canonical)

    def select(self, waiting: Collection[str] = ()) -> int | None:
        """The strategy's next link; when Q_wait ran dry, the best pool link first joins it.

        SPEC §5.1 (turn 2): a crawl ends at its budget, a signal, or when it knows
        no unvisited link, never because no link cleared β. None only then. A
        focused crawl that has found nothing explores every other turn (explore.py).
        `waiting`: hosts that cannot take a request now (Strategy.select).
        """
        link = self._explore()
        if link is None:
            link = self.strategy.select(self.frontier, waiting)
        if link is None and self.frontier.queued_count() == 0:
            promoted = self.frontier.pool_best()
            if promoted is not None:
                self.frontier.promote(promoted)
                self.counters.promoted += 1
                link = self.strategy.select(self.frontier, waiting)
        return link

    def _explore(self) -> int | None:
        """The most-linked unvisited link, taken, on an exploring turn (explore.py)."""
        c = self.counters
        if c.explore_ended or not exploring(c.dp, c.lp, c.outcomes,
                                            self.settings.crawl.explore_after,
                                            self.strategy.uses_beta):  # fmt: skip
            return None
        link = most_linked(*self.frontier.unvisited())
        if link is not None:
            self.frontier.take(link)  # from Q_wait or the pool alike
            c.explored += 1
        return link

    def release_next(self) -> int | None:
        """Nothing else left: the held links due first go back into Q_wait; returns when they
        were due (logged time, ms: the live crawl waits till then), or None if none is held."""
        due = self.held.next_due()
        if due is not None:
            self.release(self.held.due(due))
        return due

    def release(self, links: list[int]) -> None:
        """Held links back into Q_wait (crawl/held.py): their robots.txt may be asked again."""
        for link in links:
            self.frontier.put_back(link)

    def take(self, url: str) -> int:
        """Take a logged link out of Q_wait by URL (replaying a run that had several workers)."""
        link = self.frontier.intern(url)
        self.held.discard(link)
        if self.frontier.state(link) == "pool":
            self.frontier.promote(link)
        if self.frontier.state(link) != "taken":
            self.frontier.take(link)
        return link

    def put_back(self, link: int) -> None:
        self.frontier.put_back(link)

    def url_of(self, link: int) -> str:
        return self.frontier.url_of(link)

    def host_of(self, link: int) -> str:
        return self.frontier.host_of(link)

    @property
    def extractor(self) -> str:
        """The main-text extractor a page fetched now is read with (`text.main_text`):
        trafilatura while the crawl may still find a navigation floor (`_judge_pending`),
        else `crawl.main_text`.

        **Interpretation** (issue 19): the floor counts the pages whose main text names
        no topic word, and its rule was chosen on trafilatura's main text, which keeps a
        home or list page's menus when it finds no article there; resiliparse keeps only
        such a page's own few lines, which often name none. Read with resiliparse from
        the start, focused crawls of the flat profile met 20 such pages within their first
        1 000, raised α to 0.38–0.53 over truly relevant pages, and 7 of 60 crawls fell
        below 0.9 × the best F1 (FCITS on flat tourism 0.98 → 0.66, FCOITS on flat rainstorm
        1.00 → 0.70; 1 000 pages, seed 0, `bench_focus.py`), where none had. Until the
        floor is found, is no longer sought (`sought_past_probe`) or
        `calibration.navigation_within` pages have passed, pages are therefore read as
        before (a page's text and mentions come from one extractor); so read, each of the
        60 crawls gives page by page the R(p) and the judgement it gave with trafilatura
        throughout, and in a 3 000-page crawl (`bench_vs_scrapy.py`) the analysis still
        costs 2 ms of CPU a page less. Nor may resiliparse read the
        pages whose text it finds naming a topic word, trafilatura only the others (a page
        then counts as navigation when neither text names one): trafilatura's names none
        on 95 and 181 of the first 1 000 BFS pages of default and flat tourism where
        resiliparse's names one, and without them the floors of flat tourism fell from
        0.41 to 0.38 and BFS, FCOSA_G and MOACO replayed at 0.81–0.83 of the best F1,
        where the 60 crawls read with trafilatura replay at 0.92 or above
        (`benchmarks/navigation_rules.py`, seed 0).
        """
        cal = self.settings.calibration
        if self._pending is not None and cal.navigation_pages > 0:
            return "trafilatura"
        return self.settings.crawl.main_text

    # -- folding an outcome in ---------------------------------------------------------

    def fold(self, link: int, outcome: Outcome) -> Decision:
        """Algorithm 2 after the download: count, score the page and its children, observe.

        The outcome is read, never written: what the crawl made of it comes back
        as a Decision, which the engine stores beside it.
        """
        self.counters.outcomes += 1
        self.release(self.held.due(outcome.fetched_at))
        if outcome.reason in (ROBOTS_DOWN, DEFERRED) and self.held.hold(link, outcome.fetched_at):
            self.strategy.observe(link, None, False, 0.0)  # stays taken until let go
            return Decision(held=True)
        duplicate = self._duplicate_of(outcome) if outcome.downloaded else None
        if not outcome.downloaded or duplicate is not None:
            self.frontier.visited(link, None)
            self.strategy.observe(link, None, False, 0.0)
            return Decision(duplicate_of=duplicate)
        rel = self.settings.relevance
        counts = dense_counts(outcome.counts, len(self.topic_vector))
        nameable = self.nameable.get(outcome.lang)
        relevance = page_relevance(counts, self.topic_vector, nameable)  # Eq. 3–4
        relevant = relevance > self.alpha(outcome.lang)
        self.counters.dp += 1
        self.counters.lp += int(relevant)
        self.relevances.append(relevance)
        self._judge_exploration(relevance)
        self.fingerprints.add(outcome.content_hash, outcome.simhash, outcome.final_url)

        page = self.graph.add_page()
        self.frontier.visited(link, page)
        self._claim_final_url(link, outcome.final_url, page)
        parents, edge_ra = self.frontier.edges.in_links(link)
        self.graph.add_edges(parents, [page] * len(parents), edge_ra)
        self.stats.add_page(counts.any(axis=1), outcome.length)
        children, link_scores = [], []
        for (url, _), evidence in zip(outcome.links, self._evidence(outcome), strict=True):
            if not self._admits(outcome.final_url, url):
                link_scores.append((0.0, 0.0))  # a trap's link: on the page, not in the frontier
                continue
            child = self.frontier.intern(url)
            children.append((child, evidence[0]))
            link_scores.append(self._add_child(page, relevance, outcome.length, child, evidence))
        self.strategy.observe_anchors(page, children)
        if rel.r[0] > 0 and self.counters.dp % rel.pagerank_every == 0:
            self.solve_pagerank()  # with r1 = 0 no P depends on PageRank: nothing to re-score
        self.strategy.observe(link, page, relevant, relevance)
        rejudged: Rejudged = ()
        if self._pending is not None:
            seq = self.counters.outcomes
            navigation_only = relevance > 0 and not outcome.mentions
            self._pending.append(_Judged(seq, link, relevance, outcome.lang, navigation_only))
            if navigation_only and outcome.lang:
                self._navigation[outcome.lang] += 1
            rejudged = self._judge_pending()
        return Decision(relevance, relevant, link_scores, rejudged=rejudged)

    def _judge_exploration(self, relevance: float) -> None:
        """Ends exploration for good when the pages since it could begin score no higher
        R(p) than the pages before (explore.py `fruitless`)."""
        c, after = self.counters, self.settings.crawl.explore_after
        if not (after and self.strategy.uses_beta) or c.dp <= after or c.explore_ended:
            return
        if self._explore_before is None:
            self._explore_before = np.asarray(self.relevances[:after])
        self._explore_since += relevance
        if c.lp == 0 and fruitless(self._explore_before, self._explore_since, c.dp - after):
            c.explore_ended = c.dp

    def alpha(self, lang: str | None, web: WebAlpha | None = None) -> float:
        """The α a page in `lang` is judged by: the web's (`_judge_pending`; `web`, else the
        crawl's), or the settings'."""
        web = self.web_alpha if web is None else web
        return float(self.settings.relevance.alpha) if web is None else web.alpha(lang)

    def _judge_pending(self) -> Rejudged:
        """At page `calibration.probe_pages`, α recalibrated on the web's words (`_words_alpha`);
        from then on, α raised to the navigation floor (`_navigation_floor`) once
        `calibration.navigation_pages` pages of one language whose main text names no
        topic word have been met. The pages met so far are judged again by the α found;
        returns (seq, relevant) of those judged otherwise.

        **Interpretation** (SPEC §4.6 calibrates on the corpora; a web may name little
        of an ontology built from them): on the flat profile the demo's FCA ontology (142
        concepts, 94 of which no page of the crawl names) left every page below the
        corpora's α 0.41: `kgcrawl demo --sandbox-profile flat` judged 1 page of 2 000
        relevant (F1 0.001 against the truth; best threshold 0.27, F1 0.96) and the
        refresh found no term. Recalibrated after 200 pages on the 46 words they name:
        α 0.28 (Chinese pages 0.29), LP 1 978, F1 0.960, and the refresh has pages to
        learn from (none of whose words splits them beyond chance, ontology/new_terms.py).
        With ontologies built so for both domains (`benchmarks/bench_web_alpha.py`, 1 000
        pages), flat's F1 ÷ best went 0 → 1.00 / 0.98 (fcits_oh, tourism / rainstorm)
        and 0 → 0.68 / 0.99 (BFS), and fcits_oh's true harvest 38 → 92 % / 42 → 93 %
        (judging no page relevant, it explored every other turn). Among off-topic pages
        (BFS on the sparse profile meets no relevant page in 1 000) the pages name 1–3
        topic words, and the α found there (0.06–0.07) would pass a page naming one word
        that the corpora's α does not: the crawl keeps its α (scoring/web_alpha.py
        `web_alpha`).

        **Interpretation** (taken wherever it is lower, not only on a visible failure):
        an α the corpora cannot tell from their own is still the web's. It was first
        taken only when the corpora's α passed at most 1 in 100 probed pages or the α
        found lay below every α whose F1 on the corpora is within `calibration.tolerance`
        of the best: so `build-ontology corpus/rainstorm` (no `--base`) on the default
        web went from F1 0.745 to 0.964 of the best threshold's 0.964 (fcits_oh, 1 000
        pages), BFS 0.646 → 0.864 of 0.887. Inside that range it was kept, because taking
        it lowered BFS's F1 ÷ best by 0.01–0.03; the navigation floor now guards BFS
        (below), and keeping it left FCTS and FCITS on flat rainstorm at 0.88 of the best
        (the keyword model's α 0.44, the web's 0.39 and 0.43, the truth's best 0.37–0.38).
        Replayed over the 60 crawls of 3 000 pages (shipped pipelines, seed 0; R(p) as
        crawled, α from the first 200 or 1 000 pages), crawls below 0.9 × the best F1:
        4 as before (FCOSA_G default tourism 0.90, FCSA / FCTS / FCITS flat rainstorm
        0.88), 2 with the web's α taken wherever lower, 3 with the floor found later
        (next paragraph), 1 with both (FCSA flat rainstorm: the floor's median rule,
        `navigation_floor.py`, passes it); no crawl lost more than 0.01. β follows this
        α only where the corpora's α failed as above: moved with it wherever it was
        lower, β admitted more of the links a page judged relevant names, and at 1 000
        pages FCTS on flat rainstorm lost 3.7 points of true harvest (54.7 → 51.0 %),
        FCOSA_G on sparse rainstorm 6.6 (57.5 → 50.9 %), FCTS on default rainstorm 3.9,
        and no crawl gained; with β kept FCTS on flat rainstorm keeps both (F1 ÷ best
        0.996, 54.7 %). Crawled so with the floor below (`cd benchmarks && python
        bench_focus.py --max-pages 3000 --jobs 2`): all 59 crawls that meet a relevant
        page reach 0.9 × the best F1 (worst 0.92, BFS on flat rainstorm), every true
        harvest as before to 0.2 points.

        **Interpretation** (the floor found after the probe): FCOSA_G on default tourism
        met 15 pages whose main text names no topic word among its first 200, too few for
        a floor, and judged at α 0.39 (F1 0.896 of the best; the truth's range 0.40–0.57);
        its 20th Chinese one came at page 230, whose floor 0.480 gives 0.99 of the best
        (3 000 pages). The floor is therefore found once `calibration.navigation_pages`
        such pages of one language have been met (a count over every language met 19
        Chinese and 1 English one, and found no floor), at the probe or later, but only
        within the first `calibration.navigation_within` pages (1 000): a focused crawl
        meets 0–2 in 1 000 (their pages need not be kept to be judged again), and a
        crawl's early judgement is not rewritten late.

        **Interpretation** (the spec is silent): the α found is the crawl's judgement of
        every page it downloaded with this ontology, so the pages before it are judged
        again by it, in the run log, the graph, LP and FCITS_OH's host counts. Judged by
        the old α, the flat demo's first 200 pages stayed irrelevant though 165 are truly
        relevant: the graph lacked 193 pages the crawl's own α passes (163 truly
        relevant), and the F1 of its judgement was 0.920 (best 0.962; now 0.960). In
        `bench_web_alpha.py` flat's F1 ÷ best went 0.90 → 1.00 / 0.88 → 0.98 (fcits_oh,
        tourism / rainstorm) and 0.65 → 0.68 / 0.92 → 0.99 (BFS), true harvest the same.
        """
        cal, dp = self.settings.calibration, self.counters.dp
        if dp < cal.probe_pages:
            return ()
        web, pages = self.web_alpha, self._pending or []
        if dp == cal.probe_pages:
            self._passed = self.counters.lp
            web = self._words_alpha()
        met = max(self._navigation.values(), default=0)  # of one language
        if met >= cal.navigation_pages > 0:
            web = self._navigation_floor(web, pages)
            self._pending = None
        given_up = dp == cal.probe_pages and not sought_past_probe(
            met, cal.probe_pages, cal.navigation_pages, cal.navigation_within)  # fmt: skip
        if not cal.navigation_pages or dp >= cal.navigation_within or given_up:
            self._pending = None  # these pages are never judged again
        return () if web is None or web is self.web_alpha else self._judge_again(web, pages)

    def _words_alpha(self) -> WebAlpha | None:
        """α recalibrated on the topic words the probed pages name (scoring/web_alpha.py),
        when it is lower than the corpora's; β with it only where the corpora's α failed:
        it passed at most 1 in 100 of those pages (or one), or the α found lies below
        every α the corpora find near-best (`corpora_floor`)."""
        cal = self.settings.calibration
        web = web_alpha(self.composed, self.topic_vector, self.nameable, self.stats.doc_freq > 0,
                        self.alpha(None), cal.tolerance, cal.precision)  # fmt: skip
        if web is None or self.frontier.beta is None:
            return web
        failed = self.counters.lp <= max(1, self.counters.dp // 100)  # visibly
        if failed or min(web.alphas.values()) < corpora_floor(
            self.composed, self.topic_vector, self.nameable, cal.tolerance
        ):
            r2 = self.settings.relevance.r[1]
            self.frontier.set_beta(admission_beta(web.alpha(None), r2, cal.beta_margin))
        return web

    def _navigation_floor(self, web: WebAlpha | None, pages: list[_Judged]) -> WebAlpha | None:
        """`web` with a page language's α raised to what `pages` whose main text names no
        topic word reach through navigation alone (scoring/navigation_floor.py)."""
        cal = self.settings.calibration
        navigation = [(p.lang, p.relevance) for p in pages if p.navigation_only and p.lang]
        passed = [(p.lang, p.relevance) for p in pages if not p.navigation_only and p.lang
                  and p.relevance > self.alpha(p.lang, web)]  # fmt: skip
        floors = navigation_floors(navigation, passed, cal.navigation_quantile,
                                   cal.navigation_pages)  # fmt: skip
        raised = floored(web, float(self.settings.relevance.alpha), floors,
                         self._navigation.total())  # fmt: skip
        if raised is None or raised is web:
            return web
        return replace(raised, floor_after=self.counters.dp)

    def _judge_again(self, web: WebAlpha, pages: list[_Judged]) -> Rejudged:
        """Go on with `web`, judging `pages` again by it: LP and the strategy's host counts
        follow; returns (seq, relevant) of those it judges otherwise."""
        changed = [(p, now) for p in pages if (now := p.relevance > web.alpha(p.lang))
                   != (p.relevance > self.alpha(p.lang))]  # fmt: skip
        for page, now in changed:
            self.counters.lp += 1 if now else -1
            self.strategy.judged_again(self.frontier.host_of(page.link), now)
        before = self.web_alpha.rejudged if self.web_alpha else 0
        self.web_alpha = replace(web, after=self.settings.calibration.probe_pages,
                                 passed=self._passed, rejudged=before + len(changed))  # fmt: skip
        return tuple((page.seq, now) for page, now in changed)

    def fold_logged(self, link: int, outcome: Outcome) -> tuple[Outcome, Rejudged]:
        """`fold`, and the outcome as the run log keeps it (numbered, its decision applied),
        with the logged outcomes the fold judged anew."""
        seq = self.counters.outcomes + 1
        decision = self.fold(link, outcome)
        return replace(decision.applied(outcome), seq=seq), decision.rejudged

    def solve_pagerank(self) -> None:
        """Eq. 8 (normalised), warm-started; every unvisited link re-scored at once."""
        rel = self.settings.relevance
        result = self.graph.solve(damping=rel.damping, omega=rel.omega)
        self.frontier.set_pagerank(result.ranks)

    @staticmethod
    def _evidence(outcome: Outcome) -> list[tuple[dict[int, int], ...]]:
        """Each link's topic-word counts per evidence source (anchor, URL, context)."""
        blank = [{}] * len(outcome.links)  # a run logged before URL and context were kept
        sources = (outcome.anchor_counts, outcome.url_counts or blank,
                   outcome.context_counts or blank)  # fmt: skip
        return list(zip(*sources, strict=True))

    def _add_child(
        self, page: int, relevance: float, length: int, child: int, evidence: tuple[dict, ...]
    ) -> tuple[float, float]:
        link_ra, edge_ra = self.anchors.add(child, evidence, length)  # Eq. 5–6, §4.3 turn 2
        p = self.frontier.add_parent(child, page, relevance, link_ra, edge_ra)  # Eq. 9
        target = self.frontier.page_of(child)
        if target is not None:
            self.graph.add_edges([page], [target], [edge_ra])
        return link_ra, p

    def _admits(self, page_url: str, url: str) -> bool:
        """A link seen before is always taken; a new one unless the trap guard stops it."""
        if self.frontier.link_id(url) is not None or self.traps.admits(page_url, url):
            return True
        self.counters.trapped += 1
        return False

    def _duplicate_of(self, outcome: Outcome) -> str | None:
        """A page already downloaded under another URL, or with (nearly) the same text."""
        known = self.frontier.link_id(outcome.final_url)
        if (
            outcome.final_url != outcome.url
            and known is not None
            and self.frontier.page_of(known) is not None
        ):
            return outcome.final_url
        return self.fingerprints.match(outcome.content_hash, outcome.simhash)

    def _claim_final_url(self, link: int, final_url: str, page: int) -> None:
        """After a redirect, the target URL is this page too: it is not fetched again."""
        if final_url == self.frontier.url_of(link):
            return
        self.frontier.claim(self.frontier.intern(final_url), page)
