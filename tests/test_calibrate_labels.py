"""α from labelled pages of a real crawl (`calibrate --truth FILE --run RUN`), for its strategy."""

from __future__ import annotations

import json
import math

import pytest

import kgcrawl
from kgcrawl.calibrate import calibrate, resolve_thresholds
from kgcrawl.cli import main
from kgcrawl.config import load_settings, with_overrides
from kgcrawl.scoring.thresholds import GRID
from tests.test_calibrate import OFF_TOPIC, ON_TOPIC

RUN = "labelled"
FIXED = {"relevance.alpha": 0.5, "relevance.beta": 0.19, "fetch.delay": 0.0}


@pytest.fixture(scope="module")
def crawled(sandbox, tmp_path_factory):
    """A 120-page fcits_oh crawl of the sandbox, and tiny corpora (a fast corpus calibration)."""
    root = tmp_path_factory.mktemp("labels")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KGCRAWL_HOME", str(root / "home"))
        kgcrawl.crawl("tourism", max_pages=120, workers=1, seed=0, resolve=sandbox.resolve,
                      graph="none", run_id=RUN, set=FIXED)  # fmt: skip
        with kgcrawl.open_run(RUN) as run:
            pages = [(page.url, page.relevance) for page in run]
    for side, text in (("on", ON_TOPIC), ("off", OFF_TOPIC)):
        (root / side).mkdir()
        for i in range(3):
            (root / side / f"{i}.txt").write_text(text, encoding="utf-8")
    return root, pages


@pytest.fixture
def home(crawled, tmp_path, monkeypatch):
    root, pages = crawled
    monkeypatch.setenv("KGCRAWL_HOME", str(root / "home"))
    monkeypatch.setenv("KGCRAWL_CACHE", str(tmp_path / "cache"))
    small = {"calibration.positives": str(root / "on"), "calibration.negatives": str(root / "off"),
             "calibration.page_tokens": 10, "calibration.pages": 40}  # fmt: skip
    return load_settings("tourism", small), pages, tmp_path


def _sets(settings) -> list[str]:
    """--set options for the command line that give `settings`' small corpora."""
    keys = ("positives", "negatives", "page_tokens", "pages")
    flat = {key: settings.flat()[f"calibration.{key}"] for key in keys}
    return [arg for key, value in flat.items() for arg in ("--set", f"calibration.{key}={value}")]


