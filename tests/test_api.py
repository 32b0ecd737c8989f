"""The Python API: `import kgcrawl` stays light, a plain script crawls with several workers,
`on_page` sees every page, `open_run` reads them back, and the README's example runs."""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import kgcrawl
from kgcrawl.cli import HEAVY_MODULES
from kgcrawl.config import SettingsError
from tests.crawl.test_versions import NEW_LABEL, with_new_concept

ROOT = Path(__file__).resolve().parents[1]
FIXED = {"relevance.alpha": 0.5, "relevance.beta": 0.19, "fetch.read_timeout": 5.0}


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "KGCRAWL_HOME": str(home)}


def test_import_is_light_and_names_its_api() -> None:
    code = f"import sys, kgcrawl; print([m for m in {HEAVY_MODULES!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    names = {"crawl", "resume", "open_run", "build_ontology", "calibrate", "query",
             "refresh_ontology"}  # fmt: skip
    assert names | {"__version__"} <= set(kgcrawl.__all__)
    assert re.match(r"\d", kgcrawl.__version__) or kgcrawl.__version__ == "0+unknown"


def test_a_plain_script_crawls_with_workers_and_sees_every_page(sandbox, tmp_path) -> None:
    """No `if __name__ == "__main__":` guard: the analyser processes must not re-run it."""
    script = tmp_path / "plain.py"
    script.write_text(
        textwrap.dedent(f"""
        import json
        import kgcrawl

        print("script body ran")
        pages = []
        result = kgcrawl.crawl(
            "tourism", max_pages=40, workers=3, resolve={sandbox.resolve!r}, graph="none",
            run_id="plain", set={{**{FIXED!r}, "fetch.delay": 0}}, on_page=pages.append,
        )
        with kgcrawl.open_run(result.run_id) as run:
            stored = list(run)
            relevant = list(run.pages(relevant_only=True))
        print(json.dumps({{
            "dp": result.dp, "lp": result.lp, "seen": [p.url for p in pages],
            "stored": [p.url for p in stored], "relevant": len(relevant),
            "concepts": stored[0].concepts, "fetched": stored[0].fetched_iso,
        }}))
        """),
        encoding="utf-8",
    )
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=180,
        cwd=tmp_path, env=_env(tmp_path / "home"),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("script body ran") == 1  # run once, not once per analyser
    assert "Traceback" not in out.stderr
    report = json.loads(out.stdout.splitlines()[-1])
    assert report["dp"] == 40 == len(report["seen"])
    assert report["seen"] == report["stored"]  # on_page: once per page, in fold order
    assert report["relevant"] == report["lp"]
    assert report["concepts"] and all(isinstance(k, str) for k in report["concepts"])
    assert "旅游" in report["concepts"]  # labels, not indices
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$", report["fetched"])


