"""The comparison table: one row per feature, one column per offer, grouped by module.

Each cell shows a symbol (hidden from screen readers) and says its status in words
(visually hidden for ✓ and —, visible for add-ons). The table scrolls inside its own
wrapper on narrow screens, with the feature column kept in view.

Its rows have two levels of headers (the module's row group, then the feature): each data
cell names its offer and its feature (`headers`), and each feature its module, rather than
leaving screen readers to guess from `scope`. A feature's footnotes (`content.offers.FOOTNOTES`)
mark its row header, and their notes follow the legend.
"""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections
from marketing_site.components.offer_notes import described_by, marks, note_list
from marketing_site.content import offers as facts
from marketing_site.content.offers import INCLUDED, NOT_INCLUDED, OFFER_KEYS, OFFER_NAMES, OPTIONAL
from marketing_site.content.words import words

CAPTION_ID = "compare-caption"
SYMBOLS = {INCLUDED: "✓", NOT_INCLUDED: "—", OPTIONAL: "+"}


def header_id(kind: str, key: str) -> str:
    """The id of a header cell: `offer`, `group` or `feature`, and its key."""
    return f"compare-{kind}-{key}"


def _status(status: str, labels: dict, headers: str) -> rx.Component:
    label_class = "compare__label" if status == OPTIONAL else "sr-only"
    return rx.el.td(
        rx.el.span(SYMBOLS[status], class_name="compare__symbol", aria_hidden="true"),
        rx.el.span(labels[status], class_name=label_class),
        class_name=f"compare__cell compare__cell--{status}",
        headers=headers,
    )


def _group(group_key: str, features: tuple[str, ...], text: dict, names: dict, lang: str) -> rx.Component:
    group_id = header_id("group", group_key)
    return rx.el.tbody(
        rx.el.tr(
            rx.el.th(text["groups"][group_key], scope="rowgroup", id=group_id),
            # The module's name heads the feature column only: a header spanning the offers'
            # columns would, for checkers that map headers by column, head every cell below.
            rx.el.td(
                col_span=len(OFFER_KEYS),
                headers=" ".join([*(header_id("offer", offer) for offer in OFFER_KEYS), group_id]),
            ),
            class_name="compare__group",
        ),
        *[
            rx.el.tr(
                rx.el.th(
                    names[feature],
                    marks(facts.feature_notes(feature), lang),
                    scope="row",
                    class_name="compare__feature",
                    id=header_id("feature", feature),
                    headers=group_id,
                    **described_by(facts.feature_notes(feature)),
                ),
                *[
                    _status(
                        facts.status(offer, feature),
                        text["status"],
                        f"{header_id('offer', offer)} {header_id('feature', feature)}",
                    )
                    for offer in OFFER_KEYS
                ],
            )
            for feature in features
        ],
    )


def comparison(text: dict, lang: str) -> rx.Component:
    names = words(lang, "offers.features")
    table = rx.el.table(
        rx.el.caption(text["caption"], id=CAPTION_ID, class_name="compare__caption"),
        rx.el.thead(
            rx.el.tr(
                rx.el.th(text["feature_header"], scope="col", class_name="compare__feature"),
                *[
                    rx.el.th(OFFER_NAMES[key], scope="col", class_name="compare__offer", id=header_id("offer", key))
                    for key in OFFER_KEYS
                ],
            )
        ),
        *[_group(group_key, features, text, names, lang) for group_key, features in facts.FEATURE_GROUPS],
        class_name="compare__table",
        data_testid="compare-table",
    )
    return sections.section(
        text["title"],
        rx.el.p(text["scroll_hint"], class_name="compare__hint"),
        rx.el.div(
            table,
            class_name="compare__scroll",
            role="region",
            aria_labelledby=CAPTION_ID,
            tab_index=0,
        ),
        rx.el.p(text["legend"], class_name="compare__legend"),
        note_list((note for feature in facts.FEATURES for note in facts.feature_notes(feature)), lang),
    )
