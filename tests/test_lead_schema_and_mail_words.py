"""What clients and people read of the lead fields, build-free: the JSON Schema of the fields in
the OpenAPI document (`fields_json_schema`: which fields are required, their bounds equal to what
the server enforces, their patterns anchored, formats and descriptions), the specs the browser
forms are built from (`field_specs`: kinds, input attributes, labels, options and messages in
each language), an optional field's declaration (`_optional`, docs/recipes.md recipe c), and the
words of the sales team's mail about a lead (`summary_text`, `attribution_text`).

A field some forms ask only is declared here the way a line of `FormFields` would be (as in
tests/test_form_fields.py), on the module's tables, and taken back after each test.
"""

from __future__ import annotations

import contextlib
from types import SimpleNamespace
from typing import Annotated

import pytest
from lead_payloads import field_declared
from pydantic import BaseModel, ValidationError

from marketing_site.content.lead_forms import DEMO_FORM, DOWNLOAD_FORMS
from marketing_site.services import leads

FIELDS = ("name", "firstname", "phone", "company", "email")
PHONE_DESCRIPTION = (
    '6 to 20 digits; spaces, dots, dashes, brackets, a leading + and an extension ("poste 12", "ext. 12", "#12") '
    "are accepted."
)
EMAIL_DESCRIPTION = "local@domain.tld; internationalised domains are accepted, a domain without a dot is not."
LABELS = {"fr": "Taille de l'équipe*", "en": "Team size*"}
OPTION_WORDS = {
    "fr": {"small": "Moins de 10", "large": "10 ou plus"},
    "en": {"small": "Under 10", "large": "10 or more"},
}


@contextlib.contextmanager
def declared(name: str, rule: leads.FieldRule, field_info):
    """`name` declared with `rule` as a line of FormFields declares it, with its words."""
    words_of = {lang: (LABELS[lang], OPTION_WORDS[lang]) for lang in LABELS}
    with field_declared(name, Annotated[str, rule, field_info], rule, words_of):
        yield


# ----------------------------------------------------------------------------- the JSON Schema


@pytest.mark.parametrize("forms", [tuple(DOWNLOAD_FORMS), ("ebook",), (DEMO_FORM,)])
def test_the_schema_requires_the_five_fields_with_the_servers_bounds_and_rules(forms):
    schema = leads.fields_json_schema(forms)
    assert schema["type"] == "object" and schema["required"] == list(FIELDS)
    assert list(schema["properties"]) == list(FIELDS)
    for name in FIELDS:
        rule = leads.FIELD_RULES[name]
        extra = {
            "phone": {"description": PHONE_DESCRIPTION},
            "email": {"description": EMAIL_DESCRIPTION, "format": "email"},
        }.get(name, {})
        assert schema["properties"][name] == {
            "type": "string",
            "title": name.capitalize(),
            "minLength": 1,
            "maxLength": leads.MAX_FIELD_LENGTH,
            # JSON Schema searches a pattern: anchored, it is matched whole as the server does.
            "pattern": f"^(?:{rule.pattern})$",
            **extra,
        }, name


def test_the_forms_may_come_as_any_iterable_read_once():
    assert leads.fields_json_schema(form for form in DOWNLOAD_FORMS) == leads.fields_json_schema(DOWNLOAD_FORMS)


def test_the_schemas_bounds_are_the_ones_the_server_enforces():
    schema = leads.fields_json_schema(DOWNLOAD_FORMS)["properties"]["company"]
    assert leads.validate_fields("ebook", _values(company="x" * schema["maxLength"])).ok
    assert not leads.validate_fields("ebook", _values(company="x" * (schema["maxLength"] + 1))).ok
    assert leads.validate_fields("ebook", _values(company="x" * schema["minLength"])).ok


def _values(**overrides):
    from lead_payloads import form_values

    return form_values("ebook", **overrides)


