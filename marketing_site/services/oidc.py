"""The OpenID Connect relying party (authlib): discovery, PKCE, code exchange, UserInfo, refresh, logout.

The Reflex backend is the relying party: the browser only ever sees the provider's
authorize and logout pages and our own cookies. It speaks standard OpenID Connect to any
certified provider (identity from the ID token merged with UserInfo, refresh without
widening the scope, RP-Initiated Logout); OIDC_COMPAT=auth0 keeps Auth0's own logout.
Limits of SPEC §9: HTTP timeout 10 s, 3 attempts of a token request on network failure or
while the provider says it is unavailable (with back-off), tokens treated as expired up to
60 s early (less for short-lived ones),
a per-session refresh lock (Redis when configured: shared by every worker) waited for at
most 5 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx2
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.httpx_client import AsyncOAuth2Client

from marketing_site import logs, metrics
from marketing_site.services import id_token as id_tokens
from marketing_site.services import sessions
from marketing_site.settings import Settings, get_settings

logger = logging.getLogger(__name__)

HTTP_TIMEOUT_SECONDS = 10.0
TOKEN_ATTEMPTS = 3  # SPEC §9 "silent retry count 3"
EXPIRY_MARGIN_SECONDS = 60  # SPEC §9 "cached tokens treated as expired 60 s early"
# ... but never more than a quarter of the token's lifetime: a 60 s margin on a 30 s token
# would call it expired the moment it is stored (a refresh or a silent login at every page).
EXPIRY_MARGIN_FRACTION = 0.25
LOCK_WAIT_SECONDS = 5.0  # SPEC §9 "token lock wait 5 s"
# A Redis refresh lock frees itself after this long if its worker dies holding it
# (three 10 s attempts with their back-off fit inside).
LOCK_LEASE_SECONDS = 40.0
# Pause before the 2nd and 3rd token attempts (doubling): a provider that dropped one
# connection is not hit again within milliseconds.
RETRY_BACKOFF_SECONDS = 0.5
# Token endpoint answers that say "not now" rather than "no": retried like a network failure.
# RFC 6749 §5.2 has no such error code, but providers send OAuth 2.0's authorize-endpoint
# ones (§4.1.2.1) from the token endpoint too.
RETRY_STATUS_FLOOR = 500  # any 5xx
RETRY_STATUSES = frozenset({429})  # Too Many Requests
RETRY_ERRORS = frozenset({"server_error", "temporarily_unavailable"})
CALLBACK_PATH = "/auth/callback"
# An unknown key id makes the relying party fetch the provider's keys again (a key rotation),
# at most once in this many seconds: a stream of forged tokens costs the provider nothing.
JWKS_REFRESH_COOLDOWN_SECONDS = 60.0
# Back-channel logout tokens already used, by `jti`: kept as long as a token is accepted
# (its `iat` within `id_token.LOGOUT_TOKEN_MAX_AGE_SECONDS`, with the leeway either side).
SEEN_JTI_SECONDS = id_tokens.LOGOUT_TOKEN_MAX_AGE_SECONDS + 2 * id_tokens.LEEWAY_SECONDS
SEEN_JTI_MEMORY_MAX = 10_000
# Authorization-endpoint errors that say the site's request or registration is wrong (OAuth 2.0
# §4.1.2.1), not the visitor's choice: logged at ERROR as an operator's problem.
CONFIGURATION_ERRORS = frozenset(
    {"invalid_request", "unauthorized_client", "unsupported_response_type", "invalid_scope", "invalid_client"}
)

# SPEC §8: errors the silent session check swallows; the visitor just stays anonymous.
RECOVERABLE_ERRORS = frozenset(
    {"login_required", "consent_required", "interaction_required", "account_selection_required", "access_denied"}
)


class AuthError(Exception):
    """A login or token failure; `code` picks the message shown (see `state.auth`)."""

    code = "login_failed"

    def __init__(self, detail: str = "", *, error: str = "", description: str = ""):
        super().__init__(detail or error or self.code)
        self.error = error
        self.description = description


class LoginFailed(AuthError):
    code = "login_failed"


class TokenFailed(AuthError):
    code = "token_failed"


class ProviderRejected(TokenFailed):
    """The token endpoint answered with an OAuth error (`error` holds its code).

    Only `invalid_grant` says the refresh token is no good (and ends the session): see
    `RelyingParty._refreshed_session`.
    """


class ConfigurationError(AuthError):
    code = "login_failed"


class ClientRejected(TokenFailed):
    """`invalid_client`, or any HTTP 401, from the token endpoint: the provider refused our
    client credentials (Keycloak answers a wrong secret with 401 `unauthorized_client`). An
    operator's configuration error (OIDC_CLIENT_ID / OIDC_CLIENT_SECRET), not the visitor's:
    the session is kept and the error is logged at ERROR."""


class SubjectChanged(ProviderRejected):
    """A refresh (ID token or UserInfo) named another user than the session's."""


@dataclass
class TokenSet:
    id_token: str
    access_token: str
    refresh_token: str | None
    # None when the token response had no expires_in (unknown, not expired: RFC 6749 §5.1).
    access_expires_at: float | None
    claims: dict[str, Any]

    received_at: float | None = None

    def as_tokens(self) -> sessions.Tokens:
        return sessions.Tokens(
            self.id_token, self.access_token, self.refresh_token, self.access_expires_at, self.received_at
        )


