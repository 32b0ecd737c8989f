"""`build-ontology` on the English gardening corpus against its hand-written taxonomy.

corpus/gardening-en (79 short articles written for this project by
benchmarks/corpora/compose.py) and its reference taxonomy (23 concepts, 17
is-a pairs, benchmarks/corpora/gardening-en.reference.json) hold the English
term pipeline and the subsumption taxonomy to issue 18's bar: is-a precision
≥ 0.6, ≥ 80 % of the reference concepts found, depth ≥ 3, no stop word or
number among the classes, ≤ 40 % of the classes directly under the root, no
generic word among the 50 highest-termhood terms.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kgcrawl.ontology.build import BuildOptions, BuildResult, build_ontology
from kgcrawl.ontology.reference import read_reference, score_taxonomy
from kgcrawl.text.english import english_stop_words

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus" / "gardening-en"
REFERENCE = ROOT / "benchmarks" / "corpora" / "gardening-en.reference.json"
# The issue's examples of words a term list must not hold, and everyday words like them.
_GENERIC = """please following gives keeps tastes html edu http www page home click use make
take get give keep need want know like good new great first last time way thing people year day
week also just well even back much many part place case point number information"""
GENERIC = set(_GENERIC.split())
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> BuildResult:
    tmp = tmp_path_factory.mktemp("gardening")
    options = BuildOptions(lattice_dir=tmp / "lattice", out=tmp / "gardening.fca.owl")
    return build_ontology(CORPUS, options)


def test_corpus_is_what_the_issue_asks_for(built: BuildResult) -> None:
    assert len(built.corpus) >= 60 and built.corpus.skipped == []
    # The 1990s HTML pages and the Windows-1252 files are read, with their text.
    old = [d for d in built.corpus.documents if d.id.endswith((".html", ".txt"))]
    assert len(old) >= 4 and all(len(d.text) > 200 for d in old)


def test_is_a_edges_match_the_reference(built: BuildResult) -> None:
    score = score_taxonomy(built.ontology, read_reference(REFERENCE))
    assert score.recall >= 0.8, score
    assert len(score.correct) + len(score.wrong) >= 8, score  # enough pairs to judge
    assert score.precision >= 0.6, score


def test_depth_and_share_under_the_root(built: BuildResult) -> None:
    onto = built.ontology
    classes = len(onto) - 1
    assert onto.max_depth >= 3
    assert len(onto.children[onto.root]) <= 0.4 * classes


def test_no_stop_word_or_number_among_the_classes(built: BuildResult) -> None:
    stops = english_stop_words()
    onto = built.ontology
    labels = [c.label("en") for iri, c in onto.concepts.items() if iri != onto.root]
    assert not [t for t in labels if t in stops or re.search(r"\d", t)]


def test_no_generic_word_among_the_top_terms(built: BuildResult) -> None:
    import wordfreq

    everyday = set(wordfreq.top_n_list("en", 250))  # the 250 commonest English words
    top = built.top_terms(50)
    assert len(top) == 50
    assert not [t for t in top if t in GENERIC or t in everyday]
