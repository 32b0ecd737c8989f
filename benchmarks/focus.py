"""Sequential crawls of the sandbox profiles with each page fetched once: the focus benchmarks.

Every crawl of one world and domain shares one cache of outcomes
(kgcrawl/crawl/trials.py): each follows exactly the sequence `kgcrawl crawl
--workers 1` gives, and an ablation over many settings costs little more than
one crawl per world. Truth comes from the sandbox world itself (`World.truth`),
never from the crawler.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from kgcrawl.calibrate import composed_for, resolve_thresholds
from kgcrawl.config import Settings, load_settings
from kgcrawl.crawl.addresses import parse_resolve
from kgcrawl.crawl.engine import topic_for
from kgcrawl.crawl.fetch import Fetcher
from kgcrawl.crawl.trials import OutcomeCache, analysed_once, run_trial
from kgcrawl.evaluate.judge import TruthScores
from kgcrawl.runner import sandbox_process
from kgcrawl.sandbox.world import World
from kgcrawl.scoring.relevance import topic_matcher
from kgcrawl.scoring.thresholds import best_separation
from kgcrawl.scoring.web_alpha import recalibrated
from kgcrawl.text.analysis import LinkOptions
from kgcrawl.text.urls import canonical_url

PROFILES = ("default", "sparse", "flat")
DOMAINS = ("tourism", "rainstorm")
MARKS = (500, 1000, 3000)


@dataclass
class CrawlFigures:
    """One crawl of one world: what it found and how its own α judged it."""

    label: str
    dp: int
    ended: str  # "budget" or "frontier exhausted"
    promoted: int
    harvest: dict[int, float]  # true harvest at each mark (of the pages it reached)
    lp: int
    f1: float  # the crawl's own "R(p) > α" against the truth
    best_f1: float  # the best threshold's F1 on the same pages
    best_alpha: float
    alpha: float
    seconds: float
    pages: list[tuple[float, bool]] = field(default_factory=list)  # (R(p), truly relevant)
    web_alpha: str = ""  # the α it recalibrated to on the web's words (crawl/core.py), if any
    explored: int = 0  # links taken by exploration (crawl/explore.py)
    explore_ended: int = 0  # the page at which exploration ended, not paying (explore.py)
    floors: dict[str, float] = field(default_factory=dict)  # α raised (navigation_floor.py)
    # the places in `pages` of those whose main text names no topic word, yet R(p) > 0
    navigation_at: list[int] = field(default_factory=list)
    judged: list[bool] = field(default_factory=list)  # the crawl's own judgement of each page

    @property
    def navigation(self) -> int:
        return len(self.navigation_at)

    @property
    def navigation_relevant(self) -> int:
        """Of the navigation-only pages, the truly relevant."""
        return sum(self.pages[i][1] for i in self.navigation_at)


@dataclass
class World1:
    """A profile × domain: its server, its truth and the shared outcome cache."""

    profile: str
    domain: str
    resolve: list[str]
    world: World
    cache: OutcomeCache | None = None
    truth: dict[str, bool] = field(default_factory=dict)

    def relevant(self, fetched: str) -> bool:
        """Truly relevant: the truth of a fetched URL, canonicalised as the crawl keys pages."""
        url = canonical_url(fetched) or fetched
        if url not in self.truth:
            self.truth[url] = self.world.truth(url).relevant(self.domain)
        return self.truth[url]


@contextmanager
def sandbox_world(profile: str, domain: str, seed: int = 0) -> Iterator[World1]:
    with sandbox_process(seed, "default", slow_delay=0.1, hang=2.0, profile=profile) as resolve:
        yield World1(profile, domain, resolve, World(seed, "default", profile))


def settings_for(domain: str, overrides: dict[str, str]) -> Settings:
    base = {"fetch.delay": "0", "graph.uri": "none", "crawl.workers": "1"}
    return resolve_thresholds(load_settings(domain, base | overrides))


def outcome_cache(resolve: list[str], settings: Settings) -> OutcomeCache:
    """Each URL fetched once and analysed as the engine does, for every crawl of one world."""
    fetcher = Fetcher(settings.fetch, parse_resolve(tuple(resolve)))
    matcher = topic_matcher(topic_for(settings))
    # every evidence source is gathered: which of them a crawl weighs is its own setting
    options = LinkOptions(settings.anchors.context_words, settings.anchors.url_host)
    return analysed_once(fetcher, matcher, options)


def run_crawl(w: World1, settings: Settings, label: str, max_pages: int) -> CrawlFigures:
    """One sequential crawl through the shared cache; figures against the world's truth."""
    start = time.monotonic()
    topic = topic_for(settings)
    w.cache = w.cache or outcome_cache(w.resolve, settings)
    trial = run_trial(settings, topic, w.cache, max_pages, composed_for(settings))
    truths = [w.relevant(o.final_url) for o in trial.pages]
    relevances = [o.relevance or 0.0 for o in trial.pages]
    counters = trial.crawl.counters
    dp, alpha = counters.dp, float(settings.relevance.alpha)
    scores = TruthScores.of(zip(relevances, truths, (o.relevant for o in trial.pages), strict=True))
    best = best_separation(scores.relevant, scores.irrelevant)
    cumulative = np.cumsum(truths) if truths else np.zeros(0)
    navigation_at = [i for i, o in enumerate(trial.pages) if (o.relevance or 0.0) > 0
                     and not o.mentions]  # fmt: skip
    web = trial.crawl.web_alpha
    return CrawlFigures(
        label=label,
        dp=dp,
        ended="budget" if dp >= max_pages else "frontier exhausted",
        promoted=counters.promoted,
        harvest={m: float(cumulative[min(m, dp) - 1] / min(m, dp)) for m in MARKS if dp},
        lp=counters.lp,
        f1=scores.own(alpha).f1,
        best_f1=best.f1,
        best_alpha=best.alpha,
        alpha=alpha,
        seconds=time.monotonic() - start,
        pages=list(zip(relevances, truths, strict=True)),
        web_alpha=recalibrated(web.record()) if web else "",
        explored=counters.explored,
        explore_ended=counters.explore_ended,
        floors=web.floors if web else {},
        navigation_at=navigation_at,
        judged=[bool(o.relevant) for o in trial.pages],
    )


