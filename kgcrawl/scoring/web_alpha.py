"""α on the topic words the web names: what a crawl goes on with where it is lower.

Calibration (SPEC §4.6, kgcrawl/calibrate.py) scores pages composed of the
domain's corpus, which names the ontology's words as that corpus does. An
ontology built from the corpus (`kgcrawl build-ontology`) holds much of the
corpus's vocabulary, and a web that speaks of the topic in another register
names little of it: those words lower every page's R(p) (they stay in ‖W_T‖)
while they raise the composed pages' R, so the calibrated α can sit above every
page of the web. Recalibrating on the words the web does name, with both W_T
and the composed pages' W_D projected onto them, gives an α for that web; for
a page that names only those words, R over them is R(p) × ‖W_T‖ / ‖W_T on
them‖ (Eq. 4: the dot product is the same), so the α is brought back to R(p)'s
scale and "R(p) > α" stays the rule (`full_scale`).

>>> import numpy as np
>>> vector = np.array([1.0, 0.5, 0.5])
>>> named = np.array([True, True, False])                  # the web never names word 2
>>> page = ComposedPage({0: 2.0, 2: 1.0}, "zh", True)
>>> round(projected_relevance(page, vector, {}, named), 4)  # W_D on words 0 and 1: (2, 0)
0.8944
>>> round(full_scale(0.5, vector, None, named), 4)          # 0.5 · ‖(1, .5)‖ / ‖(1, .5, .5)‖
0.4564
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from kgcrawl.scoring.relevance import document_weights, vector_norm, weights_relevance
from kgcrawl.scoring.thresholds import (
    Separation,
    near_best,
    precise_separation,
    robust_separation,
)

ANY_LANGUAGE = ""  # the α of pages in a language every topic word can be named in


@dataclass(frozen=True)
class ComposedPage:
    """A calibration page as R(p) sees it: W_D (Eq. 3) of the topic words it names."""

    weights: dict[int, float]
    lang: str
    relevant: bool

    @classmethod
    def of(cls, counts: np.ndarray, lang: str, relevant: bool) -> ComposedPage:
        weights = document_weights(counts)
        return cls({int(i): float(weights[i]) for i in np.flatnonzero(weights)}, lang, relevant)

    @classmethod
    def from_json(cls, data: dict) -> ComposedPage:
        """From `dataclasses.asdict` through JSON, whose keys are strings."""
        weights = {int(i): float(w) for i, w in data["weights"].items()}
        return cls(weights, data["lang"], bool(data["relevant"]))


@dataclass(frozen=True)
class WebAlpha:
    """The α a crawl found for its web, per page language: recalibrated on the `words` topic
    words its pages named (`separation` on the composed pages projected onto them, on
    R(p)'s scale), and raised to the `floors` its `navigation` pages set
    (scoring/navigation_floor.py); `words` 0 and no separation when only raised."""

    words: int
    separation: Separation | None
    alphas: dict[str, float]
    after: int = 0  # the pages the crawl had downloaded when it recalibrated
    passed: int = 0  # how many of them had passed the corpora's α
    rejudged: int = 0  # how many of them this α judges otherwise (crawl/core.py `_judge_pending`)
    floors: dict[str, float] = field(default_factory=dict)  # languages whose α was raised
    navigation: int = 0  # pages whose main text names no topic word, which set the floors
    floor_after: int = 0  # the pages the crawl had downloaded when it raised α to the floors

    def alpha(self, lang: str | None) -> float:
        return self.alphas.get(lang or ANY_LANGUAGE, self.alphas[ANY_LANGUAGE])

    def record(self) -> dict:
        """What a run keeps of it (crawl/engine.py), and what `recalibrated` says."""
        return {"after": self.after, "passed": self.passed, "words": self.words,
                "alphas": self.alphas, "rejudged": self.rejudged, "floors": self.floors,
                "navigation": self.navigation, "floor_after": self.floor_after}  # fmt: skip


def recalibrated(record: dict) -> str:
    """`WebAlpha.record()` for a person: the summary, `runs show` and the demo say it so.

    >>> recalibrated({"after": 200, "passed": 1, "words": 48, "alphas": {"": 0.28, "en": 0.25},
    ...               "rejudged": 193})
    'judged 1 of the first 200 pages relevant: recalibrated on the 48 topic words they name, \
α = en 0.250, other 0.280, and judged them again by it (193 changed)'
    >>> recalibrated({"after": 200, "passed": 150, "words": 0, "alphas": {"": 0.39, "zh": 0.44},
    ...               "rejudged": 20, "floors": {"zh": 0.44}, "navigation": 29,
    ...               "floor_after": 227})
    'judged 150 of the first 200 pages relevant; 29 of the first 227 name no topic word in \
their main text, yet reach R(p) zh 0.440 through navigation alone: α raised to it, α = zh \
0.440, other 0.390, and judged them again by it (20 changed)'

    A run recorded before pages were judged again (no "rejudged") used it from the next page:

    >>> recalibrated({"after": 200, "passed": 0, "words": 48, "alphas": {"": 0.28}})[-26:]
    'α = 0.280 from page 201 on'
    """
    said = f"judged {record['passed']} of the first {record['after']} pages relevant"
    if record["words"]:
        said += f": recalibrated on the {record['words']} topic words they name"
    if floors := record.get("floors"):
        said += (
            f"; {record['navigation']} of the first {record.get('floor_after') or record['after']} "
            f"name no topic word in their main text, yet reach R(p) {per_language(floors)} "
            "through navigation alone: α raised to it"
        )
    said += f", α = {per_language(record['alphas'])}"
    if "rejudged" in record:
        return said + f", and judged them again by it ({record['rejudged']} changed)"
    return said + f" from page {record['after'] + 1} on"


def per_language(alphas: dict[str, float]) -> str:
    """{"": 0.3} → "0.300"; {"": 0.3, "en": 0.2} → "en 0.200, other 0.300"."""
    if ANY_LANGUAGE in alphas and len(set(alphas.values())) == 1:
        return f"{alphas[ANY_LANGUAGE]:.3f}"
    ordered = sorted(alphas.items(), key=lambda item: item[0] or "~")
    return ", ".join(f"{lang or 'other'} {alpha:.3f}" for lang, alpha in ordered)


def projected_relevance(
    page: ComposedPage,
    vector: np.ndarray,
    nameable: dict[str, np.ndarray],
    named: np.ndarray,
) -> float:
    """R of a composed page over the topic words in `named` only: W_T and W_D both
    projected onto them, with the page's language rule (`relevance.nameable_words`)."""
    weights = np.zeros(len(vector))
    for i, w in page.weights.items():
        weights[i] = w
    return weights_relevance(_over(weights, named), _over(vector, named), nameable.get(page.lang))


def full_scale(alpha: float, vector: np.ndarray, mask: np.ndarray | None,
               named: np.ndarray) -> float:  # fmt: skip
    """α over the `named` words as a threshold on R(p) over all the words `mask` leaves.

    A page naming only `named` words has R over them = R(p) · ‖W_T‖ / ‖W_T on
    `named`‖ (Eq. 4), so "R over them > α" is "R(p) > α · ‖W_T on named‖ / ‖W_T‖".
    """
    full = _over(vector, mask)
    norm = vector_norm(full)
    return alpha * vector_norm(_over(full, named)) / norm if norm else alpha


def web_alpha(
    pages: Sequence[ComposedPage],
    vector: np.ndarray,
    nameable: dict[str, np.ndarray],
    named: np.ndarray,
    alpha: float,
    tolerance: float,
    precision: float = 0.0,
) -> WebAlpha | None:
    """α chosen as calibration chooses it (`precision`, else `tolerance`), on the composed
    pages projected onto the `named` words, on R(p)'s scale per page language.

    It only ever lowers `alpha`, the corpora's α, and a language keeps `alpha` where the
    new α would judge relevant a page naming a single topic word that `alpha` judged not
    relevant (`one_word_floor`): a web naming too few topic words to tell the corpora
    apart (a crawl among off-topic pages) keeps its α. None when no language's α moved,
    or no α reaches the precision.
    """
    scores = _scores(pages, vector, nameable, named)
    if precision:
        chosen = precise_separation(*scores, precision)
        if chosen is None:
            return None
    else:
        chosen = robust_separation(*scores, tolerance)
    alphas = {}
    for lang, mask in {ANY_LANGUAGE: None, **nameable}.items():
        moved = round(full_scale(chosen.alpha, vector, mask, named), 4)
        alphas[lang] = moved if one_word_floor(vector, mask, alpha) < moved < alpha else alpha
    if all(value == alpha for value in alphas.values()):
        return None
    return WebAlpha(int(named.sum()), chosen, alphas)


def corpora_floor(
    pages: Sequence[ComposedPage],
    vector: np.ndarray,
    nameable: dict[str, np.ndarray],
    tolerance: float,
) -> float:
    """The lowest α whose F1 on the composed pages, scored over every topic word as
    calibration scored them, is within `tolerance` of the best: below it the corpora
    themselves say α is too low, within it they cannot tell it from their own choice.

    >>> vector = np.array([1.0, 1.0])
    >>> pages = [ComposedPage({0: 1.0, 1: 1.0}, "zh", True), ComposedPage({0: 1.0}, "zh", False)]
    >>> corpora_floor(pages, vector, {}, 0.04)  # R 1.0 and 0.7071: every α in [0.71, 0.99]
    0.71
    """
    every = np.ones(len(vector), dtype=bool)
    return near_best(*_scores(pages, vector, nameable, every), tolerance)[0].alpha


def _scores(
    pages: Sequence[ComposedPage],
    vector: np.ndarray,
    nameable: dict[str, np.ndarray],
    named: np.ndarray,
) -> tuple[list[float], list[float]]:
    """R over the `named` words of the relevant composed pages, and of the others."""
    scores: tuple[list[float], list[float]] = ([], [])
    for page in pages:
        scores[0 if page.relevant else 1].append(projected_relevance(page, vector, nameable, named))
    return scores


def one_word_floor(vector: np.ndarray, mask: np.ndarray | None, alpha: float) -> float:
    """The highest R(p) of a page naming one topic word that α does not judge relevant.

    A page naming word i alone has R(p) = w_i / ‖W_T‖ whatever its counts (Eq. 4 with
    W_D along one word), over the words `mask` leaves.

    >>> one_word_floor(np.array([1.0, 0.5, 0.5]), None, 0.5)  # 0.8165 passes, 0.4082 not
    0.4082
    """
    full = _over(vector, mask)
    norm = vector_norm(full)
    held = [w / norm for w in full.tolist() if norm and w / norm <= alpha]
    return round(max(held, default=0.0), 4)


def _over(vector: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """`vector` on the words `mask` leaves (all of them for None), 0 elsewhere."""
    return vector if mask is None else np.where(mask, vector, 0.0)
