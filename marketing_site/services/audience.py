"""First-party, cookie-less audience measurement: page-view beacons in, daily totals out.

The browser (`assets/site_ui.jsx`, `PageFrame`) posts one small beacon per page view to
`POST /api/v1/audience` (api.audience): the path, the page's language, the referring site's
host, the visit's UTM tags and a device class from the viewport width. Nothing identifies
the visitor: no cookie or storage key, and the server keeps neither the address (only the
rate limiter sees it, in memory) nor the user agent (read once, to leave robots out).

`record` counts a view in the worker's memory (`ViewBuffer`); the buffer adds its counts
to the daily totals (db.audience.PageViewDay) in one upsert per combination, every
AUDIENCE_FLUSH_SECONDS, so no per-view row is ever written. Totals older than
AUDIENCE_RETENTION_MONTHS are deleted with the leads (services.retention).

The same cleaning (`clean_attribution`) applies to the attribution a lead or booking form
sends (landing page, referrer host, UTM tags): it is stored on the lead and the booking.
"""

from __future__ import annotations

import atexit
import dataclasses
import logging
import re
import threading
from collections import Counter
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any
from urllib.parse import unquote, urlsplit

from sqlalchemy import case, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import col

from marketing_site import metrics, routes
from marketing_site.db import new_session
from marketing_site.db.audience import DIMENSIONS, HOST_MAX, ROLLUPS, UTM_MAX, PagePathDay, PageViewDay, VisitSourceDay
from marketing_site.db.leads import ATTRIBUTION, Lead
from marketing_site.services.rate_limit import RateLimiter, RedisRateLimiter, make_rate_limiter
from marketing_site.settings import get_settings

log = logging.getLogger(__name__)

