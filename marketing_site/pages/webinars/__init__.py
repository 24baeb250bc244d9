"""Webinars: hero, the two on-demand webinars on the external platform, a demo banner."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.sections import cta_banner
from marketing_site.content import webinars as content
from marketing_site.pages.typography import french_spacing
from marketing_site.pages.webinars.hero import hero_section
from marketing_site.pages.webinars.replays import replays_section


def page(lang: str) -> rx.Component:
    words = french_spacing(content.FR) if lang == "fr" else content.EN
    cta = words["cta"]
    return rx.fragment(
        hero_section(words),
        replays_section(words),
        cta_banner(cta["title"], cta["text"], cta["label"], routes.DEMO.path(lang)),
    )
