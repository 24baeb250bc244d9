"""About hero: the page title, a demo button and a table of contents of the five features."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.components.links import button_link, link


def _contents(label: str, items: list[dict]) -> rx.Component:
    return rx.el.nav(
        rx.el.p(label, class_name="about-contents__title"),
        rx.el.ol(
            *[rx.el.li(link(item["title"], f"#{item['id']}")) for item in items],
            class_name="about-contents__list",
        ),
        aria_label=label,
        class_name="about-contents",
    )


def hero(text: dict, items: list[dict], lang: str) -> rx.Component:
    return sections.hero(
        text["title"],
        text["lead"],
        button_link(text["demo_label"], routes.DEMO.path(lang)),
        eyebrow=text["eyebrow"],
        illustration=_contents(text["nav_label"], items),
    )
