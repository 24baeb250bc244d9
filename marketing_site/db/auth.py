"""Server-side login state: login transactions and sessions (tokens never reach the browser)."""

from __future__ import annotations

from sqlalchemy import Column, Text
from sqlmodel import Field, SQLModel


class LoginTransaction(SQLModel, table=True):
    """One authorization request in flight, keyed by its `state` (lives 1 day, used once)."""

    __tablename__ = "auth_login_transaction"

    state: str = Field(primary_key=True, max_length=64)
    nonce: str = Field(max_length=64)
    code_verifier: str = Field(max_length=128)
    redirect_uri: str = Field(max_length=2000)
    # Same-site relative path (and query) to return to after the callback.
    return_to: str = Field(max_length=2000)
    # A `prompt=none` check: provider errors are swallowed and the visitor stays anonymous.
    silent: bool = False
    max_age: int | None = None
    # HMAC of the random value of the browser's binding cookie: a callback URL replayed
    # in another browser (login CSRF) finds no matching transaction.
    binding_hash: str = Field(max_length=64)
    created_at: float = Field(index=True)


class AuthSession(SQLModel, table=True):
    """A logged-in browser. The cookie holds a random id; the table holds only its HMAC.

    Token columns are encrypted with a key derived from SESSION_SECRET.
    """

    __tablename__ = "auth_session"

    id_hash: str = Field(primary_key=True, max_length=64)
    sub: str = Field(max_length=255)
    # The ID token's claims as JSON (what the site shows: names, email, picture, roles).
    user_json: str = Field(sa_column=Column(Text, nullable=False))
    id_token: str = Field(sa_column=Column(Text, nullable=False))
    access_token: str = Field(sa_column=Column(Text, nullable=False))
    refresh_token: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    # When the access token expires (epoch seconds, from the provider's expires_in); None: the
    # token response had no expires_in (RFC 6749 only recommends it), so the expiry is unknown.
    access_expires_at: float | None = None
    # When the current tokens were received: with access_expires_at, the token's lifetime, which
    # scales the early-refresh margin. None on sessions stored before it existed.
    tokens_at: float | None = None
    created_at: float
    expires_at: float = Field(index=True)
