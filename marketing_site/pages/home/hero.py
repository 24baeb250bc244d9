"""Home hero: the demo button, on the French page a button scrolling to the solutions."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.components.links import button_link
from marketing_site.content.home import HERO_ART
from marketing_site.pages.home.solutions import SOLUTIONS_ID

ART_WIDTH, ART_HEIGHT = 560, 440


def hero(text: dict, lang: str) -> rx.Component:
    actions = [button_link(text["demo_label"], routes.DEMO.path(lang))]
    if text["show_scroll"]:
        # A plain in-page link: `html { scroll-behavior: smooth }` does the scrolling.
        actions.append(button_link(text["scroll_label"], f"#{SOLUTIONS_ID}", variant="secondary"))
    # The likely LCP element: fetched eagerly, first, with its size reserved by attributes.
    art = sections.image(
        HERO_ART,
        text["art_alt"],
        ART_WIDTH,
        ART_HEIGHT,
        loading="eager",
        decoding="sync",
        class_name="home-hero__art",
        custom_attrs={"fetchpriority": "high", "width": str(ART_WIDTH), "height": str(ART_HEIGHT)},
    )
    return sections.hero(text["title"], text["lead"], *actions, eyebrow=text["eyebrow"], illustration=art)
