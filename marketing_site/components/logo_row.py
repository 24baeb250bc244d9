"""A row of logos (partners, clients, certifications), with its own style (`logo-row` in
assets/styles/logo-row.css): every logo in the same box, kept whole, its organisation's name as
its text alternative, linked to its site when it has one. The logos are `content.logos.Logo`s."""

from __future__ import annotations

from collections.abc import Sequence

import reflex as rx

from marketing_site.components.links import link
from marketing_site.components.sections import image
from marketing_site.content.logos import Logo

# The box every logo is drawn in (CSS pixels); the stylesheet keeps the same numbers.
LOGO_WIDTH = 160
LOGO_HEIGHT = 64


def _logo(logo: Logo) -> rx.Component:
    picture = image(logo.image, logo.name, LOGO_WIDTH, LOGO_HEIGHT, class_name="logo-row__image")
    return link(picture, logo.url, class_name="logo-row__link") if logo.url else picture


def logo_row(logos: Sequence[Logo], label: str) -> rx.Component:
    """The logos in a list named `label` (said by screen readers before the names)."""
    return rx.el.ul(
        *[rx.el.li(_logo(logo), class_name="logo-row__item") for logo in logos],
        class_name="logo-row",
        aria_label=label,
    )
