"""POST /api/v1/client-report: a page's report of a lost connection, sent once it is back
(reflex_internals/site_notice.jsx), logged with the reference the page showed (marketing_site/failures.py).

204 logged · 413 body too large · 415 not JSON · 422 not a report · 429 too many from this address.
The body is read as the lead and booking APIs read theirs (api/mail.py: read_json_object).
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from marketing_site.api.mail import client_ip, read_json_object
from marketing_site.services.contact_patterns import TEXT_PATTERN, is_text
from marketing_site.services.rate_limit import make_rate_limiter

logger = logging.getLogger("marketing_site.failures")

CLIENT_REPORT_PATH = "/api/v1/client-report"
# Matched whole (`fullmatch`): `$` would also match before a final newline ("A1234567\n").
_REFERENCE = re.compile(r"[A-F][0-9A-F]{7}")  # logs.new_reference and site_notice.jsx
# A page's path: no space, and no control, text-direction or non-text character either (the
# contact fields' rule, services.contact_patterns): it is written into the log.
_PATH = re.compile(r"/\S{0,300}")
_TEXT = re.compile(TEXT_PATTERN)
# A page reports at most one outage per reconnection; this bounds what one address can log.
REPORTS_PER_IP = 30
REPORT_WINDOW_SECONDS = 600


@lru_cache(maxsize=1)
def _limiter():
    return make_rate_limiter(REPORTS_PER_IP, REPORT_WINDOW_SECONDS)


def _valid(report: object) -> bool:
    if not isinstance(report, dict):
        return False
    reference, kind, seconds, path = (report.get(k) for k in ("ref", "kind", "seconds", "path"))
    return bool(
        isinstance(reference, str)
        and _REFERENCE.fullmatch(reference)
        and kind == "connection"
        and isinstance(seconds, int)
        and not isinstance(seconds, bool)
        and 0 <= seconds < 10**7
        and isinstance(path, str)
        and _PATH.fullmatch(path)
        and _TEXT.fullmatch(path)
        and is_text(path)
    )


async def client_report(request: Request) -> Response:
    report = await read_json_object(request)
    if isinstance(report, JSONResponse):
        return report
    if not _valid(report):
        return Response(status_code=422)
    if await to_thread.run_sync(_limiter().hit, f"client-report:{client_ip(request)}") is not None:
        return Response(status_code=429)
    logger.warning("page lost its connection ref=%s for %ss on %s", report["ref"], report["seconds"], report["path"])
    return Response(status_code=204)


ROUTES = [Route(CLIENT_REPORT_PATH, client_report, methods=["POST"])]
