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

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import random
import re
import sqlite3
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any
from urllib.parse import unquote, urlsplit

from sqlalchemy import case, false, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import col

from marketing_site import metrics, routes
from marketing_site.db import new_session, refused_content
from marketing_site.db.audience import DIMENSIONS, HOST_MAX, ROLLUPS, UTM_MAX, PagePathDay, PageViewDay, VisitSourceDay
from marketing_site.db.leads import ATTRIBUTION, Lead
from marketing_site.services.contact_patterns import TEXT_PATTERN, is_text
from marketing_site.services.rate_limit import (
    DailyQuota,
    RateLimiter,
    RedisDailyQuota,
    RedisRateLimiter,
    make_daily_quota,
    make_rate_limiter,
)
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


@lru_cache(maxsize=1)
def _text_rule() -> re.Pattern[str]:
    # The contact fields' one character rule: no control characters, no bidirectional
    # controls, something visible.
    return re.compile(TEXT_PATTERN)


def clean_tag(value: Any) -> str:
    """A UTM tag as typed in the campaign's link, held to the contact fields' character rule
    (services.contact_patterns.TEXT_PATTERN) and cleaned as they are (trimmed, tabs as spaces, NFC), at
    most 100 characters; "" for anything else (a tag is dropped, never repaired)."""
    if not isinstance(value, str) or not _text_rule().fullmatch(value) or not is_text(value):
        return ""
    tag = unicodedata.normalize("NFC", value.replace("\t", " ").strip(" \u00a0\u202f"))
    return tag if len(tag) <= UTM_MAX else ""


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
    combination): a burst of a thousand views of one page is one row update.

    A batch the database refuses for a moment (a deadlock, a serialisation failure, SQLite's
    "database is locked") is written again after a short back-off; a batch that still cannot
    be written is kept for the next flush (up to KEPT_COMBINATIONS_MAX combinations), so views
    are lost only when the database stays away that long, or when the process dies."""

    def __init__(self) -> None:
        self._counts: Counter[tuple[date, View]] = Counter()
        self._lock = threading.Lock()
        # One flush at a time in a worker (the timer's and the shutdown's): a batch taken out
        # of the buffer is written or put back before the next one is taken.
        self._flushing = threading.Lock()
        self._timer: threading.Timer | None = None

    def add(self, view: View, day: date | None = None) -> None:
        delay = get_settings().audience_flush_seconds
        with self._lock:
            self._counts[(day or _today(), view)] += 1
            if delay > 0:
                self._schedule(delay)
        if delay <= 0:
            self.flush()

    def _schedule(self, delay: float) -> None:
        # Called with self._lock held.
        if self._timer is None:
            self._timer = threading.Timer(delay, self.flush)
            self._timer.daemon = True
            self._timer.start()

    def pending(self) -> int:
        with self._lock:
            return sum(self._counts.values())

    def flush(self) -> int:
        """Add the counted views to the daily totals; returns how many views were written."""
        with self._flushing:
            with self._lock:
                counts, self._counts = self._counts, Counter()
                self._timer = None
            if not counts:
                return 0
            written, left = _write_isolating(counts)
            if left:  # the database is away: keep the counts, never fail the visitor's page
                self._keep(left)
            return written

    def _keep(self, counts: Counter[tuple[date, View]]) -> None:
        """Put an unwritten batch back in front of what arrived meanwhile, within the bound."""
        with self._lock:
            merged = counts + self._counts
            if len(merged) > KEPT_COMBINATIONS_MAX:
                # Combinations beyond the bound are dropped, the newest first: an outage this long
                # loses views, said in the log at each flush.
                kept = Counter(dict(list(merged.items())[:KEPT_COMBINATIONS_MAX]))
                dropped = sum(merged.values()) - sum(kept.values())
                log.error("audience: %d views dropped, the database has refused them too long", dropped)
                metrics.AUDIENCE_VIEWS_LOST.labels(reason="outage").inc(dropped)
                merged = kept
            self._counts = merged
            delay = get_settings().audience_flush_seconds
            self._schedule(delay if delay > 0 else RETRY_FLUSH_SECONDS)

    def cancel_timer(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


# Combinations a worker keeps while the database refuses its batches: a few hours of a busy
# site's distinct views (about 2,300 a day at a million views a month), a few MB at most.
KEPT_COMBINATIONS_MAX = 50_000
# A worker that writes each view at once (AUDIENCE_FLUSH_SECONDS=0) tries a refused batch again
# this long after.
RETRY_FLUSH_SECONDS = 5.0
# A batch refused for a moment is written again after these pauses (seconds; with jitter, so
# that two workers that collided do not collide again).
RETRY_PAUSES = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6)
# PostgreSQL's SQLSTATEs of a transaction that can simply run again: deadlock_detected,
# serialization_failure, lock_not_available.
_RETRYABLE_SQLSTATES = frozenset({"40P01", "40001", "55P03"})


def is_transient(error: BaseException) -> bool:
    """A refusal the same transaction gets past when it runs again a moment later."""
    original = getattr(error, "orig", None) or error
    if getattr(original, "sqlstate", None) in _RETRYABLE_SQLSTATES:
        return True
    # SQLite's busy timeout ran out while another worker held the write lock.
    return isinstance(original, sqlite3.OperationalError) and "database is locked" in str(original)


def _write_isolating(counts: Counter[tuple[date, View]]) -> tuple[int, Counter[tuple[date, View]]]:
    """Write a batch: (views written, views to keep for a later flush).

    A part of the batch the database refuses for the values it holds (`db.refused_content`: a
    character it cannot store) is split in two and written again, down to the one combination it
    refuses, which is dropped, logged and counted: one bad view never holds back the others (a
    lone surrogate once stopped a worker's page views until it restarted). When the database
    cannot be reached, or fails in a way this cannot tell, what is not written yet is kept."""
    written = 0
    parts = [list(counts.items())]
    while parts:
        part = parts.pop()
        try:
            _write_with_retries(dict(part))
        except Exception as error:
            if not refused_content(error):
                left = Counter(dict(part))
                for other in parts:
                    left.update(dict(other))
                log.exception("audience: %d views not written yet, kept for the next flush", sum(left.values()))
                return written, left
            if len(part) == 1:
                views = part[0][1]
                log.error(
                    "audience: %d views dropped, the database refuses their values (%s)", views, type(error).__name__
                )
                metrics.AUDIENCE_VIEWS_LOST.labels(reason="refused").inc(views)
                continue
            middle = len(part) // 2
            parts += [part[middle:], part[:middle]]
        else:
            written += sum(views for _, views in part)
    return written, Counter()


def _write_with_retries(counts: Mapping[tuple[date, View], int]) -> None:
    for pause in (*RETRY_PAUSES, None):
        try:
            add_views(counts)
            return
        except Exception as error:
            if pause is None or not is_transient(error):
                raise
            log.warning("audience: batch refused (%s), written again in %.2f s", type(error).__name__, pause)
            time.sleep(pause * (1 + random.random()))  # jitter: two workers that collided part


def add_views(counts: Mapping[tuple[date, View], int]) -> None:
    """Add views to the daily totals and to each of their sums (ROLLUPS), in one transaction:
    insert a combination's row or add to its count. A day keeps AUDIENCE_SOURCES_PER_DAY
    sources at most (`_within_daily_sources`)."""
    with new_session() as session, session.begin():
        dialect = session.get_bind().dialect.name
        counts, sources = _within_daily_sources(session, counts)
        # Every row in one order, the same in every worker (day, then the view's fields): two
        # batches that touch the same rows take their locks in the same order and cannot
        # deadlock (in arrival order they did, and the batch was lost: issue 33).
        ordered = sorted(counts.items(), key=lambda item: (item[0][0], dataclasses.astuple(item[0][1])))
        totals = [({"day": day, **dataclasses.asdict(view)}, n) for (day, view), n in ordered]
        batches: list[tuple[Any, list[str], list[dict[str, Any]]]] = [
            (PageViewDay, list(DIMENSIONS), [{**fields, "views": n} for fields, n in totals])
        ]
        for rollup, keys in ROLLUPS:
            summed: Counter[tuple[Any, ...]] = Counter()
            for fields, n in totals:
                summed[tuple(fields[key] for key in keys)] += n
            batches.append(
                (
                    rollup,
                    list(keys),
                    [{**dict(zip(keys, values, strict=True)), "views": n} for values, n in sorted(summed.items())],
                )
            )
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        for table, unique_keys, batch in batches:
            for start in range(0, len(batch), 500):
                statement = insert(table).values(batch[start : start + 500])
                statement = statement.on_conflict_do_update(
                    index_elements=unique_keys, set_={"views": table.views + statement.excluded.views}
                )
                session.execute(statement)
    _known_sources.update(sources)  # committed: now in the database
    for key in [key for key in _known_sources if key not in sources]:
        _known_sources.pop(key, None)  # only the days being written are kept


# ----------------------------------------------------------------------------- the day's sources

# A visit's source: the referring host and the five tags, as one combination. A day's daily
# totals keep AUDIENCE_SOURCES_PER_DAY of them; the views of any further source that day are
# counted under OTHER in every one of these columns (no tag or host a beacon carries is ever
# that: clean_host refuses the brackets, and a tag spelt so lands in the same row, as it should).
SOURCE_FIELDS = ("referrer", *UTM_TAGS)
OTHER = "(other)"
_OTHER_SOURCE = (OTHER,) * len(SOURCE_FIELDS)
_DIRECT = ("",) * len(SOURCE_FIELDS)  # no referrer, no tag: always kept, it is not a source
# Any constant of the site's own: the key of PostgreSQL's transaction lock on the day's sources.
_SOURCES_LOCK = 0x6E6572656F5F7376  # "nereo_sv"


def _source(view: View) -> tuple[str, ...]:
    return tuple(getattr(view, field) for field in SOURCE_FIELDS)


# Sources of a day this process knows to be in a database (a subset of them), by database and
# day: a flush whose sources are all known, or that finds its day full, needs no look at the
# day's rows.
_known_sources: dict[tuple[str, date], set[tuple[str, ...]]] = {}


def _within_daily_sources(
    session: Any, counts: Mapping[tuple[date, View], int]
) -> tuple[Counter[tuple[date, View]], dict[tuple[str, date], set[tuple[str, ...]]]]:
    """The views, each day's sources beyond AUDIENCE_SOURCES_PER_DAY counted under OTHER, and
    each day's sources once they are written.

    Runs first in the transaction that writes them, holding the write lock (every worker and
    machine writes in turn), so that the day's count is exact. A source already in the day's
    totals keeps its row; new ones are taken in order of their views in this batch. The day's
    rows are read only when the batch brings a source this process does not know and the day
    may still have room (what it knows is in the database: a known full day is full)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_advisory_xact_lock(_SOURCES_LOCK)))
    else:  # SQLite: a write first takes the database's write lock for the whole transaction
        session.execute(update(PageViewDay).where(false()).values(views=PageViewDay.views))
    bound = get_settings().audience_sources_per_day
    views_of: Counter[tuple[date, tuple[str, ...]]] = Counter()
    for (day, view), n in counts.items():
        views_of[(day, _source(view))] += n
    known: dict[date, set[tuple[str, ...]]] = {}
    columns = [getattr(PageViewDay, field) for field in SOURCE_FIELDS]
    database = session.get_bind().url.render_as_string(hide_password=True)
    for day in {day for day, _ in counts}:
        known[day] = set(_known_sources.get((database, day), ()))
        new = {source for d, source in views_of if d == day} - known[day] - {_DIRECT, _OTHER_SOURCE}
        if new and len(known[day]) < bound:
            rows = session.execute(select(*columns).where(col(PageViewDay.day) == day).distinct()).all()
            known[day] = {tuple(row) for row in rows} - {_DIRECT, _OTHER_SOURCE}
    admitted: dict[tuple[date, tuple[str, ...]], bool] = {}
    for day, source in sorted(views_of, key=lambda item: (-views_of[item], item[0], item[1])):
        if source in (_DIRECT, _OTHER_SOURCE) or source in known[day]:
            admitted[(day, source)] = True
        elif len(known[day]) < bound:
            known[day].add(source)
            admitted[(day, source)] = True
        else:
            admitted[(day, source)] = False
    kept: Counter[tuple[date, View]] = Counter()
    folded = dict(zip(SOURCE_FIELDS, _OTHER_SOURCE, strict=True))
    for (day, view), n in counts.items():
        kept[(day, view if admitted[(day, _source(view))] else dataclasses.replace(view, **folded))] += n
    return kept, {(database, day): sources for day, sources in known.items()}


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


