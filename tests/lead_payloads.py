"""Form payloads built from the field specs, and the rows stored, for the tests that post a lead
or a booking or fill a form in Chromium; and values drawn from the specs, followed through the
whole pipeline (a helper module, not a test module).

Every test that sends a person's details builds them here, from the fields the form asks
(`services.leads.field_specs`): a field added to a form, required or not, is filled in every
such test without editing one (docs/recipes.md, recipe g). A test names the values it cares
about; the rest are `SAMPLE_VALUES`, or made from the field's spec.

`person` draws, for a download form and the demo booking, a value for each field the form asks
from that field's spec alone (its kind, pattern, length, options, whether it is required), one
email for both forms. `follow_through` sends both (a lead and a booking), then checks each
field's value in storage, in the sales mail the outbox worker sends, in the leads' and the
bookings' CSV exports, in the console's leads and bookings rows, and that the person's erasure
leaves none of it (tests/test_form_fields.py runs it on the site's fields; recipe g in a copy of
the repository on the field it adds).
"""

from __future__ import annotations

import contextlib
import csv
import email
import io
import re
import unicodedata
from collections.abc import Callable, Mapping
from email import policy
from pathlib import Path
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st
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
    "BOOKING_BUDGET_PER_IP": "1000000",
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


# ----------------------------------------------------------------------------- drawn from the specs

SPACES = " \u00a0\u202f"
_SEPARATOR = st.sampled_from([" ", ".", "-", "\u00a0", "\u202f", ""])
_PHONES = st.builds(
    lambda plus, groups, separators, extension: (
        ("+" if plus else "") + "".join(g + s for g, s in zip(groups, separators, strict=False)).strip() + extension
    ),
    st.booleans(),
    st.lists(st.text("0123456789", min_size=1, max_size=4), min_size=2, max_size=7),
    st.lists(_SEPARATOR, min_size=7, max_size=7),
    st.sampled_from(["", " poste 12", " ext. 4", " #12", " (int. 3)"]),
)
_ATOM = st.text(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~-", min_size=1, max_size=12
)
_LABEL = st.text("abcdefghijklmnopqrstuvwxyz0123456789éüößñ日本кир-", min_size=1, max_size=15)
_EMAILS = st.builds(
    lambda atoms, labels, top: ".".join(atoms) + "@" + ".".join([*labels, top]),
    st.lists(_ATOM, min_size=1, max_size=3),
    st.lists(_LABEL, min_size=1, max_size=3),
    st.sampled_from(["com", "fr", "example", "рф", "XN--P1AI"]),
)
# What a kind's values are drawn from before the field's own pattern keeps those it accepts (a
# pattern with look-aheads, like the phone's, is too slow for Hypothesis' `from_regex`).
_BY_KIND = {"tel": _PHONES, "email": _EMAILS}


def _value(spec: dict) -> st.SearchStrategy[str]:
    """Any value the spec accepts: an option of a select, or a text its rule's pattern matches
    whole (the spec of a textarea carries none: the browser has no such attribute for it)."""
    from marketing_site.services.leads import FIELD_RULES

    if spec["kind"] == "select":
        values = st.sampled_from([option["value"] for option in spec["options"] if option["value"]])
    else:
        pattern = re.compile(spec["pattern"] or FIELD_RULES[spec["name"]].pattern)
        if spec["kind"] in _BY_KIND:
            drawn = _BY_KIND[spec["kind"]]
        else:
            drawn = st.from_regex(pattern, fullmatch=True, alphabet=st.characters(codec="utf-8"))
        values = drawn.filter(lambda v: len(v) <= spec["maxLength"] and pattern.fullmatch(v) is not None)
    return values if spec["required"] else st.one_of(st.just(""), values)


def values_of(form: str) -> st.SearchStrategy[dict[str, str]]:
    """A value for every field `form` asks, each drawn from its spec."""
    from marketing_site.services.leads import field_specs

    return st.fixed_dictionaries({spec["name"]: _value(spec) for spec in field_specs(form, "fr")})


