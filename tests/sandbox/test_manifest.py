"""BFS manifests (what recall is measured against), their files, and world statistics."""

from __future__ import annotations

import csv
import json

import pytest

from kgcrawl.sandbox.hazards import Hazard
from kgcrawl.sandbox.manifest import ManifestRow, allowed, bfs, world_info, write_manifest
from kgcrawl.sandbox.world import SandboxError, World


@pytest.fixture(scope="module")
def world() -> World:
    return World(0, "small")


@pytest.fixture(scope="module")
def rows(world) -> list[ManifestRow]:
    return bfs(world, "tourism", 1200)


def test_bfs_starts_at_the_seeds_and_goes_breadth_first(world, rows):
    assert len(rows) == 1200
    depths = [r.depth for r in rows]
    assert depths == sorted(depths)
    assert {r.url for r in rows if r.depth == 0} == set(world.seeds("tourism"))


def test_every_row_is_a_distinct_page_with_its_truth(world, rows):
    assert len({r.canonical for r in rows}) == len(rows)
    for row in rows[::20]:
        truth = world.truth(row.url)
        assert truth.is_page
        assert row.relevant == truth.relevant("tourism") and row.share == truth.share("tourism")
        assert row.canonical == truth.canonical


def test_bfs_obeys_robots_and_skips_copies(world, rows):
    assert all(allowed(world, r.url) for r in rows)
    assert not any("/member/" in r.url or "/print/" in r.url for r in rows)
    robots_error = {h.name for h in world.hosts.values() if Hazard.ROBOTS_ERROR in h.hazards}
    assert not robots_error & {r.host for r in rows}
    assert not any("jsessionid=" in r.canonical or "sid=" in r.canonical for r in rows)


def test_bfs_follows_short_redirects_only(world):
    chain = world.hazard_urls(Hazard.REDIRECT)[0]
    assert world.truth(chain).location is not None
    rows = bfs(world, "rainstorm", 100)
    assert all(world.truth(r.url).location is None for r in rows)


def test_bfs_of_an_unknown_domain_is_an_error(world):
    with pytest.raises(SandboxError, match="sports"):
        bfs(world, "sports", 10)


def test_manifest_files_round_trip(tmp_path, rows):
    write_manifest(rows[:50], tmp_path / "m.csv", {})
    with open(tmp_path / "m.csv", encoding="utf-8") as f:
        read = list(csv.DictReader(f))
    assert [r["url"] for r in read] == [r.url for r in rows[:50]]
    assert {r["relevant"] for r in read} <= {"True", "False"}
    write_manifest(rows[:50], tmp_path / "m.json", {"domain": "tourism", "seed": 0})
    data = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert data["domain"] == "tourism" and data["relevant_share"] == 0.4
    assert [ManifestRow(**r) for r in data["pages"]] == rows[:50]
    with pytest.raises(SandboxError, match=r"m\.txt"):
        write_manifest(rows, tmp_path / "m.txt", {})


def test_world_info_counts_hosts_hazards_and_relevance(world):
    info = world_info(world, bfs_pages=200)
    assert info["hosts"] == 100 == sum(info["hosts_by_kind"].values())
    assert set(info["hosts_by_kind"]) >= {"portal", "news", "site", "forum", "gov", "directory"}
    assert info["tunnels"] == {"tourism": 2, "rainstorm": 2}
    assert info["hidden_hosts"] >= 8
    assert info["bfs"]["tourism"]["pages"] == 200
    assert 0 < info["bfs"]["rainstorm"]["relevant_share"] < 1
    assert info["hosts_by_hazard"]["session-id"] >= 1
