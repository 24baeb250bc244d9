"""Login, refresh, logout after expiry, a revoked grant and a provider that is down, against
django-oidc-provider 0.9.0: the third real provider, beside the certified one and
django-oauth-toolkit (tests/provider_walks.py holds the walk they share).

What sets it apart for a relying party (tests/oidc-djop): its end-session endpoint finds the
client through `id_token_hint` only (it ignores `client_id`: without the hint the visitor is
left on its own "You've been logged out" page), it shows its consent page for `prompt=consent`,
issues refresh tokens whatever the scope, and has no single logout. Issue 39 found the site
dropping the hint once the access token had expired (points 11, 14) and sending the visitor to
the browser's connection-refused page when the provider was down (point 12).

The session's site is restarted once, pointed at it. The access token's expiry is the site's
record of it (set a second in the past), so no test waits for a lifetime to run out.
"""

from __future__ import annotations

import time

import httpx2
import pytest
from prometheus_client.parser import text_string_to_metric_families
from provider_walks import (
    a_page_load_ends_the_revoked_session,
    cookies_of,
    expire_access_token,
    latest_session,
    provider_fixture,
    query_of,
    session_of,
    shows_logged_in,
    wait_for,
)
from servers import DJOP_CLIENT_ID, DJOP_CLIENT_SECRET, METRICS_TOKEN, DjopProvider

from marketing_site.content.words import words
from marketing_site.services import provider_reachability, sessions

pytestmark = pytest.mark.browser

END_SESSION = "/openid/end-session"

djop = provider_fixture("djop", DjopProvider, 81, DJOP_CLIENT_ID, DJOP_CLIENT_SECRET)


def _log_out(page) -> list[str]:
    """The navbar's logout; the addresses the browser asked for on its way (redirects included)."""
    visited: list[str] = []
    page.on("request", lambda request: visited.append(request.url) if request.is_navigation_request() else None)
    page.get_by_test_id("logout").click()
    return visited


def _unreachable(site: str, route: str) -> float:
    answer = httpx2.get(site + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=20)
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            if sample.name == "site_oidc_provider_unreachable_total" and sample.labels.get("route") == route:
                return sample.value
    return 0.0


def test_login_from_an_english_page_then_a_refresh_keep_names_and_roles(new_page, site, site_server, djop):
    """The scope with offline_access and prompt=consent (djop's discovery lists no scopes),
    names from UserInfo and roles from the ID token; an expired access token is then refreshed
    at the next page load (djop's refresh grant), and the visitor stays logged in."""
    page, authorize = djop.logged_in_on(new_page, "/en/pricing", locale="en-GB")
    params = query_of(authorize[0])
    assert params["scope"] == "openid profile email offline_access" and params["prompt"] == "consent"
    assert page.url == site + "/en/pricing" and shows_logged_in(page)
    user = session_of(page, site)["user"]
    assert (user["given_name"], user["family_name"], user["roles"]) == ("Camille", "Durand", ["ADVISOR"])

    id_hash, sealed = latest_session(site_server)
    tokens_before = len(djop.provider.requests("/openid/token"))
    expire_access_token(site_server, id_hash)
    page.reload()
    wait_for(lambda: latest_session(site_server)[1] != sealed, 20, "the expired access token was not refreshed")
    assert len(djop.provider.requests("/openid/token")) == tokens_before + 1
    assert shows_logged_in(page) and session_of(page, site)["isAuthenticated"]
    assert page.get_by_test_id("auth-error").count() == 0


@pytest.mark.parametrize("refresh_token", [True, False], ids=["refreshed-first", "no-refresh-token"])
def test_logout_after_the_access_token_expired_comes_back_to_the_site(new_page, site, site_server, djop, refresh_token):
    """djop finds the client only through `id_token_hint`: the site keeps the hint whatever
    the access token's state. With a refresh token it refreshes first (and sends the new ID
    token); without one it sends the one it has (an expired ID token is still a valid hint,
    RP-Initiated Logout 1.0 §2). Either way djop ends its session and sends the visitor home,
    where the site's session is gone too."""
    page, _ = djop.logged_in_on(new_page, "/compare", user="alex")
    id_hash, _ = latest_session(site_server)
    expire_access_token(site_server, id_hash, keep_refresh_token=refresh_token)
    tokens_before = len(djop.provider.requests("/openid/token"))
    visited = _log_out(page)
    page.wait_for_url(site + "/")
    asked = query_of(next(url for url in visited if END_SESSION in url))
    assert asked["id_token_hint"].count(".") == 2, "without the hint djop keeps the visitor on its own page"
    assert asked["post_logout_redirect_uri"] == site + "/" and "state" not in asked
    assert len(djop.provider.requests("/openid/token")) == tokens_before + (1 if refresh_token else 0)
    assert not session_of(page, site)["isAuthenticated"] and not shows_logged_in(page, wait=4)
    # djop's own session ended: a new login from this browser asks for the password again.
    page.get_by_test_id("nav-login").click()
    page.locator("#id_username").wait_for()


