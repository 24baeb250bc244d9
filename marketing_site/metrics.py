"""The site's Prometheus metrics: what they are, the HTTP middleware, the exposition.

Each metric is counted where its event happens, in one line (`metrics.LEADS_REFUSED.labels(
reason="invalid").inc()`); this module imports only the settings, the route table and
prometheus-client, so that services/ and db/ may use it as they use logs.py. Docs:
docs/operations.md (what to scrape, the alerts), deploy/prometheus/ and deploy/grafana/.

Label values come from fixed sets written here or in the code that counts (reasons, outcomes,
route templates): never a path, an address, an email or anything a visitor typed, so the
number of series stays bounded whatever the traffic. HTTP requests are labelled by route
template: a Starlette route's path pattern (`/api/v1/booking/cancel`), a page of the route
table, `/assets/*`, or one label for all the rest (`<not_found>`, `<redirect>`, `<other>`).

With several Granian workers every metric lives in the files of the process group
(metrics_storage.py) and the scrape sums them, whichever worker answers. Gauges of things a
worker holds (open websockets, database connections in use) count live workers only.
Figures read from the database (the outbox) are computed by the worker that answers the
scrape, at most every OUTBOX_CACHE_SECONDS (api/metrics.py).
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.registry import Collector

from marketing_site import metrics_storage, routes

PREFIX = "site"
# The classic text format, which every Prometheus reads (Debian 12's 2.42 too); the site's names
# need nothing newer.
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4

# ----------------------------------------------------------------------------- HTTP and websocket

HTTP_REQUESTS = Counter(
    f"{PREFIX}_http_requests",
    "HTTP requests answered, by route template, method and status.",
    ["route", "method", "status"],
)
HTTP_DURATION = Histogram(
    f"{PREFIX}_http_request_duration_seconds",
    "Time from a request's arrival to the end of its response, by route template and method.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
WEBSOCKETS_OPEN = Gauge(
    f"{PREFIX}_websocket_connections", "State websockets open now (Reflex's /_event).", multiprocess_mode="livesum"
)
HYDRATIONS = Counter(f"{PREFIX}_hydrations", "Page states hydrated over the websocket (Reflex's hydrate events).")
EVENT_HANDLER_FAILURES = Counter(
    f"{PREFIX}_event_handler_failures", "Event handlers that raised (each told to the visitor with a reference)."
)
REQUEST_FAILURES = Counter(f"{PREFIX}_request_failures", "HTTP requests that raised (answered 500 with a reference).")
REPORT_LIMITS = ("per_fingerprint", "per_client")
ERROR_REPORTS_SUPPRESSED = Counter(
    f"{PREFIX}_error_reports_suppressed",
    "Failures logged but not sent as error reports (SENTRY_DSN): over a limit of reports a minute.",
    ["limit"],
)
MALFORMED_FRAME_REASONS = (
    "undecodable",
    "no_token",
    "not_an_object",
    "unknown_handler",
    "payload_not_an_object",
    "router_data_not_an_object",
    "payload_does_not_fit",
)
WEBSOCKET_MALFORMED_FRAMES = Counter(
    f"{PREFIX}_websocket_malformed_frames",
    "Websocket frames refused before Reflex handles them (logged once a minute per client), by reason.",
    ["reason"],
)

# ----------------------------------------------------------------------------- leads, bookings

LEADS_ACCEPTED = Counter(f"{PREFIX}_leads_accepted", "Leads stored (a resent duplicate is not counted).")
LEADS_DUPLICATE = Counter(f"{PREFIX}_leads_duplicate", "Lead submissions answered with an earlier lead (a retry).")
LEAD_REFUSAL_REASONS = ("invalid", "rate_limited_ip", "rate_limited_email")
LEADS_REFUSED = Counter(f"{PREFIX}_leads_refused", "Lead submissions refused, by reason.", ["reason"])
BOOKING_OUTCOMES = ("booked", "duplicate", "invalid", "taken", "rate_limited", "over_budget")
BOOKINGS = Counter(f"{PREFIX}_bookings", "Demo booking requests, by outcome.", ["outcome"])
BOOKING_CANCELLATIONS = Counter(f"{PREFIX}_booking_cancellations", "Demo bookings cancelled by their link.")
BOOKINGS_ABOVE_DAILY_FIGURE = Counter(
    f"{PREFIX}_bookings_above_daily_figure",
    "Bookings made while the site already had BOOKING_ALERT_PER_DAY in the last 24 hours (an alert, not a refusal).",
)

# ----------------------------------------------------------------------------- mail outbox

SEND_OUTCOMES = ("sent", "retry", "failed")
OUTBOX_SEND_ATTEMPTS = Counter(
    f"{PREFIX}_outbox_send_attempts",
    "Outbox delivery attempts, by outcome: sent, retry (a temporary failure) or failed (given up).",
    ["outcome"],
)

# ----------------------------------------------------------------------------- audience, limits

BEACON_OUTCOMES = ("counted", "robot", "invalid", "rate_limited", "over_quota")
AUDIENCE_BEACONS = Counter(f"{PREFIX}_audience_beacons", "Page-view beacons, by outcome.", ["outcome"])
# Counted views that never reach the daily totals: a combination the database refuses, the bound
# of an outage passed, a stop while the database was away.
VIEW_LOSS_REASONS = ("refused", "outage", "shutdown")
AUDIENCE_VIEWS_LOST = Counter(
    f"{PREFIX}_audience_views_lost", "Counted page views never written to the daily totals, by reason.", ["reason"]
)

# The key families of the site's rate limiters (the part of a key before ':') and their names.
RATE_LIMITS = {
    "ip": "lead_per_ip",
    "email": "lead_per_email",
    "booking-ip": "booking_per_ip",
    "login-ip": "login_per_ip",
    "audience-ip": "audience_per_ip",
    "reset-ip": "password_reset_per_ip",
    "reset-email": "password_reset_per_email",
    "client-report": "client_report_per_ip",
}
RATE_LIMIT_REFUSALS = Counter(f"{PREFIX}_rate_limit_refusals", "Requests refused by a rate limit, by limit.", ["limit"])


def rate_limit_name(key: str) -> str:
    """The limit a rate-limiter key belongs to (its family), never the key (an address, an email)."""
    return RATE_LIMITS.get(key.split(":", 1)[0], "other")


# ----------------------------------------------------------------------------- login

LOGIN_OUTCOMES = (
    "success",
    "silent_declined",
    "provider_error",
    "invalid_state",
    "login_failed",
    "token_failed",
    "client_rejected",
    "issuer_mismatch",
)
OIDC_LOGINS = Counter(
    f"{PREFIX}_oidc_logins", "Returns from the identity provider (/auth/callback), by outcome.", ["outcome"]
)
REFRESH_OUTCOMES = ("refreshed", "ended", "failed")
OIDC_REFRESHES = Counter(f"{PREFIX}_oidc_refreshes", "Access-token refreshes, by outcome.", ["outcome"])
# Routes that send the browser to the provider: when it does not answer (services/
# provider_reachability.py) the visitor stays on the site (Login and Logout: its "login is
# unavailable" page; the silent check: back on the page).
PROVIDER_ROUTES = ("login", "silent", "logout")
OIDC_PROVIDER_UNREACHABLE = Counter(
    f"{PREFIX}_oidc_provider_unreachable",
    "Visitors kept on the site because the identity provider did not answer, by route.",
    ["route"],
)

# ----------------------------------------------------------------------------- database pool

DB_CONNECTIONS_IN_USE = Gauge(
    f"{PREFIX}_db_pool_connections_in_use",
    "Database connections checked out of the workers' pools now.",
    multiprocess_mode="livesum",
)
DB_POOL_CAPACITY = Gauge(
    f"{PREFIX}_db_pool_capacity",
    "Connections the workers' pools may open (pool size plus overflow).",
    multiprocess_mode="livesum",
)
DB_CHECKOUTS = Counter(f"{PREFIX}_db_pool_checkouts", "Connections taken from the pools.")


def watch_pool(engine: Any) -> None:
    """Count an engine's pool use through SQLAlchemy's pool events (db.engine_for calls it)."""
    from sqlalchemy import event

    pool = engine.pool
    size, overflow = getattr(pool, "size", None), getattr(pool, "_max_overflow", 0)
    if callable(size):
        DB_POOL_CAPACITY.inc(size() + max(overflow, 0))

    @event.listens_for(engine, "checkout")
    def _checkout(*_: Any) -> None:
        DB_CONNECTIONS_IN_USE.inc()
        DB_CHECKOUTS.inc()

    @event.listens_for(engine, "checkin")
    def _checkin(*_: Any) -> None:
        DB_CONNECTIONS_IN_USE.dec()


# Every known label value starts at 0: rate() and the alerts see the first event, and the
# dashboard shows a zero rather than no data.
_KNOWN_LABELS: list[tuple[Any, str, Iterable[str]]] = [
    (LEADS_REFUSED, "reason", LEAD_REFUSAL_REASONS),
    (BOOKINGS, "outcome", BOOKING_OUTCOMES),
    (OUTBOX_SEND_ATTEMPTS, "outcome", SEND_OUTCOMES),
    (AUDIENCE_BEACONS, "outcome", BEACON_OUTCOMES),
    (AUDIENCE_VIEWS_LOST, "reason", VIEW_LOSS_REASONS),
    (RATE_LIMIT_REFUSALS, "limit", (*RATE_LIMITS.values(), "other")),
    (OIDC_LOGINS, "outcome", LOGIN_OUTCOMES),
    (OIDC_REFRESHES, "outcome", REFRESH_OUTCOMES),
    (OIDC_PROVIDER_UNREACHABLE, "route", PROVIDER_ROUTES),
    (ERROR_REPORTS_SUPPRESSED, "limit", REPORT_LIMITS),
    (WEBSOCKET_MALFORMED_FRAMES, "reason", MALFORMED_FRAME_REASONS),
]
for _metric, _label, _values in _KNOWN_LABELS:
    for _value in _values:
        _metric.labels(**{_label: _value})


# ----------------------------------------------------------------------------- HTTP middleware

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
NOT_FOUND, REDIRECT, OTHER, ASSETS = "<not_found>", "<redirect>", "<other>", "/assets/*"
EVENT_PREFIX = "/_event"
_PAGE_PATHS = frozenset(routes.all_paths())


def method_label(method: str) -> str:
    return method if method in METHODS else "OTHER"


def route_label(scope: dict[str, Any], status: int) -> str:
    """The route template a request matched, or one label for its kind: never the raw path."""
    template = getattr(scope.get("route"), "path", "")
    if template:  # a Starlette route or mount matched (the API, /auth, /files, Reflex's own)
        return str(template)
    if status == 404:
        return NOT_FOUND
    path = unicodedata.normalize("NFC", str(scope.get("path", "")))
    if path in _PAGE_PATHS:
        return path
    if 300 <= status < 400:
        return REDIRECT
    if path.startswith("/assets/"):
        return ASSETS
    return OTHER


class HttpMetrics:
    """ASGI middleware: each HTTP request counted by route template, method and status, with its
    duration; each state websocket counted while it is open. The outermost of the app's
    api_transformer list, so the requests security.SecurityHeaders refuses count too."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        if scope["type"] == "websocket" and str(scope.get("path", "")).startswith(EVENT_PREFIX):
            WEBSOCKETS_OPEN.inc()
            try:
                await self.app(scope, receive, send)
            finally:
                WEBSOCKETS_OPEN.dec()
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = 500  # what the server answers for an app that raises before it responds

        async def send_and_note(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            route, method = route_label(scope, status), method_label(scope.get("method", ""))
            HTTP_REQUESTS.labels(route=route, method=method, status=str(status)).inc()
            HTTP_DURATION.labels(route=route, method=method).observe(time.perf_counter() - began)


# ----------------------------------------------------------------------------- exposition


def exposition(extra: Iterable[Collector] = ()) -> bytes:
    """The text exposition format of every metric of the site: the sums over the process group's
    files (several workers) or this process's own, then the `extra` collectors (scrape time)."""
    directory = metrics_storage.process_group_directory()
    if directory is None:
        registry: CollectorRegistry = REGISTRY
        output = generate_latest(registry)
    else:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=str(directory))
        output = generate_latest(registry)
    scraped = CollectorRegistry(auto_describe=False)
    for collector in extra:
        scraped.register(collector)
    return output + generate_latest(scraped)
