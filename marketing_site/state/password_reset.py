"""The password-reset form: a neutral confirmation, and the provider's reset endpoint if configured.

The confirmation never says whether an account exists. With OIDC_PASSWORD_RESET_URL set,
the backend POSTs `{"client_id", "email"}` as JSON to it (Auth0's
/dbconnections/change_password shape); its answer is only logged.
"""

from __future__ import annotations

import logging
from typing import Any

import httpx
import reflex as rx

from marketing_site.settings import get_settings

logger = logging.getLogger(__name__)

HTTP_TIMEOUT_SECONDS = 10.0


class PasswordResetState(rx.State):
    sent: bool = False

    @rx.event
    async def submit(self, form_data: dict[str, Any]):
        email = str(form_data.get("email") or "").strip()[:320]
        settings = get_settings()
        if email and settings.oidc_password_reset_url:
            try:
                async with httpx.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS) as http:
                    response = await http.post(
                        settings.oidc_password_reset_url,
                        json={"client_id": settings.oidc_client_id, "email": email},
                    )
                logger.info("password reset requested: provider answered %s", response.status_code)
            except httpx.HTTPError as error:
                logger.warning("password reset request failed: %r", error)
        self.sent = True
