"""The plan comparison page ("Comparez tout nos plans"): feature table and a short guide."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.sections import cta_banner
from marketing_site.content.words import words
from marketing_site.pages.compare.guide import guide
from marketing_site.pages.compare.hero import hero
from marketing_site.pages.compare.table import comparison


def page(lang: str) -> rx.Component:
    text = words(lang, "compare")
    return rx.fragment(
        hero(text["hero"], lang),
        comparison(text["table"], lang),
        guide(text["guide"], lang),
        cta_banner(text["cta"]["title"], text["cta"]["text"], text["cta"]["label"], routes.DEMO.path(lang)),
    )
