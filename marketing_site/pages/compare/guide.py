"""Which offer for which firm: one card per offer, linking to its price on the pricing page; the
highlighted plan's card has its badge, as on the pricing page."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.components.offer_notes import highlight_badge
from marketing_site.content.offers import HIGHLIGHTED, OFFER_ACCENTS, OFFER_NAMES


def guide(text: dict, lang: str) -> rx.Component:
    pricing = routes.PRICING.path(lang)
    return sections.section(
        text["title"],
        sections.card_grid(
            *[
                sections.card(
                    OFFER_NAMES[item["key"]],
                    item["text"],
                    href=f"{pricing}#{item['key']}",
                    link_label=text["link"].format(name=OFFER_NAMES[item["key"]]),
                    accent=OFFER_ACCENTS[item["key"]],
                    extra=highlight_badge(lang, "compare-guide__badge") if item["key"] == HIGHLIGHTED else None,
                )
                for item in text["items"]
            ],
            columns=4,
        ),
        tone="tinted",
    )
