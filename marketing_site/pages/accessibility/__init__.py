"""Accessibility statement in the RGAA's form: status, standard, tests, known non-conformities,
feedback and remedy (one legal document)."""

from __future__ import annotations

import reflex as rx

from marketing_site.pages.legal_document import legal_document

ART = "/illustrations/legal/notice.svg"


def page(lang: str) -> rx.Component:
    return legal_document("accessibility", lang, ART)
