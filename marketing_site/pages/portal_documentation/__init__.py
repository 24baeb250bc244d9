"""Landing page of the client-portal documentation for private banks (French only)."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.lead_form import lead_form
from marketing_site.pages.feature_page import documentation_landing


def page(lang: str) -> rx.Component:
    return documentation_landing(
        lang,
        "portal_documentation",
        documentation_form=lead_form("portal_documentation", lang),
        accent="premium",
        art="portal",
        related=routes.FEATURE_PORTAL,
    )
