"""The on-demand webinars: one card each, linking to the external webinar platform."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.links import link
from marketing_site.components.sections import card_grid, image, section
from marketing_site.content.webinars import REPLAYS, REPLAYS_ANCHOR
from marketing_site.settings import get_settings


def _meta(label: str, value: str) -> rx.Component:
    return rx.el.div(rx.el.dt(label), rx.el.dd(value), class_name="webinar-card__meta-row")


def webinar_card(webinar: dict, labels: dict) -> rx.Component:
    """A card: illustration, availability, title, speaker, duration, language, abstract, link."""
    replay = REPLAYS[webinar["replay"]]
    href = get_settings().webinar_url.rstrip("/") + replay["path"]
    return rx.el.article(
        image(replay["art"], "", 480, 240, class_name="webinar-card__art"),
        rx.el.p(webinar["date"], class_name="webinar-card__date"),
        rx.el.h3(webinar["title"], class_name="card__title"),
        rx.el.dl(
            _meta(labels["speaker_label"], webinar["speaker"]),
            _meta(labels["duration_label"], webinar["duration"]),
            _meta(labels["language_label"], webinar["language"]),
            class_name="webinar-card__meta",
        ),
        rx.el.p(webinar["abstract"], class_name="card__text"),
        link(
            rx.fragment(labels["watch"], rx.el.span(f" – {webinar['title']}", class_name="sr-only")),
            href,
            class_name="btn btn--secondary webinar-card__link",
        ),
        class_name="card webinar-card",
    )


def replays_section(words: dict) -> rx.Component:
    labels = words["replays"]
    return section(
        labels["title"],
        card_grid(*[webinar_card(w, labels) for w in words["webinars"]], columns=2),
        id=REPLAYS_ANCHOR,
        intro=labels["intro"],
        tone="tinted",
    )
