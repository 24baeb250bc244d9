"""Who we are: the company in two paragraphs and three principles."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections


def who_we_are(text: dict) -> rx.Component:
    return sections.section(
        text["title"],
        rx.el.div(*[rx.el.p(p) for p in text["paragraphs"]], class_name="about-who__text"),
        sections.card_grid(*[sections.card(v["title"], v["text"]) for v in text["values"]], columns=3),
        tone="tinted",
    )
