"""The one layout wrapper: announcements, navbar, page body with its entrance transition, footer."""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.announcement import announcements
from marketing_site.components.auth_status import auth_alert, backend_navigation
from marketing_site.components.client import PageFrame
from marketing_site.components.consent import consent_manager
from marketing_site.components.footer import footer
from marketing_site.components.navbar import navbar
from marketing_site.components.site_notice import site_notice
from marketing_site.content.words import words
from marketing_site.reflex_internals.hydration import keep_static_regions

MAIN_ID = "contenu"


def site_layout(path: str, *children: rx.Component) -> rx.Component:
    """Wrap a page body; `path` picks the language and the navbar variant."""
    lang = routes.page_lang(path)
    text = words(lang, "layout")
    return PageFrame.create(
        # The skip link is the first Tab stop, banner shown or not (RGAA 12.7); the consent
        # banner follows it, before the navbar, shown fixed at the bottom of the window.
        rx.el.a(text["skip_to_content"], href=f"#{MAIN_ID}", class_name="skip-link"),
        consent_manager(lang),
        # Above the navbar, in the flow: the announcements of this page still on (it scrolls away).
        announcements(path, focus_after_close=MAIN_ID),
        navbar(path),
        auth_alert(),
        backend_navigation(),
        # What needs no JavaScript keeps its prerendered HTML through hydration.
        rx.el.main(*map(keep_static_regions, children), id=MAIN_ID, class_name="page-enter", tab_index=-1),
        keep_static_regions(footer(lang)),
        site_notice(lang),
        lang=lang,
        class_name="site",
    )
