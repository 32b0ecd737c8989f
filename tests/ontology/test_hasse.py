"""Hasse diagrams: the full lattice with reduced labels, the attribute-concept order, files."""

from __future__ import annotations

import re
import shutil

import pytest

from kgcrawl.ontology.hasse import lattice_dot, taxonomy_dot, write_diagram
from kgcrawl.ontology.lattice import build_lattice
from kgcrawl.ontology.taxonomy import build_taxonomy
from tests.ontology.test_closure import HAND
from tests.ontology.test_taxonomy import with_second_parents


def _nodes(dot: str) -> dict[str, str]:
    return dict(re.findall(r'^  (\w+) \[label="(.*?)"', dot, flags=re.M))


def _edges(dot: str) -> set[tuple[str, str, bool]]:
    found = re.findall(r"^  (\w+) -> (\w+)( \[style=dashed\])?;", dot, flags=re.M)
    return {(a, b, bool(dashed)) for a, b, dashed in found}


def test_full_lattice_with_reduced_labels() -> None:
    lattice = build_lattice(HAND)
    dot = lattice_dot(lattice, "hand lattice")
    assert dot.startswith('digraph "hand lattice" {') and dot.endswith("}\n")
    labels = {lattice.concepts[int(n[1:])][0]: text for n, text in _nodes(dot).items()}
    assert labels == {
        0b1111: "4 docs",
        0b0111: "a\\n(3 docs)",  # a′ = {1,2,3}
        0b0101: "b\\n(2 docs)",
        0b0110: "c\\n(2 docs)",
        0b0100: "1 doc",  # {3}: no attribute has this extent
        0b1000: "d\\n(1 doc)",
        0b0000: "0 docs",
    }
    assert len(_edges(dot)) == 8


def test_attribute_concept_order_draws_the_taxonomy() -> None:
    taxonomy = with_second_parents()
    dot = taxonomy_dot(taxonomy, "旅游", "tour")
    nodes = _nodes(dot)
    assert nodes["root"] == "旅游"
    assert nodes["c2"] == "酒店 = 宾馆\\n(3 docs)"
    assert len(nodes) == 1 + len(taxonomy.classes)
    edges = _edges(dot)
    assert ("c0", "root", False) in edges and ("c7", "root", False) in edges
    assert ("c3", "c2", False) in edges and ("c3", "c0", True) in edges  # 度假村
    assert sum(dashed for *_, dashed in edges) == 3
    assert len(edges) == len(taxonomy.classes) + 3


def test_quotes_in_labels_are_escaped() -> None:
    taxonomy = build_taxonomy(['say "hi"'], [1])
    assert '"say \\"hi\\"\\n(1 doc)"' in taxonomy_dot(taxonomy, "t", "x")


def test_without_graphviz_only_the_gv_file_is_written(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    gv = tmp_path / "out" / "x.gv"
    gv.parent.mkdir()
    gv.with_suffix(".svg").write_text("<svg>an earlier diagram</svg>", encoding="utf-8")
    assert write_diagram("digraph x { a -> b; }\n", gv) is None
    assert gv.read_text(encoding="utf-8") == "digraph x { a -> b; }\n"
    assert not gv.with_suffix(".svg").exists()


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")
def test_svg_when_graphviz_is_installed(tmp_path) -> None:
    svg = write_diagram(lattice_dot(build_lattice(HAND), "hand"), tmp_path / "x.gv")
    assert svg == tmp_path / "x.svg" and "<svg" in svg.read_text(encoding="utf-8")
