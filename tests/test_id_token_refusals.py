"""What an ID token's or a logout token's refusal says, and the key choices behind the signature.

A refused token reaches the log as `LoginFailed(str(error))` (services/oidc.py): the sentence is
what an operator reads to tell a provider's misconfiguration (another issuer, a key it rotated,
a clock ahead) from an attack, so each rule's sentence is pinned here with the values it names.
The JWKS tests build key sets a real provider serves: an encryption key beside the signing one,
an EC key first, several keys without `kid` during a rotation.
"""

from __future__ import annotations

import base64
import json

import pytest
from joserfc import jws
from joserfc.jwk import ECKey, RSAKey

from marketing_site.services.id_token import (
    JTI_MAX_LENGTH,
    LOGOUT_TOKEN_MAX_AGE_SECONDS,
    IdTokenError,
    validate,
    validate_logout_token,
)

ISSUER = "https://login.example.test/"
CLIENT = "site-client"
NONCE = "n-0123456789"
NOW = 1_800_000_000

KEY = RSAKey.generate_key(2048, parameters={"kid": "k1", "use": "sig"})
ROTATED_OUT = RSAKey.generate_key(2048, parameters={"kid": "k0", "use": "sig"})
EC_KEY = ECKey.generate_key("P-256", parameters={"kid": "k1", "use": "sig"})
JWKS = {"keys": [KEY.as_dict(private=False)]}
EVENT = {"http://schemas.openid.net/event/backchannel-logout": {}}


def _claims(**changes):
    claims = {"iss": ISSUER, "sub": "s-42", "aud": CLIENT, "nonce": NONCE, "iat": NOW - 10, "exp": NOW + 3600}
    claims.update(changes)
    return {name: value for name, value in claims.items() if value is not ...}


def _logout_claims(**changes):
    claims = {"iss": ISSUER, "aud": CLIENT, "sub": "s-42", "iat": NOW - 5, "jti": "j1", "events": EVENT}
    claims.update(changes)
    return {name: value for name, value in claims.items() if value is not ...}


def _sign(claims, key=KEY, header=None):
    return jws.serialize_compact(header or {"alg": "RS256", "kid": "k1"}, json.dumps(claims).encode(), key)


def _forged(header) -> str:
    """A token whose header no key here can sign (another algorithm, none at all)."""
    return ".".join(_segment(part) for part in (header, _claims())) + ".c2ln"


def _segment(value) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def _refusal(token, *, jwks=JWKS, **options) -> IdTokenError:
    arguments = {"jwks": jwks, "issuer": ISSUER, "client_id": CLIENT, "nonce": NONCE, "now": NOW} | options
    with pytest.raises(IdTokenError) as caught:
        validate(token, **arguments)
    return caught.value


def _logout_refusal(token, *, jwks=JWKS, now=NOW) -> IdTokenError:
    with pytest.raises(IdTokenError) as caught:
        validate_logout_token(token, jwks=jwks, issuer=ISSUER, client_id=CLIENT, now=now)
    return caught.value


def _said(error: IdTokenError) -> tuple[str, str, str]:
    return error.reason, error.detail, str(error)


# ------------------------------------------------------------------------------ what is logged


@pytest.mark.parametrize(
    ("token", "options", "reason", "detail"),
    [
        (12, {}, "malformed", "not a string"),
        ("a.b", {}, "malformed", "a JWT has three dot-separated parts"),
        ("%%%.e30.c2ln", {}, "malformed", "not base64url JSON"),
        ("WzFd.e30.c2ln", {}, "malformed", "not a JSON object"),  # the header is the list [1]
        (_forged({"alg": "PS256", "kid": "k1"}), {}, "alg", "signing algorithm must be RS256, not 'PS256'"),
        (_forged({"kid": "k1"}), {}, "alg", "signing algorithm must be RS256, not None"),
        (
            _sign(_claims(), header={"alg": "RS256", "kid": "k9"}),
            {},
            "key",
            "no matching RSA key in the provider's JWKS",
        ),
        (_sign(_claims(), key=ROTATED_OUT), {}, "signature", "signature does not verify"),
        (
            _sign(_claims(iss="https://other.example.test/")),
            {},
            "iss",
            "issuer 'https://other.example.test/' is not 'https://login.example.test/'",
        ),
        (_sign(_claims(iss=...)), {}, "iss", "issuer None is not 'https://login.example.test/'"),
        (_sign(_claims(sub="")), {}, "sub", "subject missing"),
        (_sign(_claims(aud="another-client")), {}, "aud", "audience does not contain the client id"),
        (
            _sign(_claims(aud=[CLIENT, "api"])),
            {},
            "azp",
            "several audiences and the authorized party is not the client",
        ),
        (_sign(_claims(azp="api")), {}, "azp", "authorized party is not the client"),
        (_sign(_claims(nonce="n-other")), {}, "nonce", "nonce does not match the login transaction"),
        (_sign(_claims(exp="soon")), {}, "exp_type", "expiry is not a number"),
        (_sign(_claims(iat=True)), {}, "iat_type", "issued-at is not a number"),
        (_sign(_claims(exp=NOW - 61)), {}, "expired", "token has expired"),
        (_sign(_claims(nbf=NOW + 61)), {}, "nbf", "token is not valid yet"),
        (_sign(_claims()), {"max_age": 300}, "auth_time", "max_age requested and auth_time missing"),
        (_sign(_claims(auth_time=NOW - 361)), {"max_age": 300}, "auth_time", "authentication is older than max_age"),
    ],
)
def test_each_refused_id_token_says_its_rule_and_what_broke_it(token, options, reason, detail):
    error = _refusal(token, **options)
    assert _said(error) == (reason, detail, f"invalid ID token ({reason}): {detail}")


