"""Demo booking: hero, consultant card beside the scheduling widget, agenda, contact."""

from __future__ import annotations

import reflex as rx

from marketing_site.content.words import words as site_words
from marketing_site.pages.demo.agenda import agenda_section
from marketing_site.pages.demo.booking import booking_section
from marketing_site.pages.demo.contact import contact_section
from marketing_site.pages.demo.hero import hero_section


def page(lang: str) -> rx.Component:
    words = site_words(lang, "demo")
    return rx.fragment(
        hero_section(words),
        booking_section(words, lang),
        agenda_section(words),
        contact_section(words),
    )