def expiry_margin(lifetime: float | None) -> float:
    """How early a token counts as expired: 60 s, or a quarter of a shorter lifetime."""
    if lifetime is None:
        return EXPIRY_MARGIN_SECONDS
    return max(0.0, min(EXPIRY_MARGIN_SECONDS, lifetime * EXPIRY_MARGIN_FRACTION))


def is_expired(access_expires_at: float | None, received_at: float | None = None, now: float | None = None) -> bool:
    """Whether an access token must be renewed before use.

    An unknown expiry (no `expires_in`) is not "expired": the token is used until the
    session ends, and a provider that wants shorter must say so.
    """
    if access_expires_at is None:
        return False
    now = time.time() if now is None else now
    lifetime = access_expires_at - received_at if received_at is not None else None
    return now >= access_expires_at - expiry_margin(lifetime)


def tokens_expired(tokens: sessions.Tokens, now: float | None = None) -> bool:
    return is_expired(tokens.access_expires_at, tokens.received_at, now)


class RelyingParty:
    """One configured client of one provider; metadata and keys cached per process."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._metadata: dict[str, Any] | None = None
        self._jwks: dict[str, Any] | None = None
        self._jwks_at = float("-inf")  # when the keys were last asked for (time.monotonic)
        # Back-channel logout token ids already used (without Redis), with when each may go.
        self._seen_jtis: dict[str, float] = {}
        # The issuer discovery named when it was not OIDC_ISSUER (shown in full in the log).
        self._discovered_issuer: str | None = None
        # Per-process refresh locks, each with the number of requests holding or waiting for
        # it: the entry goes when that number is back to 0, so the dict does not grow.
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        self._redis: Any = None
        # Refreshes that outlive the request that started them (see `session_tokens`); kept
        # here so that the event loop does not drop a running one.
        self._refreshes: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ configuration

    @property
    def issuer(self) -> str:
        return self.settings.oidc_issuer

    @property
    def client_id(self) -> str:
        return self.settings.oidc_client_id

    @property
    def redirect_uri(self) -> str:
        return self.settings.absolute(CALLBACK_PATH)

    @property
    def post_logout_redirect_uri(self) -> str:
        """The site's home page with its trailing slash: the string to register at the provider
        (providers compare it exactly, and registration screens save `https://host/`)."""
        return self.settings.site_origin + "/"

    @property
    def auth0(self) -> bool:
        return self.settings.oidc_compat == "auth0"

    @property
    def scope(self) -> str:
        """The scopes this configuration asks for (before `scopes` adapts them to the provider)."""
        scope = "openid profile email"
        return scope + " offline_access" if self.settings.oidc_use_refresh_tokens else scope

    def scopes(self, metadata: Mapping[str, Any]) -> list[str]:
        """The scopes to ask this provider for: `scope`, less those its discovery says it does
        not offer (`scopes_supported`, when it says). A provider without `offline_access` (many
        django-oauth-toolkit and Keycloak deployments) would refuse every login as
        `invalid_scope`; without it the site still logs in, and still refreshes when the
        provider issues refresh tokens anyway. `openid` is always asked (the self-check says
        when it is not offered)."""
        wanted = self.scope.split()
        offered = metadata.get("scopes_supported")
        if isinstance(offered, list) and offered:
            wanted = [scope for scope in wanted if scope == "openid" or scope in offered]
        return wanted

    def token_auth_method(self, metadata: Mapping[str, Any]) -> str:
        """How the client authenticates at the token endpoint: `client_secret_basic` (the
        default of OIDC Discovery when the provider does not say), `client_secret_post` when
        the provider offers that and not basic, `none` without OIDC_CLIENT_SECRET."""
        if not self.settings.oidc_client_secret.get_secret_value():
            return "none"
        offered = metadata.get("token_endpoint_auth_methods_supported")
        if isinstance(offered, list) and "client_secret_basic" not in offered and "client_secret_post" in offered:
            return "client_secret_post"
        return "client_secret_basic"

    @property
    def configured(self) -> bool:
        return bool(self.issuer and self.client_id)

    def log_values(self) -> dict[str, tuple[str, ...]]:
        """`extra` of a log line that quotes this client's configuration: the issuer and the
        provider's endpoints are shown in full (logs.configuration)."""
        metadata = self._metadata or {}
        endpoints = [value for value in metadata.values() if isinstance(value, str) and "://" in value]
        discovery = self.issuer.rstrip("/") + "/.well-known/openid-configuration"
        return logs.configuration(
            self.issuer,
            discovery,
            self._discovered_issuer,
            self.redirect_uri,
            self.post_logout_redirect_uri,
            *endpoints,
        )

    def _client(self, scope: str | None, auth_method: str = "client_secret_basic") -> AsyncOAuth2Client:
        secret = self.settings.oidc_client_secret.get_secret_value()
        return AsyncOAuth2Client(
            client_id=self.client_id,
            client_secret=secret or None,
            token_endpoint_auth_method=auth_method if secret else "none",
            code_challenge_method="S256",
            redirect_uri=self.redirect_uri,
            scope=scope,
            timeout=HTTP_TIMEOUT_SECONDS,
        )

    # ------------------------------------------------------------------ discovery

    async def metadata(self) -> dict[str, Any]:
        """Provider metadata from discovery; the discovered issuer must equal the configured one."""
        if self._metadata is not None:
            return self._metadata
        if not self.configured:
            raise ConfigurationError("OIDC_ISSUER and OIDC_CLIENT_ID are not set")
        url = self.issuer.rstrip("/") + "/.well-known/openid-configuration"
        try:
            async with httpx2.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS) as http:
                response = await http.get(url)
                response.raise_for_status()
                metadata = response.json()
        except (httpx2.HTTPError, ValueError) as error:
            raise LoginFailed(f"discovery failed: {error}") from error
        if not isinstance(metadata, dict) or metadata.get("issuer") != self.issuer:
            found = metadata.get("issuer") if isinstance(metadata, dict) else None
            self._discovered_issuer = found if isinstance(found, str) else None
            raise ConfigurationError(
                f"discovered issuer {found!r} is not OIDC_ISSUER {self.issuer!r}: set OIDC_ISSUER to "
                "exactly the discovered one (a trailing slash counts)"
            )
        for field in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
            if not isinstance(metadata.get(field), str):
                raise ConfigurationError(f"provider metadata lacks {field}")
        self._metadata = metadata
        return metadata

    async def jwks(self, *, refresh: bool = False) -> dict[str, Any]:
        """The provider's keys, cached; `refresh` asks again (a token signed with a key not
        seen yet) unless they were asked for less than JWKS_REFRESH_COOLDOWN_SECONDS ago."""
        recently = time.monotonic() - self._jwks_at < JWKS_REFRESH_COOLDOWN_SECONDS
        if self._jwks is not None and (not refresh or recently):
            return self._jwks
        metadata = await self.metadata()
        self._jwks_at = time.monotonic()  # before the request: concurrent refreshes do not pile up
        try:
            async with httpx2.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS) as http:
                response = await http.get(metadata["jwks_uri"])
                response.raise_for_status()
                self._jwks = response.json()
        except (httpx2.HTTPError, ValueError) as error:
            raise LoginFailed(f"could not fetch the provider's keys: {error}") from error
        return self._jwks

    # ------------------------------------------------------------------ authorize

    async def authorization_url(
        self,
        transaction: Any,
        *,
        prompt: str | None = None,
        login_hint: str | None = None,
        fragment: str | None = None,
    ) -> str:
        """The provider's authorize URL for a stored login transaction.

        With refresh tokens, an interactive login asks for `offline_access` with
        `prompt=consent`: a conformant provider drops `offline_access` otherwise (OIDC Core
        §11) and never issues a refresh token. A silent check (`prompt=none`) cannot show
        consent, so it does not ask. Auth0 issues refresh tokens without consent. A provider
        that does not offer `offline_access` is not asked for it (`scopes`), nor for consent.
        """
        metadata = await self.metadata()
        scopes = self.scopes(metadata)
        extra: dict[str, Any] = {"nonce": transaction.nonce, "response_mode": "query"}
        if "offline_access" in scopes and not self.auth0:
            if prompt == "none":
                scopes.remove("offline_access")
            elif not prompt:
                prompt = "consent"
        scope = " ".join(scopes)
        if self.settings.oidc_audience:
            extra["audience"] = self.settings.oidc_audience
        if self.settings.oidc_resource:
            extra["resource"] = self.settings.oidc_resource
        if prompt:
            extra["prompt"] = prompt
        if login_hint:
            extra["login_hint"] = login_hint
        if transaction.max_age is not None:
            extra["max_age"] = transaction.max_age
        async with self._client(scope, self.token_auth_method(metadata)) as client:
            url, _ = client.create_authorization_url(
                metadata["authorization_endpoint"],
                state=transaction.state,
                code_verifier=transaction.code_verifier,
                redirect_uri=transaction.redirect_uri,
                **extra,
            )
        return f"{url}#{fragment}" if fragment else url

    # ------------------------------------------------------------------ tokens

    def _client_rejected(self, detail: str) -> ClientRejected:
        logger.error(
            "OIDC configuration error: the provider refused this site's client credentials (%s). "
            "Check OIDC_CLIENT_ID and OIDC_CLIENT_SECRET against the client registered at %r.",
            detail,
            self.issuer,
            extra=self.log_values(),
        )
        return ClientRejected(f"client credentials refused ({detail})", error="invalid_client")

    async def _token_request(self, **params: Any) -> dict[str, Any]:
        """POST the token endpoint; 3 attempts (with back-off) on a network failure or while the
        provider says it is unavailable (5xx, 429, `server_error`, `temporarily_unavailable`),
        none on a refusal.

        A refresh request carries no `scope`: RFC 6749 §6 then grants exactly the original
        scope, where authlib would send the whole configured one (`invalid_scope` from a
        provider that granted less). With OIDC_RESOURCE both grants carry `resource` (RFC 8707
        §2.2), as the authorize request did: without it a provider may issue the access token
        for its own UserInfo instead of the API.
        """
        metadata = await self.metadata()
        extra: dict[str, Any] = {}
        if self.settings.oidc_resource:
            extra["resource"] = self.settings.oidc_resource
        last_error: object = None
        for attempt in range(1, TOKEN_ATTEMPTS + 1):
            if attempt > 1:
                await asyncio.sleep(RETRY_BACKOFF_SECONDS * 2 ** (attempt - 2))
            try:
                async with self._client(None, self.token_auth_method(metadata)) as client:
                    client.register_compliance_hook("access_token_response", _status_first)
                    client.register_compliance_hook("refresh_token_response", _status_first)
                    if params.get("grant_type") == "refresh_token":
                        token = await client.refresh_token(
                            metadata["token_endpoint"], refresh_token=params["refresh_token"], **extra
                        )
                    else:
                        token = await client.fetch_token(
                            metadata["token_endpoint"],
                            grant_type="authorization_code",
                            code=params["code"],
                            code_verifier=params["code_verifier"],
                            redirect_uri=params["redirect_uri"],
                            **extra,
                        )
                return dict(token)
            except OAuthError as error:
                if error.error == "invalid_client":
                    raise self._client_rejected(error.description or error.error) from error
                if error.error in RETRY_ERRORS:
                    last_error = f"{error.error}: {error.description or ''}"
                    logger.warning(
                        "token request attempt %d/%d: provider unavailable (%s)", attempt, TOKEN_ATTEMPTS, last_error
                    )
                    continue
                raise ProviderRejected(
                    error.description or error.error, error=error.error or "", description=error.description or ""
                ) from error
            except httpx2.HTTPStatusError as error:
                status = error.response.status_code
                if status == 401:  # RFC 6749 §5.2: client authentication failed, whatever the body says
                    raise self._client_rejected(f"HTTP 401 {_oauth_error_of(error.response)}".strip()) from error
                if status >= RETRY_STATUS_FLOOR or status in RETRY_STATUSES:
                    last_error = error
                    logger.warning(
                        "token request attempt %d/%d: provider answered HTTP %d", attempt, TOKEN_ATTEMPTS, status
                    )
                    continue
                # Another status without an OAuth error body (a proxy's 403 page, a wrong token
                # endpoint's 404): no answer about the grant, so no reason to end a session.
                raise TokenFailed(f"token endpoint answered HTTP {status} without an OAuth error") from error
            except (httpx2.TransportError, ValueError) as error:
                last_error = error
                logger.warning("token request attempt %d/%d failed: %r", attempt, TOKEN_ATTEMPTS, error)
        raise TokenFailed(f"token endpoint unavailable after {TOKEN_ATTEMPTS} attempts: {last_error!r}")

    async def _validated(self, token: Mapping[str, Any], *, nonce: str | None, max_age: int | None) -> dict[str, Any]:
        raw = token.get("id_token")
        if not isinstance(raw, str):
            raise LoginFailed("the token response has no id_token")

        def validate(jwks: dict[str, Any]) -> dict[str, Any]:
            return id_tokens.validate(
                raw, jwks=jwks, issuer=self.issuer, client_id=self.client_id, nonce=nonce, max_age=max_age
            )

        try:
            return validate(await self.jwks())
        except id_tokens.IdTokenError as error:
            if error.reason != "key":
                raise LoginFailed(str(error)) from error
        try:  # the provider may have rotated its keys: fetch them once more
            return validate(await self.jwks(refresh=True))
        except id_tokens.IdTokenError as error:
            raise LoginFailed(str(error)) from error

    async def userinfo(self, access_token: str, sub: str) -> dict[str, Any]:
        """The UserInfo claims (OIDC Core §5.3), or {} when the provider has none to give.

        A conformant provider serves `profile` and `email` claims here, not in the ID token.
        Its `sub` must be the ID token's (§5.3.2); an unreachable or refusing endpoint only
        costs the extra claims (logged), not the login.
        """
        endpoint = (await self.metadata()).get("userinfo_endpoint")
        if not isinstance(endpoint, str):
            return {}
        try:
            async with httpx2.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS) as http:
                response = await http.get(
                    endpoint, headers={"Authorization": f"Bearer {access_token}", "Accept": "application/json"}
                )
                response.raise_for_status()
                claims = response.json() if "json" in response.headers.get("content-type", "") else None
        except (httpx2.HTTPError, ValueError) as error:
            logger.warning("UserInfo unavailable, identity from the ID token only: %r", error)
            return {}
        if not isinstance(claims, dict):
            logger.warning("UserInfo answered no JSON object (signed UserInfo is not supported): ID token only")
            return {}
        if claims.get("sub") != sub:
            raise SubjectChanged("UserInfo names another subject than the ID token")
        return claims

    @staticmethod
    def _expiry(token: Mapping[str, Any], now: float) -> float | None:
        """When the access token expires; None when the response does not say (unknown)."""
        expires_in = token.get("expires_in")
        if isinstance(expires_in, str) and expires_in.isdigit():  # some providers send a string
            expires_in = int(expires_in)
        if isinstance(expires_in, int | float) and not isinstance(expires_in, bool):
            return now + float(expires_in)
        return None

    async def exchange_code(self, code: str, transaction: Any) -> TokenSet:
        """Authorization code + PKCE verifier -> validated tokens (nonce of the transaction),
        identity = the ID token's claims merged with UserInfo's."""
        now = time.time()
        token = await self._token_request(
            code=code, code_verifier=transaction.code_verifier, redirect_uri=transaction.redirect_uri
        )
        claims = await self._validated(token, nonce=transaction.nonce, max_age=transaction.max_age)
        access_token = token.get("access_token")
        if not isinstance(access_token, str):
            raise TokenFailed("the token response has no access_token")
        try:
            claims = {**claims, **await self.userinfo(access_token, claims["sub"])}
        except SubjectChanged as error:
            raise LoginFailed(str(error)) from error
        return TokenSet(
            raw_or(token, "id_token"),
            access_token,
            token.get("refresh_token"),
            self._expiry(token, now),
            claims,
            now,
        )

    async def refresh(self, refresh_token: str, previous: sessions.Tokens, sub: str) -> TokenSet:
        """A refresh-token grant for the session of `sub`.

        The new ID token (if any) is validated without nonce and must name the same `sub`;
        UserInfo is asked again with the new access token. `claims` holds what changed.
        """
        now = time.time()
        try:
            await self.metadata()
        except AuthError as error:
            # Discovery unreachable (a restarted worker has none cached) or inconsistent: says
            # nothing of the refresh token, so the session is kept, as after a network failure.
            raise TokenFailed(f"token refresh impossible: {error}") from error
        token = await self._token_request(grant_type="refresh_token", refresh_token=refresh_token)
        access_token = token.get("access_token")
        if not isinstance(access_token, str):
            raise TokenFailed("the refresh response has no access_token")
        claims: dict[str, Any] = {}
        id_token = previous.id_token
        if isinstance(token.get("id_token"), str):
            try:
                claims = await self._validated(token, nonce=None, max_age=None)
            except LoginFailed as error:
                raise TokenFailed(str(error)) from error
            if claims.get("sub") != sub:
                raise SubjectChanged("the refreshed ID token names another subject than the session")
            id_token = token["id_token"]
        claims = {**claims, **await self.userinfo(access_token, sub)}
        return TokenSet(
            id_token,
            access_token,
            token.get("refresh_token") or refresh_token,
            self._expiry(token, now),
            claims,
            now,
        )

    # ------------------------------------------------------------------ the refresh lock

    def _redis_client(self) -> Any:
        if self._redis is None:
            import redis.asyncio

            self._redis = redis.asyncio.Redis.from_url(
                self.settings.redis_url, socket_timeout=LOCK_WAIT_SECONDS, socket_connect_timeout=2
            )
        return self._redis

    @contextlib.asynccontextmanager
    async def refresh_lock(self, key: str) -> AsyncIterator[None]:
        """One refresh of a session at a time, waited for at most 5 s (`TokenFailed` after).

        With Redis (REFLEX_REDIS_URL, which several workers require) the lock is shared by
        every worker and machine: with rotating refresh tokens, a second worker refreshing
        with the same token would be refused and end the session. Without Redis the site
        runs one worker, and a lock per process is enough.
        """
        if self.settings.redis_url:
            import redis.exceptions

            name = f"{self.settings.redis_key_prefix}oidc-refresh:{key}"
            lock = self._redis_client().lock(name, timeout=LOCK_LEASE_SECONDS, blocking_timeout=LOCK_WAIT_SECONDS)
            try:
                acquired = await lock.acquire()
            except redis.exceptions.RedisError as error:
                raise TokenFailed(f"refresh lock unavailable: {error!r}") from error
            if not acquired:
                raise TokenFailed("timed out waiting for another token refresh")
            try:
                yield
            finally:
                with contextlib.suppress(redis.exceptions.LockError, redis.exceptions.RedisError):
                    await lock.release()
            return
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            try:
                await asyncio.wait_for(lock.acquire(), timeout=LOCK_WAIT_SECONDS)
            except TimeoutError as error:
                raise TokenFailed("timed out waiting for another token refresh") from error
            try:
                yield
            finally:
                lock.release()
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    # ------------------------------------------------------------------ sessions

    async def session_tokens(self, session_id: str) -> tuple[dict[str, Any], sessions.Tokens] | None:
        """The user and tokens of a live session, refreshing (one at a time) an expired access token.

        None: no live session, or the provider refused its refresh token (the session is
        then ended, for the page and /auth/session alike). A session whose access token
        expired with no refresh token (or OIDC_USE_REFRESH_TOKENS off) is still live: its tokens come back expired
        (`tokens_expired`) and only a use of the access token needs a new login. `TokenFailed`:
        the provider could not be reached after 3 attempts, or refused the client itself;
        the session is kept. Database calls run in a thread, off the event loop.
        """
        live = await asyncio.to_thread(sessions.live_session, session_id)
        if live is None:
            return None
        record, tokens = live
        if not tokens_expired(tokens) or not self.refreshes(tokens):
            return sessions.user_of(record), tokens
        # Once sent, a refresh may have spent a rotating refresh token at the provider: its
        # answer must be stored even when the request that asked goes away (Reflex cancels a
        # page's start-up events when the visitor reloads or leaves), or the next refresh
        # sends the spent token, the provider revokes the grant and the session ends.
        refresh = asyncio.ensure_future(self._refreshed_session(session_id, record.id_hash))
        self._refreshes.add(refresh)
        refresh.add_done_callback(self._refresh_done)
        return await asyncio.shield(refresh)

    def refreshes(self, tokens: sessions.Tokens) -> bool:
        """Whether an expired access token of these tokens is renewed by a refresh: there is a
        refresh token and OIDC_USE_REFRESH_TOKENS is on (some providers issue refresh tokens
        unasked: with the setting off they are never used)."""
        return bool(tokens.refresh_token) and self.settings.oidc_use_refresh_tokens

    def _refresh_done(self, refresh: asyncio.Task[Any]) -> None:
        self._refreshes.discard(refresh)
        if not refresh.cancelled() and refresh.exception() is not None:
            # Read here too, so that one whose requester left is not an "unretrieved" error.
            logger.debug("token refresh failed: %r", refresh.exception())
            metrics.OIDC_REFRESHES.labels(outcome="failed").inc()

    async def _refreshed_session(self, session_id: str, lock_key: str) -> tuple[dict[str, Any], sessions.Tokens] | None:
        """`session_tokens` past the expiry check: one refresh at a time, stored before it ends."""
        async with self.refresh_lock(lock_key):
            live = await asyncio.to_thread(sessions.live_session, session_id)  # another worker may have refreshed it
            if live is None:
                return None
            record, tokens = live
            user = sessions.user_of(record)
            if not tokens_expired(tokens) or not self.refreshes(tokens) or not tokens.refresh_token:
                return user, tokens
            try:
                fresh = await self.refresh(tokens.refresh_token, tokens, record.sub)
            except SubjectChanged as error:
                logger.error("token refresh ended the session: %s", error)
                metrics.OIDC_REFRESHES.labels(outcome="ended").inc()
                await asyncio.to_thread(sessions.delete_session, session_id)
                return None
            except ClientRejected:
                raise
            except ProviderRejected as error:
                # Only `invalid_grant` refuses the grant itself (RFC 6749 §5.2: the refresh token
                # is invalid, expired, revoked or another client's): the session ends. The other
                # codes say nothing against this visitor's token, and a new login would meet
                # them again: `unauthorized_client` / `unsupported_grant_type` (the client may
                # not use refresh tokens), `invalid_scope` (no scope is sent: the provider's
                # scope configuration changed), `invalid_target` (OIDC_RESOURCE), `invalid_request`
                # or an unknown code. Those are the operator's to fix: logged at ERROR, the
                # session is kept with 'Get access token failed', as after a network failure.
                if error.error != "invalid_grant":
                    logger.error(
                        "OIDC token refresh refused with %r (%s): session kept; check the client's "
                        "registration (grant types, scopes) and OIDC_RESOURCE",
                        error.error,
                        error.description or error,
                    )
                    raise
                logger.info("refresh token refused (%s): session ended", error.error)
                metrics.OIDC_REFRESHES.labels(outcome="ended").inc()
                await asyncio.to_thread(sessions.delete_session, session_id)
                return None
            changed = None
            if fresh.claims:
                merged = {**user, **fresh.claims}
                if merged != user:
                    changed = user = merged
            await asyncio.to_thread(sessions.store_tokens, session_id, fresh.as_tokens(), changed)
            metrics.OIDC_REFRESHES.labels(outcome="refreshed").inc()
            return user, fresh.as_tokens()

    # ------------------------------------------------------------------ authorization response

    async def response_issuer_problem(self, iss: str | None, *, error_response: bool = False) -> str | None:
        """Why the authorization response's `iss` (RFC 9207) is refused; None when it is fine.

        The defence against mix-up attacks: a provider that advertises
        `authorization_response_iss_parameter_supported` must send its issuer with a code, and a
        present `iss` must be the issuer whatever the provider advertises. An error response
        without `iss` passes (django-oauth-toolkit 3.4.1 leaves it out there; an error carries
        no code to steal). Without discovery nothing can be checked (the code exchange then
        fails anyway).
        """
        try:
            metadata = await self.metadata()
        except AuthError:
            return None
        if iss is None:
            if not error_response and metadata.get("authorization_response_iss_parameter_supported") is True:
                return (
                    f"the provider at {self.issuer!r} advertises the iss parameter (RFC 9207) and the response has none"
                )
            return None
        if iss != self.issuer:
            return f"the response's iss {iss!r} is not the issuer {self.issuer!r} (RFC 9207: a mix-up)"
        return None

    def authorization_error_is_configuration(self, error: str) -> bool:
        """Whether an authorization-endpoint error says the site's request or registration is
        wrong (logged at ERROR for the operator) rather than the visitor's doing."""
        return error in CONFIGURATION_ERRORS

    # ------------------------------------------------------------------ logout

    async def logout_url(
        self, *, id_token_hint: str | None, federated: bool = False, logout_hint: str | None = None
    ) -> str | None:
        """Where to send the browser to end the provider's session; None: local logout only.

        Standard (RP-Initiated Logout 1.0): the advertised `end_session_endpoint` with
        `client_id`, `post_logout_redirect_uri` (the home page with its trailing slash, exactly
        as registered), `id_token_hint` when given (see `services/logout_hint.py`) and `logout_hint`
        when the identity carries one (Entra ID's `login_hint` claim). No `state`: the site
        has nothing to restore, and the provider would append it to the home page's address.
        A provider that advertises no endpoint gets no guessed one. OIDC_COMPAT=auth0: Auth0's
        `/v2/logout` with `client_id`, `returnTo` and the optional `federated` flag.
        """
        metadata = await self.metadata()
        endpoint = metadata.get("end_session_endpoint")
        if self.auth0:
            endpoint = endpoint or self.issuer.rstrip("/") + "/v2/logout"
            query = urlencode({"client_id": self.client_id, "returnTo": self.post_logout_redirect_uri})
            if federated:
                query += "&federated"
        elif isinstance(endpoint, str) and endpoint:
            params = {"client_id": self.client_id, "post_logout_redirect_uri": self.post_logout_redirect_uri}
            if id_token_hint:
                params["id_token_hint"] = id_token_hint
            if logout_hint:
                params["logout_hint"] = logout_hint
            query = urlencode(params)
        else:
            return None
        return f"{endpoint}{'&' if '?' in endpoint else '?'}{query}"

    async def logout_token_claims(self, raw: str) -> dict[str, Any]:
        """A validated back-channel logout token's claims (`LoginFailed` when invalid or
        replayed: each `jti` is accepted once, across workers with Redis)."""
        try:
            claims = id_tokens.validate_logout_token(
                raw, jwks=await self.jwks(), issuer=self.issuer, client_id=self.client_id
            )
        except id_tokens.IdTokenError as error:
            if error.reason != "key":
                raise LoginFailed(str(error)) from error
            try:  # the provider may have rotated its keys (asked again at most once a minute)
                claims = id_tokens.validate_logout_token(
                    raw, jwks=await self.jwks(refresh=True), issuer=self.issuer, client_id=self.client_id
                )
            except id_tokens.IdTokenError as error:
                raise LoginFailed(str(error)) from error
        if not await self._first_use_of(claims["jti"]):
            raise LoginFailed("logout token replayed: its jti was used before")
        return claims

    async def _first_use_of(self, jti: str) -> bool:
        """Record a logout token id; False when it was recorded already (a replay).

        In Redis when configured (every worker and machine sees it), else in this process
        (one worker). Kept SEEN_JTI_SECONDS, as long as such a token is accepted at all. If
        Redis cannot be reached the id is recorded here: a logout still ends the sessions.
        """
        digest = hashlib.sha256(f"{self.issuer} {jti}".encode()).hexdigest()
        if self.settings.redis_url:
            import redis.exceptions

            name = f"{self.settings.redis_key_prefix}oidc-logout-jti:{digest}"
            try:
                return bool(await self._redis_client().set(name, b"1", nx=True, ex=int(SEEN_JTI_SECONDS)))
            except (redis.exceptions.RedisError, OSError) as error:
                logger.warning("logout token replay check: Redis unavailable (%r), checked in this process", error)
        now = time.monotonic()
        if len(self._seen_jtis) >= SEEN_JTI_MEMORY_MAX:
            self._seen_jtis = {key: until for key, until in self._seen_jtis.items() if until > now}
        until = self._seen_jtis.get(digest)
        if until is not None and until > now:
            return False
        if len(self._seen_jtis) >= SEEN_JTI_MEMORY_MAX:
            return False  # that many live ids in 11 minutes: a flood, refused rather than forgotten
        self._seen_jtis[digest] = now + SEEN_JTI_SECONDS
        return True

    # ------------------------------------------------------------------ self-check

    def discovery_findings(self, metadata: Mapping[str, Any]) -> list[tuple[int, str]]:
        """What discovery says against this configuration: (log level, message naming the
        setting to change, here or at the provider). ERROR: a login cannot work; WARNING: the
        site adapts or does without. Fields a provider leaves out are not held against it."""
        findings: list[tuple[int, str]] = []
        advertised = metadata.get("scopes_supported")
        offered: list[Any] = advertised if isinstance(advertised, list) else []
        for scope in self.scope.split() if offered else []:
            if scope in offered:
                continue
            if scope == "openid":
                text = "the provider does not offer the openid scope: is OIDC_ISSUER an OpenID provider?"
                findings.append((logging.ERROR, text))
            elif scope == "offline_access":
                text = (
                    "the provider does not offer the offline_access scope (scopes_supported): the site logs in "
                    "without it, and refreshes only if the provider issues refresh tokens anyway. Add the scope "
                    "at the provider, or set OIDC_USE_REFRESH_TOKENS to false."
                )
                findings.append((logging.WARNING, text))
            else:
                text = (
                    f"the provider does not offer the {scope} scope (scopes_supported): the site logs in without "
                    "it and lacks its claims. Add the scope to the client at the provider."
                )
                findings.append((logging.WARNING, text))
        methods = metadata.get("code_challenge_methods_supported")
        if isinstance(methods, list) and "S256" not in methods:
            text = (
                f"the provider offers PKCE methods {methods!r} without S256, which the site always uses: enable "
                "PKCE with S256 for the client at the provider."
            )
            findings.append((logging.ERROR, text))
        method = self.token_auth_method(metadata)
        auth_methods = metadata.get("token_endpoint_auth_methods_supported")
        if isinstance(auth_methods, list) and method not in auth_methods:
            fix = (
                "set OIDC_CLIENT_SECRET (a confidential client)"
                if method == "none"
                else "register the client at the provider with client_secret_basic or client_secret_post"
            )
            text = f"the token endpoint accepts {auth_methods!r}, not {method!r}, which this site would use: {fix}."
            findings.append((logging.ERROR, text))
        algorithms = metadata.get("id_token_signing_alg_values_supported")
        if isinstance(algorithms, list) and id_tokens.ALGORITHM not in algorithms:
            text = (
                f"the provider signs ID tokens with {algorithms!r}, not {id_tokens.ALGORITHM}, the only algorithm "
                f"the site accepts: choose {id_tokens.ALGORITHM} for the client at the provider."
            )
            findings.append((logging.ERROR, text))
        if not self.auth0 and not isinstance(metadata.get("end_session_endpoint"), str):
            text = (
                "the provider advertises no end_session_endpoint: logout ends the site's session only (the visitor "
                "stays logged in at the provider). Enable RP-Initiated Logout at the provider (with Auth0, set "
                "OIDC_COMPAT=auth0)."
            )
            findings.append((logging.WARNING, text))
        prompts = metadata.get("prompt_values_supported")
        if self.settings.oidc_silent_login and isinstance(prompts, list) and "none" not in prompts:
            text = "the provider does not list prompt=none (prompt_values_supported): set OIDC_SILENT_LOGIN=false."
            findings.append((logging.WARNING, text))
        if not isinstance(metadata.get("userinfo_endpoint"), str):
            text = "the provider advertises no userinfo_endpoint: identity from the ID token only"
            findings.append((logging.WARNING, text))
        return findings

    async def self_check(self) -> list[str]:
        """What is wrong with this client's configuration, found by asking the provider.

        Discovery (`discovery_findings`; its warnings are logged here) and keys, then the client
        credentials: a refresh grant with a token that cannot exist is refused as
        `invalid_grant` when the client authenticated, and as `invalid_client` when
        OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is wrong.
        """
        problems: list[str] = []
        try:
            metadata = await self.metadata()
            await self.jwks()
        except AuthError as error:
            return [f"the identity provider at {self.issuer!r} is not usable: {error}"]
        for level, finding in self.discovery_findings(metadata):
            if level >= logging.ERROR:
                problems.append(finding)
            else:
                logger.warning("OIDC self-check: %s", finding, extra=self.log_values())
        try:
            await self._token_request(
                grant_type="refresh_token", refresh_token="self-check-" + secrets.token_urlsafe(8)
            )
        except ClientRejected as error:
            problems.append(f"the provider refused the client credentials: {error}")
        except ProviderRejected:
            pass  # invalid_grant: the client authenticated
        except TokenFailed as error:
            problems.append(f"the token endpoint did not answer: {error}")
        return problems


