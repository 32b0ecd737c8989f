"""How few topic words a language may have before its pages are better scored by all of W_T.

`relevance.nameable_words` scores a page by the topic words with a label in its
language. That keeps an ontology whose labels favour one language from capping
the other language's pages; but when a language has only a few topic words, a
page that names one of them (any common word the corpus made a concept) scores
near 1, and off-topic pages of that language outrank on-topic ones.

For each domain and each language as the minority, this builds FCA ontologies
from the domain's corpus with only some of that language's documents, then
scores the calibration's composed pages (`calibrate`: the domain corpus against
the shipped background) twice: the minority language's pages by its own topic
words (masked) and by all of W_T (unmasked). It prints the minority's share of
the topic words, and for each way the AUC (`ranked_above`) and the best F1 of
"R(p) > α". `--corpus DIR --topic T` scores a corpus of your own instead (every document).

What it found (session 37): with 1–6 words in the minority language, 10 of 14 builds
separated better unmasked (English minorities by 0.03–0.07 AUC), rainstorm's Chinese
better masked (+0.025 to +0.043 at any size), and a tester's volcano corpus (6 Chinese
words of 67) went from AUC 0.426 masked to 0.902 unmasked. Unmasking languages with
fewer than 8 words was not adopted: on that tester's own web it raised the calibrated
α from 0.36 to 0.66 (0.60 after recalibrating on the web's words), above every page of
its short on-topic pages (R 0.25–0.46), and the crawl judged 0 of 135 pages relevant
where it had judged 50. The corpora's α does not transfer to a web of short pages; the
masked α of 0.36 was right by accident (its F1 was that of calling every page relevant).

Run: python benchmarks/nameable_share.py [--keep 1 2 4] [--corpus DIR --topic T --domain D]
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import replace
from pathlib import Path

from kgcrawl.calibrate import corpora
from kgcrawl.calibration_pages import compose_pages
from kgcrawl.config import load_settings
from kgcrawl.ontology.build import BuildOptions, build_ontology
from kgcrawl.ontology.topic import topic_model_for
from kgcrawl.scoring.relevance import nameable_words, page_relevance, topic_matcher
from kgcrawl.scoring.thresholds import best_separation, ranked_above
from kgcrawl.text.analysis import analyse_page
from kgcrawl.text.corpus import read_corpus

ROOT = Path(__file__).resolve().parent.parent
KEEP = (1, 2, 4, 8, 16)  # documents of the minority language kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="a corpus of your own, scored whole")
    parser.add_argument("--topic", help="its topic label")
    parser.add_argument("--domain", default="own", help="its domain name")
    parser.add_argument("--keep", type=int, nargs="+", default=KEEP,
                        help="documents of the minority language kept, one build each")  # fmt: skip
    args = parser.parse_args()
    print(f"{'corpus':28} {'minority':8} {'share':>11}  {'AUC mask':>8} {'no mask':>8}"
          f"  {'F1 mask':>7} {'no mask':>7}")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.corpus:
            _row(args.corpus.name, args.corpus, args.topic, args.domain, args.corpus, work)
            return
        for domain in ("tourism", "rainstorm"):
            settings = load_settings(domain)
            documents = read_corpus(ROOT / "corpus" / domain).documents
            for minority in ("zh", "en"):
                own = [d for d in documents if _lang(d) == minority]
                for keep in (k for k in args.keep if k < len(own)):
                    folder = work / f"{domain}-{minority}{keep}" / domain
                    folder.mkdir(parents=True)
                    kept = [d for d in documents if _lang(d) != minority] + own[:keep]
                    for i, doc in enumerate(kept):  # JSONL lines too: one file each
                        (folder / f"{i}.txt").write_text(doc.text, encoding="utf-8")
                    _row(f"{domain}, {keep} {minority} docs", folder, settings.topic, domain,
                         ROOT / "corpus" / domain, work)  # fmt: skip


def _lang(document) -> str:
    return "zh" if document.lang == "zh" else "en"


def _row(name: str, folder: Path, topic: str, domain: str, positives: Path, work: Path) -> None:
    owl = work / f"{name.replace(' ', '_').replace(',', '')}.owl"
    build_ontology(folder, BuildOptions(domain=domain, topic=topic, out=owl, lattice_dir=work))
    values = {"ontology": str(owl), "topic": topic, "calibration.positives": str(positives)}
    settings = load_settings("tourism", values)
    settings = replace(settings, domain=domain)
    model = topic_model_for(settings)
    matcher = topic_matcher(model)
    masks = nameable_words(matcher.words)
    pos, neg, _ = corpora(settings)
    pages = [(analyse_page(page, "http://calibration/", matcher), relevant)
             for page, relevant in compose_pages(pos, neg, settings.calibration)]  # fmt: skip

    def scored(chosen: dict) -> tuple[list[float], list[float]]:
        """R(p) of the relevant and the irrelevant pages, each scored by `chosen`'s mask."""
        scores: tuple[list[float], list[float]] = ([], [])
        for analysis, relevant in pages:
            r = page_relevance(analysis.counts, model.vector, chosen.get(analysis.lang))
            scores[0 if relevant else 1].append(r)
        return scores

    masked = scored(masks)  # the same whichever language is the minority
    for minority, mask in masks.items() if masks else [("-", None)]:
        ways = (masked, scored({k: v for k, v in masks.items() if k != minority}))
        share = f"{int(mask.sum())}/{len(mask)}" if mask is not None else "-"
        auc = [ranked_above(*way) for way in ways]
        f1 = [best_separation(*way).f1 for way in ways]
        print(f"{name:28} {minority:8} {share:>11}  {auc[0]:8.3f} {auc[1]:8.3f}"
              f"  {f1[0]:7.3f} {f1[1]:7.3f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
