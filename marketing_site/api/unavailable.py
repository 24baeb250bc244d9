"""A request that needs the database while it cannot be reached: 503 with Retry-After.

Every route of the API app writes or reads through `db.new_session`; when the database refuses
connections, times out or cannot take a write (`db.database_unavailable`), the request is not at
fault and nothing was stored: the answer is 503 with `Retry-After`, which the lead form and the
scheduler send again (the same Idempotency-Key), and a proxy may pass to another machine. Before,
the error answered 500, which nobody retries: the visitor saw an error and nothing was stored.

Any other database error is a fault of the site: `failures.report_request_exception` (500, with a
reference). Redis is never required by a write: the rate limits count in each process while it
is away (services/rate_limit.py).
"""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from marketing_site import failures
from marketing_site.db import database_unavailable

logger = logging.getLogger("marketing_site.failures")

# Seconds a client waits before it tries again: a database restart or a failover takes a few.
RETRY_AFTER_SECONDS = 5
MESSAGE = "The service is unavailable for a moment (its database cannot be reached). Try again shortly."


async def database_error(request: Request, error: Exception) -> Response:
    """503 with Retry-After when the database cannot be reached; any other error a 500."""
    if not database_unavailable(error):
        return await failures.report_request_exception(request, error)
    # One line, no traceback: an outage is the database's, and it would write one per request.
    logger.warning(
        "database unavailable (%s): %s %s answered 503", type(error).__name__, request.method, request.url.path
    )
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": MESSAGE, "retry_after": RETRY_AFTER_SECONDS}, 503, headers=headers)
    return PlainTextResponse(MESSAGE, 503, headers=headers)
