"""Server-side login transactions (1 day, used once) and sessions (opaque cookie id).

The browser holds only a random session id in an HttpOnly cookie and a non-secret
"was authenticated" marker. The database keeps the HMAC of the id (a stolen database
does not give usable cookies) and the tokens, encrypted with a key derived from
SESSION_SECRET. Nothing here talks to the identity provider.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from sqlalchemy import Engine
from sqlmodel import Session, col, delete, select

from marketing_site.db import get_engine
from marketing_site.db.auth import AuthSession, LoginTransaction
from marketing_site.services import site_storage
from marketing_site.settings import PROJECT_ROOT, get_settings

logger = logging.getLogger(__name__)

# Names and lifetimes of the cookies come from the one list the privacy policy shows.
TRANSACTION_LIFETIME_SECONDS = site_storage.LOGIN_BINDING.cookie_seconds  # SPEC §9: 1 day
MARKER_LIFETIME_SECONDS = site_storage.MARKER.cookie_seconds  # SPEC §9: the marker lasts 1 day
SESSION_LIFETIME_SECONDS = site_storage.SESSION.cookie_seconds  # the session ends with its marker
ERROR_LIFETIME_SECONDS = site_storage.LOGIN_ERROR.cookie_seconds

SESSION_COOKIE = site_storage.SESSION.name  # HttpOnly: the opaque session id
MARKER_COOKIE = site_storage.MARKER.name  # readable, not secret: "was authenticated"
# The marker's values: after an interactive login it buys one silent check when the session
# is gone; after a silent login it only says "logged in" (the page then opens its state
# connection) and buys no further check, so silent logins never follow one another.
MARKER_INTERACTIVE, MARKER_SILENT = "true", "silent"
ERROR_COOKIE = site_storage.LOGIN_ERROR.name  # one-shot: the code of a login error to show
BINDING_COOKIE = site_storage.LOGIN_BINDING.name  # HttpOnly: ties login transactions to this browser
DEV_SECRET_FILE = PROJECT_ROOT / "var" / "session_secret"
# Expired login transactions and sessions are deleted at start-up and, while the site runs, by
# the first new login transaction after this many seconds (in each worker): a running site
# keeps about one day of transactions, not all of them since it started.
PURGE_INTERVAL_SECONDS = 600.0
_last_purge = {"at": float("-inf")}


def marker_is_stale(marker: str | None) -> bool:
    """Whether a marker found without a live session must go now. It buys one silent check
    after an interactive login only with OIDC_SILENT_LOGIN; otherwise (or after a silent
    login) the session it vouched for is gone and the page must say logged out."""
    if not marker:
        return False
    return marker != MARKER_INTERACTIVE or not get_settings().oidc_silent_login


# ------------------------------------------------------------------------- secrets


def _dev_secret(file: Path = DEV_SECRET_FILE) -> str:
    """Without SESSION_SECRET (development only), one random secret kept under var/."""
    if file.is_file():
        return file.read_text().strip()
    file.parent.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_urlsafe(48)
    file.write_text(secret)
    file.chmod(0o600)
    return secret


def session_secret() -> str:
    return get_settings().session_secret.get_secret_value() or _dev_secret()


def _fernet(secret: str) -> Fernet:
    key = hashlib.sha256(b"nereo-session-tokens:" + secret.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def seal(value: str, secret: str | None = None) -> str:
    return _fernet(secret or session_secret()).encrypt(value.encode()).decode()


def unseal(value: str, secret: str | None = None) -> str | None:
    try:
        return _fernet(secret or session_secret()).decrypt(value.encode()).decode()
    except InvalidToken:
        return None


def id_hash(session_id: str, secret: str | None = None) -> str:
    key = (secret or session_secret()).encode()
    return hmac.new(key, session_id.encode(), hashlib.sha256).hexdigest()


# ------------------------------------------------------------------------- database


def engine() -> Engine:
    return get_engine()


# ------------------------------------------------------------------------- cookies


def read_cookies(header: str) -> dict[str, str]:
    """Cookies of a `Cookie:` header (a malformed header gives none rather than an error)."""
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header or "")
    except CookieError:
        return {}
    return {name: morsel.value for name, morsel in jar.items()}


# ------------------------------------------------------------------------- transactions


def new_binding() -> str:
    return secrets.token_urlsafe(32)


def new_transaction(
    *, redirect_uri: str, return_to: str, binding: str, silent: bool = False, max_age: int | None = None
) -> LoginTransaction:
    """Store a login transaction: fresh state, nonce and 43-character PKCE verifier (and purge
    the expired ones every PURGE_INTERVAL_SECONDS)."""
    now = time.time()
    if time.monotonic() - _last_purge["at"] >= PURGE_INTERVAL_SECONDS:
        purge_expired(now)
    transaction = LoginTransaction(
        binding_hash=id_hash("binding:" + binding),
        state=secrets.token_urlsafe(32),
        nonce=secrets.token_urlsafe(32),
        code_verifier=secrets.token_urlsafe(32),  # 32 bytes -> 43 base64url characters
        redirect_uri=redirect_uri,
        return_to=return_to,
        silent=silent,
        max_age=max_age,
        created_at=now,
    )
    with Session(engine()) as db:
        db.add(transaction)
        db.commit()
        db.refresh(transaction)
    return transaction


def take_transaction(state: str, binding: str | None, now: float | None = None) -> LoginTransaction | None:
    """The transaction of `state`, removed so it is used once.

    None if unknown, older than 1 day, or started in another browser (binding cookie).
    One `DELETE … RETURNING`: of two callbacks racing with one state (two workers), only
    one gets the row; a read then a delete would let both through.
    """
    now = time.time() if now is None else now
    if not state or not binding:
        return None
    columns = LoginTransaction.__table__.c  # type: ignore[attr-defined]  # a table model has __table__
    statement = delete(LoginTransaction).where(col(LoginTransaction.state) == state).returning(*columns)
    with Session(engine()) as db:
        row = db.exec(statement).first()
        db.commit()
    if row is None:
        return None
    transaction = LoginTransaction(**row._asdict())
    if now - transaction.created_at > TRANSACTION_LIFETIME_SECONDS:
        return None
    if not hmac.compare_digest(transaction.binding_hash, id_hash("binding:" + binding)):
        return None
    return transaction


def purge_expired(now: float | None = None) -> None:
    """Delete login transactions older than their day and sessions past their end."""
    _last_purge["at"] = time.monotonic()
    now = time.time() if now is None else now
    with Session(engine()) as db:
        db.exec(delete(LoginTransaction).where(col(LoginTransaction.created_at) < now - TRANSACTION_LIFETIME_SECONDS))
        db.exec(delete(AuthSession).where(col(AuthSession.expires_at) < now))
        db.commit()


# ------------------------------------------------------------------------- sessions


class Tokens:
    """Decrypted tokens of one session (kept in server memory for the time of a request)."""

    def __init__(
        self,
        id_token: str,
        access_token: str,
        refresh_token: str | None,
        access_expires_at: float | None,
        received_at: float | None = None,
    ):
        self.id_token = id_token
        self.access_token = access_token
        self.refresh_token = refresh_token
        self.access_expires_at = access_expires_at  # None: unknown (no expires_in)
        self.received_at = received_at


def create_session(claims: dict[str, Any], tokens: Tokens, now: float | None = None) -> str:
    """Store a new session; the returned random id goes in the HttpOnly cookie."""
    now = time.time() if now is None else now
    session_id = secrets.token_urlsafe(32)
    record = AuthSession(
        id_hash=id_hash(session_id),
        sub=str(claims.get("sub", "")),
        user_json=json.dumps(claims),
        id_token=seal(tokens.id_token),
        access_token=seal(tokens.access_token),
        refresh_token=seal(tokens.refresh_token) if tokens.refresh_token else None,
        access_expires_at=tokens.access_expires_at,
        tokens_at=tokens.received_at if tokens.received_at is not None else now,
        created_at=now,
        expires_at=now + SESSION_LIFETIME_SECONDS,
    )
    with Session(engine()) as db:
        db.add(record)
        db.commit()
    return session_id


def load_session(session_id: str | None, now: float | None = None) -> AuthSession | None:
    """The live session of a cookie value; an expired one is removed."""
    now = time.time() if now is None else now
    if not session_id:
        return None
    with Session(engine()) as db:
        record = db.get(AuthSession, id_hash(session_id))
        if record is None:
            return None
        if record.expires_at < now:
            db.delete(record)
            db.commit()
            return None
        db.expunge(record)
    return record


def live_session(session_id: str | None) -> tuple[AuthSession, Tokens] | None:
    """A live session with readable tokens: what "logged in" means, for the page and /auth/session alike."""
    record = load_session(session_id)
    tokens = tokens_of(record) if record is not None else None
    if record is None or tokens is None:
        return None
    return record, tokens


def user_of(record: AuthSession) -> dict[str, Any]:
    return json.loads(record.user_json)


def roles_of(claims: dict[str, Any], claim: str) -> list[str]:
    """The roles in `claim` of the identity (ID token merged with UserInfo).

    A name not found as it is may be a dotted path into nested objects: Keycloak's
    `realm_access.roles` or `resource_access.<client>.roles`.
    """
    value = claims.get(claim)
    if value is None and "." in claim:
        value = claims
        for part in claim.split("."):
            value = value.get(part) if isinstance(value, dict) else None
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [role for role in value if isinstance(role, str)]
    return []


def tokens_of(record: AuthSession) -> Tokens | None:
    id_token, access_token = unseal(record.id_token), unseal(record.access_token)
    if id_token is None or access_token is None:  # SESSION_SECRET changed: the session is void
        return None
    refresh_token = unseal(record.refresh_token) if record.refresh_token else None
    return Tokens(id_token, access_token, refresh_token, record.access_expires_at, record.tokens_at)


def store_tokens(session_id: str, tokens: Tokens, claims: dict[str, Any] | None = None) -> None:
    """Replace a session's tokens (after a refresh); `claims` replaces the user when given."""
    with Session(engine()) as db:
        record = db.get(AuthSession, id_hash(session_id))
        if record is None:
            return
        record.id_token = seal(tokens.id_token)
        record.access_token = seal(tokens.access_token)
        record.refresh_token = seal(tokens.refresh_token) if tokens.refresh_token else None
        record.access_expires_at = tokens.access_expires_at
        record.tokens_at = tokens.received_at if tokens.received_at is not None else time.time()
        if claims is not None:
            record.user_json = json.dumps(claims)
        db.add(record)
        db.commit()


def delete_session(session_id: str | None) -> None:
    if not session_id:
        return
    with Session(engine()) as db:
        record = db.get(AuthSession, id_hash(session_id))
        if record is not None:
            db.delete(record)
            db.commit()


def delete_sessions_of(sub: str) -> int:
    """End every session of one user (a back-channel logout from the provider); how many."""
    with Session(engine()) as db:
        result = db.exec(delete(AuthSession).where(col(AuthSession.sub) == sub))
        db.commit()
        return result.rowcount or 0


def sessions_count() -> int:
    with Session(engine()) as db:
        return len(db.exec(select(AuthSession.id_hash)).all())
