"""One fact, one place (issue 40): a demo's length is the setting BOOKING_MEETING_MINUTES, and the
words name it only through `{{meeting_minutes}}` (`content.words.SETTING_FACTS`), the buffer
through `{{buffer_minutes}}`.

Build-free. The scan reads every content file as written (words, documents, the content modules)
for a length written out; the property sets the setting to any length it accepts and reads every
words file of every language again: each place that names the length says the new one, and
nothing else changed. The agenda adds up to the length; the scheduler, the invitation and the
mails follow it (tests/test_booking.py); recipe (i) of tests/test_recipes.py renders the pages.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from servers import ROOT

from marketing_site import settings as site_settings
from marketing_site.content import words as site_words
from marketing_site.content.demo import AGENDA, agenda_minutes

CONTENT = ROOT / "marketing_site" / "content"
PLACEHOLDER = "{{meeting_minutes}}"
# A length written out: 30, thirty or trente as a number of its own (not 301, 1,30 or 09:30's
# neighbours), or half an hour, in any case; the 30 days of the free trial and of the contract's
# terms ("trente (30) jours", "30-day") are another fact and are let through.
WRITTEN = re.compile(
    r"(?<![\w.,:])(?:30|trente|thirty)(?![\w.,:])(?![\s\u00a0()-]*(?:30\)[\s\u00a0]*)?(?:jours?|days?)\b)"
    r"|demi-heure|half[\s-](?:an[\s-])?hour",
    re.IGNORECASE,
)


def written_lengths(text: str) -> list[str]:
    """Each length written out in `text`, with some context."""
    return [text[max(0, m.start() - 30) : m.end() + 30] for m in WRITTEN.finditer(text)]


def test_the_scan_finds_a_length_written_in_any_form():
    for text in (
        "Réservez votre démonstration de 30 minutes",
        "Book your 30-minute demo",
        "Nereo demo (30 min)",
        "Trente minutes avec un consultant",
        "in thirty minutes",
        "a thirty-minute demonstration",
        "https://meet.example/demo-30-min",
        "Une démonstration d'une demi-heure",
        "half an hour with a consultant",
        "30\u00a0minutes",
    ):
        assert written_lengths(text), text
    for text in ("30 jours d'essai", "a 30-day free trial", "trente (30) jours", "30 days", "EN 301 549", "130 €"):
        assert written_lengths(text) == [], text


def content_files() -> list[Path]:
    return sorted(p for p in CONTENT.rglob("*") if p.suffix in (".yaml", ".md", ".py") and "__pycache__" not in p.parts)


def test_no_length_is_written_in_the_words_of_any_language_nor_in_the_video_link():
    files = content_files()
    assert {p.parent.name for p in files} >= {"fr", "en", "documents", "content"}
    found = [f"{p.relative_to(ROOT)}: {hit!r}" for p in files for hit in written_lengths(p.read_text("utf-8"))]
    assert found == []
    # The video link (a default and the example configuration) is named after the demo, not its length.
    example = (ROOT / ".env.example").read_text("utf-8")
    [example_url] = re.findall(r"^BOOKING_VIDEO_URL=(.*)$", example, re.MULTILINE)
    default_url = site_settings.Settings.model_fields["booking_video_url"].default
    assert written_lengths(example_url) == written_lengths(default_url) == []
    assert re.search(r"^BOOKING_MEETING_MINUTES=30$", example, re.MULTILINE), ".env.example documents it"


def _leaves(raw: Any, filled: Any, where: str = "") -> Iterator[tuple[str, str, str]]:
    """(where, raw string, filled string) of two trees of the same shape (`_plain` left out)."""
    if isinstance(raw, dict):
        for key, value in raw.items():
            if key != "_plain":
                yield from _leaves(value, filled[key], f"{where}.{key}")
    elif isinstance(raw, list):
        for i, (raw_item, filled_item) in enumerate(zip(raw, filled, strict=True)):
            yield from _leaves(raw_item, filled_item, f"{where}[{i}]")
    elif isinstance(raw, str):
        yield where, raw, filled


def _all_words() -> dict[str, Any]:
    """Every words file of every language, as the pages read them, by "lang/name"."""
    return {
        f"{lang}/{path.stem}": site_words.words(lang, path.stem, fallback=lang)
        for lang in site_words.languages()
        for path in sorted((CONTENT / lang).glob("*.yaml"))
    }


def _with_length(minutes: int) -> dict[str, Any]:
    with mock.patch.dict(os.environ, {"BOOKING_MEETING_MINUTES": str(minutes)}):
        site_settings.get_settings.cache_clear()
        try:
            assert site_settings.get_settings().booking_meeting_minutes == minutes
            return _all_words()
        finally:
            site_settings.get_settings.cache_clear()


@pytest.fixture(scope="module")
def default_words() -> dict[str, Any]:
    return _with_length(30)


# Each length reads every file of every language again (about 1.5 s): a few lengths a run.
@settings(max_examples=3)
@given(st.integers(site_settings.MIN_MEETING_MINUTES, site_settings.MAX_MEETING_MINUTES).filter(lambda n: n != 30))
def test_a_length_set_changes_every_place_that_names_it_and_nothing_else(default_words, minutes):
    changed = _with_length(minutes)
    places = 0
    for name, tree in changed.items():
        raw = yaml.safe_load((CONTENT / f"{name}.yaml").read_text("utf-8"))
        before = {where: filled for where, _, filled in _leaves(raw, default_words[name])}
        for where, text, new in _leaves(raw, tree):
            # Where the text names the length, and only there, 30 became the new length.
            old, now = re.split(r"(\d+)", before[where]), re.split(r"(\d+)", new)
            assert len(old) == len(now), (name, where, new)
            changes = [(a, b) for a, b in zip(old, now, strict=True) if a != b]
            if PLACEHOLDER in text:
                places += 1
                assert changes == [("30", str(minutes))] * text.count(PLACEHOLDER), (name, where, new)
            elif "{{" not in text:  # a sentence of another file may name the length
                assert changes == [], (name, where, new)
            assert written_lengths(new) == [], (name, where, new)
    # Both languages' pages, mails, widget, agenda and descriptions: about 20 places each.
    assert places >= 40


def test_the_length_and_the_buffer_are_facts_of_the_words_and_of_the_documents(monkeypatch, tmp_path):
    monkeypatch.setenv("BOOKING_BUFFER_MINUTES", "10")
    monkeypatch.setenv("BOOKING_MEETING_MINUTES", "50")
    site_settings.get_settings.cache_clear()
    try:
        assert site_words.setting_facts() == {"meeting_minutes": "50", "buffer_minutes": "10"}
        assert site_words.facts() == {**site_words.FACTS, "meeting_minutes": "50", "buffer_minutes": "10"}
        # In a Markdown document too (the legal texts' loader), here one of a folder of its own.
        (tmp_path / "fr").mkdir()
        (tmp_path / "fr" / "probe.md").write_text(
            "---\ntitle: t\n---\n\n## S {#s}\n\n{{meeting_minutes}} min, {{buffer_minutes}} min\n", "utf-8"
        )
        monkeypatch.setattr(site_words, "CONTENT_DIR", tmp_path)
        doc, _ = site_words.document("fr", "probe")
        assert doc["sections"][0]["blocks"] == [{"text": ["50 min, 10 min"]}]
    finally:
        site_settings.get_settings.cache_clear()


@pytest.mark.parametrize("value", [str(site_settings.MIN_MEETING_MINUTES - 1), "241", "0", "-30", "thirty"])
def test_a_length_the_agenda_cannot_hold_is_refused_at_start(monkeypatch, value):
    monkeypatch.setenv("BOOKING_MEETING_MINUTES", value)
    site_settings.get_settings.cache_clear()
    try:
        with pytest.raises(site_settings.SettingsError, match="BOOKING_MEETING_MINUTES"):
            site_settings.get_settings()
    finally:
        site_settings.get_settings.cache_clear()


@given(st.integers(site_settings.MIN_MEETING_MINUTES, site_settings.MAX_MEETING_MINUTES))
def test_the_agenda_adds_up_to_every_length_the_setting_accepts(minutes):
    steps = agenda_minutes(minutes)
    assert list(steps) == list(AGENDA)
    assert sum(steps.values()) == minutes
    assert all(step >= 5 for step in steps.values())
    assert {key: steps[key] for key, fixed in AGENDA.items() if fixed is not None} == {
        key: fixed for key, fixed in AGENDA.items() if fixed is not None
    }


def test_an_agenda_longer_than_the_meeting_is_refused():
    with pytest.raises(ValueError, match="leaves no time"):
        agenda_minutes(sum(m for m in AGENDA.values() if m is not None))


@pytest.mark.parametrize("minutes", [15, 45])
def test_the_demo_page_agenda_shows_steps_adding_up_to_the_length(monkeypatch, minutes):
    from marketing_site.pages.demo.agenda import agenda_section

    monkeypatch.setenv("BOOKING_MEETING_MINUTES", str(minutes))
    site_settings.get_settings.cache_clear()
    try:
        for lang in ("fr", "en"):
            rendered = str(agenda_section(site_words.words(lang, "demo")))
            shown = [int(n) for n in re.findall(r'"(\d+) min(?:\\u00a0)?:', rendered)]
            assert len(shown) == len(AGENDA) and sum(shown) == minutes, (lang, shown)
            assert f"{minutes} minutes" in rendered  # the section's title
    finally:
        site_settings.get_settings.cache_clear()
