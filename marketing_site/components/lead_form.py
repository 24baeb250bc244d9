"""The one lead form (SPEC §3 generic form), driven by a form definition and a language.

The form itself is client-side React (`assets/lead_form.jsx`): it checks the fields with the
server's own rules (patterns and messages from `services.leads.field_specs`), posts to
the JSON API and applies the per-form state rules of SPEC §4 from the response status.
"""

from __future__ import annotations

from typing import TypedDict

import reflex as rx

from marketing_site import routes
from marketing_site.api.files import file_url
from marketing_site.content import downloads, lead_forms
from marketing_site.content.words import words as site_words
from marketing_site.services.leads import FieldSpec, field_specs


class SendRetry(TypedDict):
    """`SEND_RETRY`, as `postWithRetries` (assets/lead_form.jsx) reads it: camelCase already."""

    statuses: list[int]
    pausesMs: list[int]
    totalMs: int


class LeadFormProps(TypedDict):
    """Every prop of `LeadForm` in `assets/lead_form.jsx` (snake_case here, camelCase there)."""

    form_key: str
    subject: str
    lang: str
    fields: list[FieldSpec]
    summary_template: str
    submit_label: str
    submitting_label: str
    success_text: str
    error_text: str
    retrying_text: str
    send_retry: SendRetry
    invalid_text: str
    throttled_seconds_text: str
    throttled_minutes_text: str
    required_note: str
    honeypot_label: str
    privacy_text: str
    privacy_href: str
    privacy_link_label: str
    file_url: str
    file_name: str
    thanks_path: str
    failure_mail_sent: bool | None
    track_conversion: bool


# How a form sends again a request that met a network error or a 502, 503 or 504 (a proxy with
# no live machine behind it, a machine restarting, a timeout): with the same Idempotency-Key, so
# the server stores one lead (or booking) however many arrive, after each pause in turn (ms)
# while the whole stays within total_ms; the visitor sees the `retrying` words meanwhile. 20 s
# covers a machine's restart behind nginx (deploy/README.md: a few seconds) with room to spare,
# and is as long as a visitor is asked to wait before being told it failed. Shared with the
# scheduler (components/booking.py); assets/lead_form.jsx's postWithRetries executes it.
SEND_RETRY = SendRetry(statuses=[502, 503, 504], pausesMs=[500, 1000, 2000, 3000, 4000, 4000, 4000], totalMs=20_000)


class LeadForm(rx.Component):
    library = "$/public/lead_form.jsx"
    tag = "LeadForm"

    form_key: rx.Var[str]
    subject: rx.Var[str]
    lang: rx.Var[str]
    # The fields this form asks, with their rules and messages (services.leads, the server's own).
    fields: rx.Var[list[dict]]
    # The payload's `text` (SPEC §3), the same summary the sales mail carries: `{field}` slots.
    summary_template: rx.Var[str]
    submit_label: rx.Var[str]
    submitting_label: rx.Var[str]
    success_text: rx.Var[str]
    error_text: rx.Var[str]
    # Shown while a failed send is being sent again (SEND_RETRY).
    retrying_text: rx.Var[str]
    send_retry: rx.Var[dict]
    invalid_text: rx.Var[str]
    throttled_seconds_text: rx.Var[str]
    throttled_minutes_text: rx.Var[str]
    required_note: rx.Var[str]
    honeypot_label: rx.Var[str]
    privacy_text: rx.Var[str]
    privacy_href: rx.Var[str]
    privacy_link_label: rx.Var[str]
    file_url: rx.Var[str]
    file_name: rx.Var[str]
    thanks_path: rx.Var[str]
    failure_mail_sent: rx.Var[bool | None]
    track_conversion: rx.Var[bool]


def lead_form(form_key: str, lang: str) -> rx.Component:
    """The form of `lead_forms.DOWNLOAD_FORMS[form_key]` in `lang` (labels, texts, thank-you route)."""
    return LeadForm.create(**lead_form_props(form_key, lang))


def lead_form_props(form_key: str, lang: str) -> LeadFormProps:
    """What `LeadForm` renders for `lead_forms.DOWNLOAD_FORMS[form_key]` in `lang`."""
    definition = lead_forms.DOWNLOAD_FORMS[form_key]
    words = site_words(lang, "lead_forms")
    document = downloads.document_for(definition["document"], lang)
    return LeadFormProps(
        form_key=form_key,
        subject=definition["subject"],
        lang=lang,
        fields=field_specs(form_key, lang),
        summary_template=site_words("fr", "lead_sales.summary"),
        submit_label=words["submit"],
        submitting_label=words["submitting"],
        success_text=words["success"].get(form_key, words["success"]["default"]),
        error_text=words["error"],
        retrying_text=words["retrying"],
        send_retry=SEND_RETRY,
        invalid_text=words["invalid"],
        throttled_seconds_text=words["throttled_seconds"],
        throttled_minutes_text=words["throttled_minutes"],
        required_note=words["required_note"],
        honeypot_label=words["honeypot"],
        privacy_text=words["privacy"],
        privacy_href=routes.PRIVACY.path(lang),
        privacy_link_label=words["privacy_link"],
        file_url=file_url(definition["document"], lang),
        file_name=document["display_name"],
        # A language without its own thank-you page uses the French one (the default language).
        thanks_path=definition["thanks"].get(lang) or definition["thanks"]["fr"],
        failure_mail_sent=_failure_mail_sent(definition["on_failure_mail_sent"]),
        # SPEC §4: the analytics conversion event is sent on English pages.
        track_conversion=lang == "en",
    )


def _failure_mail_sent(value: bool | None) -> bool | None:
    """A form's mailSent after a failed send: never true, which would show the thank-you text
    and hide the button after a failure (SPEC §4's white-paper rule; issue 33: the visitor
    believed it worked and sales never heard of them)."""
    if value is True:
        raise ValueError("a failed send must not show the thank-you text (on_failure_mail_sent: True)")
    return value
