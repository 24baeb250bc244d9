"""The navigation bar: French, English or green-tinted variant, chosen by path. Its menus and
links are data (content/navigation.py, words in content/<lang>/navigation.yaml)."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.brand import BRAND_NAME
from marketing_site.components.auth_status import login_or_identity, logout_button
from marketing_site.components.client import Disclosure, SiteHeader
from marketing_site.components.links import button_link, link
from marketing_site.components.sections import image
from marketing_site.content import navigation
from marketing_site.content.words import words


def brand_link(lang: str) -> rx.Component:
    text = words(lang, "layout")
    return link(
        rx.fragment(
            image("/logo.svg", "", 36, 36, class_name="brand__mark", loading="eager"),
            rx.el.span(BRAND_NAME, class_name="brand__name"),
        ),
        href=routes.HOME.path(lang),
        class_name="brand",
        aria_label=text["brand_label"],
    )


def logout_slot(lang: str = "fr") -> rx.Component:
    """The logout icon, shown to an authenticated visitor."""
    text = words(lang, "layout")
    return logout_button(text["logout"])


def nav_label(item: navigation.Link, lang: str) -> str:
    """A link's words (`links.<key>` of navigation.yaml), or the name it carries."""
    return item.label or words(lang, f"navigation.links.{item.key}")


def _nav_entry(entry: navigation.Link | navigation.Menu, lang: str) -> rx.Component:
    if isinstance(entry, navigation.Menu):
        return Disclosure.create(
            rx.el.ul(
                *[rx.el.li(link(nav_label(item, lang), item.href(lang))) for item in entry.links],
                class_name="disclosure__list",
            ),
            label=words(lang, f"navigation.menus.{entry.key}"),
            class_name="nav-item disclosure",
        )
    return link(nav_label(entry, lang), entry.href(lang), class_name="nav-item nav-link")


def navbar(path: str) -> rx.Component:
    variant = routes.navbar_variant(path)
    lang = "fr" if variant == "thanks" else variant
    text = words(lang, "layout")
    counterpart = routes.counterpart_path(path)
    return SiteHeader.create(
        brand_link(lang),
        *[_nav_entry(entry, lang) for entry in navigation.NAVBAR],
        link(
            rx.fragment(
                rx.el.span(text["language_flag"], class_name="flag", aria_hidden="true"),
                # Said in the language it names ("English version" on a French page).
                rx.el.span(text["language_switch"], class_name="sr-only", lang=routes.page_lang(counterpart)),
            ),
            counterpart,
            class_name="nav-item nav-link nav-flag",
            custom_attrs={"hrefLang": routes.page_lang(counterpart)},
            data_testid="language-flag",
        ),
        # A plain anchor: the backend starts the provider's redirect and returns here.
        login_or_identity(text, path, lang, class_name="nav-item nav-link", data_testid="nav-login"),
        logout_slot(lang),
        button_link(text["demo"], routes.DEMO.path(lang), class_name="nav-item nav-cta"),
        variant=variant,
        menu_label=text["menu"],
        close_label=text["close_menu"],
    )
