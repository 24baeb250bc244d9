"""Whether the identity provider answers, asked before the browser is sent there.

Discovery is cached for the life of a worker, so a provider that went down after the site
started is only noticed by the visitor's browser: Login, Logout and the silent check would
leave them on the browser's connection-refused page, and the site would log nothing. Before
those redirects the site asks the page it is about to send the browser to (a HEAD request to
the authorize or end-session endpoint, without parameters: the provider renders nothing, and
counts no authorization request): any answer but a gateway's (502, 503, 504), a 405 included,
counts as "up"; a refused or reset connection, a timeout (PROBE_TIMEOUT_SECONDS) or a gateway's
answer as "down". Each origin's answer is kept a few seconds (UP_SECONDS, DOWN_SECONDS), and
concurrent requests share one probe, so a crowd of visitors costs the provider one request
per origin in that time. A probe that finds the provider down is logged at ERROR; each
visitor turned away is counted (`site_oidc_provider_unreachable_total`, by route) by the caller.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from urllib.parse import urlsplit

import httpx2

from marketing_site import logs

logger = logging.getLogger(__name__)

PROBE_TIMEOUT_SECONDS = 2.0
# How long an answer is believed: a few seconds either way. A provider that goes down is
# noticed within UP_SECONDS (the price: one small request per origin and worker that often
# while visitors log in), and one that comes back within DOWN_SECONDS (the page says "try
# again in a minute": the visitor who does so meets a fresh probe).
UP_SECONDS = 5.0
DOWN_SECONDS = 5.0
# A proxy in front of a provider that is down answers these: the browser would show that page.
GATEWAY_STATUSES = frozenset({502, 503, 504})


def origin_of(url: str) -> str:
    """scheme://host:port of a URL: what a probe's answer stands for."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class Reachability:
    """Per-process record of which provider origins answered, and when it was asked."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._known: dict[str, tuple[bool, float]] = {}  # origin -> (answers, until)
        self._probes: dict[str, asyncio.Future[bool]] = {}

    def forget(self) -> None:
        self._known.clear()

    async def answers(self, url: str) -> bool:
        """Whether the provider serving `url` answers (a cached answer while it is fresh)."""
        origin = origin_of(url)
        known = self._known.get(origin)
        if known is not None and known[1] > self._clock():
            return known[0]
        running = self._probes.get(origin)
        if running is None:
            running = asyncio.ensure_future(self._probe(url))
            self._probes[origin] = running
            running.add_done_callback(lambda _: self._probes.pop(origin, None))
        return await asyncio.shield(running)

    async def _probe(self, url: str) -> bool:
        origin = origin_of(url)
        endpoint = url.split("?", 1)[0].split("#", 1)[0]
        reason = ""
        try:
            async with httpx2.AsyncClient(timeout=PROBE_TIMEOUT_SECONDS, follow_redirects=False) as http:
                response = await http.head(endpoint)
            if response.status_code in GATEWAY_STATUSES:
                reason = f"HTTP {response.status_code}"
        except httpx2.HTTPError as error:
            reason = f"{type(error).__name__}: {error}"
        up = not reason
        self._known[origin] = (up, self._clock() + (UP_SECONDS if up else DOWN_SECONDS))
        if not up:
            logger.error(
                "identity provider unreachable: %r did not answer (%s); visitors see the site's "
                "'login is unavailable' page for the next %g s at least",
                endpoint,
                reason,
                DOWN_SECONDS,
                extra=logs.configuration(endpoint),
            )
        return up


_REACHABILITY = Reachability()


def reachability() -> Reachability:
    """The process's record (one per worker, like the relying party's cached discovery)."""
    return _REACHABILITY
