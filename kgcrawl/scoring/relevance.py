"""Page relevance R(p) (Eq. 3–4 of the FCITS_OH paper, SPEC §4.2).

>>> import numpy as np
>>> counts = np.array([[1, 0, 0, 2, 0], [0, 1, 0, 0, 0]])   # f_{i,k}, groups 1..5
>>> document_weights(counts).tolist()                      # W_D
[2.0, 1.5]
>>> round(cosine(np.array([1.0, 0.5]), document_weights(counts)), 4)
0.9839

The sums are taken in a fixed order or exactly, never by BLAS, so R(p) is the
same to the bit on every machine. A BLAS dot product sums in an order chosen for
the CPU, and a crawl's order can turn on two priorities 1 ulp apart: the golden
crawl recorded on one machine (tests/crawl/test_analysis_golden.py) took
another link at its 133rd fetch on an AMD EPYC without AVX-512.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from kgcrawl.ontology.topic import TopicModel
from kgcrawl.text.english import plural_forms
from kgcrawl.text.html import GROUPS
from kgcrawl.text.matching import TopicMatcher
from kgcrawl.text.tokenize import LANGS, lang_of

# W_k of Table 1, groups 1..5 (SPEC §4.1).
TAG_WEIGHTS = np.array([2.0, 1.5, 1.2, 1.0, 0.2])


def document_weights(counts: np.ndarray, tag_weights: np.ndarray = TAG_WEIGHTS) -> np.ndarray:
    """W_D: w_{d_i} = Σ_k (f_{i,k} / max_k f_{i,k}) · W_k, 0 for an absent word.  # Eq. 3"""
    counts = np.asarray(counts, dtype=float)
    peak = counts.max(axis=1, keepdims=True)
    scaled = np.divide(counts, peak, out=np.zeros_like(counts), where=peak > 0)
    weights = np.zeros(len(counts))
    for k, weight in enumerate(tag_weights):  # Σ_k in order, not a matrix product
        weights += scaled[:, k] * weight
    return weights


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
    norm = vector_norm(a) * vector_norm(b)
    return math.fsum((a * b).tolist()) / norm if norm > 0 else 0.0


def vector_norm(vector: np.ndarray) -> float:
    """‖vector‖ from an exact sum of squares: the same bits on every machine.

    >>> vector_norm(np.array([3.0, 4.0]))
    5.0
    """
    return math.sqrt(math.fsum((vector * vector).tolist()))


def page_relevance(
    counts: np.ndarray, topic_vector: np.ndarray, nameable: np.ndarray | None = None
) -> float:
    """R(p) = cos(W_T, W_D) ∈ [0, 1], W_T over the topic words the page can name.  # Eq. 4

    **Interpretation** (the paper's topic words and web were Chinese only): a topic
    word with no label in the page's language (`nameable`, from `nameable_words`)
    cannot occur in it, so it is left out of W_T for that page, unless the page
    names it all the same. Without this an ontology whose labels favour one
    language caps the pages of the other below α: the demo's FCA ontology (142
    concepts from a corpus of 53 Chinese and 12 English documents) has 72 concepts
    with Chinese labels only, which leaves an English page at most 0.73 × the R a
    Chinese page can reach. `kgcrawl demo` (2 000 pages, 8 workers), F1 of the
    calibrated "R(p) > α" against the truth ÷ the best threshold's, before → after:
    sparse (an English web) 0.116 / 0.949 → 0.946 / 0.949 (LP 52 → 870); default
    0.925 / 0.958 → 0.935 / 0.950; flat 0 → 0 (its pages score below α in Chinese
    too: a narrow register, not a language). `kgcrawl evaluate` with FCA ontologies of
    both domains (workers 1, 1 000 pages, fcits_oh and BFS): sparse tourism 0.119 →
    0.951 of 0.955, sparse rainstorm 0 → 0.810 of 0.941; fcits_oh's true harvest
    +1.5 / +2.5 points there, −0.4 to −0.7 on default and flat (within the spread
    of three seeds). An ontology whose every concept has a label in both languages
    (the shipped ones) is scored exactly as before.

    >>> counts = np.array([[1, 0, 0, 0, 0], [0, 0, 0, 0, 0]])
    >>> round(page_relevance(counts, np.array([1.0, 1.0])), 4)
    0.7071
    >>> page_relevance(counts, np.array([1.0, 1.0]), np.array([True, False]))
    1.0
    """
    return weights_relevance(document_weights(counts), topic_vector, nameable)


