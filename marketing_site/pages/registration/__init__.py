"""Account-creation step 2 (French and English routes): the Validate control only leads home.

Validate is the form's submit button (a form needs one to be submitted from the keyboard);
submitting stores nothing and goes to the home page.
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.account import account_aside, account_layout
from marketing_site.components.fields import labelled_input, submit_button, unwired_form
from marketing_site.content.words import words

# (input name, input type, autocomplete); labels come from the content module.
FIELDS = (
    ("name", "text", "name"),
    ("company", "text", "organization"),
    ("tel", "tel", "tel"),
    ("password1", "password", "new-password"),
    ("passwordconfirm", "password", "new-password"),
)


def registration_form(text: dict, lang: str) -> rx.Component:
    return unwired_form(
        *[
            labelled_input(text["fields"][name], name, type=type_, autocomplete=autocomplete, id=f"registration-{name}")
            for name, type_, autocomplete in FIELDS
        ],
        rx.el.div(submit_button(text["validate"]), class_name="account__actions"),
        aria_label=text["form_label"],
        on_submit=[rx.prevent_default, rx.redirect(routes.HOME.path(lang))],
    )


def registration_aside(text: dict) -> rx.Component:
    return account_aside(
        "onboarding",
        rx.el.h2(text["aside_title"], class_name="account__aside-title"),
        rx.el.ul(*[rx.el.li(item) for item in text["aside_items"]], class_name="account__checklist"),
    )


def page(lang: str) -> rx.Component:
    text = words(lang, "registration")
    return account_layout(
        text["title"],
        text["lead"],
        registration_form(text, lang),
        registration_aside(text),
        eyebrow=text["step"],
    )
