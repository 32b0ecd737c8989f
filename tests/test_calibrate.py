"""Calibrated α and β (SPEC §4.6) on hand-made corpora whose best threshold is known."""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest
from typer.testing import CliRunner

from kgcrawl.calibrate import (
    CalibrationError,
    cached,
    calibrate,
    composed_for,
    resolve_thresholds,
    thresholds_for,
)
from kgcrawl.calibration_pages import compose_pages
from kgcrawl.cli import app
from kgcrawl.config import load_settings
from kgcrawl.crawl.view import no_relevant_advice
from kgcrawl.ontology.topic import topic_model_for
from kgcrawl.scoring.relevance import topic_matcher
from kgcrawl.scoring.thresholds import GRID

# One topic word (景区) in each off-topic paragraph; many in each on-topic one. Each
# paragraph is over 10 tokens, so with page_tokens = 10 every calibration page is one
# title and one paragraph, wholly on or wholly off topic.
ON_TOPIC = "旅游攻略\n景区 酒店 门票 游客 导游 旅行社 自由行 民宿 温泉 古镇 索道 度假"
OFF_TOPIC = "财经新闻\n股票基金市场今天上涨，投资者关注理财产品的收益，景区的股票也在其中。"
ONE_WORD = "景区"


@pytest.fixture
def corpora(tmp_path, monkeypatch):
    monkeypatch.setenv("KGCRAWL_CACHE", str(tmp_path / "cache"))
    positives, negatives = tmp_path / "on", tmp_path / "off"
    positives.mkdir()
    negatives.mkdir()
    for i in range(3):
        (positives / f"{i}.txt").write_text(ON_TOPIC, encoding="utf-8")
        (negatives / f"{i}.txt").write_text(OFF_TOPIC, encoding="utf-8")
    return positives, negatives


def settings_for(positives, negatives, **more):
    values = {
        "calibration.positives": str(positives),
        "calibration.negatives": str(negatives),
        "calibration.page_tokens": 10,
        "calibration.pages": 40,
        **{f"calibration.{k}": v for k, v in more.items()},
    }
    return load_settings("tourism", values)


