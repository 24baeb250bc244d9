"""GET /metrics: the site's Prometheus metrics, for the holder of METRICS_TOKEN only.

    Authorization: Bearer <METRICS_TOKEN>   200, the text exposition format (metrics.exposition)
    anything else                           401 (WWW-Authenticate: Bearer)
    METRICS_TOKEN empty                     404, as for any unknown path

The counters come from every worker of the process group; the outbox figures are read from the
database by the worker that answers, at most every OUTBOX_CACHE_SECONDS, with the health check's
own query (services.health.check_database): one grouped count on an indexed column and one MIN.
deploy/nginx passes /metrics from the Prometheus servers' addresses only (docs/operations.md).
"""

from __future__ import annotations

import hmac
import threading
import time
from collections.abc import Iterator

from anyio import to_thread
from prometheus_client.core import GaugeMetricFamily, Metric
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from marketing_site import metrics
from marketing_site.services import health
from marketing_site.settings import get_settings

PATH = "/metrics"
OUTBOX_CACHE_SECONDS = 5.0
# The statuses health.check_database counts ("pending" includes the messages being sent).
OUTBOX_STATUSES = ("pending", "failed", "sent")


class OutboxCollector:
    """The outbox and database figures, read at scrape time and kept OUTBOX_CACHE_SECONDS."""

    def __init__(self, cache_seconds: float = OUTBOX_CACHE_SECONDS):
        self.cache_seconds = cache_seconds
        self._lock = threading.Lock()
        self._read_at = -float("inf")
        self._figures: tuple[str, dict] = ("error", {})

    def _read(self) -> tuple[str, dict]:
        with self._lock:
            if time.monotonic() - self._read_at >= self.cache_seconds:
                self._figures = health.check_database()
                self._read_at = time.monotonic()
            return self._figures

    def collect(self) -> Iterator[Metric]:
        database, outbox = self._read()
        up = GaugeMetricFamily(
            f"{metrics.PREFIX}_database_up", "1 when the worker answering the scrape can read the database."
        )
        up.add_metric([], 1 if database == "ok" else 0)
        yield up
        if database != "ok":
            return
        messages = GaugeMetricFamily(
            f"{metrics.PREFIX}_outbox_messages",
            "Outbox messages by status (pending includes those being sent).",
            labels=["status"],
        )
        for status in OUTBOX_STATUSES:
            messages.add_metric([status], outbox[status])
        yield messages
        yield GaugeMetricFamily(
            f"{metrics.PREFIX}_outbox_failed_recently",
            f"Messages given up within the last {health.RECENT_FAILURE_HOURS} hours.",
            value=outbox["failed_recently"],
        )
        yield GaugeMetricFamily(
            f"{metrics.PREFIX}_outbox_oldest_pending_seconds",
            "Age of the oldest message not sent yet (0 when none waits).",
            value=outbox["oldest_pending_seconds"],
        )


OUTBOX = OutboxCollector()


def authorized(request: Request, token: str) -> bool:
    """`Authorization: Bearer <token>` (the scheme in any case, RFC 9110), compared in constant time."""
    scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
    same = hmac.compare_digest(credentials.encode("utf-8", "surrogateescape"), token.encode("utf-8"))
    return scheme.lower() == "bearer" and same


async def scrape(request: Request) -> Response:
    token = get_settings().metrics_token.get_secret_value()
    if not token:
        return PlainTextResponse("Not Found", 404)
    if not authorized(request, token):
        return PlainTextResponse(
            "Unauthorized", 401, headers={"WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store"}
        )
    body = await to_thread.run_sync(metrics.exposition, [OUTBOX])
    return Response(body, media_type=metrics.CONTENT_TYPE, headers={"Cache-Control": "no-store"})


ROUTES = [Route(PATH, scrape, methods=["GET"])]
