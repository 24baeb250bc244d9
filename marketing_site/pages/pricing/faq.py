"""Short answers on users, clients, degressive pricing and billing of add-ons."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections


def faq(text: dict) -> rx.Component:
    return sections.section(
        text["title"],
        rx.el.div(
            *[
                rx.el.div(
                    rx.el.h3(item["question"], class_name="pricing-faq__question"),
                    rx.el.p(item["answer"], class_name="pricing-faq__answer"),
                    class_name="pricing-faq__item",
                )
                for item in text["items"]
            ],
            class_name="pricing-faq",
        ),
    )
