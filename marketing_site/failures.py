"""Failures on the server's side reach the person: a short reference, in the log and on the page.

- An event handler that raises: `report_backend_exception` logs the traceback with a reference;
  Reflex's backend exception handler (`reflex_internals.app_frame.handler_failure_notice`) then
  sends the page Reflex's `_set_value` event for the ref that `reflex_internals/site_notice.jsx` registers:
  the page shows its own words with the reference. No script travels from the server (the site's
  CSP has no 'unsafe-eval', which blocks Reflex's toast).
- A lost connection or a server restart: the page shows its message with a reference it made
  and, once connected again, posts it to /api/v1/client-report (api/client_report.py), which logs it.
- An HTTP request whose handler raises (the API, /auth, the files): `report_request_exception`
  (the API app's handler of any exception) logs it with a reference and answers 500 with it.

Both server-side failures are counted (metrics.py) and, with SENTRY_DSN, reported with their
reference (error_reports.py: in the scope of the work that failed, within the report limits).

A malformed websocket frame is no failure of the site but a client's: it is refused before Reflex
reads it (reflex_internals/socket_events.py), counted, and logged by `malformed_frame` as one
warning line without a traceback, at most once a minute per client (and MALFORMED_FRAMES_LOGGED
a minute in all, however many clients): never an error report. A page that sent it (a page
older than a deployment that changed a handler) is told with the site's notice, as for a failing
handler; its reference is the one of the client's warning of that minute.
"""

from __future__ import annotations

import hmac
import logging
import secrets

from starlette.requests import Request
from starlette.responses import PlainTextResponse

from marketing_site import error_reports, metrics
from marketing_site.logs import new_reference
from marketing_site.services.rate_limit import FixedWindows

logger = logging.getLogger("marketing_site.failures")
frames_logger = logging.getLogger("marketing_site.websocket")

# A client's malformed frames: one warning a minute at most; all clients', this many a minute.
MALFORMED_FRAME_LOG_SECONDS = 60.0
MALFORMED_FRAMES_LOGGED = 60
# Clients remembered at most (a client rotating addresses cannot grow the memory).
MALFORMED_FRAME_CLIENTS = 10_000


def frame_log_windows() -> tuple[FixedWindows, FixedWindows]:
    """The malformed-frame warnings' limits, empty: per client, and all clients together."""
    return (
        FixedWindows(1, MALFORMED_FRAME_LOG_SECONDS, MALFORMED_FRAME_CLIENTS),
        FixedWindows(MALFORMED_FRAMES_LOGGED, MALFORMED_FRAME_LOG_SECONDS, 1),
    )


_frames_logged_per_client, _frames_logged = frame_log_windows()

# The ref of reflex_internals/site_notice.jsx (Reflex formats it: `site_notice.reflex_ref_name`).
NOTICE_REF = "site_error"


def report_backend_exception(exception: Exception) -> str:
    """Logs, counts and reports a failed event handler; the reference the page shows."""
    reference = new_reference()
    # Reflex calls this from a task of its own: the event's scope, for the log line too (it is
    # the report's breadcrumb).
    with error_reports.within(exception):
        logger.error("event handler failed ref=%s", reference, exc_info=exception)
        metrics.EVENT_HANDLER_FAILURES.inc()
        error_reports.report(exception, reference, "event_handler")
    return reference


def malformed_frame(client: str, reason: str, handler: str = "", now: float | None = None) -> str:
    """A client sent a websocket frame Reflex cannot handle (`reason`, one of
    metrics.MALFORMED_FRAME_REASONS; `handler`, the registered handler it named, if any): counted,
    and logged when it is the client's first this minute. Returns the reference of the client's
    minute (the one its warning carries). Never the frame itself: it is whatever the client wrote."""
    metrics.WEBSOCKET_MALFORMED_FRAMES.labels(reason=reason).inc()
    first = _frames_logged_per_client.admit(client, now)
    reference = _minute_reference(client, _frames_logged_per_client.started(client))
    if first and _frames_logged.admit("all", now):
        frames_logger.warning(
            "malformed websocket frame refused ref=%s (%s%s); this client's next ones are counted, not logged, "
            "for a minute",
            reference,
            reason,
            f": {handler}" if handler else "",
        )
    return reference


# Keys the references of the clients' minutes: nobody can tell one from the client and the time.
_REFERENCE_KEY = secrets.token_bytes(16)


def _minute_reference(client: str, started: float | None) -> str:
    """A reference shaped as `new_reference`'s, the same for every frame of a client's minute."""
    digest = hmac.new(_REFERENCE_KEY, f"{client}|{started!r}".encode("utf-8", "surrogatepass"), "sha256")
    text = digest.hexdigest().upper()
    return "ABCDEF"[int(text[0], 16) % 6] + text[1:8]


async def report_request_exception(request: Request, exception: Exception) -> PlainTextResponse:
    """A request's handler raised: logged and reported with a reference, which the 500 carries
    (Starlette then raises the exception again, for the server's own log)."""
    reference = new_reference()
    logger.error("request failed ref=%s %s", reference, request.method, exc_info=exception)
    metrics.REQUEST_FAILURES.inc()
    error_reports.report(exception, reference, "request")
    return PlainTextResponse(
        f"Internal Server Error (reference {reference})", 500, headers={"Cache-Control": "no-store"}
    )