def test_a_field_some_forms_ask_is_described_with_them_and_required_by_none():
    rule = leads.select_rule("small", "large", forms=("ebook", "white_paper"))
    with declared("team", rule, leads._required()):
        some = leads.fields_json_schema(DOWNLOAD_FORMS)
        read_once = leads.fields_json_schema(form for form in DOWNLOAD_FORMS)
        theirs = leads.fields_json_schema(["white_paper", "ebook"])
        others = leads.fields_json_schema(["portal_documentation"])
    assert some["properties"]["team"]["description"] == "Asked by the form(s) ebook, white_paper only."
    assert read_once == some  # the forms may come as a generator
    assert some["required"] == list(FIELDS)
    assert some["properties"]["team"]["enum"] == ["small", "large"]
    # Asked by every form listed: required, and described as any field.
    assert theirs["required"] == [*FIELDS, "team"] and "description" not in theirs["properties"]["team"]
    assert "team" not in others["properties"]
    # The site's own fields keep their words.
    assert some["properties"]["phone"]["description"] == PHONE_DESCRIPTION


def test_a_described_field_some_forms_ask_keeps_its_description_first():
    rule = leads.FieldRule("text", "off", leads.TEXT_PATTERN, "text", forms=(DEMO_FORM,))
    with declared("team", rule, leads._required("How many people advise clients.")):
        schema = leads.fields_json_schema([*DOWNLOAD_FORMS, DEMO_FORM])
    assert schema["properties"]["team"]["description"] == (
        "How many people advise clients. Asked by the form(s) demo only."
    )
    assert schema["required"] == list(FIELDS)


def test_an_optional_field_is_neither_required_nor_bounded_below_and_takes_the_empty_string():
    rule = leads.select_rule("small", "large", required=False)
    with declared("team", rule, leads._optional("Optional words.")):
        schema = leads.fields_json_schema(["ebook"])
    assert schema["required"] == list(FIELDS)
    assert schema["properties"]["team"] == {
        "type": "string",
        "title": "Team",
        "default": "",
        "maxLength": leads.MAX_FIELD_LENGTH,
        "description": "Optional words.",
        "enum": ["", "small", "large"],
    }


def test_an_optional_field_is_empty_when_absent_bounded_and_strict():
    # Declared here, not at import: what the test checks is what `_optional` gives when called.
    class Optional(BaseModel):
        note: Annotated[str, leads._optional()]
        long_note: Annotated[str, leads._optional("Up to 5000 characters.", max_length=leads.MAX_TEXT_LENGTH)]

    assert Optional().model_dump() == {"note": "", "long_note": ""}
    assert Optional(note="x" * 200, long_note="y" * 5000).note == "x" * 200
    # Strict: bytes are not decoded into text (pydantic's lax mode would), numbers not taken.
    for refused in ({"note": "x" * 201}, {"long_note": "y" * 5001}, {"note": 5}, {"long_note": 5.0}, {"note": b"x"}):
        with pytest.raises(ValidationError):
            Optional(**refused)
    schema = Optional.model_json_schema()["properties"]
    assert schema["note"] == {"type": "string", "title": "Note", "default": "", "maxLength": 200}
    assert schema["long_note"]["maxLength"] == 5000
    assert schema["long_note"]["description"] == "Up to 5000 characters."


def test_a_required_field_takes_one_to_200_characters_of_text_only():
    class Required(BaseModel):
        code: Annotated[str, leads._required()]
        address: Annotated[str, leads._required("Where to write.", format="email")] = "a@b.example"

    assert Required(code="x").code == "x" and Required(code="x" * 200).code == "x" * 200
    for refused in ({}, {"code": ""}, {"code": "x" * 201}, {"code": 5}, {"code": None}, {"code": b"x"}):
        with pytest.raises(ValidationError):
            Required(**refused)
    # Its description and any schema words (a format) reach the JSON Schema.
    assert Required.model_json_schema()["properties"]["address"] == {
        "type": "string",
        "title": "Address",
        "default": "a@b.example",
        "minLength": 1,
        "maxLength": 200,
        "description": "Where to write.",
        "format": "email",
    }
    assert Required.model_json_schema()["properties"]["code"] == {
        "type": "string",
        "title": "Code",
        "minLength": 1,
        "maxLength": 200,
    }


