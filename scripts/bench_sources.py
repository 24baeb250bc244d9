"""What the day's source bound (AUDIENCE_SOURCES_PER_DAY, services.audience) costs a flush, on
SQLite (a benchmark: it prints medians of 15 runs, in ms; compare the figures within one run).

    .venv/bin/python scripts/bench_sources.py

Seeds today with 20 sources, then 200 (the default bound: the day is full), each on every page
and device class, and times one flush of 50 combinations (add_views) with the bound and without
it, then the bound alone: when the worker knows the day's sources (the usual case) and when it
knows none (its first flush of the day, or a new source while the day has room).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    folder = Path(tempfile.mkdtemp())
    os.environ.update(DATABASE_URL=f"sqlite:///{folder / 'bench.db'}", ENV_FILE="", AUDIENCE_SOURCES_PER_DAY="200")
    from servers import migrated_sqlite_copy
    from sqlalchemy import func, select

    from marketing_site import routes
    from marketing_site.db import new_session
    from marketing_site.db.audience import PageViewDay
    from marketing_site.services import audience

    migrated_sqlite_copy(folder / "bench.db")
    paths = sorted(routes.public_paths())
    today = datetime.now(UTC).date()

    def view(path: str, n: int, device: str = "desktop") -> audience.View:
        tags = {"utm_source": f"s{n}", "utm_medium": "m", "utm_campaign": f"c{n}", "utm_content": "", "utm_term": ""}
        return audience.View(path=path, lang="fr", referrer="", device=device, **tags)

    def flush() -> dict:
        return {(today, view(paths[i % len(paths)], i % 10)): 5 for i in range(50)}

    def timed(run) -> float:
        spent = []
        for _ in range(15):
            began = time.perf_counter()
            run()
            spent.append((time.perf_counter() - began) * 1000)
        return statistics.median(spent)

    bound = audience._within_daily_sources

    def bound_alone() -> None:
        with new_session() as session, session.begin():
            bound(session, flush())

    def bound_alone_cold() -> None:
        audience._known_sources.clear()
        bound_alone()

    seeded = 0
    for sources in (20, 200):
        views = {(today, view(p, n, d)): 1 for n in range(seeded, sources) for p in paths for d in audience.DEVICES}
        audience.add_views(views)
        seeded = sources
        with new_session() as session:
            rows = session.execute(select(func.count()).select_from(PageViewDay)).scalar()
        with_bound = timed(lambda: audience.add_views(flush()))
        audience._within_daily_sources = lambda session, counts: (Counter(counts), {})  # type: ignore[assignment]  # the bound switched off to time the flush without it
        without = timed(lambda: audience.add_views(flush()))
        audience._within_daily_sources = bound
        audience.add_views(flush())
        print(
            f"{sources:>4} sources today ({rows:>6} rows of page_view_day): a flush of 50 combinations "
            f"{with_bound:6.1f} ms with the bound, {without:6.1f} ms without; the bound alone "
            f"{timed(bound_alone):5.1f} ms (sources known), {timed(bound_alone_cold):5.1f} ms (none known)"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
