"""Compare hero: the page title, links to pricing and to a demo."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.components.links import button_link


def hero(text: dict, lang: str) -> rx.Component:
    return sections.hero(
        text["title"],
        text["lead"],
        button_link(text["pricing_cta"], routes.PRICING.path(lang)),
        button_link(text["demo_cta"], routes.DEMO.path(lang), variant="secondary"),
        eyebrow=text["eyebrow"],
        illustration=sections.image("/illustrations/pricing/compare.svg", "", 480, 340, loading="eager"),
    )
