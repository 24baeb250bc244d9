"""The built-in demo scheduler (`assets/booking.jsx`): slots, the demo form's fields, confirmation."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.lead_form import SEND_RETRY
from marketing_site.content.lead_forms import DEMO_FORM
from marketing_site.content.words import words as site_words
from marketing_site.services.leads import field_specs


class BookingScheduler(rx.Component):
    library = "$/public/booking.jsx"
    tag = "BookingScheduler"

    lang: rx.Var[str]
    # The language's locale (BCP 47) that dates and times are written in.
    locale: rx.Var[str]
    words: rx.Var[dict[str, str]]
    # The fields the demo form asks, with their rules and messages (services.leads).
    fields: rx.Var[list[dict]]
    required_note: rx.Var[str]
    honeypot_label: rx.Var[str]
    privacy_text: rx.Var[str]
    privacy_href: rx.Var[str]
    privacy_link_label: rx.Var[str]
    fallback_href: rx.Var[str]
    # How a booking that met a network error or a 502-504 is sent again (the lead form's rule).
    send_retry: rx.Var[dict]


def booking_scheduler(lang: str, fallback_href: str) -> rx.Component:
    """The scheduler in `lang`; `fallback_href` is the mail link shown if the slots cannot load."""
    form_words = site_words(lang, "lead_forms")
    words = site_words(lang, "booking")
    return BookingScheduler.create(
        lang=lang,
        locale=site_words(lang, "common.locale").replace("_", "-"),
        words=words["widget"],
        fields=field_specs(DEMO_FORM, lang),
        required_note=form_words["required_note"],
        honeypot_label=form_words["honeypot"],
        privacy_text=words["widget"]["privacy"],
        privacy_href=routes.PRIVACY.path(lang),
        privacy_link_label=form_words["privacy_link"],
        fallback_href=fallback_href,
        send_retry=SEND_RETRY,
    )
