"""Legal notice: publisher, publication director, host (one legal document)."""

from __future__ import annotations

import reflex as rx

from marketing_site.pages.legal_document import legal_document

ART = "/illustrations/legal/notice.svg"


def page(lang: str) -> rx.Component:
    return legal_document("legal_notice", lang, ART)
