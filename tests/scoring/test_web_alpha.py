"""α recalibrated on the topic words a web names (scoring/web_alpha.py), by hand.

W_T = (1, .5, .5, .5): ‖W_T‖ = √1.75; a page naming word 0 alone has R = 1/√1.75 =
0.7559, one naming word 1 alone 0.5/√1.75 = 0.3780.
"""

from __future__ import annotations

import numpy as np
import pytest

from kgcrawl.scoring.web_alpha import ComposedPage, one_word_floor, web_alpha

VECTOR = np.array([1.0, 0.5, 0.5, 0.5])
ON_TOPIC = ComposedPage({0: 3.0, 2: 3.0}, "zh", True)
OFF_TOPIC = ComposedPage({1: 3.0}, "zh", False)


def test_the_web_alpha_of_two_pages_by_hand() -> None:
    """The web names words 0 and 1. Projected onto them, W_T = (1, .5) (‖·‖ = √1.25):
    the on-topic page is W_D = (3, 0), R = 1/√1.25 = 0.894; the off-topic one (0, 3),
    R = 0.5/√1.25 = 0.447. Every α in 0.45 … 0.89 separates them (F1 1): the middle of
    those 45 is 0.67. On R(p)'s scale over all four words: 0.67 · √1.25/√1.75 = 0.5663,
    below the corpora's 0.70 and above the one-word floor 0.3780: it is taken."""
    named = np.array([True, True, False, False])
    found = web_alpha([ON_TOPIC, OFF_TOPIC], VECTOR, {}, named, alpha=0.70, tolerance=0.0)
    assert found is not None and found.words == 2
    assert found.separation.alpha == 0.67 and found.separation.f1 == 1.0
    assert found.alphas == {"": 0.5663}
    assert found.alpha("zh") == found.alpha(None) == 0.5663


def test_a_web_naming_too_few_topic_words_keeps_its_alpha() -> None:
    """Only word 0 is named (a crawl among off-topic pages that mention the topic's name):
    projected, the on-topic page has R = 1 and the off-topic one 0, so α = 0.49 there, and
    0.49/√1.75 = 0.3704 on R(p)'s scale: below 0.3780, where the corpora's α (0.70) holds a
    page naming word 1 alone not relevant. The crawl keeps its α."""
    named = np.array([True, False, False, False])
    assert one_word_floor(VECTOR, None, 0.70) == pytest.approx(0.3780, abs=1e-4)
    assert web_alpha([ON_TOPIC, OFF_TOPIC], VECTOR, {}, named, alpha=0.70, tolerance=0.0) is None


def test_each_page_language_gets_the_web_alpha_on_its_own_scale_and_only_lower() -> None:
    """English pages can name words 0 and 3 only (the language mask): W_T there is
    (1, 0, 0, .5), so the web α on their scale is 0.67 · ‖(1, 0, 0, 0)‖/√1.25 = 0.5993,
    above their one-word floor (word 3 alone: 0.5/√1.25 = 0.447). Against a corpora's α of
    0.70 both languages move; against 0.59 English keeps 0.59, since α is only lowered."""
    named = np.array([True, True, False, False])
    english = {"en": np.array([True, False, False, True])}
    found = web_alpha([ON_TOPIC, OFF_TOPIC], VECTOR, english, named, alpha=0.70, tolerance=0.0)
    assert found is not None and found.alphas == {"": 0.5663, "en": 0.5993}
    kept = web_alpha([ON_TOPIC, OFF_TOPIC], VECTOR, english, named, alpha=0.59, tolerance=0.0)
    assert kept is not None and kept.alphas == {"": 0.5663, "en": 0.59}
