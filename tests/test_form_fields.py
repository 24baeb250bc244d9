"""Form fields that belong to some forms only (issue 40, point 3), and every value the field specs
accept followed through the pipeline.

A field's rule may name the forms that ask it (`FieldRule.forms`: download forms, or `demo`, the
booking). These tests declare `assets` (a required select asked on the demo booking only) the way
a line of `services.leads.FormFields` would, and check where it is asked, accepted, refused,
documented, mailed and filled by the tests' payload helpers; docs/recipes.md's recipe g adds it
to the real model in a copy and follows it to storage, the exports, the console and erasure.
The property test draws the site's own fields from their specs (tests/lead_payloads.py).
"""

from __future__ import annotations

import contextlib
from types import SimpleNamespace
from typing import Annotated

import pytest
from hypothesis import HealthCheck, given, settings
from lead_payloads import booking_payload, field_declared, follow_through, form_values, lead_payload, person
from servers import run_in_own_loop

from marketing_site.content.lead_forms import DEMO_FORM, DOWNLOAD_FORMS
from marketing_site.services import leads

OPTIONS = ("under-10m", "10-50m", "50-250m", "over-250m")
WORDS = {
    "fr": (
        "Actifs sous gestion*",
        dict(zip(OPTIONS, ("< 10 M€", "10 à 50 M€", "50 à 250 M€", "> 250 M€"), strict=True)),
    ),
    "en": ("Assets under management*", dict(zip(OPTIONS, ("< €10m", "€10m-50m", "€50m-250m", "> €250m"), strict=True))),
}


@contextlib.contextmanager
def asked_on(*forms: str, required: bool = True):
    """`assets` declared for `forms` as a line of FormFields declares it, with its words."""
    rule = leads.select_rule(*OPTIONS, required=required, forms=forms)

    annotation = Annotated[str, rule, leads._required() if required else leads._optional()]
    with field_declared("assets", annotation, rule, WORDS):
        yield rule


def test_a_rule_names_only_forms_that_exist():
    with pytest.raises(ValueError, match="brochure"):
        leads.select_rule(*OPTIONS, forms=("demo", "brochure"))
    with pytest.raises(ValueError, match="Demo"):
        leads.FieldRule("text", "off", leads.TEXT_PATTERN, "text", forms=("Demo",))
    assert leads.FieldRule("text", "off", leads.TEXT_PATTERN, "text").asked_on("ebook")  # no forms: every form


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_field_for_the_demo_is_in_the_demo_forms_specs_only(lang):
    with asked_on(DEMO_FORM):
        [spec] = [spec for spec in leads.field_specs(DEMO_FORM, lang) if spec["name"] == "assets"]
        downloads = {form: [s["name"] for s in leads.field_specs(form, lang)] for form in DOWNLOAD_FORMS}
    assert spec["kind"] == "select" and spec["required"] is True and spec["label"] == WORDS[lang][0]
    assert [o["value"] for o in spec["options"]] == ["", *OPTIONS]
    assert [o["label"] for o in spec["options"][1:]] == list(WORDS[lang][1].values())
    assert all("assets" not in names and "email" in names for names in downloads.values())


def test_the_demo_refuses_a_booking_without_it_and_the_downloads_ignore_it():
    messages = leads.words("en", "lead_forms.field_errors")
    with asked_on(DEMO_FORM):
        without = leads.validate_fields(DEMO_FORM, form_values("ebook"), "en")
        other = leads.validate_fields(DEMO_FORM, {**form_values("ebook"), "assets": "a lot"}, "en")
        chosen = leads.validate_fields(DEMO_FORM, {**form_values("ebook"), "assets": "10-50m"})
        ebook = leads.validate_fields("ebook", {**form_values("ebook"), "assets": "10-50m"})
        unknown_form = leads.validate_fields(None, form_values("ebook"))
    assert without.errors == {"assets": messages["required"]}
    assert other.errors == {"assets": messages["choice"]}
    assert chosen.ok and chosen.values["assets"] == "10-50m"
    # A form that does not ask it neither refuses nor keeps it: stored empty.
    assert ebook.ok and ebook.values["assets"] == ""
    assert unknown_form.ok and unknown_form.values["assets"] == ""


def test_an_optional_field_of_one_form_may_stay_empty_there():
    with asked_on(DEMO_FORM, required=False):
        empty = leads.validate_fields(DEMO_FORM, {**form_values("ebook"), "assets": None})
    assert empty.ok and empty.values["assets"] == ""


def test_the_api_schema_lists_a_field_with_the_forms_that_ask_it():
    with asked_on(DEMO_FORM):
        downloads = leads.fields_json_schema(DOWNLOAD_FORMS)
        demo = leads.fields_json_schema([DEMO_FORM])
    assert "assets" not in downloads["properties"] and "email" in downloads["required"]
    assert "assets" in demo["required"] and demo["properties"]["assets"]["enum"] == list(OPTIONS)
    with asked_on("ebook", "white_paper"):
        some = leads.fields_json_schema(DOWNLOAD_FORMS)
    assert "assets" in some["properties"] and "assets" not in some["required"]
    assert "ebook, white_paper" in some["properties"]["assets"]["description"]


def test_the_sales_summary_names_it_on_its_forms_only():
    values = {**form_values("ebook"), "assets": "50-250m"}

    def summary(form: str) -> str:
        return leads.summary_text(SimpleNamespace(form=form, lang="fr", flags=(), attribution={}, **values))

    with asked_on(DEMO_FORM):
        demo, ebook = summary(DEMO_FORM), summary("ebook")
    assert "Actifs sous gestion : 50 à 250 M€\n" in demo
    assert "Actifs sous gestion" not in ebook and "Prénom : Hélène\n" in ebook


def test_payloads_built_from_the_specs_fill_a_new_required_field_of_their_form():
    """What tests/lead_payloads.py gives every test that posts a lead or a booking."""
    with asked_on(DEMO_FORM):
        booking = booking_payload("2026-11-24T08:00Z")
        lead = lead_payload("white_paper", email="ada@example.com")
        assert leads.validate_fields(DEMO_FORM, booking).ok
        assert leads.validate_fields("white_paper", lead).ok
    assert booking["assets"] == OPTIONS[0] and "assets" not in lead
    assert lead["email"] == "ada@example.com" and lead["subject"] == DOWNLOAD_FORMS["white_paper"]["subject"]


# ----------------------------------------------------------------------------- the pipeline


def test_every_value_the_specs_accept_is_stored_mailed_exported_shown_and_erased(store):
    """A download and a demo booking with values drawn from each field's spec (kind, pattern,
    length, options): the server accepts them (an email whose domain IDNA cannot encode aside),
    stores each as sent, cleaned; the sales mails, both CSV exports and the console's leads and
    bookings rows give each back; erasing the person leaves none of it (tests/lead_payloads.py)."""

    @settings(
        max_examples=15,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(drawn=person())
    def check(drawn):
        form, lead_values, demo_values = drawn
        follow_through(form, lead_values, demo_values, run_in_own_loop)

    check()
