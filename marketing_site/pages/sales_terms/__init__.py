"""Terms of sale: written in French, shown in French on the English route too (SPEC §2):
there is no `content/en/sales_terms.md`, so the French text shows with a note."""

from __future__ import annotations

import reflex as rx

from marketing_site.pages.legal_document import legal_document

ART = "/illustrations/legal/terms.svg"


def page(lang: str) -> rx.Component:
    return legal_document("sales_terms", lang, ART)
