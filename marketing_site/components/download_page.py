"""The shared builder of the document download pages (e-book, white paper).

A page is an animated banner, a hero with the cover, the document's summary, its readers,
and the `#formulaire` section whose empty `#download-form` container receives the lead form.
"""

from __future__ import annotations

import reflex as rx

from marketing_site.components.links import button_link, link
from marketing_site.components.sections import bullet_list, hero, image

FORM_SECTION_ID = "formulaire"
FORM_CONTAINER_ID = "download-form"


def animated_banner(banner: dict) -> rx.Component:
    """The strip above the hero, in its own language (`banner["lang"]`), animated 5 times."""
    return rx.el.div(
        rx.el.p(
            rx.el.span(banner["tag"], class_name="download-banner__tag"),
            rx.el.span(banner["text"], class_name="download-banner__text"),
            link(banner["link"], f"#{FORM_SECTION_ID}", class_name="download-banner__link"),
            class_name="download-banner__inner container",
        ),
        lang=banner["lang"],
        class_name="download-banner",
    )


def summary_section(text: dict) -> rx.Component:
    """What is inside the document: numbered chapters, each with a title and a sentence."""
    return rx.el.section(
        rx.el.div(
            rx.el.h2(text["summary_title"], class_name="section__title"),
            rx.el.p(text["summary_intro"], class_name="section__intro"),
            rx.el.ol(
                *[
                    rx.el.li(
                        rx.el.h3(item["title"], class_name="download-summary__title"),
                        rx.el.p(item["text"]),
                        class_name="download-summary__item",
                    )
                    for item in text["summary_items"]
                ],
                class_name="download-summary",
            ),
            class_name="container",
        ),
        class_name="section section--plain",
    )


def audience_section(text: dict) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h2(text["audience_title"], class_name="section__title"),
            bullet_list(text["audience_items"]),
            class_name="container",
        ),
        class_name="section section--tinted",
    )


def form_section(text: dict, form: rx.Component) -> rx.Component:
    """The anchor of every download button; the lead form goes into `#download-form`."""
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.h2(text["form_title"], class_name="section__title"),
                rx.el.p(text["form_intro"]),
                rx.el.ul(*[rx.el.li(fact) for fact in text["facts"]], class_name="download-facts"),
                class_name="download-form__text",
            ),
            rx.el.div(form, id=FORM_CONTAINER_ID, class_name="download-form__slot"),
            class_name="download-form container",
        ),
        id=FORM_SECTION_ID,
        class_name="section section--blue",
    )


def download_page(text: dict, banner: dict, cover: str, form: rx.Component) -> rx.Component:
    """`text`: the page's words in its language; `cover`: the cover SVG's public path."""
    return rx.fragment(
        animated_banner(banner),
        hero(
            text["title"],
            text["lead"],
            button_link(text["cta"], f"#{FORM_SECTION_ID}"),
            eyebrow=text["eyebrow"],
            illustration=image(cover, text["cover_alt"], 360, 480, loading="eager", class_name="download-cover"),
        ),
        summary_section(text),
        audience_section(text),
        form_section(text, form),
    )
