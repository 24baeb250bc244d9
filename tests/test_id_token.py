"""ID token rules (SPEC §5, OIDC Core 3.1.3.7) with tokens signed here by a local RSA key."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
from joserfc import jws
from joserfc.jwk import RSAKey

from marketing_site.services.id_token import IdTokenError, validate

ISSUER = "https://login.example.test/"
CLIENT = "site-client"
NONCE = "n-0123456789"
NOW = 1_800_000_000

KEY = RSAKey.generate_key(2048, parameters={"kid": "k1", "use": "sig"})
OTHER_KEY = RSAKey.generate_key(2048, parameters={"kid": "k1"})
JWKS = {"keys": [KEY.as_dict(private=False)]}


def _claims(**changes):
    claims = {
        "iss": ISSUER,
        "sub": "auth0|42",
        "aud": CLIENT,
        "nonce": NONCE,
        "iat": NOW - 10,
        "exp": NOW + 3600,
        "auth_time": NOW - 10,
    }
    for name, value in changes.items():
        if value is ...:
            claims.pop(name, None)
        else:
            claims[name] = value
    return claims


def _sign(claims, key=KEY, header=None):
    return jws.serialize_compact(header or {"alg": "RS256", "kid": "k1"}, json.dumps(claims).encode(), key)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _segment(value) -> str:
    return _b64(json.dumps(value).encode())


def _validate(token, **kwargs):
    options = {"jwks": JWKS, "issuer": ISSUER, "client_id": CLIENT, "nonce": NONCE, "now": NOW}
    options.update(kwargs)
    return validate(token, **options)


def _reason(token, **kwargs) -> str:
    with pytest.raises(IdTokenError) as caught:
        _validate(token, **kwargs)
    return caught.value.reason


def test_a_valid_token_gives_its_claims():
    assert _validate(_sign(_claims()))["sub"] == "auth0|42"


def test_token_without_kid_uses_the_provider_rsa_key():
    assert _validate(_sign(_claims(), header={"alg": "RS256"}))["sub"] == "auth0|42"


@pytest.mark.parametrize("token", ["", "a.b", "a.b.c.d", "onlyone", "..sig", "e30.e30"])
def test_not_three_parts_is_malformed(token):
    assert _reason(token) == "malformed"


def test_parts_that_are_not_json_are_malformed():
    assert _reason("bm90IGpzb24.e30.c2ln") == "malformed"


def test_alg_none_is_refused():
    unsigned = f"{_segment({'alg': 'none'})}.{_segment(_claims())}"
    assert _reason(unsigned + ".") == "alg"
    assert _reason(unsigned + ".x") == "alg"


def test_hs256_signed_with_the_public_key_is_refused():
    """The classic key-confusion attack: HMAC keyed with the provider's public key."""
    public_pem = KEY.as_pem(private=False)
    signing_input = f"{_segment({'alg': 'HS256', 'kid': 'k1'})}.{_segment(_claims())}"
    signature = hmac.new(public_pem, signing_input.encode(), hashlib.sha256).digest()
    assert _reason(f"{signing_input}.{_b64(signature)}") == "alg"


@pytest.mark.parametrize("alg", ["RS384", "RS512", "PS256", "ES256", "HS512"])
def test_other_algorithms_are_refused(alg):
    header = _b64(json.dumps({"alg": alg, "kid": "k1"}).encode())
    token = f"{header}.{_b64(json.dumps(_claims()).encode())}.c2lnbmF0dXJl"
    assert _reason(token) == "alg"


def test_signature_from_another_key_is_refused():
    assert _reason(_sign(_claims(), key=OTHER_KEY)) == "signature"


def test_tampered_payload_is_refused():
    header, _, signature = _sign(_claims()).split(".")
    forged = _b64(json.dumps(_claims(sub="someone-else")).encode())
    assert _reason(f"{header}.{forged}.{signature}") == "signature"


def test_unknown_kid_is_refused():
    assert _reason(_sign(_claims(), header={"alg": "RS256", "kid": "other"})) == "key"


def test_issuer_must_match():
    assert _reason(_sign(_claims(iss="https://evil.example.test/"))) == "iss"
    assert _reason(_sign(_claims(iss=...))) == "iss"


@pytest.mark.parametrize("sub", [..., "", None])
def test_subject_must_be_present(sub):
    assert _reason(_sign(_claims(sub=sub))) == "sub"


@pytest.mark.parametrize("aud", [..., "other-client", ["other-client", "api"], 42])
def test_audience_must_contain_the_client(aud):
    assert _reason(_sign(_claims(aud=aud))) == "aud"


def test_audience_as_a_list_with_only_the_client_is_accepted():
    assert _validate(_sign(_claims(aud=[CLIENT])))["aud"] == [CLIENT]


def test_several_audiences_need_azp_equal_to_the_client():
    audiences = [CLIENT, "https://api.example.test"]
    assert _reason(_sign(_claims(aud=audiences))) == "azp"
    assert _reason(_sign(_claims(aud=audiences, azp="other-client"))) == "azp"
    assert _validate(_sign(_claims(aud=audiences, azp=CLIENT)))["azp"] == CLIENT


def test_azp_present_must_be_the_client_even_with_one_audience():
    assert _reason(_sign(_claims(azp="other-client"))) == "azp"


@pytest.mark.parametrize("nonce", [..., "another-nonce"])
def test_nonce_must_match(nonce):
    assert _reason(_sign(_claims(nonce=nonce))) == "nonce"


