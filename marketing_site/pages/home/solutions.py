"""The four cards: offers pointing at the pricing anchors (French), feature pages (English)."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.content.home import CARDS

# The hero's scroll button targets this id.
SOLUTIONS_ID = "solutions"

PAGES_BY_KEY = {page.key: page for page in routes.PAGES}


def _href(card: dict, lang: str) -> str:
    path = PAGES_BY_KEY[card["page"]].path(lang)
    return f"{path}#{card['anchor']}" if card["anchor"] else path


def solutions(text: dict, lang: str) -> rx.Component:
    cards = [
        sections.card(
            item["title"],
            item["text"],
            icon=CARDS[item["card"]]["icon"],
            href=_href(CARDS[item["card"]], lang),
            link_label=item["link_label"],
            accent=CARDS[item["card"]]["accent"],
        )
        for item in text["items"]
    ]
    return sections.section(
        text["title"],
        sections.card_grid(*cards, columns=4),
        id=SOLUTIONS_ID,
        intro=text["intro"],
        tone="tinted",
    )
