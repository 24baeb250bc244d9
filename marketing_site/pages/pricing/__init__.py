"""The pricing page ("Nos offres & tarifs"): offers, free trial, add-on services, FAQ."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.sections import cta_banner
from marketing_site.content.words import words
from marketing_site.pages.pricing.faq import faq
from marketing_site.pages.pricing.hero import hero
from marketing_site.pages.pricing.offers import offers
from marketing_site.pages.pricing.services import services
from marketing_site.pages.pricing.trial import trial, unlimited_banner


def page(lang: str) -> rx.Component:
    text = words(lang, "pricing")
    return rx.fragment(
        hero(text["hero"], lang),
        offers(text["offers"], lang),
        trial(text["trial"], lang),
        services(text["services"]),
        faq(text["faq"]),
        unlimited_banner(text["unlimited"], lang),
        cta_banner(text["cta"]["title"], text["cta"]["text"], text["cta"]["label"], routes.DEMO.path(lang)),
    )
