"""The not-found page: SPEC §2 message, a button home, buttons to the demo and the offer."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.links import button_link
from marketing_site.i18n import message


def page(lang: str | None = None) -> rx.Component:
    """`lang` fixes the language (English under /en/); None follows the browser's."""
    site = lang or "fr"
    return rx.el.section(
        rx.el.h1(message("not_found.message", lang), class_name="not-found__title"),
        rx.el.div(
            button_link(message("not_found.home", lang), routes.HOME.path(site)),
            button_link(message("not_found.demo", lang), routes.DEMO.path(site), variant="secondary"),
            button_link(message("not_found.offer", lang), routes.PRICING.path(site), variant="ghost"),
            class_name="button-row",
        ),
        class_name="container section not-found",
    )
