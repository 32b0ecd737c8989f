"""The crawl's run state: a SQLite log of outcomes, the source of truth (SPEC §7).

A run lives in `<data>/runs/<id>/state.sqlite` (WAL). Every selected link's
outcome — a downloaded page with its analysis, or a failure with its reason —
is appended in the order the crawl folded it in, and committed at least every
`checkpoint_every` outcomes and on SIGINT / SIGTERM, in one transaction.

Resuming replays the log through the same crawl code (no network): the frontier,
the scores, PageRank, the tabu lists, the host counters and the RNG come back
exactly as they were at the last commit, so with one worker the run continues
with the same page sequence as an uninterrupted one. Whatever was fetched after
the last commit was never committed and is fetched again: no page lost, none
counted twice. The knowledge graph is a view written from committed rows only.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kgcrawl.crawl.outcome import DEFERRED, Outcome
from kgcrawl.crawl.runlock import RunLock
from kgcrawl.errors import KgcrawlError
from kgcrawl.names import is_name

_U64 = 1 << 64

# Named migrations, applied in order; never edit one that has shipped, add another.
MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "0001_outcomes",
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE outcomes (
            seq INTEGER PRIMARY KEY,
            url TEXT NOT NULL,
            final_url TEXT NOT NULL,
            status INTEGER,
            reason TEXT,
            fetched_at INTEGER NOT NULL,
            seconds REAL NOT NULL,
            host TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            text TEXT NOT NULL DEFAULT '',
            lang TEXT NOT NULL DEFAULT '',
            length INTEGER NOT NULL DEFAULT 0,
            hash TEXT NOT NULL DEFAULT '',
            simhash INTEGER NOT NULL DEFAULT 0,
            relevance REAL,
            relevant INTEGER,
            counts TEXT NOT NULL DEFAULT '{}',
            mentions TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX outcomes_url ON outcomes (url);
        CREATE TABLE outlinks (
            seq INTEGER NOT NULL,
            position INTEGER NOT NULL,
            url TEXT NOT NULL,
            anchor TEXT NOT NULL,
            anchor_counts TEXT NOT NULL DEFAULT '{}',
            anchor_relevance REAL,
            priority REAL,
            PRIMARY KEY (seq, position)
        );
        """,
    ),
    (
        # A run records why it ended (SPEC §5.1 turn 2) instead of a `finished` flag that
        # could not tell a budget reached from a frontier that ran dry.
        "0002_ended",
        """
        INSERT OR IGNORE INTO meta (key, value)
        SELECT 'ended', CASE
            WHEN CAST((SELECT value FROM meta WHERE key = 'dp') AS INTEGER) >= json_extract(
                (SELECT value FROM meta WHERE key = 'settings'), '$."crawl.max_pages"')
            THEN '"budget"' ELSE '"frontier exhausted"' END
        FROM meta WHERE key = 'finished' AND value = 'true';
        DELETE FROM meta WHERE key = 'finished'
        """,
    ),
    (
        # The topic words of each link's URL and context, beside its anchor's (SPEC §4.3 turn 2).
        "0003_link_evidence",
        """
        ALTER TABLE outlinks ADD COLUMN url_counts TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE outlinks ADD COLUMN context_counts TEXT NOT NULL DEFAULT '{}'
        """,
    ),
)


class StateError(KgcrawlError):
    """A run is missing or its state cannot be read."""


SQLITE_HEADER = b"SQLite format 3\x00"


def check_run_id(run_id: str) -> str:
    """The id itself, or StateError: it must stay a single folder name under runs/."""
    if not is_name(run_id):
        raise StateError(
            f"run id {run_id!r}: use 1-128 letters, digits, '.', '_' or '-' "
            "(starting with a letter, digit or '_'; no '..')"
        )
    return run_id


def state_path(run_id: str) -> Path:
    return runs_dir() / check_run_id(run_id) / "state.sqlite"


def data_home() -> Path:
    """`$KGCRAWL_HOME`, else `.kgcrawl/` in the working directory."""
    return Path(os.environ.get("KGCRAWL_HOME") or Path.cwd() / ".kgcrawl")


def runs_dir() -> Path:
    return data_home() / "runs"


def new_run_id(domain: str, strategy: str) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = f"{domain}-{strategy}-{stamp}"
    run_id, n = base, 1
    while (runs_dir() / run_id).exists():
        n += 1
        run_id = f"{base}-{n}"
    return run_id


def no_run(run_id: str) -> StateError:
    """The error for a run id with no run, with the nearest one's id if one is near."""
    from kgcrawl.suggest import did_you_mean

    folder = runs_dir()
    known = [path.name for path in folder.iterdir() if path.is_dir()] if folder.is_dir() else []
    return StateError(f"no run {run_id!r} under {folder}{did_you_mean(run_id, known)}")


