"""The four offer cards: price from the pricing state, contents, add-ons, anchor per offer.

What a card says is included or optional comes from `content.offers` (the compare table's
source too); the words naming each feature are the ones the compare table shows. So do the
highlighted plan (`HIGHLIGHTED`) and the footnotes (`FOOTNOTES`: marks on the lines and prices
they qualify, the notes listed under the cards).
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.components.links import button_link, link
from marketing_site.components.offer_notes import described_by, highlight_badge, marks, note_list
from marketing_site.content.offers import (
    HIGHLIGHTED,
    OFFER_ACCENTS,
    OFFER_NAMES,
    OFFERS,
    Footnote,
    feature_notes,
    price_notes,
)
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


def _money(text: dict, amount: rx.Var | str) -> rx.Var | str:
    """An amount in the page's currency: "8 €" in French, "$8" in English."""
    return f"{text['currency_prefix']}{amount}{text['currency_suffix']}"


def _price(offer: dict, text: dict, lang: str) -> rx.Component:
    key = offer["key"]
    notes = price_notes(key)
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
            marks(notes, lang),
            class_name="offer__price-line",
            **described_by(notes),
        ),
        extra,
        rx.el.p(offer["degressive"], class_name="offer__degressive"),
        class_name="offer__price",
    )


# A card's line: its words and the footnotes qualifying it.
Line = tuple[str, tuple[Footnote, ...]]


def _list(title: str, lines: list[Line], modifier: str, lang: str) -> rx.Component:
    return rx.el.div(
        rx.el.h4(title, class_name="offer__list-title"),
        rx.el.ul(
            *[rx.el.li(label, marks(notes, lang), **described_by(notes)) for label, notes in lines],
            class_name=f"offer__list offer__list--{modifier}",
        ),
    )


def _included(key: str, text: dict, names: dict) -> list[Line]:
    """The card's "included" lines: features, or "everything in offer X"."""
    return [
        (text["all_of"][item], ()) if item in OFFERS else (names[item], feature_notes(item))
        for item in OFFERS[key].highlights
    ]


def _addons(key: str, names: dict) -> list[Line]:
    return [(names[addon], feature_notes(addon)) for addon in OFFERS[key].addons]


def _card_notes(key: str) -> list[Footnote]:
    """The footnotes a card marks."""
    features = [item for item in (*OFFERS[key].highlights, *OFFERS[key].addons) if item not in OFFERS]
    return [*price_notes(key), *(note for feature in features for note in feature_notes(feature))]


def _offer_card(offer: dict, text: dict, lang: str) -> rx.Component:
    key = offer["key"]
    highlighted = key == HIGHLIGHTED
    target = routes.DEMO if OFFERS[key].unit == "quote" else routes.FREE_TRIAL
    names = words(lang, "offers.features")
    return rx.el.article(
        highlight_badge(lang, "offer__badge") if highlighted else rx.fragment(),
        rx.el.h3(OFFER_NAMES[key], class_name="offer__name"),
        rx.el.p(offer["contains"], class_name="offer__contains"),
        _price(offer, text, lang),
        rx.el.p(offer["summary"], class_name="offer__summary"),
        _list(text["includes_title"], _included(key, text, names), "included", lang),
        _list(text["addons_title"], _addons(key, names), "addons", lang),
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
        note_list((note for offer in text["items"] for note in _card_notes(offer["key"])), lang),
        rx.el.div(
            rx.el.p(text["tax_note"], class_name="offers__note"),
            link(text["compare_link"], routes.COMPARE.path(lang), class_name="offers__compare"),
            class_name="offers__footer",
        ),
        intro=text["intro"],
    )
