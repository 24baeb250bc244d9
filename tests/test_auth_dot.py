"""Login, refresh, logout and the start-up self-check against django-oauth-toolkit 3.4.1.

A second real provider beside the certified one (tests/test_auth_certified.py): a widely
deployed provider, not certified, in its usual set-up (tests/oidc-dot: RS256, PKCE S256 only,
rotating refresh tokens, RP-Initiated Logout asking before every logout, its consent page at
every login, the RFC 9207 `iss` parameter, a `roles` claim). Issue 34 walked the login against
it; these are its failures, kept fixed:

- DOT answers `prompt=none` with HTTP 500 for a user logged in there, and a logout with an
  `id_token_hint` it no longer knows with a 400 page: neither may strand the visitor;
- without `offline_access` among its scopes it refuses a login that asks for it;
- RFC 9207: a wrong or missing `iss` on the callback is refused.

The session's site is restarted once pointed at this provider (its silent check off, the
default), and again for the last test (a provider without offline_access: discovery is read at
start). The provider itself restarts with other knobs in a few seconds, its sessions kept.
"""

from __future__ import annotations

import html
import re
import time
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import httpx2
import pytest
from provider_walks import (
    PASSWORDS,
    a_page_load_ends_the_revoked_session,
    latest_session,
    logged_in_on,
    open_browser,
    provider_fixture,
    query_of,
    session_of,
    session_secret,
    shows_logged_in,
    sign_in,
    wait_for,
)
from servers import DOT_CLIENT_ID, DOT_CLIENT_SECRET, DotProvider

from marketing_site import logs
from marketing_site.services import sessions

pytestmark = pytest.mark.browser

dot = provider_fixture("dot", DotProvider, 80, DOT_CLIENT_ID, DOT_CLIENT_SECRET)


def _open(new_page, locale: str = "fr-FR"):
    return open_browser(new_page, DotProvider.authorize_path, locale)


def _logged_in_on(new_page, site: str, path: str, user: str = "camille", locale: str = "fr-FR"):
    return logged_in_on(new_page, site, path, DotProvider.authorize_path, user, locale)


# ----------------------------------------------------------------------------- login


def test_login_from_an_english_and_a_french_page_comes_back_there_with_names_and_roles(new_page, site, dot):
    """The scope and consent the site asks for, the `iss` DOT sends (RFC 9207) accepted, the
    names and roles from DOT's claims, and a clean address bar on the page the login began."""
    dot.provider.restart()
    page, authorize = _logged_in_on(new_page, site, "/en/pricing", locale="en-GB")
    params = query_of(authorize[0])
    assert params["scope"] == "openid profile email offline_access" and params["prompt"] == "consent"
    assert params["code_challenge_method"] == "S256"
    assert page.url == site + "/en/pricing"  # no code, state or iss left in the address bar
    assert shows_logged_in(page)
    user = session_of(page, site)["user"]
    assert (user["given_name"], user["family_name"], user["roles"]) == ("Camille", "Durand", ["ADVISOR"])
    page, _ = _logged_in_on(new_page, site, "/compare?x=1", user="alex")
    assert page.url == site + "/compare?x=1" and shows_logged_in(page)
    assert session_of(page, site)["user"]["roles"] == ["SITE_ADMIN"]


# ----------------------------------------------------------------------------- refresh


def test_short_tokens_are_refreshed_and_rotated_and_the_visitor_stays_logged_in(new_page, site, site_server, dot):
    """8 s access tokens (a quarter of that early: renewed after 6 s): two refreshes, each
    rotating the refresh token (DOT refuses a spent one), the visitor logged in throughout."""
    dot.provider.restart(DOT_ACCESS_TTL="8")
    earlier = len(dot.provider.requests("/o/token/"))  # the site's start-up self-check among them
    page, _ = _logged_in_on(new_page, site, "/compare")
    id_hash, sealed = latest_session(site_server)
    tokens = [sessions.unseal(sealed, session_secret())]
    for _ in range(2):
        before = len(dot.provider.requests("/o/token/"))
        time.sleep(6.5)
        page.reload()

        def rotated() -> bool:
            rows = site_server.query("SELECT refresh_token FROM auth_session WHERE id_hash = ?", id_hash)
            assert rows, "the session ended"
            return sessions.unseal(rows[0][0], session_secret()) != tokens[-1]

        wait_for(rotated, 20, "the expired access token was not refreshed")
        tokens.append(sessions.unseal(latest_session(site_server)[1], session_secret()))
        assert len(dot.provider.requests("/o/token/")) == before + 1
        assert shows_logged_in(page) and session_of(page, site)["isAuthenticated"]
    assert len(set(tokens)) == 3 and page.get_by_test_id("auth-error").count() == 0
    assert [line[-3:] for line in dot.provider.requests("/o/token/")[earlier:]] == ["200"] * 3


