"""Session-wide fixtures. Area fixtures live in tests/fixtures/ and are listed here."""

import os

pytest_plugins: list[str] = [
    "tests.fixtures.jieba_words",
    "tests.fixtures.graph",
    "tests.fixtures.sandbox",
    "tests.fixtures.ray_cluster",
]


def pytest_collection_modifyitems(items) -> None:
    """Files holding slow tests run first.

    xdist deals out whole files (`--dist loadfile`, in collection order with
    `--no-loadscope-reorder`; its default order is by the number of tests, which
    put the few long end-to-end files last): a long file dealt last kept one
    worker busy for up to 110 s while the other stood idle.
    """
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)  # stable: files stay whole


def pytest_xdist_auto_num_workers(config) -> int | None:
    """`-n auto`: one worker more than the cores this process may use.

    Many tests wait (politeness delays, hanging hosts, servers starting, killed
    crawls resuming), so a third worker on 2 cores keeps them busy: the suite took
    9:27 on a fresh clone with 3 workers, 10:36 and 10:48 with 2 (user CPU 18:00
    against 17:05). PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set.
    """
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    from kgcrawl.crawl.analysers import usable_cores

    return usable_cores() + 1
