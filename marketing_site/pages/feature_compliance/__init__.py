"""Feature page: compliance and KYC."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.lead_form import lead_form
from marketing_site.pages.feature_page import feature_page


def page(lang: str) -> rx.Component:
    return feature_page(
        lang,
        "feature_compliance",
        documentation_form=lead_form("kyc_documentation", lang),
        accent="compliance",
        art="compliance",
    )
