"""The OpenID Connect relying party (authlib): discovery, PKCE, code exchange, refresh, logout.

The Reflex backend is the relying party: the browser only ever sees the provider's
authorize and logout pages and our own cookies. Limits of SPEC §9: HTTP timeout 10 s,
3 attempts of a token request on network failure, tokens treated as expired 60 s early,
a per-session refresh lock waited for at most 5 s.
"""

from __future__ import annotations

import asyncio
import logging
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx
from authlib.integrations.base_client.errors import OAuthError

with warnings.catch_warnings():  # authlib 1.9 warns that it prefers httpx2; httpx works
    warnings.simplefilter("ignore")
    from authlib.integrations.httpx_client import AsyncOAuth2Client

from marketing_site.services import id_token as id_tokens
from marketing_site.services import sessions
from marketing_site.settings import Settings, get_settings

logger = logging.getLogger(__name__)

HTTP_TIMEOUT_SECONDS = 10.0
TOKEN_ATTEMPTS = 3  # SPEC §9 "silent retry count 3"
EXPIRY_MARGIN_SECONDS = 60  # SPEC §9 "cached tokens treated as expired 60 s early"
LOCK_WAIT_SECONDS = 5.0  # SPEC §9 "token lock wait 5 s"
CALLBACK_PATH = "/auth/callback"

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
    """The token endpoint answered with an OAuth error (the refresh token is no good)."""


class ConfigurationError(AuthError):
    code = "login_failed"


@dataclass
class TokenSet:
    id_token: str
    access_token: str
    refresh_token: str | None
    access_expires_at: float
    claims: dict[str, Any]

    def as_tokens(self) -> sessions.Tokens:
        return sessions.Tokens(self.id_token, self.access_token, self.refresh_token, self.access_expires_at)


def is_expired(access_expires_at: float, now: float | None = None) -> bool:
    now = time.time() if now is None else now
    return now >= access_expires_at - EXPIRY_MARGIN_SECONDS


