"""Which offer for which firm: one card per offer, linking to its price on the pricing page."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.content.offers import OFFER_ACCENTS, OFFER_NAMES


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
                )
                for item in text["items"]
            ],
            columns=4,
        ),
        tone="tinted",
    )
