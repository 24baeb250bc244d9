"""The props that cross from Python into the client-only widgets (issue 31): each widget's props
are a TypedDict on the Python side, and these tests hold both sides to it.

- What Python passes has exactly the TypedDict's keys and types, nested ones included (a prop
  missing, extra or of the wrong type fails here, not in a visitor's browser).
- The JSX component reads exactly those props: the names its function destructures are the
  TypedDict's keys in camelCase (Reflex's spelling of a prop), and the per-field keys
  `assets/lead_form.jsx` reads (`field.x`) are those of `FieldSpec`.
"""

from __future__ import annotations

import contextlib
import re
import types
import typing
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from marketing_site import routes
from marketing_site.components import carousel, consent, lead_form
from marketing_site.content import lead_forms
from marketing_site.services import leads

ASSETS = Path(__file__).resolve().parent.parent / "assets"


def shape_errors(value: object, expected: object, where: str = "props") -> list[str]:
    """What in `value` does not fit the type `expected` (TypedDicts checked key by key)."""
    origin = typing.get_origin(expected)
    if typing.is_typeddict(expected):
        if not isinstance(value, dict):
            return [f"{where}: not a dict"]
        hints = typing.get_type_hints(expected)
        errors = [f"{where}: missing {key}" for key in hints.keys() - value.keys()]
        errors += [f"{where}: unexpected {key}" for key in value.keys() - hints.keys()]
        for key in hints.keys() & value.keys():
            errors += shape_errors(value[key], hints[key], f"{where}.{key}")
        return errors
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: not a list"]
        (item,) = typing.get_args(expected)
        return [error for i, entry in enumerate(value) for error in shape_errors(entry, item, f"{where}[{i}]")]
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(expected)
        return [] if any(not shape_errors(value, option, where) for option in options) else [f"{where}: {value!r}"]
    if expected is type(None):
        return [] if value is None else [f"{where}: not None"]
    # bool is an int in Python, not in a prop: an exact type.
    return [] if type(value) is expected else [f"{where}: {type(value).__name__}, not {expected}"]


class _Inner(typing.TypedDict):
    n: int


class _Outer(typing.TypedDict):
    items: list[_Inner]
    flag: bool | None


def test_the_shape_check_finds_missing_extra_and_mistyped_props():
    assert shape_errors({"items": [{"n": 1}], "flag": None}, _Outer) == []
    assert set(shape_errors({"items": [{"n": True}], "flag": 1, "x": 2}, _Outer)) == {
        "props: unexpected x",
        "props.items[0].n: bool, not <class 'int'>",
        "props.flag: 1",
    }
    assert shape_errors({"flag": False}, _Outer) == ["props: missing items"]


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def destructured_props(jsx: str, component: str) -> set[str]:
    """The prop names a JSX function component takes (`export function X({ a, b })`)."""
    found = re.search(rf"export function {component}\(\{{([^}}]*)\}}\)", (ASSETS / jsx).read_text())
    assert found, f"{component} in {jsx}"
    return {name.strip().split("=")[0].strip() for name in found.group(1).split(",") if name.strip()}


def props_of(typed: type) -> set[str]:
    return {camel(key) for key in typing.get_type_hints(typed)}


@pytest.mark.parametrize("lang", routes.LANGS)
def test_consent_props_have_the_typed_shape(lang):
    props = consent.consent_props(lang)
    assert shape_errors(props, consent.ConsentManagerProps) == []
    assert [p["key"] for p in props["purposes"]] == ["analytics", "marketing"]
    assert props_of(consent.ConsentManagerProps) == destructured_props("consent.jsx", "ConsentManager")
    # The panel renders each purpose's label, text and recipients; the store takes the rest.
    jsx = (ASSETS / "consent.jsx").read_text()
    assert set(re.findall(r"\b(?:purpose|candidate)\.(\w+)", jsx)) == set(
        typing.get_type_hints(consent.ConsentPurposeProps)
    )
    assert set(re.findall(r"\bt\.(\w+)", jsx)) <= set(typing.get_type_hints(consent.ConsentTexts))


@pytest.mark.parametrize("lang", routes.LANGS)
def test_carousel_props_have_the_typed_shape(lang):
    props = carousel.carousel_props(lang)
    assert shape_errors(props, carousel.CarouselProps) == []
    assert props["autoplay_ms"] == 0  # off by default (content/testimonials.py)
    assert props_of(carousel.CarouselProps) | props_of(carousel.CarouselClientProps) == destructured_props(
        "carousel.jsx", "TestimonialCarousel"
    )
    jsx = (ASSETS / "carousel.jsx").read_text()
    assert set(re.findall(r"item\.(\w+)", jsx)) == set(typing.get_type_hints(carousel.TestimonialProps))


@pytest.mark.parametrize("form_key", lead_forms.DOWNLOAD_FORMS)
@pytest.mark.parametrize("lang", routes.LANGS)
def test_lead_form_props_have_the_typed_shape(form_key, lang):
    props = lead_form.lead_form_props(form_key, lang)
    assert shape_errors(props, lead_form.LeadFormProps) == []
    assert props_of(lead_form.LeadFormProps) == destructured_props("lead_form.jsx", "LeadForm")
    jsx = (ASSETS / "lead_form.jsx").read_text()
    assert set(re.findall(r"\bfield\.(\w+)", jsx)) == set(typing.get_type_hints(leads.FieldSpec))
    assert set(re.findall(r"\boption\.(\w+)", jsx)) == set(typing.get_type_hints(leads.FieldOption))


@given(
    kind=st.sampled_from(["text", "email", "tel", "textarea"]),
    required=st.booleans(),
    options=st.lists(st.text("abcdefghij-_0123456789", min_size=1, max_size=8), min_size=1, max_size=5, unique=True),
)
def test_every_kind_of_field_gives_a_typed_spec(kind, required, options):
    """Whatever a field declares (kind, required, a select's options), its spec fits the type."""
    rules = {
        "extra": leads.FieldRule(kind, "off", leads.TEXT_PATTERN, "text", required),
        "choice": leads.select_rule(*options, required=required),
    }
    with added_fields(rules):
        specs = {spec["name"]: spec for spec in leads.field_specs("ebook", "en")}
    for spec in specs.values():
        assert shape_errors(spec, leads.FieldSpec) == []
    assert specs["extra"]["kind"] == kind and specs["extra"]["required"] is required
    assert specs["extra"]["pattern"] == ("" if kind == "textarea" else leads.TEXT_PATTERN)
    assert [o["value"] for o in specs["choice"]["options"]] == ["", *options]
    assert specs["choice"]["pattern"] == ""


@contextlib.contextmanager
def added_fields(rules: dict[str, leads.FieldRule]):
    """The form-field rules with `rules` added for a while (labels: their names)."""
    saved = dict(leads.FIELD_RULES)
    words_before = leads.words

    def words(lang: str, key: str):
        found = words_before(lang, key)
        if key == "lead_forms":
            found = {**found, "labels": {**found["labels"], **{name: name for name in rules}}}
        return found

    leads.FIELD_RULES.update(rules)
    leads.words = words
    try:
        yield
    finally:
        leads.FIELD_RULES.clear()
        leads.FIELD_RULES.update(saved)
        leads.words = words_before
