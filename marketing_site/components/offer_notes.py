"""What the pricing and compare pages say of the offers besides the matrix: the highlighted plan's
badge (`content.offers.HIGHLIGHTED`) and the footnotes (`content.offers.FOOTNOTES`): marks after
what a note qualifies, and the notes listed below the cards and the table.

A mark is text, not a link: a link in a card is one more Tab stop per mark, and the keyboard walk
found such links scrolled under the sticky navbar. Instead the qualified element (a card's line,
a price, a table's row header) names its notes with `aria-describedby`, so a screen reader gives
the note with the element, and the mark reads "Note 1" where the text is read in order. The
notes are a visible list, each with its mark, after the cards or the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import reflex as rx

from marketing_site.content.offers import FOOTNOTES, Footnote
from marketing_site.content.words import words


def highlight_badge(lang: str, placement: str) -> rx.Component:
    """The highlighted plan's badge ("Le plus populaire"); `placement`: the class placing it."""
    return rx.el.p(
        words(lang, "offers.highlight_badge"), class_name=f"offer-badge {placement}", data_testid="most-popular"
    )


def note_id(note: Footnote) -> str:
    """The id of a note in the page's list: what the marked elements' `aria-describedby` names."""
    return f"offer-note-{note.key}"


def described_by(notes: Sequence[Footnote]) -> dict[str, str]:
    """The attribute tying an element to its notes (none when it has none)."""
    return {"aria_describedby": " ".join(note_id(note) for note in notes)} if notes else {}


def _mark(note: Footnote, label: str, class_name: str, tag=rx.el.sup) -> rx.Component:
    return tag(rx.el.span(f"{label} ", class_name="sr-only"), note.mark, class_name=class_name)


def marks(notes: Sequence[Footnote], lang: str) -> rx.Component:
    """The marks of `notes`, to follow the words they qualify."""
    label = words(lang, "offers.note_label")
    return rx.fragment(*[_mark(note, label, "footnote-mark") for note in notes])


def note_list(notes: Iterable[Footnote], lang: str) -> rx.Component:
    """The notes whose marks the page shows (each once, in the order of FOOTNOTES); nothing when none."""
    marked = set(notes)
    shown = [note for note in FOOTNOTES if note in marked]
    if not shown:
        return rx.fragment()
    label = words(lang, "offers.note_label")
    return rx.el.ul(
        *[
            rx.el.li(
                _mark(note, label, "footnotes__mark", tag=rx.el.span),
                " ",
                words(lang, f"offers.notes.{note.key}"),
                id=note_id(note),
                class_name="footnotes__note",
            )
            for note in shown
        ],
        class_name="footnotes",
    )
