"""Rules of the operators' console (/console): who may use it, and every query and action.

Access is decided here and only here, from the server-side session found through the
HttpOnly cookie (never from anything the page sends): a live session whose roles claim
(OIDC_ROLES_CLAIM) contains CONSOLE_ROLE. The state (`state.console`) and the export
routes (`api.console`) call `access_of` on every event and request.

Leads are filtered, sorted, counted and paged by the database (indexes in
`db.console`); exports use the operator commands' CSV writer (`services.lead_export`).
Data-subject requests go through `HOLDERS`, one entry per table that can hold a person's
data: a new table plugs in with one entry. Every table of the models is in HOLDERS, KEPT or
NOT_PERSONAL (tests/test_subject_data.py fails on one in none of them).
"""

from __future__ import annotations

import dataclasses
import io
import json
import logging
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import delete, exists, func, or_, select
from sqlalchemy.orm import Session
from sqlmodel import col

from marketing_site import routes
from marketing_site.content.lead_forms import DEMO_FORM, DOWNLOAD_FORMS, FORM_KEYS
from marketing_site.db import new_session, rows_changed
from marketing_site.db.auth import AuthSession
from marketing_site.db.booking import Booking
from marketing_site.db.console import ConsoleAudit
from marketing_site.db.leads import Lead, OutboxMessage, utcnow
from marketing_site.logs import new_reference
from marketing_site.services import audience, lead_export, leads, mail, sessions
from marketing_site.services.health import health_report, mail_needing_attention
from marketing_site.settings import get_settings

logger = logging.getLogger(__name__)

# ------------------------------------------------------------------------- access

Access = Literal["anonymous", "forbidden", "granted"]


@dataclasses.dataclass(frozen=True)
class Operator:
    """A user with the console role, as the session says."""

    sub: str
    email: str


def access_of(cookie_header: str | None) -> tuple[Access, Operator | None]:
    """Anonymous (no live session), forbidden (no console role) or granted, with the operator."""
    record = sessions.load_session(sessions.read_cookies(cookie_header or "").get(sessions.SESSION_COOKIE))
    if record is None:
        return "anonymous", None
    settings = get_settings()
    claims = sessions.user_of(record)
    if settings.console_role not in sessions.roles_of(claims, settings.oidc_roles_claim):
        return "forbidden", None
    return "granted", Operator(sub=record.sub, email=str(claims.get("email") or ""))


# ------------------------------------------------------------------------- leads

SORTS: dict[str, Any] = {
    "created_at": Lead.created_at,
    "name": Lead.name,
    "email": Lead.email,
    "company": Lead.company,
    "form": Lead.form,
}
MAIL_STATUSES = ("pending", "sending", "sent", "failed", "none")
FLAGGED_CHOICES = ("yes", "no")
PAGE_SIZE = 25
SEARCH_MAX = 200
TAG_MAX = 100


class FilterError(ValueError):
    """A filter value the console refuses; `field` names it (message key `console.error.<field>`)."""

    def __init__(self, field: str):
        super().__init__(field)
        self.field = field


