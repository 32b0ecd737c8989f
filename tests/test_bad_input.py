"""Bad input to every command: one line naming the file, key, URL or run; exit 2; no run left.

Each case runs the real entry point (`kgcrawl.cli.main`) in this process on real
files under a fresh data folder. A traceback fails the case (the exception
escapes `main`); so does a second line, a line that does not name what was
wrong, or a run folder left behind by a crawl that should not have started.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kgcrawl.cli import main
from kgcrawl.config import load_settings, with_overrides
from kgcrawl.crawl.engine import start_run
from kgcrawl.crawl.state import RunState

# A crawl that gets as far as its options needs no calibration: fixed thresholds.
FIXED = ["--set", "relevance.alpha=0.5", "--set", "relevance.beta=0.2"]
GOOD_RUN = "good-run"
# Should a case's option be ignored rather than refused, its crawl stays on this machine.
LOOPBACK = [
    *("--set", "seeds=http://127.0.0.1:9/", "--set", "fetch.retries=0"),
    *("--set", "fetch.robots_tries=1", "--set", "fetch.delay=0", "--max-pages", "1"),
]
LOOPBACK_RUN = "loopback-run"
LABELS = "{files}/labels.jsonl"
CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "tourism"
RAINSTORM = CORPUS.parents[1] / "ontologies" / "rainstorm.owl"


@pytest.fixture(scope="module", autouse=True)
def home(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad-input-home")
    previous = os.environ.get("KGCRAWL_HOME")
    os.environ["KGCRAWL_HOME"] = str(root / "home")
    _make_world(root)
    yield root
    if previous is None:
        os.environ.pop("KGCRAWL_HOME")
    else:
        os.environ["KGCRAWL_HOME"] = previous


def _make_world(root: Path) -> None:
    runs = root / "home" / "runs"
    settings = load_settings("tourism", {"relevance.alpha": 0.5, "relevance.beta": 0.2})
    start_run(settings, run_id=GOOD_RUN).close()
    offline = {"seeds": "http://127.0.0.1:9/", "crawl.max_pages": 1, "graph.uri": "none",
               "fetch.retries": 0, "fetch.robots_tries": 1, "fetch.delay": 0}  # fmt: skip
    start_run(with_overrides(settings, offline), run_id=LOOPBACK_RUN).close()
    for run_id in ("cut", "empty", "garbled"):
        meta = {"domain": "tourism", "strategy": "bfs", "settings": {}, "pipeline": "x"}
        RunState.create(run_id, meta).close()
    state = runs / "cut" / "state.sqlite"
    with sqlite3.connect(state) as db:  # grow the file past one page, then cut it
        db.execute("CREATE TABLE filler (x TEXT)")
        db.executemany("INSERT INTO filler VALUES (?)", [("x" * 500,)] * 200)
    size = state.stat().st_size
    os.truncate(state, size // 3)
    (runs / "empty" / "state.sqlite").write_bytes(b"")
    garbled = runs / "garbled" / "state.sqlite"
    garbled.write_bytes(b"NOT SQLITE" + garbled.read_bytes()[10:])
    files = root / "files"
    files.mkdir()
    (files / "syntax.toml").write_text("topic = \n", encoding="utf-8")
    (files / "section.toml").write_text(
        'topic = "旅游"\nontology = "x.owl"\nseeds = ["http://a.cn/"]\n[crawler]\nx = 1\n',
        encoding="utf-8",
    )
    (files / "typo.toml").write_text(
        'topic = "旅游"\nontology = "x.owl"\nseeds = ["http://a.cn/"]\n[crawl]\nmax_page = 1\n',
        encoding="utf-8",
    )
    (files / "noseeds.toml").write_text('topic = "旅游"\nontology = "x.owl"\n', encoding="utf-8")
    (files / "nofile.toml").write_text(
        'topic = "旅游"\nontology = "missing.owl"\nseeds = ["http://a.cn/"]\n', encoding="utf-8"
    )
    (files / "binary.toml").write_bytes(b"\xff\xfe\x00garbage")
    (files / "garbage.owl").write_text("this is not RDF <<<", encoding="utf-8")
    (files / "seeds.txt").write_text("http://a.example/\n# a comment\ngarbage line\n", "utf-8")
    (files / "full.warc.gz").write_bytes(b"an earlier archive")
    (files / "adir").mkdir()
    (files / "labels.jsonl").write_text('{"url": "http://a.cn/", "relevant": true}\n')


def _cases() -> list[tuple[str, list[str], str]]:
    """(case id, argv with {files}/{home} placeholders, what the line must name)."""
    check = ["pipeline", "check", "tourism", "--set"]
    build = ["build-ontology", str(CORPUS), "--domain", "x", "--lattice-dir", "{files}/lattice"]
    settings = {
        "fetch.read_timeout=0": "fetch.read_timeout",
        "fetch.read_timeout=-5": "fetch.read_timeout",
        "fetch.connect_timeout=0": "fetch.connect_timeout",
        "fetch.max_bytes=-1": "fetch.max_bytes",
        "fetch.max_bytes=0": "fetch.max_bytes",
        "fetch.retries=-1": "fetch.retries",
        "fetch.max_redirects=1000": "fetch.max_redirects",
        "fetch.delay=-1": "fetch.delay",
        "fetch.delay=nan": "fetch.delay",
        "fetch.user_agent= ": "fetch.user_agent",
        "crawl.checkpoint_every=0": "crawl.checkpoint_every",
        "crawl.max_pages=0": "crawl.max_pages",
        "crawl.max_pages=abc": "crawl.max_pages",
        "crawl.max_pages=1.5": "crawl.max_pages",
        "crawl.workers=0": "crawl.workers",
        "crawl.workers=100000": "crawl.workers",
        "crawl.seed=-1": "crawl.seed",
        "crawl.discard_keep=-1": "crawl.discard_keep",
        "crawl.report_every=0": "crawl.report_every",
        "crawl.trap_cap=-1": "crawl.trap_cap",
        "crawl.strategy=bogus": "crawl.strategy",
        "crawl.main_text=boilerpipe": "crawl.main_text",
        "relevance.alpha=2": "relevance.alpha",
        "relevance.beta=-0.1": "relevance.beta",
        "relevance.omega=1.5": "relevance.omega",
        "relevance.bm25_b=2": "relevance.bm25_b",
        "relevance.bm25_k=-1": "relevance.bm25_k",
        "relevance.pagerank_every=0": "relevance.pagerank_every",
        "relevance.r=0.5,0.5": "relevance.r",
        "relevance.k=1,1,1,1,1": "relevance.k",
        "relevance.damping=1": "relevance.damping",
        "relevance.tau=0": "relevance.tau",
        "relevance.pagerank_scale=cubic": "relevance.pagerank_scale",
        "tabu.early_fraction=2": "tabu.early_fraction",
        "tabu.seeds_per_host=0": "tabu.seeds_per_host",
        "tabu.host_max_visits=1": "tabu.host_max_visits",
        "tabu.escape=3": "tabu.escape",
        "tabu.tenure=-1": "tabu.tenure",
        "annealing.cooling=2": "annealing.cooling",
        "annealing.phi=-1": "annealing.phi",
        "colony.c0=0": "colony.c0",
        "colony.ants=0": "colony.ants",
        "colony.alpha=-1": "colony.alpha",
        "colony.link_weights=1,1,1": "colony.link_weights",
        "calibration.share=1": "calibration.share",
        "calibration.pages=3": "calibration.pages",
        "calibration.navigation_quantile=0": "calibration.navigation_quantile",
        "calibration.navigation_within=100": "calibration.navigation_within",
        "graph.uri=mongodb://x": "graph.uri",
        "graph.uri=falkordb://127.0.0.1": "graph.uri",
        "graph.uri=bolt://h:99999": "graph.uri",
        "seeds=http://[::1/": "seeds",
        "seeds=ftp://a.cn/": "seeds",
        "seeds=http://a.cn:99999/": "seeds",
        "nokey=1": "nokey",
        "tabu.sa_t0=1": "tabu.sa_t0",
        "crawl.max_pages": "crawl.max_pages",
        "anchors.url_host=enabled": "anchors.url_host",  # was False
        "tabu.aspiration=flase": "tabu.aspiration",  # was False
        "language=klingon": "language",
        "seeds=http://exa mple.com/": "'seeds': a space in the host name",  # as pipeline init
        "relevance.r=[0.1,0.2]": "'relevance.r': expected a list of 3 numbers",
    }
    cases = [(f"set {value}", [*check, value], key) for value, key in settings.items()]
    files = [
        ("pipeline missing", ["pipeline", "check", "{files}/nosuch.toml"], "nosuch.toml"),
        ("pipeline syntax", ["pipeline", "check", "{files}/syntax.toml"], "syntax.toml"),
        ("pipeline binary", ["pipeline", "check", "{files}/binary.toml"], "binary.toml"),
        ("pipeline section", ["pipeline", "check", "{files}/section.toml"], "crawler"),
        ("pipeline typo", ["pipeline", "check", "{files}/typo.toml"], "crawl.max_page"),
        ("pipeline no seeds", ["pipeline", "check", "{files}/noseeds.toml"], "seeds"),
        ("pipeline no ontology", ["pipeline", "check", "{files}/nofile.toml"], "missing.owl"),
        ("domain unknown", ["pipeline", "check", "tourismm"], "tourismm"),
        ("pipeline a folder", ["pipeline", "check", "{files}/adir"], "adir: a folder, not a"),
        ("ontology missing", ["ontology", "show", "{files}/nosuch.owl"], "nosuch.owl"),
        ("ontology emoji code", ["ontology", "show", "{files}/a:smile:b.owl"], "a:smile:b.owl"),
        ("ontology garbage", ["ontology", "show", "{files}/garbage.owl"], "garbage.owl"),
        ("weights missing", ["ontology", "weights", "{files}/nosuch.owl"], "nosuch.owl"),
        ("corpus missing", ["build-ontology", "{files}/nocorpus"], "nocorpus"),
        ("ontology out is a folder", [*build, "--out", "{files}/adir"], "adir"),  # was a traceback
        # the option and the file, where it named the base's IRI after building the lattice
        (
            "build topic unknown",
            [*build, "--base", str(RAINSTORM), "--topic", "nosuch"],
            "--topic 'nosuch': ",
        ),
        (
            "resume onto without topic",
            ["crawl", "--resume", GOOD_RUN, "--ontology", str(RAINSTORM)],
            "rainstorm.owl: no concept labelled '旅游'",
        ),
    ]
    crawl = ["crawl", "tourism", *FIXED]
    evaluate = ["evaluate", "tourism", *FIXED, *LOOPBACK, "--strategies", "bfs",
                "--out", "{files}/evaluation"]  # fmt: skip
    crawls = [
        ("run id dotdot", [*crawl, "--run-id", "../../x"], "../../x"),
        ("run id slash", [*crawl, "--run-id", "a/b"], "a/b"),
        ("run id space", [*crawl, "--run-id", "a b"], "a b"),
        ("run id taken", [*crawl, "--run-id", GOOD_RUN], GOOD_RUN),
        ("warc no folder", [*crawl, "--warc", "{files}/nope/x.warc.gz"], "nope"),
        ("warc a folder", [*crawl, "--warc", "{files}/adir"], "adir"),
        ("warc exists", [*crawl, "--warc", "{files}/full.warc.gz"], "full.warc.gz"),
        ("resolve port", [*crawl, "--resolve", "a.cn=127.0.0.1:99999"], "99999"),
        ("resolve form", [*crawl, "--resolve", "a.cn"], "a.cn"),
        # `:abc:` was shown as the emoji it names (🔤): what the user typed is shown as written
        ("resolve emoji code", [*crawl, "--resolve", "*=127.0.0.1:abc"], "127.0.0.1:abc: "),
        ("resolve address", [*crawl, "--resolve", "a.cn=nohost:80"], "nohost"),
        ("graph scheme", [*crawl, "--graph", "mongodb://x"], "mongodb://x"),
        ("workers zero", [*crawl, "--workers", "0"], "crawl.workers"),
        ("max pages text", [*crawl, "--max-pages", "abc"], "--max-pages"),
        ("strategy unknown", [*crawl, "--strategy", "bogus"], "bogus"),
        ("delay negative", [*crawl, "--delay", "-1"], "fetch.delay"),
        ("ontology option", [*crawl, "--ontology", "{files}/nosuch.owl"], "nosuch.owl"),
        ("domain and resume", [*crawl, "--resume", GOOD_RUN], "--resume"),
        ("resume unknown", ["crawl", "--resume", "nosuch"], "nosuch"),
        ("resume dotdot", ["crawl", "--resume", "../runs/x"], "../runs/x"),
        ("resume strategy", ["crawl", "--resume", GOOD_RUN, "--strategy", "bfs"], "--strategy"),
        ("crawl nothing", ["crawl"], "DOMAIN"),
        ("crawl sandbox size", [*crawl, "--sandbox", "--sandbox-size", "huge"], "huge"),
        ("crawl sandbox profile", [*crawl, "--sandbox", "--sandbox-profile", "dense"], "dense"),
        ("demo sandbox size", ["demo", "--sandbox-size", "huge"], "huge"),
        # a world option without --sandbox: it was ignored, and the real web crawled
        (
            "crawl profile no sandbox",
            [*crawl, *LOOPBACK, "--graph", "none", "--sandbox-profile", "sparse"],
            "--sandbox-profile needs --sandbox",
        ),
        (
            "crawl size no sandbox",
            [*crawl, *LOOPBACK, "--graph", "none", "--sandbox-size", "small"],
            "--sandbox-size needs --sandbox",
        ),
        (
            "evaluate profile no sandbox",
            [*evaluate, "--sandbox-profile", "flat"],
            "--sandbox-profile needs --sandbox",
        ),
        (
            "resume sandbox size",
            ["crawl", "--resume", LOOPBACK_RUN, "--sandbox-size", "small"],
            "drop --sandbox-size",
        ),
        ("demo domain", ["demo", "--domain", "museums"], "museums"),
    ]
    runs = [
        ("show unknown", ["runs", "show", "nosuch"], "nosuch"),
        ("show capitals", ["runs", "show", "GOOD-RUN"], "(did you mean 'good-run'?)"),
        ("resume near", ["crawl", "--resume", "good-rum"], "(did you mean 'good-run'?)"),
        ("show dotdot", ["runs", "show", "../x"], "../x"),
        ("export unknown", ["runs", "export", "nosuch"], "nosuch"),
        ("export format", ["runs", "export", GOOD_RUN, "--format", "xml"], "xml"),
        ("sample unknown", ["runs", "sample", "nosuch", "--out", "x.jsonl"], "nosuch"),
        ("sample no page", ["runs", "sample", GOOD_RUN, "--out", "x.jsonl"], GOOD_RUN),
        ("export clash", ["runs", "export", GOOD_RUN, "-f", "csv", "--out", "x.jsonl"], "x.jsonl"),
        ("sync unknown", ["graph", "sync", "nosuch"], "nosuch"),
    ]
    for kind in ("cut", "empty", "garbled"):
        runs += [
            (f"show {kind}", ["runs", "show", kind], kind),
            (f"export {kind}", ["runs", "export", kind], kind),
            (f"sync {kind}", ["graph", "sync", kind], kind),
            (f"resume {kind}", ["crawl", "--resume", kind], kind),
        ]
    queries = [
        ("query nothing", ["query"], "--saved"),
        ("query both", ["query", "MATCH (n) RETURN n", "--saved", "top_concepts"], "--saved"),
        ("saved unknown", ["query", "--saved", "top_concept"], "top_concept"),
        ("param form", ["query", "RETURN 1", "--param", "novalue"], "novalue"),
        ("param name", ["query", "RETURN 1", "--param", "a-b=1"], "a-b=1"),
        ("param backtick", ["query", "RETURN $m", "--param", 'm={"a`b": 1}'], "m="),
        ("query scheme", ["query", "RETURN 1", "--graph", "mongodb://x"], "mongodb://x"),
        ("query no port", ["query", "RETURN 1", "--graph", "falkordb://127.0.0.1"], "falkordb"),
        ("json and csv", ["query", "RETURN 1", "--json", "--csv"], "--csv"),
        ("command unknown", ["crawll"], "crawll"),
    ]
    labelled = ["calibrate", "tourism", "--truth", LABELS, "--run", GOOD_RUN]
    init = ["pipeline", "init", "x", "--ontology", "{files}/garbage.owl"]  # seeds read first
    others = [
        ("calibrate domain", ["calibrate", "tourismm"], "tourismm"),
        ("calibrate precision", ["calibrate", "tourism", "--precision", "2"], "precision"),
        ("calibrate truth alone", ["calibrate", "tourism", "--truth", LABELS], "--run"),
        (
            "calibrate truth missing",
            [*labelled[:3], "{files}/nosuch.jsonl", *labelled[4:]],
            "nosuch.jsonl",
        ),
        ("calibrate run unknown", [*labelled[:5], "nosuch"], "nosuch"),
        ("calibrate few labels", labelled, "labels.jsonl"),
        ("refresh unknown run", ["refresh-ontology", "tourism", "--run", "nosuch"], "nosuch"),
        (
            "refresh significance",
            ["refresh-ontology", "tourism", "--significance", "0"],
            "--significance",
        ),
        ("evaluate strategy", ["evaluate", "tourism", "--strategies", "bogus"], "bogus"),
        ("evaluate repeats", ["evaluate", "tourism", "--repeats", "0"], "--repeats"),
        ("demo pages", ["demo", "--max-pages", "0"], "--max-pages"),
        ("sandbox size", ["sandbox", "info", "--size", "huge"], "huge"),
        ("truth size", ["sandbox", "truth", "http://x.cn/", "--size", "huge"], "huge"),
        ("serve port", ["sandbox", "serve", "--port", "99999"], "--port"),
        ("init no ontology", ["pipeline", "init", "x"], "--ontology"),
        ("init seeds binary", [*init, "--seeds", "{files}/binary.toml"], "binary.toml"),
        # the file and the line, where it named neither
        ("init seeds line", [*init, "--seeds", "{files}/seeds.txt"], "seeds.txt line 3: not"),
        ("init seeds space", [*init, "--seeds", "http://exa mple.com/"], "space in the host"),
        ("init seeds bad ipv6", [*init, "--seeds", "http://[::1/"], "not a URL (Invalid IPv6"),
        (
            "init name a path",
            ["pipeline", "init", "../x", "--ontology", "o", "--seeds", "s"],
            "../x",
        ),
        (
            "init name two words",
            ["pipeline", "init", "a b", "--ontology", "o", "--seeds", "s"],
            "a b",
        ),
        ("build domain a path", [*build[:-4], "--domain", "a/b"], "'a/b'"),
    ]
    return cases + files + crawls + runs + queries + others


CASES = _cases()


def test_the_table_covers_every_kind_of_input() -> None:
    assert len(CASES) >= 80
    assert len({case_id for case_id, _, _ in CASES}) == len(CASES)


@pytest.mark.parametrize(("argv", "named"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_exit_2(argv, named, home, capsys) -> None:
    args = [a.replace("{files}", str(home / "files")) for a in argv]
    runs_before = sorted(p.name for p in (home / "home" / "runs").iterdir())
    with pytest.raises(SystemExit) as ended:
        main(args)  # any other exception is a traceback: the case fails
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert ended.value.code == 2, (out, err)
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and named in lines[0], lines[0]
    assert sorted(p.name for p in (home / "home" / "runs").iterdir()) == runs_before


def test_a_bad_demo_setting_stops_it_before_anything_is_written(home, capsys) -> None:
    """It was checked after the ontology stage, which had built and written its files."""
    out = home / "files" / "demo"
    with pytest.raises(SystemExit) as ended:
        main(["demo", "--out", str(out), "--set", "foo.bar=1"])
    assert ended.value.code == 2
    assert "unknown key 'foo.bar'" in capsys.readouterr().err
    assert not out.exists()


def test_runs_list_names_the_damaged_runs_and_goes_on(capsys) -> None:
    main(["runs", "list"])
    out = capsys.readouterr().out
    assert out.count("corrupt state") == 3, out
    assert all(run_id in out for run_id in ("cut", "empty", "garbled", GOOD_RUN))


def test_a_full_disk_is_one_line(home) -> None:
    """stdout on /dev/full: every write fails with ENOSPC, as on a full disk."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "kgcrawl", "runs", "export", GOOD_RUN, "--format", "csv"],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=60,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "disk full" in done.stderr


@pytest.mark.parametrize(
    "argv",
    [["crawl", "tourism", *FIXED, "--set", "graph.uri=none"], ["graph", "start"]],
    ids=["crawl", "graph start"],
)
def test_a_data_folder_that_is_a_file_is_one_line(argv, tmp_path, monkeypatch, capsys) -> None:
    """KGCRAWL_HOME naming a file: the folder cannot be made; the line names it (it was a
    NotADirectoryError traceback)."""
    (tmp_path / "home").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path / "home"))
    with pytest.raises(SystemExit) as ended:
        main(argv)
    err = capsys.readouterr().err.strip()
    assert ended.value.code == 2 and len(err.splitlines()) == 1
    assert err.startswith(f"error: {tmp_path / 'home'}/") and err.endswith(": Not a directory")
