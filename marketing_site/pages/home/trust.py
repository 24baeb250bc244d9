"""Recognition strip: the prizes (shared badges) beside our security and hosting marks."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections
from marketing_site.content.home import TRUST_ICONS
from marketing_site.content.layout import PRIZES
from marketing_site.content.words import words


def _entry(src: str, label: str, size: int) -> rx.Component:
    # The label is visible, so the picture itself is decorative.
    return rx.el.li(
        sections.image(src, "", size, size, class_name="home-trust__img"),
        rx.el.span(label, class_name="home-trust__label"),
        class_name="home-trust__item",
    )


def trust(text: dict, lang: str) -> rx.Component:
    names = words(lang, "layout.prizes")
    return rx.el.section(
        rx.el.div(
            rx.el.h2(text["title"], class_name="home-trust__title"),
            rx.el.div(
                rx.el.ul(
                    *[_entry(src, names[key], 72) for key, src in PRIZES.items()],
                    class_name="home-trust__list home-trust__list--prizes",
                ),
                rx.el.ul(
                    *[_entry(TRUST_ICONS[key], label, 40) for key, label in text["marks"].items()],
                    class_name="home-trust__list home-trust__list--marks",
                ),
                class_name="home-trust__groups",
            ),
            class_name="container",
        ),
        class_name="home-trust",
    )
