"""Page relevance R(p) (Eq. 3–4 of the FCITS_OH paper, SPEC §4.2).

>>> import numpy as np
>>> counts = np.array([[1, 0, 0, 2, 0], [0, 1, 0, 0, 0]])   # f_{i,k}, groups 1..5
>>> document_weights(counts).tolist()                      # W_D
[2.0, 1.5]
>>> round(cosine(np.array([1.0, 0.5]), document_weights(counts)), 4)
0.9839
"""

from __future__ import annotations

import numpy as np

from kgcrawl.ontology.topic import TopicModel
from kgcrawl.text.html import GROUPS
from kgcrawl.text.matching import TopicMatcher

# W_k of Table 1, groups 1..5 (SPEC §4.1).
TAG_WEIGHTS = np.array([2.0, 1.5, 1.2, 1.0, 0.2])


def document_weights(counts: np.ndarray, tag_weights: np.ndarray = TAG_WEIGHTS) -> np.ndarray:
    """W_D: w_{d_i} = Σ_k (f_{i,k} / max_k f_{i,k}) · W_k, 0 for an absent word.  # Eq. 3"""
    counts = np.asarray(counts, dtype=float)
    peak = counts.max(axis=1, keepdims=True)
    scaled = np.divide(counts, peak, out=np.zeros_like(counts), where=peak > 0)
    return scaled @ tag_weights


def dense_counts(counts: dict[int, list[int]], words: int) -> np.ndarray:
    """f_{i,k} as a words × groups matrix from a page's counts of the words it names.

    >>> dense_counts({1: [0, 0, 0, 2, 1]}, 2).tolist()
    [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0, 1.0]]
    """
    matrix = np.zeros((words, GROUPS))
    for i, per_group in counts.items():
        matrix[i] = per_group
    return matrix


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """a·b / (‖a‖ ‖b‖), 0 when either vector is zero.  # Eq. 4 and Eq. 6"""
    norm = float(np.linalg.norm(a)) * float(np.linalg.norm(b))
    return float(a @ b) / norm if norm > 0 else 0.0


def page_relevance(counts: np.ndarray, topic_vector: np.ndarray) -> float:
    """R(p) = cos(W_T, W_D) ∈ [0, 1].  # Eq. 4"""
    return cosine(topic_vector, document_weights(counts))


def topic_matcher(topic: TopicModel) -> TopicMatcher:
    """The matcher for a topic model: topic word i = concept i with all its labels (W_T order)."""
    return TopicMatcher([concept.all_labels() for concept in topic.ontology.concepts.values()])