DEVICES = ("mobile", "tablet", "desktop")
UTM_TAGS = ("utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term")
# Robots that run JavaScript still announce themselves in their user agent (search engines'
# renderers, link previews, audit tools, headless browsers); the ones that do not run it never
# send a beacon at all.
BOT_USER_AGENT = re.compile(
    r"bot\b|bot/|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|preview|"
    r"headless|phantomjs|lighthouse|pagespeed|gtmetrix|pingdom|uptime|monitor|python-|curl/|wget/|"
    r"httpclient|okhttp|go-http|java/|scrapy|axios/|node-fetch",
    re.IGNORECASE,
)
_HOST = re.compile(r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def is_bot(user_agent: str | None) -> bool:
    """A user agent that names a robot, or none at all (browsers always send one)."""
    return not user_agent or BOT_USER_AGENT.search(user_agent) is not None


@lru_cache(maxsize=1)
def _measured_paths() -> frozenset[str]:
    """The pages a view can be counted on: every page an anonymous visitor can stay on."""
    return frozenset(routes.public_paths())


def clean_path(value: Any) -> str:
    """A page of the site (raw or percent-encoded), or "" for anything else."""
    if not isinstance(value, str) or len(value) > 600:
        return ""
    path = unquote(value)
    return path if path in _measured_paths() else ""


def clean_host(value: Any) -> str:
    """A host name (lower case, no port), or ""; the site's own host counts as no referrer."""
    if not isinstance(value, str):
        return ""
    host = value.strip().lower().rstrip(".")
    if len(host) > HOST_MAX or not _HOST.fullmatch(host):
        return ""
    own = urlsplit(get_settings().site_url).hostname or ""
    return "" if host == own else host


def clean_tag(value: Any) -> str:
    """A UTM tag as typed in the campaign's link: trimmed, no control characters, 100 at most."""
    if not isinstance(value, str):
        return ""
    return _CONTROL.sub("", value).strip()[:UTM_MAX]


def clean_attribution(raw: Any) -> dict[str, str]:
    """Where a visit came from, as a form sends it (db.leads.ATTRIBUTION keys; "" if unknown).

    Never refuses: a value that does not fit is dropped, the lead or booking goes through."""
    raw = raw if isinstance(raw, Mapping) else {}
    return {
        "landing_page": clean_path(raw.get("landing_page")),
        "referrer": clean_host(raw.get("referrer")),
        **{tag: clean_tag(raw.get(tag)) for tag in UTM_TAGS},
    }


assert tuple(clean_attribution({})) == ATTRIBUTION  # one list of attribution columns


@dataclasses.dataclass(frozen=True)
class View:
    """What one beacon says (every field cleaned)."""

    path: str
    lang: str
    referrer: str
    utm_source: str
    utm_medium: str
    utm_campaign: str
    utm_content: str
    utm_term: str
    device: str


def parse_beacon(payload: Any) -> View | None:
    """The view a beacon describes, or None when it names no page of the site."""
    if not isinstance(payload, Mapping):
        return None
    path = clean_path(payload.get("path"))
    lang = payload.get("lang")
    device = payload.get("device")
    if not path or lang not in routes.LANGS or device not in DEVICES:
        return None
    return View(
        path=path,
        lang=lang,
        referrer=clean_host(payload.get("referrer")),
        device=device,
        **{tag: clean_tag(payload.get(tag)) for tag in UTM_TAGS},
    )


# ----------------------------------------------------------------------------- the buffer


def _today() -> date:
    return datetime.now(UTC).date()


class ViewBuffer:
    """Views counted in memory, added to the daily totals in batches (one upsert per
    combination): a burst of a thousand views of one page is one row update."""

    def __init__(self) -> None:
        self._counts: Counter[tuple[date, View]] = Counter()
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    def add(self, view: View, day: date | None = None) -> None:
        delay = get_settings().audience_flush_seconds
        with self._lock:
            self._counts[(day or _today(), view)] += 1
            if delay > 0 and self._timer is None:
                self._timer = threading.Timer(delay, self.flush)
                self._timer.daemon = True
                self._timer.start()
        if delay <= 0:
            self.flush()

    def pending(self) -> int:
        with self._lock:
            return sum(self._counts.values())

    def flush(self) -> int:
        """Add the counted views to the daily totals; returns how many views were written."""
        with self._lock:
            counts, self._counts = self._counts, Counter()
            self._timer = None
        if not counts:
            return 0
        try:
            add_views(counts)
        except Exception:  # a database outage loses these counts, never the visitor's page
            log.exception("audience: %d views not written", sum(counts.values()))
            return 0
        return sum(counts.values())


def add_views(counts: Mapping[tuple[date, View], int]) -> None:
    """Add views to the daily totals and to each of their sums (ROLLUPS), in one transaction:
    insert a combination's row or add to its count."""
    totals = [({"day": day, **dataclasses.asdict(view)}, n) for (day, view), n in counts.items()]
    batches: list[tuple[Any, list[str], list[dict[str, Any]]]] = [
        (PageViewDay, list(DIMENSIONS), [{**fields, "views": n} for fields, n in totals])
    ]
    for rollup, keys in ROLLUPS:
        summed: Counter[tuple[Any, ...]] = Counter()
        for fields, n in totals:
            summed[tuple(fields[key] for key in keys)] += n
        batches.append(
            (rollup, list(keys), [{**dict(zip(keys, values, strict=True)), "views": n} for values, n in summed.items()])
        )
    with new_session() as session, session.begin():
        dialect = session.get_bind().dialect.name
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        for table, unique_keys, batch in batches:
            for start in range(0, len(batch), 500):
                statement = insert(table).values(batch[start : start + 500])
                statement = statement.on_conflict_do_update(
                    index_elements=unique_keys, set_={"views": table.views + statement.excluded.views}
                )
                session.execute(statement)


def rebuild_rollups(connection: Any) -> None:
    """Recompute every daily sum (ROLLUPS) from the daily totals: for data written straight
    into page_view_day (the traffic benchmark's seed)."""
    for rollup, keys in ROLLUPS:
        columns = [getattr(PageViewDay, key) for key in keys]
        connection.execute(rollup.__table__.delete())
        connection.execute(
            rollup.__table__.insert().from_select(
                [*keys, "views"], select(*columns, func.sum(PageViewDay.views)).group_by(*columns)
            )
        )


BUFFER = ViewBuffer()
atexit.register(BUFFER.flush)  # a worker that stops writes what it holds


@lru_cache(maxsize=1)
def _limiter() -> RateLimiter | RedisRateLimiter:
    return make_rate_limiter(get_settings().audience_rate_limit_per_minute, 60)


@dataclasses.dataclass(frozen=True)
class BeaconResult:
    status: str  # counted | ignored (robot, not a page) | rate_limited
    retry_after: int = 0


def record(payload: Any, client_ip: str, user_agent: str | None) -> BeaconResult:
    """Count one page view, unless a robot sent it or the address sends too many."""
    if is_bot(user_agent):
        metrics.AUDIENCE_BEACONS.labels(outcome="robot").inc()
        return BeaconResult("ignored")
    wait = _limiter().hit(f"audience-ip:{client_ip}")
    if wait is not None:
        metrics.AUDIENCE_BEACONS.labels(outcome="rate_limited").inc()
        return BeaconResult("rate_limited", retry_after=max(1, int(wait + 0.999)))
    view = parse_beacon(payload)
    if view is None:
        metrics.AUDIENCE_BEACONS.labels(outcome="invalid").inc()
        return BeaconResult("ignored")
    BUFFER.add(view)
    metrics.AUDIENCE_BEACONS.labels(outcome="counted").inc()
    return BeaconResult("counted")


# ----------------------------------------------------------------------------- traffic figures

GROUPINGS = ("page", "campaign", "source", "language")


def source_of(table: Any) -> Any:
    """A visit's source: its utm_source, else the referring host ("" when direct)."""
    return case((table.utm_source != "", table.utm_source), else_=table.referrer)


def _views_key(by: str) -> tuple[Any, Any]:
    # Per page or language, the per-page sums hold the same figures in far fewer rows.
    if by == "page":
        return PagePathDay, PagePathDay.path
    if by == "language":
        return PagePathDay, PagePathDay.lang
    return VisitSourceDay, VisitSourceDay.utm_campaign if by == "campaign" else source_of(VisitSourceDay)


def _leads_key(by: str) -> Any:
    return {"page": Lead.landing_page, "campaign": Lead.utm_campaign, "source": source_of(Lead), "language": Lead.lang}[
        by
    ]


def _period(first: date, last: date) -> tuple[datetime, datetime]:
    start = datetime(first.year, first.month, first.day, tzinfo=UTC)
    return start, datetime(last.year, last.month, last.day, tzinfo=UTC) + timedelta(days=1)


@dataclasses.dataclass(frozen=True)
class TrafficRow:
    key: str  # the page, campaign, source or language ("" = none: direct, untagged)
    views: int
    leads: int

    @property
    def conversion(self) -> float | None:
        """Leads per 100 views; None without views."""
        return round(100 * self.leads / self.views, 2) if self.views else None


def traffic(by: str, first: date, last: date) -> list[TrafficRow]:
    """Views and leads per page, campaign, source or language from `first` to `last` (UTC
    days, inclusive), most viewed first. A lead counts for its visit's landing page, campaign,
    source and language; one grouped query on each table."""
    if by not in GROUPINGS:
        raise ValueError(f"by must be one of {', '.join(GROUPINGS)}")
    start, end = _period(first, last)
    (table, views_key), leads_key = _views_key(by), _leads_key(by)
    with new_session() as session:
        views = dict(
            session.execute(
                select(views_key, func.sum(table.views))
                .where(table.day >= first, table.day <= last)
                .group_by(views_key)
            ).all()
        )
        leads: dict[Any, Any] = dict(
            session.execute(
                select(leads_key, func.count())
                .where(col(Lead.created_at) >= start, col(Lead.created_at) < end)
                .group_by(leads_key)
            ).all()
        )
    keys = set(views) | set(leads)
    rows = [TrafficRow(key or "", int(views.get(key) or 0), int(leads.get(key) or 0)) for key in keys]
    return sorted(rows, key=lambda row: (-row.views, -row.leads, row.key))


def views_per_day(first: date, paths: frozenset[str] | None = None) -> dict[date, int]:
    """Views per UTC day since `first` (of `paths` only, when given)."""
    with new_session() as session:
        statement = select(col(PagePathDay.day), func.sum(PagePathDay.views)).where(col(PagePathDay.day) >= first)
        if paths is not None:
            statement = statement.where(col(PagePathDay.path).in_(sorted(paths)))
        rows = session.execute(statement.group_by(col(PagePathDay.day))).all()
    return {value if isinstance(value, date) else date.fromisoformat(str(value)[:10]): int(n) for value, n in rows}
