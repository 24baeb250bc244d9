"""The code exchange against a real loopback provider that checks what a real one checks: the
PKCE verifier and the redirect URI of the authorize request, and, when the login asked for a
max_age, the ID token's auth_time."""

from __future__ import annotations

import time

import pytest
from test_auth_services import _id_token, _party, _Provider, _run, database  # noqa: F401 - the fixture, by name

from marketing_site.services import oidc, sessions


def _checking_provider(transaction_of: dict) -> _Provider:
    def answer(n, form):
        transaction = transaction_of["transaction"]
        if (
            form.get("code_verifier") != transaction.code_verifier
            or form.get("redirect_uri") != transaction.redirect_uri
        ):
            return 400, {"error": "invalid_grant", "error_description": "PKCE or redirect_uri mismatch"}
        id_token = _id_token(provider.issuer, nonce=transaction.nonce, auth_time=transaction_of["auth_time"])
        return 200, {"access_token": "access-1", "id_token": id_token, "expires_in": 3600, "token_type": "Bearer"}

    provider = _Provider(token_answer=answer)
    return provider


def test_the_code_exchange_sends_the_logins_verifier_and_redirect_uri(database):  # noqa: F811 - the fixture
    transaction_of: dict = {"auth_time": int(time.time())}
    provider = _checking_provider(transaction_of)
    try:
        party = _party(provider.issuer)
        transaction = sessions.new_transaction(redirect_uri=party.redirect_uri, return_to="/", binding="b")
        transaction_of["transaction"] = transaction
        assert _run(party.exchange_code("code-1", transaction)).claims["sub"] == "u"
    finally:
        provider.close()


def test_a_login_that_asked_for_max_age_refuses_an_older_authentication(database):  # noqa: F811 - the fixture
    transaction_of: dict = {"auth_time": int(time.time()) - 3600}
    provider = _checking_provider(transaction_of)
    try:
        party = _party(provider.issuer)
        transaction = sessions.new_transaction(redirect_uri=party.redirect_uri, return_to="/", binding="b", max_age=60)
        transaction_of["transaction"] = transaction
        with pytest.raises(oidc.LoginFailed):
            _run(party.exchange_code("code-1", transaction))
        transaction_of["auth_time"] = int(time.time())
        assert _run(party.exchange_code("code-2", transaction)).claims["sub"] == "u"
    finally:
        provider.close()
