"""The taxonomy of SPEC §3.1.6 on hand-made contexts, worked out in full below: the strict
order (θ = 1, λ = 1), then subsumption with a confidence and a lift."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kgcrawl.ontology.taxonomy import (
    Taxonomy,
    TaxonomyError,
    TermClass,
    build_taxonomy,
    check_taxonomy_options,
    confidence,
)

STRICT = {"theta": 1.0, "lift": 1.0}


def docs(*numbers: int) -> int:
    """Documents as an extent bitset (document n is bit n − 1)."""
    return sum(1 << (n - 1) for n in numbers)


# Terms in rank order with their extents (the documents that contain them).
CONTEXT = [
    ("景点", docs(1, 2, 3, 4)),
    ("住宿", docs(3, 4, 5, 6)),
    ("酒店", docs(3, 4, 5)),
    ("宾馆", docs(3, 4, 5)),  # same extent as 酒店: a synonym, not a class of its own
    ("度假村", docs(3, 4)),  # under 酒店 (3 docs) and 景点 (4 docs); 2 docs: no second parent
    ("古镇", docs(1, 2)),
    ("博物馆", docs(2)),  # under 古镇 only: 景点 ⊃ 古镇 is not a direct parent
    ("青旅", docs(6)),
    ("自驾", docs(1, 5)),  # no superset: goes under the topic
    ("民宿", docs(5)),  # under 自驾 (2 docs, the tree parent); 酒店 (3 docs) not asserted
    ("古村", docs(1)),  # under 古镇 and 自驾, both 2 docs: the better-ranked 古镇 wins
]

EXPECTED = (
    TermClass(("景点",), docs(1, 2, 3, 4), parent=None),
    TermClass(("住宿",), docs(3, 4, 5, 6), parent=None),
    TermClass(("酒店", "宾馆"), docs(3, 4, 5), parent=1),
    TermClass(("度假村",), docs(3, 4), parent=2),
    TermClass(("古镇",), docs(1, 2), parent=0),
    TermClass(("博物馆",), docs(2), parent=4),
    TermClass(("青旅",), docs(6), parent=1),
    TermClass(("自驾",), docs(1, 5), parent=None),
    TermClass(("民宿",), docs(5), parent=7),
    TermClass(("古村",), docs(1), parent=4),
)

# The minimal strict supersets that are not the tree parent: SPEC §3.1.6 turn 1 asserted
# them all; now none of them has the support a second parent needs (too few documents).
SECOND_PARENTS = {3: (0,), 8: (2,), 9: (7,)}


def with_second_parents() -> Taxonomy:
    """EXPECTED with every minimal superset asserted: what merge and the diagram must carry."""
    return Taxonomy(
        tuple(replace(c, extra_parents=SECOND_PARENTS.get(i, ())) for i, c in enumerate(EXPECTED))
    )


def test_hand_made_taxonomy() -> None:
    terms, extents = zip(*CONTEXT, strict=True)
    assert build_taxonomy(terms, extents, **STRICT).classes == EXPECTED


def test_depth_counts_edges_to_the_topic() -> None:
    taxonomy = build_taxonomy(*zip(*CONTEXT, strict=True), **STRICT)
    assert [taxonomy.depth(i) for i in range(len(EXPECTED))] == [1, 1, 2, 3, 2, 3, 2, 1, 2, 3]


def test_synonym_order_follows_rank() -> None:
    taxonomy = build_taxonomy(["宾馆", "酒店", "住宿"], [docs(1), docs(1), docs(1, 2)], **STRICT)
    assert taxonomy.classes == (
        TermClass(("宾馆", "酒店"), docs(1), parent=1),
        TermClass(("住宿",), docs(1, 2), parent=None),
    )


def test_no_terms_no_classes() -> None:
    assert build_taxonomy([], []).classes == ()


def test_confidence_is_the_share_of_the_term_documents() -> None:
    assert confidence(docs(1, 2, 3, 4), docs(1, 2, 3, 5, 6)) == 0.75
    assert confidence(0, docs(1)) == 0.0


def test_subsumption_reads_inclusion_with_a_confidence() -> None:
    # hostel in docs 1–4; accommodation in 1, 2, 3, 5, 6: conf 3/4 = 0.75, P(accommodation)
    # = 5/10, lift 0.75 / 0.5 = 1.5. Strictly, hostel ⊄ accommodation.
    terms = ["accommodation", "hostel"]
    extents = [docs(1, 2, 3, 5, 6), docs(1, 2, 3, 4)]
    assert build_taxonomy(terms, extents, **STRICT).classes[1].parent is None
    assert build_taxonomy(terms, extents, 0.75, lift=1.5, n_docs=10).classes[1].parent == 0
    assert build_taxonomy(terms, extents, 0.8, lift=1.5, n_docs=10).classes[1].parent is None
    # The same confidence to a term in 9 of the 10 documents is no association: lift 0.83.
    common = [docs(1, 2, 3, 5, 6, 7, 8, 9, 10), docs(1, 2, 3, 4)]
    assert build_taxonomy(terms, common, 0.75, lift=1.5, n_docs=10).classes[1].parent is None
    assert build_taxonomy(terms, common, 0.75, lift=0.8, n_docs=10).classes[1].parent == 0


def test_the_lexical_head_is_the_tree_parent() -> None:
    # cherry tomato (docs 1, 2) is under "tomato" (1–4) and "rain" (1, 2, 5): "rain" has the
    # smaller extent, but "tomato" is the head of the phrase. Neither subsumes the other.
    terms = ["tomato", "rain", "cherry tomato"]
    extents = [docs(1, 2, 3, 4), docs(1, 2, 5), docs(1, 2)]
    taxonomy = build_taxonomy(terms, extents, 0.75, lift=1.0, n_docs=10)
    assert taxonomy.classes[2].parent == 0
    assert taxonomy.classes[2].extra_parents == ()  # 2 documents: too few for a second parent


def test_a_second_parent_needs_high_confidence_and_support() -> None:
    # lavender (docs 1–4) in every document of herb (1–6) and of flower (1–4, 7, 8).
    terms = ["herb", "flower", "lavender", "sage"]
    extents = [docs(1, 2, 3, 4, 5, 6), docs(1, 2, 3, 4, 7, 8), docs(1, 2, 3, 4), docs(5, 6, 9)]
    taxonomy = build_taxonomy(terms, extents, 0.75, lift=1.0, n_docs=10)
    assert (taxonomy.classes[2].parent, taxonomy.classes[2].extra_parents) == (0, (1,))
    # sage: 2 of 3 documents with herb (0.67 < θ), so no parent at all.
    assert taxonomy.classes[3].parent is None


@pytest.mark.parametrize(
    ("theta", "second", "lift", "message"),
    [
        (0.0, 0.95, 1.5, "--subsumption is a share"),
        (1.2, 0.95, 1.5, "--subsumption is a share"),
        (0.8, 0.0, 1.5, "second-parent confidence"),
        (0.8, 0.95, -1, "--lift must not be negative"),
    ],
)
def test_bad_options(theta: float, second: float, lift: float, message: str) -> None:
    with pytest.raises(TaxonomyError, match=message):
        check_taxonomy_options(theta, second, lift)
