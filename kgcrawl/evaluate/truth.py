"""`--truth FILE`: a labelled world's ground truth, so any world can be scored (SPEC §10).

The file is JSON Lines, one page a line:

    {"url": "http://example.org/a", "relevant": true}

A line whose "relevant" is null is a page not labelled yet (`kgcrawl runs
sample` writes such a file to fill in): it is skipped, and counted.

Its URLs and the crawled ones are put in the same canonical form
(text.urls.canonical_url), so two spellings of one page meet. True harvest
counts the crawled pages the file calls relevant; recall is the share of its
relevant pages the crawl downloaded. A crawled page the file does not list
counts as not relevant, and how many there were is reported. A bad file is
one error naming the file and line, raised before any crawl starts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from kgcrawl.evaluate.judge import Judge
from kgcrawl.evaluate.metrics import EvaluationError
from kgcrawl.text.urls import canonical_url


@dataclass(frozen=True, kw_only=True)
class ManifestJudge(Judge):
    """The truth a file gives: canonical URL → relevant."""

    path: Path
    labels: Mapping[str, bool]
    unlabelled: int = 0  # lines whose "relevant" is still null

    def page(self, url: str) -> str:
        return canonical_url(url) or url

    def label(self, page: str) -> bool | None:
        return self.labels.get(page)

    @property
    def about(self) -> str:
        relevant = sum(self.labels.values())
        waiting = f", {self.unlabelled:,} not labelled yet" if self.unlabelled else ""
        return (
            f"{self.path}: {len(self.labels):,} pages, {relevant:,} relevant (the recall "
            f"denominator){waiting}; a crawled page it does not list counts as not relevant"
        )


def read_truth(path: Path) -> ManifestJudge:
    """The judge of a truth file; EvaluationError naming the file and line when it is bad."""
    try:
        text = path.read_bytes().decode("utf-8-sig")  # an editor's BOM is no label
    except FileNotFoundError:
        raise EvaluationError(f"{path}: no such truth file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise EvaluationError(f"{path}: cannot read the truth file ({exc})") from None
    labels: dict[str, bool] = {}
    first_line: dict[str, int] = {}
    unlabelled = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, relevant = _entry(line, f"{path} line {number}")
        if relevant is None:
            unlabelled += 1
            continue
        if key in labels and labels[key] != relevant:
            raise EvaluationError(
                f"{path} line {number}: {key} is labelled {str(labels[key]).lower()} "
                f"on line {first_line[key]}"
            )
        labels[key] = relevant
        first_line.setdefault(key, number)
    if not labels:
        if unlabelled:
            raise EvaluationError(f'{path}: no page labelled yet (set "relevant" to true or false)')
        raise EvaluationError(f"{path}: no page in the truth file")
    recall_keys = frozenset(key for key, relevant in labels.items() if relevant)
    return ManifestJudge(path=path, labels=labels, recall_keys=recall_keys, unlabelled=unlabelled)


def _entry(line: str, where: str) -> tuple[str, bool | None]:
    """(canonical URL, relevant) of one line; None: a page not labelled yet."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EvaluationError(f"{where}: not JSON ({exc.msg})") from None
    if not isinstance(record, dict):
        raise EvaluationError(f'{where}: expected {{"url": …, "relevant": true|false}}')
    url, relevant = record.get("url"), record.get("relevant")
    if not isinstance(url, str):
        raise EvaluationError(f'{where}: no "url" (a string)')
    if "relevant" not in record or not isinstance(relevant, bool | None):
        raise EvaluationError(f'{where}: no "relevant" (true or false)')
    key = canonical_url(url)
    if key is None:
        raise EvaluationError(f"{where}: {url!r} is not an http(s) URL")
    return key, relevant
