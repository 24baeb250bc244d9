"""The rate limits' windows and keys, in process memory and in Redis, without a site.

Redis is TEST_REDIS_URL when set (CI's Redis), else a redis-server of this module's own on a
loopback port (tests/servers.py PrivateRedis): the Redis limiter's Lua script is checked in
`make test-fast` too, not only in the engines lane. No sleeps: a Redis window is prepared by
writing hits at chosen moments of the server's own clock into the limiter's sorted set.

What each test stands for: the window slides from the oldest hit it holds (counted from the newest,
a busy office would never get its next hit in), exactly `limit` hits are let in, a refused hit is
told when the oldest leaves, an IPv6 /64 is one visitor, and every per-email key (leads, password
resets) counts an address whatever its letter case (booking budgets: tests/test_booking.py).
"""

from __future__ import annotations

import ipaddress
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lead_payloads import lead_payload
from servers import free_port

from marketing_site.api.mail import visitor_address
from marketing_site.services.client_address import parse_address
from marketing_site.services.rate_limit import RateLimiter, RedisRateLimiter, address_key
from marketing_site.settings import get_settings


def _redis_limiter(url: str, limit: int, window: float) -> RedisRateLimiter:
    # A prefix of its own per limiter: tests never share a key, in CI's shared Redis either.
    return RedisRateLimiter(limit, window, url, prefix=f"mstest:{uuid.uuid4().hex}:")


def _server_now(limiter: RedisRateLimiter) -> float:
    seconds, micros = limiter._client.time()
    return seconds + micros / 1_000_000


def _seed(limiter: RedisRateLimiter, key: str, ages: list[float]) -> None:
    """Hits `ages` seconds old by the Redis server's clock (the one the script reads)."""
    now = _server_now(limiter)
    limiter._client.zadd(limiter.prefix + key, {f"seeded-{age}": now - age for age in ages})


# ------------------------------------------------------------------ windows, in Redis


def test_the_window_slides_from_the_oldest_hit_in_memory_and_in_redis(redis_url):
    """Two hits 50 s and 10 s old in a 60 s window of two: the next is refused until the one of
    50 s ago leaves (about 10 s), not until the newest does (about 50 s); then one is let in."""
    limiter = _redis_limiter(redis_url, limit=2, window=60)
    _seed(limiter, "k", [50, 10])
    wait = limiter.hit("k")
    assert wait is not None and 9 < wait <= 10.01
    memory = RateLimiter(2, 60)
    assert memory.hit("k", now=1000) is None and memory.hit("k", now=1040) is None
    assert memory.hit("k", now=1050) == pytest.approx(10)
    assert memory.hit("k", now=1060) is None  # the hit at 1000 has left; the one at 1040 stays
    assert memory.hit("k", now=1061) == pytest.approx(39)


def test_the_redis_window_forgets_a_hit_older_than_the_window(redis_url):
    limiter = _redis_limiter(redis_url, limit=2, window=60)
    _seed(limiter, "k", [61, 30])  # the first has left the window: one place is free
    assert limiter.hit("k") is None
    wait = limiter.hit("k")  # now 30 s and 0 s old: full, free again when the 30 s one leaves
    assert wait is not None and 29 < wait <= 30.01


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_exactly_limit_hits_are_let_in_in_memory_and_in_redis(redis_url, limit):
    for limiter in (RateLimiter(limit, 60), _redis_limiter(redis_url, limit, 60)):
        waits = [limiter.hit("k") for _ in range(limit + 1)]
        assert waits[:limit] == [None] * limit, limiter
        assert waits[limit] is not None and 59 < waits[limit] <= 60.01, limiter
        assert limiter.hit("other") is None  # another key has its own budget


def test_a_redis_key_expires_with_its_window(redis_url):
    """Idle keys leave Redis by themselves (nothing else removes them): the TTL is the window."""
    limiter = _redis_limiter(redis_url, limit=3, window=90)
    assert limiter.hit("k") is None
    ttl_ms = limiter._client.pttl(limiter.prefix + "k")
    assert 88_000 < ttl_ms <= 90_000


