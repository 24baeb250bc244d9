"""Issue 39, finding 5: one address grew `page_view_day` by about 49,700 rows (93 MB) a day, and
200 junk sources sent just after 00:00 UTC pushed every genuine campaign of the day into
"(other)". Now one address adds, in a UTC day, AUDIENCE_COMBINATIONS_PER_ADDRESS combinations
(rows) at most and AUDIENCE_SOURCES_PER_ADDRESS new sources (services.audience,
`within_address_quota`), in process memory or shared through Redis, keyed by a hash that names
no address. Through the beacon route, on a real SQLite database."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lead_payloads import stored_rows
from servers import PrivateRedis
from starlette.testclient import TestClient

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
SOURCES, COMBINATIONS = 3, 12


@pytest.fixture
def quotas(service, monkeypatch):
    """The beacon route with small quotas, writing at each flush the test asks for."""
    from marketing_site import settings as site_settings
    from marketing_site.services import audience

    monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", "3600")
    monkeypatch.setenv("AUDIENCE_RATE_LIMIT_PER_MINUTE", "1000000")
    monkeypatch.setenv("AUDIENCE_SOURCES_PER_ADDRESS", str(SOURCES))
    monkeypatch.setenv("AUDIENCE_COMBINATIONS_PER_ADDRESS", str(COMBINATIONS))
    monkeypatch.delenv("REFLEX_REDIS_URL", raising=False)
    site_settings.get_settings.cache_clear()
    audience._limiter.cache_clear()
    audience._quotas.cache_clear()
    yield audience
    audience.BUFFER.cancel_timer()
    audience.BUFFER.flush()
    audience._limiter.cache_clear()
    audience._quotas.cache_clear()


def _paths() -> list[str]:
    from marketing_site import routes

    return sorted(routes.public_paths())


def _send(beacons: list[dict], address: str) -> None:
    from marketing_site.api import api_app
    from marketing_site.services import audience

    client = TestClient(api_app(), client=(address, 50000))
    headers = {"User-Agent": BROWSER, "Content-Type": "text/plain;charset=UTF-8"}
    for beacon in beacons:
        assert client.post("/api/v1/audience", content=json.dumps(beacon), headers=headers).status_code == 204
    audience.BUFFER.flush()


def _rows():
    from marketing_site.db.audience import PageViewDay

    return stored_rows(PageViewDay)


beacons = st.fixed_dictionaries(
    {
        "path": st.sampled_from(_paths()),
        "lang": st.sampled_from(["fr", "en"]),
        "device": st.sampled_from(["mobile", "tablet", "desktop"]),
        "referrer": st.sampled_from(["", "www.google.com", "news.example.com"]),
        "utm_source": st.sampled_from(["", "newsletter", "linkedin"]) | st.text("abcdef", min_size=1, max_size=6),
        "utm_campaign": st.sampled_from(["", "kyc-2026"]) | st.text("ghijkl", min_size=1, max_size=6),
    }
)


def _expected(batch: list[dict]) -> dict[tuple, int]:
    """The rule, written again plainly: the address's first SOURCES sources keep their name, the
    rest are "(other)"; its first COMBINATIONS combinations (after that) count, later new ones not."""
    from marketing_site.services import audience

    sources: list[tuple] = []
    counted: dict[tuple, int] = {}
    for beacon in batch:
        view = audience.parse_beacon(beacon)
        source = tuple(getattr(view, field) for field in audience.SOURCE_FIELDS)
        if any(source) and source not in sources:
            if len(sources) < SOURCES:
                sources.append(source)
            else:
                source = (audience.OTHER,) * len(source)
        key = (view.path, view.lang, view.device, *source)
        if key in counted or len(counted) < COMBINATIONS:
            counted[key] = counted.get(key, 0) + 1
    return counted


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(beacons, min_size=1, max_size=60))
def test_one_address_adds_its_quota_of_rows_and_sources_a_day_whatever_it_sends(quotas, batch):
    """Whatever one address sends, the daily totals gain exactly what the rule allows it: at most
    COMBINATIONS rows, at most SOURCES named sources, and every view of an allowed one."""
    from sqlalchemy import delete

    from marketing_site.db import new_session
    from marketing_site.db.audience import ROLLUPS, PageViewDay

    audience = quotas
    audience._quotas.cache_clear()  # each example: a new day for the quotas, on empty totals
    with new_session() as session, session.begin():
        for table in (PageViewDay, *(rollup for rollup, _ in ROLLUPS)):
            session.execute(delete(table))
    _send(batch, "198.51.100.7")
    stored = {(r.path, r.lang, r.device, *(getattr(r, f) for f in audience.SOURCE_FIELDS)): r.views for r in _rows()}
    assert stored == _expected(batch)
    assert len(stored) <= COMBINATIONS
    assert len({key[3:] for key in stored} - {("",) * 6, (audience.OTHER,) * 6}) <= SOURCES


def test_junk_sources_from_one_address_leave_the_days_sources_to_the_real_campaigns(quotas, monkeypatch):
    """200 junk sources from one address at 00:00, a day that keeps 20: the address takes its
    three, the five real campaigns that come after from their own addresses keep their names."""
    from marketing_site import settings as site_settings

    monkeypatch.setenv("AUDIENCE_SOURCES_PER_DAY", "20")
    site_settings.get_settings.cache_clear()
    audience = quotas
    junk = [{"path": "/", "lang": "fr", "device": "desktop", "utm_source": f"junk{n}"} for n in range(200)]
    _send(junk, "203.0.113.66")
    campaigns = [f"campaign-{n}" for n in range(5)]
    for n, campaign in enumerate(campaigns):
        _send(
            [{"path": "/", "lang": "fr", "device": "mobile", "utm_source": "newsletter", "utm_campaign": campaign}],
            f"192.0.2.{n}",
        )
    today = datetime.now(UTC).date()
    by_campaign = {row.key: row.views for row in audience.traffic("campaign", today, today)}
    assert all(by_campaign.get(campaign) == 1 for campaign in campaigns), by_campaign
    by_source = {row.key: row.views for row in audience.traffic("source", today, today)}
    assert sum(1 for key in by_source if key.startswith("junk")) == SOURCES
    # The rest of the address's views are counted all the same, under "(other)": one more row.
    assert by_source[audience.OTHER] == 200 - SOURCES
    assert len([row for row in _rows() if row.device == "desktop"]) == SOURCES + 1


def test_a_known_combination_keeps_counting_past_the_quota_and_an_ipv6_64_is_one_address(quotas):
    pages = _paths()[: COMBINATIONS + 5]
    same_64 = ["2001:db8:7:7::1", "2001:db8:7:7::2", "2001:db8:7:7:ffff::3"]
    for n, page in enumerate(pages):  # one /64, its addresses in turn: one quota
        _send([{"path": page, "lang": "fr", "device": "desktop"}], same_64[n % 3])
    assert len(_rows()) == COMBINATIONS
    _send([{"path": pages[0], "lang": "fr", "device": "desktop"}] * 7, same_64[0])
    [first] = [row for row in _rows() if row.path == pages[0]]
    assert first.views == 8
    _send([{"path": pages[-1], "lang": "fr", "device": "desktop"}], "2001:db8:7:8::1")  # the next /64
    assert len(_rows()) == COMBINATIONS + 1


def test_the_quota_admits_exactly_its_limit_then_only_known_members_and_starts_again_each_day():
    from marketing_site.services.rate_limit import DailyQuota

    quota = DailyQuota(3)
    assert [quota.admit("a", member, "2026-11-27") for member in "xyzw"] == [True, True, True, False]
    assert quota.admit("a", "x", "2026-11-27") and quota.admit("b", "w", "2026-11-27")
    assert quota.admit("a", "w", "2026-11-28")


def test_workers_share_the_quota_through_redis_and_redis_holds_no_address(quotas, redis_url, monkeypatch):
    """Two workers (two quotas of their own on one Redis) admit one address's limit between them,
    not each; the keys hold a hash, never the address; with Redis gone a worker counts alone."""
    import redis

    from marketing_site import settings as site_settings
    from marketing_site.services.rate_limit import RedisDailyQuota

    prefix = f"mstest:{uuid.uuid4().hex}:"
    first, second = (RedisDailyQuota(4, redis_url, prefix) for _ in range(2))
    admitted = [(first if n % 2 else second).admit("k", f"m{n}", "2026-11-27") for n in range(6)]
    assert admitted == [True] * 4 + [False] * 2
    gone = RedisDailyQuota(2, f"redis://127.0.0.1:{PrivateRedis().port}/0", prefix)
    assert [gone.admit("k", member, "2026-11-27") for member in "abc"] == [True, True, False]

    monkeypatch.setenv("REFLEX_REDIS_URL", redis_url)
    monkeypatch.setenv("REDIS_KEY_PREFIX", prefix)
    site_settings.get_settings.cache_clear()
    quotas._quotas.cache_clear()
    address = "203.0.113.77"
    _send([{"path": "/", "lang": "fr", "device": "desktop", "utm_source": f"s{n}"} for n in range(5)], address)
    keys = [key.decode() for key in redis.Redis.from_url(redis_url).keys(f"{prefix}quota:*")]
    assert keys and not [key for key in keys if address in key or "203.0.113" in key], keys


def test_an_address_has_its_quotas_again_the_next_utc_day(quotas):
    """`within_address_quota` counts each UTC day apart: an address that used its sources and its
    combinations on one day has both again the next day (and not before)."""
    from datetime import timedelta

    audience = quotas
    day = datetime(2026, 5, 4, tzinfo=UTC).date()

    def admitted(on_day, prefix: str) -> list:
        # New sources and new combinations each time (known ones would be admitted anyway).
        views = [
            audience.parse_beacon({"path": path, "lang": "fr", "device": "desktop", "utm_source": f"{prefix}{number}"})
            for number, path in enumerate(_paths()[: COMBINATIONS + 2])
        ]
        found = [audience.within_address_quota(view, "10.9.0.1", on_day) for view in views]
        return [view.utm_source if view else None for view in found]

    def expected(prefix: str) -> list:
        return [f"{prefix}{n}" for n in range(SOURCES)] + [audience.OTHER] * (COMBINATIONS - SOURCES) + [None, None]

    assert admitted(day, "s") == expected("s")
    # The same day, new sources are OTHER and new combinations refused (the known ones still count).
    assert admitted(day, "t") == [None] * SOURCES + [audience.OTHER] * (COMBINATIONS - SOURCES) + [None, None]
    assert admitted(day + timedelta(days=1), "u") == expected("u")
    # Kept in memory (no REFLEX_REDIS_URL here): the new day dropped the last day's keys.
    assert [len(quota) for quota in audience._quotas()] == [1, 1]
