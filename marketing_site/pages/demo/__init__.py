"""Demo booking: hero, consultant card beside the 30-minute scheduling widget, agenda, contact."""

from __future__ import annotations

import reflex as rx

from marketing_site.content import demo as content
from marketing_site.pages.demo.agenda import agenda_section
from marketing_site.pages.demo.booking import booking_section
from marketing_site.pages.demo.contact import contact_section
from marketing_site.pages.demo.hero import hero_section
from marketing_site.pages.typography import french_spacing

# Attribute values and mail subjects keep their plain spaces.
UNSPACED_KEYS = ("frame_title", "fallback_subject", "subject")


def page(lang: str) -> rx.Component:
    words = french_spacing(content.FR, keep=UNSPACED_KEYS) if lang == "fr" else content.EN
    return rx.fragment(
        hero_section(words),
        booking_section(words, lang),
        agenda_section(words),
        contact_section(words),
    )
