"""ID token validation (SPEC §5, OpenID Connect Core 1.0 §3.1.3.7), as pure functions.

authlib's `CodeIDToken` leaves gaps (it accepts any algorithm the key allows, does not
require `azp` with several audiences, does not check that `exp`/`iat` are numbers), so
every rule lives here and each failure raises `IdTokenError` with a machine-readable
`reason`:

    malformed     not three base64url parts, or header/payload not JSON objects
    alg           header `alg` is not RS256 (`none`, HS256 and the rest are refused)
    key           no RSA key of the provider's JWKS matches the header
    signature     the signature does not verify with the provider's key
    iss           `iss` differs from the configured issuer
    sub           `sub` missing or empty
    aud           `aud` missing or does not contain the client id
    azp           several audiences and `azp` differs from the client id
                  (or `azp` present and different with one audience)
    nonce         `nonce` differs from the one of the login transaction
    exp_type      `exp` missing or not a number
    iat_type      `iat` missing or not a number
    expired       `exp` is in the past, beyond the leeway
    nbf           `nbf` is in the future, beyond the leeway
    auth_time     `max_age` was requested and `auth_time` is missing, not a number or too old

and, for a back-channel logout token, `events`, `iat_age` (issued too long ago) and `jti`.

Time checks allow `LEEWAY_SECONDS` (60 s) either way.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Mapping
from typing import Any

from joserfc import jws
from joserfc.errors import JoseError
from joserfc.jwk import RSAKey

ALGORITHM = "RS256"
LEEWAY_SECONDS = 60


class IdTokenError(Exception):
    """An ID token that must not be accepted; `reason` says which rule it broke."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"invalid ID token ({reason}){': ' + detail if detail else ''}")
        self.reason = reason
        self.detail = detail


def _b64_json(part: str) -> dict[str, Any]:
    try:
        raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        value = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError) as error:
        raise IdTokenError("malformed", "not base64url JSON") from error
    if not isinstance(value, dict):
        raise IdTokenError("malformed", "not a JSON object")
    return value