class RunState:
    """One run's SQLite file: pending outcomes, committed in checkpoints."""

    def __init__(self, path: Path, lock: RunLock | None = None) -> None:
        """Open (or create) the file; `lock`, when given, is held until `close`."""
        self.path = path
        self._lock = lock
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._readable():
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._migrate()
        self._pending: list[Outcome] = []
        self._pending_meta: dict[str, str] = {}
        self._pending_judged: dict[int, bool] = {}

    @classmethod
    def create(cls, run_id: str, meta: dict[str, Any]) -> RunState:
        """A new run, locked for the crawl that creates it."""
        path = state_path(run_id)
        lock = RunLock(path.parent, run_id).acquire()
        if path.exists():
            lock.release()
            raise StateError(f"run {run_id} exists already ({path})")
        try:
            _create_whole(path, {"run_id": run_id, **meta})
            return cls(path, lock)
        except BaseException:
            lock.release()
            raise

    @classmethod
    def open(cls, run_id: str, lock: bool = False) -> RunState:
        """An existing run; `lock=True` (to crawl it) refuses while another process does."""
        path = state_path(run_id)
        if not path.is_file():
            raise no_run(run_id)
        run_lock = RunLock(path.parent, run_id).acquire() if lock else None
        try:
            check_header(path)
            state = cls(path, run_lock)
            if "run_id" not in state.meta():
                state.close()
                raise StateError(f"{path}: corrupt run state (no run id in it)")
        except BaseException:
            if run_lock is not None:
                run_lock.release()
            raise
        return state

    @contextmanager
    def _readable(self) -> Iterator[None]:
        """SQLite's own errors on a damaged file as one StateError naming it."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            if _disk_full(exc):
                raise
            raise StateError(f"{self.path}: corrupt run state ({exc})") from None

    def _migrate(self) -> None:
        self._db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY)")
        done = {row[0] for row in self._db.execute("SELECT name FROM migrations")}
        for name, sql in MIGRATIONS:
            if name in done:
                continue
            self._db.execute("BEGIN")
            for statement in sql.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute("INSERT INTO migrations VALUES (?)", (name,))
            self._db.execute("COMMIT")

    # -- writing -----------------------------------------------------------------

    def append(self, outcome: Outcome) -> None:
        """Queue an outcome; it is durable after the next checkpoint."""
        self._pending.append(outcome)

    def judge_again(self, judged: Iterable[tuple[int, bool]]) -> None:
        """Queue new judgements (seq, relevant) of outcomes, pending or committed."""
        self._pending_judged.update(judged)

    def set_meta(self, values: dict[str, Any]) -> None:
        """Queue metadata (JSON-encoded) for the next checkpoint."""
        self._pending_meta.update({k: json.dumps(v) for k, v in values.items()})

    @property
    def pending(self) -> int:
        return len(self._pending)

    def checkpoint(self) -> None:
        """Commit everything queued in one transaction."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany(
                "INSERT INTO outcomes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [_outcome_row(o) for o in self._pending],
            )
            db.executemany(
                "INSERT INTO outlinks (seq, position, url, anchor, anchor_counts, url_counts, "
                "context_counts, anchor_relevance, priority) VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (
                        o.seq,
                        i,
                        url,
                        anchor,
                        _counts_json(o.anchor_counts[i]),
                        _counts_json(o.url_counts[i] if o.url_counts else {}),
                        _counts_json(o.context_counts[i] if o.context_counts else {}),
                        *(o.link_scores[i] if o.link_scores else (None, None)),
                    )
                    for o in self._pending
                    for i, (url, anchor) in enumerate(o.links)
                ],
            )
            db.executemany(
                "UPDATE outcomes SET relevant = ? WHERE seq = ?",
                [(int(relevant), seq) for seq, relevant in self._pending_judged.items()],
            )
            db.executemany(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)", list(self._pending_meta.items())
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self._pending.clear()
        self._pending_meta.clear()
        self._pending_judged.clear()

    # -- reading -----------------------------------------------------------------

    def meta(self, *keys: str) -> dict[str, Any]:
        """The run's metadata, or only `keys` of it (a run keeps its calibration pages
        there, ≈ 150 KB: `runs list` reads a few keys of every run)."""
        with self._readable():
            where = f" WHERE key IN ({', '.join('?' * len(keys))})" if keys else ""
            rows = self._db.execute(f"SELECT key, value FROM meta{where}", keys).fetchall()
            try:
                return {k: json.loads(v) for k, v in rows}
            except ValueError as exc:
                raise StateError(f"{self.path}: corrupt run state (meta: {exc})") from None

    def count(self, where: str = "1") -> int:
        with self._readable():
            return self._db.execute(f"SELECT count(*) FROM outcomes WHERE {where}").fetchone()[0]

    def outcomes(self, after: int = 0) -> Iterator[Outcome]:
        """Committed outcomes in fold order, with their links."""
        links: dict[int, list[tuple]] = {}
        with self._readable():
            for seq, *link in self._db.execute(
                "SELECT seq, url, anchor, anchor_counts, anchor_relevance, priority, url_counts, "
                "context_counts FROM outlinks WHERE seq > ? ORDER BY seq, position",
                (after,),
            ):
                links.setdefault(seq, []).append(link)
            cursor = self._db.execute("SELECT * FROM outcomes WHERE seq > ? ORDER BY seq", (after,))
            for row in cursor:
                yield _outcome_from_row(row, links.get(row[0], []))

    def failure_counts(self) -> list[tuple[str, int]]:
        """The committed outcomes that gave no page, by reason, commonest first; every
        `duplicate of URL` (crawl/core.py) counts under one reason, "duplicate". A page held
        while its robots.txt failed (crawl/held.py) is none: its last outcome says."""
        return self.query(
            "SELECT CASE WHEN reason LIKE 'duplicate of %' THEN 'duplicate' ELSE reason END AS r,"
            " count(*) FROM outcomes WHERE reason IS NOT NULL AND reason != ? GROUP BY r"
            " ORDER BY count(*) DESC, r",
            (DEFERRED,),
        )

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._readable():
            return self._db.execute(sql, params).fetchall()

    def close(self) -> None:
        self._db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None


