"""Feature page: compliance and KYC."""

from __future__ import annotations

import reflex as rx

from marketing_site.content import feature_compliance as content
from marketing_site.pages.feature_page import feature_page


def page(lang: str) -> rx.Component:
    return feature_page(lang, content, accent="compliance", art="compliance")
