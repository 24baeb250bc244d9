"""Python handle on the testimonial carousel of `assets/carousel.jsx` (client-only React).

Everything the carousel does is decided here and passed as props (`CarouselProps`): the items
(`content/testimonials.py` and `content/<lang>/testimonials.yaml`), whether previous/next show,
how long a slide takes, the autoplay interval (`content.testimonials.AUTOPLAY_SECONDS`, off by
default) and every label. The JSX only renders them.

With autoplay on, the visitor's Pause (or Play) is a client variable (`PAUSED`, kept in this
browser's storage: reflex_internals/client_state.py): the next page with the carousel starts
paused, and before hydration the button already shows Play (assets/styles/home.css reads the
variable on <html>). The rotation itself only ever starts after hydration.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

import reflex as rx

from marketing_site.components.client_variables import CAROUSEL_PAUSED as PAUSED
from marketing_site.content import testimonials
from marketing_site.content.words import words

CAROUSEL_JS = "$/public/carousel.jsx"
# The slide's length; the stylesheet's animation (assets/styles/home.css) lasts as long.
SLIDE_MS = 500


class TestimonialProps(TypedDict):
    """One testimonial as the carousel shows it."""

    image: str
    name: str
    company: str
    logo: str
    quote: str
    job: str


class CarouselProps(TypedDict):
    """Every prop of `TestimonialCarousel` in `assets/carousel.jsx` (snake_case here)."""

    items: list[TestimonialProps]
    show_controls: bool
    slide_ms: int
    autoplay_ms: int  # 0: no autoplay, and no Pause button
    label: str
    previous_label: str
    next_label: str
    pause_label: str
    play_label: str
    class_name: str


class CarouselClientProps(TypedDict):
    """The props of `TestimonialCarousel` that are client variables, with autoplay on only."""

    remembered_pause: bool  # PAUSED.value
    on_paused_change: Callable[[bool], None]  # PAUSED.set


class Carousel(rx.Component):
    """Shows one testimonial at a time; previous/next buttons unless `show_controls` is false;
    a Pause/Play button when it rotates by itself."""

    library = CAROUSEL_JS
    tag = "TestimonialCarousel"
    items: rx.Var[list[dict[str, str]]]
    show_controls: rx.Var[bool]
    slide_ms: rx.Var[int]
    autoplay_ms: rx.Var[int]
    label: rx.Var[str]
    previous_label: rx.Var[str]
    next_label: rx.Var[str]
    pause_label: rx.Var[str]
    play_label: rx.Var[str]
    remembered_pause: rx.Var[bool]
    on_paused_change: rx.EventHandler[rx.event.passthrough_event_spec(bool)]


def carousel_props(lang: str) -> CarouselProps:
    """The testimonials in `lang`; the English pages hide previous/next (SPEC §4)."""
    text = words(lang, "testimonials")
    items = [
        TestimonialProps(**testimonials.TESTIMONIALS[item["testimonial"]], quote=item["quote"], job=item["job"])
        for item in text["items"]
    ]
    return CarouselProps(
        items=items,
        show_controls=lang != "en",
        slide_ms=SLIDE_MS,
        autoplay_ms=round((testimonials.AUTOPLAY_SECONDS or 0) * 1000),
        label=text["label"],
        previous_label=text["previous"],
        next_label=text["next"],
        pause_label=text["pause"],
        play_label=text["play"],
        class_name="carousel",
    )


def testimonial_carousel(lang: str) -> rx.Component:
    props = carousel_props(lang)
    if not props["autoplay_ms"]:
        return Carousel.create(**props)  # no Pause button: nothing to remember, no hook
    return Carousel.create(**props, remembered_pause=PAUSED.value, on_paused_change=PAUSED.set)
