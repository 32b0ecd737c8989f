"""The ontology versions a run has crawled with, each from one outcome on (SPEC §7, §9).

A run records the ontology file it starts with and the file's SHA-256. Outcomes
keep topic-word counts by concept index, and an index means something only in
the version it was counted with, so a resumed run keeps its version unless asked
(`kgcrawl crawl --resume ID --ontology FILE`): the new version then applies from
the next outcome on, and every later replay switches at that same outcome, which
keeps replay exact. The run keeps a copy of each file in its folder (`KEPT`), so
it resumes, syncs and is refined with the version it used even after the file is
edited or rebuilt in place (`build-ontology` to the same `--out`): the file is read
while unchanged, the copy after. A run from before the copies were kept, whose file
changed, stops with one line naming it instead of replaying counts against the
wrong concepts.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from kgcrawl.config import Settings
from kgcrawl.crawl.state import RunState
from kgcrawl.errors import KgcrawlError

KEPT = "ontologies"  # the folder of a run's copies of its ontology files
log = logging.getLogger(__name__)


class OntologyChanged(KgcrawlError):
    """An ontology file a run crawled with is no longer what it was, and it kept no copy."""


@dataclass(frozen=True)
class OntologyVersion:
    """One ontology file of a run, used from outcome `first` (1-based) on."""

    first: int
    path: str
    sha256: str

    def settings(self, settings: Settings, run_dir: Path) -> Settings:
        """The run's settings with this version as the ontology (`file`)."""
        return replace(settings, ontology=self.file(run_dir))

    def kept(self, run_dir: Path) -> Path:
        """Where the run in `run_dir` keeps its copy of this version."""
        return run_dir / KEPT / f"{self.sha256[:16]}{Path(self.path).suffix}"

    def file(self, run_dir: Path) -> Path:
        """The file to read this version from: its own while unchanged, else the run's copy;
        OntologyChanged when neither is there."""
        path = Path(self.path)
        if path.is_file() and file_sha256(path) == self.sha256:
            return path
        copy = self.kept(run_dir)
        if copy.is_file():
            return copy
        what = "is gone" if not path.is_file() else "changed since the run used it"
        raise OntologyChanged(
            f"run {run_dir.name}: ontology {path} {what}, and the run keeps no copy of it "
            "(it started before runs kept one): put the file back as it was to go on"
        )


def keep(version: OntologyVersion, run_dir: Path) -> None:
    """Copy a version's file into the run's folder, once (whole or not at all). A copy that
    cannot be written costs only the resume after an edit: the crawl goes on, warned."""
    copy = version.kept(run_dir)
    if copy.is_file():
        return
    part = copy.with_name(copy.name + ".part")
    try:
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(version.path, part)
        if file_sha256(part) == version.sha256:  # not edited since it was hashed
            os.replace(part, copy)
    except OSError as exc:
        log.warning("run %s keeps no copy of %s (%s): it resumes only while the file is "
                    "unchanged", run_dir.name, version.path, exc)  # fmt: skip
    finally:
        part.unlink(missing_ok=True)


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
    keep(versions[-1], state.path.parent)
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
