"""A Reflex event middleware that counts hydrations for the metrics (`metrics.HYDRATIONS`).

`app.add_middleware` and `reflex.middleware.Middleware` are Reflex's; the names of its hydrate
events (`CompileVars.HYDRATE`, `HYDRATE_AND_LOAD`, the last part of the event's name) are its
internals (reflex-base 0.10.1). tests/test_metrics_site.py counts real hydrations through a site.
"""

from __future__ import annotations

from typing import Any

from reflex.middleware import Middleware
from reflex_base.constants import CompileVars

from marketing_site import metrics

HYDRATE_EVENTS = (CompileVars.HYDRATE, CompileVars.HYDRATE_AND_LOAD)


class CountHydrations(Middleware):
    """Added first (`app.add_middleware(..., index=0)`), so that it sees every event before any
    other middleware answers one."""

    async def preprocess(self, app: Any, state: Any, event: Any) -> None:
        if event.name.rpartition(".")[2] in HYDRATE_EVENTS:
            metrics.HYDRATIONS.inc()