@pytest.mark.parametrize(
    ("changes", "reason", "detail"),
    [
        (
            {"iss": "https://other.example.test/"},
            "iss",
            "issuer 'https://other.example.test/' is not 'https://login.example.test/'",
        ),
        ({"aud": "another-client"}, "aud", "audience does not contain the client id"),
        ({"iat": NOW + 61}, "iat_type", "issued-at missing, not a number or in the future"),
        ({"iat": NOW - 661}, "iat_age", f"issued more than {LOGOUT_TOKEN_MAX_AGE_SECONDS} s ago"),
        ({"jti": ""}, "jti", "logout token has no usable jti"),
        ({"exp": NOW - 61}, "expired", "logout token has expired"),
        ({"events": {}}, "events", "not a back-channel logout token"),
        ({"nonce": NONCE}, "nonce", "a logout token carries no nonce"),
        ({"sub": ...}, "sub", "logout token names no subject"),
    ],
)
def test_each_refused_logout_token_says_its_rule_and_what_broke_it(changes, reason, detail):
    error = _logout_refusal(_sign(_logout_claims(**changes)))
    assert _said(error) == (reason, detail, f"invalid ID token ({reason}): {detail}")


# ------------------------------------------------------------------------- which keys are tried


def test_an_encryption_key_of_the_provider_never_verifies_a_signature():
    # The same RSA key published for encryption only (RFC 7517 §4.2): signing with it is refused.
    for_encryption = {"keys": [KEY.as_dict(private=False) | {"use": "enc"}]}
    assert _refusal(_sign(_claims()), jwks=for_encryption).reason == "key"
    assert _logout_refusal(_sign(_logout_claims()), jwks=for_encryption).reason == "key"


def test_the_signing_key_is_found_after_an_encryption_key():
    encryption = RSAKey.generate_key(2048, parameters={"kid": "k1", "use": "enc"})
    both = {"keys": [encryption.as_dict(private=False), KEY.as_dict(private=False)]}
    assert validate(_sign(_claims()), jwks=both, issuer=ISSUER, client_id=CLIENT, nonce=NONCE, now=NOW)["sub"] == "s-42"


def test_a_key_set_that_lists_no_keys_is_refused_as_no_key():
    assert _refusal(_sign(_claims()), jwks={}).reason == "key"
    assert _refusal(_sign(_claims()), jwks={"keys": []}).reason == "key"


def test_the_signing_key_is_found_after_other_kinds_of_keys():
    # An EC key with the same kid and a foreign entry come first: the RSA key after them verifies.
    mixed = {"keys": ["not a key", EC_KEY.as_dict(private=False), KEY.as_dict(private=False)]}
    assert (
        validate(_sign(_claims()), jwks=mixed, issuer=ISSUER, client_id=CLIENT, nonce=NONCE, now=NOW)["sub"] == "s-42"
    )


def test_the_signing_key_is_found_after_keys_with_other_ids():
    rotated = {"keys": [ROTATED_OUT.as_dict(private=False), KEY.as_dict(private=False)]}
    assert (
        validate(_sign(_claims()), jwks=rotated, issuer=ISSUER, client_id=CLIENT, nonce=NONCE, now=NOW)["sub"] == "s-42"
    )


def test_a_token_without_kid_is_tried_against_every_rsa_key_in_turn():
    # During a rotation a provider serves the old key first; a token without `kid` signed with
    # the new one must still verify.
    no_kid = {"alg": "RS256"}
    both = {"keys": [ROTATED_OUT.as_dict(private=False), KEY.as_dict(private=False)]}
    token = _sign(_claims(), header=no_kid)
    assert validate(token, jwks=both, issuer=ISSUER, client_id=CLIENT, nonce=NONCE, now=NOW)["sub"] == "s-42"
    assert _refusal(_sign(_claims(), key=RSAKey.generate_key(2048), header=no_kid), jwks=both).reason == "signature"


# ---------------------------------------------------------------------------------- the leeway


def test_the_leeway_given_is_the_one_applied():
    token = _sign(_claims(exp=NOW - 30))
    assert validate(token, jwks=JWKS, issuer=ISSUER, client_id=CLIENT, nonce=NONCE, now=NOW)  # default 60 s
    assert _refusal(token, leeway=0).reason == "expired"


def test_a_logout_token_is_accepted_to_the_second_of_its_age_and_refused_one_second_later():
    oldest = NOW - LOGOUT_TOKEN_MAX_AGE_SECONDS - 60
    assert validate_logout_token(_sign(_logout_claims(iat=oldest)), jwks=JWKS, issuer=ISSUER, client_id=CLIENT, now=NOW)
    assert _logout_refusal(_sign(_logout_claims(iat=oldest - 1))).reason == "iat_age"
    # With no leeway the age alone counts.
    token = _sign(_logout_claims(iat=NOW - LOGOUT_TOKEN_MAX_AGE_SECONDS - 1))
    with pytest.raises(IdTokenError) as caught:
        validate_logout_token(token, jwks=JWKS, issuer=ISSUER, client_id=CLIENT, now=NOW, leeway=0)
    assert caught.value.reason == "iat_age"


def test_a_jti_of_the_longest_length_is_accepted_and_one_character_more_refused():
    longest = "j" * JTI_MAX_LENGTH
    accepted = validate_logout_token(
        _sign(_logout_claims(jti=longest)), jwks=JWKS, issuer=ISSUER, client_id=CLIENT, now=NOW
    )
    assert accepted["jti"] == longest
    assert _logout_refusal(_sign(_logout_claims(jti=longest + "j"))).reason == "jti"


def test_a_refusal_without_detail_says_its_rule_alone():
    assert str(IdTokenError("key")) == "invalid ID token (key)"
    assert IdTokenError("key").detail == ""
