"""--resolve parsing and the address policy."""

import pytest

from kgcrawl.crawl.addresses import AddressError, is_public, mapped, parse_resolve


def test_parse_and_glob_match_first_wins() -> None:
    maps = parse_resolve(["www.a.cn=127.0.0.1:8001", "*.cn=127.0.0.1:8002", "*=[::1]:8003"])
    assert mapped("WWW.A.CN", maps).port == 8001
    assert mapped("news.b.cn", maps).port == 8002
    other = mapped("example.com", maps)
    assert (other.address, other.port) == ("::1", 8003)


@pytest.mark.parametrize("entry", ["a.cn", "a.cn=127.0.0.1", "a.cn=localhost:80", "=1.2.3.4:80"])
def test_bad_entries_name_the_entry(entry: str) -> None:
    with pytest.raises(AddressError, match=f"--resolve {entry}"):
        parse_resolve([entry])


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("8.8.8.8", True),
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("192.168.0.7", False),
        ("169.254.1.1", False),
        ("::1", False),
        ("fe80::1", False),
        ("0.0.0.0", False),
        ("2001:4860:4860::8888", True),
        ("224.0.0.1", False),
    ],
)
def test_private_loopback_link_local_are_not_public(address: str, public: bool) -> None:
    assert is_public(address) is public
