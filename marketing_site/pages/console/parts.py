"""Building blocks shared by the console's sections."""

from __future__ import annotations

from typing import Any

import reflex as rx


def scrollable(*children: rx.Component, label: str) -> rx.Component:
    """A wide table's horizontal scroller, reachable by keyboard (a named, focusable region)."""
    return rx.el.div(*children, class_name="console__scroll", tab_index=0, role="region", aria_label=label)


def action_button(label: Any, on_click: Any, testid: str, kind: str = "secondary") -> rx.Component:
    """A console action (`btn--<kind>`: primary, secondary, ghost) that runs `on_click` on the server."""
    return rx.el.button(label, type="button", class_name=f"btn btn--{kind}", on_click=on_click, data_testid=testid)


def download_link(label: str, href: Any, testid: str) -> rx.Component:
    """A download from a console route (the browser sends the session cookie; the route checks the role)."""
    return rx.el.a(label, href=href, class_name="btn btn--secondary", data_testid=testid, download=True)
