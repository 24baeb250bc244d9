"""The free-trial form (SPEC §3/§4/§7): prefilled names, then the environment registration.

Idle -> submitting (button disabled, 'Creation de votre environment...') -> the advisor
application's /onboard on success, or idle again with no message on failure (logged).
The access token is fetched server-side from the session; it never reaches the state.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlencode

import reflex as rx

from marketing_site.services import manager, oidc, sessions
from marketing_site.state.auth import AuthState, login_url

logger = logging.getLogger(__name__)

FIELDS = ("lastName", "firstName", "company", "phone")


class TrialState(rx.State):
    lastName: str = ""
    firstName: str = ""
    company: str = ""
    phone: str = ""
    submitting: bool = False

    @rx.event
    async def on_load(self):
        """Protected page: anonymous -> login (fragment mode=trial); else prefill the names."""
        self.submitting = False
        auth = await self.get_state(AuthState)
        if auth.isLoading:
            return None  # the silent check is under way and reloads the page
        if not auth.isAuthenticated:
            return AuthState.go_to_backend(login_url(auth._current_path(), trial=True))
        if not self.lastName:
            self.lastName = str(auth.user.get("family_name") or "")
        if not self.firstName:
            self.firstName = str(auth.user.get("given_name") or "")
        return None

    @rx.event
    def set_lastName(self, value: str):
        self.lastName = value

    @rx.event
    def set_firstName(self, value: str):
        self.firstName = value

    @rx.event
    def set_company(self, value: str):
        self.company = value

    @rx.event
    def set_phone(self, value: str):
        self.phone = value

    @rx.event
    async def submit(self, form_data: dict[str, Any]):
        if self.submitting:
            return
        for name in FIELDS:
            if isinstance(form_data.get(name), str):
                setattr(self, name, form_data[name])
        self.submitting = True
        yield
        try:
            session_id = sessions.read_cookies(self.router.headers.cookie).get(sessions.SESSION_COOKIE)
            result = await oidc.relying_party().session_tokens(session_id) if session_id else None
            if result is None:
                raise manager.RegistrationFailed("no live session to get an access token from")
            claims, tokens = result
            if oidc.tokens_expired(tokens):
                # Expired with no refresh token: a `prompt=none` login renews it, and the
                # visitor, back on this page, submits again.
                self.submitting = False
                auth = await self.get_state(AuthState)
                yield AuthState.go_to_backend("/auth/silent?" + urlencode({"return_to": auth._current_path()}), True)
                return
            body = manager.payload({name: getattr(self, name) for name in FIELDS}, claims)
            await manager.register_environment(body, tokens.access_token)
        except (manager.RegistrationFailed, oidc.AuthError) as error:
            logger.warning("trial registration failed: %s", error, extra=oidc.relying_party().log_values())
            self.submitting = False
            return
        yield rx.redirect(manager.onboarding_url())