def cell(f: CrawlFigures, mark: int) -> str:
    """True harvest at a mark, † when the crawl ended before it."""
    if mark not in f.harvest:
        return "-"
    early = "†" if f.dp < mark else ""
    return f"{f.harvest[mark]:.1%}{early}"


def run_grid(
    profile: str,
    domain: str,
    configs: list[tuple[str, dict[str, str]]],
    max_pages: int,
    world_seed: int = 0,
) -> list[tuple[str, str, CrawlFigures]]:
    """Every (label, overrides) config on one world, sharing its outcome cache."""
    out = []
    with sandbox_world(profile, domain, world_seed) as w:
        for label, overrides in configs:
            figures = run_crawl(w, settings_for(domain, overrides), label, max_pages)
            out.append((profile, domain, figures))
            print(f"{profile:8} {domain:9} {label:28} DP {figures.dp:5} "
                  f"@500 {cell(figures, 500):>7} @1000 {cell(figures, 1000):>7} "
                  f"({figures.seconds:.0f} s, {len(w.cache)} cached)", flush=True)  # fmt: skip
    return out


def world_arguments(parser, max_pages: int = 3000) -> None:
    """The options every focus benchmark takes: budget, parallel worlds, which worlds."""
    parser.add_argument("--max-pages", type=int, default=max_pages)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--profiles", nargs="+", default=list(PROFILES))
    parser.add_argument("--domains", nargs="+", default=list(DOMAINS))
    parser.add_argument("--save", help="also write every crawl's figures and pages to this JSON")
    parser.add_argument(
        "--world-seed", type=int, default=0, help="sandbox seed: another world of each profile"
    )


def save_rows(rows: list[tuple[str, str, CrawlFigures]], path: str | None) -> None:
    """Every crawl's figures, with (R(p), truth) of each page, for analysis after the run."""
    if path:
        data = [{"profile": p, "domain": d, **asdict(f)} for p, d, f in rows]
        Path(path).write_text(json.dumps(data))


def grid_jobs(configs, profiles, domains, max_pages, jobs: int, world_seed: int = 0):
    """`run_grid` over every profile × domain, `jobs` worlds at a time."""
    from concurrent.futures import ProcessPoolExecutor

    tasks = [(p, d, configs, max_pages, world_seed) for p in profiles for d in domains]
    with ProcessPoolExecutor(jobs) as pool:
        return [row for rows in pool.map(run_grid, *zip(*tasks, strict=True)) for row in rows]