@contextlib.asynccontextmanager
async def written_at_shutdown() -> AsyncIterator[None]:
    """Lifespan task of the backend: a worker that stops writes the views it holds.

    The lifespan's end is what runs when Granian stops a worker (SIGTERM from systemd, a
    rolling restart, `./serve` stopped); `atexit` does not run in Granian's workers, and a
    stop lost every buffered view (issue 33: 300 of 300)."""
    yield
    BUFFER.cancel_timer()
    written = await asyncio.to_thread(BUFFER.flush)
    log.info("audience.written_at_shutdown views=%d", written)
    BUFFER.cancel_timer()  # a refused batch scheduled a later try this process will not make
    if lost := BUFFER.pending():
        log.error("audience.lost_at_shutdown views=%d: the database refused them until the stop", lost)
        metrics.AUDIENCE_VIEWS_LOST.labels(reason="shutdown").inc(lost)


@lru_cache(maxsize=1)
def _limiter() -> RateLimiter | RedisRateLimiter:
    return make_rate_limiter(get_settings().audience_rate_limit_per_minute, 60)


# ----------------------------------------------------------------------------- what one address adds


@lru_cache(maxsize=1)
def _quotas() -> tuple[DailyQuota | RedisDailyQuota, DailyQuota | RedisDailyQuota]:
    settings = get_settings()
    return (
        make_daily_quota(settings.audience_sources_per_address, "audience-sources"),
        make_daily_quota(settings.audience_combinations_per_address, "audience-combinations"),
    )


