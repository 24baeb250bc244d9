"""The password-reset form: honest about what happens.

With OIDC_PASSWORD_RESET_URL set, the backend POSTs `{"client_id", "email"}` as JSON to
the identity provider's reset endpoint (Auth0's /dbconnections/change_password shape) and
the page says whether the provider accepted the request: a 2xx means the provider sends
its reset mail if the account exists (the page never says whether it does); anything else,
or no answer, is shown as a failure with the way to get help. Without it (the default) the
site cannot send anything: the page shows no form, only how to reset (the provider's own
"forgotten password" link on its login page, or contact).
"""

from __future__ import annotations

import logging
from typing import Any

import httpx2
import reflex as rx

from marketing_site.settings import get_settings

logger = logging.getLogger(__name__)

HTTP_TIMEOUT_SECONDS = 10.0
EMAIL_MAX = 320

# What the last submission led to.
REQUESTED, FAILED = "requested", "failed"


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
        settings = get_settings()
        email = str(form_data.get("email") or "").strip()[:EMAIL_MAX]
        if not settings.oidc_password_reset_url or not email:
            return
        self.busy = True
        yield
        try:
            async with httpx2.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS) as http:
                response = await http.post(
                    settings.oidc_password_reset_url,
                    json={"client_id": settings.oidc_client_id, "email": email},
                )
            accepted = response.is_success
            logger.info("password reset requested: provider answered %s", response.status_code)
        except httpx2.HTTPError as error:
            accepted = False
            logger.warning("password reset request failed: %r", error)
        self.outcome = REQUESTED if accepted else FAILED
        self.busy = False
