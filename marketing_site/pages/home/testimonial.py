"""The testimonial band around the shared carousel."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections
from marketing_site.components.carousel import testimonial_carousel


def testimonial(text: dict, lang: str) -> rx.Component:
    return sections.section(text["title"], testimonial_carousel(lang), tone="blue")
