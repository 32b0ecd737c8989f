"""Rich and plain renderings of a topic model for the command line."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.text import Text
from rich.tree import Tree

from kgcrawl.ontology.topic import TopicModel

if TYPE_CHECKING:
    from kgcrawl.fit import ByWidth


def _row(model: TopicModel, iri: str) -> dict[str, Any]:
    concept = model.ontology.concepts[iri]
    return {
        "iri": iri,
        "label": concept.label("zh"),
        "label_en": concept.labels.get("en", ""),
        "alt_labels": [t for texts in concept.alt_labels.values() for t in texts],
        "parent": concept.parent,
        "edge": concept.edge.value if concept.edge else None,
        "depth": model.ontology.depth[iri],
        "weight": float(model.weights[iri]),
    }


def _labels(row: dict[str, Any], between: str) -> str:
    """The label, and the English one after `between` unless it is the label (an
    English-only ontology's concepts have no other); markup."""
    english = row["label_en"] if row["label_en"] != row["label"] else ""
    return escape(row["label"]) + (f"{between}[dim]{escape(english)}[/dim]" if english else "")


def ontology_json(model: TopicModel) -> dict[str, Any]:
    onto = model.ontology
    return {
        "iri": onto.iri,
        "topic": model.topic,
        "concepts": len(onto),
        "levels": onto.levels,
        "branches": [onto.concepts[c].label("en") for c in onto.children[onto.root]],
        "tree": [_row(model, iri) for iri in onto.concepts],
    }


def ontology_tree(model: TopicModel) -> Tree:
    onto = model.ontology
    title = (
        f"[bold]{escape(onto.concepts[onto.root].label())}[/bold] — {len(onto)} concepts, "
        f"{onto.levels} levels, topic {escape(onto.concepts[model.topic].label())}"
    )
    nodes = {onto.root: Tree(title)}
    for iri in onto.concepts:
        if iri == onto.root:
            continue
        row = _row(model, iri)
        text = (
            f"{_labels(row, ' ')}  "
            f"[cyan]{row['edge']}[/cyan] d={row['depth']} w={row['weight']:.4f}"
        )
        nodes[iri] = nodes[onto.concepts[iri].parent].add(text)
    return nodes[onto.root]


def weights_table(model: TopicModel) -> ByWidth:
    """W_T with its five factors; the English label under the concept, numbers never cut:
    a table, or on a narrow terminal two lines a concept (the factors on the second)."""
    from kgcrawl.fit import ByWidth, folding_table, table_width

    numbers = ("depth", "IF_Dis", "IF_Den", "IF_Dep", "IF_Coi", "IF_Rel", "W_T")
    title = f"W_T: similarity of each concept to {model.ontology.concepts[model.topic].label()}"
    table = folding_table("concept", *numbers, numeric=numbers, title=escape(title))
    # a label of five Chinese characters unfolded, and each number ("0.3667") whole
    needs = table_width([10, *(max(len(name), 6) for name in numbers)])
    lines = Text(title, style="italic")
    for iri in model.ontology.concepts:
        row = _row(model, iri)
        factors = [f"{float(x):.4f}" for x in model.factors[iri].as_tuple()]
        label = Text.from_markup(_labels(row, "\n"))
        table.add_row(label, str(row["depth"]), *factors, f"{row['weight']:.4f}")
        lines.append("\n")
        lines.append_text(Text.from_markup(_labels(row, " ")))
        lines.append(f"  depth {row['depth']}  W_T {row['weight']:.4f}\n  ")
        named = zip(numbers[1:6], factors, strict=True)
        lines.append("  ".join(f"{name[3:]} {x}" for name, x in named), "dim")
    return ByWidth(table, lines, needs)


def weights_csv(model: TopicModel) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "iri",
            "label",
            "label_en",
            "depth",
            "if_dis",
            "if_den",
            "if_dep",
            "if_coi",
            "if_rel",
            "weight",
        ]
    )
    for iri in model.ontology.concepts:
        row = _row(model, iri)
        writer.writerow(
            [
                iri,
                row["label"],
                row["label_en"],
                row["depth"],
                *(f"{float(x):.6f}" for x in model.factors[iri].as_tuple()),
                f"{row['weight']:.6f}",
            ]
        )
    return out.getvalue()