def test_alpha_is_the_middle_of_the_thresholds_that_separate_the_pages(corpora):
    settings = settings_for(*corpora)
    topic = topic_model_for(settings)
    matcher = topic_matcher(topic)
    paragraph = OFF_TOPIC.splitlines()[1]
    [(word, _count)] = matcher.count_sparse(paragraph).items()  # the page names one topic word
    assert matcher.count_sparse(ONE_WORD) == {word: 1}
    # W_D has one non-zero entry, so R = cos(W_T, W_D) = W_T[word] / ‖W_T‖ whatever its groups
    r_off = topic.vector[word] / np.linalg.norm(topic.vector)
    result = calibrate(settings)
    assert result.negatives == pytest.approx([r_off] * len(result.negatives))
    assert min(result.positives) > r_off + 0.01
    # F1 = 1 from the grid's first α at or above r_off to its last below every on-topic page:
    # α is the middle of that range (calibration.tolerance)
    plateau = [a for a in GRID if r_off <= a < min(result.positives)]
    assert plateau[0] == math.ceil(r_off * 100) / 100
    assert result.alpha == plateau[(len(plateau) - 1) // 2]
    assert result.separation.f1 == 1.0
    r2 = settings.relevance.r[1]
    assert result.beta == round(r2 * result.alpha * 0.9, 4)  # r2 · α · margin
    assert result.plot.is_file()


def test_the_cache_is_reused_and_a_changed_corpus_recalibrates(corpora):
    positives, negatives = corpora
    settings = settings_for(positives, negatives)
    said: list[str] = []
    first = thresholds_for(settings, announce=said.append)
    assert len(said) == 1 and "calibrating α and β for tourism" in said[0]
    again = thresholds_for(settings, announce=said.append)
    assert len(said) == 1 and again.origin.startswith("calibrated, cached in")
    assert (again.alpha, again.beta, again.key) == (first.alpha, first.beta, first.key)
    # the composed pages come back as they were made, for a crawl's web α (web_alpha.py)
    assert len(first.composed) == 40 and again.composed == first.composed
    (negatives / "3.txt").write_text(
        "体育新闻\n足球比赛今晚开始，球迷们早早来到体育场等待。", "utf-8"
    )
    assert thresholds_for(settings, compute=False) is None  # another corpus, another key


def test_a_cache_folder_that_cannot_be_written_calibrates_all_the_same(
    corpora, tmp_path, monkeypatch
):
    """A read-only cache failed `calibrate` and a first crawl with "Operation not
    permitted"; here the folder lies under a file, which no user, root too, can write."""
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("KGCRAWL_CACHE", str(tmp_path / "file" / "cache"))
    settings = settings_for(*corpora)
    said: list[str] = []
    result = thresholds_for(settings, announce=said.append)
    assert result.origin.startswith(f"calibrated now, not cached ({tmp_path}/file/cache: ")
    assert result.separation.f1 == 1.0 and not (tmp_path / "file" / "cache").exists()
    out = CliRunner().invoke(
        app, ["calibrate", "tourism", *(f"--set={k}={v}" for k, v in settings.flat().items()
                                        if k.startswith("calibration."))]
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "calibrated now, not cached" in out.output and "plot:" not in out.output


def test_resolve_replaces_auto_and_says_where_values_came_from(corpora):
    settings = settings_for(*corpora)
    assert thresholds_for(settings, compute=False) is None
    pending = resolve_thresholds(settings, compute=False)  # pipeline check: nothing computed
    assert pending.relevance.alpha == "auto"
    assert "kgcrawl calibrate tourism" in pending.origins["relevance.alpha"]
    resolved = resolve_thresholds(settings)
    assert isinstance(resolved.relevance.alpha, float)
    r2 = settings.relevance.r[1]
    assert resolved.relevance.beta == round(r2 * resolved.relevance.alpha * 0.9, 4)
    assert resolved.origins["relevance.alpha"] == "calibrated now"
    assert composed_for(resolved) == cached(settings).composed != ()  # a crawl takes them
    fixed = resolve_thresholds(load_settings("tourism", {"relevance.alpha": "0.4"}))
    assert fixed.relevance.beta == round(r2 * 0.4 * 0.9, 4)  # β follows a set α
    assert composed_for(fixed) == ()  # an α set as a number is never recalibrated


def test_when_no_page_passed_a_calibrated_alpha_the_advice_is_to_label_not_recalibrate(corpora):
    for _ in "now", "cached":
        origin = resolve_thresholds(settings_for(*corpora)).origins["relevance.alpha"]
        advice = no_relevant_advice("RUN", "tourism", origin)
        assert advice.startswith("α was calibrated on the corpora; to calibrate it on this web's")
        assert "`kgcrawl calibrate tourism --truth labels.jsonl --run RUN`" in advice
        assert "relevance.alpha=auto" not in advice


def test_composed_pages_have_the_share_they_are_labelled_with(corpora):
    settings = load_settings("tourism", {"calibration.page_tokens": 300, "calibration.pages": 60})
    from kgcrawl.text.corpus import read_corpus

    on = read_corpus("corpus/tourism").documents
    off = read_corpus("corpus/background").documents
    pages = compose_pages(on, off, settings.calibration)
    assert pages == compose_pages(on, off, settings.calibration)  # deterministic
    assert 15 < sum(relevant for _, relevant in pages) < 45  # share uniform, cut at 0.5
    assert all(len(page) > 300 for page, _ in pages)


def test_no_corpus_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("KGCRAWL_CACHE", str(tmp_path))
    settings = load_settings("tourism", {"calibration.positives": str(tmp_path / "none")})
    with pytest.raises(Exception, match="no on-topic documents to calibrate α on"):
        calibrate(settings)


def test_a_folder_of_off_topic_documents_on_the_domain_itself_is_left_out(corpora, tmp_path):
    positives, negatives = corpora
    alone = calibrate(settings_for(positives, negatives))
    background = tmp_path / "background"  # the same off-topic texts in a folder, and a
    for name, text in (("finance", OFF_TOPIC), ("travel", ON_TOPIC)):  # folder of the domain
        (background / name).mkdir(parents=True)
        for i in range(3):
            (background / name / f"{i}.txt").write_text(text, "utf-8")
    settings = settings_for(positives, background)
    result = calibrate(settings)
    assert list(result.left_out) == ["travel"]
    assert (result.alpha, result.negatives) == (alone.alpha, alone.negatives)
    assert cached(settings).left_out == result.left_out
    small = ["--set", "calibration.page_tokens=10", "--set", "calibration.pages=40"]
    shown = CliRunner().invoke(app, ["calibrate", "tourism", "--positives", str(positives),
                                     "--negatives", str(background), *small])  # fmt: skip
    assert shown.exit_code == 0, shown.output
    said = " ".join(shown.output.split())
    assert "left out of the off-topic documents, as on topic as the on-topic ones: travel" in said
    shutil.rmtree(background / "finance")  # nothing left to tell the domain from
    with pytest.raises(
        CalibrationError, match=r"every folder of off-topic documents \(travel\) is"
    ):
        calibrate(settings_for(positives, background))


def test_corpora_that_r_cannot_tell_apart_are_warned_of(corpora):
    """The corpora swapped: the "off-topic" pages score higher. A crawl's calibration says
    so beside its α, and `kgcrawl calibrate` below its table; the right way round, neither."""
    on, off = corpora
    for positives, negatives, warned in ((on, off, False), (off, on, True)):
        said: list[str] = []
        resolve_thresholds(settings_for(positives, negatives), said.append)
        assert said[0].startswith("calibrating α and β for tourism")
        assert any("ranks 0% of pairs right" in line for line in said) == warned, said
    small = ["--set", "calibration.page_tokens=10", "--set", "calibration.pages=40"]
    shown = CliRunner().invoke(app, ["calibrate", "tourism", "--positives", str(off),
                                     "--negatives", str(on), *small])  # fmt: skip
    assert shown.exit_code == 0, shown.output
    assert "warning: R(p) hardly tells the on-topic pages" in " ".join(shown.output.split())
