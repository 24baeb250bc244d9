"""Authentication state (SPEC §3/§4): isAuthenticated, isLoading, user, error, roles.

State is sent to the browser, so it never holds a token: the session lives in the
database (`services.sessions`) and is found through the HttpOnly cookie of the
websocket's handshake (`self.router.headers.cookie`, server-side only).

`initialise` runs on every page load (first of each page's `on_load`):
- a one-shot error cookie from the callback becomes `error`;
- no session cookie and no marker: anonymous at once, no provider call;
- a live session: authenticated (its access token refreshed if expired, one refresh at a
  time, 3 attempts on network failure, then 'Get access token failed' and still
  authenticated, as /auth/session says: the session lives on);
- the marker but no usable session (it ended, or the provider refused its refresh token):
  anonymous at once and the marker cleared, on the page asked for. With OIDC_SILENT_LOGIN, an
  interactive login's marker buys instead the `prompt=none` round trip (`/auth/silent`), at
  most once per login: never a loop.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import quote, urlencode

import reflex as rx

from marketing_site import routes
from marketing_site.i18n import lookup
from marketing_site.services import oidc, sessions
from marketing_site.services.sessions import roles_of
from marketing_site.settings import Settings, get_settings

logger = logging.getLogger(__name__)

ERROR_CODES = ("login_failed", "token_failed", "invalid_state", "no_query")
# Claims the page may show; the rest of the ID token (nonce, at_hash...) stays on the server.
PROFILE_CLAIMS = (
    "sub",
    "name",
    "given_name",
    "family_name",
    "nickname",
    "email",
    "email_verified",
    "picture",
    "locale",
    "updated_at",
)
ADVISOR, INVESTOR = "ADVISOR", "INVESTOR"


def error_message(code: str) -> str:
    """The spec's text for an error code (identical in both catalogues)."""
    return lookup("en", f"auth.error.{code}")


def public_user(claims: dict[str, Any], roles_claim: str) -> dict[str, Any]:
    user = {name: claims[name] for name in PROFILE_CLAIMS if name in claims}
    roles = roles_of(claims, roles_claim)
    if roles_claim in claims or roles:
        user[roles_claim] = roles
    return user


def role_destination(roles: list[str], settings: Settings) -> str | None:
    """The application host for the user's role (SPEC §4 role redirect).

    The original tested `roles.indexOf(role) > 0`, so a role in first position never
    matched; here any position counts. ADVISOR wins when both are present.
    """
    if ADVISOR in roles and settings.advisor_app_url:
        return settings.advisor_app_url
    if INVESTOR in roles and settings.investor_app_url:
        return settings.investor_app_url
    return None


def login_url(return_to: str, *, trial: bool = False, login_hint: str = "") -> str:
    """The backend route that starts a login and comes back to `return_to`."""
    params = {"return_to": return_to}
    if trial:
        params["mode"] = "trial"
    if login_hint:
        params["login_hint"] = login_hint
    return "/auth/login?" + urlencode(params)


def log_token_failure(error: oidc.TokenFailed) -> None:
    """The WARNING of a page load whose refresh failed; the issuers it may quote (a discovery
    that names another issuer) are shown whole, not cut to their host by the log's redactor."""
    logger.warning("silent token fetch failed: %s", error, extra=oidc.relying_party().log_values())


