"""The footer: tagline, social links, offers, resources, prizes, legal links, copyright."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.consent import consent_settings_button
from marketing_site.components.links import link
from marketing_site.components.sections import image
from marketing_site.content import layout as facts
from marketing_site.content.offers import OFFER_NAMES
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
    pricing = routes.PRICING.path(lang)
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
            _column(
                text["footer_offers"],
                *[link(name, f"{pricing}#{key}") for key, name in OFFER_NAMES.items()],
            ),
            _column(
                text["footer_resources"],
                link(text["footer_webinars"], routes.WEBINARS.path(lang)),
                link(text["footer_blog"], settings.blog_url),
            ),
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
                rx.el.li(link(text["footer_legal"], routes.LEGAL_NOTICE.path(lang))),
                rx.el.li(link(text["footer_privacy"], routes.PRIVACY.path(lang))),
                rx.el.li(link(text["footer_terms"], routes.SALES_TERMS.path(lang))),
                rx.el.li(link(text["footer_accessibility"], routes.ACCESSIBILITY.path(lang))),
                rx.el.li(consent_settings_button(lang)) if not settings.consent_script_url else rx.fragment(),
                class_name="footer__legal",
            ),
            class_name="footer__bottom container",
        ),
        class_name="site-footer",
    )
