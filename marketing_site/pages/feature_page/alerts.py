"""The prioritised alerts: four category cards beside a sample alert."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections
from marketing_site.pages.feature_page.cards import feature_cards


def sample_alert(example: dict) -> rx.Component:
    """An alert as an adviser would see it in the CRM."""
    return rx.el.figure(
        rx.el.figcaption(example["label"], class_name="alert-sample__label"),
        rx.el.div(
            rx.el.p(
                rx.el.span(example["priority"], class_name="alert-sample__priority"),
                rx.el.span(example["category"], class_name="alert-sample__category"),
                class_name="alert-sample__meta",
            ),
            rx.el.p(example["title"], class_name="alert-sample__title"),
            rx.el.p(example["text"], class_name="alert-sample__text"),
            class_name="alert-sample__notice",
        ),
        class_name="alert-sample",
    )


def alerts_section(text: dict, accent: str, tone: str) -> rx.Component:
    return sections.section(
        text["title"],
        rx.el.div(
            feature_cards(text["items"], accent, columns=2),
            sample_alert(text["example"]),
            class_name="alerts__layout",
        ),
        id=text["id"],
        intro=text["intro"],
        tone=tone,
    )
