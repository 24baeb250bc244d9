"""Lead-form fields that declare their kind and whether they are required (issue 31): an optional
field and a select behave as declared for any value. The site's own five fields are required
text, tel and email; these tests declare an optional select and an optional text field on a
model of their own, the way `services.leads.FormFields` would carry them (docs/recipes.md,
recipe c, adds one to the real model in a copy and follows it to the mail, the export and the
console).
"""

from __future__ import annotations

import contextlib
import re
from typing import Annotated

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from marketing_site.services import leads
from marketing_site.services.contact_patterns import is_text

OPTIONS = ("1-5", "6-20", "21-100", "100+")
SIZE = leads.select_rule(*OPTIONS, required=False)
NOTE = leads.FieldRule("textarea", "off", leads.MULTILINE_PATTERN, "text", required=False)


class WithOptionalFields(leads.FormFields):
    company_size: Annotated[str, SIZE, leads._optional()]
    note: Annotated[str, NOTE, leads._optional()]


@contextlib.contextmanager
def declared():
    """The module's rule tables with the two fields, as a line in FormFields would make them."""
    saved_rules, saved_compiled = dict(leads.FIELD_RULES), dict(leads._COMPILED)
    leads.FIELD_RULES.update(company_size=SIZE, note=NOTE)
    leads._COMPILED.update({name: re.compile(rule.pattern) for name, rule in (("company_size", SIZE), ("note", NOTE))})
    try:
        yield
    finally:
        leads.FIELD_RULES.clear()
        leads.FIELD_RULES.update(saved_rules)
        leads._COMPILED.clear()
        leads._COMPILED.update(saved_compiled)


CONTACT = {
    "name": "Smith",
    "firstname": "Jane",
    "phone": "+44 20 7946 0000",
    "company": "Smith Wealth",
    "email": "jane@smith.example",
}
BLANK = st.text(" \t\u00a0\u202f", max_size=5)


def fields(**values):
    with declared():
        return WithOptionalFields.model_validate({**CONTACT, **values}).model_dump()


@given(size=st.one_of(st.none(), BLANK), note=st.one_of(st.none(), BLANK))
def test_an_optional_field_left_empty_absent_or_null_is_stored_empty(size, note):
    # A None size leaves the key out (absent); a None note is sent as null.
    values = {"note": note, **({} if size is None else {"company_size": size})}
    cleaned = fields(**values)
    assert cleaned["company_size"] == "" and cleaned["note"] == ""


@given(st.sampled_from(OPTIONS))
def test_a_select_keeps_any_of_its_options(option):
    assert fields(company_size=option)["company_size"] == option


@given(st.text(min_size=1, max_size=30).filter(lambda v: v.strip(" \t\u00a0\u202f") and v not in OPTIONS))
def test_a_select_refuses_anything_else(value):
    with pytest.raises(ValidationError) as refused:
        fields(company_size=value)
    assert [e["loc"] for e in refused.value.errors()] == [("company_size",)]


@given(
    st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Cf", "Zl", "Zp")),
        min_size=1,
        max_size=60,
    ).filter(is_text)  # noncharacters (U+FDD0, U+FFFE, ...) are refused in every field: not text
)
def test_a_textarea_keeps_its_line_breaks(text):
    value = f"{text.strip() or 'x'}\nsecond line"
    assert "\n" in fields(note=value)["note"]


def test_a_required_field_is_still_required():
    with pytest.raises(ValidationError):
        fields(company=" ")


def test_the_schema_says_optional_and_lists_the_options():
    with declared():
        schema = WithOptionalFields.model_json_schema()
    assert "company_size" not in schema["required"] and "email" in schema["required"]
    assert schema["properties"]["company_size"]["enum"] == ["", *OPTIONS]
    assert schema["properties"]["note"]["pattern"].endswith(")?$")