def person() -> st.SearchStrategy[tuple[str, dict[str, str], dict[str, str]]]:
    """(a download form, its values, the demo form's values), one email for both."""
    from marketing_site.content.lead_forms import DEMO_FORM, DOWNLOAD_FORMS

    return st.sampled_from(list(DOWNLOAD_FORMS)).flatmap(
        lambda form: st.tuples(st.just(form), values_of(form), values_of(DEMO_FORM)).map(
            lambda drawn: (drawn[0], drawn[1], {**drawn[2], "email": drawn[1]["email"]})
        )
    )


def _cleaned(value: str) -> str:
    """As intake cleans a value, independently of its code: tabs as spaces, stripped, NFC."""
    return unicodedata.normalize("NFC", value.replace("\t", " ").strip(SPACES))


def _same(stored: str, sent: str, name: str) -> bool:
    if name == "email":  # stored with its domain readable and lower-case: one of the address's forms
        from marketing_site.services.leads import email_lookup_forms

        return stored.lower() in email_lookup_forms(sent)
    return stored == _cleaned(sent)


def _lines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _start_afresh() -> None:
    """No lead, booking, mail or audit entry yet, and no mail in the mail folder."""
    from sqlalchemy import text

    from marketing_site.db import new_session
    from marketing_site.settings import get_settings

    with new_session() as session, session.begin():
        for table in ("booking", "outbox_message", "lead", "console_audit"):
            session.execute(text(f"DELETE FROM {table}"))
    for file in Path(get_settings().mail_sink_dir).glob("*.eml"):
        file.unlink()


def _sent_bodies(run: Callable[[Any], Any]) -> dict[str, str]:
    """The outbox worker's pass (to the mail folder: no SMTP_HOST), then each mail's plain body by
    its Subject."""
    from marketing_site.services import mail
    from marketing_site.settings import get_settings

    while run(mail.process_due()):
        pass
    bodies = {}
    for file in Path(get_settings().mail_sink_dir).glob("*.eml"):
        message = email.message_from_bytes(file.read_bytes(), policy=policy.default)
        bodies[str(message["Subject"])] = _lines(message.get_body(("plain",)).get_content())
    return bodies


def _csv(text: str) -> list[dict[str, str]]:
    from marketing_site.services import lead_export

    assert text.startswith(lead_export.BOM)
    return list(csv.DictReader(io.StringIO(text[1:], newline=""), delimiter=lead_export.DELIMITER))


