"""The opening of a solution page: eyebrow, `<h1>`, lead, two buttons, illustration."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections
from marketing_site.components.links import button_link
from marketing_site.pages.feature_page.art import hero_art


def hero(text: dict, art: str, primary_href: str, secondary_href: str) -> rx.Component:
    return sections.hero(
        text["title"],
        text["lead"],
        button_link(text["primary"], primary_href),
        button_link(text["secondary"], secondary_href, variant="secondary"),
        eyebrow=text["eyebrow"],
        illustration=hero_art(art, text["art_alt"]),
        tone="feature",
    )
