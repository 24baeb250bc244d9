"""Digital financial-product subscription for distributors (French only).

Its audience list is hidden on phones (SPEC §2).
"""

from __future__ import annotations

import reflex as rx

from marketing_site.components.lead_form import lead_form
from marketing_site.pages.feature_page import feature_page


def page(lang: str) -> rx.Component:
    return feature_page(
        lang,
        "subscription",
        documentation_form=lead_form("subscription_documentation", lang),
        accent="primary",
        art="subscription",
        audience_on_mobile=False,
    )