def follow_through(form: str, lead_values: dict[str, str], demo_values: dict[str, str], run) -> None:
    """Send a lead of `form` and a demo booking with these values, check every field everywhere,
    then erase the person and check nothing of them is left. `run` runs a coroutine to its end
    (asyncio.run, in a thread of its own where a loop is running)."""
    from sqlmodel import select

    from marketing_site.content.lead_forms import DEMO_FORM, DOWNLOAD_FORMS
    from marketing_site.content.words import words
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead
    from marketing_site.services import booking, console, console_bookings, lead_export, leads

    # The server accepts what the spec accepts, but for an email whose domain IDNA cannot encode.
    for checked_form, values in ((form, lead_values), (DEMO_FORM, demo_values)):
        check = leads.validate_fields(checked_form, values)
        assert set(check.errors) <= {"email"}, (checked_form, check.errors)
        assume(check.ok)
    _start_afresh()
    operator = console.Operator(sub="pipeline@example.test", email="pipeline@example.test")
    sent = {form: lead_values, DEMO_FORM: demo_values}
    lead = leads.submit_lead({**lead_values, "subject": DOWNLOAD_FORMS[form]["subject"], "elapsedMs": 9000}, "10.8.0.1")
    assert lead.status == "accepted", lead.errors
    slot = booking.slot_id(booking.available_slots()[0])
    booked = booking.book({**demo_values, "slot": slot, "timezone": "Europe/Paris", "lang": "fr"}, "10.8.0.2")
    assert booked.status == "booked", booked.errors

    # Stored: each field the form asks as sent (cleaned); the others empty.
    with new_session() as session:
        stored = {row.form: row for row in session.exec(select(Lead))}
    assert set(stored) == {form, DEMO_FORM}
    for stored_form, row in stored.items():
        asked = leads.fields_of(stored_form)
        for name in leads.FIELD_NAMES:
            value = getattr(row, name)
            assert _same(value, sent[stored_form][name], name) if name in asked else value == "", (stored_form, name)

    # Mailed to sales: the summary names each field the form asks, a select by its option's words.
    bodies = _sent_bodies(run)
    empty = words("fr", "lead_sales.empty")
    booked_subject = words("fr", "booking_sales.subject").partition("{")[0]
    for subject_start, stored_form in ((DOWNLOAD_FORMS[form]["subject"], form), (booked_subject, DEMO_FORM)):
        [body] = [body for subject, body in bodies.items() if subject.startswith(subject_start)]
        for name in leads.fields_of(stored_form):
            value = getattr(stored[stored_form], name)
            shown = leads.option_label(name, value, "fr") if value else empty
            assert _lines(shown) in body, (stored_form, name)

    # The CSV exports (formulas neutralised) and the console's rows give each value back.
    leads_csv, _count = console.export_leads_csv(console.LeadFilter())
    bookings_csv, _count = console_bookings.export_bookings_csv(operator)
    console_rows = {row["form"]: row for row in console.lead_page(console.LeadFilter()).rows}
    upcoming, _past, _cut = console_bookings.booking_lists()
    [booking_row] = _csv(bookings_csv)
    [shown_booking] = upcoming
    rows_by_form = {
        "leads csv": {row["form"]: row for row in _csv(leads_csv)},
        "bookings csv": {DEMO_FORM: booking_row},
        "console leads": console_rows,
        "console bookings": {DEMO_FORM: shown_booking},
    }
    for where, rows in rows_by_form.items():
        for row_form, row in rows.items():
            for name in leads.fields_of(row_form):
                value = getattr(stored[row_form], name)
                expected = lead_export.csv_cell(value, name) if where.endswith("csv") else value
                assert row[name] == expected, (where, row_form, name)

    # Erased with the person (the address as they typed it): nothing of them anywhere.
    counts = console.erase_subject(operator, lead_values["email"])
    assert (counts["lead"], counts["booking"]) == (2, 1)
    assert console.lead_page(console.LeadFilter()).total == 0
    assert console_bookings.booking_lists()[:2] == ([], [])
    assert console.export_leads_csv(console.LeadFilter())[1] == 0
    assert console_bookings.export_bookings_csv(operator)[1] == 0
    with new_session() as session:
        assert session.exec(select(Lead)).all() == []


@contextlib.contextmanager
def field_declared(name: str, annotation: Any, rule: Any, words_of: Mapping[str, tuple[str, dict[str, str]]]):
    """`name` declared in FormFields with `annotation`, its `rule` and its words (label and
    options per language), as a line of FormFields and the content files declare a field; the
    module's tables are put back afterwards."""
    from marketing_site.services import leads

    saved = (leads.FormFields, dict(leads.FIELD_RULES), leads.FIELD_NAMES, dict(leads._COMPILED), leads.words)
    model = type(f"With_{name}", (leads.FormFields,), {"__annotations__": {name: annotation}})

    def words(lang: str, key: str):
        found = saved[4](lang, key)
        label, options = words_of[lang]
        if key == "lead_forms":
            return {**found, "labels": {**found["labels"], name: label}, "options": {name: options}}
        return {**found, name: label} if key == "lead_forms.labels" else found

    leads.FormFields, leads.FIELD_NAMES, leads.words = model, (*leads.FIELD_NAMES, name), words
    leads.FIELD_RULES[name] = rule
    leads._COMPILED[name] = re.compile(rule.pattern)
    leads.form_model.cache_clear()
    try:
        yield rule
    finally:
        leads.FormFields, leads.FIELD_NAMES, leads.words = saved[0], saved[2], saved[4]
        for table, before in ((leads.FIELD_RULES, saved[1]), (leads._COMPILED, saved[3])):
            table.clear()
            table.update(before)
        leads.form_model.cache_clear()
