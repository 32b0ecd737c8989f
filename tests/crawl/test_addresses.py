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


@pytest.mark.parametrize(
    "address",
    [
        "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
        "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
        "64:ff9b:1::a00:1",  # local-use NAT64
        "2002:7f00:1::",  # 6to4 of 127.0.0.1
        "2002:808:808::1",  # 6to4 of a public address: still a tunnel into some network
        "::7f00:1",  # IPv4-compatible ::127.0.0.1
        "::ffff:8.8.8.8",  # IPv4-mapped
        "fec0::1",  # site-local
        "fe80::1%eth0",  # link-local with a zone
    ],
)
def test_ipv6_forms_that_reach_ipv4_or_a_site_are_not_public(address: str) -> None:
    # Python's is_global says True for all but the last two; SPEC §6 turn 2 refuses them
    assert is_public(address) is False
