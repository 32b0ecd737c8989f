"""The taxonomy `build-ontology` makes of a corpus: classes, depth, share under the root, top terms.

What issue 18 asks to compare before and after a change to term choice or
taxonomy (SPEC §3.1 steps 2, 3, 6). With `--reference` (JSON `{"is_a": [[child,
parent], ...]}`) it also scores the is-a edges against a hand-written taxonomy
(`kgcrawl.ontology.reference`).

Run: python benchmarks/ontology_quality.py corpus/tourism corpus/rainstorm [--top 20]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def describe(
    corpus: Path, top: int, reference: Path | None, tree: bool, theta: float, lift: float
) -> None:
    from kgcrawl.ontology.build import BuildOptions, build_ontology

    with tempfile.TemporaryDirectory() as tmp:
        options = BuildOptions(
            lattice_dir=Path(tmp), out=Path(tmp) / "o.owl", subsumption=theta, lift=lift
        )
        start = time.perf_counter()
        result = build_ontology(corpus, options)
        seconds = time.perf_counter() - start
    onto = result.ontology
    under_root = len(onto.children[onto.root])
    classes = len(onto) - 1
    print(f"## {corpus}  ({len(result.corpus)} documents, {seconds:.1f} s)")
    print(
        f"classes {classes}, depth {onto.max_depth}, under the root {under_root} "
        f"({under_root / max(classes, 1):.0%}), "
        f"extra parents {sum(len(c.extra_parents) for c in onto.concepts.values())}"
    )
    print("top terms:", ", ".join(result.selection.terms[:top]))
    if reference is not None:
        from kgcrawl.ontology.reference import read_reference, score_taxonomy

        print(score_taxonomy(onto, read_reference(reference)))
    if tree:
        _print_tree(onto, onto.root, 0)


def _print_tree(onto, iri: str, depth: int) -> None:
    """One line per class, indented by depth; synonyms after `=`."""
    concept = onto.concepts[iri]
    alts = [t for texts in concept.alt_labels.values() for t in texts]
    print("  " * depth + concept.label("en") + (f" = {', '.join(alts)}" if alts else ""))
    for child in onto.children[iri]:
        _print_tree(onto, child, depth + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpora", type=Path, nargs="+")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--reference", type=Path)
    parser.add_argument("--no-tree", action="store_true")
    parser.add_argument("--theta", type=float, nargs="*", default=[0.8], help="θ values to compare")
    parser.add_argument("--lift", type=float, nargs="*", default=[1.2], help="lifts to compare")
    args = parser.parse_args()
    for corpus in args.corpora:
        for theta in args.theta:
            for lift in args.lift:
                print(f"θ = {theta}, lift ≥ {lift}")
                describe(corpus, args.top, args.reference, not args.no_tree, theta, lift)


if __name__ == "__main__":
    main()
