"""What the lead API answers a payload it refuses (SPEC §7), field by field, build-free: the 422
body's messages. A visitor reads those of the form's fields in the page's language (the
content's `lead_forms.field_errors`, French or English); a developer reads the others (subject,
lang, text, the form's flags) in English. Each names the field and what is wrong with it, so a
message of the wrong kind, in the wrong language or on the wrong field is a form that tells a
person to fix what they got right. Then the flags a lead accepted carries (a fill time too short
to be a person's, the trap field) and the `nom` spelling of the first name.

`leads.validate` is called directly: it reads the settings (the minimum fill time) and no store.
"""

from __future__ import annotations

import math

import pytest
from lead_payloads import SAMPLE_VALUES, lead_payload

from marketing_site.services import leads
from marketing_site.services.leads import validate
from marketing_site.settings import get_settings

LANGS = ("fr", "en")
FIELDS = ("name", "firstname", "phone", "company", "email")
# The message key (content lead_forms.field_errors) of a value that does not fit each field's rule.
MISMATCH_KEY = {"name": "text", "firstname": "text", "company": "text", "phone": "phone", "email": "email"}
NOT_FITTING = {
    "name": "Dupont\r\nBcc: x@example.com",
    "firstname": "Ann\x00e",
    "company": "Banque\u202eExemple",
    "phone": "call me",
    "email": "helene.lefevre@intranet",
}


def messages(lang: str) -> dict[str, str]:
    return leads.words(lang, "lead_forms.field_errors")


def refusals(lang: str = "fr", **overrides) -> dict[str, str]:
    lead, errors = validate(lead_payload(lang=lang, **overrides))
    assert lead is None, "the payload was accepted"
    return errors


def test_the_two_languages_word_each_refusal_differently():
    """Otherwise a message shown in the wrong language would pass the tests below."""
    french, english = messages("fr"), messages("en")
    for key in ("required", "too_long", "text", "phone", "email"):
        assert french[key] != english[key], key


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("field", FIELDS)
def test_a_missing_empty_null_or_blank_field_is_required_in_the_visitors_language(field, lang):
    required = {field: messages(lang)["required"]}
    payload = lead_payload(lang=lang)
    del payload[field]
    if field == "firstname":
        payload["nom"] = ""  # the alias left empty does not stand in for it
    assert validate(payload) == (None, required)
    for value in ("", None, "   ", " \u00a0\u202f"):
        assert refusals(lang, **{field: value}) == required, repr(value)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("field", FIELDS)
def test_a_field_over_200_characters_is_too_long_in_the_visitors_language(field, lang):
    assert refusals(lang, **{field: "x" * 201}) == {field: messages(lang)["too_long"]}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("field", FIELDS)
def test_a_field_its_rule_refuses_gets_that_rules_message_in_the_visitors_language(field, lang):
    expected = {field: messages(lang)[MISMATCH_KEY[field]]}
    assert refusals(lang, **{field: NOT_FITTING[field]}) == expected
    # A number, where text is expected, is the same mistake (the fields are strict strings).
    assert refusals(lang, **{field: 12345678}) == expected


@pytest.mark.parametrize("lang", LANGS)
def test_an_address_that_fits_the_pattern_but_no_mail_header_is_refused_as_an_email(lang):
    # `x@y.xn--a-` matches the form's pattern; no address header can carry its domain.
    assert refusals(lang, email="ada@example.xn--a-") == {"email": messages(lang)["email"]}


def test_every_wrong_field_is_named_at_once():
    errors = refusals("en", name="", phone="call me", company="x" * 201)
    assert errors == {
        "name": messages("en")["required"],
        "phone": messages("en")["phone"],
        "company": messages("en")["too_long"],
    }


@pytest.mark.parametrize("lang", ["de", "", None, 1])
def test_an_unknown_language_is_named_and_the_fields_messages_fall_back_to_french(lang):
    errors = refusals(lang, phone="call me")
    assert errors == {"lang": "Must be one of fr, en.", "phone": messages("fr")["phone"]}


@pytest.mark.parametrize("subject", ["Anything else", "", None, 7, ["Ebook download - Wealth manager new generation"]])
def test_a_subject_naming_none_of_the_documents_is_refused(subject):
    assert refusals(subject=subject) == {"subject": "Unknown subject: it must name one of the site's documents."}


def test_without_a_subject_the_fields_are_still_checked_with_every_forms_rules():
    payload = lead_payload(lang="en", email="nobody")
    del payload["subject"]
    assert validate(payload) == (
        None,
        {"subject": "Unknown subject: it must name one of the site's documents.", "email": messages("en")["email"]},
    )


