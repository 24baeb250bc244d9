"""Python handles on the client-only React widgets of `assets/site_ui.jsx`."""

from __future__ import annotations

import reflex as rx

SITE_UI = "$/public/site_ui.jsx"


class PageFrame(rx.Component):
    """Sets `<html lang>`, scrolls to top (or the anchor) and plays the page entrance."""

    library = SITE_UI
    tag = "PageFrame"
    lang: rx.Var[str]


class SiteHeader(rx.Component):
    """Header with scrolled style and the collapsible mobile menu (first child: brand)."""

    library = SITE_UI
    tag = "SiteHeader"
    variant: rx.Var[str]
    menu_label: rx.Var[str]
    close_label: rx.Var[str]


class Disclosure(rx.Component):
    """A button that opens a panel of links (keyboard and screen-reader operable)."""

    library = SITE_UI
    tag = "Disclosure"
    label: rx.Var[str]


class BackendNavigation(rx.Component):
    """Navigates the document to `to` (a backend route) and clears `clear_cookie`, on change."""

    library = SITE_UI
    tag = "BackendNavigation"
    to: rx.Var[str]
    replace: rx.Var[bool]
    clear_cookie: rx.Var[str]


class NativeForm(rx.Component):
    """A `<form>` submitted natively by the browser (a document navigation to the backend)."""

    library = SITE_UI
    tag = "NativeForm"
    method: rx.Var[str]
    action: rx.Var[str]


class LoginLink(rx.Component):
    """The navbar Login: `href` starts the login; its `return_to` follows the visitor's location."""

    library = SITE_UI
    tag = "LoginLink"
    href: rx.Var[str]


class AudienceOptOut(rx.Component):
    """Whether this browser is counted by the audience measurement, and the button to switch."""

    library = SITE_UI
    tag = "AudienceOptOut"
    measured_text: rx.Var[str]
    refused_text: rx.Var[str]
    signal_text: rx.Var[str]
    opt_out_label: rx.Var[str]
    opt_in_label: rx.Var[str]


class NotFoundSuggestions(rx.Component):
    """The known pages nearest to the unknown path the browser shows (computed there)."""

    library = SITE_UI
    tag = "NotFoundSuggestions"
    # [{"path": …, "title": …}] of the not-found page's language; its path prefix ("" or "/en").
    pages: rx.Var[list]
    prefix: rx.Var[str]
    limit: rx.Var[int]
    heading: rx.Var[str]