def _by_median(pages) -> dict[str, bool]:
    """Half the pages relevant: those above the median R."""
    middle = sorted(r for _, r in pages)[len(pages) // 2]
    return {url: r > middle for url, r in pages}


def _manifest(path, labels: dict[str, bool]):
    lines = (json.dumps({"url": url, "relevant": relevant}) for url, relevant in labels.items())
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_alpha_is_chosen_on_the_labelled_pages_and_kept_for_the_runs_strategy(home) -> None:
    settings, pages, tmp = home
    ordered = sorted(r for _, r in pages)  # cut between two pages with a grid α between them
    pairs = zip(ordered[len(ordered) // 3 :], ordered[len(ordered) // 3 + 1 :], strict=False)
    cut = next(a for a, b in pairs if math.floor(a * 100) < math.floor(b * 100))
    truth = _manifest(tmp / "labels.jsonl", {url: r > cut for url, r in pages})
    corpus = calibrate(settings)
    result = kgcrawl.calibrate(settings, truth=truth, run=RUN)
    # scored from the recorded counts as the crawl scored them
    assert sorted(result.positives + result.negatives) == pytest.approx(sorted(r for _, r in pages))
    # the labels split at `cut`, so F1 = 1 from the first α at or above the highest page not
    # labelled relevant to the last below the lowest one labelled relevant: the corpora's α
    # lies below that range and moves to its nearest end
    plateau = [a for a in GRID if max(result.negatives) <= a < min(result.positives)]
    assert result.separation.f1 == 1.0
    assert corpus.alpha < plateau[0] == result.alpha
    own = resolve_thresholds(settings)  # the pipeline's strategy, fcits_oh: the run's
    assert own.relevance.alpha == result.alpha
    assert own.origins["relevance.alpha"].startswith(f"calibrated on labelled pages of run {RUN}")
    other = resolve_thresholds(with_overrides(settings, {"crawl.strategy": "bfs"}))
    assert other.relevance.alpha == corpus.alpha


def test_calibrating_on_the_corpora_again_drops_the_labelled_alpha(home, capsys) -> None:
    settings, pages, tmp = home
    truth = _manifest(tmp / "labels.jsonl", _by_median(pages))
    labelled = kgcrawl.calibrate(settings, truth=truth, run=RUN)
    corpus = calibrate(settings)
    assert labelled.alpha != corpus.alpha
    assert resolve_thresholds(settings).relevance.alpha == corpus.alpha


def test_the_command_says_what_it_left_out_and_how_the_corpora_alpha_did(home, capsys) -> None:
    settings, pages, tmp = home
    listed = pages[:100]  # 20 pages the manifest does not know
    truth = _manifest(tmp / "labels.jsonl", _by_median(listed))
    main(["calibrate", "tourism", "--truth", str(truth), "--run", RUN, *_sets(settings)])
    out = " ".join(capsys.readouterr().out.split())
    assert f"pages left out: {len(pages) - len(listed)} not in {truth}" in out
    assert "the corpora's α =" in out and "crawls with fcits_oh now use α =" in out
    assert "100 labelled pages: 200 or more make α steadier" in out


@pytest.mark.parametrize(
    ("labels", "named"),
    [
        (lambda pages: _by_median(pages[:30]), "30 labelled pages; α needs"),
        (lambda pages: {u: True for u, _ in pages}, "every labelled page is relevant"),
    ],
    ids=["too few", "one kind"],
)
def test_labels_that_cannot_choose_alpha_are_one_line_naming_the_file(
    home, capsys, labels, named
) -> None:
    _, pages, tmp = home
    truth = _manifest(tmp / "labels.jsonl", labels(pages))
    with pytest.raises(SystemExit) as ended:
        main(["calibrate", "tourism", "--truth", str(truth), "--run", RUN])
    err = capsys.readouterr().err.strip()
    assert ended.value.code == 2 and len(err.splitlines()) == 1
    assert named in err and str(truth) in err


def test_a_run_of_another_domain_is_refused(home, capsys) -> None:
    _, pages, tmp = home
    truth = _manifest(tmp / "labels.jsonl", _by_median(pages))
    with pytest.raises(SystemExit) as ended:
        main(["calibrate", "rainstorm", "--truth", str(truth), "--run", RUN])
    err = capsys.readouterr().err.strip()
    assert ended.value.code == 2 and f"run {RUN} is a crawl of tourism, not of rainstorm" in err


def test_a_run_crawled_with_an_ontology_of_its_own_calibrates_that_ontology(
    home, sandbox, capsys
) -> None:
    """A run crawled with another file than the pipeline's (the demo's FCA ontology, a
    refreshed version): `runs sample`'s hint, `calibrate DOMAIN --truth --run`, gives the
    α of that file, which a crawl given the file uses; once the file changes, one line."""
    settings, _, tmp = home
    own = tmp / "tourism.mine.owl"
    own.write_bytes((settings.ontology.parent / "tourism.fca.owl").read_bytes())
    run = "own-ontology"
    kgcrawl.crawl("tourism", max_pages=80, workers=1, seed=0, resolve=sandbox.resolve,
                  graph="none", run_id=run, set={**FIXED, "ontology": str(own)})  # fmt: skip
    with kgcrawl.open_run(run) as crawled:
        pages = [(page.url, page.relevance) for page in crawled]
    truth = _manifest(tmp / "labels.jsonl", _by_median(pages))
    main(["calibrate", "tourism", "--truth", str(truth), "--run", run, *_sets(settings)])
    out = " ".join(capsys.readouterr().out.split())
    alpha = float(out.split(f"crawls with fcits_oh --ontology {own} now use α = ")[1].split()[0])
    mine = resolve_thresholds(with_overrides(settings, {"ontology": str(own)}))
    assert mine.relevance.alpha == pytest.approx(alpha, abs=0.005)
    assert mine.origins["relevance.alpha"].startswith(f"calibrated on labelled pages of run {run}")
    own.write_bytes(own.read_bytes() + b"\n<!-- edited -->\n")
    with pytest.raises(SystemExit) as ended:
        main(["calibrate", "tourism", "--truth", str(truth), "--run", run])
    err = capsys.readouterr().err.strip()
    assert ended.value.code == 2 and len(err.splitlines()) == 1
    assert "the ontology files it crawled with have changed since" in err


def test_a_sampled_sheet_labelled_in_part_calibrates_and_is_never_overwritten(home, capsys):
    """`runs sample` → a person labels the lines → `calibrate --truth`, as a user would."""
    settings, pages, tmp = home
    sheet = tmp / "to-label.jsonl"
    main(["runs", "sample", RUN, "--pages", "90", "--out", str(sheet)])
    said = " ".join(capsys.readouterr().err.split())
    assert f"kgcrawl calibrate tourism --truth {sheet} --run {RUN}" in said
    lines = [json.loads(line) for line in sheet.read_text(encoding="utf-8").splitlines()]
    drawn = [line["url"] for line in lines]
    chosen = set(drawn)
    assert drawn == [url for url, _ in pages if url in chosen]  # in crawl order
    assert len(lines) == 90 and all(line["relevant"] is None and line["text"] for line in lines)
    labels = _by_median(pages)
    for line in lines[:70]:  # the last 20 not labelled yet
        line["relevant"] = labels[line["url"]]
    filled = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    sheet.write_text(filled, encoding="utf-8")
    main(["calibrate", "tourism", "--truth", str(sheet), "--run", RUN, *_sets(settings)])
    out = " ".join(capsys.readouterr().out.split())
    assert f"pages left out: {len(pages) - 70} not in {sheet}" in out
    with pytest.raises(SystemExit) as ended:
        main(["runs", "sample", RUN, "--out", str(sheet)])
    assert ended.value.code == 2 and "exists (it may hold your labels)" in capsys.readouterr().err
    assert sheet.read_text(encoding="utf-8") == filled
