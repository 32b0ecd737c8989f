"""kgcrawl as a library: crawl a domain, build its ontology, calibrate α/β, read runs back.

    >>> import kgcrawl
    >>> result = kgcrawl.crawl("tourism", sandbox=True, max_pages=50)  # doctest: +SKIP
    >>> for page in kgcrawl.open_run(result.run_id):  # doctest: +SKIP
    ...     print(page.relevance, page.url, page.concepts)

Importing `kgcrawl` loads nothing heavy (the command line starts through it):
every function imports what it needs when called. A plain script can call
`kgcrawl.crawl` at top level, without `if __name__ == "__main__":`, also with
several workers (kgcrawl/crawl/analysers.py says how).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kgcrawl.calibrate import Thresholds
    from kgcrawl.config import Settings
    from kgcrawl.crawl.engine import CrawlResult
    from kgcrawl.ontology.build import BuildResult
    from kgcrawl.ontology.refresh import RefreshResult
    from kgcrawl.runs import PageRecord, Run

__all__ = [
    "__version__",
    "build_ontology",
    "calibrate",
    "crawl",
    "load_settings",
    "open_run",
    "query",
    "refresh_ontology",
    "resume",
]


class _Package(types.ModuleType):
    """`kgcrawl.crawl` and `kgcrawl.calibrate` stay the functions below.

    Importing the subpackage `kgcrawl.crawl` or the module `kgcrawl.calibrate` makes
    the import system set it as an attribute of this package, which would replace
    the function of the same name; here that assignment is skipped (the submodule
    stays in `sys.modules`, so every `from kgcrawl.crawl.… import …` still works).
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name in ("crawl", "calibrate") and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> str:
    if name == "__version__":  # read when asked: importlib.metadata is not free
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("kgcrawl")
        except PackageNotFoundError:
            return "0+unknown"
    raise AttributeError(f"module 'kgcrawl' has no attribute {name!r}")


def load_settings(domain: str, set: Mapping[str, Any] | None = None) -> Settings:
    """A domain's settings (`pipelines/<domain>.toml` or a pipeline file), `set` applied."""
    from kgcrawl.config import load_settings as load

    return load(domain, _settings_map(set))


def _settings_map(set: Mapping[str, Any] | None) -> dict[str, Any]:
    """`set` as a dict, or a one-line error: a list of "key=value" (as the command line
    writes them) failed with Python's "dictionary update sequence element #0"."""
    if set is not None and not isinstance(set, Mapping):
        from kgcrawl.config import SettingsError

        raise SettingsError(f"set: a mapping such as {{'relevance.alpha': 0.5}}, got {set!r}")
    return dict(set or {})


def _entries(resolve: Iterable[str] | str) -> tuple[str, ...]:
    """The HOST=ADDR:PORT entries; one given alone as text is one entry, not its characters."""
    return (resolve,) if isinstance(resolve, str) else tuple(resolve)


def crawl(
    domain_or_settings: str | Settings,
    *,
    max_pages: int | None = None,
    strategy: str | None = None,
    workers: int | None = None,
    seed: int | None = None,
    delay: float | None = None,
    sandbox: bool = False,
    sandbox_size: str = "default",
    sandbox_profile: str = "default",
    resolve: Iterable[str] | str = (),
    run_id: str | None = None,
    graph: str | None = None,
    executor: str = "local",
    ray_address: str | None = None,
    set: Mapping[str, Any] | None = None,
    on_page: Callable[[PageRecord], None] | None = None,
) -> CrawlResult:
    """Crawl a domain (a name, a pipeline file or Settings) until the budget or the frontier ends.

    The options are those of `kgcrawl crawl` (`seed` seeds the strategy and, with
    `sandbox=True`, the sandbox world, as `--seed`); `set` overrides any setting
    (`{"relevance.alpha": 0.5}`), `graph="none"` crawls without the knowledge graph,
    `executor="ray"` runs the workers on a Ray cluster (`ray_address`, as `--ray-address`).
    `on_page(record)` is called once per downloaded page as the crawl folds it in,
    with its url, title, main text, R(p), relevance and concepts ({label: count}).
    The run is kept under `$KGCRAWL_HOME/runs/` (else `.kgcrawl/runs/`): `open_run` reads it.
    """
    import logging

    from kgcrawl.launch import CrawlOptions, crawl_request, crawl_settings
    from kgcrawl.runner import crawl as run
    from kgcrawl.runs import page_hook

    options = CrawlOptions(
        max_pages=max_pages, strategy=strategy, workers=workers, seed=seed, delay=delay,
        graph=graph, sandbox=sandbox, sandbox_size=sandbox_size, sandbox_profile=sandbox_profile,
        resolve=_entries(resolve), run_id=run_id, executor=executor, ray_address=ray_address,
        overrides=_settings_map(set),
    )  # fmt: skip
    notice = logging.getLogger("kgcrawl").info
    settings = crawl_settings(domain_or_settings, options, notice, origin="python")
    request = crawl_request(options, settings)
    with page_hook(request.run_id, on_page) as on_outcome:
        return run(settings, request, on_outcome=on_outcome)


