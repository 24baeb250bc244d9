"""Where the logout sends the browser, from a real loopback provider's discovery: the
advertised end_session_endpoint (RP-Initiated Logout), Auth0's /v2/logout, or nowhere."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from test_auth_services import _party, _Provider, _run


def _query(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query, keep_blank_values=True)


def test_an_endpoint_with_a_query_of_its_own_keeps_it_and_gets_ours_after_an_ampersand():
    provider = _Provider(extra_metadata={"end_session_endpoint": "http://127.0.0.1:9/logout?realm=nereo"})
    try:
        party = _party(provider.issuer, site_url="https://www.example.test")
        url = _run(party.logout_url(id_token_hint=None))
        assert url.startswith("http://127.0.0.1:9/logout?realm=nereo&")
        assert _query(url) == {
            "realm": ["nereo"],
            "client_id": ["c"],
            "post_logout_redirect_uri": ["https://www.example.test/"],
        }  # no hint given: none sent
        hinted = _query(_run(party.logout_url(id_token_hint="i.d.t", logout_hint="O.aXNz")))
        assert hinted["id_token_hint"] == ["i.d.t"] and hinted["logout_hint"] == ["O.aXNz"]
    finally:
        provider.close()


def test_an_empty_end_session_endpoint_is_no_endpoint():
    provider = _Provider(extra_metadata={"end_session_endpoint": ""})
    try:
        assert _run(_party(provider.issuer).logout_url(id_token_hint="i.d.t")) is None
    finally:
        provider.close()


def test_auth0_logout_from_an_issuer_with_its_trailing_slash():
    """Auth0's issuers end with "/" (https://tenant.auth0.com/): one slash before v2/logout."""
    provider = _Provider()
    provider.issuer += "/"  # discovery names it so, and the site is configured with it
    try:
        party = _party(provider.issuer, oidc_compat="auth0", site_url="https://www.example.test")
        url = _run(party.logout_url(id_token_hint="i.d.t"))
        assert url.startswith(provider.issuer + "v2/logout?")
        assert _query(url) == {"client_id": ["c"], "returnTo": ["https://www.example.test/"]}  # no federated
        assert _run(party.logout_url(id_token_hint=None, federated=True)).endswith("&federated")
    finally:
        provider.close()


def test_auth0_uses_the_advertised_endpoint_when_there_is_one():
    provider = _Provider(extra_metadata={"end_session_endpoint": "http://127.0.0.1:9/oidc/logout"})
    try:
        url = _run(_party(provider.issuer, oidc_compat="auth0").logout_url(id_token_hint=None))
        assert url.startswith("http://127.0.0.1:9/oidc/logout?") and "returnTo" in _query(url)
    finally:
        provider.close()
