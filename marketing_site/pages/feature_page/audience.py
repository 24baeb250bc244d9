"""Who a solution or a document is for: a short list of professions."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections


def audience_section(text: dict, tone: str, on_mobile: bool = True) -> rx.Component:
    """`on_mobile=False` hides the whole band below 600 px (subscription page, SPEC §2)."""
    band = sections.section(
        text["title"],
        rx.el.ul(
            *[rx.el.li(item, class_name="audience__item") for item in text["items"]],
            class_name="audience__list",
        ),
        id=text["id"],
        intro=text["intro"],
        tone=tone,
    )
    return rx.el.div(band, class_name="audience" if on_mobile else "audience audience--desktop-only")
