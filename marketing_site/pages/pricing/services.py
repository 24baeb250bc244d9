"""Paid add-on services: premium support, personalised onboarding, data clean-up."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections

ICONS = ("support", "onboarding", "data")


def services(text: dict) -> rx.Component:
    return sections.section(
        text["title"],
        sections.card_grid(
            *[
                sections.card(
                    item["title"], item["text"], icon=f"/illustrations/pricing/{icon}.svg", accent="secondary"
                )
                for item, icon in zip(text["items"], ICONS, strict=True)
            ],
            columns=3,
        ),
        intro=text["intro"],
        tone="tinted",
    )
