"""About page (French only, `/a-propos`): who we are, then the features overview
("Nos fonctionnalités") with the five anchors of SPEC §2, and a demo banner."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.content.words import words
from marketing_site.pages.about.features import features
from marketing_site.pages.about.hero import hero
from marketing_site.pages.about.who_we_are import who_we_are


def page(lang: str) -> rx.Component:
    text = words(lang, "about")
    cta = text["cta"]
    return rx.fragment(
        hero(text["hero"], text["features"]["items"], lang),
        who_we_are(text["who"]),
        features(text["features"]),
        sections.cta_banner(cta["title"], cta["text"], cta["label"], routes.DEMO.path(lang)),
    )
