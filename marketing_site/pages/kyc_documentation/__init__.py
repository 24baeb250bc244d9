"""Landing page of the KYC documentation (French only)."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.lead_form import lead_form
from marketing_site.pages.feature_page import documentation_landing


def page(lang: str) -> rx.Component:
    return documentation_landing(
        lang,
        "kyc_documentation",
        documentation_form=lead_form("kyc_documentation", lang),
        accent="compliance",
        art="compliance",
        related=routes.FEATURE_COMPLIANCE,
    )