def _day(value: str, field: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as error:
        raise FilterError(field) from error


@dataclasses.dataclass(frozen=True)
class LeadFilter:
    """What the leads table shows: search, filters, sort and page (all validated)."""

    search: str = ""
    form: str = ""
    lang: str = ""
    date_from: str = ""
    date_to: str = ""
    mail_status: str = ""
    flagged: str = ""
    # Where the visit came from: its utm_campaign, and its source (utm_source, else the referrer).
    campaign: str = ""
    source: str = ""
    sort: str = "created_at"
    descending: bool = True
    page: int = 1

    @classmethod
    def parse(cls, values: Mapping[str, Any]) -> LeadFilter:
        """From the page's form or an export URL's query; raises FilterError on bad input."""

        def text(name: str) -> str:
            value = values.get(name, "")
            return value.strip() if isinstance(value, str) else ""

        search = text("search")
        if len(search) > SEARCH_MAX or any(ord(c) < 32 for c in search):
            raise FilterError("search")
        campaign, source = text("campaign"), text("source")
        for name, value in (("campaign", campaign), ("source", source)):
            if len(value) > TAG_MAX or any(ord(c) < 32 for c in value):
                raise FilterError(name)
        form, lang, status, flagged, sort = (
            text("form"),
            text("lang"),
            text("mail_status"),
            text("flagged"),
            text("sort") or "created_at",
        )
        if form and form not in SERIES:
            raise FilterError("form")
        if lang and lang not in routes.LANGS:
            raise FilterError("lang")
        if status and status not in MAIL_STATUSES:
            raise FilterError("mail_status")
        if flagged and flagged not in FLAGGED_CHOICES:
            raise FilterError("flagged")
        if sort not in SORTS:
            raise FilterError("sort")
        start, end = _day(text("date_from"), "date_from"), _day(text("date_to"), "date_to")
        if start and end and start > end:
            raise FilterError("date_to")
        try:
            page = max(1, int(values.get("page") or 1))
        except (TypeError, ValueError) as error:
            raise FilterError("page") from error
        descending = values.get("descending", True)
        if isinstance(descending, str):
            descending = descending not in ("0", "false", "")
        return cls(
            search=search,
            form=form,
            lang=lang,
            date_from=start.isoformat() if start else "",
            date_to=end.isoformat() if end else "",
            mail_status=status,
            flagged=flagged,
            campaign=campaign,
            source=source,
            sort=sort,
            descending=bool(descending),
            page=page,
        )

    def query(self) -> dict[str, str]:
        """The filter as URL query parameters (the export link), defaults left out."""
        fields = dataclasses.asdict(self)
        fields.pop("page")
        fields["descending"] = "1" if self.descending else "0"
        return {k: str(v) for k, v in fields.items() if v not in ("", None)}


def _like(term: str, anywhere: bool = True) -> str:
    """A LIKE pattern (escape `\\`) of text holding `term` (`anywhere`), or starting with it."""
    escaped = term.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%" if anywhere else f"{escaped}%"


def _mail_statuses(session: Session, lead_ids: list[int]) -> dict[int, str]:
    """The latest outbox status of each lead of one page (one query for the page's ids)."""
    statuses: dict[int, str] = {}
    rows = session.execute(
        select(col(OutboxMessage.lead_id), col(OutboxMessage.status))
        .where(col(OutboxMessage.lead_id).in_(lead_ids))
        .order_by(col(OutboxMessage.id))
    )
    for lead_id, status in rows:
        if lead_id is not None:  # every outbox row of these leads has one
            statuses[lead_id] = status  # the latest wins
    return statuses


def _conditions(f: LeadFilter) -> list:
    conditions: list = []
    if f.search:
        pattern = _like(f.search)
        conditions.append(
            or_(
                *(
                    func.lower(column).like(pattern, escape="\\")
                    for column in (Lead.name, Lead.firstname, Lead.email, Lead.company)
                )
            )
        )
    if f.form:
        conditions.append(Lead.form == f.form)
    if f.lang:
        conditions.append(Lead.lang == f.lang)
    if f.date_from:
        conditions.append(Lead.created_at >= datetime.fromisoformat(f.date_from).replace(tzinfo=UTC))
    if f.date_to:
        end = datetime.fromisoformat(f.date_to).replace(tzinfo=UTC) + timedelta(days=1)
        conditions.append(Lead.created_at < end)
    if f.mail_status == "none":
        conditions.append(~exists().where(col(OutboxMessage.lead_id) == col(Lead.id)))
    elif f.mail_status:
        # IN over the outbox's status index: a few thousand failed mails, not a probe per lead.
        with_status = select(col(OutboxMessage.lead_id)).where(col(OutboxMessage.status) == f.mail_status)
        conditions.append(col(Lead.id).in_(with_status))
    # Lead.flags lists the anti-bot signals of a lead (services.leads); empty means not flagged.
    if f.flagged == "yes":
        conditions.append(Lead.flags != "")
    elif f.flagged == "no":
        conditions.append(Lead.flags == "")
    if f.campaign:
        conditions.append(Lead.utm_campaign == f.campaign)
    if f.source:
        conditions.append(audience.source_of(Lead) == f.source)
    return conditions


def _ordered(statement, f: LeadFilter):
    column = SORTS[f.sort]
    tie = col(Lead.id).desc() if f.descending else col(Lead.id).asc()
    return statement.order_by(column.desc() if f.descending else column.asc(), tie)


def _row(lead: Lead, mail_status: str | None) -> dict[str, str]:
    return {
        "id": str(lead.id),
        "created_at": lead.created_at.strftime("%Y-%m-%d %H:%M"),
        "form": lead.form,
        "lang": lead.lang,
        # Every form field (services.leads.FormFields); an optional one left empty, or one the
        # lead's form does not ask, is empty.
        **{name: getattr(lead, name) or "" for name in leads.FIELD_NAMES},
        "mail_status": mail_status or "none",
        "flagged": lead.flags,
        "landing_page": lead.landing_page,
        "source": lead.utm_source or lead.referrer,
        "campaign": lead.utm_campaign,
    }


@dataclasses.dataclass(frozen=True)
class LeadPage:
    rows: list[dict[str, str]]
    total: int
    page: int
    pages: int


def lead_page(f: LeadFilter, size: int = PAGE_SIZE) -> LeadPage:
    """One page of leads (count, sort and offset in the database)."""
    conditions = _conditions(f)
    with new_session() as session:
        total = session.execute(select(func.count()).select_from(Lead).where(*conditions)).scalar_one()
        pages = max(1, -(-total // size))
        page = min(f.page, pages)
        statement = _ordered(select(Lead).where(*conditions), f)
        leads = session.scalars(statement.offset((page - 1) * size).limit(size)).all()
        statuses = _mail_statuses(session, [lead.id for lead in leads])
        rows = [_row(lead, statuses.get(lead.id)) for lead in leads]
    return LeadPage(rows=rows, total=total, page=page, pages=pages)


def export_leads_csv(f: LeadFilter) -> tuple[str, int]:
    """Every lead of the filter as CSV (the operator commands' writer: formulas neutralised)."""
    out = io.StringIO()
    with new_session() as session:
        leads = session.scalars(_ordered(select(Lead).where(*_conditions(f)), f).execution_options(yield_per=1000))
        count = lead_export.write_leads_csv(out, leads)
    return out.getvalue(), count


# ------------------------------------------------------------------------- chart and funnel

CHART_WEEKS = 26  # six months


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def chart_start(now: datetime | None = None) -> datetime:
    """Midnight (UTC) of the Monday that starts the chart's first week."""
    first = _monday((now or utcnow()).date()) - timedelta(weeks=CHART_WEEKS - 1)
    return datetime(first.year, first.month, first.day, tzinfo=UTC)


def _week_of(value: Any) -> date:
    return _monday(value if isinstance(value, date) else date.fromisoformat(str(value)[:10]))


def _utc_day(session: Session, moment: Any):
    if session.get_bind().dialect.name == "postgresql":
        moment = func.timezone("UTC", moment)  # weeks in UTC, whatever the server's TimeZone
    return func.date(moment)


def _weekly_counts(start: datetime) -> list[tuple[date, str, str, int]]:
    """(Monday, form, language, leads) since `start`: one pass over the (created_at, form,
    lang) index, shared by the chart and the funnel."""
    with new_session() as session:
        day = _utc_day(session, Lead.created_at)
        rows = session.execute(
            select(day, col(Lead.form), col(Lead.lang), func.count())
            .where(col(Lead.created_at) >= start)
            .group_by(day, col(Lead.form), col(Lead.lang))
        ).all()
    return [(_week_of(value), form, lang, count) for value, form, lang, count in rows]


def _weekly_bookings(start: datetime) -> dict[date, int]:
    """Demo bookings made per week since `start` (cancelled ones too: the demand was there)."""
    with new_session() as session:
        day = _utc_day(session, Booking.created_at)
        rows = session.execute(select(day, func.count()).where(col(Booking.created_at) >= start).group_by(day)).all()
    weeks: dict[date, int] = {}
    for value, count in rows:
        weeks[_week_of(value)] = weeks.get(_week_of(value), 0) + count
    return weeks


def _thank_you_paths() -> set[str]:
    """The thank-you pages the download forms send visitors to, those that exist (the English
    forms go to /en/merci, a 404 kept from the original: no page, no view counted)."""
    served = set(routes.all_paths())
    return {path for spec in DOWNLOAD_FORMS.values() for path in spec["thanks"].values() if path in served}


# The chart's series: one per document, then the demo bookings (`booking` table).
SERIES = FORM_KEYS


def chart_and_funnel(now: datetime | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Leads per week (Monday) per document, demo bookings, page views and all leads per week,
    over the last six months, every week present; and the funnel over the same weeks: document
    downloads -> views of the thank-you pages (measured, services.audience) -> demo bookings. A
    booking's own lead (form `demo`) is not a download."""
    start = chart_start(now)
    weeks = [start.date() + timedelta(weeks=i) for i in range(CHART_WEEKS)]
    table: dict[date, dict[str, Any]] = {
        week: {"week": week.isoformat(), **dict.fromkeys(SERIES, 0), "views": 0, "leads": 0} for week in weeks
    }
    downloads = 0
    for week, form, _lang, count in _weekly_counts(start):
        if week in table:
            table[week]["leads"] += count
            if form in DOWNLOAD_FORMS:
                table[week][form] += count
        downloads += count if form in DOWNLOAD_FORMS else 0
    for day, views in audience.views_per_day(start.date()).items():
        if _monday(day) in table:
            table[_monday(day)]["views"] += views
    thanked = sum(audience.views_per_day(start.date(), frozenset(_thank_you_paths())).values())
    bookings = 0
    for week, count in _weekly_bookings(start).items():
        if week in table:
            table[week][DEMO_FORM] += count
        bookings += count
    steps = [
        {"step": "downloads", "value": downloads},
        {"step": "thank_you", "value": thanked},
        {"step": "bookings", "value": bookings},
    ]
    return [table[week] for week in weeks], steps


# ------------------------------------------------------------------------- traffic

TRAFFIC_DAYS = 30  # the traffic view's default period: the last 30 days


@dataclasses.dataclass(frozen=True)
class TrafficQuery:
    """The traffic view's choice: the grouping and the period (UTC days, inclusive)."""

    by: str
    first: date
    last: date

    @classmethod
    def parse(cls, values: Mapping[str, Any], today: date | None = None) -> TrafficQuery:
        today = today or utcnow().date()
        by = values.get("by") or "page"
        if by not in audience.GROUPINGS:
            raise FilterError("by")
        first = _day(str(values.get("from") or ""), "traffic_from") or today - timedelta(days=TRAFFIC_DAYS - 1)
        last = _day(str(values.get("to") or ""), "traffic_to") or today
        if first > last:
            raise FilterError("traffic_to")
        return cls(by=by, first=first, last=last)


def traffic_rows(q: TrafficQuery) -> list[dict[str, str]]:
    """The traffic view's table: per page, campaign, source or language, views, leads and
    conversion (leads per 100 views); the top rows, then "other" (audience.traffic)."""
    return [
        {
            "key": row.key,
            "other": "1" if row.is_other else "",
            "views": str(row.views),
            "leads": str(row.leads),
            "conversion": "" if row.conversion is None else f"{row.conversion:.2f} %",
        }
        for row in audience.traffic(q.by, q.first, q.last)
    ]


# ------------------------------------------------------------------------- mail


MAIL_COUNTS = ("pending", "stuck", "retrying", "failed", "sent", "oldest_pending_seconds")


def _minute(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return (moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)).strftime("%Y-%m-%d %H:%M")


def mail_overview(limit: int = 50) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """The full health report (GET /api/v1/health shows its status only) and the messages that
    need an operator: failed, stuck (claimed past their lease), late (waiting too long) or
    retrying after a failed attempt, the most recently failed first, each with its state and
    when it last failed."""
    now = utcnow()
    rows = [
        {
            "id": str(m.id),
            "lead_id": "" if m.lead_id is None else str(m.lead_id),
            "subject": m.subject,
            "state": state,
            "attempts": str(m.attempts),
            "last_error": m.last_error or "",
            "last_failure_at": _minute(m.last_failure_at),
            "created_at": _minute(m.created_at),
        }
        for m, state in mail_needing_attention(limit, now)
    ]
    return health_report(now), rows


def retry_mail(message_id: int | None) -> int:
    """One message (not already sent) or, with None, every failed one: due again now."""
    return mail.retry([message_id] if message_id is not None else [], message_id is None)


# ------------------------------------------------------------------------- data subjects

EMAIL_MAX = 320


class SubjectError(ValueError):
    """Not an email address the console can look up."""


def normalise_email(email: str) -> str:
    """The address as intake stores it (services.leads: stripped, NFC, the domain readable and
    lower-case), lower-case: what the console shows and the audit log hashes, the same for every
    way of writing one address. Raises SubjectError when it is not an address."""
    value = (email or "").strip()
    if not value or len(value) > EMAIL_MAX or "@" not in value or any(c.isspace() or ord(c) < 32 for c in value):
        raise SubjectError(email)
    forms = leads.email_lookup_forms(value)
    # The readable form: the one without an IDNA label when there are two.
    return min(forms, key=lambda form: ("xn--" in form, form))


def subject_key(email: str) -> str:
    """What the audit log keeps of the subject: a keyed hash of the email (SESSION_SECRET)."""
    return sessions.id_hash("data-subject:" + email)[:32]


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _record(model: Any, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
    return {k: _plain(v) for k, v in model.model_dump().items() if k not in exclude}


# A person is found by every form of their address (services.leads.email_lookup_forms: case,
# NFC/NFD, punycode or Unicode domain), each compared lower-case with the stored text.
Forms = frozenset[str]


def _with_stored_writings(session: Session, forms: Forms) -> Forms:
    """`forms` and every address the holders store that is the person's in another writing that
    the forms of the request cannot name (`x@faß.example` stored, `x@fass.example` asked for:
    IDNA 2003 maps ß to ss, and nothing maps it back): the stored addresses with the same local
    part, kept when their forms meet the request's (leads.email_lookup_forms)."""
    locals_ = {form.rpartition("@")[0] for form in forms if "@" in form}
    found = set(forms)
    for column in (Lead.email, OutboxMessage.reply_to, OutboxMessage.mail_to):
        lowered = func.lower(column)
        for local in locals_:
            stored = session.scalars(
                select(lowered).where(lowered.like(_like(local + "@", anywhere=False), escape="\\")).distinct()
            )
            found.update(value for value in stored if forms & leads.email_lookup_forms(value))
    return frozenset(found)


def _leads_of(forms: Forms):
    return select(col(Lead.id)).where(func.lower(col(Lead.email)).in_(forms))


def _find_leads(session: Session, forms: Forms) -> list[dict[str, Any]]:
    return [_record(lead) for lead in session.scalars(select(Lead).where(func.lower(Lead.email).in_(forms)))]


def _erase_leads(session: Session, forms: Forms) -> int:
    return rows_changed(session.execute(delete(Lead).where(func.lower(Lead.email).in_(forms))))


def _outbox_condition(forms: Forms):
    # Headers carry the domain in IDNA (To of the visitor's mail, Reply-To of the sales one).
    return or_(
        col(OutboxMessage.lead_id).in_(_leads_of(forms)),
        func.lower(OutboxMessage.reply_to).in_(forms),
        func.lower(OutboxMessage.mail_to).in_(forms),
    )


def _find_bookings(session: Session, forms: Forms) -> list[dict[str, Any]]:
    return [_record(b) for b in session.scalars(select(Booking).where(col(Booking.lead_id).in_(_leads_of(forms))))]


def _erase_bookings(session: Session, forms: Forms) -> int:
    # A demo still to come is cancelled (slot freed, sales told with METHOD:CANCEL) before it goes.
    from marketing_site.services import booking

    return booking.erase_bookings(session, _leads_of(forms))


def _find_outbox(session: Session, forms: Forms) -> list[dict[str, Any]]:
    return [_record(m) for m in session.scalars(select(OutboxMessage).where(_outbox_condition(forms)))]


def _erase_outbox(session: Session, forms: Forms) -> int:
    return rows_changed(session.execute(delete(OutboxMessage).where(_outbox_condition(forms))))


def _sessions_of(session: Session, forms: Forms) -> Iterator[AuthSession]:
    # Claims are JSON text; login sessions are few (one per logged-in browser, one day). The
    # provider writes the address as it likes (a punycode or Unicode domain, NFD, any case): each
    # claim is normalised as intake normalises, then compared.
    for record in session.scalars(select(AuthSession)):
        claims = json.loads(record.user_json)
        written = {str(claims.get("email") or ""), record.sub}
        if any(forms & leads.email_lookup_forms(value) for value in written if "@" in value):
            yield record


def _find_sessions(session: Session, forms: Forms) -> list[dict[str, Any]]:
    # The claims the provider gave, and the session's dates; never its tokens or id hash.
    return [
        {"claims": json.loads(r.user_json), "created_at": r.created_at, "expires_at": r.expires_at}
        for r in _sessions_of(session, forms)
    ]


def _erase_sessions(session: Session, forms: Forms) -> int:
    hashes = [r.id_hash for r in _sessions_of(session, forms)]
    if not hashes:
        return 0
    return rows_changed(session.execute(delete(AuthSession).where(col(AuthSession.id_hash).in_(hashes))))


@dataclasses.dataclass(frozen=True)
class Holder:
    """A table that can hold a person's data: how to find and erase it by the forms of an email."""

    name: str
    find: Callable[[Session, Forms], list[dict[str, Any]]]
    erase: Callable[[Session, Forms], int]


# Every table that holds a person's data, named by its table: lookup, download and erasure all
# go through this list. Erased in this order, in one transaction: rows that point at others go
# first (the booking's cancellation notice to sales names no one, so the outbox entry after it
# leaves it alone). tests/test_subject_data.py derives the personal tables from the models (an
# email column, or a foreign key to such a table) and fails on one missing here or in KEPT; it
# also fails on a table of the models that is in none of HOLDERS, KEPT and NOT_PERSONAL.
HOLDERS: list[Holder] = [
    Holder("booking", _find_bookings, _erase_bookings),
    Holder("outbox_message", _find_outbox, _erase_outbox),
    Holder("lead", _find_leads, _erase_leads),
    Holder("auth_session", _find_sessions, _erase_sessions),
]

# Tables with an email column that are not a data subject's data, and why they are kept.
KEPT: dict[str, str] = {
    "console_audit": "the operators' accountability record: their own address; subjects only as keyed hashes",
}

# Tables that hold nothing a data-subject request could find by email, and why. With HOLDERS and
# KEPT they name every table of the models: a new table needs a decision in one of the three.
NOT_PERSONAL: dict[str, str] = {
    "auth_login_transaction": (
        "a login in flight, before the provider says who logs in: random values, the path to return "
        "to and an HMAC of a browser cookie, no email or claims; deleted when used or after a day"
    ),
    "page_view_day": (
        "daily view totals per page, language, referring host, campaign tags and device class: no row "
        "per visit and nothing that names or follows a visitor"
    ),
    "page_path_day": "daily view totals per page and language: no row per visit, no visitor",
    "visit_source_day": "daily view totals per referring host and campaign: no row per visit, no visitor",
}


class ErasureFailed(RuntimeError):
    """The erasure was rolled back; `reference` is in the server log and the audit log."""

    def __init__(self, reference: str):
        super().__init__(reference)
        self.reference = reference


def record_audit(session: Session, operator: Operator, action: str, subject: str, counts: dict[str, int]) -> None:
    session.add(
        ConsoleAudit(
            actor_sub=operator.sub,
            actor_email=operator.email,
            action=action,
            subject=subject,
            counts_json=json.dumps(counts, sort_keys=True),
        )
    )


def subject_data(operator: Operator, email: str, action: Literal["lookup", "download"]) -> dict[str, list]:
    """Everything held for `email`, per holder; the lookup or download is audited."""
    email = normalise_email(email)
    with new_session() as session, session.begin():
        forms = _with_stored_writings(session, leads.email_lookup_forms(email))
        found = {holder.name: holder.find(session, forms) for holder in HOLDERS}
        record_audit(session, operator, action, subject_key(email), {k: len(v) for k, v in found.items()})
    return found


class ErasurePartial(RuntimeError):
    """The erasure was written, yet a lookup in the same transaction still found some of the
    person (`remaining`, rows per holder): it is said, logged and audited, never reported done."""

    def __init__(self, erased: dict[str, int], remaining: dict[str, int]):
        super().__init__(remaining)
        self.erased, self.remaining = erased, remaining


def erase_subject(operator: Operator, email: str) -> dict[str, int]:
    """Erase everything held for `email` (any form of it) and write the audit entry, in one transaction.

    On any failure nothing is erased: the transaction rolls back, the failure is logged with a
    reference and audited (in a transaction of its own), and ErasureFailed carries the reference.
    After erasing, every holder looks again within the transaction; whatever it still finds (a
    holder whose erasure misses a row its lookup sees, a lead arriving meanwhile) makes the
    erasure partial: audited as `erase-partial` and raised as ErasurePartial.
    """
    email = normalise_email(email)
    subject = subject_key(email)
    try:
        with new_session() as session, session.begin():
            forms = _with_stored_writings(session, leads.email_lookup_forms(email))
            counts = {holder.name: holder.erase(session, forms) for holder in HOLDERS}
            remaining = {holder.name: len(holder.find(session, forms)) for holder in HOLDERS}
            remaining = {name: count for name, count in remaining.items() if count}
            record_audit(
                session, operator, "erase-partial" if remaining else "erase", subject, {**counts, **_left(remaining)}
            )
    except Exception as error:
        reference = new_reference()
        logger.exception("data-subject erasure failed ref=%s by %s, rolled back", reference, operator.sub)
        try:
            with new_session() as session, session.begin():
                record_audit(session, operator, "erase-failed", subject, {"ref": reference})  # type: ignore[dict-item]  # the audit detail is JSON: a str value is fine
        except Exception:
            logger.exception("audit entry of the failed erasure ref=%s not written", reference)
        raise ErasureFailed(reference) from error
    if counts.get("booking"):
        from marketing_site.services import mail

        mail.wake_worker()  # the sales notice of a cancelled demo
    if remaining:
        logger.error("data-subject erasure by %s partial: %s erased, %s left", operator.sub, counts, remaining)
        raise ErasurePartial(counts, remaining)
    logger.info("data-subject erasure by %s: %s", operator.sub, counts)
    return counts


def _left(remaining: dict[str, int]) -> dict[str, int]:
    return {f"{name} left": count for name, count in remaining.items()}


def audit_export(operator: Operator, f: LeadFilter, count: int) -> None:
    """An export of leads, with its filter (the search words left out: they may be a name)."""
    described = {**f.query(), **({"search": "…"} if f.search else {})}
    with new_session() as session, session.begin():
        record_audit(session, operator, "export", json.dumps(described, sort_keys=True), {"lead": count})


def audit_entries(limit: int = 50) -> list[dict[str, str]]:
    with new_session() as session:
        entries = session.scalars(select(ConsoleAudit).order_by(col(ConsoleAudit.id).desc()).limit(limit)).all()
        return [
            {
                "id": str(e.id),
                "created_at": e.created_at.strftime("%Y-%m-%d %H:%M:%S"),
                "actor": e.actor_email or e.actor_sub,
                "action": e.action,
                "subject": e.subject,
                "counts": ", ".join(f"{k} {v}" for k, v in json.loads(e.counts_json).items()),
            }
            for e in entries
        ]
