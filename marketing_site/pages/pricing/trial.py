"""The free-trial block (SPEC §9: 30 days, no card, 3 users…) and the unlimited-collaborators banner.

SPEC §9 keeps both readings of the trial: the block lists 3 users, the banner lower on the
page promises unlimited collaborators.
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.components.links import button_link


def trial(text: dict, lang: str) -> rx.Component:
    return sections.section(
        None,
        rx.el.div(
            rx.el.div(
                rx.el.h2(text["title"], class_name="section__title"),
                rx.el.p(text["intro"], class_name="section__intro"),
                rx.el.ul(*[rx.el.li(fact) for fact in text["facts"]], class_name="pricing-trial__facts"),
                rx.el.div(
                    button_link(text["trial_cta"], routes.FREE_TRIAL.path(lang)),
                    button_link(text["compare_cta"], routes.COMPARE.path(lang), variant="secondary"),
                    class_name="button-row",
                ),
                class_name="pricing-trial__text",
            ),
            rx.el.div(
                sections.image("/illustrations/pricing/trial.svg", "", 400, 320),
                class_name="pricing-trial__art",
            ),
            class_name="pricing-trial",
        ),
        tone="blue",
    )


def unlimited_banner(text: dict, lang: str) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.p(text["text"], class_name="unlimited-banner__text"),
            button_link(text["cta"], routes.FREE_TRIAL.path(lang), variant="secondary"),
            class_name="unlimited-banner container",
        ),
        class_name="unlimited-band",
    )
