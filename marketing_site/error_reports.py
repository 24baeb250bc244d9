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
"""

from __future__ import annotations

import logging
from typing import Any

from marketing_site import logs
from marketing_site.settings import Settings, get_settings

# What may stay of a request's description: never its headers, cookies, body or query.
REQUEST_KEYS_KEPT = ("method", "url")


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
        traces_sample_rate=None,
        auto_session_tracking=False,
        send_client_reports=False,
        enable_backpressure_handling=False,
    )
    logging.getLogger("marketing_site.failures").info("error reports on (environment %s)", settings.sentry_environment)
    return True


def report(exception: BaseException, reference: str, failure: str) -> None:
    """Send one failure with the reference the person saw (nothing when reports are off)."""
    if not get_settings().sentry_dsn.get_secret_value():
        return
    import sentry_sdk

    sentry_sdk.capture_exception(exception, tags={"reference": reference, "failure": failure})


def flush(timeout: float = 2.0) -> None:
    """Send what is queued (tests, a worker about to stop)."""
    if get_settings().sentry_dsn.get_secret_value():
        import sentry_sdk

        sentry_sdk.flush(timeout)


def start() -> None:
    """Lifespan task of the backend: error reports in each worker (never in the build)."""
    configure()
