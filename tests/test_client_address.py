"""Which address the lead API's rate limits count (the trusted-proxy rule), and its setting."""

from __future__ import annotations

import ipaddress
import os
import uuid

import pytest
from address_forms import ipv4_addresses, ipv4_forms, ipv6_addresses, ipv6_forms
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from marketing_site.api.mail import visitor_address
from marketing_site.settings import get_settings

PROXIES = (ipaddress.ip_network("10.0.0.5/32"), ipaddress.ip_network("10.1.0.0/24"))


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "expected"),
    [
        # No trusted proxy configured, or a peer that is not one: the header is ignored.
        ("203.0.113.7", ["198.51.100.1"], "203.0.113.7"),
        ("203.0.113.7", [], "203.0.113.7"),
        # Through a trusted proxy: the hop it appended.
        ("10.0.0.5", ["198.51.100.1"], "198.51.100.1"),
        # A visitor's own header comes first; the proxy's hop is the last one.
        ("10.0.0.5", ["1.2.3.4, 198.51.100.1"], "198.51.100.1"),
        ("10.0.0.5", ["1.2.3.4", "198.51.100.1"], "198.51.100.1"),
        # Chained trusted proxies are skipped from the right.
        ("10.0.0.5", ["198.51.100.1, 10.1.0.9"], "198.51.100.1"),
        # Nothing usable from the proxy: count the proxy, never a made-up value.
        ("10.0.0.5", [], "10.0.0.5"),
        ("10.0.0.5", ["not-an-address"], "10.0.0.5"),
        # IPv6 counts per /64 (RATE_LIMIT_IPV6_PREFIX); a dual-stack peer's mapped IPv4 is IPv4.
        ("10.0.0.5", ["2001:db8::1"], "2001:db8::/64"),
        ("2001:db8:1:2:3:4:5:6", [], "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", [], "203.0.113.7"),
        # A proxy that writes ports and brackets still names the visitor.
        ("10.0.0.5", ["[2001:db8:0:9::1]:51000"], "2001:db8:0:9::/64"),
        ("10.0.0.5", ["198.51.100.1:51000"], "198.51.100.1"),
        # A test client has a name, not an address.
        ("testclient", [], "testclient"),
    ],
)
def test_visitor_address(peer, forwarded_for, expected):
    assert visitor_address(peer, forwarded_for, PROXIES) == expected


def test_no_trusted_proxies_means_the_peer_always(monkeypatch):
    monkeypatch.delenv("TRUSTED_PROXIES", raising=False)
    get_settings.cache_clear()
    try:
        assert get_settings().trusted_proxies == ()
        assert visitor_address("127.0.0.1", ["198.51.100.1"], get_settings().trusted_proxies) == "127.0.0.1"
    finally:
        get_settings.cache_clear()


def test_trusted_proxies_setting_parses_addresses_and_networks_and_refuses_garbage(monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXIES", " 10.0.0.5, 10.1.0.0/24 ,::1")
    get_settings.cache_clear()
    try:
        assert [str(n) for n in get_settings().trusted_proxies] == ["10.0.0.5/32", "10.1.0.0/24", "::1/128"]
        monkeypatch.setenv("TRUSTED_PROXIES", "10.0.0.5, proxy.local")
        get_settings.cache_clear()
        with pytest.raises(ValueError, match=r"TRUSTED_PROXIES: .*'proxy\.local'"):
            get_settings()
    finally:
        get_settings.cache_clear()


# ------------------------------------------------------------------ every form of an address
# Issue 30, must-hold 5: an IPv6 visitor is counted per /64 (RATE_LIMIT_IPV6_PREFIX), whatever
# the address in it and however it is written, in memory and in Redis.

ANY_PROXY = (ipaddress.ip_network("10.0.0.5/32"),)


def counted(text: str, through_proxy: bool) -> str:
    """The key the rate limits count a visitor under: as the peer, or named by our proxy."""
    if through_proxy:
        return visitor_address("10.0.0.5", [f"192.0.2.9, {text}"], ANY_PROXY)
    return visitor_address(text, [], ())


@settings(max_examples=300, deadline=None)
@given(
    network=ipv6_addresses.map(lambda address: int(address) >> 64 << 64),
    hosts=st.lists(st.integers(0, 2**64 - 1), min_size=2, max_size=4),
    data=st.data(),
    through_proxy=st.booleans(),
)
def test_every_address_of_one_ipv6_64_in_any_form_is_one_visitor(network, hosts, data, through_proxy):
    keys = {counted(data.draw(ipv6_forms(ipaddress.IPv6Address(network | host))), through_proxy) for host in hosts}
    assert keys == {str(ipaddress.IPv6Network((network, 64)))}


@settings(max_examples=200, deadline=None)
@given(first=ipv6_addresses, second=ipv6_addresses, bits=st.integers(1, 128), data=st.data())
def test_two_ipv6_addresses_are_one_visitor_exactly_when_they_share_the_configured_prefix(first, second, bits, data):
    key = lambda address: visitor_address(data.draw(ipv6_forms(address)), [], (), ipv6_prefix=bits)
    same_network = int(first) >> (128 - bits) == int(second) >> (128 - bits)
    assert (key(first) == key(second)) == same_network


@settings(max_examples=200, deadline=None)
@given(address=ipv4_addresses, other=ipv4_addresses, data=st.data(), through_proxy=st.booleans())
def test_an_ipv4_address_in_any_form_is_one_visitor_and_another_address_another(address, other, data, through_proxy):
    assume(address != other)
    assert counted(data.draw(ipv4_forms(address)), through_proxy) == str(address)
    assert counted(data.draw(ipv4_forms(other)), through_proxy) != str(address)


def _limiters():
    from marketing_site.services.rate_limit import RateLimiter, RedisRateLimiter

    yield RateLimiter(3, 60)
    if os.environ.get("TEST_REDIS_URL"):
        yield RedisRateLimiter(3, 60, os.environ["TEST_REDIS_URL"], prefix=f"mstest:{uuid.uuid4().hex}:")


@settings(max_examples=40, deadline=None)
@given(network=ipv6_addresses, hosts=st.lists(st.integers(0, 2**64 - 1), min_size=4, max_size=4), data=st.data())
def test_one_ipv6_64_is_one_bucket_of_the_memory_and_redis_limiters(network, hosts, data):
    """Four addresses of one /64, each written its own way: the fourth hit is refused (limit 3),
    in process memory and in Redis (TEST_REDIS_URL); a neighbouring /64 has its own budget."""
    base = int(network) >> 64 << 64
    addresses = [data.draw(ipv6_forms(ipaddress.IPv6Address(base | host))) for host in hosts]
    neighbour = data.draw(ipv6_forms(ipaddress.IPv6Address(base ^ (1 << 64))))
    for limiter in _limiters():
        waits = [limiter.hit(f"ip:{visitor_address(text, [], ())}") for text in addresses]
        assert waits[:3] == [None, None, None] and waits[3] is not None, (limiter, addresses)
        assert limiter.hit(f"ip:{visitor_address(neighbour, [], ())}") is None
