"""Pricing hero: the page title, trial and demo calls to action."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.components.links import button_link


def hero(text: dict, lang: str) -> rx.Component:
    return sections.hero(
        text["title"],
        text["lead"],
        button_link(text["trial_cta"], routes.FREE_TRIAL.path(lang)),
        button_link(text["demo_cta"], routes.DEMO.path(lang), variant="secondary"),
        eyebrow=text["eyebrow"],
        illustration=sections.image("/illustrations/pricing/offers.svg", "", 480, 360, loading="eager"),
    )
