"""The pages calibration scores (SPEC §4.6): composed from the on-topic and off-topic
corpora at a known topic share (calibrate.py says why pages, not documents).

The background corpus is off topic for tourism and rainstorm, but a user's own
domain may be one of its 18 topics (finance, medicine, law, music, …), and its
paragraphs would then be composed into pages as off-topic text. So a folder of
off-topic documents whose median R, each document scored whole as a page, reaches
the on-topic documents' first quartile is left out as near the domain, and
calibration says so. **Interpretation**, with the figures that chose it
(`python benchmarks/near_folders.py [--own FOLDER]`):
- tourism: the highest folder median is 0.06 (cars) against an on-topic first
  quartile of 0.29; rainstorm: 0.00 against 0.27. Nothing is left out.
- An ontology built (`build-ontology`) from each background folder in turn,
  calibrated on that folder: in 18 of 18 the folder itself is left out and no other;
  the nearest other is law for real estate, 0.365 against 0.378. With the 10th
  percentile instead, 4 of 18 also lost a related folder (parenting for medicine,
  law for real estate) and sport, whose lowest document scored 0, lost two.
- Left in, finance paragraphs were off-topic text: the off-topic pages' median R
  was 0.80 against the on-topic ones' 0.91, and α fell from 0.79 to 0.43.
- Other documents of the domain's kind (every 7th of the tourism corpus moved into
  the background as a folder of its own) are left out: median 0.34 against 0.29;
  rainstorm's 0.47 against 0.27. Left in, they raise rainstorm's α from 0.39 to 0.45
  (tourism's stays 0.40).
"""

from __future__ import annotations

import html
import random
import statistics
from collections.abc import Callable, Sequence

from kgcrawl.config import Calibration as CalibrationSettings
from kgcrawl.text.corpus import Document
from kgcrawl.text.matching import token_length


def near_folders(
    positives: Sequence[Document], negatives: Sequence[Document], score: Callable[[str], float]
) -> dict[str, float]:
    """The folders of off-topic documents as on topic as the on-topic ones, with their
    median `score`: those whose median reaches the on-topic documents' first quartile
    (module docstring). Documents outside a folder are never left out.

    >>> def doc(id, text): return Document(id, text, "other")
    >>> on = [doc(f"{i}.txt", "hotel " * 5) for i in range(10)]
    >>> off = [doc("travel/a.txt", "hotel " * 6), doc("sport/b.txt", "goal"),
    ...        doc("c.txt", "hotel " * 9)]
    >>> near_folders(on, off, lambda text: text.count("hotel") / 10)
    {'travel': 0.6}
    """
    floor, medians = folder_medians(positives, negatives, score)
    return {folder: round(m, 3) for folder, m in sorted(medians.items()) if m > 0 and m >= floor}


def folder_medians(
    positives: Sequence[Document], negatives: Sequence[Document], score: Callable[[str], float]
) -> tuple[float, dict[str, float]]:
    """The on-topic documents' first quartile of `score`, and each off-topic folder's median."""
    on_topic = sorted(map(score, (doc.text for doc in positives)))
    floor = on_topic[int(0.25 * (len(on_topic) - 1))] if on_topic else 0.0
    folders: dict[str, list[float]] = {}
    for doc in negatives:
        if folder := folder_of(doc):
            folders.setdefault(folder, []).append(score(doc.text))
    return floor, {folder: statistics.median(scores) for folder, scores in folders.items()}


def folder_of(document: Document) -> str:
    """The top folder of a corpus document ("" for a file at the corpus's top)."""
    folder, slash, _ = document.id.partition("/")
    return folder if slash else ""


def compose_pages(
    positives: Sequence[Document], negatives: Sequence[Document], cal: CalibrationSettings
) -> list[tuple[bytes, bool]]:
    """`cal.pages` pages of known topic share from the two corpora, and whether each is relevant.

    Deterministic: the same corpora and settings give the same pages.
    """
    rng = random.Random(0)
    sources = [_paragraphs(positives), _paragraphs(negatives)]
    pages = []
    for _ in range(cal.pages):
        share = rng.random()
        title, _ = rng.choice(sources[0 if share >= 0.5 else 1])
        body, tokens = [], [0, 0]  # on-topic, off-topic
        while sum(tokens) < cal.page_tokens:  # the side furthest below its share goes next
            side = 0 if (tokens[0] < share * sum(tokens) if any(tokens) else share >= 0.5) else 1
            _, paragraphs = rng.choice(sources[side])
            paragraph = rng.choice(paragraphs)
            body.append(paragraph)
            tokens[side] += max(token_length(paragraph), 1)
        relevant = tokens[0] / sum(tokens) >= cal.share
        pages.append((document_page("\n".join([title, *body])), relevant))
    return pages


def _paragraphs(documents: Sequence[Document]) -> list[tuple[str, list[str]]]:
    """(title, body paragraphs) of each document; a one-line document is its own paragraph."""
    out = []
    for doc in documents:
        lines = [line.strip() for line in doc.text.splitlines() if line.strip()]
        if lines:
            out.append((lines[0].lstrip("#").strip(), lines[1:] or lines))
    return out


def document_page(text: str) -> bytes:
    """A corpus text as the HTML page it would be: first line as title and heading.

    >>> document_page("# Flash floods\\n\\nRain fell.").decode()[12:]
    '<title>Flash floods</title></head><body><h1>Flash floods</h1><p>Rain fell.</p></body></html>'
    """
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    title = html.escape(lines[0].lstrip("#").strip()) if lines else ""
    body = "".join(f"<p>{html.escape(line)}</p>" for line in lines[1:])
    page = f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"
    return page.encode("utf-8")
