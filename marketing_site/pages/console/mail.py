"""Mail: the health report's outbox counts and when mail last failed, the messages that need an
operator (failed, stuck, late, retrying), retry one or every failed one."""

from __future__ import annotations

import reflex as rx

from marketing_site.pages.console.parts import action_button, scrollable
from marketing_site.services.console import MAIL_COUNTS
from marketing_site.state.console import ConsoleState


def counts(text: dict) -> rx.Component:
    return rx.el.dl(
        rx.el.div(rx.el.dt(text["health"]), rx.el.dd(ConsoleState.health_status, data_testid="console-health")),
        *[
            rx.el.div(
                rx.el.dt(text["outbox_counts"][key]),
                rx.el.dd(ConsoleState.outbox[key], data_testid=f"console-outbox-{key}"),
            )
            for key in MAIL_COUNTS
        ],
        rx.el.div(
            rx.el.dt(text["last_mail_failure"]),
            rx.el.dd(
                rx.cond(ConsoleState.last_mail_failure != "", ConsoleState.last_mail_failure, text["never"]),
                data_testid="console-last-mail-failure",
            ),
        ),
        class_name="console__counts",
    )


def _state(text: dict, state: rx.Var) -> rx.Component:
    return rx.match(state, *[(key, words) for key, words in text["mail_states"].items()], state)


def attention(text: dict) -> rx.Component:
    return rx.el.div(
        rx.el.h3(text["attention_title"]),
        rx.cond(
            ConsoleState.mail_attention.length() > 0,
            scrollable(
                rx.el.table(
                    rx.el.thead(
                        rx.el.tr(
                            rx.el.th("#", scope="col"),
                            rx.el.th(text["columns"]["created_at"], scope="col"),
                            rx.el.th(text["subject"], scope="col"),
                            rx.el.th(text["mail_state"], scope="col"),
                            rx.el.th(text["attempts"], scope="col"),
                            rx.el.th(text["last_failure_at"], scope="col"),
                            rx.el.th(text["last_error"], scope="col"),
                            rx.el.th(rx.el.span(text["retry"], class_name="sr-only"), scope="col"),
                        )
                    ),
                    rx.el.tbody(
                        rx.foreach(
                            ConsoleState.mail_attention,
                            lambda m: rx.el.tr(
                                rx.el.td(m["id"]),
                                rx.el.td(m["created_at"]),
                                rx.el.td(m["subject"]),
                                rx.el.td(_state(text, m["state"]), data_col="state"),
                                rx.el.td(m["attempts"]),
                                rx.el.td(m["last_failure_at"], data_col="last_failure_at"),
                                rx.el.td(m["last_error"], data_col="last_error"),
                                rx.el.td(
                                    rx.el.button(
                                        text["retry"],
                                        type="button",
                                        class_name="btn btn--ghost",
                                        on_click=ConsoleState.retry_one(m["id"]),
                                        data_testid="console-retry-one",
                                    )
                                ),
                                data_message_id=m["id"],
                                data_state=m["state"],
                            ),
                        )
                    ),
                    class_name="console__table",
                    data_testid="console-mail-attention",
                ),
                label=text["attention_title"],
            ),
            rx.el.p(text["no_attention"], class_name="console__notice", data_testid="console-no-mail-attention"),
        ),
        rx.el.div(
            action_button(text["retry_all"], ConsoleState.retry_all, "console-retry-all"),
            rx.cond(
                ConsoleState.requeued >= 0,
                rx.el.p(ConsoleState.requeued, " ", text["requeued"], role="status", data_testid="console-requeued"),
            ),
            class_name="console__actions",
        ),
    )


def section(text: dict) -> rx.Component:
    return rx.el.section(
        rx.el.h2(text["mail_title"]),
        counts(text),
        attention(text),
        class_name="console__section",
        id="mail",
    )
