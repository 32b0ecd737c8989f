"""Which folders of the background corpus are near a domain (calibration_pages.py).

For each domain: the on-topic documents' first quartile of R(p) scored whole as
pages, and the median of each background folder, highest first; a folder at or
above the quartile is left out of calibration's off-topic text. Besides the
shipped domains, `--own FOLDER` builds an ontology (`build-ontology`, default
options) from one background folder and calibrates it on that same folder, as a
user whose own topic is one of the background's would. Then, for each shipped
domain, every 7th document of its corpus moved into a copy of the background as a
folder of its own (`<domain>-like`): other documents of the domain's kind, and the
α calibrated with that folder left out and, as before the rule, left in.

Run: python benchmarks/near_folders.py [--own finance] [--top 5]
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

import kgcrawl
from kgcrawl.calibrate import calibrate, corpus_folders, page_scorer
from kgcrawl.calibration_pages import document_page, folder_medians, near_folders
from kgcrawl.config import Settings, load_settings
from kgcrawl.text.corpus import read_corpus

calibration = importlib.import_module("kgcrawl.calibrate")  # `kgcrawl.calibrate` is the API's


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--own", default="finance", help="background folder to make a domain of")
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args()
    for domain in ("tourism", "rainstorm"):
        report(domain, load_settings(domain), args.top)
    with tempfile.TemporaryDirectory() as tmp:
        folder = corpus_folders(load_settings("tourism"))[1] / args.own
        ontology = Path(tmp) / "own.owl"
        kgcrawl.build_ontology(folder, domain=args.own, out=ontology, lattice_dir=Path(tmp))
        settings = load_settings("tourism", {"calibration.positives": str(folder)})
        own = replace(settings, domain=args.own, topic=args.own, ontology=ontology)
        report(f"{args.own} (built from the background's own folder)", own, args.top)
    for domain in ("tourism", "rainstorm"):
        held_out(domain, args.top)


def held_out(domain: str, top: int) -> None:
    """The domain's own kind of documents as a background folder: found, and what it costs."""
    positives_dir, negatives_dir = corpus_folders(load_settings(domain))
    with tempfile.TemporaryDirectory() as tmp:
        positives, negatives = Path(tmp) / "on", Path(tmp) / "off"
        shutil.copytree(positives_dir, positives)
        shutil.copytree(negatives_dir, negatives)
        (negatives / f"{domain}-like").mkdir()
        for path in sorted(p for p in positives.rglob("*") if p.is_file())[::7]:
            path.rename(negatives / f"{domain}-like" / path.name)
        os.environ["KGCRAWL_CACHE"] = str(Path(tmp) / "cache")
        overrides = {
            "calibration.positives": str(positives),
            "calibration.negatives": str(negatives),
        }
        settings = load_settings(domain, overrides)
        report(f"{domain}, a seventh of its corpus in the background", settings, top)
        kept = calibrate(settings).alpha
        rule = calibration.near_folders
        calibration.near_folders = lambda *_: {}  # the rule off
        try:
            left_in = calibrate(settings).alpha
        finally:
            calibration.near_folders = rule
        print(f"    α {kept:.2f} with the folder left out, {left_in:.2f} with it left in")


def report(name: str, settings: Settings, top: int) -> None:
    positives_dir, negatives_dir = corpus_folders(settings)
    score = page_scorer(settings, keywords=False)
    relevance = lambda text: score(document_page(text))[0]  # noqa: E731
    positives = read_corpus(positives_dir).documents
    negatives = read_corpus(negatives_dir).documents
    floor, medians = folder_medians(positives, negatives, relevance)
    near = near_folders(positives, negatives, relevance)
    print(f"{name}: on-topic p25 {floor:.3f} ({len(positives)} documents)")
    for folder, median in sorted(medians.items(), key=lambda item: -item[1])[:top]:
        print(f"    {folder:12} median {median:.3f}{'  left out' if folder in near else ''}")


if __name__ == "__main__":
    main()
