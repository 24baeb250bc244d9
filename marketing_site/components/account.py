"""The frame of the account pages (login, reset, trial, registration): form beside an aside."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.sections import image

Text = str | rx.Var


def account_layout(
    title: Text,
    lead: Text,
    form: rx.Component,
    aside: rx.Component,
    *,
    eyebrow: Text | None = None,
) -> rx.Component:
    """One section: heading, lead and form in a panel, the aside next to it (below on phones)."""
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.p(eyebrow, class_name="eyebrow") if eyebrow is not None else rx.fragment(),
                rx.el.h1(title, class_name="account__title"),
                rx.el.p(lead, class_name="account__lead"),
                form,
                class_name="account__panel",
            ),
            aside,
            class_name="account__grid container",
        ),
        class_name="account",
    )


def account_aside(illustration: str, *children: rx.Component) -> rx.Component:
    """The side column: a decorative illustration (`/illustrations/account/<name>.svg`) and content."""
    return rx.el.aside(
        image(f"/illustrations/account/{illustration}.svg", "", 360, 260, class_name="account__art"),
        *children,
        class_name="account__aside",
    )
