"""How the meeting's minutes are spent: its steps (content/demo.py AGENDA), adding up to its length."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.sections import card, card_grid, section
from marketing_site.content.demo import agenda_minutes
from marketing_site.settings import get_settings

# The steps' colours, in turn.
ACCENTS = ("relationclient", "premium", "compliance")


def agenda_section(words: dict) -> rx.Component:
    text = words["agenda"]
    steps = agenda_minutes(get_settings().booking_meeting_minutes)
    return section(
        text["title"],
        card_grid(
            *[
                card(
                    text["steps"][key]["title"].format(minutes=minutes),
                    text["steps"][key]["text"],
                    accent=ACCENTS[i % len(ACCENTS)],
                )
                for i, (key, minutes) in enumerate(steps.items())
            ],
            columns=3,
        ),
        intro=text["intro"],
        tone="tinted",
    )
