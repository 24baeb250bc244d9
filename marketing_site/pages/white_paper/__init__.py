"""White-paper download page: the digital trends of wealth management."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.download_page import download_page
from marketing_site.components.lead_form import lead_form
from marketing_site.content.words import words


def page(lang: str) -> rx.Component:
    text = words(lang, "white_paper")
    # The strip is in one language on both versions of the page (SPEC).
    banner = {"lang": "en", **words("en", "white_paper_banner")}
    return download_page(text, banner, "/illustrations/account/white-paper-cover.svg", lead_form("white_paper", lang))
