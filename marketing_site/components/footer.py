"""The footer: tagline, social links, its link columns, prizes, legal links, copyright. The
columns and the legal links are data (content/navigation.py, words in navigation.yaml)."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.consent import consent_settings_button
from marketing_site.components.links import link
from marketing_site.components.navbar import nav_label
from marketing_site.components.sections import image
from marketing_site.content import layout as facts
from marketing_site.content import navigation
from marketing_site.content.words import words
from marketing_site.settings import get_settings


def _column(title: str, *items: rx.Component) -> rx.Component:
    return rx.el.div(
        rx.el.h2(title, class_name="footer__title"),
        rx.el.ul(*[rx.el.li(item) for item in items], class_name="footer__list"),
        class_name="footer__column",
    )


def footer(lang: str) -> rx.Component:
    text = words(lang, "layout")
    settings = get_settings()
    return rx.el.footer(
        rx.el.div(
            rx.el.div(
                image("/logo.svg", "", 40, 40),
                rx.el.p(text["footer_tagline"], class_name="footer__tagline"),
                rx.el.ul(
                    *[
                        rx.el.li(
                            rx.el.a(
                                image(f"/icons/{s['icon']}.svg", s["label"], 24, 24),
                                href=s["href"],
                                rel="noopener",
                            )
                        )
                        for s in facts.SOCIAL_LINKS
                    ],
                    class_name="footer__social",
                    aria_label=text["footer_follow"],
                ),
                class_name="footer__brand",
            ),
            *[
                _column(
                    words(lang, f"navigation.menus.{menu.key}"),
                    *[link(nav_label(item, lang), item.href(lang)) for item in menu.links],
                )
                for menu in navigation.FOOTER
            ],
            rx.el.div(
                rx.el.h2(text["footer_awards"], class_name="footer__title"),
                rx.el.ul(
                    *[rx.el.li(image(src, text["prizes"][key], 72, 72)) for key, src in facts.PRIZES.items()],
                    class_name="footer__prizes",
                ),
                class_name="footer__column",
            ),
            class_name="footer__grid container",
        ),
        rx.el.div(
            rx.el.p(text["copyright"]),
            rx.el.ul(
                *[rx.el.li(link(nav_label(item, lang), item.href(lang))) for item in navigation.LEGAL],
                rx.el.li(consent_settings_button(lang)) if not settings.consent_script_url else rx.fragment(),
                class_name="footer__legal",
            ),
            class_name="footer__bottom container",
        ),
        class_name="site-footer",
    )
