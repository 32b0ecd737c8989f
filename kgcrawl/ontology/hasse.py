"""Hasse diagrams as Graphviz DOT (`lattice/<domain>.gv`), rendered to SVG when `dot` exists.

A lattice of a few dozen concepts is readable, so it is drawn whole, each node
with reduced labelling (the terms whose attribute concept it is, and its
document count). Past that, the diagram shows the order the taxonomy uses: the
attribute concepts, one node per class, tree edges solid and extra is-a edges
dashed, classes without a parent under the topic. SVG, not PNG: without a CJK
font, PNG shows Chinese as boxes (NOTES.md).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from kgcrawl.ontology.lattice import Lattice
from kgcrawl.ontology.taxonomy import Taxonomy

_HEAD = [
    '  node [shape=box, style=rounded, fontname="Noto Sans CJK SC, sans-serif", fontsize=10];',
    "  edge [arrowhead=none];",
]


def lattice_dot(lattice: Lattice, title: str) -> str:
    """The full lattice, bottom to top, with reduced labelling."""
    ctx = lattice.context
    own: dict[int, list[str]] = {}
    for t, extent in enumerate(ctx.extents):
        # The attribute concept of t is the concept with extent t′ (when it is in the lattice).
        own.setdefault(extent, []).append(ctx.attributes[t])
    lines = [f"digraph {_quote(title)} {{", "  rankdir=BT;", *_HEAD]
    for i, (extent, _) in enumerate(lattice.concepts):
        terms = "\\n".join(_escape(t) for t in own.get(extent, []))
        label = f"{terms}\\n({_docs(extent)})" if terms else _docs(extent)
        lines.append(f'  c{i} [label="{label}"];')
    lines += [f"  c{low} -> c{high};" for low, high in lattice.upper_covers()]
    return "\n".join([*lines, "}"]) + "\n"


def taxonomy_dot(taxonomy: Taxonomy, topic: str, title: str) -> str:
    """The attribute-concept order: classes (synonyms joined by =) under the topic."""
    # Left to right: a taxonomy is wide and shallow, so it reads better turned on its side.
    lines = [f"digraph {_quote(title)} {{", "  rankdir=RL;", *_HEAD]
    lines.append(f'  root [label="{_escape(topic)}", style="rounded,bold"];')
    for i, cls in enumerate(taxonomy.classes):
        names = " = ".join(_escape(t) for t in cls.labels)
        lines.append(f'  c{i} [label="{names}\\n({_docs(cls.extent)})"];')
    for i, cls in enumerate(taxonomy.classes):
        lines.append(f"  c{i} -> {'root' if cls.parent is None else f'c{cls.parent}'};")
        lines += [f"  c{i} -> c{p} [style=dashed];" for p in cls.extra_parents]
    return "\n".join([*lines, "}"]) + "\n"


def write_diagram(dot: str, gv_path: str | Path) -> Path | None:
    """Write the .gv file; render `<same name>.svg` with Graphviz when `dot` is installed.

    Returns the SVG path, or None when `dot` is not on PATH. An SVG of an earlier
    build is removed first: left beside the new .gv, it would show a lattice that no
    longer is.
    """
    gv_path = Path(gv_path)
    gv_path.parent.mkdir(parents=True, exist_ok=True)
    gv_path.write_text(dot, encoding="utf-8")
    svg_path = gv_path.with_suffix(".svg")
    svg_path.unlink(missing_ok=True)
    exe = shutil.which("dot")
    if exe is None:
        return None
    subprocess.run([exe, "-Tsvg", "-o", str(svg_path), str(gv_path)], check=True, timeout=300)
    return svg_path


def _docs(extent: int) -> str:
    count = extent.bit_count()
    return f"{count} doc" if count == 1 else f"{count} docs"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _quote(text: str) -> str:
    return f'"{_escape(text)}"'
