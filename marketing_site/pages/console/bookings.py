"""Bookings: the demos to come and the past ones, by the team's day, each with the person, the
slot in the team's and the visitor's zone, the source and campaign and the status; the team
cancels one on the person's behalf (the row's button, clicked twice); the CSV export."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.content.lead_forms import DEMO_FORM
from marketing_site.pages.console.parts import action_button, download_link, scrollable
from marketing_site.services.console_bookings import PAST_DAYS, SHOWN_MAX, STATUSES
from marketing_site.services.leads import FIELD_RULES, field_label, fields_of, option_label
from marketing_site.state.console import ConsoleState

# The person's fields shown together in one cell; any other field the demo form asks
# (services.leads.FormFields) gets a column of its own, headed by its form label.
PERSON_FIELDS = ("name", "firstname", "email", "company", "phone")
OTHER_FIELDS = tuple(name for name in fields_of(DEMO_FORM) if name not in PERSON_FIELDS)
COLUMNS = ("team_time", "visitor_time", "person", *OTHER_FIELDS, "lang", "source", "campaign", "status", "action")


def _header(text: dict, column: str, lang: str) -> rx.Component:
    label = text["bookings"]["columns"][column] if column in text["bookings"]["columns"] else field_label(column, lang)
    return rx.el.th(label, scope="col")


def _person(row: rx.Var) -> rx.Component:
    return rx.fragment(
        rx.el.strong(row["firstname"], " ", row["name"]),
        rx.el.br(),
        row["email"],
        rx.el.br(),
        row["company"],
        " · ",
        row["phone"],
    )


def _action(text: dict, row: rx.Var) -> rx.Component:
    """Cancel on the person's behalf: the same button asks, then confirms; Keep beside it."""
    words = text["bookings"]
    asked = ConsoleState.cancel_asked == row["id"]
    return rx.cond(
        row["cancellable"] == "1",
        rx.el.div(
            # One button for both steps: the focus stays on it when it turns into the confirmation.
            rx.el.button(
                rx.cond(asked, words["confirm_cancel"], words["cancel"]),
                type="button",
                class_name=rx.cond(asked, "btn btn--primary", "btn btn--ghost"),
                on_click=ConsoleState.cancel_booking(row["id"]),
                data_testid="console-booking-cancel",
            ),
            rx.cond(asked, action_button(words["keep"], ConsoleState.keep_booking, "console-booking-keep", "ghost")),
            class_name="console__actions",
        ),
    )


def _cell(text: dict, row: rx.Var, column: str, lang: str) -> rx.Component:
    if column == "visitor_time":
        value = rx.fragment(
            row["visitor_time"],
            " (",
            row["visitor_zone"],
            ")",
            rx.cond(row[f"visitor_day_{lang}"] != "", rx.fragment(rx.el.br(), row[f"visitor_day_{lang}"])),
        )
    elif column == "person":
        value = _person(row)
    elif column == "status":
        statuses = text["bookings"]["statuses"]
        value = rx.match(row["status"], *[(s, statuses[s]) for s in STATUSES], row["status"])
    elif column == "action":
        value = _action(text, row)
    elif column in OTHER_FIELDS and FIELD_RULES[column].options:  # a select: its option's words
        options = FIELD_RULES[column].options
        value = rx.match(row[column], *[(o, option_label(column, o, lang)) for o in options], row[column])
    else:
        value = row[column]
    return rx.el.td(value, data_col=column)


def _rows(text: dict, rows: rx.Var, lang: str) -> rx.Component:
    """A day's heading row before its first booking, then each booking."""
    return rx.el.tbody(
        rx.foreach(
            rows,
            lambda row: rx.fragment(
                rx.cond(
                    row["first_of_day"] == "1",
                    rx.el.tr(
                        rx.el.th(row[f"day_{lang}"], col_span=len(COLUMNS), scope="colgroup"),
                        class_name="console__day",
                        data_day=row["day"],
                    ),
                ),
                rx.el.tr(
                    *[_cell(text, row, column, lang) for column in COLUMNS],
                    data_booking_id=row["id"],
                    data_status=row["status"],
                ),
            ),
        )
    )


def _table(text: dict, title: str, rows: rx.Var, empty: str, testid: str, lang: str) -> rx.Component:
    return rx.el.div(
        rx.el.h3(title),
        rx.cond(
            rows.length() > 0,
            scrollable(
                rx.el.table(
                    rx.el.thead(rx.el.tr(*[_header(text, column, lang) for column in COLUMNS])),
                    _rows(text, rows, lang),
                    class_name="console__table",
                    data_testid=testid,
                ),
                label=title,
            ),
            rx.el.p(empty, class_name="console__notice"),
        ),
    )


def section(text: dict, lang: str) -> rx.Component:
    words = text["bookings"]
    before_zone, _, after_zone = words["team_zone"].partition("{zone}")
    return rx.el.section(
        rx.el.h2(words["title"]),
        rx.el.p(words["intro"].format(days=PAST_DAYS)),
        rx.el.p(before_zone, rx.el.strong(ConsoleState.team_zone, data_testid="console-team-zone"), after_zone),
        rx.el.div(
            action_button(words["refresh"], ConsoleState.refresh_bookings, "console-bookings-refresh"),
            download_link(words["export"], routes.CONSOLE_BOOKINGS_CSV, "console-bookings-export"),
            class_name="console__actions",
        ),
        rx.cond(
            ConsoleState.bookings_cut,
            rx.el.p(words["cut"].format(shown=SHOWN_MAX), class_name="console__notice"),
        ),
        _table(
            text,
            words["upcoming"],
            ConsoleState.upcoming_bookings,
            words["none_upcoming"],
            "console-bookings-upcoming",
            lang,
        ),
        _table(
            text,
            words["past"].format(days=PAST_DAYS),
            ConsoleState.past_bookings,
            words["none_past"].format(days=PAST_DAYS),
            "console-bookings-past",
            lang,
        ),
        class_name="console__section",
        id="bookings",
    )
