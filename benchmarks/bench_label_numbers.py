"""English labels in the plural too: does R(p) separate English pages better? (scoring/relevance.py)

The English documents of our corpora are scored as pages (`calibration_pages.document_page`,
the same parse, counts and R(p) a crawl uses) with each shipped ontology, twice:
matching the ontology's labels as written, and with `topic_labels` (each English
label's head noun also in the plural). On-topic: the domain's English
documents (tourism: corpus/tourism and corpus/tourism-en); off-topic: the English
background documents and the other domain's. The sandbox cannot show this: its
English vocabulary is written in the singular (sandbox/lexicon.py).

Measured 2026-11-24:

| domain | positives / negatives | labels as written: AUC, best F1 | with plurals: AUC, best F1 |
| --- | --- | --- | --- |
| tourism | 80 / 106 | 0.931, 0.897 | 0.961, 0.939 |
| rainstorm | 16 / 170 | 1.000, 1.000 | 1.000, 1.000 |

Run: python -m benchmarks.bench_label_numbers
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks.bench_profiles import auc
from kgcrawl.calibration_pages import document_page
from kgcrawl.config import load_settings
from kgcrawl.ontology.topic import topic_model_for
from kgcrawl.scoring.relevance import nameable_words, page_relevance, topic_labels
from kgcrawl.scoring.thresholds import best_separation
from kgcrawl.text.analysis import analyse_page
from kgcrawl.text.corpus import read_corpus
from kgcrawl.text.matching import TopicMatcher

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
ON_TOPIC = {"tourism": ("tourism", "tourism-en"), "rainstorm": ("rainstorm",)}


def english_texts(*folders: str) -> list[str]:
    return [d.text for f in folders for d in read_corpus(CORPUS / f).documents if d.lang != "zh"]


def scores(texts: list[str], labels: list[tuple[str, ...]], vector: np.ndarray) -> list[float]:
    matcher, nameable = TopicMatcher(labels), nameable_words(labels)
    out = []
    for text in texts:
        page = analyse_page(document_page(text), "http://corpus/", matcher)
        out.append(page_relevance(page.counts, vector, nameable.get(page.lang)))
    return out


def main() -> None:
    background = english_texts("background")
    print("| domain | positives / negatives | labels as written: AUC, best F1 "
          "| with plurals: AUC, best F1 |\n| --- | --- | --- | --- |")  # fmt: skip
    for domain, folders in ON_TOPIC.items():
        topic = topic_model_for(load_settings(domain))
        positives = english_texts(*folders)
        others = [f for d, fs in ON_TOPIC.items() if d != domain for f in fs]
        negatives = background + english_texts(*others)
        truth = np.array([True] * len(positives) + [False] * len(negatives))
        written = [c.all_labels() for c in topic.ontology.concepts.values()]
        cells = []
        for labels in (written, topic_labels(topic)):
            pos = scores(positives, labels, topic.vector)
            neg = scores(negatives, labels, topic.vector)
            f1 = best_separation(pos, neg).f1
            cells.append(f"{auc(np.array(pos + neg), truth):.3f}, {f1:.3f}")
        print(f"| {domain} | {len(positives)} / {len(negatives)} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
