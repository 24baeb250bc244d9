"""The closing demo call to action."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections


def demo_banner(text: dict, lang: str) -> rx.Component:
    return sections.cta_banner(text["title"], text["text"], text["label"], routes.DEMO.path(lang))
