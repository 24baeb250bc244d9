"""E-book download page: five reasons the next-generation wealth manager goes digital."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.download_page import download_page
from marketing_site.components.lead_form import lead_form
from marketing_site.content.words import words


def page(lang: str) -> rx.Component:
    text = words(lang, "ebook")
    # The strip is in one language on both versions of the page (SPEC).
    banner = {"lang": "fr", **words("fr", "ebook_banner")}
    return download_page(text, banner, "/illustrations/account/ebook-cover.svg", lead_form("ebook", lang))
