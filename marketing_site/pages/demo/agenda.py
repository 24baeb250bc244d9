"""How the 30 minutes are spent: three steps."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.sections import card, card_grid, section

ACCENTS = ("relationclient", "premium", "compliance")


def agenda_section(words: dict) -> rx.Component:
    text = words["agenda"]
    return section(
        text["title"],
        card_grid(
            *[
                card(step["title"], step["text"], accent=accent)
                for step, accent in zip(text["steps"], ACCENTS, strict=True)
            ],
            columns=3,
        ),
        intro=text["intro"],
        tone="tinted",
    )