def configuration_problems(settings: Settings) -> list[str]:
    """Why a production configuration (SITE_URL https) must not start; empty when fine."""
    if not settings.is_production:
        return []
    problems = []
    if settings.dev_services:
        problems.append(
            "DEV_SERVICES is set: the development identity provider and manager stand-in never serve production"
        )
    if settings.oidc_issuer and not settings.oidc_issuer.startswith("https://"):
        problems.append(f"OIDC_ISSUER must be https in production, not {settings.oidc_issuer!r}")
    if not settings.session_secret.get_secret_value():
        problems.append("SESSION_SECRET is required in production")
    return problems


def check_startup() -> None:
    """Lifespan task of the site: refuse a bad production configuration, purge old records."""
    problems = configuration_problems(get_settings())
    if problems:
        raise RuntimeError("Refusing to start: " + "; ".join(problems))
    try:
        sessions.purge_expired()
    except Exception as error:  # noqa: BLE001 - any failure here (a missing table) must not hide the real message later
        logger.warning("could not purge expired login records: %s", error)


async def self_check() -> None:
    """Lifespan task: ask the provider whether this client is configured right, and say
    what is wrong at ERROR (the site still starts: the provider may only be away)."""
    party = relying_party()
    if not party.configured:
        return
    try:
        problems = await party.self_check()
    except Exception as error:  # noqa: BLE001 - a check must never take the site down
        logger.warning("OIDC self-check could not run: %r", error)
        return
    shown = party.log_values()
    for problem in problems:
        logger.error("OIDC self-check: %s", problem, extra=shown)
    if not problems:
        logger.info("OIDC self-check: provider %s accepts client %s", party.issuer, party.client_id, extra=shown)


