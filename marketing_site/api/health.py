"""GET /api/v1/health: can this worker serve? (`services/health.py` makes the report.)

200 with `"status": "ok"` or `"degraded"`; 503 when the database (or the configured Redis) is
down, so a load balancer takes the machine out.
"""

from __future__ import annotations

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from marketing_site.services.health import health_report

PATH = "/api/v1/health"


async def health(_: Request) -> JSONResponse:
    body = await to_thread.run_sync(health_report)
    return JSONResponse(body, 503 if body["status"] == "down" else 200, headers={"Cache-Control": "no-store"})


ROUTES = [Route(PATH, health, methods=["GET", "HEAD"])]
