"""The ontology versions a run has crawled with, each from one outcome on (SPEC §7, §9).

A run records the ontology file it starts with and the file's SHA-256. Outcomes
keep topic-word counts by concept index, and an index means something only in
the version it was counted with, so a resumed run keeps its version unless asked
(`kgcrawl crawl --resume ID --ontology FILE`): the new version then applies from
the next outcome on, and every later replay switches at that same outcome, which
keeps replay exact. A recorded file that changed on disk stops a resume with one
line naming it, instead of replaying counts against the wrong concepts.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from kgcrawl.config import Settings
from kgcrawl.crawl.state import RunState
from kgcrawl.errors import KgcrawlError


class OntologyChanged(KgcrawlError):
    """An ontology file a run crawled with is no longer what it was."""


@dataclass(frozen=True)
class OntologyVersion:
    """One ontology file of a run, used from outcome `first` (1-based) on."""

    first: int
    path: str
    sha256: str

    def settings(self, settings: Settings) -> Settings:
        """The run's settings with this version as the ontology."""
        return replace(settings, ontology=Path(self.path))

    def check(self, run_id: str) -> None:
        """Stop when the file is gone or differs from what the run recorded."""
        path = Path(self.path)
        if not path.is_file():
            raise OntologyChanged(f"run {run_id}: ontology {path} is gone")
        if file_sha256(path) != self.sha256:
            raise OntologyChanged(
                f"run {run_id}: ontology {path} changed since the run used it; "
                "resume with --ontology FILE to continue on a new version"
            )


def switch_ontology(state: RunState, settings: Settings, path: Path) -> None:
    """Record `path` as the run's ontology from its next outcome on.

    The file is read first: one the crawl cannot use is refused here, before it
    is recorded and every later resume would have to replay with it.
    """
    from kgcrawl.ontology.topic import topic_model_for

    if not path.is_file():
        raise KgcrawlError(f"--ontology: no such file: {path}")
    topic_model_for(replace(settings, ontology=path))
    versions = switched(recorded(state.meta()), path, state.count() + 1)
    state.set_meta({"ontologies": as_meta(versions)})
    state.checkpoint()


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def version_of(path: Path, first: int) -> OntologyVersion:
    return OntologyVersion(first, str(path.resolve()), file_sha256(path))


def recorded(meta: dict[str, Any]) -> list[OntologyVersion]:
    """The versions in a run's metadata, oldest first.

    A run started before versions were recorded used its settings' ontology
    throughout; its file as it is now is all there is to go by.
    """
    if "ontologies" not in meta:
        return [version_of(Path(meta["settings"]["ontology"]), 1)]
    return [OntologyVersion(**v) for v in meta["ontologies"]]


def in_force(firsts: Sequence[int], seq: int) -> int:
    """Which version outcome `seq` was crawled with: its index, given each version's first
    outcome, oldest first.

    >>> in_force([1, 41], 40), in_force([1, 41], 41), in_force([1, 41], 0)
    (0, 1, 0)
    """
    return max(0, bisect_right(firsts, seq) - 1)


def as_meta(versions: list[OntologyVersion]) -> list[dict[str, Any]]:
    return [asdict(v) for v in versions]


def switched(versions: list[OntologyVersion], path: Path, first: int) -> list[OntologyVersion]:
    """`versions` with `path` in force from outcome `first` on (unchanged if it already is)."""
    new = version_of(path, first)
    if (new.path, new.sha256) == (versions[-1].path, versions[-1].sha256):
        return versions
    kept = versions[:-1] if versions[-1].first == first else versions  # no outcome in between
    return [*kept, new]