def _status_first(response: httpx2.Response) -> httpx2.Response:
    """authlib's compliance hook on token responses: some statuses decide alone.

    authlib reads any JSON body as the answer: a 401 `{"error": "unauthorized_client"}`
    (Keycloak's wrong secret) would be a refused grant, a 429 `{"message": ...}` a token.
    401 (client authentication), 429 and 5xx raise `HTTPStatusError` before it does.
    """
    status = response.status_code
    if status == 401 or status in RETRY_STATUSES or status >= RETRY_STATUS_FLOOR:
        response.raise_for_status()
    return response


def _oauth_error_of(response: httpx2.Response) -> str:
    """The OAuth `error` (and description) of an error response's JSON body, or ""."""
    try:
        body = response.json()
    except ValueError:
        return ""
    if not isinstance(body, dict) or not isinstance(body.get("error"), str):
        return ""
    description = body.get("error_description")
    return f"{body['error']}: {description}" if isinstance(description, str) and description else body["error"]


def raw_or(token: Mapping[str, Any], name: str) -> str:
    value = token.get(name)
    return value if isinstance(value, str) else ""


_PARTIES: dict[Settings, RelyingParty] = {}


def relying_party(settings: Settings | None = None) -> RelyingParty:
    """The process's relying party for the current settings (cached metadata and keys)."""
    settings = settings or get_settings()
    party = _PARTIES.get(settings)
    if party is None:
        party = _PARTIES[settings] = RelyingParty(settings)
    return party