def test_a_token_already_counted_is_let_in_without_counting_and_release_gives_it_back(redis_url):
    for limiter in (RateLimiter(2, 60), _redis_limiter(redis_url, 2, 60)):
        assert limiter.hit("k", token="t1") is None
        assert limiter.hit("k", token="t1") is None  # the same submission arriving twice
        assert limiter.hit("k", token="t2") is None
        assert limiter.hit("k", token="t3") is not None, limiter
        limiter.release("k", "t2")  # what t2 allowed did not happen after all
        assert limiter.hit("k", token="t3") is None, limiter
        assert limiter.hit("k", token="t1") is None, limiter  # t1 is still counted, once
        assert limiter.hit("k", token="t4") is not None, limiter


def test_without_redis_the_limit_still_holds_in_the_process():
    """Redis away (nothing listens on the port): the limit is counted per process, not lifted."""
    limiter = RedisRateLimiter(2, 60, f"redis://127.0.0.1:{free_port()}/0", prefix="mstest:away:")
    assert [limiter.hit("k") is None for _ in range(3)] == [True, True, False]
    # Tokens and their release work there too: a retried submission is not counted twice, and a
    # budget given back is free again.
    assert limiter.hit("t", token="t1") is None and limiter.hit("t", token="t1") is None
    assert limiter.hit("t", token="t2") is None and limiter.hit("t", token="t3") is not None
    limiter.release("t", "t2")
    assert limiter.hit("t", token="t3") is None


def test_a_redis_refusal_of_less_than_a_second_is_still_a_refusal(redis_url):
    limiter = _redis_limiter(redis_url, limit=1, window=60)
    _seed(limiter, "k", [59.5])
    wait = limiter.hit("k")
    assert wait is not None and 0 < wait < 1


def test_an_address_with_a_lone_surrogate_still_has_a_key():
    """The password-reset form relays what was typed; a lone surrogate (possible in JSON) must be
    counted like any other text, not raise."""
    assert address_key("a\ud800@example.com") == address_key("A\ud800@EXAMPLE.com")
    assert address_key("a\ud800@example.com") != address_key("a@example.com")


@pytest.mark.parametrize("hop", ["[2001:db8::1", "[2001:db8::1]x5", "[2001:db8::1]:", "[2001:db8::1]:8o"])
def test_a_malformed_bracketed_hop_names_no_visitor(hop):
    """Unreadable, the hop is not an address: behind a trusted proxy the proxy itself is counted."""
    proxy = ipaddress.ip_network("10.0.0.5/32")
    assert parse_address(hop) is None
    assert visitor_address("10.0.0.5", [hop], (proxy,)) == "10.0.0.5"


# ------------------------------------------------------------------ an IPv6 /64 is one visitor


@settings(max_examples=10)
@given(network=st.integers(0, 2**64 - 1), hosts=st.lists(st.integers(0, 2**64 - 1), min_size=3, max_size=3))
def test_one_ipv6_64_is_one_key_and_its_neighbours_are_others(redis_url, network, hosts):
    """Three addresses of one /64 spend one budget of three, in memory and in Redis; the /64
    next to it (its last network bit flipped) counts apart. The prefix is the setting's default
    (RATE_LIMIT_IPV6_PREFIX unset), as the API counts."""
    assert get_settings().rate_limit_ipv6_prefix == 64
    base = network << 64

    def key(address: int) -> str:
        return f"ip:{visitor_address(str(ipaddress.IPv6Address(address)), [], ())}"

    for limiter in (RateLimiter(3, 60), _redis_limiter(redis_url, 3, 60)):
        for host in hosts:
            assert limiter.hit(key(base | host)) is None
        assert limiter.hit(key(base)) is not None, limiter
        assert limiter.hit(key(base ^ (1 << 64))) is None, limiter


# ------------------------------------------------------------------ per-email keys ignore letter case

SPELLINGS = ["Jeanne.Martin@Example.com", "jeanne.martin@example.com", "JEANNE.MARTIN@EXAMPLE.COM"]


