"""The scheduling widget: the site's own scheduler, or an external booking page.

The choice is made when the page is compiled, from `settings.booking_url`: empty (the
default) gives the built-in scheduler, a URL gives that page in a 630 px frame.
"""

from __future__ import annotations

import reflex as rx

from marketing_site.components.booking import booking_scheduler
from marketing_site.components.links import link
from marketing_site.components.sections import section
from marketing_site.pages.demo.consultant import consultant_card
from marketing_site.pages.demo.mail import mailto
from marketing_site.settings import get_settings

WIDGET_HEIGHT_PX = 630  # SPEC §9


def booking_widget(text: dict, url: str) -> rx.Component:
    return rx.el.div(
        rx.el.iframe(
            src=url,
            title=text["frame_title"],
            loading="lazy",
            class_name="booking-widget__frame",
            custom_attrs={"width": "100%", "height": str(WIDGET_HEIGHT_PX)},
        ),
        rx.el.p(
            link(text["open_in_tab"], url, target="_blank"),
            class_name="booking-widget__fallback-link",
        ),
        class_name="booking-widget",
    )


def booking_section(words: dict, lang: str) -> rx.Component:
    text = words["booking"]
    url = get_settings().booking_url
    return section(
        text["title"],
        rx.el.div(
            consultant_card(words),
            booking_widget(text, url) if url else booking_scheduler(lang, mailto(text["fallback_subject"])),
            class_name="booking-layout",
        ),
        id=text["id"],
        intro=text["intro"],
    )
