"""Terms of sale: written in French, shown in French on the English route too (SPEC §2)."""

from __future__ import annotations

import reflex as rx

from marketing_site.content import sales_terms as content
from marketing_site.pages.legal_document import legal_document

ART = "/illustrations/legal/terms.svg"


def page(lang: str) -> rx.Component:
    return legal_document(content.FR if lang == "fr" else content.EN, lang, ART, doc_lang="fr")
