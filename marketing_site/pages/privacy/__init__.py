"""Privacy policy: GDPR rights, intellectual property and cookies (one legal document)."""

from __future__ import annotations

import reflex as rx

from marketing_site.pages.legal_document import legal_document

ART = "/illustrations/legal/privacy.svg"


def page(lang: str) -> rx.Component:
    return legal_document("privacy", lang, ART)
