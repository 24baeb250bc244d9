"""The password-reset form: honest about what happens.

With OIDC_PASSWORD_RESET_URL set, the backend relays the request to the identity provider
(`services.password_reset`, rate-limited) and the page says whether the provider accepted it:
a 2xx means the provider sends its reset mail if the account exists (the page never says
whether it does); anything else, or no answer, is shown as a failure with the way to get help;
too many requests, as a request to try again later (nothing was sent). Without it (the default)
the site cannot send anything: the page shows no form, only how to reset (the provider's own
"forgotten password" link on its login page, or contact).
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from marketing_site.reflex_internals.router_headers import peer_and_forwarded
from marketing_site.services import password_reset
from marketing_site.services.password_reset import FAILED, RATE_LIMITED, REQUESTED
from marketing_site.settings import get_settings

__all__ = ["FAILED", "RATE_LIMITED", "REQUESTED", "PasswordResetState"]


class PasswordResetState(rx.State):
    # Whether this site can ask the provider for a reset: read again on load (a run-time
    # setting); the default, prerendered, is the build's, so a site configured alike at
    # build and run time shows the right content from the first paint.
    self_service: bool = bool(get_settings().oidc_password_reset_url)
    outcome: str = ""
    busy: bool = False

    @rx.event
    def load(self) -> None:
        self.self_service = bool(get_settings().oidc_password_reset_url)
        self.outcome = ""

    @rx.event
    async def submit(self, form_data: dict[str, Any]):
        email = str(form_data.get("email") or "").strip()
        if not get_settings().oidc_password_reset_url or not email:
            return
        self.busy = True
        yield
        client = password_reset.client_of(*peer_and_forwarded(self.router))
        self.outcome, _wait = await password_reset.request_reset(email, client)
        self.busy = False
