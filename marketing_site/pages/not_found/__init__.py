"""The not-found page: SPEC §2 message, a button home, buttons to the demo and the offer."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.links import button_link
from marketing_site.i18n import message


def page() -> rx.Component:
    return rx.el.section(
        rx.el.h1(message("not_found.message"), class_name="not-found__title"),
        rx.el.div(
            button_link(message("not_found.home"), routes.HOME.path("fr")),
            button_link(message("not_found.demo"), routes.DEMO.path("fr"), variant="secondary"),
            button_link(message("not_found.offer"), routes.PRICING.path("fr"), variant="ghost"),
            class_name="button-row",
        ),
        class_name="container section not-found",
    )
