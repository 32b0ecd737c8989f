"""`kgcrawl runs export` and `runs sample`: a run's pages as CSV, JSON Lines or Markdown
files, or a sample of them as a truth file to label.

CSV is every outcome in crawl order (failures too) with R(p) and, on the
sandbox, the truth — for a spreadsheet or a notebook. JSON Lines is one
downloaded page per line with its main text and the concepts it mentions — for
a program. Markdown is one file per page with a YAML front-matter block — for a
static site or a notes folder. Front-matter values are written as JSON scalars,
which YAML reads as they are (quoted strings, numbers, true/false).
"""

from __future__ import annotations

import csv
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from kgcrawl.errors import KgcrawlError
from kgcrawl.runs import PageRecord, Run, open_run

FORMATS = ("csv", "jsonl", "markdown")
ALIASES = {"md": "markdown", "json": "jsonl", "ndjson": "jsonl"}
SNIPPET = 400  # characters of main text a label sheet shows of each page
CSV_COLUMNS = ("order", "url", "final_url", "host", "status", "reason", "relevance",
               "relevant", "truth", "title")  # fmt: skip


class ExportError(KgcrawlError):
    """The export cannot be written as asked."""


@dataclass
class Exported:
    """What an export wrote: files (none when it went to standard output) and pages."""

    files: list[Path] = field(default_factory=list)
    pages: int = 0  # records written: pages, or in CSV every outcome (failed fetches too)
    note: str | None = None  # a line for the user: why the truth column is empty, what next
    unit: str = "page"  # what `pages` counts


def export_run(
    run_id: str,
    fmt: str | None = None,
    *,
    out: Path | None = None,
    relevant_only: bool = False,
    stdout: IO[str] | None = None,
    force: bool = False,
) -> Exported:
    """Write a run in `fmt` to `out` — a file when its name ends in a format's suffix
    (`pages.jsonl`), else a folder — or, without `out`, (CSV, JSON Lines) to `stdout`.

    Without `fmt` the file's suffix gives the format, and CSV otherwise. What the export
    would write over — a file, or Markdown files in the folder — is refused unless
    `force`: a `labels.jsonl` of `runs sample` was replaced without a word.
    """
    named = _file_format(out)
    fmt = _format(fmt or named or "csv")
    if named and named != fmt:
        raise ExportError(f"--out {out}: a .{named} file, but --format {fmt}")
    if fmt == "markdown" and (out is None or named):
        raise ExportError("--format markdown writes one file per page: give --out DIR")
    if out is not None and not named and not out.exists() and out.suffix[1:].isalpha():
        raise ExportError(f"--out {out}: not a .csv or .jsonl file; a folder is named "
                          "without a suffix")  # fmt: skip
    with open_run(run_id) as run:
        if fmt == "markdown":
            pages = sum(1 for _ in out.glob("*.md")) if out.is_dir() else 0
            _not_over(out, force, f"holds {pages} Markdown files" if pages else None)
            return write_markdown(run, out, relevant_only)
        write = write_csv if fmt == "csv" else write_jsonl
        note = _truth_lookup(run.meta)[1] if fmt == "csv" else None
        unit = "outcome" if fmt == "csv" else "page"
        if out is None:
            return Exported(pages=write(run, stdout, relevant_only), note=note, unit=unit)
        path = out if named else out / f"{run.run_id}.{fmt}"
        _not_over(path, force, "exists" if path.exists() else None)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8", newline="") as file:
            return Exported([path], write(run, file, relevant_only), note, unit)


