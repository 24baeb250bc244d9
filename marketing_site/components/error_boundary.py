"""The app's error boundary: what replaces a page that fails while rendering in the browser.

Reflex's own fallback is an English developer screen styled with runtime CSS; this one is the
site's, in French and English (the failure may come before the page's language is known),
with plain classes (`site.css`) and two ways out: reload, or go home. Both are document
navigations: the failed React tree is not trusted to navigate.
"""

from __future__ import annotations

import reflex as rx
from reflex_components_core.base.error_boundary import ErrorBoundary
from reflex_components_core.react_router.dom import ReactRouterLink

from marketing_site import routes
from marketing_site.content.words import words

# The address shown, evaluated when the fallback renders.
_CURRENT_ADDRESS = rx.Var("window.location.pathname + window.location.search").to(str)


def _message(lang: str) -> rx.Component:
    text = words(lang, "error_boundary")
    return rx.el.div(
        rx.el.h1(text["title"], class_name="error-fallback__title"),
        rx.el.p(text["text"]),
        rx.el.p(
            ReactRouterLink.create(
                text["reload"], to=_CURRENT_ADDRESS, reload_document=True, class_name="btn btn--primary"
            ),
            ReactRouterLink.create(
                text["home"], to=routes.HOME.path(lang), reload_document=True, class_name="btn btn--secondary"
            ),
            class_name="button-row",
        ),
        lang=lang,
        class_name="error-fallback__message",
    )


def site_error_boundary(stateful: bool) -> rx.Component:
    """The boundary around every page; without state, errors are not sent to the backend."""
    fallback = rx.el.div(*[_message(lang) for lang in routes.LANGS], role="alert", class_name="error-fallback")
    return ErrorBoundary.create(fallback_render=fallback, **({} if stateful else {"on_error": rx.noop()}))
