"""Offers as data (issue 40): the highlighted plan and the footnotes live in `content/offers.py` and
the offers YAML, and the pricing and compare pages render them. Build-free: the pages' Reflex
trees, read as elements (tag, attributes, children).

A footnote's mark is text inside what it qualifies, never a link or a focus stop (the keyboard
walk caught marks written as links under the sticky navbar); the qualified element names its
notes (`aria-describedby`), and each named note is on the page once, with its mark and words.
tests/test_accessibility.py walks both pages by keyboard and runs axe and HTML_CodeSniffer on
them; tests/test_browser_pages.py reads the badge and the notes in Chromium.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from marketing_site.content import offers
from marketing_site.content.offers import FOOTNOTES, HIGHLIGHTED, Footnote, check
from marketing_site.content.words import languages, words

INTERACTIVE = {"a", "button", "input", "select", "textarea", "details", "summary"}


def link_or_control(element: Element) -> bool:
    """A link or a control (Reflex compiles `a` to React Router's `ReactRouterLink`)."""
    return element.tag in INTERACTIVE or element.tag.endswith(("Link", "Button")) or "href" in element.props


@dataclass
class Element:
    tag: str
    props: dict[str, Any]
    children: list[Element | str] = field(default_factory=list)
    parent: Element | None = field(default=None, repr=False)

    def text(self, sr: bool = True) -> str:
        """The text inside, with or without what only screen readers get (`.sr-only`)."""
        return "".join(
            child
            if isinstance(child, str)
            else ""
            if not sr and "sr-only" in child.props.get("className", "").split()
            else child.text(sr)
            for child in self.children
        )

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.walk()

    def classes(self) -> set[str]:
        return set(str(self.props.get("className", "")).split())

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


def _prop(text: str) -> tuple[str, Any]:
    key, _, value = text.partition(":")
    try:
        return json.loads(key) if key.startswith('"') else key, json.loads(value)
    except json.JSONDecodeError:
        return key, value  # a state var or an expression: kept as written


def element_tree(rendered: dict, parent: Element | None = None) -> Element:
    """A component's `render()` (Reflex's own description of what it compiles) as elements;
    fragments and other components are elements too, named as Reflex names them."""
    name = rendered.get("name", "")
    node = Element(json.loads(name) if name.startswith('"') else name, dict(map(_prop, rendered.get("props", []))))
    node.parent = parent
    for child in rendered.get("children", []):
        if "contents" in child:
            contents = child["contents"]
            node.children.append(json.loads(contents) if contents.startswith('"') else contents)
        else:
            node.children.append(element_tree(child, node))
    return node


def page_tree(key: str, lang: str) -> Element:
    import importlib

    return element_tree(importlib.import_module(f"marketing_site.pages.{key}").page(lang).render())


def footnote_problems(page: Element, text: dict, footnotes: tuple[Footnote, ...]) -> list[str]:
    """What is wrong with a page's footnotes (`text`: the page language's offers words): marks that
    are links or focus stops, or not tied to their note; notes named and missing, listed twice,
    or listed without a mark on the page."""
    problems = []
    label = text["note_label"]
    by_id = {f"offer-note-{note.key}": note for note in footnotes}
    elements = list(page.walk())
    described = {}  # note id -> how many elements it describes
    for element in elements:
        for note_id in str(element.props.get("aria-describedby", "")).split():
            described[note_id] = described.get(note_id, 0) + 1
    for mark in (e for e in elements if "footnote-mark" in e.classes()):
        owner = next((a for a in mark.ancestors() if "aria-describedby" in a.props), None)
        where = (owner or mark).text(sr=False)
        if link_or_control(mark) or any(link_or_control(a) for a in mark.ancestors()):
            problems.append(f"mark in a link or control: {where!r}")
        if {"tabIndex", "onClick", "to"} & set(mark.props):
            problems.append(f"mark is a focus stop: {where!r}")
        if mark.text(sr=True) != f"{label} {mark.text(sr=False)}":
            problems.append(f"mark not read as '{label} <mark>': {mark.text()!r}")
        notes = [by_id.get(i) for i in str(owner.props["aria-describedby"]).split()] if owner else []
        if mark.text(sr=False) not in [note.mark for note in notes if note]:
            problems.append(f"mark {mark.text(sr=False)!r} of {where!r} not tied to its note")
    listed = [e for e in elements if str(e.props.get("id", "")).startswith("offer-note-")]
    ids = [str(e.props["id"]) for e in listed]
    for note_id, times in described.items():
        if ids.count(note_id) != 1:
            problems.append(f"{note_id} described {times} time(s), listed {ids.count(note_id)} time(s)")
    for element in listed:
        note = by_id[element.props["id"]]
        if note.mark not in element.text(sr=False) or text["notes"][note.key] not in element.text():
            problems.append(f"{element.props['id']} lacks its mark or words: {element.text()!r}")
        if element.props["id"] not in described:
            problems.append(f"{element.props['id']} is listed, yet no mark on the page names it")
    return problems


def badges(page: Element) -> list[Element]:
    return [e for e in page.walk() if e.props.get("data-testid") == "most-popular"]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_pricing_page_marks_the_noted_lines_and_lists_the_notes(lang):
    page = page_tree("pricing", lang)
    assert footnote_problems(page, words(lang, "offers"), FOOTNOTES) == []
    names = words(lang, "offers.features")
    noted = {feature: offers.feature_notes(feature) for feature in offers.FEATURES if offers.feature_notes(feature)}
    lines = [e for e in page.walk() if e.tag == "li" and "offer__list" in (e.parent.classes() if e.parent else set())]
    marked = 0
    for line in lines:
        for feature, notes in noted.items():
            if line.text(sr=False).startswith(names[feature]):  # a noted feature's line carries its marks
                assert line.text(sr=False) == names[feature] + "".join(note.mark for note in notes)
                assert line.props["aria-describedby"] == " ".join(f"offer-note-{note.key}" for note in notes)
                marked += 1
    assert marked >= 1, "the site's own footnote (KYC-LAB) shows on the Complete card"
    for offer in offers.OFFER_KEYS:
        [card] = [e for e in page.walk() if e.tag == "article" and e.props.get("id") == offer]
        [price] = [e for e in card.walk() if "offer__price-line" in e.classes()]
        expected = " ".join(f"offer-note-{note.key}" for note in offers.price_notes(offer))
        assert price.props.get("aria-describedby", "") == expected, offer


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_compare_table_marks_the_noted_rows_and_lists_the_notes(lang):
    page = page_tree("compare", lang)
    assert footnote_problems(page, words(lang, "offers"), FOOTNOTES) == []
    names = words(lang, "offers.features")
    for feature in offers.FEATURES:
        [row_header] = [e for e in page.walk() if e.props.get("id") == f"compare-feature-{feature}"]
        expected = " ".join(f"offer-note-{note.key}" for note in offers.feature_notes(feature))
        assert row_header.props.get("aria-describedby", "") == expected, feature
        assert row_header.text(sr=False) == names[feature] + "".join(n.mark for n in offers.feature_notes(feature))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_highlighted_plan_has_the_badge_on_both_pages(lang):
    badge = words(lang, "offers.highlight_badge")
    [on_card] = badges(page_tree("pricing", lang))
    card = next(a for a in on_card.ancestors() if a.tag == "article")
    assert (card.props["id"], on_card.text()) == (HIGHLIGHTED, badge)
    assert "offer--highlighted" in card.classes()
    [on_guide] = badges(page_tree("compare", lang))
    guide_card = next(a for a in on_guide.ancestors() if a.tag == "article")
    assert guide_card.text().startswith(offers.OFFER_NAMES[HIGHLIGHTED]) and on_guide.text() == badge


def test_the_problems_reader_finds_a_mark_written_as_a_link_and_an_orphan_note():
    import reflex as rx

    from marketing_site.components.offer_notes import described_by, marks, note_list

    [note] = FOOTNOTES
    good = element_tree(
        rx.fragment(rx.el.li("KYC", marks((note,), "fr"), **described_by((note,))), note_list((note,), "fr")).render()
    )
    assert footnote_problems(good, words("fr", "offers"), FOOTNOTES) == []
    as_link = element_tree(
        rx.fragment(
            rx.el.li("KYC", rx.el.a(marks((note,), "fr"), href="#n"), **described_by((note,))),
            note_list((note,), "fr"),
        ).render()
    )
    assert footnote_problems(as_link, words("fr", "offers"), FOOTNOTES) == ["mark in a link or control: 'KYC1'"]
    orphan = element_tree(rx.fragment(rx.el.li("KYC"), note_list((note,), "fr")).render())
    assert footnote_problems(orphan, words("fr", "offers"), FOOTNOTES) == [
        "offer-note-kyc_lab_partner is listed, yet no mark on the page names it"
    ]
    unlisted = element_tree(rx.el.li("KYC", marks((note,), "fr"), **described_by((note,))).render())
    assert footnote_problems(unlisted, words("fr", "offers"), FOOTNOTES) == [
        "offer-note-kyc_lab_partner described 1 time(s), listed 0 time(s)"
    ]


def test_every_footnote_and_the_badge_have_words_in_every_language():
    for lang in languages():
        offers_words = words(lang, "offers", fallback=lang)
        assert offers_words["highlight_badge"] and offers_words["note_label"]
        assert set(offers_words["notes"]) == {note.key for note in FOOTNOTES}, lang


@pytest.mark.parametrize(
    ("highlighted", "footnotes", "message"),
    [
        ("premium", (), "HIGHLIGHTED names no offer: 'premium'"),
        (None, (Footnote("a", "1", features=("kyc_lab",)), Footnote("b", "1", prices=("engage",))), "mark of its own"),
        ("engage", (Footnote("a", "1", features=("kyc_lab",)), Footnote("a", "2", prices=("engage",))), "key of its"),
        ("engage", (Footnote("a", " ", features=("kyc_lab",)),), "its mark is empty"),
        ("engage", (Footnote("a", "1"),), "qualifies nothing"),
        ("engage", (Footnote("a", "1", features=("kyc",)),), re.escape("unknown features ['kyc']")),
        ("engage", (Footnote("a", "1", prices=("gold",)),), re.escape("unknown offers ['gold']")),
    ],
)
def test_a_wrong_highlight_or_footnote_is_refused_by_name(highlighted, footnotes, message):
    with pytest.raises(ValueError, match=message):
        check(highlighted, footnotes)
    check(None, ())
    check(HIGHLIGHTED, FOOTNOTES)
