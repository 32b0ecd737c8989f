"""R(p) (Eq. 3–4): hand-computed examples, and a real page through the topic matcher."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from kgcrawl.ontology.model import Concept, Edge, Ontology
from kgcrawl.ontology.topic import build_topic_model
from kgcrawl.scoring.relevance import (
    cosine,
    document_weights,
    nameable_words,
    page_relevance,
    topic_matcher,
)
from kgcrawl.text.analysis import analyse_page
from kgcrawl.text.matching import TopicMatcher

W_T = np.array([1.0, 0.5, 0.25])


def test_eq3_and_eq4_by_hand() -> None:
    # f_{i,k}, groups 1..5 (W_k = 2.0, 1.5, 1.2, 1.0, 0.2):
    #   word 0: title 1, <p> 2     → max 2 → 1/2·2.0 + 2/2·1.0 = 2.0
    #   word 1: <h2> 1, nav 3      → max 3 → 1/3·1.5 + 3/3·0.2 = 0.7
    #   word 2: absent             → 0
    counts = np.array([[1, 0, 0, 2, 0], [0, 1, 0, 0, 3], [0, 0, 0, 0, 0]])
    assert document_weights(counts) == pytest.approx([2.0, 0.7, 0.0])
    # W_T·W_D = 1·2.0 + 0.5·0.7 = 2.35; ‖W_T‖ = √1.3125 = 1.145644; ‖W_D‖ = √4.49 = 2.118962
    # R(p) = 2.35 / (1.145644 · 2.118962) = 0.968044
    assert page_relevance(counts, W_T) == pytest.approx(0.968044, abs=1e-6)


def test_relevance_is_the_same_to_the_bit_in_any_order_of_the_words() -> None:
    # Sums in an order of their own (a BLAS dot product picks one for the CPU) change
    # R(p)'s last bits, and the crawl's order turns on them: exact sums give the same
    # bits in every order, hence on every machine.
    rng = np.random.default_rng(0)
    for _ in range(200):
        a, b = rng.random(150), rng.random(150) * (rng.random(150) < 0.3)
        order = rng.permutation(150)
        assert cosine(a[order], b[order]) == cosine(a, b)


def test_relevance_is_1_for_a_page_shaped_like_the_topic_and_0_without_topic_words() -> None:
    # each word once in group 4 only → W_D = (1, 1, 1); cos with (1, 1, 1) = 1
    assert page_relevance(np.array([[0, 0, 0, 1, 0]] * 3), np.ones(3)) == pytest.approx(1.0)
    assert page_relevance(np.zeros((3, 5)), W_T) == 0.0
    assert cosine(np.zeros(3), np.ones(3)) == 0.0


def test_topic_words_a_page_cannot_name_in_its_language_are_left_out_of_w_t() -> None:
    # word 0 has labels in both languages, word 1 only a Chinese one, word 2 only an English
    masks = nameable_words([("酒店", "hotel"), ("民宿",), ("hiking trail",)])
    assert masks["zh"].tolist() == [True, True, False] and masks["en"].tolist() == [
        True,
        False,
        True,
    ]
    # An English page naming word 0 once in its title: W_D = (2, 0, 0).
    counts = np.array([[1, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]])
    # All of W_T = (1, 0.5, 0.25): R = 2·1 / (√1.3125 · 2) = 0.872872
    assert page_relevance(counts, W_T) == pytest.approx(0.872872, abs=1e-6)
    # Without word 1 (no English label): R = 1 / √1.0625 = 0.970143
    assert page_relevance(counts, W_T, masks["en"]) == pytest.approx(0.970143, abs=1e-6)
    # A Chinese page that names word 2 all the same keeps it: W_D = (2, 0, 1), W_T whole:
    # (2 + 0.25) / (√1.3125 · √5) = 0.878310
    named = counts + np.array([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 1, 0]])
    assert page_relevance(named, W_T, masks["zh"]) == pytest.approx(0.878310, abs=1e-6)
    # a mask of every word is the paper's Eq. 4, to the bit
    assert page_relevance(counts, W_T, np.ones(3, dtype=bool)) == page_relevance(counts, W_T)


def test_a_page_in_a_language_the_ontology_has_no_label_in_is_scored_by_all_of_w_t() -> None:
    # An ontology built from English documents: no word can be named in Chinese.
    masks = nameable_words([("hotel",), ("homestay",), ("hiking trail",)])
    assert masks == {}
    # A Chinese page that quotes "hotel" once in its body: W_D = (1, 0, 0). Cut down to
    # the one word it names, W_T would make it a perfect match (R = 1); over all of
    # W_T = (1, 0.5, 0.25): R = 1 / √1.3125 = 0.872872, and lower the more words it lacks.
    counts = np.array([[0, 0, 0, 1, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]])
    assert page_relevance(counts, W_T, masks.get("zh")) == pytest.approx(0.872872, abs=1e-6)
    assert page_relevance(counts, W_T, np.zeros(3, dtype=bool)) == pytest.approx(1.0)


def test_a_word_seen_only_in_low_groups_weighs_less() -> None:
    # one word, once: in <title> w = 2.0, in navigation text w = 0.2; with two words the
    # cosine is larger when the topic's heavier word is the one in the title
    title_first = np.array([[1, 0, 0, 0, 0], [0, 0, 0, 0, 1]])
    nav_first = np.array([[0, 0, 0, 0, 1], [1, 0, 0, 0, 0]])
    assert page_relevance(title_first, W_T[:2]) > page_relevance(nav_first, W_T[:2])


def test_a_page_scored_against_the_spec_worked_example(jieba_words) -> None:
    # SPEC §3.3: topic R; W_T over (R, A, B, A1, A2, A3, B1) =
    # (1, 0.3, 1/3, 4/15, 1/3, 4/15, 17/60)
    concepts = [
        Concept("x#R", {"zh": "旅游"}),
        Concept("x#A", {"zh": "景区"}, parent="x#R", edge=Edge.IS_A),
        Concept("x#B", {"zh": "交通"}, parent="x#R", edge=Edge.INDUCED_BY),
        Concept("x#A1", {"zh": "公园"}, parent="x#A", edge=Edge.IS_A),
        Concept("x#A2", {"zh": "园林"}, {"en": ("garden",)}, parent="x#A", edge=Edge.SYNONYM),
        Concept("x#A3", {"zh": "古镇"}, parent="x#A", edge=Edge.IS_A),
        Concept("x#B1", {"zh": "高铁"}, parent="x#B", edge=Edge.IS_A),
    ]
    topic = build_topic_model(Ontology("x", {c.iri: c for c in concepts}))
    assert list(topic.weights.values())[1:3] == [Fraction(3, 10), Fraction(1, 3)]
    html = "<title>旅游</title><h2>公园</h2><p>旅游 garden 园林 高铁</p><div>旅游</div>"
    page = analyse_page(html.encode(), "http://x.cn/", topic_matcher(topic))
    # 旅游: groups 1, 4, 5 → max 1 → 2.0 + 1.0 + 0.2 = 3.2; 公园: group 2 → 1.5;
    # 园林 (garden + 园林): group 4 twice → 1.0; 高铁: group 4 → 1.0
    # W_D = (3.2, 0, 0, 1.5, 1.0, 0, 1.0)
    # W_T·W_D = 3.2 + 1.5·4/15 + 1/3 + 17/60 = 3.2 + 0.4 + 0.333333 + 0.283333 = 4.216667
    # ‖W_T‖² = 1 + 0.09 + 1/9 + 16/225 + 1/9 + 16/225 + 289/3600 = 1.534722 → 1.238839
    # ‖W_D‖² = 10.24 + 2.25 + 1 + 1 = 14.49 → 3.806573
    # R(p) = 4.216667 / (1.238839 · 3.806573) = 0.894170
    assert page.counts.sum(axis=1).tolist() == [3, 0, 0, 1, 2, 0, 1]
    assert page_relevance(page.counts, topic.vector) == pytest.approx(0.894170, abs=1e-6)


def test_an_english_page_names_a_topic_word_in_the_plural_too() -> None:
    """`topic_matcher` counts "scenic areas" for the label "scenic area" and "tourists" for
    "tourist"; a plural that is another word's label stays that word's."""
    concepts = [
        Concept("x#T", {"en": "tourism"}),
        Concept("x#S", {"en": "scenic area"}, parent="x#T", edge=Edge.IS_A),
        Concept("x#V", {"en": "tourist"}, parent="x#T", edge=Edge.IS_A),
        Concept("x#H", {"en": "hotel"}, parent="x#T", edge=Edge.IS_A),
        Concept("x#P", {"en": "hotels"}, parent="x#H", edge=Edge.IS_A),  # a label of its own
    ]
    topic = build_topic_model(Ontology("x", {c.iri: c for c in concepts}))
    html = "<title>Scenic areas</title><p>Many tourists book hotels near the scenic area.</p>"
    page = analyse_page(html.encode(), "http://x.org/", topic_matcher(topic))
    # tourism 0; scenic area: title + body; tourist: body ("tourists"); hotel 0; hotels: body
    assert page.counts.sum(axis=1).tolist() == [0, 2, 1, 0, 1]
    written = TopicMatcher([c.all_labels() for c in concepts])
    assert written.count_sparse("Scenic areas for many tourists") == {}