def test_a_field_rule_refuses_a_declaration_that_would_ask_nothing_or_nowhere():
    with pytest.raises(ValueError) as no_options:
        leads.FieldRule("select", "off", "", "choice")
    assert str(no_options.value) == "a select field lists its options, and only a select does"
    with pytest.raises(ValueError) as options_of_text:
        leads.FieldRule("text", "off", leads.TEXT_PATTERN, "text", options=("a",))
    assert str(options_of_text.value) == str(no_options.value)
    with pytest.raises(ValueError) as misspelt:
        leads.select_rule("small", forms=("ebook", "brochure", "Demo"))
    assert str(misspelt.value) == (
        "unknown form(s) ['brochure', 'Demo']: a field asks on some of "
        "ebook, white_paper, portal_documentation, kyc_documentation, subscription_documentation, demo"
    )


def test_a_select_accepts_each_of_its_options_and_nothing_else_without_autocomplete():
    rule = leads.select_rule("small", "large", "10+ (a.b)")
    assert rule.autocomplete == "off" and rule.message == "choice"
    with declared("team", rule, leads._required()):
        for option in rule.options:
            assert leads.validate_fields("ebook", _values(team=option)).values["team"] == option
        for other in ("small|large", "Small", "10+ (axb)", "smalllarge"):
            assert leads.validate_fields("ebook", _values(team=other)).errors == {
                "team": "Choisissez l'une des options de la liste."
            }


def test_the_lead_api_checks_the_fields_of_the_documents_own_form():
    """A field the ebook form asks only is required of an ebook lead, ignored for another document."""
    rule = leads.FieldRule("text", "off", leads.TEXT_PATTERN, "text", forms=("ebook",))
    with declared("team", rule, leads._required()):
        from lead_payloads import lead_payload

        without = lead_payload("ebook", lang="en")  # filled from the specs: with the field
        del without["team"]
        ebook = leads.validate(without)
        white_paper = leads.validate({**without, "subject": DOWNLOAD_FORMS["white_paper"]["subject"]})
        given = leads.validate({**without, "team": "Twelve"})
    assert ebook == (None, {"team": leads.words("en", "lead_forms.field_errors")["required"]})
    assert white_paper[1] == {} and given[1] == {}


# ----------------------------------------------------------------------------- the browser's specs


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_browser_gets_each_fields_kind_attributes_label_and_messages(lang):
    text = leads.words(lang, "lead_forms")
    messages = text["field_errors"]
    specs = leads.field_specs("ebook", lang)
    assert [spec["name"] for spec in specs] == list(FIELDS)
    autocomplete = {
        "name": "family-name",
        "firstname": "given-name",
        "phone": "tel",
        "company": "organization",
        "email": "email",
    }
    kinds = {"phone": "tel", "email": "email"}
    for spec in specs:
        name = spec["name"]
        assert spec == {
            "name": name,
            "kind": kinds.get(name, "text"),
            "required": True,
            "autoComplete": autocomplete[name],
            "pattern": leads.FIELD_RULES[name].pattern,
            "maxLength": 200,
            "label": text["labels"][name],
            "options": [],
            "messages": {
                "required": messages["required"],
                "tooLong": messages["too_long"],
                "mismatch": messages[{"phone": "phone", "email": "email"}.get(name, "text")],
            },
        }, name


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_select_gets_its_options_after_the_empty_choice_and_no_pattern(lang):
    rule = leads.select_rule("small", "large", required=False, autocomplete="organization-title")
    with declared("team", rule, leads._optional()):
        [spec] = [spec for spec in leads.field_specs("ebook", lang) if spec["name"] == "team"]
    assert spec["kind"] == "select" and spec["required"] is False and spec["pattern"] == ""
    assert spec["autoComplete"] == "organization-title" and spec["label"] == LABELS[lang]
    assert spec["options"] == [
        {"value": "", "label": leads.words(lang, "lead_forms")["choose"]},
        {"value": "small", "label": OPTION_WORDS[lang]["small"]},
        {"value": "large", "label": OPTION_WORDS[lang]["large"]},
    ]
    assert spec["messages"]["mismatch"] == leads.words(lang, "lead_forms.field_errors")["choice"]


