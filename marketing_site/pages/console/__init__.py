"""The operators' console (/console, /en/console): leads, demo bookings, traffic, charts and funnel, mail,
data subjects.

Layout only: the rules are in `services.console`, the state (and its role check on every
event) in `state.console`, the words in `content/<lang>/console.yaml`. The page is prerendered with
its title only; the sections appear once the server has granted access.
"""

from __future__ import annotations

import re

import reflex as rx

from marketing_site.content.words import words
from marketing_site.pages.console import bookings, charts, leads, mail, subjects, traffic
from marketing_site.state.console import ConsoleState

ON_LOAD = ConsoleState.load
# Compiled into a JS module of its own (marketing_site.py): recharts stays off the public pages.
OWN_BUNDLE = True


_SLOT = re.compile(r"\{(count|ref)\}")


def _sentence(template: str) -> rx.Component:
    """A sentence of console.outcomes with its {count} and {ref} filled from the state."""
    values = {"count": rx.el.span(ConsoleState.outcome_count), "ref": rx.el.code(ConsoleState.outcome_ref)}
    parts = _SLOT.split(template)
    return rx.fragment(*[values[part] if i % 2 else part for i, part in enumerate(parts) if part])


def outcome(text: dict) -> rx.Component:
    """What the last action did, worked or not (a live region the screen reader announces)."""
    return rx.el.div(
        rx.cond(
            ConsoleState.outcome != "",
            rx.el.p(
                rx.el.strong(rx.cond(ConsoleState.outcome_ok, text["ok"], text["failed"])),
                " — ",
                rx.match(
                    ConsoleState.outcome, *[(k, _sentence(v)) for k, v in text["outcomes"].items()], rx.fragment()
                ),
                class_name=rx.cond(
                    ConsoleState.outcome_ok, "console__outcome", "console__outcome console__outcome--failed"
                ),
                data_outcome=ConsoleState.outcome,
                data_ok=rx.cond(ConsoleState.outcome_ok, "true", "false"),
            ),
        ),
        role="status",
        aria_live="polite",
        class_name="console__outcome-region",
        data_testid="console-outcome",
    )


def _gate(text: dict, lang: str) -> rx.Component:
    return rx.match(
        ConsoleState.access,
        (
            "granted",
            rx.fragment(
                outcome(text),
                leads.section(text, lang),
                bookings.section(text, lang),
                traffic.section(text),
                charts.section(text, lang),
                mail.section(text),
                subjects.section(text),
            ),
        ),
        (
            "forbidden",
            rx.el.div(
                rx.el.h2(text["forbidden_title"], class_name="console__forbidden-title"),
                rx.el.p(text["forbidden_text"]),
                class_name="console__notice console__notice--refused",
                role="alert",
                data_testid="console-forbidden",
            ),
        ),
        ("anonymous", rx.el.p(text["anonymous"], class_name="console__notice")),
        rx.el.p(text["checking"], class_name="console__notice", data_testid="console-checking"),
    )


def page(lang: str) -> rx.Component:
    text = words(lang, "console")
    return rx.el.div(
        # Only this page links the console's stylesheet: public pages do not carry it.
        rx.el.link(rel="stylesheet", href="/console.css"),
        rx.el.h1(text["title"], class_name="section__title"),
        rx.el.p(text["intro"], class_name="section__intro"),
        _gate(text, lang),
        class_name="container console",
    )
