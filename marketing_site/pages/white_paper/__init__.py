"""White-paper download page: the digital trends of wealth management."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.download_page import download_page
from marketing_site.components.lead_form import lead_form
from marketing_site.content import white_paper as content


def page(lang: str) -> rx.Component:
    text = content.FR if lang == "fr" else content.EN
    return download_page(text, content.BANNER, "/illustrations/account/white-paper-cover.svg", lead_form("white_paper", lang))