@pytest.mark.parametrize("text", [5, ["a"], {"a": 1}, True, "x" * 5001])
def test_a_message_that_is_not_text_or_over_5000_characters_is_refused(text):
    assert refusals(text=text) == {"text": "At most 5000 characters."}


@pytest.mark.parametrize("text", ["a\x00b", "a\u202eb", "a\x1bb", "\ufffe"])
def test_a_message_with_control_or_text_direction_characters_is_refused(text):
    assert refusals(text=text) == {"text": "No control, text-direction or non-text characters (line breaks are fine)."}


@pytest.mark.parametrize("text", [None, "", "x" * 5000, "Deux lignes\r\net une tabulation\t."])
def test_a_message_up_to_5000_characters_with_line_breaks_is_accepted(text):
    lead, errors = validate(lead_payload(text=text))
    assert errors == {} and lead is not None


@pytest.mark.parametrize("flag", ["mailSent", "error"])
@pytest.mark.parametrize("value", ["yes", "false", 2, [], {}])
def test_the_forms_flags_must_be_booleans(flag, value):
    assert refusals(**{flag: value}) == {flag: "Must be a boolean."}


@pytest.mark.parametrize("flag", ["mailSent", "error"])
@pytest.mark.parametrize("value", [None, True, False])
def test_the_forms_flags_may_be_booleans_or_absent(flag, value):
    assert validate(lead_payload(**{flag: value}))[1] == {}


@pytest.mark.parametrize("elapsed", ["9000", True, False, [9000], {"ms": 9000}])
def test_a_fill_time_that_is_not_a_number_is_refused(elapsed):
    assert refusals(elapsedMs=elapsed) == {"elapsedMs": "Must be a number of milliseconds."}


def _flags(**overrides) -> tuple[str, ...]:
    lead, errors = validate(lead_payload(**overrides))
    assert errors == {} and lead is not None
    return lead.flags


def test_a_fill_time_under_the_minimum_or_unreadable_flags_the_lead_as_fast():
    minimum = get_settings().lead_min_fill_seconds * 1000
    assert minimum == 2000  # the default the values below are chosen around
    for elapsed in (None, 0, 1999, 1999.9, -5, math.nan, math.inf, -math.inf):
        assert _flags(elapsedMs=elapsed) == ("fast",), elapsed
    payload = lead_payload()
    del payload["elapsedMs"]
    assert validate(payload)[0].flags == ("fast",)


def test_a_fill_time_at_or_over_the_minimum_flags_nothing():
    for elapsed in (2000, 2000.0, 2000.5, 9000, 10**12):
        assert _flags(elapsedMs=elapsed) == (), elapsed


def test_the_trap_field_filled_flags_the_lead_and_empty_does_not():
    assert _flags(website="https://spam.example") == ("honeypot",)
    assert _flags(website="", elapsedMs=10) == ("fast",)
    assert _flags(website="x", elapsedMs=None) == ("fast", "honeypot")


def test_an_accepted_payload_gives_the_lead_its_form_language_ascii_address_and_attribution():
    lead, errors = validate(
        lead_payload(
            "white_paper",
            lang="en",
            email="  Ada@Faß.Example ",
            attribution={"utm_source": "newsletter", "referrer": "News.Example", "other": "x"},
        )
    )
    assert errors == {}
    assert (lead.form, lead.lang, lead.flags) == ("white_paper", "en", ())
    assert (lead.email, lead.email_ascii) == ("Ada@faß.example", "Ada@xn--fa-hia.example")
    assert lead.attribution["utm_source"] == "newsletter"
    assert lead.attribution["referrer"] == "news.example"
    assert "other" not in lead.attribution
    assert {name: getattr(lead, name) for name in FIELDS if name != "email"} == {
        name: value for name, value in SAMPLE_VALUES.items() if name != "email"
    }


def test_a_payload_without_a_language_is_french():
    payload = lead_payload()
    payload.pop("lang", None)
    lead, _ = validate(payload)
    assert lead.lang == "fr"
    del payload["name"]
    assert validate(payload) == (None, {"name": messages("fr")["required"]})


def test_the_first_name_may_come_as_nom_when_firstname_is_absent_null_or_empty():
    for absent in ({}, {"firstname": None}, {"firstname": ""}):
        payload = {**lead_payload(), "nom": "Ada", **absent}
        if not absent:
            del payload["firstname"]
        lead, errors = validate(payload)
        assert errors == {} and lead.firstname == "Ada", absent


def test_a_firstname_given_wins_over_nom():
    lead, _ = validate(lead_payload(firstname="Hélène", nom="Ada"))
    assert lead.firstname == "Hélène"


def test_nom_null_does_not_stand_in_for_the_first_name():
    payload = {**lead_payload(lang="en"), "nom": None, "firstname": None}
    assert validate(payload) == (None, {"firstname": messages("en")["required"]})
