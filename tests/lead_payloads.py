"""Valid form payloads built from the field specs, and the rows stored, for the tests that post a
lead or a booking or fill a form in Chromium (a helper module, not a test module).

Every test that sends a person's details builds them here, from the fields the form asks
(`services.leads.field_specs`): a field added to a form, required or not, is filled in every
such test without editing one (docs/recipes.md, recipe g). A test names the values it cares
about; the rest are `SAMPLE_VALUES`, or made from the field's spec.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlmodel import select

EBOOK_SUBJECT = "Ebook download - Wealth manager new generation"

# The value each of the site's own fields gets unless a test says otherwise (tests read them back).
SAMPLE_VALUES = {
    "name": "Lefèvre",
    "firstname": "Hélène",
    "phone": "+33 1 23 45 67 89",
    "company": "Banque Exemple",
    "email": "helene.lefevre@example.com",
}
# A field without a sample value gets one of its kind (a select: its first option).
SAMPLE_BY_KIND = {
    "text": "Exemple",
    "textarea": "Exemple\nsur deux lignes",
    "tel": "+33 1 23 45 67 89",
    "email": "personne@example.com",
}


def form_values(form: str = "ebook", **values: Any) -> dict[str, Any]:
    """A valid value for every required field `form` asks (its spec's kind, pattern and options),
    then `values` over them (a value of a field the form does not ask is sent as given)."""
    import re

    from marketing_site.services.leads import field_specs

    filled: dict[str, Any] = {}
    for spec in field_specs(form, "fr"):  # the values are the same in every language
        name = spec["name"]
        if name in values or not spec["required"]:
            continue
        if spec["kind"] == "select":
            filled[name] = next(option["value"] for option in spec["options"] if option["value"])
            continue
        sample = SAMPLE_VALUES.get(name, SAMPLE_BY_KIND[spec["kind"]])
        # A field whose rule the sample does not fit needs a sample of its own in SAMPLE_VALUES.
        assert not spec["pattern"] or re.fullmatch(spec["pattern"], sample), f"{name}: add it to SAMPLE_VALUES"
        filled[name] = sample
    return {**filled, **values}


def person_values(**values: Any) -> dict[str, Any]:
    """`form_values` for every form at once (one person's details sent to several forms)."""
    from marketing_site.content.lead_forms import FORM_KEYS

    filled: dict[str, Any] = {}
    for form in FORM_KEYS:
        filled.update(form_values(form))
    return {**filled, **values}


def lead_payload(form: str = "ebook", **overrides):
    """What a download form posts to /api/v1/mail/send: its fields, its subject and SPEC §7's flags."""
    from marketing_site.content.lead_forms import DOWNLOAD_FORMS

    payload = {
        **form_values(form),
        "subject": DOWNLOAD_FORMS[form]["subject"],
        "text": "",
        "mailSent": False,
        "error": False,
        # The form always sends its fill time; without one the lead is flagged as fast.
        "elapsedMs": 9000,
    }
    payload.update(overrides)
    return payload


def booking_payload(slot: str, **overrides):
    """What the scheduler posts to /api/v1/booking for `slot` (a slot id): the demo form's fields,
    the visitor's zone and the page's language."""
    from marketing_site.content.lead_forms import DEMO_FORM

    return {**form_values(DEMO_FORM), "slot": slot, "timezone": "Europe/Paris", "lang": "fr", **overrides}


def fill_form(scope, form: str, lang: str = "fr", values: Mapping[str, str] | None = None) -> dict[str, str]:
    """Fill, in Chromium, every required field `form` asks (and those of `values`) through its
    label, in the form found in `scope` (a Playwright page or locator); returns what was filled."""
    from marketing_site.services.leads import field_specs

    filled = form_values(form, **(values or {}))
    for spec in field_specs(form, lang):
        if spec["name"] not in filled:
            continue
        control = scope.get_by_label(spec["label"], exact=True)
        if spec["kind"] == "select":
            control.select_option(filled[spec["name"]])
        else:
            control.fill(filled[spec["name"]])
    return filled


# Settings under which one address can store a lead and a booking per example of a property test,
# at any hour of any day: no rate limit or booking budget in the way, no holiday, no busy calendar.
UNBOUNDED_INTAKE = {
    "RATE_LIMIT_PER_IP": "1000000",
    "RATE_LIMIT_PER_EMAIL": "1000000",
    "BOOKING_RATE_LIMIT_PER_IP": "1000000",
    "BOOKING_BUDGET_PER_EMAIL": "1000000",
    "BOOKING_BUDGET_PER_DAY": "1000000",
    "BOOKING_TIMEZONE": "Europe/Paris",
    "BOOKING_WORKING_DAYS": "1,2,3,4,5,6,7",
    "BOOKING_WORKING_HOURS": "00:00-24:00",
    "BOOKING_MIN_NOTICE_MINUTES": "60",
    "BOOKING_HOLIDAYS": "",
    "BOOKING_BUSY_ICS_URL": "",
}


def stored_rows(model):
    from marketing_site.db import new_session

    with new_session() as session:
        return session.exec(select(model)).all()


def queue_outbox_message(**overrides) -> int:
    """One outbox message as the lead service stores it (to sales, the visitor's Reply-To, due
    now); returns its id."""
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage, utcnow
    from marketing_site.services import mail

    values = {
        "message_id": mail.new_message_id(),
        "mail_from": "Nereo <noreply@nereo-wealth.fr>",
        "mail_to": "leads@nereo-wealth.fr",
        "reply_to": "visitor@example.com",
        "subject": EBOOK_SUBJECT,
        "body": "Prénom : Hélène\n",
        "next_attempt_at": utcnow(),
        **overrides,
    }
    with new_session() as session, session.begin():
        message = OutboxMessage(**values)
        session.add(message)
        session.flush()
        return message.id


def outbox_row(message_id: int):
    """The outbox message as stored now."""
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage

    with new_session() as session:
        return session.get(OutboxMessage, message_id)
