"""The formal context: incidence from documents, bitsets, and the Burmeister .cxt file."""

from __future__ import annotations

import doctest

import concepts
import pytest

from kgcrawl.ontology import closure, fca, taxonomy
from kgcrawl.ontology.fca import ContextError, FormalContext, read_cxt, write_cxt

DOCS = ["d1.txt", "d2.txt", "d3.txt"]
DOC_TERMS = [["暴雨", "洪水", "暴雨"], ["洪水", "滑坡", "other"], ["flood"]]
TERMS = ["暴雨", "洪水", "滑坡", "flood"]


def test_incidence_cell_by_cell() -> None:
    ctx = FormalContext.from_documents(DOCS, DOC_TERMS, TERMS)
    assert ctx.objects == tuple(DOCS) and ctx.attributes == tuple(TERMS)
    assert ctx.rows() == [
        (True, True, False, False),
        (False, True, True, False),
        (False, False, False, True),
    ]
    assert ctx.extents == (0b001, 0b011, 0b010, 0b100)
    assert ctx.row_bits() == [0b0011, 0b0110, 0b1000]
    assert ctx.has(1, 2) and not ctx.has(2, 2)
    assert ctx.density() == pytest.approx(5 / 12)


def test_from_bools_equals_from_documents() -> None:
    ctx = FormalContext.from_documents(DOCS, DOC_TERMS, TERMS)
    assert FormalContext.from_bools(DOCS, TERMS, ctx.rows()) == ctx


def test_cxt_file_is_burmeister_format(tmp_path) -> None:
    path = write_cxt(FormalContext.from_documents(DOCS, DOC_TERMS, TERMS), tmp_path / "x.cxt")
    assert path.read_text(encoding="utf-8") == (
        "B\n\n3\n4\n\nd1.txt\nd2.txt\nd3.txt\n暴雨\n洪水\n滑坡\nflood\nXX..\n.XX.\n...X\n"
    )


def test_cxt_round_trip_through_the_concepts_library(tmp_path) -> None:
    ctx = FormalContext.from_documents(DOCS, DOC_TERMS, TERMS)
    path = write_cxt(ctx, tmp_path / "lattice" / "x.cxt")
    library = concepts.Context.fromfile(str(path), frmat="cxt", encoding="utf-8")
    assert library.objects == tuple(DOCS)
    assert library.properties == tuple(TERMS)
    assert [tuple(row) for row in library.bools] == ctx.rows()
    assert read_cxt(path) == ctx


def test_transposed_library_context_swaps_roles() -> None:
    ctx = FormalContext.from_documents(DOCS, DOC_TERMS, TERMS)
    plain, transposed = ctx.to_concepts(), ctx.to_concepts(transpose=True)
    assert transposed.objects == plain.properties and transposed.properties == plain.objects
    assert transposed.intension(["洪水"]) == ("d1.txt", "d2.txt")


def test_read_cxt_errors_name_the_file(tmp_path) -> None:
    with pytest.raises(ContextError, match=r"none\.cxt: no such file"):
        read_cxt(tmp_path / "none.cxt")
    bad = tmp_path / "bad.cxt"
    bad.write_text("B\n\n2\n1\n\na\n", encoding="utf-8")
    with pytest.raises(ContextError, match=r"bad\.cxt: not a Burmeister \.cxt context"):
        read_cxt(bad)


@pytest.mark.parametrize("module", [fca, closure, taxonomy])
def test_docstring_examples_run(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
