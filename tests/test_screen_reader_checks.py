"""The checks of the screen-reader journeys (tests/screen_reader.py), without a build: each finds
the defect it is for in phrases as the virtual screen reader says them, and the committed logs of
docs/accessibility/screen-reader/ pass them all. The journeys themselves run in
tests/test_screen_reader.py (Chromium, the production build)."""

from __future__ import annotations

import json
import re

import pytest
from screen_reader import (
    ACTIONS,
    LOGS,
    Step,
    Transcript,
    heading_problems,
    log_path,
    mask,
    name_of,
    parse,
    problems,
    stateless_controls,
    unnamed_controls,
)
from servers import ROOT

JOURNEYS = ("1-ebook", "2-booking", "3-trial", "4-consent", "5-console")


def test_a_control_said_without_a_name_is_found():
    said = [
        "button, Tout accepter",
        "link, Découvrir l'offre Engage",
        "textbox, Votre email*, required",
        "checkbox, Mesure d'audience, checked",
        "end of link, Nereo",
        "polite: button",
        "image, Tableau de bord",
    ]
    assert unnamed_controls(said) == []
    unnamed = [
        "button",
        "link, not expanded",
        "textbox, required, invalid",
        "checkbox, not checked",
        "radio, position 2",
    ]
    assert unnamed_controls(said + unnamed) == unnamed


def test_a_checkable_control_or_a_disclosure_said_without_its_state_is_found():
    assert (
        stateless_controls(["checkbox, Mesure d'audience, not checked", "button, Solutions, 1 control, expanded"]) == []
    )
    missing = [
        "checkbox, Mesure d'audience",
        "radio, 09:30, position 1, set size 9",
        "button, Personnaliser, 1 control",
    ]
    assert stateless_controls(missing) == missing


def test_headings_out_of_order_are_found():
    page = [
        "heading, Accueil, level 1",
        "heading, Offres, level 2",
        "heading, Engage, level 3",
        "heading, Blog, level 2",
    ]
    assert heading_problems(page) == []
    assert heading_problems([*page, "heading, Détail, level 3", "heading, Note, level 4"]) == []
    assert heading_problems(["heading, Accueil, level 1", "heading, Engage, level 3"]) == [
        "'heading, Engage, level 3' after a level 1"
    ]
    assert heading_problems(["heading, Offres, level 2"]) == [
        "'heading, Offres, level 2' after a level 0",
        "0 level-1 headings (one expected)",
    ]
    assert heading_problems([*page, "heading, Encore, level 1"]) == ["2 level-1 headings (one expected)"]
    # A dialog's headings are a sequence of their own: the banner's h2 before the page's h1.
    banner = ["dialog, Gestion des cookies, not modal", "heading, Votre vie privée, level 2", "end of dialog, Gestion"]
    assert heading_problems([*banner, *page]) == []
    assert heading_problems(["dialog, Cookies", "heading, Détail, level 3", "end of dialog, Cookies", *page]) == [
        "'heading, Détail, level 3' after a level 1"
    ]


def test_only_whole_pages_are_checked_for_headings():
    region = Step("Lit « Agenda » de haut en bas", ["heading, Votre démonstration est réservée, level 3"])
    page = Step("Lit la page / de haut en bas", ["heading, Offres, level 2"], reading=True)
    assert problems(Transcript("x", "fr", "x", [region])) == []
    assert problems(Transcript("x", "fr", "x", [region, page])) != []


def test_what_changes_from_run_to_run_is_masked_and_nothing_else():
    assert (
        mask("radio, mar. 2 déc., checked, position 2, set size 14")
        == "radio, ‹date›, checked, position 2, set size ‹n›"
    )
    assert (
        mask("polite: Créneau sélectionné : mardi 2 décembre, 09:30") == "polite: Créneau sélectionné : ‹date›, ‹time›"
    )
    assert mask("radio, Tue 2 Dec, not checked") == "radio, ‹date›, not checked"
    assert mask("polite: Selected slot: Tuesday, 2 December, 09:30") == "polite: Selected slot: ‹date›, ‹time›"
    assert mask("cell, 2026-11-28 03:15") == "cell, ‹date›"
    # A list's size and the words around a date stay.
    for kept in ("listitem, level 1, position 1, set size 3", "heading, 5 min : votre contexte, level 3", "Mai"):
        assert mask(kept) == kept


def test_a_name_is_what_follows_the_role_before_the_states():
    assert name_of("checkbox, Mesure d'audience, Statistiques de fréquentation, not checked") == (
        "Mesure d'audience, Statistiques de fréquentation"
    )
    assert name_of("button, Solutions, 1 control, not expanded") == "Solutions"
    assert name_of("button") == ""


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("journey", JOURNEYS)
def test_the_committed_logs_pass_the_checks(journey, lang):
    path = log_path(journey, lang)
    assert path.exists(), f"{path} is missing: `make screen-reader-logs` writes it"
    transcript = parse(path.read_text(), journey, lang)
    assert transcript.steps and any(step.reading for step in transcript.steps) == (
        journey not in ("4-consent", "5-console")
    )
    assert problems(transcript) == []


def test_the_logs_are_those_of_the_pinned_reader_and_of_the_five_journeys_only():
    pinned = json.loads((ROOT / "tests" / "screen-reader" / "package.json").read_text())["dependencies"]
    version = pinned["@guidepup/virtual-screen-reader"]
    for lang in ("fr", "en"):
        assert sorted(p.stem for p in (LOGS / lang).glob("*.md")) == list(JOURNEYS)
        for journey in JOURNEYS:
            assert f"({version})" in log_path(journey, lang).read_text(), (journey, lang)
    assert sorted(p.name for p in LOGS.iterdir() if p.is_dir()) == ["en", "fr"]


def test_the_read_actions_are_told_apart():
    for lang, actions in ACTIONS.items():
        page = actions["read_page"].format(target="/x")
        region = actions["read"].format(target="Agenda")
        step_lines = f"# T\n\n## 1. {page}\n\n- heading, A, level 1\n\n## 2. {region}\n\n- heading, B, level 3\n"
        assert [s.reading for s in parse(step_lines, "x", lang).steps] == [True, False]
        assert re.search(r"\{|\}", page + region) is None


@pytest.mark.parametrize(
    ("lang", "said", "gone"),
    [
        ("fr", "lecteur d'écran virtuel", "Aucun test avec un lecteur d'écran n'a encore été mené."),
        ("en", "virtual screen reader", "No test with a screen reader has been carried out yet."),
    ],
)
def test_the_accessibility_statement_says_what_was_done_with_a_screen_reader(lang, said, gone):
    statement = (ROOT / "marketing_site" / "content" / lang / "accessibility.md").read_text("utf-8")
    assert said in statement and gone not in statement
