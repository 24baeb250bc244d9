"""Links: client-side navigation inside the site, plain anchors to the outside world."""

from __future__ import annotations

import reflex as rx
from reflex_components_core.react_router.dom import ReactRouterLink


def link(label: rx.Component | str, href: str, **props) -> rx.Component:
    """An internal path navigates client-side; any other URL opens as a normal link."""
    if href.startswith("/") and not href.startswith("//"):
        return ReactRouterLink.create(label, to=href, **props)
    if href.startswith(("http://", "https://")):
        props.setdefault("rel", "noopener")
    return rx.el.a(label, href=href, **props)


def button_link(label: str, href: str, variant: str = "primary", **props) -> rx.Component:
    """A link styled as a call-to-action button."""
    class_name = f"btn btn--{variant} {props.pop('class_name', '')}".strip()
    return link(label, href, class_name=class_name, **props)
