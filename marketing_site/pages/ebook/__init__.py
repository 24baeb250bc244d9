"""E-book download page: five reasons the next-generation wealth manager goes digital."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.download_page import download_page
from marketing_site.components.lead_form import lead_form
from marketing_site.content import ebook as content


def page(lang: str) -> rx.Component:
    text = content.FR if lang == "fr" else content.EN
    return download_page(text, content.BANNER, "/illustrations/account/ebook-cover.svg", lead_form("ebook", lang))
