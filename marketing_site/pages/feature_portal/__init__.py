"""Feature page: the premium white-label client portal."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.lead_form import lead_form
from marketing_site.pages.feature_page import feature_page


def page(lang: str) -> rx.Component:
    return feature_page(
        lang,
        "feature_portal",
        documentation_form=lead_form("portal_documentation", lang),
        accent="premium",
        art="portal",
    )
