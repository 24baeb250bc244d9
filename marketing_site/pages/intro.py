"""A page opening: its heading and one sentence, from the page's title and description."""

from __future__ import annotations

import reflex as rx

from marketing_site.seo import page_text


def intro(key: str, lang: str) -> rx.Component:
    text = page_text(key, lang)
    return rx.el.section(
        rx.el.h1(text["title"].split(" | ")[0]),
        rx.el.p(text["description"], class_name="lead"),
        class_name="container section",
    )