def split(token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Header and claims of a compact JWS, unverified (three dot-separated parts)."""
    if not isinstance(token, str):
        raise IdTokenError("malformed", "not a string")
    parts = token.split(".")
    if len(parts) != 3 or not all(parts[:2]):
        raise IdTokenError("malformed", "a JWT has three dot-separated parts")
    return _b64_json(parts[0]), _b64_json(parts[1])


def _candidate_keys(header: Mapping[str, Any], jwks: Mapping[str, Any]) -> list[RSAKey]:
    keys = []
    for entry in jwks.get("keys", []):
        if not isinstance(entry, dict) or entry.get("kty") != "RSA":
            continue
        if entry.get("use") not in (None, "sig"):
            continue
        if "kid" in header and entry.get("kid") != header["kid"]:
            continue
        keys.append(RSAKey.import_key(entry))
    return keys


def verify_signature(token: str, header: Mapping[str, Any], jwks: Mapping[str, Any]) -> None:
    """The RS256 signature verifies with one of the provider's RSA keys."""
    if header.get("alg") != ALGORITHM:
        raise IdTokenError("alg", f"signing algorithm must be {ALGORITHM}, not {header.get('alg')!r}")
    keys = _candidate_keys(header, jwks)
    if not keys:
        raise IdTokenError("key", "no matching RSA key in the provider's JWKS")
    for key in keys:
        try:
            jws.deserialize_compact(token, key, algorithms=[ALGORITHM])
            return
        except (JoseError, ValueError):
            continue
    raise IdTokenError("signature", "signature does not verify")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number(value: Any) -> int | float | None:
    """A JSON number (a boolean is not one), else None."""
    return value if _is_number(value) else None


def check_claims(
    claims: Mapping[str, Any],
    *,
    issuer: str,
    client_id: str,
    nonce: str | None,
    max_age: int | None = None,
    now: float | None = None,
    leeway: int = LEEWAY_SECONDS,
) -> None:
    """Every claim rule of SPEC §5 / OIDC Core 3.1.3.7 (the signature is checked apart)."""
    now = time.time() if now is None else now
    if claims.get("iss") != issuer:
        raise IdTokenError("iss", f"issuer {claims.get('iss')!r} is not {issuer!r}")
    sub = claims.get("sub")
    if not isinstance(sub, str) or not sub:
        raise IdTokenError("sub", "subject missing")
    aud = claims.get("aud")
    audiences = [aud] if isinstance(aud, str) else aud
    if not isinstance(audiences, list) or client_id not in audiences:
        raise IdTokenError("aud", "audience does not contain the client id")
    azp = claims.get("azp")
    if len(audiences) > 1 and azp != client_id:
        raise IdTokenError("azp", "several audiences and the authorized party is not the client")
    if azp is not None and azp != client_id:
        raise IdTokenError("azp", "authorized party is not the client")
    if nonce is not None and claims.get("nonce") != nonce:
        raise IdTokenError("nonce", "nonce does not match the login transaction")
    exp, iat = _number(claims.get("exp")), _number(claims.get("iat"))
    if exp is None:
        raise IdTokenError("exp_type", "expiry is not a number")
    if iat is None:
        raise IdTokenError("iat_type", "issued-at is not a number")
    if now > exp + leeway:
        raise IdTokenError("expired", "token has expired")
    nbf = claims.get("nbf")
    if nbf is not None and (not _is_number(nbf) or now < nbf - leeway):
        raise IdTokenError("nbf", "token is not valid yet")
    if max_age is not None:
        auth_time = _number(claims.get("auth_time"))
        if auth_time is None:
            raise IdTokenError("auth_time", "max_age requested and auth_time missing")
        if now > auth_time + max_age + leeway:
            raise IdTokenError("auth_time", "authentication is older than max_age")


def validate(
    token: str,
    *,
    jwks: Mapping[str, Any],
    issuer: str,
    client_id: str,
    nonce: str | None,
    max_age: int | None = None,
    now: float | None = None,
    leeway: int = LEEWAY_SECONDS,
) -> dict[str, Any]:
    """The claims of a valid ID token; `IdTokenError` otherwise.

    `nonce=None` is for a token from a refresh grant, which carries the login's nonce
    or none at all (OIDC Core 12.2); every other rule still applies.
    """
    header, claims = split(token)
    verify_signature(token, header, jwks)
    check_claims(claims, issuer=issuer, client_id=client_id, nonce=nonce, max_age=max_age, now=now, leeway=leeway)
    return claims


BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout"
# A logout token is sent the moment the visitor signs out at the provider: one issued longer ago
# than this is refused, so that the ids of accepted tokens need only be kept this long (a
# replayed `jti` is refused: `oidc.RelyingParty.logout_token_claims`).
LOGOUT_TOKEN_MAX_AGE_SECONDS = 600
JTI_MAX_LENGTH = 256


def validate_logout_token(
    token: str,
    *,
    jwks: Mapping[str, Any],
    issuer: str,
    client_id: str,
    now: float | None = None,
    leeway: int = LEEWAY_SECONDS,
) -> dict[str, Any]:
    """The claims of a valid back-channel logout token (Back-Channel Logout 1.0 §2.6).

    Signature (RS256) and `iss`/`aud` as for an ID token; `iat` a number neither in the future
    nor older than LOGOUT_TOKEN_MAX_AGE_SECONDS; a `jti` (§2.4: required; the caller refuses
    one seen before); `events` holds the back-channel logout event; `sub` is present (this site
    ends sessions by subject); no `nonce` (so an ID token cannot pass for a logout token).
    """
    current: float = time.time() if now is None else now
    header, claims = split(token)
    verify_signature(token, header, jwks)
    if claims.get("iss") != issuer:
        raise IdTokenError("iss", f"issuer {claims.get('iss')!r} is not {issuer!r}")
    aud = claims.get("aud")
    audiences = [aud] if isinstance(aud, str) else aud
    if not isinstance(audiences, list) or client_id not in audiences:
        raise IdTokenError("aud", "audience does not contain the client id")
    iat = claims.get("iat")
    if not _is_number(iat) or iat > current + leeway:  # type: ignore[operator]  # a number: _is_number
        raise IdTokenError("iat_type", "issued-at missing, not a number or in the future")
    if iat < current - LOGOUT_TOKEN_MAX_AGE_SECONDS - leeway:  # type: ignore[operator]  # a number: checked above
        raise IdTokenError("iat_age", f"issued more than {LOGOUT_TOKEN_MAX_AGE_SECONDS} s ago")
    jti = claims.get("jti")
    if not isinstance(jti, str) or not jti or len(jti) > JTI_MAX_LENGTH:
        raise IdTokenError("jti", "logout token has no usable jti")
    exp = claims.get("exp")
    if exp is not None and (not _is_number(exp) or current > exp + leeway):
        raise IdTokenError("expired", "logout token has expired")
    events = claims.get("events")
    if not isinstance(events, dict) or not isinstance(events.get(BACKCHANNEL_LOGOUT_EVENT), dict):
        raise IdTokenError("events", "not a back-channel logout token")
    if "nonce" in claims:
        raise IdTokenError("nonce", "a logout token carries no nonce")
    sub = claims.get("sub")
    if not isinstance(sub, str) or not sub:
        raise IdTokenError("sub", "logout token names no subject")
    return claims
