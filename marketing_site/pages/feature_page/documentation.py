"""The documentation request: what the document holds, and the slot of its download form.

The lead-capture form goes into the `#documentation-form` container (pass it as `form`);
until then the container stays empty and takes no room.
"""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections
from marketing_site.pages.feature_page.art import document_cover

FORM_ID = "documentation-form"


def document_card(document: dict, detailed: bool) -> rx.Component:
    """The document's name, summary and format; with `detailed`, its cover and contents."""
    return rx.el.div(
        document_cover(120, 150) if detailed else rx.fragment(),
        rx.el.div(
            rx.el.h3(document["name"], class_name="documentation__name"),
            rx.el.p(document["summary"]),
            sections.bullet_list(document["contents"]) if detailed else rx.fragment(),
            rx.el.p(document["format"], class_name="documentation__format"),
            class_name="documentation__body",
        ),
        class_name="documentation__document",
    )


def documentation_section(text: dict, form: rx.Component | None = None, detailed: bool = True) -> rx.Component:
    """The band the "receive the documentation" buttons scroll to (`id` from the content)."""
    return sections.section(
        text["title"],
        rx.el.div(
            document_card(text["document"], detailed),
            rx.el.div(*([form] if form is not None else []), id=FORM_ID, class_name="documentation__form"),
            class_name="documentation__layout",
        ),
        id=text["id"],
        intro=text["intro"],
        tone="blue",
    )


def contents_section(text: dict, document: dict, tone: str) -> rx.Component:
    """What a document covers, beside its cover (documentation landing pages)."""
    return sections.section(
        text["title"],
        rx.el.div(
            sections.bullet_list(document["contents"]),
            document_cover(240, 300),
            class_name="covers__layout",
        ),
        intro=text["intro"],
        tone=tone,
    )
