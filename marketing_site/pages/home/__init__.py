"""Home page (French `/`, English `/en/`): hero, trust strip, offer or feature cards,
testimonial, blog, demo banner. The footer comes from the layout."""

from __future__ import annotations

import reflex as rx

from marketing_site.content.words import words
from marketing_site.pages.home.blog import blog
from marketing_site.pages.home.demo_banner import demo_banner
from marketing_site.pages.home.hero import hero
from marketing_site.pages.home.solutions import solutions
from marketing_site.pages.home.testimonial import testimonial
from marketing_site.pages.home.trust import trust


def page(lang: str) -> rx.Component:
    text = words(lang, "home")
    return rx.fragment(
        hero(text["hero"], lang),
        trust(text["trust"], lang),
        solutions(text["cards"], lang),
        testimonial(text["testimonial"], lang),
        blog(text["blog"]),
        demo_banner(text["cta"], lang),
    )