def test_a_revoked_grant_then_a_page_load_leaves_the_visitor_on_the_page_logged_out(new_page, site, site_server, djop):
    """The grant is revoked at djop (its tokens deleted, as its admin does): the next page load
    refreshes, djop answers invalid_grant, and the visitor stays on the page, logged out, the
    marker gone, without being sent to djop again."""
    page, authorize = djop.logged_in_on(new_page, "/compare", user="zoe")
    id_hash, _ = latest_session(site_server)
    djop.provider.shell("from oidc_provider.models import Token; Token.objects.filter(user__username='zoe').delete()")
    a_page_load_ends_the_revoked_session(page, site_server, id_hash)
    assert len(authorize) == 1 and page.url == site + "/compare"
    assert page.get_by_test_id("auth-error").count() == 0


def test_a_refresh_that_meets_another_issuer_logs_both_whole(djop, monkeypatch, caplog):
    """Issue 39: the page load's warning cut the issuers to "http://127.0.0.1:<port>/…". With
    OIDC_ISSUER one slash off djop's (an issuer with a path), the refresh fails on discovery and
    the WARNING names the discovered and the configured issuer whole. No browser."""
    from test_auth_services import _run

    from marketing_site import logs
    from marketing_site.services import oidc
    from marketing_site.settings import get_settings
    from marketing_site.state.auth import log_token_failure

    configured = djop.provider.issuer + "/"
    for name, value in {"OIDC_ISSUER": configured, "OIDC_CLIENT_ID": DJOP_CLIENT_ID, "OIDC_CLIENT_SECRET": "s"}.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    try:
        tokens = sessions.Tokens("id.token.x", "access-1", "refresh-1", time.time() - 10, time.time() - 20)
        with pytest.raises(oidc.TokenFailed) as failure:
            _run(oidc.relying_party().refresh("refresh-1", tokens, "u"))
        with caplog.at_level("WARNING", logger="marketing_site.state.auth"):
            log_token_failure(failure.value)
    finally:
        get_settings.cache_clear()
    line = logs.RedactingFormatter().format(caplog.records[-1])
    assert f"{djop.provider.issuer!r} is not OIDC_ISSUER {configured!r}" in line and "…" not in line, line


def test_with_the_provider_down_login_and_logout_show_the_sites_own_page(new_page, site, site_server, djop):
    """djop stops after the site cached its discovery. Login and Logout ask it first (2 s at
    most, the answer kept a few seconds) and, without an answer, show the site's own page in
    the page's language instead of sending the browser to a refused connection; the site logs
    an ERROR naming the endpoint whole and counts each visitor in
    site_oidc_provider_unreachable_total. The logout still ends the site's session. Last: it
    stops the provider."""
    page, _ = djop.logged_in_on(new_page, "/compare")
    id_hash, _ = latest_session(site_server)
    offset = djop.site_log_size()
    logins, logouts = _unreachable(site, "login"), _unreachable(site, "logout")
    probed = time.monotonic()  # the login asked djop's authorize endpoint
    djop.provider.stop()
    visitor = new_page(locale="en-GB")
    visitor.goto(site + "/en/pricing")
    # Past the time the login's "up" is believed.
    time.sleep(max(0.0, probed + provider_reachability.UP_SECONDS + 0.5 - time.monotonic()))
    visitor.get_by_test_id("nav-login").click()
    visitor.get_by_role("alert").wait_for()
    assert visitor.url.startswith(site + "/auth/login")
    assert visitor.get_by_role("alert").inner_text() == words("en", "messages.auth.provider_unavailable")
    assert _unreachable(site, "login") == logins + 1
    wait_for(lambda: "identity provider unreachable" in djop.site_log_since(offset), 10, "nothing logged")
    line = next(line for line in djop.site_log_since(offset).splitlines() if "identity provider unreachable" in line)
    assert '"level": "ERROR"' in line and repr(djop.provider.issuer + "/authorize") in line, line

    visited = _log_out(page)
    page.get_by_role("alert").wait_for()
    assert page.url == site + "/auth/logout" and not any(END_SESSION in url for url in visited)
    assert page.get_by_role("alert").inner_text() == words("fr", "messages.auth.logged_out_provider_unavailable")
    assert _unreachable(site, "logout") == logouts + 1
    assert site_server.query("SELECT count(*) FROM auth_session WHERE id_hash = ?", id_hash) == [(0,)]
    assert not session_of(page, site)["isAuthenticated"]
    assert sessions.SESSION_COOKIE not in cookies_of(page)
