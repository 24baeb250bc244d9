"""Server time of the console's leads page at 1,000 and 100,000 leads (a benchmark: it prints).

    .venv/bin/python scripts/bench_console.py [--sizes 1000 100000] [--database-url URL] [--runs 5]

Each size gets a fresh migrated database (SQLite in a temporary folder by default; with
--database-url, a PostgreSQL server URL, a fresh database `bench_console_<n>` is created
there and dropped afterwards), seeded with leads spread over the last 8 months across the
five forms and both languages, each with its outbox mail (90 % sent, 6 % failed, 4 % pending).
It then times, as the console's event handlers run them (services.console), the median of
--runs: the whole page load (leads page, chart, funnel, mail, audit log) and each leads
query the table offers.
"""

from __future__ import annotations

import argparse
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

FORMS = ("ebook", "white_paper", "portal_documentation", "kyc_documentation", "subscription_documentation")
NAMES = ("Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau")
COMPANIES = ("Banque", "Gestion", "Patrimoine", "Family Office", "Capital", "Partners", "Conseil")


def _seed(count: int) -> None:
    from marketing_site.db import get_engine
    from marketing_site.db.leads import Lead, OutboxMessage

    rng = random.Random(count)
    now = datetime.now(UTC)
    engine = get_engine()
    batch = 5000
    next_id = 1
    with engine.begin() as connection:
        for start in range(0, count, batch):
            leads, mails = [], []
            for i in range(start, min(count, start + batch)):
                name = rng.choice(NAMES)
                company = f"{rng.choice(COMPANIES)} {rng.randrange(5000)}"
                created = now - timedelta(seconds=rng.randrange(240 * 86400))
                leads.append(
                    {
                        "id": next_id,
                        "form": rng.choice(FORMS),
                        "lang": "fr" if rng.random() < 0.7 else "en",
                        "name": name,
                        "firstname": "Camille",
                        "phone": "+33 1 23 45 67 89",
                        "company": company,
                        "email": f"{name.lower()}.{i}@example.test",
                        "idempotency_key": uuid.uuid4().hex,
                        "created_at": created,
                    }
                )
                roll = rng.random()
                status = "sent" if roll < 0.90 else "failed" if roll < 0.96 else "pending"
                mails.append(
                    {
                        "lead_id": next_id,
                        "message_id": f"<{uuid.uuid4().hex}@bench>",
                        "mail_from": "site@example.test",
                        "mail_to": "leads@example.test",
                        "reply_to": leads[-1]["email"],
                        "subject": "Lead",
                        "body": "…",
                        "status": status,
                        "attempts": 1,
                        "next_attempt_at": created,
                        "created_at": created,
                        "last_error": "550 refused" if status == "failed" else None,
                    }
                )
                next_id += 1
            connection.execute(Lead.__table__.insert(), leads)
            connection.execute(OutboxMessage.__table__.insert(), mails)
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.exec_driver_sql("ANALYZE")
    else:
        with engine.begin() as connection:
            connection.exec_driver_sql("ANALYZE")


def _median_ms(action, runs: int) -> float:
    action()  # warm the caches and the connection pool once
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _cases():
    from marketing_site.services import console

    def f(**values):
        return console.LeadFilter.parse(values)

    today = datetime.now(UTC).date()
    month_ago = (today - timedelta(days=30)).isoformat()

    def page_load():  # what ConsoleState.load computes for the first page
        console.lead_page(f())
        console.chart_and_funnel()
        console.mail_overview()
        console.audit_entries()

    return [
        ("page load: leads page 1, chart, funnel, mail, audit", page_load),
        ("leads page 1 (newest first)", lambda: console.lead_page(f())),
        ("search 'dubois' (name, email, company)", lambda: console.lead_page(f(search="dubois"))),
        (
            "filter document + language + last 30 days",
            lambda: console.lead_page(f(form="white_paper", lang="en", date_from=month_ago)),
        ),
        ("filter mail status failed", lambda: console.lead_page(f(mail_status="failed"))),
        ("sort by company, page 2", lambda: console.lead_page(f(sort="company", descending="0", page=2))),
        ("last page (newest first)", lambda: console.lead_page(f(page=10**9))),
        ("chart and funnel (one pass)", console.chart_and_funnel),
        ("CSV export of 'white_paper' + 'fr'", lambda: console.export_leads_csv(f(form="white_paper", lang="fr"))),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 100_000])
    parser.add_argument("--database-url", help="a PostgreSQL server URL (default: SQLite in a temporary folder)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    results: dict[str, dict[int, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            if args.database_url:
                url = pg_database(args.database_url, f"bench_console_{size}", create=True)
            else:
                url = f"sqlite:///{Path(folder) / f'bench-{size}.db'}"
            use_database(url)
            start = time.perf_counter()
            _seed(size)
            print(f"seeded {size} leads in {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
            for label, action in _cases():
                results.setdefault(label, {})[size] = _median_ms(action, args.runs)
            from marketing_site import db

            db.get_engine().dispose()
            if args.database_url:
                pg_database(args.database_url, f"bench_console_{size}", create=False)
    engine = "PostgreSQL" if args.database_url else "SQLite"
    width = max(len(label) for label in results)
    print(f"console server time, {engine}, median of {args.runs} (ms)")
    print(f"{'':{width}}  " + "  ".join(f"{size:>10,}" for size in args.sizes))
    for label, by_size in results.items():
        print(f"{label:{width}}  " + "  ".join(f"{by_size[size]:>10.1f}" for size in args.sizes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
