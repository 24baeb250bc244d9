"""Server time of the console's traffic view at a million page views a month for 13 months
(a benchmark: it prints), and the beacon route's throughput under a burst.

    .venv/bin/python scripts/bench_traffic.py [--views-per-month 1000000] [--months 13]
        [--database-url URL] [--runs 5] [--beacons 5000]

A fresh migrated database (SQLite in a temporary folder by default; with --database-url, a
PostgreSQL server URL, a fresh database `bench_traffic` is created there and dropped
afterwards) gets the daily totals such traffic leaves: every day, its views spread over the
site's pages, both languages, three device classes, a few dozen referring hosts and campaigns
(long-tailed, as real traffic is), and 3 leads per 1,000 views with their attribution. It then
times, as the console's event handlers run them (services.console), the median of --runs: the
traffic table of the last 30 days and of the whole period by each grouping, the weekly chart
with the funnel, and the whole page load of the console's traffic and charts. Last, it posts
--beacons beacons to the real route in one burst (ASGI, in process) and reports how many a
second it takes and how many rows the burst wrote.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_database import pg_database, use_database

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent

SOURCES = (
    [("", "", "", "")] * 6  # direct
    + [("www.google.com", "", "", "")] * 5
    + [("www.bing.com", "", "", ""), ("duckduckgo.com", "", "", ""), ("www.qwant.com", "", "", "")]
    + [("www.linkedin.com", "linkedin", "social", f"post-{n}") for n in range(12)]
    + [("", "newsletter", "email", f"newsletter-{n}") for n in range(24)]
    + [("", "google", "cpc", f"search-{n}") for n in range(8)]
    + [(f"partner{n}.example.com", "", "", "") for n in range(20)]
)
DEVICES = ("desktop", "desktop", "desktop", "mobile", "mobile", "tablet")


def _seed(views_per_month: int, months: int) -> tuple[int, int]:
    """Daily totals and leads; returns (rows, leads)."""
    from marketing_site import routes
    from marketing_site.db import get_engine
    from marketing_site.db.audience import PageViewDay
    from marketing_site.db.leads import Lead
    from marketing_site.services import audience

    rng = random.Random(7)
    paths = [(path, routes.page_lang(path)) for path in routes.public_paths()]
    # Long-tailed: the home page and a few landing pages take most views.
    path_weights = [1 / (rank + 1) for rank in range(len(paths))]
    source_weights = [1 / (rank + 1) ** 0.7 for rank in range(len(SOURCES))]
    today = datetime.now(UTC).date()
    days = months * 30 + 5
    per_day = views_per_month / 30
    engine = get_engine()
    rows_written = leads_written = 0
    with engine.begin() as connection:
        for offset in range(days):
            day = today - timedelta(days=offset)
            counts: dict[tuple, int] = {}
            # Views come in groups (a combination seen several times a day) to keep seeding fast.
            remaining = int(per_day * rng.uniform(0.8, 1.2))
            while remaining > 0:
                n = min(remaining, rng.choice((1, 1, 1, 2, 3, 5, 8, 20)))
                path, lang = rng.choices(paths, path_weights)[0]
                referrer, source, medium, campaign = rng.choices(SOURCES, source_weights)[0]
                key = (path, lang, referrer, source, medium, campaign, rng.choice(DEVICES))
                counts[key] = counts.get(key, 0) + n
                remaining -= n
            rows = [
                {
                    "day": day,
                    "path": path,
                    "lang": lang,
                    "referrer": referrer,
                    "utm_source": source,
                    "utm_medium": medium,
                    "utm_campaign": campaign,
                    "utm_content": "",
                    "utm_term": "",
                    "device": device,
                    "views": views,
                }
                for (path, lang, referrer, source, medium, campaign, device), views in counts.items()
            ]
            connection.execute(PageViewDay.__table__.insert(), rows)
            rows_written += len(rows)
            leads = []
            for i in range(int(per_day * 0.003)):
                path, lang = rng.choices(paths, path_weights)[0]
                referrer, source, medium, campaign = rng.choices(SOURCES, source_weights)[0]
                leads.append(
                    {
                        "form": "ebook",
                        "lang": lang,
                        "name": "Martin",
                        "firstname": "Camille",
                        "phone": "+33 1 23 45 67 89",
                        "company": "Banque",
                        "email": f"lead.{offset}.{i}@example.test",
                        "idempotency_key": uuid.uuid4().hex,
                        "created_at": datetime(day.year, day.month, day.day, 12, tzinfo=UTC),
                        "landing_page": path,
                        "referrer": referrer,
                        "utm_source": source,
                        "utm_medium": medium,
                        "utm_campaign": campaign,
                    }
                )
            if leads:
                connection.execute(Lead.__table__.insert(), leads)
                leads_written += len(leads)
    with engine.begin() as connection:
        audience.rebuild_rollups(connection)  # the per-page and per-source sums the view reads
        connection.exec_driver_sql("ANALYZE")
    return rows_written, leads_written


def _median_ms(action, runs: int) -> float:
    action()  # warm the caches and the connection pool once
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _cases(months: int):
    from marketing_site.services import console

    today = datetime.now(UTC).date()
    month = console.TrafficQuery.parse({})
    everything = console.TrafficQuery("page", today - timedelta(days=months * 30), today)

    def page_load():  # what ConsoleState.load computes for the traffic view and the charts
        console.traffic_rows(month)
        console.chart_and_funnel()

    cases = [("page load: traffic (30 days, by page), charts, funnel", page_load)]
    for by in ("page", "campaign", "source", "language"):
        q = console.TrafficQuery(by, month.first, month.last)
        cases.append((f"traffic by {by}, last 30 days", lambda q=q: console.traffic_rows(q)))
    for by in ("page", "campaign", "source"):
        q = console.TrafficQuery(by, everything.first, everything.last)
        cases.append((f"traffic by {by}, {months} months", lambda q=q: console.traffic_rows(q)))
    cases.append(("views and leads per week, funnel (26 weeks)", console.chart_and_funnel))
    return cases


def _burst(count: int) -> tuple[float, int, int]:
    """Beacons per second through the real route (in process), rows written, views counted."""
    import asyncio

    import httpx2
    from sqlalchemy import func, select

    from marketing_site import routes, settings
    from marketing_site.api import api_app
    from marketing_site.db import new_session
    from marketing_site.db.audience import PageViewDay
    from marketing_site.services import audience

    os.environ["AUDIENCE_FLUSH_SECONDS"] = "1"
    os.environ["AUDIENCE_RATE_LIMIT_PER_MINUTE"] = str(count * 10)
    settings.get_settings.cache_clear()
    audience._limiter.cache_clear()
    paths = routes.public_paths()[:10]
    ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
    bodies = [
        json.dumps({"path": paths[i % 10], "lang": "fr", "referrer": "", "device": "desktop", "utm_campaign": "burst"})
        for i in range(count)
    ]

    async def run() -> float:
        transport = httpx2.ASGITransport(app=api_app())
        async with httpx2.AsyncClient(transport=transport, base_url="http://bench") as client:
            start = time.perf_counter()
            answers = await asyncio.gather(
                *(
                    client.post(
                        "/api/v1/audience", content=body, headers={"content-type": "text/plain", "user-agent": ua}
                    )
                    for body in bodies
                )
            )
            elapsed = time.perf_counter() - start
        assert all(a.status_code == 204 for a in answers), {a.status_code for a in answers}
        return elapsed

    elapsed = asyncio.run(run())
    time.sleep(3)  # a flush the timer started may still be writing
    audience.BUFFER.flush()
    with new_session() as session:
        rows, views = session.execute(
            select(func.count(), func.sum(PageViewDay.views)).where(PageViewDay.utm_campaign == "burst")
        ).one()
    return count / elapsed, rows, int(views or 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--views-per-month", type=int, default=1_000_000)
    parser.add_argument("--months", type=int, default=13)
    parser.add_argument("--database-url", help="a PostgreSQL server URL (default: SQLite in a temporary folder)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--beacons", type=int, default=5000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        if args.database_url:
            url = pg_database(args.database_url, "bench_traffic", create=True)
        else:
            url = f"sqlite:///{Path(folder) / 'bench-traffic.db'}"
        use_database(url)
        start = time.perf_counter()
        rows, leads = _seed(args.views_per_month, args.months)
        print(
            f"seeded {args.months} months of {args.views_per_month:,} views a month: {rows:,} daily totals,"
            f" {leads:,} leads, in {time.perf_counter() - start:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        results = [(label, _median_ms(action, args.runs)) for label, action in _cases(args.months)]
        rate, burst_rows, burst_views = _burst(args.beacons)
        from marketing_site import db

        db.get_engine().dispose()
        if args.database_url:
            pg_database(args.database_url, "bench_traffic", create=False)
    engine = "PostgreSQL" if args.database_url else "SQLite"
    width = max(len(label) for label, _ in results)
    print(f"traffic view server time, {engine}, {rows:,} daily totals, median of {args.runs} (ms)")
    for label, ms in results:
        print(f"{label:{width}}  {ms:>8.1f}")
    print(
        f"beacon burst: {args.beacons} beacons at {rate:,.0f}/s (in process, one worker);"
        f" {burst_views} views counted in {burst_rows} row(s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
