"""The consultant who runs the demo: portrait, role, short bio, areas of expertise."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.sections import bullet_list, image


def consultant_card(words: dict) -> rx.Component:
    text = words["consultant"]
    return rx.el.aside(
        image(
            "/illustrations/legal/consultant.svg",
            text["portrait_alt"],
            160,
            160,
            loading="eager",
            class_name="consultant-card__portrait",
        ),
        rx.el.p(text["eyebrow"], class_name="eyebrow"),
        rx.el.h3(text["name"], class_name="consultant-card__name"),
        rx.el.p(text["role"], class_name="consultant-card__role"),
        rx.el.p(text["bio"]),
        rx.el.p(text["expertise_label"], class_name="consultant-card__label"),
        bullet_list(text["expertise"]),
        rx.el.p(text["languages"], class_name="consultant-card__languages"),
        class_name="card consultant-card",
        aria_label=text["name"],
    )
