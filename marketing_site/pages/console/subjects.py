"""Data-subject requests: look up an email, download its data as JSON, erase it; the audit log."""

from __future__ import annotations

import reflex as rx

from marketing_site.api.console import SUBJECT_JSON
from marketing_site.components.client import NativeForm
from marketing_site.pages.console.parts import scrollable
from marketing_site.state.console import ConsoleState

AUDIT_COLUMNS = ("created_at", "actor", "action", "subject", "counts")


def lookup_form(text: dict) -> rx.Component:
    return rx.el.form(
        rx.el.div(
            rx.el.label(text["email"], html_for="console-subject-email", class_name="field__label"),
            rx.el.input(
                id="console-subject-email",
                name="email",
                type="email",
                required=True,
                class_name="field__input",
                auto_complete="off",
            ),
            class_name="field",
        ),
        rx.el.button(text["find"], type="submit", class_name="btn btn--primary", data_testid="console-subject-find"),
        rx.cond(
            ConsoleState.subject_error,
            rx.el.p(text["invalid_email"], class_name="console__error", role="alert"),
        ),
        on_submit=ConsoleState.lookup_subject,
        reset_on_submit=False,
        class_name="console__subject-form",
    )


def result(text: dict) -> rx.Component:
    holders = text["holders"]
    return rx.cond(
        ConsoleState.subject_action != "",
        rx.el.div(
            rx.el.p(
                rx.cond(ConsoleState.subject_action == "erased", text["erased"], text["found"]),
                " ",
                rx.el.strong(ConsoleState.subject_email),
            ),
            rx.el.ul(
                rx.foreach(
                    ConsoleState.subject_counts,
                    lambda c: rx.el.li(
                        rx.match(c["holder"], *holders.items(), c["holder"]),
                        " : ",
                        c["count"],
                        " ",
                        text["rows"],
                        data_holder=c["holder"],
                    ),
                ),
                data_testid="console-subject-counts",
            ),
            rx.cond(
                ConsoleState.subject_action == "found",
                rx.el.div(
                    # A native POST: the browser saves the JSON the export route answers.
                    NativeForm.create(
                        rx.el.input(type="hidden", name="email", value=ConsoleState.subject_email, read_only=True),
                        rx.el.button(
                            text["download"],
                            type="submit",
                            class_name="btn btn--secondary",
                            data_testid="console-subject-download",
                        ),
                        method="post",
                        action=SUBJECT_JSON,
                    ),
                    rx.el.form(
                        rx.el.input(type="hidden", name="email", value=ConsoleState.subject_email, read_only=True),
                        rx.el.label(
                            rx.el.input(
                                type="checkbox",
                                name="confirm",
                                required=True,
                                checked=ConsoleState.erase_armed,
                                on_change=ConsoleState.arm_erase,
                                data_testid="console-erase-confirm",
                            ),
                            " ",
                            text["erase_confirm"],
                        ),
                        rx.el.button(
                            text["erase"],
                            type="submit",
                            class_name="btn btn--primary console__danger",
                            # Disabled until the box is ticked: the server refuses it as well.
                            disabled=~ConsoleState.erase_armed,
                            data_testid="console-subject-erase",
                        ),
                        on_submit=ConsoleState.erase_subject,
                        reset_on_submit=True,
                    ),
                    class_name="console__actions",
                ),
            ),
            class_name="console__subject",
            role="status",
            data_testid="console-subject-result",
        ),
    )


def audit(text: dict) -> rx.Component:
    columns = text["audit_columns"]
    return rx.el.div(
        rx.el.h3(text["audit_title"]),
        scrollable(
            rx.el.table(
                rx.el.thead(rx.el.tr(*[rx.el.th(columns[c], scope="col") for c in AUDIT_COLUMNS])),
                rx.el.tbody(
                    rx.foreach(
                        ConsoleState.audit,
                        lambda e: rx.el.tr(*[rx.el.td(e[c], data_col=c) for c in AUDIT_COLUMNS], data_audit_id=e["id"]),
                    )
                ),
                class_name="console__table",
                data_testid="console-audit",
            ),
            label=text["audit_title"],
        ),
    )


def section(text: dict) -> rx.Component:
    return rx.el.section(
        rx.el.h2(text["subjects_title"]),
        rx.el.p(text["subjects_intro"]),
        lookup_form(text),
        result(text),
        audit(text),
        class_name="console__section",
        id="data-subjects",
    )
