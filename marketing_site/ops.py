"""Operator commands for leads and the mail outbox.

    python -m marketing_site.ops leads [--form ebook] [--limit 50]
    python -m marketing_site.ops export [--output leads.csv]
    python -m marketing_site.ops outbox [--status failed | --attention]
    python -m marketing_site.ops retry (--id N ... | --failed)
    python -m marketing_site.ops purge [--months N] [--dry-run]
    python -m marketing_site.ops bookings
    python -m marketing_site.ops subject EMAIL
    python -m marketing_site.ops erase EMAIL --yes
    python -m marketing_site.ops traffic [--by page|campaign|source|language] [--days N] [--top N]
    python -m marketing_site.ops health
    python -m marketing_site.ops drain | undrain

They use the database of DATABASE_URL, like the site (drain and undrain only DRAIN_FILE).
"""

from __future__ import annotations

import argparse
import csv
import getpass
import json
import sys
from collections.abc import Sequence
from datetime import date, timedelta

from sqlmodel import col, select

from marketing_site.db import new_session
from marketing_site.db.leads import Lead, OutboxMessage, utcnow
from marketing_site.services import mail
from marketing_site.services.lead_export import csv_cell, write_leads_csv


def list_leads(form: str | None, limit: int) -> list[Lead]:
    with new_session() as session:
        query = select(Lead).order_by(col(Lead.id).desc()).limit(limit)
        if form:
            query = query.where(Lead.form == form)
        return list(session.exec(query).all())


def export_leads(out) -> int:
    with new_session() as session:
        return write_leads_csv(out, session.exec(select(Lead).order_by(Lead.id)))


def write_traffic_csv(out, by: str, days: int, today: date | None = None, top: int | None = None) -> int:
    """Views and leads of the last `days` days (today included) per page, campaign, source or
    language, as CSV: the grouping column, `views`, `leads`; the `top` rows (50), then one
    `(other)` row summing the rest."""
    from marketing_site.services.audience import TRAFFIC_TOP, traffic

    last = today or utcnow().date()
    rows = traffic(by, last - timedelta(days=days - 1), last, top=top or TRAFFIC_TOP)
    writer = csv.writer(out)
    writer.writerow((by, "views", "leads"))
    for row in rows:
        writer.writerow((csv_cell(row.key), row.views, row.leads))
    return len(rows)


def list_outbox(status: str | None) -> list[OutboxMessage]:
    with new_session() as session:
        query = select(OutboxMessage).order_by(OutboxMessage.id)
        if status:
            query = query.where(OutboxMessage.status == status)
        return list(session.exec(query).all())


def print_outbox(status: str | None, attention: bool) -> None:
    """The outbox's counts and when mail last failed, then the messages (or those that need an
    operator: failed, stuck, late, retrying), each with its state and its last failure."""
    from marketing_site.services.health import check_database, mail_needing_attention, mail_state

    now = utcnow()
    _, figures = check_database(now)
    print(
        "outbox: "
        + "  ".join(
            f"{key}={figures.get(key)}"
            for key in ("pending", "stuck", "retrying", "failed", "sent", "oldest_pending_seconds", "status")
        )
        + f"  last_failure={figures.get('last_failure_at') or 'never'}"
    )
    rows = (
        mail_needing_attention(limit=1000, now=now)
        if attention
        else [(m, mail_state(m, now)) for m in list_outbox(status)]
    )
    for m, state in rows:
        failed = f"  last failed {m.last_failure_at:%Y-%m-%d %H:%M} UTC" if m.last_failure_at else ""
        print(
            f"{m.id:>6}  lead {m.lead_id or '-':>6}  {state:<8} attempts={m.attempts}{failed}  {m.subject}"
            f"  {m.last_error or ''}"
        )