# ----------------------------------------------------------------------------- logout


def _log_out(page, site: str) -> list[str]:
    """The navbar's logout, DOT's confirmation (it asks before every logout), back at the site;
    the addresses the browser went through."""
    visited: list[str] = []
    page.on("framenavigated", lambda frame: visited.append(frame.url) if frame == page.main_frame else None)
    page.get_by_test_id("logout").click()
    page.wait_for_url(re.compile(r".*/o/logout/.*"))
    page.locator("input[name=allow]").click()
    page.wait_for_url(site + "/")
    return visited


def test_logging_out_on_two_devices_comes_back_to_the_site_from_both(new_page, site, dot):
    """DOT deletes every token of the user at any logout: the second device's ID token is then
    unknown to it, and an `id_token_hint` would get its 400 page. The site sends the hint only
    while DOT still accepts the session's tokens, so both devices come back, logged out, to the
    home page without `?state=`."""
    dot.provider.restart()
    first, _ = _logged_in_on(new_page, site, "/compare")
    second, _ = _logged_in_on(new_page, site, "/en/pricing", locale="en-GB")
    assert shows_logged_in(first) and shows_logged_in(second)

    visited = _log_out(first, site)
    asked = query_of(next(url for url in visited if "/o/logout/" in url))
    assert asked["id_token_hint"].count(".") == 2 and asked["client_id"] == DOT_CLIENT_ID
    assert "state" not in asked and first.url == site + "/"
    assert not session_of(first, site)["isAuthenticated"] and not shows_logged_in(first, wait=4)

    visited = _log_out(second, site)
    asked = query_of(next(url for url in visited if "/o/logout/" in url))
    assert "id_token_hint" not in asked, "DOT no longer knows this ID token: its 400 page would keep the visitor"
    assert asked["client_id"] == DOT_CLIENT_ID and asked["post_logout_redirect_uri"] == site + "/"
    assert second.url == site + "/" and not session_of(second, site)["isAuthenticated"]
    assert not any(line.endswith(" 400") for line in dot.provider.requests("/o/logout/"))
    # DOT's own session ended too: a login from this browser asks for the password again.
    second.goto(site + "/compare")
    second.get_by_test_id("nav-login").click()
    second.locator("#id_username").wait_for()


# ----------------------------------------------------------------------------- a session gone


def test_a_revoked_grant_then_a_page_load_leaves_the_visitor_on_the_page_logged_out(new_page, site, site_server, dot):
    """The grant is revoked at DOT (its revocation endpoint, RFC 7009) while DOT's session in the
    browser lives on: a `prompt=none` check would get DOT's HTTP 500 page. The next page load
    refreshes, DOT answers invalid_grant, and the visitor stays on the page, logged out, the
    "logged in" marker gone, without a request to DOT's authorize endpoint."""
    dot.provider.restart()
    page, authorize = _logged_in_on(new_page, site, "/compare")
    id_hash, sealed = latest_session(site_server)
    revoked = httpx2.post(
        dot.provider.issuer + "/revoke_token/",
        data={"token": sessions.unseal(sealed, session_secret()), "token_type_hint": "refresh_token"},
        auth=(DOT_CLIENT_ID, DOT_CLIENT_SECRET),
    )
    assert revoked.status_code == 200
    a_page_load_ends_the_revoked_session(page, site_server, id_hash)
    page.goto(site + "/en/pricing")
    assert page.url == site + "/en/pricing" and not shows_logged_in(page, wait=4)
    assert len(authorize) == 1  # the login only: nothing sent the visitor to DOT again
    assert page.get_by_test_id("auth-error").count() == 0


