"""Form building blocks: a labelled input and a form that never submits natively.

Generic on purpose (account pages, lead forms): the words come from the caller.
"""

from __future__ import annotations

import reflex as rx

Text = str | rx.Var


def labelled_input(
    label: Text,
    name: str | None,
    *,
    type: str = "text",
    required: bool = False,
    autocomplete: str | None = None,
    id: str | None = None,
    **props,
) -> rx.Component:
    """A `<label>` bound to its `<input>` (`id` defaults to `field-<name>`).

    `name=None` leaves the input out of any form submission (the login password).
    """
    field_id = id or f"field-{name}"
    if autocomplete is not None:
        props["auto_complete"] = autocomplete
    return rx.el.div(
        rx.el.label(
            label,
            rx.el.span(" *", class_name="field__required", aria_hidden="true") if required else rx.fragment(),
            html_for=field_id,
            class_name="field__label",
        ),
        rx.el.input(
            id=field_id,
            **({"name": name} if name else {}),
            type=type,
            required=required,
            class_name="field__input",
            **props,
        ),
        class_name="field",
    )


def unwired_form(*children: rx.Component, **props) -> rx.Component:
    """A form whose submission does nothing: no request, no page change.

    Hydrated, the submit handler cancels the event (`rx.prevent_default`). Before
    hydration, `method="dialog"` already makes a native submission a no-op outside a
    `<dialog>`, so no field (a password included) can end up in a URL or a POST body.
    """
    props.setdefault("on_submit", rx.prevent_default)
    props.setdefault("method", "dialog")
    class_name = f"fields {props.pop('class_name', '')}".strip()
    return rx.el.form(*children, class_name=class_name, **props)


def submit_button(label: Text, **props) -> rx.Component:
    """The form's primary button (`type="submit"`)."""
    class_name = f"btn btn--primary {props.pop('class_name', '')}".strip()
    return rx.el.button(label, type="submit", class_name=class_name, **props)
