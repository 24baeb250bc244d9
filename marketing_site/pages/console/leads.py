"""Leads: the filter form, the sortable table, paging and the CSV export of the filter."""

from __future__ import annotations

import reflex as rx

from marketing_site.pages.console.parts import download_link, scrollable
from marketing_site.routes import LANGS
from marketing_site.services.console import FLAGGED_CHOICES, MAIL_STATUSES, SERIES, SORTS
from marketing_site.services.leads import FIELD_RULES, field_label, option_label
from marketing_site.state.console import ConsoleState

# The form fields with a column of their own in console.yaml; any other field a form asks
# (services.leads.FormFields) gets one after them, headed by its form label.
NAMED_FIELDS = ("name", "firstname", "email", "company", "phone")
OTHER_FIELDS = tuple(name for name in FIELD_RULES if name not in NAMED_FIELDS)
COLUMNS = (
    "created_at",
    "form",
    "lang",
    "name",
    "email",
    "company",
    "phone",
    *OTHER_FIELDS,
    "mail_status",
    "flagged",
    "landing_page",
    "source",
    "campaign",
)


def _select(label: str, name: str, options: list[tuple[str, str]], any_label: str) -> rx.Component:
    field_id = f"console-{name}"
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name="field__label"),
        rx.el.select(
            rx.el.option(any_label, value=""),
            *[rx.el.option(text, value=value) for value, text in options],
            id=field_id,
            name=name,
            class_name="field__input",
        ),
        class_name="field",
    )


def _input(label: str, name: str, type_: str = "text") -> rx.Component:
    field_id = f"console-{name}"
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name="field__label"),
        rx.el.input(id=field_id, name=name, type=type_, class_name="field__input"),
        class_name="field",
    )


def filters(text: dict) -> rx.Component:
    fields = [
        _input(text["search"], "search", "search"),
        _select(text["document"], "form", [(k, text["documents"][k]) for k in SERIES], text["any"]),
        _select(text["lang"], "lang", [(lang, lang.upper()) for lang in LANGS], text["any"]),
        _input(text["date_from"], "date_from", "date"),
        _input(text["date_to"], "date_to", "date"),
        _select(text["mail_status"], "mail_status", [(s, text["statuses"][s]) for s in MAIL_STATUSES], text["any"]),
        _select(text["flagged"], "flagged", [(c, text[c]) for c in FLAGGED_CHOICES], text["any"]),
        _input(text["campaign"], "campaign"),
        _input(text["source"], "source"),
    ]
    return rx.el.form(
        rx.el.div(*fields, class_name="console__filters"),
        rx.el.div(
            rx.el.button(text["apply"], type="submit", class_name="btn btn--primary", data_testid="console-apply"),
            download_link(text["export"], ConsoleState.export_href, "console-export"),
            class_name="console__actions",
        ),
        # The alert region is in the page before its message (one that appears with its message
        # already in it may not be said).
        rx.el.div(
            rx.cond(
                ConsoleState.filter_error != "",
                rx.el.p(
                    rx.match(ConsoleState.filter_error, *[(k, v) for k, v in text["errors"].items()], ""),
                    class_name="console__error",
                    data_testid="console-filter-error",
                ),
            ),
            role="alert",
        ),
        on_submit=ConsoleState.apply_filters,
        reset_on_submit=False,
        data_testid="console-filters",
    )


def _header(text: dict, column: str, lang: str) -> rx.Component:
    label = text["columns"][column] if column in text["columns"] else field_label(column, lang)
    if column not in SORTS:
        return rx.el.th(label, scope="col")
    # The arrow is for the eye: the header's aria-sort says the order.
    arrow = rx.el.span(
        rx.cond(ConsoleState.sort == column, rx.cond(ConsoleState.descending, " ↓", " ↑"), ""), aria_hidden="true"
    )
    return rx.el.th(
        rx.el.button(
            label,
            arrow,
            type="button",
            class_name="console__sort",
            on_click=ConsoleState.sort_by(column),
            data_testid=f"console-sort-{column}",
            title=f"{text['sort_hint']} {label}",
        ),
        scope="col",
        aria_sort=rx.cond(
            ConsoleState.sort == column, rx.cond(ConsoleState.descending, "descending", "ascending"), "none"
        ),
    )


def _cell(text: dict, row: rx.Var, column: str, lang: str) -> rx.Component:
    if column in OTHER_FIELDS and FIELD_RULES[column].options:  # a select: its option's words
        options = FIELD_RULES[column].options
        value = rx.match(row[column], *[(o, option_label(column, o, lang)) for o in options], row[column])
    elif column == "mail_status":
        value = rx.match(row[column], *[(s, text["statuses"][s]) for s in MAIL_STATUSES], row[column])
    elif column == "form":
        value = rx.match(row[column], *[(k, text["documents"][k]) for k in SERIES], row[column])
    elif column == "name":
        value = rx.fragment(row["firstname"], " ", row["name"])
    else:
        value = row[column]
    return rx.el.td(value, data_col=column)


def table(text: dict, lang: str) -> rx.Component:
    columns = COLUMNS
    return rx.fragment(
        scrollable(
            rx.el.table(
                rx.el.thead(rx.el.tr(*[_header(text, c, lang) for c in columns])),
                rx.el.tbody(
                    rx.foreach(
                        ConsoleState.rows,
                        lambda row: rx.el.tr(*[_cell(text, row, c, lang) for c in columns], data_lead_id=row["id"]),
                    )
                ),
                class_name="console__table",
                data_testid="console-leads",
            ),
            label=text["leads_title"],
        ),
        rx.cond(ConsoleState.total == 0, rx.el.p(text["no_leads"], class_name="console__notice")),
    )


def pager(text: dict) -> rx.Component:
    return rx.el.nav(
        rx.el.span(ConsoleState.total, " ", text["total"], data_testid="console-total"),
        rx.el.button(
            text["previous"],
            type="button",
            class_name="btn btn--ghost",
            disabled=ConsoleState.page <= 1,
            on_click=ConsoleState.go_to_page(ConsoleState.page - 1),
            data_testid="console-previous",
        ),
        rx.el.span(
            text["page"],
            " ",
            ConsoleState.page,
            " ",
            text["of"],
            " ",
            ConsoleState.pages,
            data_testid="console-page",
        ),
        rx.el.button(
            text["next"],
            type="button",
            class_name="btn btn--ghost",
            disabled=ConsoleState.page >= ConsoleState.pages,
            on_click=ConsoleState.go_to_page(ConsoleState.page + 1),
            data_testid="console-next",
        ),
        class_name="console__pager",
        aria_label=text["page"],
    )


def section(text: dict, lang: str) -> rx.Component:
    return rx.el.section(
        rx.el.h2(text["leads_title"]),
        filters(text),
        pager(text),
        table(text, lang),
        class_name="console__section",
        id="leads",
    )
