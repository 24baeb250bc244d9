"""Building blocks shared by the console's sections."""

from __future__ import annotations

import reflex as rx


def scrollable(*children: rx.Component, label: str) -> rx.Component:
    """A wide table's horizontal scroller, reachable by keyboard (a named, focusable region)."""
    return rx.el.div(*children, class_name="console__scroll", tab_index=0, role="region", aria_label=label)
