"""Login (French route, messages in the browser's language): form wired to no call yet.

Real login is a later redirect to the identity provider; until then the form never submits.
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.account import account_aside, account_layout
from marketing_site.components.fields import labelled_input, submit_button, unwired_form
from marketing_site.components.links import button_link, link
from marketing_site.i18n import message


def login_form() -> rx.Component:
    return unwired_form(
        labelled_input(message("login.email"), "email", type="email", autocomplete="username", id="login-email"),
        labelled_input(
            message("login.password"), "password", type="password", autocomplete="current-password", id="login-password"
        ),
        rx.el.div(
            submit_button(message("login.submit")),
            link(message("login.forgot"), routes.RESET_PASSWORD.path("fr"), class_name="account__link"),
            class_name="account__actions",
        ),
        rx.el.p(message("login.security"), class_name="account__note"),
        aria_label=message("login.title"),
    )


def new_visitor_aside() -> rx.Component:
    return account_aside(
        "secure-access",
        rx.el.h2(message("login.new_title"), class_name="account__aside-title"),
        rx.el.p(message("login.new_text")),
        rx.el.div(
            button_link(message("login.demo"), routes.DEMO.path("fr")),
            button_link(message("login.trial"), routes.FREE_TRIAL.path("fr"), variant="secondary"),
            class_name="button-row",
        ),
    )


def page(lang: str) -> rx.Component:
    return account_layout(message("login.title"), message("login.lead"), login_form(), new_visitor_aside())
