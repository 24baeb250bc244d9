"""The announcement strip at the top of the pages (content/announcements.py; words in
content/<lang>/announcements.yaml).

Each announcement is a named region with its text, its link and, when it is dismissible, a named
close button. Two client variables decide whether it shows (reflex_internals/client_state.py):
whether the clock is inside its dates (the server's when the page is built, the visitor's when it
is read: the same cut-off instant) and whether this browser closed it. The page's head applies
both before the first paint, so an announcement closed earlier, or over since the page was built,
never flashes; each page the visitor opens reads the clock again. Closing it moves the focus to the page's content (the button is gone), without
scrolling. With scripts blocked, the text and the link read as built; the close button, which
would need a script, is not shown.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import reflex as rx

from marketing_site import routes
from marketing_site.components import client_variables
from marketing_site.components.links import link
from marketing_site.content import announcements as content
from marketing_site.content.words import words
from marketing_site.reflex_internals.client_state import hidden_when, script_only

# The announcements' client variables, by key (declared with the site's others).
ON_AIR = client_variables.ANNOUNCEMENT_ON
CLOSED = client_variables.ANNOUNCEMENT_CLOSED


def focus_by_id(element_id: str) -> rx.event.EventSpec:
    """Move the focus to the element `element_id` without scrolling (a compiled event: no socket)."""
    return rx.call_function(
        rx.Var(f"() => document.getElementById({json.dumps(element_id)})?.focus({{ preventScroll: true }})")
    )


def _strip(item: content.Announcement, lang: str, label: str, focus_after_close: str) -> rx.Component:
    text = words(lang, "announcements")
    own = words(lang, f"announcements.items.{item.key}")
    text_id = f"announcement-{item.key.replace('_', '-')}"
    conditions = [(ON_AIR[item.key], False)]
    close = rx.fragment()
    if item.dismissible:
        conditions.append((CLOSED[item.key], True))
        close = rx.el.button(
            rx.el.span(class_name="announcement__cross", aria_hidden="true"),
            type="button",
            class_name="announcement__close",
            aria_label=text["close"],
            aria_describedby=text_id,
            on_click=[CLOSED[item.key].set_value(True), focus_by_id(focus_after_close)],
            **script_only(),
        )
    return rx.el.section(
        rx.el.div(
            rx.el.p(
                own["text"],
                *([" ", link(own["link"], item.href(lang), class_name="announcement__link")] if item.link else []),
                id=text_id,
                class_name="announcement__text",
            ),
            close,
            class_name="announcement__inner container",
        ),
        class_name="announcement",
        aria_label=label,
        data_announcement=item.key,
        # Read on every mount (a client-side page change too): a tab left open past the cut-off
        # hides it at the next page, by the visitor's clock again.
        data_on_air=ON_AIR[item.key].value,
        **hidden_when(*conditions),
    )


def announcements(path: str, focus_after_close: str) -> rx.Component:
    """The announcements of the page at `path` that are not over (built now); closing one moves
    the focus to the element `focus_after_close`."""
    page = routes.page_for_path(path)
    lang = routes.page_lang(path)
    items = [a for a in content.carried(page.key if page else None, datetime.now(UTC)) if a.key in ON_AIR]
    label = words(lang, "announcements.label")
    return rx.fragment(
        *[
            # Two regions on a page cannot share one name.
            _strip(item, lang, label if len(items) == 1 else f"{label} {n}/{len(items)}", focus_after_close)
            for n, item in enumerate(items, 1)
        ]
    )
