"""The bounds of the in-memory limits and what a refusal leaves in the metrics, without a site.

The daily quota keeps at most MAX_KEYS keys a day and, past it, forgets the oldest (a client
rotating addresses costs a fixed amount of memory, and no key still in use is forgotten first);
the fixed windows forget the key whose window began first, a key whose window began again
counting as the newest; every refusal is counted once under its limit's name (what an operator
graphs and alerts on), in memory and in Redis; a per-email key tells apart addresses that only
an upper-cased comparison would merge.
"""

from __future__ import annotations

import uuid

import pytest
from prometheus_client import REGISTRY

from marketing_site.services.rate_limit import DailyQuota, FixedWindows, RateLimiter, RedisRateLimiter, address_key

DAY = "2026-11-27"


def test_a_quota_holds_at_most_its_bound_of_keys_and_forgets_the_oldest_first():
    quota = DailyQuota(1)
    assert len(quota) == 0
    for number in range(DailyQuota.MAX_KEYS):
        assert quota.admit(f"address-{number}", "source", DAY)
    assert len(quota) == DailyQuota.MAX_KEYS  # at the bound, not over it: nothing forgotten yet
    assert not quota.admit("address-0", "another source", DAY)
    assert quota.admit("one address too many", "source", DAY)
    assert len(quota) == DailyQuota.MAX_KEYS
    assert not quota.admit("address-1", "another source", DAY)  # still counted
    assert quota.admit("address-0", "another source", DAY)  # the oldest was forgotten: it starts again
    assert len(quota) == DailyQuota.MAX_KEYS


def test_a_key_whose_window_began_again_is_forgotten_after_the_others():
    """`b` begins a new window at 75, after `c` began its own at 20: when two keys must go, `a`
    and then `c` are forgotten, not `b`, whose window is the newer."""
    windows = FixedWindows(limit=1, window=60, max_keys=4)
    assert [windows.admit(key, now=now) for key, now in (("a", 0), ("b", 10), ("c", 20))] == [True] * 3
    assert windows.admit("b", now=75)  # its window of 10 ended at 70
    assert windows.admit("d", now=76) and windows.admit("e", now=77) and windows.admit("f", now=78)
    assert len(windows) == 4
    assert windows.started("a") is None and windows.started("c") is None
    assert windows.started("b") == 75
    assert not windows.admit("b", now=79)
    assert windows.admit("c", now=79)  # forgotten, though its window (20 to 80) had not ended


def test_a_key_never_admitted_has_no_window():
    windows = FixedWindows(limit=2, window=60, max_keys=2)
    assert windows.started("never") is None
    assert windows.admit("k", now=5)
    assert windows.started("k") == 5


def _refusals(limit_name: str) -> float:
    return REGISTRY.get_sample_value("site_rate_limit_refusals_total", {"limit": limit_name}) or 0.0


@pytest.mark.parametrize("engine", ["memory", "redis"])
def test_each_refusal_is_counted_once_under_its_limits_name(engine, redis_url):
    """Allowed hits count nothing; a refusal counts one under the key's family (`ip:` is the lead
    form's per-IP limit), one of less than a second too; a key of no known family is `other`."""
    if engine == "memory":
        limiter = RateLimiter(1, 60)
    else:
        limiter = RedisRateLimiter(1, 60, redis_url, prefix=f"mstest:{uuid.uuid4().hex}:")
    before = {name: _refusals(name) for name in ("lead_per_ip", "other")}
    assert limiter.hit("ip:203.0.113.5") is None
    assert _refusals("lead_per_ip") == before["lead_per_ip"]
    assert limiter.hit("ip:203.0.113.5") is not None
    assert _refusals("lead_per_ip") == before["lead_per_ip"] + 1
    assert limiter.hit("unknown-family:x") is None and limiter.hit("unknown-family:x") is not None
    assert _refusals("other") == before["other"] + 1
    assert _refusals("lead_per_ip") == before["lead_per_ip"] + 1


def test_a_redis_refusal_of_less_than_a_second_is_counted(redis_url):
    limiter = RedisRateLimiter(1, 60, redis_url, prefix=f"mstest:{uuid.uuid4().hex}:")
    seconds, micros = limiter._client.time()
    limiter._client.zadd(limiter.prefix + "ip:k", {"seeded": seconds + micros / 1_000_000 - 59.5})
    before = _refusals("lead_per_ip")
    wait = limiter.hit("ip:k")
    assert wait is not None and 0 < wait < 1
    assert _refusals("lead_per_ip") == before + 1


def test_addresses_that_only_upper_case_would_merge_have_a_budget_each():
    """`straße` and `strasse` are two mailboxes (upper case makes both `STRASSE`): one's lead or
    password-reset budget is not the other's. Letter case alone is still one address."""
    assert address_key("straße@example.de") != address_key("strasse@example.de")
    assert address_key("Straße@Example.de") == address_key("straße@example.de")
