"""The key every per-address limit counts under, through the routes themselves (issue 39, point
15): behind a trusted proxy the last hop it appended to X-Forwarded-For (never one the visitor
wrote before it), an IPv6 visitor per /64, and from a peer that is no trusted proxy the peer
whatever the header says. Build-free: the API routes in-process, the test client's peer set to an
address. `test_client_address.py` and `test_rate_limit_keys.py` hold the rule itself."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from marketing_site.settings import get_settings

LIMIT = 2
PROXY = "10.0.0.2"
# Each door with a per-address limit, and what one request to it sends (refused or ignored before
# anything is stored: the limit is counted first).
DOORS = {
    "leads": ("POST", "/api/v1/mail/send", {"json": {}}),
    "bookings": ("POST", "/api/v1/booking", {"json": {}}),
    "beacons": (
        "POST",
        "/api/v1/audience",
        {"content": b"{}", "headers": {"Content-Type": "text/plain", "User-Agent": "Mozilla/5.0 Chrome/130"}},
    ),
    "logins": ("GET", "/auth/login", {}),
}


@pytest.fixture
def doors(tmp_path, monkeypatch):
    """A client of the API routes from `peer`, every per-address limit at LIMIT."""
    from servers import migrated_sqlite_copy

    from marketing_site import db
    from marketing_site.api import api_app, auth
    from marketing_site.services import audience, booking, leads

    caches = (get_settings, db.engine_for, leads._limiters, booking._limiter, audience._limiter, auth._login_limiter)
    for name, value in {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'keys.db'}",
        "MAIL_SINK_DIR": str(tmp_path / "mail"),
        "TRUSTED_PROXIES": f"{PROXY}/32",
        "RATE_LIMIT_PER_IP": str(LIMIT),
        "BOOKING_RATE_LIMIT_PER_IP": str(LIMIT),
        "AUDIENCE_RATE_LIMIT_PER_MINUTE": str(LIMIT),
        "LOGIN_RATE_LIMIT_PER_IP": str(LIMIT),
        "OIDC_ISSUER": "http://127.0.0.1:9",  # a login that gets past its limit fails at once
        "OIDC_CLIENT_ID": "c",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("REDIS_URL", raising=False)
    for cached in caches:
        cached.cache_clear()
    migrated_sqlite_copy(tmp_path / "keys.db")

    def client(peer: str) -> TestClient:
        return TestClient(api_app(), base_url="http://127.0.0.1:8000", client=(peer, 50000), follow_redirects=False)

    yield client
    for cached in caches:
        cached.cache_clear()


def _limited(client: TestClient, door: str, forwarded: str | list[str] | None) -> bool:
    """Whether the door refuses this request (429); `forwarded` a list: one X-Forwarded-For
    header line each (a proxy may add a line rather than append to the last)."""
    method, path, extra = DOORS[door]
    lines = [] if forwarded is None else [forwarded] if isinstance(forwarded, str) else forwarded
    headers = [*extra.get("headers", {}).items(), *(("X-Forwarded-For", line) for line in lines)]
    response = client.request(method, path, **{**extra, "headers": headers})
    assert response.status_code < 500, (door, response.status_code, response.text)
    return response.status_code == 429


@pytest.mark.parametrize("door", DOORS)
def test_behind_the_proxy_each_visitor_is_the_hop_it_appended(doors, door):
    proxy = doors(PROXY)
    visitor = "203.0.113.7"
    # What the visitor writes before the proxy's hop changes nothing: one visitor, one budget.
    sent = [f"{n}.{n}.{n}.{n}, {visitor}" for n in range(1, LIMIT + 1)]
    assert [_limited(proxy, door, forwarded) for forwarded in sent] == [False] * LIMIT
    assert _limited(proxy, door, f"198.18.0.1, {visitor}")
    assert _limited(proxy, door, visitor)
    assert _limited(proxy, door, ["198.18.0.2", visitor])  # the last line is the proxy's
    # Another visitor, and the proxy's own requests, have budgets of their own.
    assert not _limited(proxy, door, "198.51.100.9")
    assert not _limited(proxy, door, None)


@pytest.mark.parametrize("door", DOORS)
def test_an_ipv6_visitor_is_counted_per_64(doors, door):
    proxy = doors(PROXY)
    same_64 = ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe"]
    assert [_limited(proxy, door, hop) for hop in same_64] == [False, False]
    assert _limited(proxy, door, "2001:db8:1:2:abcd::9")
    assert not _limited(proxy, door, "2001:db8:1:3::1")  # the next /64


@pytest.mark.parametrize("door", DOORS)
def test_a_peer_that_is_no_trusted_proxy_is_counted_whatever_it_forwards(doors, door):
    peer = doors("192.0.2.50")
    forged = [f"203.0.113.{n}" for n in range(LIMIT + 1)]
    assert [_limited(peer, door, hop) for hop in forged] == [False] * LIMIT + [True]


def test_the_password_reset_counts_the_same_visitor_from_its_websocket(monkeypatch):
    """The reset form is a Reflex event: its address comes from the websocket's peer and
    X-Forwarded-For header (`password_reset.client_of`), under the same rule."""
    from marketing_site.services.password_reset import client_of

    monkeypatch.setenv("TRUSTED_PROXIES", f"{PROXY}/32")
    get_settings.cache_clear()
    try:
        assert client_of(PROXY, "1.1.1.1, 203.0.113.7") == "203.0.113.7"
        assert client_of(PROXY, "2001:db8:1:2::1") == "2001:db8:1:2::/64"
        assert client_of(PROXY, "") == PROXY
        assert client_of("192.0.2.50", "203.0.113.7") == "192.0.2.50"
        assert client_of("", "203.0.113.7") == "unknown"
    finally:
        get_settings.cache_clear()
