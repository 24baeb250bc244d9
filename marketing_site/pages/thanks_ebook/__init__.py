"""Thank-you page after the e-book download: confirmation and the four feature pages."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.thank_you import NextStep, thank_you_page

# Feature page and the palette accent of its family.
FEATURES = (
    (routes.FEATURE_RELATIONSHIP, "relationclient"),
    (routes.FEATURE_PORTAL, "premium"),
    (routes.FEATURE_SALES, "sales"),
    (routes.FEATURE_COMPLIANCE, "compliance"),
)


def page(lang: str) -> rx.Component:
    return thank_you_page(
        "thanks_ebook",
        [NextStep(feature.key, feature.path("fr"), accent) for feature, accent in FEATURES],
    )
