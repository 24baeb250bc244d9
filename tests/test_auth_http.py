"""The /auth/ routes over HTTP against the production server and the real provider (loopback)."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from conftest import TRIAL_USER

REFRESH = re.compile(r'http-equiv="refresh" content="0;url=([^"]*)"')


def _query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def _start(client: httpx2.Client, **params) -> str:
    response = client.get("/auth/login", params=params)
    assert response.status_code == 302
    return response.headers["location"]


def _authorize(authorize_url: str, sub: str = TRIAL_USER["sub"]) -> str:
    """Log in at the provider; its redirect to our callback."""
    response = httpx2.post(authorize_url.split("#")[0], data={"sub": sub})
    assert response.status_code == 302, response.text
    return response.headers["location"]


def _target(response: httpx2.Response) -> str:
    assert response.status_code == 200
    return html.unescape(REFRESH.search(response.text).group(1))


def _login(site: str, **params) -> tuple[httpx2.Client, str, httpx2.Response]:
    client = httpx2.Client(base_url=site)
    callback = _authorize(_start(client, **params))
    response = client.get(callback)
    return client, callback, response


@pytest.mark.parametrize(
    "evil", ["//evil.com", "https://evil.com", "/\\evil.com", "/\t/evil.com", "http:evil.com", "evil.com/x"]
)
def test_open_redirect_attempts_are_refused(site, evil):
    _, _, response = _login(site, return_to=evil)
    assert _target(response) == "/"


def test_saved_path_and_query_are_kept(site):
    client, _, response = _login(site, return_to="/compare?x=1&y=%C3%A9")
    assert _target(response) == "/compare?x=1&y=%C3%A9"
    assert client.get("/auth/session").json()["isAuthenticated"] is True


def test_session_cookies_flags(site):
    _, _, response = _login(site, return_to="/")
    set_cookies = response.headers.get_list("set-cookie")
    session = next(c for c in set_cookies if c.startswith("nereo_session="))
    marker = next(c for c in set_cookies if c.startswith("nereo.is.authenticated="))
    assert "HttpOnly" in session and "SameSite=lax" in session and "Path=/" in session
    assert "HttpOnly" not in marker and "Max-Age=86400" in marker
    assert "Secure" not in session  # http here; Secure whenever SITE_URL is https


def test_session_info_never_shows_tokens(site):
    client, _, _ = _login(site)
    body = client.get("/auth/session").json()
    assert body["user"]["given_name"] == "Camille"
    assert not {"access_token", "id_token", "refresh_token", "nonce"} & set(body["user"])


def test_refreshing_the_callback_gives_invalid_state_not_an_error(site):
    client, callback, _ = _login(site)
    again = client.get(callback)
    assert _target(again) == "/connexion"
    assert "nereo_auth_error=invalid_state" in again.headers["set-cookie"]


def test_callback_replayed_in_another_browser_is_invalid_state(site):
    client = httpx2.Client(base_url=site)
    callback = _authorize(_start(client))
    response = httpx2.Client(base_url=site).get(callback)  # no binding cookie: login CSRF refused
    assert "nereo_auth_error=invalid_state" in response.headers["set-cookie"]
    assert "nereo_session" not in response.headers["set-cookie"]


def test_callback_without_query_is_the_no_query_error(site):
    response = httpx2.get(site + "/auth/callback")
    assert _target(response) == "/connexion"
    assert "nereo_auth_error=no_query" in response.headers["set-cookie"]


def test_interactive_provider_error_is_login_failed(site):
    client = httpx2.Client(base_url=site)
    state = _query(_start(client, return_to="/compare"))["state"]
    response = client.get("/auth/callback", params={"error": "server_error", "state": state})
    assert "nereo_auth_error=login_failed" in response.headers["set-cookie"]
    assert _target(response) == "/connexion?return_to=%2Fcompare"


def test_silent_check_uses_prompt_none_and_removes_the_marker_first(site):
    client = httpx2.Client(base_url=site, cookies={"nereo.is.authenticated": "true"})
    response = client.get("/auth/silent", params={"return_to": "/compare"})
    assert response.status_code == 302
    assert _query(response.headers["location"])["prompt"] == "none"
    assert 'nereo.is.authenticated=""' in response.headers["set-cookie"]
    callback = httpx2.get(response.headers["location"]).headers["location"]
    assert "error=login_required" in callback
    back = client.get(callback)
    assert _target(back) == "/compare"  # swallowed: anonymous, no error message
    assert "nereo_auth_error" not in back.headers.get("set-cookie", "")


def test_logout_local_only_clears_session_and_marker(site):
    client, _, _ = _login(site)
    response = client.post("/auth/logout", data={"local_only": "1"})
    assert response.status_code == 303 and response.headers["location"] == "/"
    cleared = response.headers.get_list("set-cookie")
    assert any(c.startswith('nereo_session=""') for c in cleared)
    assert any(c.startswith('nereo.is.authenticated=""') for c in cleared)
    assert client.get("/auth/session").json()["isAuthenticated"] is False


@pytest.mark.parametrize("federated", [False, True])
def test_logout_at_the_provider(site, auth_services, federated):
    """RP-Initiated Logout: id_token_hint, the registered post-logout URL (home page, trailing
    slash) and state. `federated` is Auth0's (OIDC_COMPAT=auth0) and is not sent otherwise."""
    client, _, _ = _login(site)
    response = client.post("/auth/logout", data={"federated": "1"} if federated else {})
    location = response.headers["location"]
    assert location.startswith(f"http://127.0.0.1:{auth_services['provider_port']}/oauth2/end_session?")
    params = _query(location)
    assert params["client_id"] == "nereo-dev" and params["post_logout_redirect_uri"] == site + "/"
    assert params["id_token_hint"].count(".") == 2 and "state" not in params
    assert "returnTo" not in params and "federated" not in params
    assert client.get("/auth/session").json()["isAuthenticated"] is False


