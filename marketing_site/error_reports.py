"""Error reports to Sentry (or any service that speaks its protocol), off unless SENTRY_DSN is set.

Two kinds of failure are reported, each with the reference the person was shown and that the
log carries (`logs.new_reference`), as the tag `reference`:

- an event handler that raised (`failures.report_backend_exception`), tag `failure:
  event_handler`;
- an HTTP request whose handler raised (`failures.report_request_exception`, answered 500),
  tag `failure: request`.

Nothing else is captured on its own: no web-framework integration, no event from a log record
(log records travel as breadcrumbs of a report), no performance data, no session.

A report passes through the logs' redaction before it leaves (`scrubbed`, the `before_send`
hook): every string of it (exception messages, breadcrumbs, tags, paths) through
`logs.redact`, which masks email addresses, phone numbers and IP addresses and cuts URLs to
their scheme and host; and it carries no request headers or cookies, no request body, no user,
no local variables. The database engine hides statement parameters from its errors
(db.engine_for), so a failed insert names no visitor.

Each report carries the breadcrumbs of its own work only. sentry-sdk keeps breadcrumbs in an
isolation scope, which a context variable holds: `isolated` gives one, started empty, to each
HTTP request and websocket connection (`IsolatedReports`, the app's outermost ASGI
middleware) and to each Reflex event (`reflex_internals.socket_events`, in the task Reflex runs
the event in); a failure is logged and reported in the scope of the work that failed
(`within`), even when Reflex reports it from another task. A breadcrumb is a log record's
level, logger and message, never its extra data (`breadcrumb_kept`, the `before_breadcrumb`
hook); the message of a library's record is withheld (Reflex's repeat the frames and values a
visitor sent: names, companies, addresses), the site's own never name a visitor.

Reports are limited (`admitted`): per worker, at most SENTRY_REPORTS_PER_FINGERPRINT a minute of
one failure (`fingerprint`: its kind, the exception's type, the file and line it was raised at)
and SENTRY_REPORTS_PER_CLIENT a minute from one client (`services.client_address`'s key); the
others are logged as always and counted (`site_error_reports_suppressed_total`). The limits
keep at most MAX_KEYS keys each: a client rotating addresses cannot grow them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from marketing_site import logs, metrics
from marketing_site.services.client_address import visitor_address
from marketing_site.services.rate_limit import FixedWindows
from marketing_site.settings import Settings, get_settings

# What may stay of a request's description: never its headers, cookies, body or query.
REQUEST_KEYS_KEPT = ("method", "url")

# The loggers whose messages may travel as breadcrumbs: the site's own, which never name a
# visitor. Any other logger's record keeps its level and name only.
OWN_LOGGERS = "marketing_site"
WITHHELD = "(message withheld: a library's record may repeat what a visitor sent)"

# The window of the report limits, and how many keys (fingerprints, clients) each keeps at most.
REPORT_WINDOW_SECONDS = 60.0
MAX_KEYS = 10_000
# The client of work that came from nowhere the site knows (a lifespan task, a test).
UNKNOWN_CLIENT = "unknown"
# Where an exception keeps the origin of the work it failed (Reflex reports a failed event from
# a task of its own, whose context is not the event's).
ORIGIN_ATTRIBUTE = "_marketing_site_report_origin"


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        return logs.redact(value)
    if isinstance(value, dict):
        return {_redacted(key): _redacted(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_redacted(item) for item in value]
    return value


def scrubbed(event: Any, _hint: Any = None) -> Any:
    """The report as it may leave the server (sentry-sdk's `before_send`: an event is a dict)."""
    event = dict(event)
    event.pop("user", None)
    request = event.get("request")
    if isinstance(request, dict):
        event["request"] = {key: value for key, value in request.items() if key in REQUEST_KEYS_KEPT}
    return _redacted(event)


def breadcrumb_kept(crumb: Any, _hint: Any = None) -> Any:
    """A breadcrumb as it may be kept (sentry-sdk's `before_breadcrumb`): a log record's level,
    logger, time and message, without its extra data; a library's message withheld."""
    kept = {key: value for key, value in dict(crumb).items() if key != "data"}
    category = str(kept.get("category") or "")
    if category != OWN_LOGGERS and not category.startswith(OWN_LOGGERS + "."):
        kept["message"] = WITHHELD
    return kept


def reports_on() -> bool:
    return bool(get_settings().sentry_dsn.get_secret_value())


@dataclasses.dataclass(frozen=True)
class Origin:
    """The work a failure belongs to: its client's key and its isolation scope (None while
    reports are off)."""

    client: str
    scope: Any = None


_ORIGIN: ContextVar[Origin | None] = ContextVar("marketing_site_report_origin", default=None)


@contextlib.contextmanager
def isolated(client: str) -> Iterator[Origin]:
    """Run one piece of work (a request, a websocket connection, a Reflex event) with
    breadcrumbs of its own: a new isolation scope, started empty, and `client` as the key its
    failures are counted under."""
    if not reports_on():
        origin = Origin(client)
        token = _ORIGIN.set(origin)
        try:
            yield origin
        finally:
            _ORIGIN.reset(token)
        return
    import sentry_sdk

    with sentry_sdk.isolation_scope() as scope:
        # The scope is a fork of the enclosing one, and would carry what it collected: a
        # Reflex event's task inherits the context of the connection that started Reflex's
        # event queue, whoever sent the event.
        scope.clear()
        origin = Origin(client, scope)
        token = _ORIGIN.set(origin)
        try:
            yield origin
        finally:
            _ORIGIN.reset(token)


def remember_origin(exception: BaseException) -> None:
    """Keep the current work's origin on an exception another task will report."""
    origin = _ORIGIN.get()
    if origin is not None and getattr(exception, ORIGIN_ATTRIBUTE, None) is None:
        with contextlib.suppress(AttributeError, TypeError):  # an exception without a __dict__
            setattr(exception, ORIGIN_ATTRIBUTE, origin)


def origin_of(exception: BaseException) -> Origin | None:
    origin = getattr(exception, ORIGIN_ATTRIBUTE, None)
    return origin if isinstance(origin, Origin) else _ORIGIN.get()


@contextlib.contextmanager
def within(exception: BaseException) -> Iterator[None]:
    """Log and report a failure in the isolation scope of the work it failed (its breadcrumbs,
    nobody else's), from whatever task reports it."""
    origin = origin_of(exception)
    if origin is None or origin.scope is None:
        yield
        return
    from sentry_sdk.scope import use_isolation_scope

    with use_isolation_scope(origin.scope):
        yield


def client_of_scope(scope: Any) -> str:
    """The client key of an ASGI scope (an HTTP request, a websocket connection): the peer, or
    the last hop before the trusted proxies (services.client_address)."""
    peer = (scope.get("client") or ("",))[0] or UNKNOWN_CLIENT
    forwarded = [value.decode("latin-1") for name, value in scope.get("headers") or () if name == b"x-forwarded-for"]
    return visitor_address(str(peer), forwarded, get_settings().trusted_proxies)


class IsolatedReports:
    """ASGI middleware, the outermost of the app: each HTTP request and each websocket
    connection collects its breadcrumbs in a scope of its own (`isolated`)."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with isolated(client_of_scope(scope)):
            await self.app(scope, receive, send)


def fingerprint(exception: BaseException, failure: str) -> str:
    """One failure, whatever its message: its kind, the exception's type and where it was
    raised (the innermost frame of its traceback)."""
    kind = type(exception)
    trace = exception.__traceback__
    while trace is not None and trace.tb_next is not None:
        trace = trace.tb_next
    where = f"{trace.tb_frame.f_code.co_filename}:{trace.tb_lineno}" if trace is not None else "-"
    return f"{failure}|{kind.__module__}.{kind.__qualname__}|{where}"


@functools.cache
def _budgets(per_fingerprint: int, per_client: int) -> tuple[FixedWindows, FixedWindows]:
    return (
        FixedWindows(per_fingerprint, REPORT_WINDOW_SECONDS, MAX_KEYS),
        FixedWindows(per_client, REPORT_WINDOW_SECONDS, MAX_KEYS),
    )


def admitted(exception: BaseException, failure: str, client: str, now: float | None = None) -> bool:
    """Whether this failure may be reported now: within its client's budget and its
    fingerprint's (a refusal is counted by limit)."""
    settings = get_settings()
    per_fingerprint, per_client = _budgets(settings.sentry_reports_per_fingerprint, settings.sentry_reports_per_client)
    if not per_client.admit(client, now):
        metrics.ERROR_REPORTS_SUPPRESSED.labels(limit="per_client").inc()
        return False
    if not per_fingerprint.admit(fingerprint(exception, failure), now):
        metrics.ERROR_REPORTS_SUPPRESSED.labels(limit="per_fingerprint").inc()
        return False
    return True


def configure(settings: Settings | None = None) -> bool:
    """Start sending reports when SENTRY_DSN is set (once per worker); whether reports are on."""
    settings = settings or get_settings()
    dsn = settings.sentry_dsn.get_secret_value()
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.logging import LoggingIntegration

    if sentry_sdk.get_client().is_active():
        return True

    sentry_sdk.init(
        dsn=dsn,
        environment=settings.sentry_environment,
        # Only the two failures above, explicitly: log records are breadcrumbs, not reports.
        default_integrations=False,
        auto_enabling_integrations=False,
        integrations=[LoggingIntegration(level=logging.INFO, event_level=None)],
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrubbed,
        before_breadcrumb=breadcrumb_kept,
        traces_sample_rate=None,
        auto_session_tracking=False,
        send_client_reports=False,
        enable_backpressure_handling=False,
    )
    logging.getLogger("marketing_site.failures").info("error reports on (environment %s)", settings.sentry_environment)
    return True


def report(exception: BaseException, reference: str, failure: str) -> bool:
    """Send one failure with the reference the person saw, in its own work's scope; whether it
    was sent (not when reports are off, nor over a limit)."""
    if not reports_on():
        return False
    origin = origin_of(exception)
    if not admitted(exception, failure, origin.client if origin is not None else UNKNOWN_CLIENT):
        return False
    import sentry_sdk

    with within(exception):
        sentry_sdk.capture_exception(exception, tags={"reference": reference, "failure": failure})
    return True


def flush(timeout: float = 2.0) -> None:
    """Send what is queued (tests, a worker about to stop)."""
    if reports_on():
        import sentry_sdk

        sentry_sdk.flush(timeout)


def start() -> None:
    """Lifespan task of the backend: error reports in each worker (never in the build)."""
    configure()
