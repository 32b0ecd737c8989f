"""Main-text extractors side by side: CPU per page and quality against trafilatura (issue 19).

python benchmarks/bench_main_text.py [--pages 500] [--profiles default sparse flat]

Pages: for each sandbox profile and domain, the first `--pages` HTML pages a BFS
from the domain's seeds meets (rendered by `World.respond`, decoded as the
fetcher does), and the HTML documents of the shipped corpora. Each page goes
through every extractor in turn (interleaved page by page, the order turning from
page to page, process CPU time).
Extractors:
  trafilatura   `trafilatura.extract(fast=True, tables, no comments)`, the old path
  resiliparse   `extract_plain_text(main_content=True)` on resiliparse's Lexbor tree
  shipped       `crawl.main_text = "resiliparse"`: resiliparse, trafilatura where it finds none
Quality, against trafilatura's text (the reference the issue names):
  recall      share of trafilatura's tokens (Chinese characters, Latin words) the
              extractor's text holds, whatever the layout (lists, tables)
  precision   share of the extractor's tokens trafilatura's text holds
  words       concept mentions (the domain's topic words): mean Jaccard of the sets
  names       pages where both agree on whether the text names a topic word
and against the sandbox's truth: of the truly relevant pages, the share whose text
names a topic word (the navigation floor counts a page whose main text names none
as navigation, crawl/core.py). Also printed: how often resiliparse found nothing.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import Counter, deque
from collections.abc import Callable
from pathlib import Path

from kgcrawl.config import load_settings
from kgcrawl.crawl.decode import decode_html
from kgcrawl.ontology.topic import topic_model_for
from kgcrawl.sandbox.world import World
from kgcrawl.scoring.relevance import topic_matcher
from kgcrawl.text.main_text import EXTRACTORS as SHIPPED
from kgcrawl.text.main_text import extract_resiliparse, extract_trafilatura
from kgcrawl.text.matching import TopicMatcher

CORPORA = Path(__file__).resolve().parent.parent / "corpus"
_TOKEN = re.compile(r"[\u3400-\u9fff]|[^\W_]+")
EXTRACTORS: dict[str, Callable[[str], str]] = {
    "trafilatura": extract_trafilatura,
    "resiliparse": extract_resiliparse,
    "shipped": SHIPPED["resiliparse"],
}


def sandbox_pages(world: World, domain: str, n: int) -> list[tuple[str, str, bool]]:
    """(url, html, truly relevant) of the first `n` HTML pages of a BFS from the seeds."""
    out, seen, queue = [], set(), deque(world.seeds(domain))
    while queue and len(out) < n:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        reply = world.get(url)
        kind = dict(reply.headers).get("Content-Type", "")
        if reply.status == 200 and kind.startswith("text/html"):
            text, _ = decode_html(reply.body, kind)
            out.append((url, text, world.truth(url).relevant(domain)))
            queue.extend(world.links(url))
    return out


def corpus_pages(domain: str) -> list[tuple[str, str, bool]]:
    folder = CORPORA / domain
    return [(str(p), p.read_text(encoding="utf-8"), True) for p in sorted(folder.glob("*.htm*"))]


def _tokens(text: str) -> Counter[str]:
    """Chinese characters and Latin words: what two layouts of the same text share."""
    return Counter(_TOKEN.findall(text.lower()))


def _share(part: Counter[str], whole: Counter[str]) -> float:
    """The share of `whole`'s tokens that `part` holds too (1 when `whole` is empty)."""
    total = whole.total()
    return (part & whole).total() / total if total else 1.0


def compare(pages: list[tuple[str, str, bool]], matcher: TopicMatcher) -> dict[str, dict]:
    """Per extractor: CPU ms/page and the quality figures of the docstring."""
    cpu = {name: 0.0 for name in EXTRACTORS}
    texts: dict[str, list[str]] = {name: [] for name in EXTRACTORS}
    names = list(EXTRACTORS)
    for n, (_, html, _) in enumerate(pages):
        # the order turns page by page: a later extractor finds the UTF-8 form of the
        # string that an earlier one had made
        for name in names[n % len(names) :] + names[: n % len(names)]:
            extract = EXTRACTORS[name]
            start = time.process_time()
            texts[name].append(extract(html))
            cpu[name] += time.process_time() - start
    reference = texts["trafilatura"]
    ref_words = [set(matcher.count_sparse(t)) for t in reference]
    relevant = [i for i, page in enumerate(pages) if page[2]]
    figures = {}
    for name, got in texts.items():
        words = [set(matcher.count_sparse(t)) for t in got]
        pairs = list(zip(words, ref_words, strict=True))
        jaccard = [len(a & b) / len(a | b) if a | b else 1.0 for a, b in pairs]
        figures[name] = {
            "ms": cpu[name] / len(pages) * 1000,
            "recall": statistics.mean(map(_share, map(_tokens, got), map(_tokens, reference))),
            "precision": statistics.mean(map(_share, map(_tokens, reference), map(_tokens, got))),
            "words": statistics.mean(jaccard),
            "names": statistics.mean(bool(a) == bool(b) for a, b in pairs),
            "relevant named": (sum(bool(words[i]) for i in relevant), len(relevant)),
            "empty": sum(not g.strip() for g in got),
        }
    return figures


def report(title: str, n: int, figures: dict[str, dict]) -> None:
    print(f"{title}: {n} pages")
    for name, f in figures.items():
        named, relevant = f["relevant named"]
        print(f"  {name:12} {f['ms']:5.2f} ms  recall {f['recall']:.3f}  precision "
              f"{f['precision']:.3f}  words {f['words']:.3f}  names {f['names']:.3f}  relevant "
              f"named {named}/{relevant}  empty {f['empty']}", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--profiles", nargs="+", default=["default", "sparse", "flat"])
    args = parser.parse_args()
    for domain in ("tourism", "rainstorm"):
        matcher = topic_matcher(topic_model_for(load_settings(domain)))
        warm = sandbox_pages(World(1, "small", "default"), domain, 30)
        compare(warm, matcher)  # imports, jieba's words, caches
        for profile in args.profiles:
            pages = sandbox_pages(World(0, "default", profile), domain, args.pages)
            report(f"{profile} {domain}", len(pages), compare(pages, matcher))
        pages = corpus_pages(domain)
        report(f"corpus/{domain} HTML", len(pages), compare(pages, matcher))


if __name__ == "__main__":
    main()
