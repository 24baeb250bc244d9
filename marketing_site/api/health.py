"""Health for load balancers and orchestrators; the figures are for operators only.

    GET /api/v1/health       readiness, for load balancers: {"status": "ok" | "degraded" |
                             "draining" | "down"}: 200 when the machine takes visitors (ok,
                             degraded: Redis down or mail failing leaves lead capture working),
                             503 when it should get none (draining: an operator is taking it out;
                             down: its database is unreachable); services.health decides
    GET /api/v1/health/live  liveness, for supervisors: {"status": "alive"}: the worker answers;
                             touches no database, Redis or drain file, so an orchestrator restarts
                             a stuck process, not one whose database is down or that is draining

Nothing more is public: the mail counts are in the console and `python -m marketing_site.ops
health`. Reflex's own `/ping` and `/_health` are not served (exact_paths answers them 404).
"""

from __future__ import annotations

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from marketing_site.services import health

PATH = "/api/v1/health"
LIVE_PATH = "/api/v1/health/live"
NO_STORE = {"Cache-Control": "no-store"}


async def readiness(_: Request) -> JSONResponse:
    status = await to_thread.run_sync(health.public_status)
    return JSONResponse({"status": status}, 503 if status in health.NOT_READY else 200, headers=NO_STORE)


async def liveness(_: Request) -> JSONResponse:
    return JSONResponse({"status": "alive"}, headers=NO_STORE)


ROUTES = [Route(PATH, readiness, methods=["GET", "HEAD"]), Route(LIVE_PATH, liveness, methods=["GET", "HEAD"])]