class RelyingParty:
    """One configured client of one provider; metadata and keys cached per process."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._metadata: dict[str, Any] | None = None
        self._jwks: dict[str, Any] | None = None
        self._locks: dict[str, asyncio.Lock] = {}

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
    def scope(self) -> str:
        scope = "openid profile email"
        return scope + " offline_access" if self.settings.oidc_use_refresh_tokens else scope

    @property
    def configured(self) -> bool:
        return bool(self.issuer and self.client_id)

    def _client(self) -> AsyncOAuth2Client:
        secret = self.settings.oidc_client_secret.get_secret_value()
        return AsyncOAuth2Client(
            client_id=self.client_id,
            client_secret=secret or None,
            token_endpoint_auth_method="client_secret_basic" if secret else "none",
            code_challenge_method="S256",
            redirect_uri=self.redirect_uri,
            scope=self.scope,
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
            async with httpx.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS) as http:
                response = await http.get(url)
                response.raise_for_status()
                metadata = response.json()
        except (httpx.HTTPError, ValueError) as error:
            raise LoginFailed(f"discovery failed: {error}") from error
        if not isinstance(metadata, dict) or metadata.get("issuer") != self.issuer:
            found = metadata.get("issuer") if isinstance(metadata, dict) else None
            raise ConfigurationError(f"discovered issuer {found!r} is not OIDC_ISSUER {self.issuer!r}")
        for field in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
            if not isinstance(metadata.get(field), str):
                raise ConfigurationError(f"provider metadata lacks {field}")
        self._metadata = metadata
        return metadata

    async def jwks(self, *, refresh: bool = False) -> dict[str, Any]:
        if self._jwks is not None and not refresh:
            return self._jwks
        metadata = await self.metadata()
        try:
            async with httpx.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS) as http:
                response = await http.get(metadata["jwks_uri"])
                response.raise_for_status()
                self._jwks = response.json()
        except (httpx.HTTPError, ValueError) as error:
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
        """The provider's authorize URL for a stored login transaction."""
        metadata = await self.metadata()
        extra: dict[str, Any] = {"nonce": transaction.nonce, "response_mode": "query"}
        if self.settings.oidc_audience:
            extra["audience"] = self.settings.oidc_audience
        if prompt:
            extra["prompt"] = prompt
        if login_hint:
            extra["login_hint"] = login_hint
        if transaction.max_age is not None:
            extra["max_age"] = transaction.max_age
        async with self._client() as client:
            url, _ = client.create_authorization_url(
                metadata["authorization_endpoint"],
                state=transaction.state,
                code_verifier=transaction.code_verifier,
                redirect_uri=transaction.redirect_uri,
                **extra,
            )
        return f"{url}#{fragment}" if fragment else url

    # ------------------------------------------------------------------ tokens

    async def _token_request(self, **params: Any) -> dict[str, Any]:
        """POST the token endpoint; 3 attempts on network failure, none on an OAuth error."""
        metadata = await self.metadata()
        last_error: Exception | None = None
        for attempt in range(1, TOKEN_ATTEMPTS + 1):
            try:
                async with self._client() as client:
                    if params.get("grant_type") == "refresh_token":
                        token = await client.refresh_token(
                            metadata["token_endpoint"], refresh_token=params["refresh_token"]
                        )
                    else:
                        token = await client.fetch_token(
                            metadata["token_endpoint"],
                            grant_type="authorization_code",
                            code=params["code"],
                            code_verifier=params["code_verifier"],
                            redirect_uri=params["redirect_uri"],
                        )
                return dict(token)
            except OAuthError as error:
                raise ProviderRejected(
                    error.description or error.error, error=error.error or "", description=error.description or ""
                ) from error
            except httpx.HTTPStatusError as error:
                raise ProviderRejected(f"token endpoint answered {error.response.status_code}") from error
            except (httpx.TransportError, ValueError) as error:
                last_error = error
                logger.warning("token request attempt %d/%d failed: %r", attempt, TOKEN_ATTEMPTS, error)
        raise TokenFailed(f"token endpoint unreachable after {TOKEN_ATTEMPTS} attempts: {last_error!r}")

    async def _validated(self, token: Mapping[str, Any], *, nonce: str | None, max_age: int | None) -> dict[str, Any]:
        raw = token.get("id_token")
        if not isinstance(raw, str):
            raise LoginFailed("the token response has no id_token")
        options = {"issuer": self.issuer, "client_id": self.client_id, "nonce": nonce, "max_age": max_age}
        try:
            return id_tokens.validate(raw, jwks=await self.jwks(), **options)
        except id_tokens.IdTokenError as error:
            if error.reason != "key":
                raise LoginFailed(str(error)) from error
        try:  # the provider may have rotated its keys: fetch them once more
            return id_tokens.validate(raw, jwks=await self.jwks(refresh=True), **options)
        except id_tokens.IdTokenError as error:
            raise LoginFailed(str(error)) from error

    @staticmethod
    def _expiry(token: Mapping[str, Any], now: float) -> float:
        expires_in = token.get("expires_in")
        if isinstance(expires_in, int | float) and not isinstance(expires_in, bool):
            return now + float(expires_in)
        expires_at = token.get("expires_at")
        return float(expires_at) if isinstance(expires_at, int | float) else now

    async def exchange_code(self, code: str, transaction: Any) -> TokenSet:
        """Authorization code + PKCE verifier -> validated tokens (nonce of the transaction)."""
        now = time.time()
        token = await self._token_request(
            code=code, code_verifier=transaction.code_verifier, redirect_uri=transaction.redirect_uri
        )
        claims = await self._validated(token, nonce=transaction.nonce, max_age=transaction.max_age)
        access_token = token.get("access_token")
        if not isinstance(access_token, str):
            raise TokenFailed("the token response has no access_token")
        return TokenSet(
            raw_or(token, "id_token"), access_token, token.get("refresh_token"), self._expiry(token, now), claims
        )

    async def refresh(self, refresh_token: str, previous: sessions.Tokens) -> TokenSet:
        """A refresh-token grant; the new ID token (if any) is validated, without nonce."""
        now = time.time()
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
            id_token = token["id_token"]
        return TokenSet(
            id_token, access_token, token.get("refresh_token") or refresh_token, self._expiry(token, now), claims
        )

    def _lock(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def session_tokens(self, session_id: str) -> tuple[dict[str, Any], sessions.Tokens] | None:
        """The user and fresh tokens of a session, refreshing (one at a time) if expired.

        None: no live session, or its access token expired with no refresh token (the
        caller then needs a `prompt=none` round trip). `TokenFailed`: the provider could
        not be reached (network) after 3 attempts. A refresh token the provider refuses
        ends the session (None).
        """
        record = sessions.load_session(session_id)
        tokens = sessions.tokens_of(record) if record else None
        if record is None or tokens is None:
            return None
        if not is_expired(tokens.access_expires_at):
            return sessions.user_of(record), tokens
        if not tokens.refresh_token:
            return None
        lock = self._lock(record.id_hash)
        try:
            await asyncio.wait_for(lock.acquire(), timeout=LOCK_WAIT_SECONDS)
        except TimeoutError as error:
            raise TokenFailed("timed out waiting for another token refresh") from error
        try:
            record = sessions.load_session(session_id)  # another request may have refreshed it
            tokens = sessions.tokens_of(record) if record else None
            if record is None or tokens is None:
                return None
            user = sessions.user_of(record)
            if not is_expired(tokens.access_expires_at):
                return user, tokens
            if not tokens.refresh_token:
                return None
            try:
                fresh = await self.refresh(tokens.refresh_token, tokens)
            except ProviderRejected as error:
                logger.info("refresh token refused (%s): session ended", error.error or error)
                sessions.delete_session(session_id)
                return None
            changed = None
            if (
                fresh.claims
                and fresh.claims.get("sub") == user.get("sub")
                and fresh.claims.get("updated_at") != user.get("updated_at")
            ):
                changed = user = {**user, **fresh.claims}  # SPEC §4: user follows updated_at
            sessions.store_tokens(session_id, fresh.as_tokens(), changed)
            return user, fresh.as_tokens()
        finally:
            lock.release()

    # ------------------------------------------------------------------ logout

    async def logout_url(self, *, return_to: str, federated: bool = False) -> str:
        """The provider's logout with `client_id` and `returnTo` (plus the standard names)."""
        metadata = await self.metadata()
        endpoint = metadata.get("end_session_endpoint") or self.issuer.rstrip("/") + "/v2/logout"
        params = {"client_id": self.client_id, "returnTo": return_to, "post_logout_redirect_uri": return_to}
        query = urlencode(params)
        if federated:
            query += "&federated"
        return f"{endpoint}{'&' if '?' in endpoint else '?'}{query}"


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
