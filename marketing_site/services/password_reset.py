"""The password-reset relay: ask the identity provider to mail a reset link, within limits.

With OIDC_PASSWORD_RESET_URL set, `request_reset` POSTs `{"client_id", "email"}` as JSON to the
provider's reset endpoint (Auth0's /dbconnections/change_password shape): a 2xx means the
provider sends its reset mail if the account exists (the page never says whether it does).

The relay makes the provider mail whoever is named, in our name: it is rate-limited per client
address (PASSWORD_RESET_RATE_LIMIT_PER_IP) and per email asked for
(PASSWORD_RESET_RATE_LIMIT_PER_EMAIL), per RATE_LIMIT_WINDOW_SECONDS, in memory or in Redis
like the lead API's limits. A refused request sends nothing.
"""

from __future__ import annotations

import asyncio
import logging
import math
from functools import lru_cache

import httpx2

from marketing_site.services.client_address import visitor_address
from marketing_site.services.rate_limit import RateLimiter, RedisRateLimiter, address_key, make_rate_limiter
from marketing_site.settings import get_settings

logger = logging.getLogger(__name__)

HTTP_TIMEOUT_SECONDS = 10.0
EMAIL_MAX = 320
# What a request led to.
REQUESTED, FAILED, RATE_LIMITED = "requested", "failed", "rate_limited"


@lru_cache(maxsize=1)
def _limiters() -> tuple[RateLimiter | RedisRateLimiter, RateLimiter | RedisRateLimiter]:
    settings = get_settings()
    window = settings.rate_limit_window_seconds
    return (
        make_rate_limiter(settings.password_reset_rate_limit_per_ip, window),
        make_rate_limiter(settings.password_reset_rate_limit_per_email, window),
    )


def client_of(peer: str, forwarded_for: str) -> str:
    """The visitor's address from the websocket's peer and X-Forwarded-For (TRUSTED_PROXIES)."""
    return visitor_address(peer or "unknown", [forwarded_for] if forwarded_for else [], get_settings().trusted_proxies)


def _allowed(email: str, client_ip: str) -> float | None:
    """None if this request may be relayed, else the seconds to wait (blocking: Redis)."""
    per_ip, per_email = _limiters()
    wait = per_ip.hit(f"reset-ip:{client_ip}")
    if wait is None:
        wait = per_email.hit(f"reset-email:{address_key(email)}")
    return wait


async def request_reset(email: str, client_ip: str) -> tuple[str, int]:
    """(outcome, seconds to wait when rate-limited) of one reset request."""
    settings = get_settings()
    email = email.strip()[:EMAIL_MAX]
    wait = await asyncio.to_thread(_allowed, email, client_ip)
    if wait is not None:
        logger.warning("password reset request refused: rate limit")
        return RATE_LIMITED, math.ceil(wait)
    try:
        async with httpx2.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS) as http:
            response = await http.post(
                settings.oidc_password_reset_url, json={"client_id": settings.oidc_client_id, "email": email}
            )
        accepted = response.is_success
        logger.info("password reset requested: provider answered %s", response.status_code)
    except httpx2.HTTPError as error:
        accepted = False
        logger.warning("password reset request failed: %r", error)
    return (REQUESTED if accepted else FAILED), 0
