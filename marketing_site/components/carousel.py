"""Python handle on the testimonial carousel of `assets/carousel.jsx` (client-only React)."""

from __future__ import annotations

import reflex as rx

from marketing_site.content.testimonials import TESTIMONIALS
from marketing_site.content.words import words

CAROUSEL_JS = "$/public/carousel.jsx"


class Carousel(rx.Component):
    """Shows one testimonial at a time; previous/next buttons unless `show_controls` is false."""

    library = CAROUSEL_JS
    tag = "TestimonialCarousel"
    items: rx.Var[list[dict[str, str]]]
    show_controls: rx.Var[bool]
    label: rx.Var[str]
    previous_label: rx.Var[str]
    next_label: rx.Var[str]


def testimonial_carousel(lang: str) -> rx.Component:
    """The testimonials in `lang`; the English pages hide the controls (SPEC §4)."""
    text = words(lang, "testimonials")
    items = [
        {**TESTIMONIALS[item["testimonial"]], "quote": item["quote"], "job": item["job"]} for item in text["items"]
    ]
    return Carousel.create(
        items=items,
        show_controls=lang != "en",
        label=text["label"],
        previous_label=text["previous"],
        next_label=text["next"],
        class_name="carousel",
    )