def test_crawl_in_process_with_settings_and_options(sandbox, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    settings = kgcrawl.load_settings("tourism", {**FIXED, "graph.uri": "none"})
    seen = []
    result = kgcrawl.crawl(
        settings, max_pages=15, strategy="BFS", delay=0, resolve=sandbox.resolve,
        on_page=seen.append,
    )  # fmt: skip
    assert result.dp == 15 == len(seen)
    with kgcrawl.open_run(result.run_id) as run:
        assert run.meta["strategy"] == "bfs"  # names are case-insensitive
        assert [p.url for p in run] == [p.url for p in seen]
        assert all(0 <= p.relevance <= 1 and p.relevant == (p.relevance > 0.5) for p in run)


def test_resume_goes_on_with_a_new_budget_and_version_naming_its_concepts(
    sandbox, tmp_path, monkeypatch, jieba_words
) -> None:
    """`kgcrawl.resume`: what `crawl --resume RUN --max-pages N --ontology V2` does, and
    `on_page` names the concepts of the pages judged with V2 by V2's labels."""
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    v2 = tmp_path / "tourism.v2.owl"
    with_new_concept(ROOT / "ontologies" / "tourism.owl", v2)
    options = {"resolve": sandbox.resolve, "workers": 1, "delay": 0, "graph": "none"}
    first = kgcrawl.crawl("tourism", max_pages=20, run_id="r", set=FIXED, **options)
    assert (first.dp, first.ended) == (20, "budget")
    seen = []
    result = kgcrawl.resume("r", max_pages=70, ontology=v2, resolve=sandbox.resolve,
                            on_page=seen.append)  # fmt: skip
    assert (result.run_id, result.dp, result.ended) == ("r", 70, "budget")
    with kgcrawl.open_run("r") as run:
        stored = list(run)
    assert [p.url for p in seen] == [p.url for p in stored[20:]]
    assert any(NEW_LABEL in page.concepts for page in seen), "named by the new version"
    assert [p.concepts for p in seen] == [p.concepts for p in stored[20:]]


def test_the_api_names_survive_importing_their_namesake_modules() -> None:
    import kgcrawl.calibrate
    from kgcrawl.crawl import engine  # noqa: F401

    assert kgcrawl.crawl.__module__ == kgcrawl.calibrate.__module__ == "kgcrawl"
    assert sys.modules["kgcrawl.crawl.engine"].Engine  # the subpackage is imported as usual


def test_query_parameters_are_checked_before_the_graph_is_asked(tmp_path, monkeypatch) -> None:
    """A map key with a backtick would break the Cypher text FalkorDB's client builds."""
    from kgcrawl.graph.errors import GraphError

    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    with pytest.raises(GraphError, match=r"parameter 'm': a map key may not contain a backtick"):
        kgcrawl.query("RETURN $m", params={"m": [{"a`b": 1}]})
    assert not (tmp_path / "graph").exists()  # no server was started


def test_unknown_names_suggest_the_closest() -> None:
    with pytest.raises(SettingsError, match=r"did you mean 'tourism'\?"):
        kgcrawl.load_settings("tourisim")
    with pytest.raises(SettingsError, match=r"did you mean 'crawl\.max_pages'\?"):
        kgcrawl.load_settings("tourism", {"crawl.max_page": 5})
    with pytest.raises(SettingsError, match=r"did you mean 'fcits_oh'\?"):
        kgcrawl.load_settings("tourism", {"crawl.strategy": "fcit_oh"})


def test_wrong_arguments_are_one_line_errors_before_any_run(sandbox, tmp_path, monkeypatch):
    """`on_page=5` left an empty run behind and raised Python's TypeError; a list for `set`
    gave "dictionary update sequence…"; `resume(max_pages="abc")` "'<=' not supported"."""
    from kgcrawl.errors import KgcrawlError

    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    with pytest.raises(KgcrawlError, match=r"^on_page: 5 is not a function of one PageRecord$"):
        kgcrawl.crawl("tourism", max_pages=5, resolve=sandbox.resolve, on_page=5, run_id="r5")
    with pytest.raises(SettingsError, match=r"^set: a mapping such as \{'relevance\.alpha'"):
        kgcrawl.crawl("tourism", max_pages=5, set=["relevance.alpha=0.5"], run_id="r6")
    with pytest.raises(SettingsError, match=r"^set: a mapping"):
        kgcrawl.load_settings("tourism", ["crawl.workers=2"])
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
    # one --resolve entry given as text is that entry, not its characters
    done = kgcrawl.crawl("tourism", max_pages=3, resolve=sandbox.resolve[0], set=FIXED,
                         graph="none", run_id="one")  # fmt: skip
    assert done.dp == 3
    with pytest.raises(KgcrawlError, match=r"^max_pages: expected a whole number, got 'abc'$"):
        kgcrawl.resume("one", max_pages="abc")
    assert kgcrawl.resume("one", max_pages="4").dp == 4  # read as `crawl` reads it


def test_readme_python_api_section_runs(tmp_path, monkeypatch) -> None:
    """The README's "Python API" example, run as a doctest (it starts its own sandbox)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Python API", 1)[1].split("\n## ", 1)[0]
    monkeypatch.setenv("KGCRAWL_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(section, {}, "README Python API", "README.md", 0)
    assert test.examples, "the README's Python API section has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_build_ontology_and_calibrate_as_functions(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("KGCRAWL_CACHE", str(tmp_path / "cache"))
    built = kgcrawl.build_ontology(
        ROOT / "corpus/tourism", base=ROOT / "ontologies/tourism.owl", out=tmp_path / "t.owl",
        lattice_dir=tmp_path, max_terms=40,
    )  # fmt: skip
    assert {p.name for p in built.files} >= {"tourism.cxt", "t.owl", "t.ttl"}
    assert len(built.ontology) > 40  # the shipped concepts and the merged FCA ones
    thresholds = kgcrawl.calibrate("tourism", set={"calibration.pages": 60})
    assert 0 < thresholds.beta < thresholds.alpha < 1
    assert (tmp_path / "cache" / f"{thresholds.key}.json").is_file()
