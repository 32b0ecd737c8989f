"""The taxonomy of SPEC §3.1.6 on a hand-made context, worked out in full below."""

from __future__ import annotations

from kgcrawl.ontology.taxonomy import TermClass, build_taxonomy


def docs(*numbers: int) -> int:
    """Documents 1..6 as an extent bitset (document n is bit n − 1)."""
    return sum(1 << (n - 1) for n in numbers)


# Terms in rank order with their extents (the documents that contain them).
CONTEXT = [
    ("景点", docs(1, 2, 3, 4)),
    ("住宿", docs(3, 4, 5, 6)),
    ("酒店", docs(3, 4, 5)),
    ("宾馆", docs(3, 4, 5)),  # same extent as 酒店: a synonym, not a class of its own
    ("度假村", docs(3, 4)),  # under 酒店 (3 docs) and 景点 (4 docs): two parents
    ("古镇", docs(1, 2)),
    ("博物馆", docs(2)),  # under 古镇 only: 景点 ⊃ 古镇 is not a direct parent
    ("青旅", docs(6)),
    ("自驾", docs(1, 5)),  # no superset: goes under the topic
    ("民宿", docs(5)),  # under 自驾 (2 docs, the tree parent) and 酒店 (3 docs)
    ("古村", docs(1)),  # under 古镇 and 自驾, both 2 docs: the better-ranked 古镇 wins
]

EXPECTED = (
    TermClass(("景点",), docs(1, 2, 3, 4), parent=None),
    TermClass(("住宿",), docs(3, 4, 5, 6), parent=None),
    TermClass(("酒店", "宾馆"), docs(3, 4, 5), parent=1),
    TermClass(("度假村",), docs(3, 4), parent=2, extra_parents=(0,)),
    TermClass(("古镇",), docs(1, 2), parent=0),
    TermClass(("博物馆",), docs(2), parent=4),
    TermClass(("青旅",), docs(6), parent=1),
    TermClass(("自驾",), docs(1, 5), parent=None),
    TermClass(("民宿",), docs(5), parent=7, extra_parents=(2,)),
    TermClass(("古村",), docs(1), parent=4, extra_parents=(7,)),
)


def test_hand_made_taxonomy() -> None:
    terms, extents = zip(*CONTEXT, strict=True)
    assert build_taxonomy(terms, extents).classes == EXPECTED


def test_depth_counts_edges_to_the_topic() -> None:
    taxonomy = build_taxonomy(*zip(*CONTEXT, strict=True))
    assert [taxonomy.depth(i) for i in range(len(EXPECTED))] == [1, 1, 2, 3, 2, 3, 2, 1, 2, 3]


def test_synonym_order_follows_rank() -> None:
    taxonomy = build_taxonomy(["宾馆", "酒店", "住宿"], [docs(1), docs(1), docs(1, 2)])
    assert taxonomy.classes == (
        TermClass(("宾馆", "酒店"), docs(1), parent=1),
        TermClass(("住宿",), docs(1, 2), parent=None),
    )


def test_no_terms_no_classes() -> None:
    assert build_taxonomy([], []).classes == ()