def test_the_trial_renews_an_expired_token_by_an_ordinary_login_not_prompt_none(new_page, site, site_server, dot):
    """Without the silent check the trial's Valider, which needs a fresh access token, renews
    it by an ordinary login: DOT's session is alive, so DOT asks only its consent, and the
    visitor is back on the trial page; prompt=none (HTTP 500 at DOT) is never sent."""
    dot.provider.restart()
    page, authorize = _open(new_page)
    page.goto(site + "/start-free-trial")
    sign_in(page)
    page.wait_for_url(site + "/start-free-trial")
    page.wait_for_function("() => document.querySelector('#trial-lastName')?.value === 'Durand'")
    site_server.query("UPDATE auth_session SET access_expires_at = ?, refresh_token = NULL", time.time() - 1)
    page.get_by_test_id("trial-submit").click()
    page.locator("input[name=allow]").click()  # DOT's consent again; its session needs no password
    page.wait_for_url(site + "/start-free-trial")
    assert len(authorize) == 2 and all(query_of(url).get("prompt") != "none" for url in authorize)
    assert not any(" 500" in line for line in dot.provider.requests("/o/authorize/"))


# ----------------------------------------------------------------------------- RFC 9207


def _hidden_fields(page_html: str) -> dict[str, str]:
    fields = {}
    for tag in re.findall(r"<input[^>]*>", page_html):
        name, value = re.search(r'name="([^"]*)"', tag), re.search(r'value="([^"]*)"', tag)
        if name and 'type="hidden"' in tag:
            fields[name.group(1)] = html.unescape(value.group(1)) if value else ""
    return fields


def _callback_from_dot(site: str, user: str = "camille") -> tuple[httpx2.Client, str]:
    """A login started at the site and granted at DOT over HTTP: the site's client (its binding
    cookie) and DOT's redirect to the site's callback, not followed yet."""
    client = httpx2.Client(base_url=site)
    authorize = client.get("/auth/login", params={"return_to": "/compare"}).headers["location"]
    with httpx2.Client() as browser:
        to_login = browser.get(authorize)
        login_url = urljoin(authorize, to_login.headers["location"])
        form = _hidden_fields(browser.get(login_url).text)
        signed = browser.post(login_url, data={**form, "username": user, "password": PASSWORDS[user]})
        assert signed.status_code == 302, signed.text[-500:]
        consent = browser.get(urljoin(login_url, signed.headers["location"]))
        granted = browser.post(consent.url, data={**_hidden_fields(consent.text), "allow": "Authorize"})
    assert granted.status_code == 302, granted.text[-500:]
    return client, granted.headers["location"]


def _with_iss(url: str, iss: str | None) -> str:
    parts = urlsplit(url)
    query = [(k, v[0]) for k, v in parse_qs(parts.query).items() if k != "iss"]
    if iss is not None:
        query.append(("iss", iss))
    return parts._replace(query=urlencode(query)).geturl()


@pytest.mark.parametrize("iss", ["http://127.0.0.1:9/o", "<issuer>/", None])
def test_a_callback_whose_iss_is_wrong_or_missing_is_refused_and_logged(site, dot, iss):
    """DOT advertises `authorization_response_iss_parameter_supported`: a response naming
    another issuer (a mix-up attack), or none, is refused before its code is exchanged, with a
    log line quoting both issuers in full; the unaltered response logs in."""
    dot.provider.restart()
    client, callback = _callback_from_dot(site)
    assert query_of(callback)["iss"] == dot.provider.issuer
    offset = dot.site_log_size()
    tokens_before = len(dot.provider.requests("/o/token/"))
    tampered = _with_iss(callback, iss.replace("<issuer>", dot.provider.issuer) if iss else None)
    response = client.get(tampered)
    assert "nereo_auth_error=login_failed" in response.headers["set-cookie"]
    assert "nereo_session=" not in response.headers["set-cookie"]
    assert client.get("/auth/session").json()["isAuthenticated"] is False
    assert len(dot.provider.requests("/o/token/")) == tokens_before  # the code was never sent
    wait_for(lambda: "login refused" in dot.site_log_since(offset), 10, "no log line")
    line = next(line for line in dot.site_log_since(offset).splitlines() if "login refused" in line)
    assert repr(dot.provider.issuer) in line and ("WARNING" in line)
    if iss:
        assert repr(query_of(tampered)["iss"]) in line  # the wrong one, in full
    client, callback = _callback_from_dot(site)
    assert client.get(callback).status_code == 200 and client.get("/auth/session").json()["isAuthenticated"]


