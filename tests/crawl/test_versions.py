"""Ontology versions of a run: recorded, checked, switched on resume, replayed at the same point."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from kgcrawl.config import load_settings
from kgcrawl.crawl.core import Crawl
from kgcrawl.crawl.engine import Engine, topic_for
from kgcrawl.crawl.state import RunState
from kgcrawl.crawl.versions import (
    KEPT,
    OntologyChanged,
    as_meta,
    keep,
    recorded,
    switch_ontology,
    switched,
    version_of,
)
from kgcrawl.errors import KgcrawlError
from kgcrawl.graph.sync import run_settings
from kgcrawl.ontology.model import Concept, Edge, Ontology
from kgcrawl.ontology.owl import read_ontology, write_ontology
from kgcrawl.ontology.topic import topic_model_for
from tests.crawl.crawls import BASE, DEADLINE, quick_sandbox, sigkill_at, start_crawl
from tests.crawl.strategies.conftest import PAPER

ROOT = Path(__file__).resolve().parents[2]
NEW_LABEL = "打卡"  # a sandbox tourism word the shipped ontology lacks


def with_new_concept(source: Path, target: Path) -> str:
    """`source` plus one concept under the root (it shifts every deeper concept's index)."""
    onto = read_ontology(source)
    namespace = onto.root.rsplit("#", 1)[0]
    iri = f"{namespace}#CheckIn"
    new = Concept(iri, {"zh": NEW_LABEL, "en": "check-in"}, parent=onto.root, edge=Edge.IS_A)
    write_ontology(Ontology(iri=onto.iri, concepts={**onto.concepts, iri: new}), target)
    return iri


@pytest.fixture(scope="module")
def versions(tmp_path_factory) -> tuple[Path, Path, str]:
    """Version 1 (a copy of the shipped tourism ontology) and version 2 with one concept more."""
    folder = tmp_path_factory.mktemp("ontologies")
    v1, v2 = folder / "tourism.owl", folder / "tourism.v2.owl"
    shutil.copy(ROOT / "ontologies" / "tourism.owl", v1)
    return v1, v2, with_new_concept(v1, v2)


def test_a_switch_is_recorded_once_per_outcome(versions):
    v1, v2, _ = versions
    start = [version_of(v1, 1)]
    assert switched(start, v1, 40) == start, "the version in force: nothing to record"
    later = switched(start, v2, 41)
    assert [(v.first, Path(v.path).name) for v in later] == [
        (1, "tourism.owl"),
        (41, "tourism.v2.owl"),
    ]
    back = switched(later, v1, 41)  # asked again before any outcome: the last one is replaced
    assert [(v.first, Path(v.path).name) for v in back] == [(1, "tourism.owl"), (41, "tourism.owl")]


def test_a_run_from_before_versions_were_recorded_used_its_settings_ontology(versions):
    meta = {"settings": {"ontology": str(versions[0])}}
    assert recorded(meta) == [version_of(versions[0], 1)]
    assert recorded({**meta, "ontologies": as_meta([version_of(versions[1], 1)])}) == [
        version_of(versions[1], 1)
    ]


def test_a_changed_or_missing_file_is_read_from_the_runs_copy(tmp_path, versions):
    """Without the copy (a run from before runs kept one), it stops with the file's name."""
    file, run_dir, older = tmp_path / "tourism.owl", tmp_path / "r1", tmp_path / "r0"
    shutil.copy(versions[0], file)
    version = version_of(file, 1)
    keep(version, run_dir)
    assert version.file(run_dir) == file == version.file(older), "unchanged: the file itself"
    original = file.read_bytes()
    file.write_text(file.read_text(encoding="utf-8") + "\n<!-- edited -->\n", encoding="utf-8")
    assert (
        version.file(run_dir)
        == version.kept(run_dir)
        == run_dir / KEPT / version.kept(run_dir).name
    )
    assert version.kept(run_dir).read_bytes() == original
    with pytest.raises(OntologyChanged, match=rf"run r0: ontology {file} changed since the run"):
        version.file(older)
    file.unlink()
    assert version.file(run_dir) == version.kept(run_dir)
    with pytest.raises(OntologyChanged, match=rf"{file} is gone, and the run keeps no copy"):
        version.file(older)


def test_use_ontology_keeps_statistics_under_the_new_indices(versions, jieba_words):
    v1, v2, new_iri = versions
    settings = replace(load_settings("tourism", PAPER), ontology=v1)
    crawl = Crawl(settings, random.Random(0), topic_for(settings))
    old = list(crawl.topic.weights)
    deep = old[-1]  # a leaf: the new depth-1 concept moves it one place on
    crawl.stats.add_page(np.isin(np.arange(len(old)), [0, len(old) - 1]), 300)
    crawl.anchors.add(7, ({len(old) - 1: 2}, {len(old) - 1: 1}, {}), 300)
    before = crawl.anchors.add(7, ({}, {}, {}), 300)[0]
    bm25 = crawl.anchors.all_sums()["anchor"][7][len(old) - 1]
    bm25_url = crawl.anchors.all_sums()["url"][7][len(old) - 1]

    crawl.use_ontology(replace(settings, ontology=v2), topic_for(replace(settings, ontology=v2)))
    new = list(crawl.topic.weights)
    assert len(new) == len(old) + 1 and new.index(deep) == len(old)
    assert crawl.stats.pages == 1 and crawl.stats.total_length == 300
    assert crawl.stats.doc_freq[new.index(deep)] == 1 and crawl.stats.doc_freq[0] == 1
    assert crawl.stats.doc_freq[new.index(new_iri)] == 0
    sums = crawl.anchors.all_sums()
    assert sums["anchor"] == {7: {new.index(deep): bm25}}
    assert sums["url"] == {7: {new.index(deep): bm25_url}}  # every evidence source moves
    after = crawl.anchors.add(7, ({}, {}, {}), 300)[0]
    assert after > 0 and after != pytest.approx(before)  # same BM25 sums, the new W_T
    assert crawl.matcher.count_sparse(f"{NEW_LABEL}{NEW_LABEL}") == {new.index(new_iri): 2}


def test_resume_with_a_new_version_scores_on_with_it_and_replays_exactly(
    tmp_path, versions, jieba_words, request
):
    v1, v2 = tmp_path / "tourism.owl", tmp_path / "tourism.v2.owl"
    shutil.copy(versions[0], v1)
    shutil.copy(versions[1], v2)
    new_iri = versions[2]
    pages = 120
    env = {**os.environ, "KGCRAWL_HOME": str(tmp_path), "COLUMNS": "120"}
    sets = [a for k, v in {**BASE, "crawl.max_pages": pages}.items() for a in ("--set", f"{k}={v}")]
    state_file = tmp_path / "runs" / "v" / "state.sqlite"
    errors = (tmp_path / "stderr.txt").open("wb")
    stack = ExitStack()  # the same web to the end: the run keeps its --resolve
    request.addfinalizer(stack.close)
    web = stack.enter_context(quick_sandbox())
    with errors:
        resolve = ["--resolve", web[0]]
        start = [
            *resolve,
            "tourism",
            "--strategy",
            "fcoits",
            "--run-id",
            "v",
            "--ontology",
            str(v1),
        ]
        switch_at = sigkill_at(start_crawl([*start, *sets], env, errors), state_file, 40) + 1
        resumed = start_crawl([*resolve, "--resume", "v", "--ontology", str(v2)], env, errors)
        sigkill_at(resumed, state_file, switch_at + 30)  # killed again on the new version
        assert start_crawl([*resolve, "--resume", "v"], env, errors).wait(DEADLINE) == 0

    state = RunState(state_file)
    try:
        meta = state.meta()
        assert [(v.first, v.path) for v in recorded(meta)] == [(1, str(v1)), (switch_at, str(v2))]
        assert meta["dp"] == pages and meta["ended"] == "budget"
        settings = run_settings(state)
        assert settings.ontology == v1, "the run's settings stay those it started with"
        new_index = list(topic_model_for(replace(settings, ontology=v2)).weights).index(new_iri)
        mentions = [o.mentions for o in state.outcomes()]
        assert any(new_index in m for m in mentions[switch_at - 1 :]), "pages count the new concept"
        engine = Engine(settings, state)
        assert engine.replay() == len(mentions), "the log replays through the switch"
        assert (engine.crawl.counters.dp, engine.crawl.counters.lp) == (meta["dp"], meta["lp"])
        assert len(engine.crawl.topic.weights) == len(read_ontology(v2).concepts)
        on_v2 = {o.final_url for o in state.outcomes() if o.downloaded and o.seq >= switch_at}
    finally:
        state.close()

    sheet = tmp_path / "sheet.jsonl"
    sample = [sys.executable, "-m", "kgcrawl", "runs", "sample", "v", "--pages", "1000",
              "--out", str(sheet)]  # fmt: skip
    sampled = subprocess.run(sample, env=env, capture_output=True, text=True, timeout=60)
    assert sampled.returncode == 0, sampled.stderr
    drawn = {json.loads(line)["url"] for line in sheet.read_text(encoding="utf-8").splitlines()}
    assert drawn == on_v2, "pages to label: those of the last version, which calibration scores"

    shown = subprocess.run([sys.executable, "-m", "kgcrawl", "runs", "show", "v"],
                           env=env, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert f"ontology from outcome {switch_at}" in shown.stdout

    # Both files edited in place (a rebuild to the same --out did it): the run goes on with
    # the copies it keeps, and replays through the switch as before.
    for file in (v1, v2):
        file.write_text(file.read_text(encoding="utf-8") + "\n<!-- edited -->\n", "utf-8")
    more = ["crawl", "--resume", "v", "--max-pages", str(pages + 10)]
    with stack:
        resumed = subprocess.run([sys.executable, "-m", "kgcrawl", *more],
                                 env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    state = RunState(state_file)
    assert state.meta()["dp"] == pages + 10
    state.close()
    shutil.rmtree(tmp_path / "runs" / "v" / KEPT)  # as a run from before the copies
    refused = subprocess.run([sys.executable, "-m", "kgcrawl", *more],
                             env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert refused.returncode == 2
    assert f"ontology {v1} changed since the run used it, and the run keeps no" in refused.stderr


def test_a_new_version_the_crawl_cannot_use_is_refused_before_it_is_recorded(tmp_path, versions):
    state = RunState(tmp_path / "state.sqlite")
    state.set_meta({"ontologies": as_meta([version_of(versions[0], 1)])})
    state.checkpoint()
    settings = replace(load_settings("tourism"), ontology=versions[0])
    junk = tmp_path / "junk.owl"
    junk.write_text("not an ontology", encoding="utf-8")
    with pytest.raises(KgcrawlError, match="no such file"):
        switch_ontology(state, settings, tmp_path / "missing.owl")
    with pytest.raises(KgcrawlError, match=f"{junk}: not a readable ontology"):
        switch_ontology(state, settings, junk)
    assert recorded(state.meta()) == [version_of(versions[0], 1)]
    switch_ontology(state, settings, versions[1])
    assert recorded(state.meta()) == [version_of(versions[1], 1)], "no outcome yet: replaced"
    state.close()