@pytest.fixture(params=["memory", "redis"])
def engine(request, monkeypatch, redis_url) -> str:
    """The limiters the services make: in memory, or in Redis (REFLEX_REDIS_URL, a fresh prefix)."""
    if request.param == "redis":
        monkeypatch.setenv("REFLEX_REDIS_URL", redis_url)
        monkeypatch.setenv("REDIS_KEY_PREFIX", f"mstest:{uuid.uuid4().hex}:")
    else:
        monkeypatch.delenv("REFLEX_REDIS_URL", raising=False)
    return request.param


def test_the_lead_email_limit_counts_an_address_whatever_its_case(engine, service):
    """RATE_LIMIT_PER_EMAIL is 3 in `service`; each lead from its own IP and company (no duplicate)."""
    for number, email in enumerate(SPELLINGS):
        result = service.submit_lead(lead_payload(email=email, company=f"Banque {number}"), f"10.0.2.{number}")
        assert result.status == "accepted", (engine, email)
    refused = service.submit_lead(lead_payload(email="jeanne.MARTIN@example.COM", company="Banque 9"), "10.0.2.9")
    assert refused.status == "rate_limited", engine


def test_the_password_reset_limit_counts_an_address_whatever_its_case(engine, service, monkeypatch):
    from marketing_site import settings as site_settings
    from marketing_site.services import password_reset

    monkeypatch.setenv("PASSWORD_RESET_RATE_LIMIT_PER_EMAIL", "3")
    monkeypatch.setenv("PASSWORD_RESET_RATE_LIMIT_PER_IP", "100")
    site_settings.get_settings.cache_clear()
    password_reset._limiters.cache_clear()
    try:
        for number, email in enumerate(SPELLINGS):
            assert password_reset._allowed(email, f"10.0.3.{number}") is None, (engine, email)
        assert password_reset._allowed("Jeanne.MARTIN@example.com", "10.0.3.9") is not None, engine
        assert password_reset._allowed("paul@example.com", "10.0.3.10") is None
    finally:
        password_reset._limiters.cache_clear()


def test_no_redis_key_names_an_address(redis_url, service, monkeypatch):
    """The per-email keys of leads and password resets hold a hash of the address: Redis keeps no
    address (a data-subject erasure does not reach Redis). Booking budgets are counted in the
    database, on the bookings themselves (tests/test_booking.py)."""
    import redis

    from marketing_site import settings as site_settings
    from marketing_site.services import password_reset

    prefix = f"mstest:{uuid.uuid4().hex}:"
    monkeypatch.setenv("REFLEX_REDIS_URL", redis_url)
    monkeypatch.setenv("REDIS_KEY_PREFIX", prefix)
    site_settings.get_settings.cache_clear()
    for cached in (service._limiters, password_reset._limiters):
        cached.cache_clear()
    try:
        address = "Jeanne.Martin@Example.com"
        assert service.submit_lead(lead_payload(email=address), "10.0.6.1").status == "accepted"
        assert password_reset._allowed(address, "10.0.6.1") is None
        keys = [key.decode() for key in redis.Redis.from_url(redis_url).keys(f"{prefix}*")]
        families = {key.removeprefix(prefix).split(":", 2)[-1].split(":", 1)[0] for key in keys}
        assert {"email", "reset-email"} <= families, keys
        assert not [key for key in keys if "@" in key or "jeanne" in key.lower()], keys
    finally:
        for cached in (service._limiters, password_reset._limiters):
            cached.cache_clear()


def test_forgetting_idle_keys_never_forgets_a_key_with_hits_in_its_window():
    """Past 50,000 keys the memory limiter drops the idle ones (memory stays bounded), those whose
    last hit has left the window, exactly one window old included; a visitor who sends from many
    addresses must not get their own spent budget back that way."""
    limiter = RateLimiter(2, 60)
    for number in range(49_997):
        limiter.hit(f"idle-{number}", now=10)
    limiter.hit("edge", now=42)  # exactly one window old at 102
    assert limiter.hit("spent", now=100) is None and limiter.hit("spent", now=101) is None
    limiter.hit("other", now=101)
    assert len(limiter._hits) == 50_000  # at the bound, not over it: nothing forgotten yet
    limiter.hit("fresh", now=102)
    assert set(limiter._hits) == {"spent", "other", "fresh"}
    assert limiter.hit("spent", now=103) == pytest.approx(57)
