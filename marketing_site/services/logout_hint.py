"""Which ID token, if any, goes as `id_token_hint` when the visitor logs out (RP-Initiated Logout 1.0).

Two kinds of provider pull opposite ways:

- some find the client only through the hint (django-oidc-provider ignores `client_id` at its
  end-session endpoint): without it they show their own "You've been logged out" page and never
  send the visitor back to the site;
- some answer a hint they no longer know with an error page of their own, where the visitor
  stays (django-oauth-toolkit deletes every token of a user at any logout: after a logout on
  another device, its ID token is unknown there).

So the hint goes unless the site has seen that the provider no longer knows the session's grant.
An expired ID token is still a valid hint (RP-Initiated Logout 1.0 §2), and the access token's
state says nothing of it: an expired access token is first renewed with the refresh token (when
OIDC_USE_REFRESH_TOKENS is on), which also tells whether the grant lives. UserInfo, asked with an
unexpired access token, then says whether the provider still accepts it. The hint is dropped
only when the provider refused the refresh token (the session ends) or UserInfo refused the access
token; whatever cannot be asked (no refresh token, no UserInfo, the provider not answering) keeps it.
"""

from __future__ import annotations

import asyncio
import logging

import httpx2

from marketing_site.services import oidc, sessions

logger = logging.getLogger(__name__)

# At logout, how long UserInfo may take to say whether the provider still knows the session.
USERINFO_PROBE_TIMEOUT_SECONDS = 3.0


async def id_token_hint(party: oidc.RelyingParty, session_id: str | None) -> str | None:
    """The ID token to send as `id_token_hint` for this session's logout, or None.

    Call it before the session is deleted: an expired access token is refreshed (and stored)
    through `RelyingParty.session_tokens`, one refresh at a time as for a page load.
    """
    tokens = await _live(party, session_id)
    if tokens is None:
        return None
    if oidc.tokens_expired(tokens):
        return tokens.id_token  # nothing to ask the provider with: an expired ID token is still a hint
    if await _userinfo_refuses(party, tokens):
        return None
    return tokens.id_token


async def _live(party: oidc.RelyingParty, session_id: str | None) -> sessions.Tokens | None:
    """The session's tokens, an expired access token refreshed first; None when there is no
    live session or the provider refused its refresh token (it no longer knows the grant)."""
    stored = await asyncio.to_thread(sessions.live_session, session_id)
    if stored is None:
        return None
    tokens = stored[1]
    if not oidc.tokens_expired(tokens) or not party.refreshes(tokens):
        return tokens
    try:
        refreshed = await party.session_tokens(session_id or "")
    except oidc.AuthError as error:
        logger.info("logout with id_token_hint: the refresh before it failed (%s)", error)
        return tokens
    if refreshed is None:
        logger.info("logout without id_token_hint: the provider refused the session's refresh token")
        return None
    return refreshed[1]


async def _userinfo_refuses(party: oidc.RelyingParty, tokens: sessions.Tokens) -> bool:
    """Whether UserInfo refused this unexpired access token (the provider no longer knows it).

    Not asked with OIDC_RESOURCE (the access token is the API's, and UserInfo may refuse it
    while the grant lives) nor when the provider has no UserInfo; no answer refuses nothing."""
    if party.settings.oidc_resource:
        return False
    try:
        endpoint = (await party.metadata()).get("userinfo_endpoint")
    except oidc.AuthError:
        return False
    if not isinstance(endpoint, str):
        return False
    try:
        async with httpx2.AsyncClient(timeout=USERINFO_PROBE_TIMEOUT_SECONDS) as http:
            response = await http.get(
                endpoint, headers={"Authorization": f"Bearer {tokens.access_token}", "Accept": "application/json"}
            )
    except httpx2.HTTPError as error:
        logger.info("logout with id_token_hint: UserInfo did not answer (%r)", error)
        return False
    if response.status_code in (401, 403):
        logger.info("logout without id_token_hint: the provider no longer accepts the session's tokens")
        return True
    return False
