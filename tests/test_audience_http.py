"""The audience beacon on the session's production site, over HTTP, where it meets the workers
and the engine: on SQLite one worker, in the PostgreSQL/Redis pass two workers upserting the same
daily rows at once. Every beacon of a burst is counted exactly once, in the daily totals and in
each daily sum the console reads.
"""

from __future__ import annotations

import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx2

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
BURST = 120


def _views(site_server, table: str, campaign: str) -> int:
    (total,) = site_server.query(f"SELECT COALESCE(SUM(views), 0) FROM {table} WHERE utm_campaign = ?", campaign)[0]
    return int(total)


def test_a_burst_of_beacons_across_workers_is_counted_once_each(site_server):
    campaign = f"burst-{uuid.uuid4().hex[:8]}"  # this test's rows only
    body = json.dumps({"path": "/compare", "lang": "fr", "referrer": "", "device": "desktop", "utm_campaign": campaign})

    def send(_: int) -> int:
        # A connection each, as separate browsers: the workers share them out.
        with httpx2.Client(timeout=20) as client:
            response = client.post(
                site_server.url + "/api/v1/audience",
                content=body,
                headers={"User-Agent": BROWSER, "Content-Type": "text/plain;charset=UTF-8"},
            )
            return response.status_code

    with ThreadPoolExecutor(max_workers=16) as pool:
        statuses = list(pool.map(send, range(BURST)))
    assert statuses == [204] * BURST
    deadline = time.monotonic() + 20  # the test sites write each view as it arrives
    while _views(site_server, "page_view_day", campaign) < BURST and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _views(site_server, "page_view_day", campaign) == BURST
    assert _views(site_server, "visit_source_day", campaign) == BURST
    rows = site_server.query("SELECT COUNT(*) FROM page_view_day WHERE utm_campaign = ?", campaign)
    assert rows == [(1,)]  # one combination: one row, however many workers wrote to it


def test_a_client_sending_a_new_source_with_every_beacon_adds_a_bounded_number_of_rows(workdir):
    """Issue 30, finding 6: 80 beacons, each with a campaign of its own, at once over two workers
    (PostgreSQL and Redis in their pass; SQLite and a private Redis here): the day keeps
    AUDIENCE_SOURCES_PER_DAY sources exactly, every other view is counted under "(other)", and
    not one view is lost."""
    from servers import SiteServer, free_port

    bound, beacons = 5, 80
    server = SiteServer(free_port(), workdir, workers=2, AUDIENCE_SOURCES_PER_DAY=str(bound))
    server.migrate()
    server.start()
    try:

        def send(n: int) -> int:
            body = {"path": "/compare", "lang": "fr", "referrer": "", "device": "desktop", "utm_campaign": f"c{n}"}
            with httpx2.Client(timeout=20) as client:
                response = client.post(
                    server.url + "/api/v1/audience",
                    content=json.dumps(body),
                    headers={"User-Agent": BROWSER, "Content-Type": "text/plain;charset=UTF-8"},
                )
                return response.status_code

        with ThreadPoolExecutor(max_workers=16) as pool:
            statuses = list(pool.map(send, range(beacons)))
        assert statuses == [204] * beacons
        deadline = time.monotonic() + 30
        while server.query("SELECT COALESCE(SUM(views), 0) FROM page_view_day")[0][0] < beacons:
            assert time.monotonic() < deadline, "views missing"
            time.sleep(0.3)
        campaigns = dict(server.query("SELECT utm_campaign, SUM(views) FROM visit_source_day GROUP BY utm_campaign"))
        assert len(campaigns) == bound + 1 and campaigns.pop("(other)") == beacons - bound
        assert set(campaigns.values()) == {1}
        assert server.query("SELECT COUNT(*) FROM page_view_day") == [(bound + 1,)]
    finally:
        server.stop()
