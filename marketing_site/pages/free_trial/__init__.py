"""Trial sign-up (French route, messages in the browser's language). Authentication required.

An anonymous visitor is sent to login (fragment `mode=trial`) and comes back to the same
path and query; the names are prefilled from the identity; Valider registers the trial
environment (`state.trial`).
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.account import account_aside, account_layout
from marketing_site.components.fields import labelled_input
from marketing_site.components.links import button_link, link
from marketing_site.i18n import message
from marketing_site.state.trial import TrialState

ON_LOAD = TrialState.on_load

# (input name, message key, input type, autocomplete)
FIELDS = (
    ("lastName", "free_trial.last_name", "text", "family-name"),
    ("firstName", "free_trial.first_name", "text", "given-name"),
    ("company", "free_trial.company", "text", "organization"),
    ("phone", "free_trial.phone", "tel", "tel"),
)

OFFER_KEYS = ("duration", "card", "users", "data", "storage", "features")


def trial_form() -> rx.Component:
    return rx.el.form(
        rx.el.div(
            *[
                labelled_input(
                    message(key),
                    name,
                    type=type_,
                    autocomplete=autocomplete,
                    id=f"trial-{name}",
                    value=getattr(TrialState, name),
                    on_change=getattr(TrialState, f"set_{name}"),
                )
                for name, key, type_, autocomplete in FIELDS
            ],
            class_name="fields__grid",
        ),
        rx.el.button(
            rx.cond(TrialState.submitting, message("free_trial.submitting"), message("free_trial.submit")),
            type="submit",
            disabled=TrialState.submitting,
            class_name="btn btn--primary",
            data_testid="trial-submit",
        ),
        # Said while the environment is being created (the button's own words change where a
        # screen reader does not look again; the page then leaves for the application).
        rx.el.p(
            rx.cond(TrialState.submitting, message("free_trial.submitting"), ""),
            role="status",
            class_name="sr-only",
            data_testid="trial-status",
        ),
        rx.el.p(
            message("free_trial.privacy"),
            " ",
            link(message("free_trial.privacy_link"), routes.PRIVACY.path("fr")),
            class_name="account__note",
        ),
        on_submit=TrialState.submit,
        method="dialog",
        class_name="fields",
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
