"""A crawl run read back as pages people use: text, relevance and the concepts named.

The run state stores a page's concept mentions as indices into the topic model
of the ontology version in force at that outcome (crawl/versions.py); here they
become the concepts' labels in the pipeline's language, so a script, an export
or an `on_page` hook sees `{"景区": 3}` rather than `{12: 3}`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgcrawl.crawl.outcome import Outcome
from kgcrawl.crawl.state import RunState
from kgcrawl.errors import KgcrawlError

if TYPE_CHECKING:
    from kgcrawl.config import Settings


@dataclass(frozen=True)
class PageRecord:
    """One downloaded page of a run, in crawl order (`seq`)."""

    seq: int
    url: str  # where the download ended (after redirects)
    title: str
    text: str  # the main text
    relevance: float  # R(p)
    relevant: bool  # R(p) > α
    concepts: dict[str, int]  # concept label → mentions in the main text
    fetched_at: int  # epoch milliseconds
    host: str

    @property
    def fetched_iso(self) -> str:
        return iso_time(self.fetched_at)


def iso_time(epoch_ms: int | None) -> str:
    """Epoch milliseconds → local ISO 8601 time with its offset (seconds), "" for none."""
    if epoch_ms is None:
        return ""
    moment = datetime.fromtimestamp(epoch_ms / 1000).astimezone()
    return moment.isoformat(timespec="seconds")


def concept_labels(settings: Settings) -> list[str]:
    """Each concept's label in the settings' language, in topic-model (mention index) order."""
    from kgcrawl.ontology.owl import read_ontology

    onto = read_ontology(settings.ontology)
    return [concept.label(settings.language) for concept in onto.concepts.values()]


def page_record(outcome: Outcome, labels: list[str]) -> PageRecord:
    """A downloaded outcome as a PageRecord, its mentions named with `labels`."""
    return PageRecord(
        seq=outcome.seq,
        url=outcome.final_url,
        title=outcome.title,
        text=outcome.text,
        relevance=float(outcome.relevance or 0.0),
        relevant=outcome.relevant,
        concepts={labels[i]: count for i, count in outcome.mentions.items()},
        fetched_at=outcome.fetched_at,
        host=outcome.host,
    )


class Run:
    """An open run: its meta, its outcomes, its pages. Close it, or use it in `with`."""

    def __init__(self, state: RunState) -> None:
        self.state = state
        self.meta: dict[str, Any] = state.meta()
        self.run_id: str = self.meta["run_id"]
        self._labels: tuple[list[int], list[list[str]]] | None = None

    def __iter__(self) -> Iterator[PageRecord]:
        return self.pages()

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def outcomes(self) -> Iterator[Outcome]:
        """Every outcome in crawl order, failures included."""
        return self.state.outcomes()

    def pages(self, relevant_only: bool = False) -> Iterator[PageRecord]:
        """Downloaded pages in crawl order (only those judged relevant, if asked)."""
        for outcome in self.state.outcomes():
            if outcome.downloaded and (outcome.relevant or not relevant_only):
                yield self.record(outcome)

    def record(self, outcome: Outcome) -> PageRecord:
        """A downloaded outcome of this run as a PageRecord, its mentions named by the
        ontology version the run used for it."""
        from kgcrawl.crawl.versions import in_force

        firsts, labels = self._version_labels()
        return page_record(outcome, labels[in_force(firsts, outcome.seq)])

    def close(self) -> None:
        self.state.close()

    def _version_labels(self) -> tuple[list[int], list[list[str]]]:
        if self._labels is None:
            from kgcrawl.crawl.versions import recorded
            from kgcrawl.graph.sync import run_settings

            settings = run_settings(self.state)
            versions = recorded(self.meta)
            run_dir = self.state.path.parent
            labels = [concept_labels(v.settings(settings, run_dir)) for v in versions]
            self._labels = ([v.first for v in versions], labels)
        return self._labels


def open_run(run_id: str) -> Run:
    """The run with this id under the data folder (`$KGCRAWL_HOME`, else `.kgcrawl/`)."""
    return Run(RunState.open(run_id))


@contextmanager
def page_hook(
    run_id: str, on_page: Callable[[PageRecord], None] | None
) -> Iterator[Callable[[Outcome], None] | None]:
    """The crawl's outcome hook for a caller's `on_page` (None for none): each downloaded
    page as a PageRecord, its concepts named by the ontology version the run judged it
    with. The run is read at its first page, when its versions (a resume's new one too)
    are recorded."""
    if on_page is None:
        yield None
        return
    if not callable(on_page):  # found before the run exists, not at its first page
        raise KgcrawlError(f"on_page: {on_page!r} is not a function of one PageRecord")
    run: Run | None = None

    def on_outcome(outcome: Outcome) -> None:
        nonlocal run
        if outcome.downloaded:
            run = run or open_run(run_id)
            on_page(run.record(outcome))

    try:
        yield on_outcome
    finally:
        if run is not None:
            run.close()


def run_folder(run_id: str) -> Path:
    """The folder of an existing run (`StateError` if there is none); the id is checked,
    so it never names a folder outside the runs folder."""
    from kgcrawl.crawl.state import no_run, state_path

    folder = state_path(run_id).parent
    if not folder.is_dir():
        raise no_run(run_id)
    return folder


def delete_run(run_id: str) -> Path:
    """Remove a run's folder (its run log and lock) and return it; a run a crawl holds now
    is refused (`RunLocked`), a damaged one is removed like any other.

    The knowledge graph keeps what the run wrote into it: pages are shared by crawls.
    """
    import shutil

    from kgcrawl.crawl.runlock import RunLock

    folder = run_folder(run_id)
    lock = RunLock(folder, run_id).acquire()
    try:
        shutil.rmtree(folder)
    finally:
        lock.release()
    return folder
