"""The operators' console (/console, /en/console): leads, traffic, charts and funnel, mail, data subjects.

Layout only: the rules are in `services.console`, the state (and its role check on every
event) in `state.console`, the words in `content/<lang>/console.yaml`. The page is prerendered with
its title only; the sections appear once the server has granted access.
"""

from __future__ import annotations

import reflex as rx

from marketing_site.content.words import words
from marketing_site.pages.console import charts, leads, mail, subjects, traffic
from marketing_site.state.console import ConsoleState

ON_LOAD = ConsoleState.load
# Compiled into a JS module of its own (marketing_site.py): recharts stays off the public pages.
OWN_BUNDLE = True


def _gate(text: dict, lang: str) -> rx.Component:
    return rx.match(
        ConsoleState.access,
        (
            "granted",
            rx.fragment(
                leads.section(text),
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
