"""Webinars: hero, the two on-demand webinars on the external platform, a demo banner."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.sections import cta_banner
from marketing_site.content.words import words as site_words
from marketing_site.pages.webinars.hero import hero_section
from marketing_site.pages.webinars.replays import replays_section


def page(lang: str) -> rx.Component:
    words = site_words(lang, "webinars")
    cta = words["cta"]
    return rx.fragment(
        hero_section(words),
        replays_section(words),
        cta_banner(cta["title"], cta["text"], cta["label"], routes.DEMO.path(lang)),
    )
