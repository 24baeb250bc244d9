"""Leads per week per document and the conversion funnel, drawn with Reflex's recharts.

Each chart has its figures in a table as well (readable without the drawing).
"""

from __future__ import annotations

import reflex as rx

from marketing_site import theme
from marketing_site.content.lead_forms import DOWNLOAD_FORMS
from marketing_site.pages.console.parts import scrollable
from marketing_site.services.console import SERIES
from marketing_site.state.console import ConsoleState

# One colour per series (the documents, then the demo bookings), from the site's palette.
SERIES_COLOURS = (
    theme.PRIMARY,
    theme.SECONDARY,
    theme.PALETTE["relationclient"],
    theme.PALETTE["premium"],
    theme.PALETTE["compliance"],
    theme.PALETTE["sales"],
)


def weekly_chart(text: dict) -> rx.Component:
    return rx.el.figure(
        rx.recharts.bar_chart(
            rx.recharts.cartesian_grid(stroke_dasharray="3 3"),
            rx.recharts.x_axis(data_key="week"),
            rx.recharts.y_axis(allow_decimals=False),
            rx.recharts.graphing_tooltip(),
            rx.recharts.legend(),
            *[
                rx.recharts.bar(
                    data_key=form,
                    name=text["documents"][form],
                    # Demo bookings stand beside the downloads, not on top of them.
                    stack_id="leads" if form in DOWNLOAD_FORMS else "bookings",
                    fill=colour,
                    is_animation_active=False,
                )
                for form, colour in zip(SERIES, SERIES_COLOURS, strict=True)
            ],
            data=ConsoleState.weeks,
            width="100%",
            height=320,
        ),
        rx.el.figcaption(text["chart_title"]),
        class_name="console__chart",
        data_testid="console-weekly-chart",
    )


def weekly_table(text: dict) -> rx.Component:
    return rx.el.details(
        rx.el.summary(text["chart_title"]),
        scrollable(
            rx.el.table(
                rx.el.thead(
                    rx.el.tr(
                        rx.el.th(text["week"], scope="col"),
                        *[rx.el.th(text["documents"][form], scope="col") for form in SERIES],
                    )
                ),
                rx.el.tbody(
                    rx.foreach(
                        ConsoleState.weeks,
                        lambda week: rx.el.tr(
                            rx.el.th(week["week"], scope="row"),
                            *[rx.el.td(week[form], data_col=form) for form in SERIES],
                        ),
                    )
                ),
                class_name="console__table",
                data_testid="console-weekly-table",
            ),
            label=text["chart_title"],
        ),
    )


def views_and_leads(text: dict) -> rx.Component:
    """Page views (left axis) and leads (right axis) per week: two scales, one drawing."""
    return rx.el.figure(
        rx.recharts.line_chart(
            rx.recharts.cartesian_grid(stroke_dasharray="3 3"),
            rx.recharts.x_axis(data_key="week"),
            rx.recharts.y_axis(y_axis_id="views", allow_decimals=False),
            rx.recharts.y_axis(y_axis_id="leads", orientation="right", allow_decimals=False),
            rx.recharts.graphing_tooltip(),
            rx.recharts.legend(),
            rx.recharts.line(
                data_key="views", y_axis_id="views", name=text["views"], stroke=theme.PRIMARY, is_animation_active=False
            ),
            rx.recharts.line(
                data_key="leads",
                y_axis_id="leads",
                name=text["leads"],
                stroke=theme.SECONDARY,
                is_animation_active=False,
            ),
            data=ConsoleState.weeks,
            width="100%",
            height=280,
        ),
        rx.el.figcaption(text["traffic_chart_title"]),
        rx.el.details(
            rx.el.summary(text["traffic_chart_title"]),
            scrollable(
                rx.el.table(
                    rx.el.thead(
                        rx.el.tr(
                            rx.el.th(text["week"], scope="col"),
                            rx.el.th(text["views"], scope="col"),
                            rx.el.th(text["leads"], scope="col"),
                        )
                    ),
                    rx.el.tbody(
                        rx.foreach(
                            ConsoleState.weeks,
                            lambda week: rx.el.tr(
                                rx.el.th(week["week"], scope="row"),
                                rx.el.td(week["views"], data_col="views"),
                                rx.el.td(week["leads"], data_col="leads"),
                            ),
                        )
                    ),
                    class_name="console__table",
                    data_testid="console-traffic-weeks",
                ),
                label=text["traffic_chart_title"],
            ),
        ),
        class_name="console__chart",
        data_testid="console-traffic-chart",
    )


def funnel(text: dict, lang: str) -> rx.Component:
    labelled = rx.match  # step code -> words of the page's language
    return rx.el.figure(
        rx.recharts.bar_chart(
            rx.recharts.x_axis(type_="number", allow_decimals=False),
            rx.recharts.y_axis(data_key=f"label_{lang}", type_="category", width=160),
            rx.recharts.graphing_tooltip(),
            rx.recharts.bar(data_key="value", name=text["count"], fill=theme.PRIMARY, is_animation_active=False),
            data=ConsoleState.funnel_steps,
            layout="vertical",
            width="100%",
            height=200,
        ),
        rx.el.figcaption(text["funnel_title"]),
        rx.el.table(
            rx.el.thead(rx.el.tr(rx.el.th(text["step"], scope="col"), rx.el.th(text["count"], scope="col"))),
            rx.el.tbody(
                rx.foreach(
                    ConsoleState.funnel_steps,
                    lambda step: rx.el.tr(
                        rx.el.th(labelled(step["step"], *text["steps"].items(), step["step"]), scope="row"),
                        rx.el.td(step["value"]),
                        data_step=step["step"],
                    ),
                )
            ),
            class_name="console__table",
            data_testid="console-funnel",
        ),
        rx.el.p(text["funnel_note"], class_name="console__note"),
        class_name="console__chart",
    )


def section(text: dict, lang: str) -> rx.Component:
    return rx.el.section(
        weekly_chart(text),
        weekly_table(text),
        views_and_leads(text),
        funnel(text, lang),
        class_name="console__section",
        id="charts",
    )