def resume(
    run_id: str,
    *,
    max_pages: int | None = None,
    ontology: str | Path | None = None,
    resolve: Iterable[str] | str = (),
    executor: str = "local",
    ray_address: str | None = None,
    on_page: Callable[[PageRecord], None] | None = None,
) -> CrawlResult:
    """Go on with a run, stopped, killed or at its budget, with the settings it started with.

    What `kgcrawl crawl --resume RUN` does: `max_pages` a larger budget, `ontology` a new
    version (a `refresh_ontology` file) from the next page on, `resolve` more
    HOST=ADDR:PORT, `executor` / `ray_address` as for `crawl`. `on_page` sees the pages
    downloaded from here on, their concepts named by the ontology they were judged with.
    """
    from kgcrawl.runner import CrawlRequest, RequestError
    from kgcrawl.runner import resume as run_resume
    from kgcrawl.runs import page_hook
    from kgcrawl.setting_values import as_whole

    if max_pages is not None:  # as `crawl` reads it: 10, "10" or 10.0
        try:
            max_pages = as_whole(max_pages)
        except ValueError as exc:
            raise RequestError(f"max_pages: {exc}") from None
    request = CrawlRequest(
        resolve=_entries(resolve), ontology=Path(ontology).resolve() if ontology else None,
        max_pages=max_pages, executor=executor, ray_address=ray_address,
    )  # fmt: skip
    with page_hook(run_id, on_page) as on_outcome:
        return run_resume(run_id, request, on_outcome=on_outcome)


def open_run(run_id: str) -> Run:
    """A run by id: iterate it for its downloaded pages (PageRecord) in crawl order.

    `run.pages(relevant_only=True)` gives only the pages judged relevant,
    `run.meta` the run's settings and counters; close it, or use it in `with`.
    """
    from kgcrawl.runs import open_run as open_

    return open_(run_id)


def build_ontology(
    corpus: str | Path,
    *,
    domain: str | None = None,
    topic: str | None = None,
    base: str | Path | None = None,
    out: str | Path | None = None,
    lattice_dir: str | Path = "lattice",
    **options: Any,
) -> BuildResult:
    """A domain ontology from a corpus folder by formal concept analysis (`kgcrawl build-ontology`).

    Writes the lattice (.cxt, .gv) under `lattice_dir` and the ontology (.owl, .ttl) to
    `out` (default `ontologies/<domain>.fca.owl`); `options` are BuildOptions' other
    fields (min_df, max_df, max_terms, terms, …). `result.ontology` is the model.
    """
    from kgcrawl.ontology.build import BuildOptions
    from kgcrawl.ontology.build import build_ontology as build

    paths = {"base": base, "out": out}
    build_options = BuildOptions(
        domain=domain, topic=topic, lattice_dir=Path(lattice_dir),
        **{k: Path(v) for k, v in paths.items() if v is not None}, **options,
    )  # fmt: skip
    return build(corpus, build_options)


def calibrate(
    domain_or_settings: str | Settings,
    *,
    set: Mapping[str, Any] | None = None,
    truth: str | Path | None = None,
    run: str | None = None,
) -> Thresholds:
    """α and β for a domain's ontology from on- and off-topic documents (cached per ontology),
    or, given `truth` (a manifest as `evaluate --truth` reads) and `run` (a run id), from
    the run's pages the manifest labels, for crawls with the run's strategy.

    `result.alpha`, `result.beta`, and `result.separation` (precision, recall, F1 of R(p) > α).
    """
    from kgcrawl.calibrate import calibrate as on_corpora
    from kgcrawl.config import Settings, with_overrides
    from kgcrawl.crawl.strategies.base import uses_keywords
    from kgcrawl.labelled import calibrate_labelled, wants_labels

    if isinstance(domain_or_settings, Settings):
        settings = with_overrides(domain_or_settings, dict(set or {}), "python")
    else:
        settings = load_settings(domain_or_settings, set)
    if wants_labels(truth, run):
        return calibrate_labelled(settings, str(run), Path(str(truth))).thresholds
    return on_corpora(settings, uses_keywords(settings))


def query(
    cypher: str | None = None,
    *,
    saved: str | None = None,
    params: Mapping[str, Any] | None = None,
    graph: str | None = None,
    write: bool = False,
) -> list[dict[str, Any]]:
    """The records (`{column: value}`) of Cypher, or of a saved query by name, against the
    knowledge graph (`kgcrawl query`): the embedded one unless `graph` names a URI.

    Read-only unless `write`; a saved query's parameters not in `params` take their defaults.
    """
    from kgcrawl.graph.queries import run_query

    return run_query(cypher, saved=saved, params=params, uri=graph, write=write).records()


def refresh_ontology(domain: str, *, run: str | None = None, **options: Any) -> RefreshResult:
    """New terms from a domain's relevant crawled pages, as a new ontology version beside the
    one crawled with (`kgcrawl refresh-ontology`): the pages of run `run`, else the graph's.

    `options` are RefreshOptions' other fields (dry_run, max_new, significance, …);
    `result.added` holds the new terms and where they went, `result.files` what was written.
    """
    from kgcrawl.ontology.refresh import RefreshOptions
    from kgcrawl.ontology.refresh import refresh_ontology as refresh

    return refresh(domain, RefreshOptions(run=run, **options))
