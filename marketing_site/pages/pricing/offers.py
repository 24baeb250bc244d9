"""The four offer cards: price from the pricing state, contents, add-ons, anchor per offer."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.components.links import button_link, link
from marketing_site.content.pricing import OFFER_ACCENTS, OFFER_NAMES
from marketing_site.state.pricing import INTERACT_CLIENT_PRICE, PricingState

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
    extra = (
        rx.el.p(f"+ {_money(text, INTERACT_CLIENT_PRICE)} {text['units']['per_client']}", class_name="offer__extra")
        if key == HIGHLIGHTED
        else rx.fragment()
    )
    return rx.el.div(
        rx.el.p(
            rx.el.span(shown, class_name="offer__amount", data_testid=f"price-{key}"),
            rx.el.span(text["units"][offer["unit"]], class_name="offer__unit"),
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


def _offer_card(offer: dict, text: dict, lang: str) -> rx.Component:
    key = offer["key"]
    highlighted = key == HIGHLIGHTED
    target = routes.DEMO if offer["unit"] == "quote" else routes.FREE_TRIAL
    return rx.el.article(
        rx.el.p(text["most_popular"], class_name="offer__badge", data_testid="most-popular")
        if highlighted
        else rx.fragment(),
        rx.el.h3(OFFER_NAMES[key], class_name="offer__name"),
        rx.el.p(offer["contains"], class_name="offer__contains"),
        _price(offer, text),
        rx.el.p(offer["summary"], class_name="offer__summary"),
        _list(text["includes_title"], offer["features"], "included"),
        _list(text["addons_title"], offer["addons"], "addons"),
        button_link(
            offer["cta"],
            target.path(lang),
            variant="primary" if highlighted else "secondary",
            class_name="offer__cta",
        ),
        id=key,
        class_name="offer offer--highlighted" if highlighted else "offer",
        style={"--offer-accent": f"var(--{OFFER_ACCENTS[key]})"},
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