@pytest.mark.parametrize("exp", [..., "1800003600", None, True])
def test_exp_must_be_a_number(exp):
    assert _reason(_sign(_claims(exp=exp))) == "exp_type"


@pytest.mark.parametrize("iat", [..., "1799999990", None])
def test_iat_must_be_a_number(iat):
    assert _reason(_sign(_claims(iat=iat))) == "iat_type"


def test_expiry_accepted_inside_the_leeway_and_refused_beyond():
    assert _validate(_sign(_claims(exp=NOW - 59)))
    assert _validate(_sign(_claims(exp=NOW - 60)))
    assert _reason(_sign(_claims(exp=NOW - 61))) == "expired"


def test_not_before_accepted_inside_the_leeway_and_refused_beyond():
    assert _validate(_sign(_claims(nbf=NOW + 60)))
    assert _reason(_sign(_claims(nbf=NOW + 61))) == "nbf"
    assert _reason(_sign(_claims(nbf="soon"))) == "nbf"


def test_max_age_checks_auth_time_with_the_leeway():
    assert _validate(_sign(_claims(auth_time=NOW - 360)), max_age=300)
    assert _reason(_sign(_claims(auth_time=NOW - 361)), max_age=300) == "auth_time"
    assert _reason(_sign(_claims(auth_time=...)), max_age=300) == "auth_time"
    assert _validate(_sign(_claims(auth_time=...)))  # no max_age asked: not required


def test_refresh_grant_tokens_skip_the_nonce_only():
    assert _validate(_sign(_claims(nonce=...)), nonce=None)
    assert _reason(_sign(_claims(iss="https://evil.example.test/")), nonce=None) == "iss"


# ----------------------------------------------------------------------- back-channel logout tokens

EVENT = {"http://schemas.openid.net/event/backchannel-logout": {}}


def _logout_claims(**changes):
    claims = {"iss": ISSUER, "aud": CLIENT, "sub": "auth0|42", "iat": NOW - 5, "jti": "j1", "events": EVENT}
    claims.update(changes)
    return {k: v for k, v in claims.items() if v is not ...}


def _validate_logout(token):
    from marketing_site.services.id_token import validate_logout_token

    return validate_logout_token(token, jwks=JWKS, issuer=ISSUER, client_id=CLIENT, now=NOW)


def test_a_logout_token_is_accepted():
    assert _validate_logout(_sign(_logout_claims()))["sub"] == "auth0|42"


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"iss": "https://evil.example/"}, "iss"),
        ({"aud": "another-client"}, "aud"),
        ({"iat": ...}, "iat_type"),
        ({"iat": NOW + 3600}, "iat_type"),
        ({"exp": NOW - 3600}, "expired"),
        ({"events": ...}, "events"),
        ({"events": {"http://schemas.openid.net/event/other": {}}}, "events"),
        ({"nonce": NONCE}, "nonce"),  # an ID token does not pass for a logout token
        ({"sub": ...}, "sub"),
        ({"jti": ...}, "jti"),  # required (Back-Channel Logout 1.0 §2.4): replays are refused by it
        ({"jti": ""}, "jti"),
        ({"jti": 42}, "jti"),
        ({"jti": "j" * 257}, "jti"),
        ({"iat": NOW - 600 - 61}, "iat_age"),  # its jti could have been forgotten since
    ],
)
def test_a_bad_logout_token_is_refused(changes, reason):
    with pytest.raises(IdTokenError) as error:
        _validate_logout(_sign(_logout_claims(**changes)))
    assert error.value.reason == reason


def test_a_logout_token_signed_by_another_key_is_refused():
    with pytest.raises(IdTokenError) as error:
        _validate_logout(_sign(_logout_claims(), key=OTHER_KEY))
    assert error.value.reason == "signature"


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"sub": ""}, "sub"),
        ({"sub": 42}, "sub"),
        ({"exp": "later"}, "expired"),
        ({"exp": NOW - 61}, "expired"),
        ({"iat": NOW + 61}, "iat_type"),
        ({"iat": "now"}, "iat_type"),
        ({"aud": ["another-client", "api"]}, "aud"),
    ],
)
def test_a_logout_token_is_refused_at_each_boundary(changes, reason):
    with pytest.raises(IdTokenError) as error:
        _validate_logout(_sign(_logout_claims(**changes)))
    assert error.value.reason == reason


@pytest.mark.parametrize(
    "changes",
    [
        {"exp": NOW + 600},
        {"exp": NOW - 60},  # inside the leeway
        {"exp": NOW - 30},
        {"iat": NOW + 60},  # a provider's clock a minute ahead
        {"aud": [CLIENT, "https://api.example.test"]},
    ],
)
def test_a_logout_token_is_accepted_inside_each_boundary(changes):
    assert _validate_logout(_sign(_logout_claims(**changes)))["sub"] == "auth0|42"


def test_a_logout_token_is_judged_at_the_time_given():
    from marketing_site.services.id_token import validate_logout_token

    # Expired at `later`, yet issued recently enough (the replay window of a logout token's iat,
    # 10 minutes) that the expiry, not the age, is what refuses it.
    token = _sign(_logout_claims(iat=NOW, exp=NOW + 60))
    later = NOW + 300
    with pytest.raises(IdTokenError) as error:
        validate_logout_token(token, jwks=JWKS, issuer=ISSUER, client_id=CLIENT, now=later)
    assert error.value.reason == "expired"
