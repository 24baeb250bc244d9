"""Login (French route, messages in the browser's language).

Connexion starts the identity provider's redirect: the form is a plain GET to
/auth/login carrying only the email (as `login_hint`) and the return path; the password
input has no name, so it is never sent anywhere. An authenticated ADVISOR or INVESTOR
who opens this page goes to their application (the role redirect's trigger).
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.account import account_aside, account_layout
from marketing_site.components.client import NativeForm
from marketing_site.components.fields import labelled_input, submit_button
from marketing_site.components.links import button_link, link
from marketing_site.i18n import message
from marketing_site.state.auth import AuthState, LoginFormState

ON_LOAD = [LoginFormState.read_return_to, AuthState.redirect_by_role]


def login_form() -> rx.Component:
    return NativeForm.create(
        # `username` (what password managers pair with the password) is an autofill name for
        # text inputs, not for type="email"; the email keyboard comes from `inputmode`.
        labelled_input(
            message("login.email"),
            "login_hint",
            type="text",
            autocomplete="username",
            id="login-email",
            input_mode="email",
            spell_check=False,
            auto_capitalize="none",
        ),
        labelled_input(
            message("login.password"), None, type="password", autocomplete="current-password", id="login-password"
        ),
        # No `readonly`: HTML forbids it on a hidden input (React needs no onChange for one either).
        rx.el.input(type="hidden", name="return_to", value=LoginFormState.returnTo),
        rx.el.div(
            submit_button(message("login.submit")),
            link(message("login.forgot"), routes.RESET_PASSWORD.path("fr"), class_name="account__link"),
            class_name="account__actions",
        ),
        rx.el.p(message("login.security"), class_name="account__note"),
        method="get",
        action="/auth/login",
        class_name="fields",
        custom_attrs={"aria-label": message("login.title"), "data-testid": "login-form"},
    )


def signed_in() -> rx.Component:
    return rx.el.div(
        rx.el.p(message("login.signed_in"), " ", rx.el.strong(AuthState.user.get("email", "").to(str))),
        class_name="fields",
        data_testid="login-signed-in",
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
    return account_layout(
        message("login.title"),
        message("login.lead"),
        rx.cond(AuthState.signedIn, signed_in(), login_form()),
        new_visitor_aside(),
    )
