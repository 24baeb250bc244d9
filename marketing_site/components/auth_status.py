"""What the layout shows of the authentication state: the logout button and login errors."""

from __future__ import annotations

from urllib.parse import quote

import reflex as rx
from reflex_components_core.react_router.dom import ReactRouterLink

from marketing_site import routes
from marketing_site.components.client import BackendNavigation, LoginLink, NativeForm
from marketing_site.i18n import message
from marketing_site.state.auth import AuthState, login_url


def backend_link(label: rx.Component | str, href: str, **props) -> rx.Component:
    """A link to a backend route (/auth/...): a document navigation, not client-side routing."""
    return ReactRouterLink.create(label, to=href, reload_document=True, **props)


def login_href(path: str) -> str:
    """The navbar Login: start the provider's redirect, coming back to this page."""
    return login_url(quote(path, safe="/"))


def login_link(label: str, path: str, **props) -> rx.Component:
    """The navbar Login, back to the exact page and query the visitor is on (see LoginLink)."""
    return LoginLink.create(label, href=login_href(path), **props)


def login_or_identity(text: dict, path: str, lang: str, **props) -> rx.Component:
    """Anonymous: the Login link. Logged in: who they are (name, else email) in its place, a link
    to the login page, which takes a user with a role to their application (AuthState.redirect_by_role)."""
    return rx.cond(
        AuthState.signedIn,
        ReactRouterLink.create(
            rx.el.span(text["signed_in_as"], " ", class_name="sr-only"),
            rx.el.span(AuthState.displayName, class_name="nav-identity__name"),
            to=routes.LOGIN.path(lang),
            title=AuthState.displayName,
            class_name="nav-item nav-link nav-identity",
            data_testid="nav-identity",
        ),
        login_link(text["login"], path, **props),
    )


def logout_button(label: str) -> rx.Component:
    """A POST to /auth/logout (a cross-site page cannot log the visitor out: SameSite=Lax)."""
    return rx.cond(
        AuthState.signedIn,
        NativeForm.create(
            rx.el.button(
                rx.el.img(
                    src="/icons/logout.svg", alt="", aria_hidden="true", custom_attrs={"width": 20, "height": 20}
                ),
                type="submit",
                class_name="nav-link nav-logout",
                aria_label=label,
                title=label,
                data_testid="logout",
            ),
            method="post",
            action="/auth/logout",
            custom_attrs={"id": "logout-form"},
            class_name="nav-item",
        ),
        rx.fragment(),
    )


def auth_alert() -> rx.Component:
    """SPEC §8 messages of a failed login or token fetch, with a way to log in again."""
    return rx.cond(
        AuthState.error != "",
        rx.el.div(
            rx.el.p(
                rx.el.strong(AuthState.error, data_testid="auth-error"),
                " ",
                rx.cond(AuthState.errorCode == "invalid_state", message("auth.invalid_state_help"), ""),
                " ",
                backend_link(message("auth.login_again"), "/auth/login", class_name="auth-alert__link"),
            ),
            role="alert",
            class_name="auth-alert container",
        ),
        rx.fragment(),
    )


def backend_navigation() -> rx.Component:
    """Carries out the document navigations the auth state asks for."""
    return BackendNavigation.create(
        to=AuthState.navigateTo, replace=AuthState.navigateReplace, clear_cookie=AuthState.clearCookie
    )
