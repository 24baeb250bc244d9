"""Password reset (French route, messages in the browser's language).

Honest about what happens (`state.password_reset`): with the provider's reset endpoint
configured, a form whose submission really calls it, then what the provider answered;
without it, no form, but how to reset: the provider's own login page ("forgotten
password") or contact.
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.account import account_aside, account_layout
from marketing_site.components.auth_status import backend_link
from marketing_site.components.fields import labelled_input, submit_button, unwired_form
from marketing_site.components.links import link
from marketing_site.i18n import message
from marketing_site.settings import get_settings
from marketing_site.state.auth import login_url
from marketing_site.state.password_reset import FAILED, RATE_LIMITED, REQUESTED, PasswordResetState

ON_LOAD = PasswordResetState.load


def _contact() -> rx.Component:
    email = get_settings().contact_email
    return link(email, f"mailto:{email}")


def reset_form() -> rx.Component:
    return rx.match(
        PasswordResetState.outcome,
        (
            REQUESTED,
            rx.el.p(
                message("reset_password.requested"),
                role="status",
                class_name="account__note",
                data_testid="reset-requested",
            ),
        ),
        (
            FAILED,
            rx.fragment(
                rx.el.p(
                    message("reset_password.failed"),
                    " ",
                    _contact(),
                    role="alert",
                    class_name="account__note",
                    data_testid="reset-failed",
                ),
                _form(),
            ),
        ),
        (
            RATE_LIMITED,
            rx.fragment(
                rx.el.p(
                    message("reset_password.rate_limited"),
                    role="alert",
                    class_name="account__note",
                    data_testid="reset-rate-limited",
                ),
                _form(),
            ),
        ),
        _form(),
    )


def _form() -> rx.Component:
    return unwired_form(
        labelled_input(
            message("reset_password.email"),
            "email",
            type="email",
            autocomplete="email",
            id="reset-email",
            required=True,
        ),
        rx.el.div(
            submit_button(message("reset_password.submit"), disabled=PasswordResetState.busy),
            link(message("reset_password.back"), routes.LOGIN.path("fr"), class_name="account__link"),
            class_name="account__actions",
        ),
        aria_label=message("reset_password.title"),
        on_submit=PasswordResetState.submit,
    )


def manual_reset() -> rx.Component:
    """Without a reset endpoint: where to reset, and never a claim that a mail was sent."""
    return rx.el.div(
        rx.el.p(message("reset_password.manual_steps"), " ", _contact(), class_name="account__note"),
        rx.el.div(
            backend_link(
                message("reset_password.provider_link"),
                login_url(routes.LOGIN.path("fr")),
                class_name="btn btn--primary",
                data_testid="reset-provider-link",
            ),
            link(message("reset_password.back"), routes.LOGIN.path("fr"), class_name="account__link"),
            class_name="account__actions",
        ),
        data_testid="reset-manual",
    )


def help_aside() -> rx.Component:
    return account_aside(
        "secure-access",
        rx.el.h2(message("reset_password.help_title"), class_name="account__aside-title"),
        rx.el.p(message("reset_password.help_text"), " ", _contact()),
    )


def page(lang: str) -> rx.Component:
    return account_layout(
        message("reset_password.title"),
        rx.cond(PasswordResetState.self_service, message("reset_password.lead"), message("reset_password.manual_lead")),
        rx.cond(PasswordResetState.self_service, reset_form(), manual_reset()),
        help_aside(),
    )