def write_label_sheet(run_id: str, out: Path, pages: int | None = None, seed: int = 0) -> Exported:
    """`pages` downloaded pages of a run drawn at random (crawl order kept), written to
    `out` as a truth file to fill in: {"url", "relevant": null, "title", "text"} a line.

    A person sets each "relevant" to true or false; `calibrate --truth FILE --run RUN`
    and `evaluate --truth` read the file and skip the lines still null. The draw is
    uniform because α from labels needs the share of relevant pages the crawl met
    (kgcrawl/labelled.py), and from the pages of the run's last ontology version, the
    only ones calibration can score when it is today's. An existing file is never
    overwritten: it may hold labels.
    """
    from kgcrawl.crawl.versions import recorded
    from kgcrawl.labelled import STEADY_PAGES

    if out.exists():
        raise ExportError(f"--out {out}: exists (it may hold your labels); give a new file")
    with open_run(run_id) as run:
        since = recorded(run.meta)[-1].first
        rows = [(page.url, page.title, page.text) for page in run.pages() if page.seq >= since]
        domain = run.meta["domain"]
    if not rows:
        raise ExportError(f"run {run_id}: no page downloaded yet, nothing to label")
    picked = sorted(
        random.Random(seed).sample(range(len(rows)), min(pages or STEADY_PAGES, len(rows)))
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as file:
        for url, title, text in (rows[i] for i in picked):
            line = {
                "url": url,
                "relevant": None,
                "title": title,
                "text": " ".join(text.split())[:SNIPPET],
            }
            file.write(json.dumps(line, ensure_ascii=False) + "\n")
    then = f"kgcrawl calibrate {domain} --truth {out} --run {run_id}"
    return Exported([out], len(picked), f'set each "relevant" to true or false, then: {then}')


def _not_over(out: Path, force: bool, there: str | None) -> None:
    """A one-line error when the export would write over what is `there` (unless `force`)."""
    if there and not force:
        raise ExportError(f"--out {out}: {there}; --force writes over it")


def _format(name: str) -> str:
    """The format a `--format` value names (aliases included), or a one-line error."""
    fmt = ALIASES.get(name.lower(), name.lower())
    if fmt not in FORMATS:
        from kgcrawl.suggest import did_you_mean

        raise ExportError(f"--format {name}: not a format{did_you_mean(fmt, FORMATS)} "
                          f"(one of {', '.join(FORMATS)})")  # fmt: skip
    return fmt


def _file_format(out: Path | None) -> str | None:
    """The format an `--out` path's suffix names (`.csv`, `.jsonl`, `.json`, `.ndjson`),
    None for a folder: one that exists, or a name without such a suffix.

    >>> _file_format(Path("pages.JSONL")), _file_format(Path("trips-pages"))
    ('jsonl', None)
    """
    if out is None or out.is_dir():
        return None
    fmt = ALIASES.get(out.suffix[1:].lower(), out.suffix[1:].lower())
    return fmt if fmt in ("csv", "jsonl") else None


def write_csv(run: Run, out: IO[str], relevant_only: bool = False) -> int:
    """Outcomes in crawl order; `truth` is the sandbox's label when the run crawled it."""
    truth, _ = _truth_lookup(run.meta)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    rows = 0
    for o in run.outcomes():
        if relevant_only and not o.relevant:
            continue
        label = truth(o.final_url) if truth and o.downloaded else None
        writer.writerow([o.seq, o.url, o.final_url, o.host, o.status, o.reason or "",
                         "" if o.relevance is None else f"{o.relevance:.6f}", int(o.relevant),
                         "" if label is None else int(label), o.title])  # fmt: skip
        rows += 1
    return rows


def page_json(page: PageRecord) -> dict:
    """A page as one JSON Lines record: concepts most mentioned first."""
    concepts = sorted(page.concepts.items(), key=lambda item: (-item[1], item[0]))
    return {
        "order": page.seq,
        "url": page.url,
        "host": page.host,
        "title": page.title,
        "fetched_at": page.fetched_iso,
        "relevance": round(page.relevance, 6),
        "relevant": page.relevant,
        "concepts": [{"label": label, "count": count} for label, count in concepts],
        "text": page.text,
    }


def write_jsonl(run: Run, out: IO[str], relevant_only: bool = False) -> int:
    pages = 0
    for page in run.pages(relevant_only):
        out.write(json.dumps(page_json(page), ensure_ascii=False) + "\n")
        pages += 1
    return pages


def write_markdown(run: Run, folder: Path, relevant_only: bool = False) -> Exported:
    """One `NNNNN-host-title.md` per page in `folder`: front matter, title, concepts, text."""
    folder.mkdir(parents=True, exist_ok=True)
    done = Exported()
    for page in run.pages(relevant_only):
        parts = (f"{page.seq:05d}", _slug(page.host), _slug(page.title)[:40])
        path = folder / ("-".join(part for part in parts if part) + ".md")
        path.write_text(page_markdown(page), encoding="utf-8")
        done.files.append(path)
        done.pages += 1
    return done


def page_markdown(page: PageRecord) -> str:
    front = {
        "url": page.url,
        "title": page.title,
        "relevance": round(page.relevance, 6),
        "relevant": page.relevant,
        "fetched_at": page.fetched_iso,
    }
    lines = ["---", *(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in front.items())]
    lines += ["---", "", f"# {page.title or page.url}", ""]
    if page.concepts:
        ranked = sorted(page.concepts.items(), key=lambda item: (-item[1], item[0]))
        lines += ["Concepts: " + ", ".join(f"{label} ({n})" for label, n in ranked), ""]
    return "\n".join(lines) + "\n" + page.text.strip() + "\n"


def _slug(text: str) -> str:
    """Letters (any script) and digits joined by '-': safe in a file name everywhere."""
    return re.sub(r"[\W_]+", "-", text, flags=re.UNICODE).strip("-").lower()


def _truth_lookup(meta: dict) -> tuple[Callable[[str], bool] | None, str | None]:
    """The sandbox's label of a URL for the run's domain, or (None, why not) off its domains."""
    sandbox = meta.get("sandbox")
    if not sandbox:
        return None, None
    from kgcrawl.sandbox.truth import no_truth
    from kgcrawl.sandbox.world import World

    domain = meta["domain"]
    reason = no_truth(domain)
    if reason is not None:
        return None, f"{reason}: the truth column is empty"
    world = World(sandbox["seed"], sandbox["size"], sandbox.get("profile", "default"))

    def lookup(url: str) -> bool:
        return world.truth(url).relevant(domain)

    return lookup, None