def data_subject(command: str, email: str, confirmed: bool) -> int:
    """The console's data-subject access and erasure from a shell; the operator in the audit log
    is the OS user (a data-protection officer without a browser or an identity-provider role)."""
    from marketing_site.services import console

    operator = console.Operator(sub=f"os:{getpass.getuser()}", email="")
    try:
        if command == "subject":
            found = console.subject_data(operator, email, "download")
            document = {"email": console.normalise_email(email), "data": found}
            print(json.dumps(document, ensure_ascii=False, indent=2))
            return 0
        if not confirmed:
            print("refused: add --yes to erase everything held for this address", file=sys.stderr)
            return 2
        counts = console.erase_subject(operator, email)
    except console.SubjectError:
        print(f"refused: not an email address: {email!r}", file=sys.stderr)
        return 2
    except console.ErasureFailed as failure:
        print(f"erasure failed, nothing erased (reference {failure.reference}, in the log)", file=sys.stderr)
        return 1
    except console.ErasurePartial as partial:
        print(json.dumps({"erased": partial.erased, "still_held": partial.remaining}, indent=2))
        print("erasure partial: some of this person is still held (see still_held); run it again", file=sys.stderr)
        return 1
    print(json.dumps({"erased": counts}, indent=2))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m marketing_site.ops", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    leads = commands.add_parser("leads", help="list the latest leads")
    leads.add_argument("--form")
    leads.add_argument("--limit", type=int, default=50)
    export = commands.add_parser("export", help="export every lead as CSV")
    export.add_argument("--output", help="file to write (default: standard output)")
    outbox = commands.add_parser("outbox", help="show the mail outbox: counts, then the messages")
    which = outbox.add_mutually_exclusive_group()
    which.add_argument("--status", choices=("pending", "sending", "sent", "failed"))
    which.add_argument(
        "--attention", action="store_true", help="only messages failed, stuck, late or retrying, latest failure first"
    )
    again = commands.add_parser("retry", help="send failed mail again")
    group = again.add_mutually_exclusive_group(required=True)
    group.add_argument("--id", type=int, nargs="+", default=[])
    group.add_argument("--failed", action="store_true", help="every failed message")
    purge = commands.add_parser(
        "purge", help="delete the leads of prospects with no contact for N months (LEAD_RETENTION_MONTHS)"
    )
    purge.add_argument("--months", type=int, help="retention period (default: LEAD_RETENTION_MONTHS, 36)")
    purge.add_argument("--dry-run", action="store_true", help="count only, delete nothing")
    commands.add_parser("bookings", help="list the upcoming demo bookings (built-in scheduler)")
    subject = commands.add_parser("subject", help="print everything held for an email as JSON (audited)")
    subject.add_argument("email")
    erase = commands.add_parser("erase", help="erase everything held for an email, like the console (audited)")
    erase.add_argument("email")
    erase.add_argument("--yes", action="store_true", help="confirm the erasure (required)")
    traffic = commands.add_parser("traffic", help="page views and leads of the last N days as CSV")
    traffic.add_argument("--by", choices=("page", "campaign", "source", "language"), default="page")
    traffic.add_argument("--days", type=int, default=30, help="the last N days, today included (default 30)")
    traffic.add_argument(
        "--top", type=int, default=50, help="rows listed before the one (other) row summing the rest (default 50)"
    )
    commands.add_parser(
        "health", help="the health report with its mail figures (the public check shows the status only)"
    )
    commands.add_parser(
        "drain", help="take this machine out of the load balancer: its readiness answers 503 draining (DRAIN_FILE)"
    )
    commands.add_parser("undrain", help="end the drain: readiness answers again what the machine can do")
    args = parser.parse_args(argv)

    if args.command == "leads":
        for lead in list_leads(args.form, args.limit):
            flags = f"  [flagged: {lead.flags}]" if lead.flags else ""
            print(
                f"{lead.id:>6}  {lead.created_at:%Y-%m-%d %H:%M}  {lead.form:<26} {lead.lang}  "
                f"{lead.firstname} {lead.name} <{lead.email}>  {lead.company}{flags}"
            )
    elif args.command == "export":
        if args.output:
            with open(args.output, "w", newline="", encoding="utf-8") as out:
                count = export_leads(out)
            print(f"{count} leads written to {args.output}", file=sys.stderr)
        else:
            export_leads(sys.stdout)
    elif args.command in ("subject", "erase"):
        return data_subject(args.command, args.email, args.yes if args.command == "erase" else False)
    elif args.command == "outbox":
        print_outbox(args.status, args.attention)
    elif args.command == "bookings":
        from marketing_site.services.booking import upcoming

        for booking, lead in upcoming():
            print(
                f"{booking.id:>6}  {booking.starts_at:%Y-%m-%d %H:%M} UTC  {booking.lang}  {booking.visitor_timezone:<22}"
                f" {lead.firstname} {lead.name} <{lead.email}>  {lead.company}  {lead.phone}"
            )
    elif args.command == "traffic":
        from marketing_site.services.audience import TRAFFIC_TOP_MAX

        if args.days < 1:
            parser.error("--days must be at least 1")
        if not 1 <= args.top <= TRAFFIC_TOP_MAX:
            parser.error(f"--top must be 1 to {TRAFFIC_TOP_MAX}")
        write_traffic_csv(sys.stdout, args.by, args.days, top=args.top)
    elif args.command == "health":
        from marketing_site.services.health import health_report

        report = health_report()
        print(json.dumps(report, indent=2))
        return 0 if report["status"] != "down" else 1
    elif args.command in ("drain", "undrain"):
        from marketing_site.services.health import set_draining

        path = set_draining(args.command == "drain")
        state = "draining: readiness answers 503" if args.command == "drain" else "not draining"
        print(f"{state} ({path})")
    elif args.command == "purge":
        from marketing_site.services.retention import purge_leads
        from marketing_site.settings import get_settings

        months = args.months or get_settings().lead_retention_months
        result = purge_leads(months, dry_run=args.dry_run)
        verb = "would delete" if args.dry_run else "deleted"
        print(
            f"{verb} {result.leads} lead(s) and {result.mails} mail(s) of {result.prospects} prospect(s)"
            f" with no contact since {result.cutoff:%Y-%m-%d} ({months} months),"
            f" demo bookings included: {result.bookings};"
            f" {verb} {result.view_days} daily audience total(s) before {result.views_cutoff:%Y-%m-%d}"
        )
    else:
        print(f"{mail.retry(args.id, args.failed)} message(s) queued again")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
