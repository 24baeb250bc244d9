"""Password reset (French route, messages in the browser's language).

Submitting shows a neutral confirmation; the provider's reset endpoint is called when
configured (`state.password_reset`).
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.account import account_aside, account_layout
from marketing_site.components.fields import labelled_input, submit_button, unwired_form
from marketing_site.components.links import link
from marketing_site.i18n import message
from marketing_site.settings import get_settings
from marketing_site.state.password_reset import PasswordResetState


def reset_form() -> rx.Component:
    return rx.cond(
        PasswordResetState.sent,
        rx.el.p(message("reset_password.sent"), role="status", class_name="account__note", data_testid="reset-sent"),
        _form(),
    )


def _form() -> rx.Component:
    return unwired_form(
        labelled_input(message("reset_password.email"), "email", type="email", autocomplete="email", id="reset-email"),
        rx.el.div(
            submit_button(message("reset_password.submit")),
            link(message("reset_password.back"), routes.LOGIN.path("fr"), class_name="account__link"),
            class_name="account__actions",
        ),
        aria_label=message("reset_password.title"),
        on_submit=PasswordResetState.submit,
    )


def help_aside() -> rx.Component:
    email = get_settings().contact_email
    return account_aside(
        "secure-access",
        rx.el.h2(message("reset_password.help_title"), class_name="account__aside-title"),
        rx.el.p(message("reset_password.help_text"), " ", link(email, f"mailto:{email}")),
    )


def page(lang: str) -> rx.Component:
    return account_layout(
        message("reset_password.title"), message("reset_password.lead"), reset_form(), help_aside()
    )
