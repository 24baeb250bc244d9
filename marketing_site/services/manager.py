"""Trial registration with the manager service (SPEC §7): POST /environment/register."""

from __future__ import annotations

import logging
from typing import Any

import httpx2

from marketing_site.settings import Settings, get_settings

logger = logging.getLogger(__name__)

HTTP_TIMEOUT_SECONDS = 10.0
REGISTER_PATH = "/environment/register"
# The payload of SPEC §3, in this order.
PAYLOAD_FIELDS = ("company", "firstName", "lastName", "phone", "email", "picture")


class RegistrationFailed(Exception):
    """The environment could not be created (logged; the visitor sees no message)."""


def payload(form: dict[str, Any], user: dict[str, Any]) -> dict[str, str]:
    """The registration JSON: form fields, then email and picture from the identity."""

    def text(value: Any) -> str:
        return value.strip() if isinstance(value, str) else ""

    return {
        "company": text(form.get("company")),
        "firstName": text(form.get("firstName")),
        "lastName": text(form.get("lastName")),
        "phone": text(form.get("phone")),
        "email": text(user.get("email")),
        "picture": text(user.get("picture")),
    }


async def register_environment(body: dict[str, str], access_token: str, settings: Settings | None = None) -> None:
    """POST the payload with the Bearer token; any non-2xx answer or network failure raises."""
    settings = settings or get_settings()
    if not settings.manager_service_url:
        raise RegistrationFailed("MANAGER_SERVICE_URL is not set")
    url = settings.manager_service_url.rstrip("/") + REGISTER_PATH
    try:
        async with httpx2.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS) as http:
            response = await http.post(url, json=body, headers={"Authorization": f"Bearer {access_token}"})
    except httpx2.HTTPError as error:
        raise RegistrationFailed(f"manager service unreachable: {error!r}") from error
    if not response.is_success:
        raise RegistrationFailed(f"manager service answered {response.status_code}")


def onboarding_url(settings: Settings | None = None) -> str:
    """Where a successful registration sends the browser: the advisor app's /onboard."""
    settings = settings or get_settings()
    return settings.advisor_app_url.rstrip("/") + "/onboard"
