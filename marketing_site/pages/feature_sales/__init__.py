"""Feature page: prospecting, sales pipeline and commercial dashboards."""

from __future__ import annotations

import reflex as rx

from marketing_site.pages.feature_page import feature_page


def page(lang: str) -> rx.Component:
    return feature_page(lang, "feature_sales", accent="sales", art="sales")
