"""A titled band of feature cards, each with its icon and the page's accent."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections
from marketing_site.pages.feature_page.art import icon_src


def feature_cards(items: dict[str, dict], accent: str, columns: int | None = None) -> rx.Component:
    """One card per item (keyed by its icon); two columns for two or four cards, three
    otherwise (unless `columns` says)."""
    if columns is None:
        columns = 2 if len(items) in (2, 4) else 3
    return sections.card_grid(
        *[
            sections.card(item["title"], item["text"], icon=icon_src(icon), accent=accent)
            for icon, item in items.items()
        ],
        columns=columns,
    )


def card_section(text: dict, accent: str, tone: str) -> rx.Component:
    return sections.section(
        text["title"],
        feature_cards(text["items"], accent),
        id=text["id"],
        intro=text["intro"],
        tone=tone,
    )