def _create_whole(path: Path, meta: dict[str, Any]) -> None:
    """The state file with its tables and meta, or none: it is written beside `path` and
    renamed into place once committed and closed. A crawl killed while it creates its run
    (before this, the file existed with no meta, and `runs list` called it corrupt) leaves
    no run at all: nothing was crawled, and the same run id starts afresh."""
    staging = path.with_name(path.name + ".new")
    for leftover in (staging, *(staging.with_name(staging.name + x) for x in ("-wal", "-shm"))):
        leftover.unlink(missing_ok=True)  # a creation killed before
    first = RunState(staging)
    try:
        first.set_meta(meta)
        first.checkpoint()
    finally:
        first.close()  # the last connection: SQLite folds the WAL into the file
    os.replace(staging, path)


def committed_count(path: Path) -> int:
    """Outcomes a run (perhaps still running) has committed, read-only and without its lock;
    0 while the file does not exist or cannot be read yet. What a watcher of a crawl polls."""
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return db.execute("SELECT count(*) FROM outcomes").fetchone()[0]
    except sqlite3.Error:
        return 0


def check_header(path: Path) -> None:
    """StateError unless the file starts as an SQLite database does (empty, cut, overwritten)."""
    with open(path, "rb") as fh:
        head = fh.read(len(SQLITE_HEADER))
    if head != SQLITE_HEADER:
        what = "empty" if not head else "not an SQLite database"
        raise StateError(f"{path}: corrupt run state ({what})")


def _disk_full(exc: sqlite3.DatabaseError) -> bool:
    """SQLITE_FULL is a full disk, not a damaged file: the caller reports it as such."""
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL


def _outcome_row(o: Outcome) -> tuple:
    simhash = o.simhash - _U64 if o.simhash >= 1 << 63 else o.simhash
    return (
        o.seq,
        o.url,
        o.final_url,
        o.status,
        o.reason,
        o.fetched_at,
        o.seconds,
        o.host,
        o.title,
        o.text.replace("\x00", ""),
        o.lang,
        o.length,
        o.content_hash,
        simhash,
        o.relevance,
        int(o.relevant),
        _counts_json(o.counts),
        _counts_json(o.mentions),
    )


def _counts_json(counts: dict) -> str:
    return json.dumps({str(k): v for k, v in counts.items()}) if counts else "{}"


def _counts(text: str) -> dict:
    return {int(k): v for k, v in json.loads(text).items()}


def _outcome_from_row(row: tuple, links: list) -> Outcome:
    (seq, url, final_url, status, reason, fetched_at, seconds, host, title, text, lang, length,
     content_hash, simhash, relevance, relevant, counts, mentions) = row  # fmt: skip
    return Outcome(
        seq=seq,
        url=url,
        final_url=final_url,
        status=status,
        reason=reason,
        fetched_at=fetched_at,
        seconds=seconds,
        host=host,
        title=title,
        text=text,
        lang=lang,
        length=length,
        content_hash=content_hash,
        simhash=simhash % _U64,
        relevance=relevance,
        relevant=bool(relevant),
        counts=_counts(counts),
        mentions=_counts(mentions),
        links=[(link[0], link[1]) for link in links],
        anchor_counts=[_counts(link[2]) for link in links],
        url_counts=[_counts(link[5]) for link in links],
        context_counts=[_counts(link[6]) for link in links],
        link_scores=[(link[3], link[4]) for link in links if link[3] is not None],
    )
