"""The not-found page: SPEC §2 message, up to three pages near the path asked for, a button
home, buttons to the demo and the offer."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.brand import BRAND_NAME
from marketing_site.components.client import NotFoundSuggestions
from marketing_site.components.links import button_link
from marketing_site.i18n import message
from marketing_site.seo import page_text

SUGGESTIONS = 3


def known_pages(lang: str) -> list[dict[str, str]]:
    """Every page an anonymous visitor can open in `lang`, with its title (route table)."""
    return [
        {"path": path, "title": page_text(page.key, lang)["title"].removesuffix(f" | {BRAND_NAME}")}
        for page in routes.PAGES
        if not page.protected
        for page_lang, path in page.paths()
        if page_lang == lang
    ]


def page(lang: str | None = None) -> rx.Component:
    """`lang` fixes the language (English under /en/); None follows the browser's."""
    site = lang or "fr"
    return rx.el.section(
        rx.el.h1(message("not_found.message", lang), class_name="not-found__title"),
        NotFoundSuggestions.create(
            pages=known_pages(site),
            prefix=routes.LANGUAGES[site],
            limit=SUGGESTIONS,
            heading=message("not_found.suggestions", lang),
            class_name="not-found__suggestions",
        ),
        rx.el.div(
            button_link(message("not_found.home", lang), routes.HOME.path(site)),
            button_link(message("not_found.demo", lang), routes.DEMO.path(site), variant="secondary"),
            button_link(message("not_found.offer", lang), routes.PRICING.path(site), variant="ghost"),
            class_name="button-row",
        ),
        class_name="container section not-found",
    )