def test_a_textarea_has_no_input_pattern_the_server_checks_it():
    rule = leads.FieldRule("textarea", "off", leads.MULTILINE_PATTERN, "text", required=False)
    with declared("team", rule, leads._optional()):
        [spec] = [spec for spec in leads.field_specs("ebook", "en") if spec["name"] == "team"]
    assert (spec["kind"], spec["pattern"], spec["options"], spec["maxLength"]) == ("textarea", "", [], 200)


# ----------------------------------------------------------------------------- the sales mail


def _lead(form="ebook", lang="fr", flags=(), attribution=None, **values):
    from lead_payloads import SAMPLE_VALUES

    return leads.LeadInput.model_construct(
        None, form=form, lang=lang, flags=flags, attribution=attribution or {}, **{**SAMPLE_VALUES, **values}
    )


SUMMARY = (
    "Prénom : Hélène\nNom : Lefèvre\nTéléphone : +33 1 23 45 67 89\n"
    "Email : helene.lefevre@example.com\nSociété : Banque Exemple\n"
)


def test_the_sales_mail_names_the_document_its_language_each_flag_and_where_the_visit_came_from():
    lead = _lead(
        "white_paper",
        "en",
        flags=("fast", "honeypot"),
        attribution={"landing_page": "/en", "referrer": "", "utm_source": "newsletter", "utm_campaign": "autumn"},
    )
    assert leads.summary_text(lead) == (
        SUMMARY + "Document : Nereo - Digital trends in wealth management - white paper.pdf (version anglaise)\n"
        "À vérifier : formulaire envoyé très vite (remplissage automatique ou robot)\n"
        "À vérifier : champ piège rempli (remplissage automatique ou robot)\n"
        "Page d'arrivée : /en\n"
        "Source (utm_source) : newsletter\n"
        "Campagne (utm_campaign) : autumn\n"
    )


def test_a_demo_bookings_summary_names_no_document():
    assert leads.summary_text(_lead(DEMO_FORM)) == SUMMARY


def test_a_field_the_summary_does_not_name_gets_its_label_and_value_or_not_given():
    from lead_payloads import SAMPLE_VALUES

    def lead(form: str, team: str) -> SimpleNamespace:  # a LeadInput of the model with the field
        return SimpleNamespace(form=form, lang="fr", flags=(), attribution={}, team=team, **SAMPLE_VALUES)

    rule = leads.select_rule("small", "large", required=False, forms=(DEMO_FORM,))
    with declared("team", rule, leads._optional()):
        chosen = leads.summary_text(lead(DEMO_FORM, "large"))
        empty = leads.summary_text(lead(DEMO_FORM, ""))
        download = leads.summary_text(lead("ebook", "large"))
    assert chosen == SUMMARY + "Taille de l'équipe : 10 ou plus\n"
    assert empty == SUMMARY + "Taille de l'équipe : (non renseigné)\n"
    assert "équipe" not in download


def test_the_attribution_lines_follow_the_visit_and_leave_out_empty_and_unknown_values():
    assert leads.attribution_text({}) == ""
    assert leads.attribution_text(
        {
            "utm_term": "wealth",
            "referrer": "news.example",
            "utm_medium": "",
            "utm_content": "banner",
            "unknown": "x",
        }
    ) == ("Mot-clé (utm_term) : wealth\nSite référent : news.example\nContenu (utm_content) : banner\n")
