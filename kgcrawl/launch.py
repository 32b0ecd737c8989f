"""From what a person asks for to a crawl: options → settings → `runner.crawl`.

`kgcrawl crawl` and the Python API (`kgcrawl.crawl`) take the same options and
must mean the same thing by them, so both come through here: named options
override the pipeline like `--set` does, a sandbox crawl waits no delay between
requests (the server is ours; robots.txt `Crawl-delay` still holds) unless a
delay was given, and α/β = "auto" are calibrated before the run starts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgcrawl.config import Settings, load_settings, with_overrides

if TYPE_CHECKING:
    from kgcrawl.crawl.engine import CrawlResult, OnOutcome, Progress
    from kgcrawl.runner import CrawlRequest

Announce = Callable[[str], None]

# Where a value came from when the person chose it (config.py's origins).
_CHOSEN = ("command line", "python")


@dataclass
class CrawlOptions:
    """A new crawl's options; None leaves the pipeline's value."""

    max_pages: int | None = None
    strategy: str | None = None
    workers: int | None = None
    seed: int | None = None
    delay: float | None = None
    graph: str | None = None
    sandbox: bool = False
    sandbox_size: str = "default"
    sandbox_profile: str = "default"
    resolve: tuple[str, ...] = ()
    run_id: str | None = None
    warc: Path | None = None
    ontology: Path | None = None
    executor: str = "local"  # not a setting: where the workers run changes no result
    ray_address: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)  # section.key → value (--set)

    def _named(self) -> dict[str, tuple[str, Any]]:
        """setting → (the named option that gives it, its value; None: not given)."""
        return {
            "crawl.max_pages": ("--max-pages", self.max_pages),
            "crawl.strategy": ("--strategy", self.strategy),
            "crawl.workers": ("--workers", self.workers),
            "crawl.seed": ("--seed", self.seed),
            "fetch.delay": ("--delay", self.delay),
            "graph.uri": ("--graph", self.graph),
            "ontology": ("--ontology", self.ontology.resolve() if self.ontology else None),
        }

    def setting_values(self) -> dict[str, Any]:
        """The overrides with the named options folded in (named options win)."""
        named = {key: value for key, (_, value) in self._named().items() if value is not None}
        return {**self.overrides, **named}

    def overridden(self) -> list[str]:
        """One notice per --set that a named option replaced, which would go unseen.

        >>> CrawlOptions(graph="none", overrides={"graph.uri": "embedded"}).overridden()
        ['--set graph.uri=embedded is not used: --graph none replaces it']
        >>> CrawlOptions(max_pages=5, overrides={"crawl.max_pages": 5}).overridden()
        []
        """
        return [
            f"--set {key}={self.overrides[key]} is not used: {option} {value} replaces it"
            for key, (option, value) in self._named().items()
            if value is not None and key in self.overrides and self.overrides[key] != value
        ]


def sandbox_delay_line(settings: Settings) -> str:
    return (
        f"sandbox: no delay between requests (fetch.delay 0 instead of {settings.fetch.delay:g}; "
        "--delay or --set fetch.delay=… keeps one)"
    )


def crawl_settings(
    domain_or_settings: str | Settings,
    options: CrawlOptions,
    announce: Announce | None = None,
    origin: str = "command line",
) -> Settings:
    """The settings of a new crawl, thresholds calibrated (each notice through `announce`)."""
    from kgcrawl.calibrate import resolve_thresholds
    from kgcrawl.sandbox.world import check_world_options

    # before any notice or calibration
    check_world_options(options.sandbox, options.sandbox_size, options.sandbox_profile)
    values = options.setting_values()
    for line in options.overridden() if announce else ():
        announce(line)
    if isinstance(domain_or_settings, Settings):
        settings = domain_or_settings
        if values:
            settings = with_overrides(settings, values, origin)
    else:
        settings = load_settings(domain_or_settings, values)
    delay_origin = settings.origins.get("fetch.delay", "default")
    chosen = delay_origin in _CHOSEN or delay_origin.startswith("environment")
    if options.sandbox and settings.fetch.delay and not chosen:
        if announce:
            announce(sandbox_delay_line(settings))
        settings = with_overrides(settings, {"fetch.delay": 0.0}, "--sandbox")
    if options.sandbox and announce:
        from kgcrawl.sandbox.lexicon import DOMAIN_TOPICS
        from kgcrawl.sandbox.truth import no_truth

        reason = no_truth(settings.domain)
        if reason is not None:
            announce(f"{reason} (it has truth for {', '.join(DOMAIN_TOPICS)} only)")
    return resolve_thresholds(settings, announce)


def crawl_request(options: CrawlOptions, settings: Settings) -> CrawlRequest:
    """What the runner needs beyond the settings; the sandbox world's seed is the crawl's.

    The run id is chosen now, so that a Ctrl-C before the crawl loop can name the run.
    """
    from kgcrawl.crawl.state import new_run_id
    from kgcrawl.runner import CrawlRequest

    return CrawlRequest(
        resolve=tuple(options.resolve),
        sandbox=options.sandbox,
        sandbox_seed=settings.crawl.seed,
        sandbox_size=options.sandbox_size,
        sandbox_profile=options.sandbox_profile,
        warc=options.warc,
        run_id=options.run_id or new_run_id(settings.domain, settings.crawl.strategy),
        ontology=options.ontology.resolve() if options.ontology else None,
        executor=options.executor,
        ray_address=options.ray_address,
    )


def start_crawl(
    domain_or_settings: str | Settings,
    options: CrawlOptions,
    *,
    announce: Announce | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    on_outcome: OnOutcome | None = None,
    origin: str = "command line",
) -> CrawlResult:
    """Settings, then the crawl: what `kgcrawl crawl DOMAIN` does, as one call."""
    from kgcrawl.runner import crawl

    settings = crawl_settings(domain_or_settings, options, announce, origin)
    request = crawl_request(options, settings)
    return crawl(settings, request, on_progress, on_outcome=on_outcome)
