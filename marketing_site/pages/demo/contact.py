"""The contact-us mail link, for questions before booking."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.links import button_link
from marketing_site.components.sections import section
from marketing_site.pages.demo.mail import mailto
from marketing_site.settings import get_settings


def contact_section(words: dict) -> rx.Component:
    text = words["contact"]
    return section(
        text["title"],
        rx.el.p(text["text"], class_name="demo-contact__text"),
        rx.el.div(
            button_link(text["cta"], mailto(text["subject"]), variant="secondary"),
            rx.el.span(get_settings().contact_email, class_name="demo-contact__address"),
            class_name="button-row demo-contact__row",
        ),
    )
