"""Trial sign-up (French route, messages in the browser's language).

Authentication and the environment-creation call come later; the form never submits.
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.account import account_aside, account_layout
from marketing_site.components.fields import labelled_input, submit_button, unwired_form
from marketing_site.components.links import button_link, link
from marketing_site.i18n import message

# (input name, message key, input type, autocomplete)
FIELDS = (
    ("lastName", "free_trial.last_name", "text", "family-name"),
    ("firstName", "free_trial.first_name", "text", "given-name"),
    ("company", "free_trial.company", "text", "organization"),
    ("phone", "free_trial.phone", "tel", "tel"),
)

OFFER_KEYS = ("duration", "card", "users", "data", "storage", "features")


def trial_form() -> rx.Component:
    return unwired_form(
        rx.el.div(
            *[
                labelled_input(message(key), name, type=type_, autocomplete=autocomplete, id=f"trial-{name}")
                for name, key, type_, autocomplete in FIELDS
            ],
            class_name="fields__grid",
        ),
        submit_button(message("free_trial.submit")),
        rx.el.p(
            message("free_trial.privacy"),
            " ",
            link(message("free_trial.privacy_link"), routes.PRIVACY.path("fr")),
            class_name="account__note",
        ),
        aria_label=message("free_trial.title"),
    )


def trial_offer() -> rx.Component:
    return account_aside(
        "trial",
        rx.el.h2(message("free_trial.offer_title"), class_name="account__aside-title"),
        rx.el.ul(
            *[rx.el.li(message(f"free_trial.offer_{key}")) for key in OFFER_KEYS],
            class_name="account__checklist",
        ),
        rx.el.p(message("free_trial.after")),
        button_link(message("free_trial.pricing"), routes.PRICING.path("fr"), variant="secondary"),
    )


def page(lang: str) -> rx.Component:
    return account_layout(
        message("free_trial.title"),
        message("free_trial.lead"),
        trial_form(),
        trial_offer(),
        eyebrow=message("free_trial.eyebrow"),
    )
