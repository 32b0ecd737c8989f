"""Session-wide fixtures. Area fixtures live in tests/fixtures/ and are listed here."""

pytest_plugins: list[str] = [
    "tests.fixtures.jieba_words",
    "tests.fixtures.graph",
    "tests.fixtures.sandbox",
    "tests.fixtures.ray_cluster",
]
