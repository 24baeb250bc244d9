"""Section-level building blocks shared by every page: hero, section frame, cards, CTA banner.

Pages compose these with words from `marketing_site.content`; none of them holds copy.
"""

from __future__ import annotations

import reflex as rx

from marketing_site.components.links import button_link, link
from marketing_site.theme import accent_class


def hero(
    title: str,
    lead: str,
    *actions: rx.Component,
    eyebrow: str | None = None,
    illustration: rx.Component | None = None,
    tone: str = "blue",
) -> rx.Component:
    """The page opening: one `<h1>`, a lead paragraph, buttons, an optional illustration."""
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.p(eyebrow, class_name="eyebrow") if eyebrow is not None else rx.fragment(),
                rx.el.h1(title),
                rx.el.p(lead, class_name="lead"),
                rx.el.div(*actions, class_name="button-row") if actions else rx.fragment(),
                class_name="hero__text",
            ),
            rx.el.div(illustration, class_name="hero__art") if illustration is not None else rx.fragment(),
            class_name="hero__inner container",
        ),
        class_name=f"hero hero--{tone}",
    )


def section(
    title: str | None,
    *children: rx.Component,
    id: str | None = None,
    intro: str | None = None,
    tone: str = "plain",
    heading_level: int = 2,
) -> rx.Component:
    """A titled band of the page; `id` makes it an anchor, `tone` picks its background."""
    heading = {2: rx.el.h2, 3: rx.el.h3}[heading_level]
    return rx.el.section(
        rx.el.div(
            heading(title, class_name="section__title") if title is not None else rx.fragment(),
            rx.el.p(intro, class_name="section__intro") if intro is not None else rx.fragment(),
            *children,
            class_name="container",
        ),
        id=id,
        class_name=f"section section--{tone}",
    )


def image(src: str, alt: str, width: int, height: int, **props) -> rx.Component:
    """An image with explicit dimensions (no layout shift); `alt=""` marks it decorative."""
    props.setdefault("loading", "lazy")
    props.setdefault("decoding", "async")
    # Reflex turns `width`/`height` props of rx.el.img into CSS; the HTML attributes are
    # what lets the browser reserve the space before the image arrives.
    custom_attrs = {"width": width, "height": height, **props.pop("custom_attrs", {})}
    return rx.el.img(src=src, alt=alt, custom_attrs=custom_attrs, **props)


def card(
    title: str,
    text: str,
    *,
    icon: str | None = None,
    href: str | None = None,
    link_label: str | None = None,
    accent: str | None = None,
    heading_level: int = 3,
    extra: rx.Component | None = None,
) -> rx.Component:
    """A card: optional icon (decorative), heading, text, optional link at the bottom."""
    heading = {2: rx.el.h2, 3: rx.el.h3}[heading_level]
    return rx.el.article(
        image(icon, "", 48, 48, class_name="card__icon") if icon is not None else rx.fragment(),
        heading(title, class_name="card__title"),
        rx.el.p(text, class_name="card__text"),
        extra if extra is not None else rx.fragment(),
        link(link_label, href, class_name="card__link")
        if href is not None and link_label is not None
        else rx.fragment(),
        class_name=f"card card--accent {accent_class(accent)}" if accent else "card",
    )


def card_grid(*cards: rx.Component, columns: int = 3) -> rx.Component:
    """Cards side by side: `columns` on desktop, two on tablets, one on phones."""
    return rx.el.div(*cards, class_name=f"card-grid card-grid--{columns}")


def bullet_list(items: list[str]) -> rx.Component:
    return rx.el.ul(*[rx.el.li(item) for item in items], class_name="bullets")


def cta_banner(title: str, text: str, label: str, href: str) -> rx.Component:
    """The closing call to action (book a demo)."""
    return rx.el.section(
        rx.el.div(
            rx.el.div(rx.el.h2(title), rx.el.p(text), class_name="cta-banner__text"),
            button_link(label, href, variant="light"),
            class_name="cta-banner__inner container",
        ),
        class_name="cta-banner",
    )