def test_the_issuer_mismatch_of_a_trailing_slash_is_logged_in_full(dot):
    """Issue 34: the log cut both issuers to "http://127.0.0.1:9600/…". The start-up self-check
    against DOT with OIDC_ISSUER one slash off names both whole, and the setting to change."""
    import logging

    from test_auth_services import _run

    from marketing_site.services import oidc
    from marketing_site.settings import get_settings

    party = oidc.RelyingParty(
        get_settings().replace(
            oidc_issuer=dot.provider.issuer + "/", oidc_client_id=DOT_CLIENT_ID, oidc_client_secret=DOT_CLIENT_SECRET
        )
    )
    problems = _run(party.self_check())
    record = logging.makeLogRecord(
        {"msg": "OIDC self-check: %s", "args": (problems[0],), "levelname": "ERROR", **party.log_values()}
    )
    line = logs.RedactingFormatter().format(record)
    assert f"{dot.provider.issuer!r} is not OIDC_ISSUER {dot.provider.issuer + '/'!r}" in line
    assert "OIDC_ISSUER to exactly the discovered one" in line and "…" not in line


# ----------------------------------------------------------------------------- no offline_access


def test_without_offline_access_the_self_check_says_so_and_the_site_logs_in_and_refreshes(
    new_page, site, site_server, dot
):
    """DOT without `offline_access` among its scopes (as many deployments): a site that still
    asks for it gets `invalid_scope`, logged at ERROR as the operator's to fix with the setting
    to change. Restarted, the site reads discovery: the self-check warns naming
    OIDC_USE_REFRESH_TOKENS, the login asks without offline_access (nor consent), and DOT's
    refresh tokens are used all the same. Last: it costs a restart of the site."""
    dot.provider.restart(DOT_OFFLINE_ACCESS_SCOPE="0", DOT_ACCESS_TTL="8")
    offset = dot.site_log_size()
    page, authorize = _open(new_page)
    page.goto(site + "/compare")
    page.get_by_test_id("nav-login").click()
    page.locator("#id_username").fill("camille")
    page.locator("#id_password").fill(PASSWORDS["camille"])
    page.locator("input[type=submit]").click()
    page.wait_for_url(re.compile(re.escape(site) + r"/connexion.*"))
    assert page.get_by_test_id("auth-error").inner_text() == "Login failed"
    wait_for(lambda: "invalid_scope" in dot.site_log_since(offset), 10, "no log line for invalid_scope")
    line = next(line for line in dot.site_log_since(offset).splitlines() if "invalid_scope" in line)
    assert '"level": "ERROR"' in line and "OIDC_USE_REFRESH_TOKENS to false" in line, line

    offset = dot.site_log_size()
    site_server.stop()
    site_server.start()
    wait_for(lambda: "accepts client" in dot.site_log_since(offset), 90, "the self-check did not end")
    startup = dot.site_log_since(offset)
    warning = next(line for line in startup.splitlines() if "offline_access scope" in line)
    assert '"level": "WARNING"' in warning and "OIDC_USE_REFRESH_TOKENS to false" in warning
    assert "OIDC self-check: provider " + dot.provider.issuer in startup  # the issuer in full

    page, authorize = _logged_in_on(new_page, site, "/compare")
    params = query_of(authorize[0])
    assert params["scope"] == "openid profile email" and "prompt" not in params
    sealed = latest_session(site_server)[1]
    assert sealed is not None  # DOT issued a refresh token without offline_access
    time.sleep(6.5)
    page.reload()
    wait_for(
        lambda: latest_session(site_server)[1] != sealed,
        20,
        "the expired access token was not refreshed",
    )
    assert shows_logged_in(page) and session_of(page, site)["isAuthenticated"]
