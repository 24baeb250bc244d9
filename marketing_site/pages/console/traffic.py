"""Traffic: page views and leads per page, campaign, source or language over a chosen period.

The figures are the audience measurement's daily totals and the leads' attribution
(services.audience); the conversion is leads per 100 views.
"""

from __future__ import annotations

import reflex as rx

from marketing_site.pages.console.parts import scrollable
from marketing_site.services.audience import GROUPINGS
from marketing_site.state.console import ConsoleState


def _form(text: dict) -> rx.Component:
    return rx.el.form(
        rx.el.div(
            rx.el.div(
                rx.el.label(text["traffic_by"], html_for="console-traffic-by", class_name="field__label"),
                rx.el.select(
                    *[rx.el.option(text["groupings"][by], value=by) for by in GROUPINGS],
                    id="console-traffic-by",
                    name="by",
                    class_name="field__input",
                ),
                class_name="field",
            ),
            *[
                rx.el.div(
                    rx.el.label(text[f"date_{name}"], html_for=f"console-traffic-{name}", class_name="field__label"),
                    rx.el.input(
                        id=f"console-traffic-{name}",
                        name=name,
                        type="date",
                        class_name="field__input",
                        default_value=value,
                        key=value,
                    ),
                    class_name="field",
                )
                for name, value in (("from", ConsoleState.traffic_from), ("to", ConsoleState.traffic_to))
            ],
            class_name="console__filters",
        ),
        rx.el.div(
            rx.el.button(
                text["show"], type="submit", class_name="btn btn--primary", data_testid="console-traffic-apply"
            ),
            class_name="console__actions",
        ),
        rx.cond(
            ConsoleState.traffic_error != "",
            rx.el.p(
                rx.match(ConsoleState.traffic_error, *[(k, v) for k, v in text["errors"].items()], ""),
                class_name="console__error",
                role="alert",
            ),
        ),
        on_submit=ConsoleState.apply_traffic,
        reset_on_submit=False,
        data_testid="console-traffic-form",
    )


def _key(text: dict, row: rx.Var) -> rx.Component:
    # An empty key is the views and leads without one: direct visits, untagged links. The
    # "other" row sums the rows past the top ones and the sources a day kept no row for.
    return rx.cond(
        row["other"] == "1",
        rx.el.em(text["other"]),
        rx.cond(row["key"] == "", rx.el.em(text["none"]), row["key"]),
    )


def section(text: dict) -> rx.Component:
    return rx.el.section(
        rx.el.h2(text["traffic_title"]),
        rx.el.p(text["traffic_intro"], class_name="console__note"),
        _form(text),
        scrollable(
            rx.el.table(
                rx.el.thead(
                    rx.el.tr(
                        rx.el.th(rx.match(ConsoleState.traffic_by, *text["groupings"].items(), ""), scope="col"),
                        rx.el.th(text["views"], scope="col"),
                        rx.el.th(text["leads"], scope="col"),
                        rx.el.th(text["conversion"], scope="col"),
                    )
                ),
                rx.el.tbody(
                    rx.foreach(
                        ConsoleState.traffic,
                        lambda row: rx.el.tr(
                            rx.el.th(_key(text, row), scope="row"),
                            rx.el.td(row["views"], data_col="views"),
                            rx.el.td(row["leads"], data_col="leads"),
                            rx.el.td(row["conversion"], data_col="conversion"),
                            data_key=row["key"],
                        ),
                    )
                ),
                class_name="console__table",
                data_testid="console-traffic",
            ),
            label=text["traffic_title"],
        ),
        class_name="console__section",
        id="traffic",
    )
