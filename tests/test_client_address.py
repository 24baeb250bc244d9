"""Which address the lead API's rate limits count (the trusted-proxy rule), and its setting."""

from __future__ import annotations

import ipaddress

import pytest

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
