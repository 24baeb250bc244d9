"""POST /api/v1/audience: the page-view beacon (services.audience), a plain HTTP route.

The browser sends it with `navigator.sendBeacon` (no websocket, no cookie needed: the route
reads none). 204 counted or ignored (robot, unknown page, a string that is no text: the
browser does nothing with the answer either way) · 413 body too large · 415 not a text or JSON body · 429 too many beacons
from this address. The body is a small JSON object; sendBeacon sends strings as text/plain,
which needs no CORS preflight.
"""

from __future__ import annotations

import json

from anyio import to_thread
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from marketing_site.api.mail import client_ip
from marketing_site.services import audience
from marketing_site.services.contact_patterns import first_non_text

PATH = "/api/v1/audience"
MAX_BODY_BYTES = 2048
NO_STORE = {"Cache-Control": "no-store"}


async def beacon(request: Request) -> Response:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type not in ("text/plain", "application/json"):
        return JSONResponse({"error": "The body must be JSON (text/plain or application/json)."}, 415)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return JSONResponse({"error": f"The body must be at most {MAX_BODY_BYTES} bytes."}, 413)
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                return JSONResponse({"error": f"The body must be at most {MAX_BODY_BYTES} bytes."}, 413)
    except ClientDisconnect:
        return Response(status_code=204)
    try:
        payload = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):  # `[` x 2000 fits in the limit
        payload = None
    if first_non_text(payload) is not None:  # "\ud800": valid JSON, no text; ignored like the rest
        payload = None
    user_agent = request.headers.get("user-agent")
    address = client_ip(request)
    # The buffer writes in batches; with AUDIENCE_FLUSH_SECONDS=0 this call writes, off the loop.
    result = await to_thread.run_sync(audience.record, payload, address, user_agent)
    if result.status == "rate_limited":
        return Response(status_code=429, headers={"Retry-After": str(result.retry_after), **NO_STORE})
    return Response(status_code=204, headers=NO_STORE)


ROUTES = [Route(PATH, beacon, methods=["POST"])]