def test_logout_with_both_flags_is_an_error_and_keeps_the_session(site):
    client, _, _ = _login(site)
    response = client.post("/auth/logout", data={"federated": "1", "local_only": "1"})
    assert response.status_code == 400
    assert "federated" in response.text and "localOnly" in response.text
    assert client.get("/auth/session").json()["isAuthenticated"] is True


def test_logout_is_not_a_get(site):
    """A link or image elsewhere cannot log the visitor out."""
    client, _, _ = _login(site)
    assert client.get("/auth/logout").status_code in (404, 405)
    assert client.get("/auth/session").json()["isAuthenticated"] is True


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
        {"Sec-Fetch-Site": "same-site", "Origin": "https://sub.nereo-wealth.fr"},
        # The browser's word comes first: a matching Origin does not make a cross-site request ours.
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_cross_site_logout_is_refused_and_keeps_the_session(site, headers):
    """A form on another site cannot end the visitor's session (nor, with federated=1, the provider's)."""
    client, _, _ = _login(site)
    response = client.post("/auth/logout", data={"federated": "1"}, headers=headers)
    assert response.status_code == 403
    assert "set-cookie" not in response.headers and "location" not in response.headers
    assert client.get("/auth/session").json()["isAuthenticated"] is True


@pytest.mark.parametrize("headers", [{"Sec-Fetch-Site": "same-origin", "Origin": "null"}, {}, {"Origin": "<site>"}])
def test_a_logout_from_the_site_itself_or_a_non_browser_client_goes_through(site, headers):
    client, _, _ = _login(site)
    headers = {name: value.replace("<site>", site) for name, value in headers.items()}
    response = client.post("/auth/logout", data={"local_only": "1"}, headers=headers)
    assert response.status_code == 303
    assert client.get("/auth/session").json()["isAuthenticated"] is False