class AuthState(rx.State):
    """What the page knows about the visitor; no token ever."""

    isAuthenticated: bool = False
    isLoading: bool = True
    user: dict[str, Any] = {}
    error: str = ""
    errorCode: str = ""
    roles: list[str] = []
    # Read by the layout's BackendNavigation: a document navigation to a backend route
    # (`rx.redirect` stays client-side, and the CSP forbids scripts sent by the server).
    navigateTo: str = ""
    navigateReplace: bool = False
    clearCookie: str = ""
    # The connection whose start-up `initialise` last ran on. A reload opens a new connection and
    # restores this state (a Redis state outlives the page): its `isAuthenticated` is then an old
    # answer until `initialise` runs again, so the page shows it only for the connection that
    # checked it (a client-side navigation keeps the connection: no flicker).
    checkedConnection: str = ""

    @rx.var(cache=False)
    def signedIn(self) -> bool:
        """What the page shows: authenticated, as checked on this connection."""
        return self.isAuthenticated and self.checkedConnection == self.router.session.session_id

    @rx.var
    def displayName(self) -> str:
        """Who is logged in, for the navbar: the name, else given and family names, else the email."""
        user = self.user
        full = " ".join(str(user[k]).strip() for k in ("given_name", "family_name") if user.get(k))
        return str(user.get("name") or "").strip() or full or str(user.get("email") or "")

    @rx.event
    def go_to_backend(self, url: str, replace: bool = False):
        """Send the page to a backend route; cleared at once so a restored state never replays it."""
        self.navigateTo, self.navigateReplace = url, replace
        yield
        self.navigateTo = ""

    def _current_path(self) -> str:
        url = self.router.url
        path = quote(url.path or "/", safe="/%")
        return path + (f"?{url.query}" if url.query else "")

    def _set_anonymous(self) -> None:
        self.isAuthenticated = False
        self.user = {}
        self.roles = []

    def _set_error(self, code: str) -> None:
        self.errorCode = code
        self.error = error_message(code)

    @rx.event
    async def initialise(self):
        """SPEC §4 start-up: callback errors, session, or the silent check."""
        settings = get_settings()
        cookies = sessions.read_cookies(self.router.headers.cookie)
        events: list = []
        self.checkedConnection = self.router.session.session_id
        self.error, self.errorCode = "", ""
        self.clearCookie = ""
        if sessions.ERROR_COOKIE in cookies:
            code = cookies[sessions.ERROR_COOKIE]
            if code in ERROR_CODES:
                self._set_error(code)
            # Not rx.remove_cookie: it replays the page's initial events.
            self.clearCookie = sessions.ERROR_COOKIE
        session_id = cookies.get(sessions.SESSION_COOKIE)
        marker = cookies.get(sessions.MARKER_COOKIE)
        if not session_id and not marker:
            self._set_anonymous()  # an anonymous visitor costs the provider nothing
            self.isLoading = False
            return events
        result = None
        if session_id:
            try:
                result = await oidc.relying_party().session_tokens(session_id)
            except oidc.TokenFailed as error:
                if not isinstance(error, oidc.ClientRejected):  # that one is logged at ERROR already
                    log_token_failure(error)
                self._set_error(oidc.TokenFailed.code)
                # The session is kept (a network failure is not the visitor's): still logged
                # in, with its stored identity, as /auth/session answers.
                live = await asyncio.to_thread(sessions.live_session, session_id)
                result = (sessions.user_of(live[0]), live[1]) if live else None
        if result is not None:
            claims, _ = result
            self.user = public_user(claims, settings.oidc_roles_claim)
            self.roles = roles_of(claims, settings.oidc_roles_claim)
            self.isAuthenticated = True
            self.isLoading = False
            return events
        self._set_anonymous()
        if sessions.marker_is_stale(marker):
            # The session it vouched for is gone and no silent check may follow: the marker
            # goes now, so the next page is read as an anonymous visitor's (no state connection).
            self.clearCookie = " ".join(filter(None, (self.clearCookie, sessions.MARKER_COOKIE)))
        elif marker == sessions.MARKER_INTERACTIVE:
            # OIDC_SILENT_LOGIN: the `prompt=none` round trip; /auth/silent removes the marker first.
            self.isLoading = True
            silent = "/auth/silent?" + urlencode({"return_to": self._current_path()})
            return [*events, AuthState.go_to_backend(silent, True)]
        self.isLoading = False
        return events

    @rx.event
    def redirect_by_role(self):
        """On the login page: an authenticated ADVISOR or INVESTOR goes to their application."""
        if self.isLoading or not self.isAuthenticated:
            return None
        destination = role_destination(self.roles, get_settings())
        return rx.redirect(destination) if destination else None

    @rx.event
    def require_login(self, trial: bool = False):
        """On a protected page: an anonymous visitor goes to login and comes back here."""
        if self.isLoading or self.isAuthenticated:
            return None
        return AuthState.go_to_backend(login_url(self._current_path(), trial=trial))


def login_page_path() -> str:
    return quote(routes.LOGIN.path("fr"), safe="/")


class LoginFormState(rx.State):
    """The login page's return target (`?return_to=`), sent with the email as a GET to /auth/login.

    The form posts nothing to Reflex: the password input has no name, so it never leaves
    the browser; the email goes to the provider as `login_hint`.
    """

    returnTo: str = routes.LOGIN.path("fr")

    @rx.event
    def read_return_to(self):
        from marketing_site.services.return_paths import safe_return_path

        default = quote(routes.LOGIN.path("fr"), safe="/")
        self.returnTo = safe_return_path(self.router.url.query_parameters.get("return_to"), default)
