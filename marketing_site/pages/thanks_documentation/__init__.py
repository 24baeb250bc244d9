"""Thank-you page after a documentation download: confirmation, offers and free trial."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.thank_you import NextStep, thank_you_page


def page(lang: str) -> rx.Component:
    return thank_you_page(
        "thanks_documentation",
        [
            NextStep("pricing", routes.PRICING.path("fr"), "relationclient"),
            NextStep("free_trial", routes.FREE_TRIAL.path("fr"), "compliance"),
        ],
    )