def _digest(parts: tuple[str, ...]) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:24]


def within_address_quota(view: View, client_ip: str, day: date) -> View | None:
    """The view as this address may still add it today, or None.

    One address, in a UTC day: AUDIENCE_SOURCES_PER_ADDRESS new sources (a referring host and its
    tags), after which its views of any further source are counted under OTHER, so it cannot take
    the day's AUDIENCE_SOURCES_PER_DAY from the real campaigns; and AUDIENCE_COMBINATIONS_PER_ADDRESS
    distinct combinations (page, language, source, device: one row of the daily totals each),
    after which a view of a new combination is not counted (its known ones still are). So one
    address adds that many rows a day at most, whatever its beacons carry (issue 39: 49,700 a
    day). The quotas are kept by a keyed hash of the address and the day (never the address,
    and no link from one day to the next), in Redis when set."""
    from marketing_site.services.sessions import id_hash

    today = day.isoformat()
    client = id_hash(f"audience-client:{today}:{client_ip}")[:24]
    sources, combinations = _quotas()
    source = _source(view)
    if source not in (_DIRECT, _OTHER_SOURCE) and not sources.admit(client, _digest(source), today):
        view = dataclasses.replace(view, **dict(zip(SOURCE_FIELDS, _OTHER_SOURCE, strict=True)))
    if not combinations.admit(client, _digest(dataclasses.astuple(view)), today):
        return None
    return view


