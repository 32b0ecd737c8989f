"""Session-wide fixtures. Area fixtures live in tests/fixtures/ and are listed here."""

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
