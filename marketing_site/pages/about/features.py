"""The features overview: one anchored block per feature, text beside an illustration."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections
from marketing_site.content.about import FEATURE_IMAGES

ART_WIDTH, ART_HEIGHT = 360, 260


def _feature(item: dict) -> rx.Component:
    return rx.el.article(
        rx.el.div(
            rx.el.h3(item["title"]),
            *[rx.el.p(p) for p in item["paragraphs"]],
            sections.bullet_list(item["bullets"]),
            class_name="about-feature__text",
        ),
        sections.image(
            FEATURE_IMAGES[item["id"]], item["image_alt"], ART_WIDTH, ART_HEIGHT, class_name="about-feature__art"
        ),
        id=item["id"],
        class_name="about-feature",
    )


def features(text: dict) -> rx.Component:
    return sections.section(
        text["title"],
        *[_feature(item) for item in text["items"]],
        intro=text["intro"],
        id="fonctionnalites",
    )
