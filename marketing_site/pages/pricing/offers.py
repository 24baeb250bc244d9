"""The four offer cards: price from the pricing state, contents, add-ons, anchor per offer.

What a card says is included or optional comes from `content.offers` (the compare table's
source too); the words naming each feature are the ones the compare table shows.
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.components.links import button_link, link
from marketing_site.content.offers import OFFER_ACCENTS, OFFER_NAMES, OFFERS
from marketing_site.content.words import words
from marketing_site.state.pricing import PricingState
from marketing_site.theme import accent_class

# Each offer's amount, as a state var so the price-set switch updates the page.
PRICE_VARS = {
    "engage": PricingState.priceEngage,
    "manage": PricingState.priceManage,
    "interact": PricingState.priceInteract,
    "complete": PricingState.priceComplete,
}
HIGHLIGHTED = "interact"


def _money(text: dict, amount: rx.Var | str) -> rx.Var | str:
    """An amount in the page's currency: "8 €" in French, "$8" in English."""
    return f"{text['currency_prefix']}{amount}{text['currency_suffix']}"


def _price(offer: dict, text: dict) -> rx.Component:
    key = offer["key"]
    amount = PRICE_VARS[key]
    shown = rx.cond(amount == "", text["on_quote"], _money(text, amount))
    client_price = OFFERS[key].client_price
    extra = (
        rx.el.p(f"+ {_money(text, client_price)} {text['units']['per_client']}", class_name="offer__extra")
        if client_price
        else rx.fragment()
    )
    return rx.el.div(
        rx.el.p(
            rx.el.span(shown, class_name="offer__amount", data_testid=f"price-{key}"),
            rx.el.span(text["units"][OFFERS[key].unit], class_name="offer__unit"),
            class_name="offer__price-line",
        ),
        extra,
        rx.el.p(offer["degressive"], class_name="offer__degressive"),
        class_name="offer__price",
    )


def _list(title: str, items: list[str], modifier: str) -> rx.Component:
    return rx.el.div(
        rx.el.h4(title, class_name="offer__list-title"),
        rx.el.ul(*[rx.el.li(item) for item in items], class_name=f"offer__list offer__list--{modifier}"),
    )


def _included(key: str, text: dict, names: dict) -> list[str]:
    """The card's "included" lines: features, or "everything in offer X"."""
    return [text["all_of"][item] if item in OFFERS else names[item] for item in OFFERS[key].highlights]


def _offer_card(offer: dict, text: dict, lang: str) -> rx.Component:
    key = offer["key"]
    highlighted = key == HIGHLIGHTED
    target = routes.DEMO if OFFERS[key].unit == "quote" else routes.FREE_TRIAL
    names = words(lang, "offers.features")
    return rx.el.article(
        rx.el.p(text["most_popular"], class_name="offer__badge", data_testid="most-popular")
        if highlighted
        else rx.fragment(),
        rx.el.h3(OFFER_NAMES[key], class_name="offer__name"),
        rx.el.p(offer["contains"], class_name="offer__contains"),
        _price(offer, text),
        rx.el.p(offer["summary"], class_name="offer__summary"),
        _list(text["includes_title"], _included(key, text, names), "included"),
        _list(text["addons_title"], [names[addon] for addon in OFFERS[key].addons], "addons"),
        button_link(
            offer["cta"],
            target.path(lang),
            variant="primary" if highlighted else "secondary",
            class_name="offer__cta",
        ),
        id=key,
        class_name=f"offer {'offer--highlighted ' if highlighted else ''}{accent_class(OFFER_ACCENTS[key])}",
    )


def offers(text: dict, lang: str) -> rx.Component:
    return sections.section(
        text["title"],
        rx.el.div(*[_offer_card(offer, text, lang) for offer in text["items"]], class_name="offers"),
        rx.el.div(
            rx.el.p(text["tax_note"], class_name="offers__note"),
            link(text["compare_link"], routes.COMPARE.path(lang), class_name="offers__compare"),
            class_name="offers__footer",
        ),
        intro=text["intro"],
    )
