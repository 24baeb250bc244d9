"""The demo page opening, with a button down to the booking widget."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.links import button_link
from marketing_site.components.sections import hero, image


def hero_section(words: dict) -> rx.Component:
    text = words["hero"]
    return hero(
        text["title"],
        text["lead"],
        button_link(text["cta"], f"#{words['booking']['id']}"),
        eyebrow=text["eyebrow"],
        illustration=image("/illustrations/legal/demo-hero.svg", "", 480, 360, loading="eager"),
    )