@dataclasses.dataclass(frozen=True)
class BeaconResult:
    status: str  # counted | ignored (robot, not a page) | rate_limited
    retry_after: int = 0


def record(payload: Any, client_ip: str, user_agent: str | None) -> BeaconResult:
    """Count one page view, unless a robot sent it, the address sends too many, or it would be
    a new combination past the address's quota of the day (`within_address_quota`)."""
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
    today = _today()
    view = within_address_quota(view, client_ip, today)
    if view is None:
        metrics.AUDIENCE_BEACONS.labels(outcome="over_quota").inc()
        return BeaconResult("ignored")
    BUFFER.add(view, today)
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


# Rows the traffic view and `ops traffic` list before the one row that sums all the others.
TRAFFIC_TOP = 50
TRAFFIC_TOP_MAX = 1000


@dataclasses.dataclass(frozen=True)
class TrafficRow:
    key: str  # the page, campaign, source or language ("" = none: direct, untagged; OTHER = the rest)
    views: int
    leads: int

    @property
    def conversion(self) -> float | None:
        """Leads per 100 views; None without views."""
        return round(100 * self.leads / self.views, 2) if self.views else None

    @property
    def is_other(self) -> bool:
        """The row of everything not listed: the keys past the top ones, and the views of the
        sources counted under OTHER (AUDIENCE_SOURCES_PER_DAY)."""
        return self.key == OTHER


def traffic(by: str, first: date, last: date, top: int = TRAFFIC_TOP) -> list[TrafficRow]:
    """Views and leads per page, campaign, source or language from `first` to `last` (UTC
    days, inclusive): the `top` most viewed first, then one OTHER row summing the rest, so the
    list is bounded whatever the visitors sent. A lead counts for its visit's landing page,
    campaign, source and language; one grouped query on each table."""
    if by not in GROUPINGS:
        raise ValueError(f"by must be one of {', '.join(GROUPINGS)}")
    if not 1 <= top <= TRAFFIC_TOP_MAX:
        raise ValueError(f"top must be 1 to {TRAFFIC_TOP_MAX}")
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
    rows.sort(key=lambda row: (-row.views, -row.leads, row.key))
    named = [row for row in rows if not row.is_other]
    rest = named[top:] + [row for row in rows if row.is_other]
    shown = named[:top]
    if rest:
        shown.append(TrafficRow(OTHER, sum(row.views for row in rest), sum(row.leads for row in rest)))
    return shown


def views_per_day(first: date, paths: frozenset[str] | None = None) -> dict[date, int]:
    """Views per UTC day since `first` (of `paths` only, when given)."""
    with new_session() as session:
        statement = select(col(PagePathDay.day), func.sum(PagePathDay.views)).where(col(PagePathDay.day) >= first)
        if paths is not None:
            statement = statement.where(col(PagePathDay.path).in_(sorted(paths)))
        rows = session.execute(statement.group_by(col(PagePathDay.day))).all()
    return {value if isinstance(value, date) else date.fromisoformat(str(value)[:10]): int(n) for value, n in rows}
