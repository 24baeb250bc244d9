"""The webinars page opening."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.links import button_link
from marketing_site.components.sections import hero, image
from marketing_site.content.webinars import REPLAYS_ANCHOR


def hero_section(words: dict) -> rx.Component:
    text = words["hero"]
    return hero(
        text["title"],
        text["lead"],
        button_link(text["cta"], f"#{REPLAYS_ANCHOR}"),
        eyebrow=text["eyebrow"],
        illustration=image("/illustrations/legal/webinars-hero.svg", "", 480, 360, loading="eager"),
    )
