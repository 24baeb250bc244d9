"""The wrappers Reflex puts around every page: `App.app_wraps`, a dict keyed by (order, name).

Reflex offers no public way to drop or replace one of them; both keys below are Reflex 0.10.1's
(`reflex/app.py`). A key that is gone raises here, at import of the app, instead of leaving the
site with Reflex's overlay or its error boundary (tests/test_reflex_internals.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx
from reflex_base.event import EventSpec

# Reflex's connection overlay: a pulsing icon while the websocket is down, drawn with runtime CSS
# (Emotion) on every page, for a signal this site does not give (each widget that talks to the
# backend reports its own errors).
CONNECTION_OVERLAY = (5, "Overlay")
# Reflex's error boundary, whose fallback is its own English text with a "copy the error" button.
ERROR_BOUNDARY = (55, "ErrorBoundary")


def drop_connection_overlay(app: rx.App) -> None:
    app.app_wraps.pop(CONNECTION_OVERLAY)


def use_error_boundary(app: rx.App, boundary: Any) -> None:
    """Put the site's error boundary where Reflex's stands (same order among the wrappers)."""
    if ERROR_BOUNDARY not in app.app_wraps:
        raise KeyError(f"Reflex's error boundary is no longer at app_wraps{ERROR_BOUNDARY}")
    app.app_wraps[ERROR_BOUNDARY] = boundary


def handler_failure_notice(report: Callable[[Exception], str], ref: str) -> Callable[[Exception], EventSpec]:
    """Reflex's backend exception handler: `report` logs the failure and gives its reference,
    which reaches the page as Reflex's `_set_value` event on the client ref `ref`
    (reflex_internals/site_notice.jsx registers it in Reflex's client `refs`).

    Reflex checks a handler's annotations by evaluating them in its own module
    (`App._validate_exception_handlers`): they must read `Exception` and `EventSpec`."""

    def notify_the_page(exception: Exception) -> EventSpec:
        return rx.set_value(ref, report(exception))

    return notify_the_page
