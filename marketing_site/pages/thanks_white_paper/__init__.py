"""Thank-you page after the white-paper download: confirmation, webinars and blog."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.thank_you import NextStep, thank_you_page
from marketing_site.settings import get_settings


def page(lang: str) -> rx.Component:
    return thank_you_page(
        "thanks_white_paper",
        [
            NextStep("webinars", routes.WEBINARS.path("fr"), "premium"),
            NextStep("blog", get_settings().blog_url, "relationclient"),
        ],
    )