def weights_relevance(
    weights: np.ndarray, topic_vector: np.ndarray, nameable: np.ndarray | None = None
) -> float:
    """`page_relevance` of a page's W_D (Eq. 3) rather than its counts."""
    if nameable is not None:
        topic_vector = np.where(nameable | (weights > 0), topic_vector, 0.0)
    return cosine(topic_vector, weights)


def topic_labels(topic: TopicModel) -> list[tuple[str, ...]]:
    """Every label of every topic word, in W_T order (topic word i = concept i), with each
    English label's head noun also in the plural (`english.plural_forms`) unless that
    form is a label already.

    **Interpretation** (Eq. 3 counts "occurrences of topic word i"; the paper's words
    were Chinese, which has one form): an English page that writes "scenic areas" names
    the topic word "scenic area". On the English documents of our corpora scored as
    pages (tourism and tourism-en: 80, against 90 background and 16 rainstorm ones), the
    tourism ontology's R(p) separated them with AUC 0.931 and best F1 0.897 on the labels
    as written, 0.961 and 0.939 with the plurals; rainstorm's was 1.000 either way
    (benchmarks/bench_label_numbers.py).
    """
    words = [concept.all_labels() for concept in topic.ontology.concepts.values()]
    known = {label.casefold() for labels in words for label in labels}
    return [
        labels + tuple(dict.fromkeys(
            form for label in labels if lang_of(label) == "en"
            for form in plural_forms(label) if form.casefold() not in known
        ))
        for labels in words
    ]  # fmt: skip


def topic_matcher(topic: TopicModel) -> TopicMatcher:
    """The matcher for a topic model: topic word i = concept i with all its labels (W_T order)."""
    return TopicMatcher(topic_labels(topic))


def topic_nameable(topic: TopicModel) -> dict[str, np.ndarray]:
    """`nameable_words` of a topic model's topic words."""
    return nameable_words(topic_labels(topic))


def nameable_words(labels: Sequence[Sequence[str]]) -> dict[str, np.ndarray]:
    """For each page language ("zh", "en": `lang_of`), the topic words with a label in it;
    a language every word has a label in is left out: its pages are scored by all of W_T.
    So is a language no word has a label in: a page in it names the topic only in words
    borrowed from another, and W_T cut down to the words it borrowed made a Chinese page
    that quotes an English label a perfect match for an ontology built from English
    documents: `build-ontology corpus/gardening-en`, then `calibrate`: the off-topic
    pages' median R 0.98 (the Chinese ones) against the on-topic 0.69, α 0.56 at F1
    0.74; scored by all of W_T, 0.51 against 0.68, α 0.60 at F1 0.92. In a 300-page
    crawl of the default sandbox with it, a Chinese page naming one label scored 1.0,
    now 0.10.

    >>> masks = nameable_words([("旅游", "tourism"), ("民宿",), ("hiking",)])
    >>> {lang: mask.tolist() for lang, mask in masks.items()}
    {'zh': [True, True, False], 'en': [True, False, True]}
    >>> nameable_words([("旅游", "tourism"), ("民宿", "homestay")])
    {}
    >>> nameable_words([("tourism",), ("homestay",)])
    {}
    """
    languages = [{lang_of(label) for label in word} for word in labels]
    masks = {lang: np.array([lang in word for word in languages], dtype=bool) for lang in LANGS}
    return {lang: mask for lang, mask in masks.items() if mask.any() and not mask.all()}
