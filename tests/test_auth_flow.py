"""Login and trial in Chromium against a real OpenID provider and a manager stub (loopback).

The provider is `oidc-provider-mock` (conftest `auth_services`); each test uses a fresh
browser context, so cookies never leak between tests.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from browser_checks import AUTHORIZE, ROUTE_WIDTHS, SWEEP_WIDTHS, layout_faults, provider_login
from conftest import INVESTOR_USER, TRIAL_USER
from servers import ForeignSite, auto_post_form

pytestmark = pytest.mark.browser


def _query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def test_trial_end_to_end(new_page, site, auth_services):
    manager = auth_services["manager"]
    manager.delay = 1.5
    page = new_page()
    authorize_requests = []
    page.on("request", lambda r: authorize_requests.append(r.url) if AUTHORIZE.match(r.url) else None)

    page.goto(site + "/start-free-trial?x=1")
    page.wait_for_url(AUTHORIZE)
    assert urlsplit(page.url).fragment == "mode=trial"
    params = _query(authorize_requests[0])
    assert params["code_challenge_method"] == "S256"
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", params["code_challenge"])
    assert len(params["state"]) >= 32 and len(params["nonce"]) >= 32
    # The mock provider's discovery does not list offline_access (scopes_supported): the site
    # asks without it, nor prompt=consent (the certified provider's tests see both asked for);
    # no Auth0 audience unless configured.
    assert params["scope"] == "openid profile email" and "prompt" not in params
    assert "audience" not in params
    assert params["response_type"] == "code"
    assert params["redirect_uri"] == site + "/auth/callback"

    provider_login(page, TRIAL_USER)
    page.wait_for_url(site + "/start-free-trial?x=1")
    last_name, first_name = page.locator("#trial-lastName"), page.locator("#trial-firstName")
    page.wait_for_function("() => document.querySelector('#trial-lastName')?.value === 'Durand'")
    assert first_name.input_value() == "Camille"
    assert last_name.input_value() == "Durand"
    assert page.get_by_test_id("logout").count() == 1
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["nereo_session"]["httpOnly"] and cookies["nereo_session"]["sameSite"] == "Lax"
    assert not cookies["nereo.is.authenticated"]["httpOnly"]

    page.locator("#trial-company").fill("Durand Patrimoine")
    page.locator("#trial-phone").fill("+33 1 23 45 67 89")
    button = page.get_by_test_id("trial-submit")
    assert button.inner_text() == "Valider"
    button.click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=trial-submit]')?.innerText === 'Creation de votre environment...'"
    )
    assert button.is_disabled()
    page.wait_for_url(manager.url + "/advisor/onboard")

    registration = manager.registrations()[-1]
    token = registration["headers"]["Authorization"].removeprefix("Bearer ")
    assert len(token) > 20
    assert json.loads(registration["body"]) == {
        "company": "Durand Patrimoine",
        "firstName": "Camille",
        "lastName": "Durand",
        "phone": "+33 1 23 45 67 89",
        "email": TRIAL_USER["email"],
        "picture": TRIAL_USER["picture"],
    }
    assert registration["headers"]["Content-Type"].startswith("application/json")
    # The token never reached the browser: no cookie carries it.
    assert all(token not in c["value"] for c in page.context.cookies())


def test_trial_failure_returns_to_idle_without_message(new_page, site, auth_services):
    manager = auth_services["manager"]
    manager.delay, manager.fail_registrations = 0.8, True
    try:
        page = new_page()
        page.goto(site + "/start-free-trial")
        provider_login(page, TRIAL_USER)
        page.wait_for_url(site + "/start-free-trial")
        page.wait_for_function("() => document.querySelector('#trial-lastName')?.value === 'Durand'")
        before = len(manager.registrations())
        page.get_by_test_id("trial-submit").click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=trial-submit]')?.innerText === 'Creation de votre environment...'"
        )
        page.wait_for_function("() => document.querySelector('[data-testid=trial-submit]')?.innerText === 'Valider'")
        assert len(manager.registrations()) == before + 1
        assert not page.get_by_test_id("trial-submit").is_disabled()
        assert page.url == site + "/start-free-trial"
        assert page.locator("[role=alert]").count() == 0, page.locator("[role=alert]").first.evaluate(
            "e => e.outerHTML"
        )
    finally:
        manager.fail_registrations = False


def test_login_page_sends_email_as_hint_never_the_password_and_role_redirects(new_page, site, auth_services):
    """The investor's role is first (and only) in its list: the original's index>0 missed it."""
    page = new_page()
    requests = []
    page.on("request", lambda r: requests.append((r.url, r.post_data)))
    page.goto(site + "/connexion")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    page.locator("#login-email").fill(INVESTOR_USER["email"])
    page.locator("#login-password").fill("s3cret-Passw0rd")
    page.get_by_role("button", name="Connexion").click()
    page.wait_for_url(AUTHORIZE)
    assert _query(page.url)["login_hint"] == INVESTOR_USER["email"]
    assert not any("s3cret" in (url + (body or "")) for url, body in requests)
    provider_login(page, INVESTOR_USER)
    page.wait_for_url(auth_services["manager"].url + "/investor")
    assert not any("s3cret" in (url + (body or "")) for url, body in requests)


def test_silent_check_provider_error_leaves_visitor_anonymous_without_loop(new_page, site):
    page = new_page()
    page.context.add_cookies([{"name": "nereo.is.authenticated", "value": "true", "url": site}])
    silent, callbacks = [], []
    page.on("request", lambda r: silent.append(r.url) if "/auth/silent" in r.url else None)
    page.on("request", lambda r: callbacks.append(r.url) if "/auth/callback" in r.url else None)
    with page.expect_request(lambda r: "/auth/callback" in r.url):
        page.goto(site + "/compare")
    page.wait_for_url(site + "/compare")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    assert len(callbacks) == 1 and "error=login_required" in callbacks[0]
    assert "nereo.is.authenticated" not in {c["name"] for c in page.context.cookies()}
    page.reload()
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    page.wait_for_timeout(1500)
    assert len(silent) == 1
    assert page.url == site + "/compare"
    assert page.get_by_test_id("logout").count() == 0
    assert page.locator("[role=alert]").count() == 0, page.locator("[role=alert]").first.evaluate("e => e.outerHTML")


def test_callback_with_unknown_state_restarts_login_with_invalid_state(new_page, site):
    page = new_page()
    page.goto(site + "/auth/callback?code=abc&state=not-ours")
    page.wait_for_url(site + "/connexion")
    assert page.get_by_test_id("auth-error").inner_text() == "Invalid state"
    assert page.locator("#login-email").count() == 1


def test_provider_denial_shows_login_failed(new_page, site):
    page = new_page()
    page.goto(site + "/connexion")
    page.get_by_test_id("nav-login").click()
    page.wait_for_url(AUTHORIZE)
    page.get_by_role("button", name="Deny").click()
    page.wait_for_url(re.compile(re.escape(site) + r"/connexion.*"))
    assert page.get_by_test_id("auth-error").inner_text() == "Login failed"


def test_navbar_login_returns_to_the_page_and_logout_icon_logs_out(new_page, site):
    page = new_page()
    page.goto(site + "/compare")
    page.get_by_test_id("nav-login").click()
    provider_login(page, TRIAL_USER)
    page.wait_for_url(site + "/compare")
    page.get_by_test_id("logout").wait_for()
    page.get_by_test_id("logout").click()
    page.wait_for_url(re.compile(r".*/oauth2/end_session.*"))
    params = _query(page.url)
    assert params["client_id"] == "nereo-dev" and params["post_logout_redirect_uri"] == site + "/"
    assert params["id_token_hint"].count(".") == 2 and "returnTo" not in params
    names = {c["name"] for c in page.context.cookies()}
    assert "nereo_session" not in names and "nereo.is.authenticated" not in names


@pytest.mark.parametrize(
    "path", ["/compare?x=1&y=%C3%A9", "/portail-client-priv%C3%A9e?utm_source=a", "/nope?q=2", "/en/merci?a=b"]
)
def test_navbar_login_returns_to_the_exact_page_and_query(new_page, site, path):
    """From a not-found page too: back to the address that was asked for, not /__not-found."""
    page = new_page()
    page.goto(site + path)
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    login = page.get_by_test_id("nav-login")
    page.wait_for_function(
        "(p) => new URL(document.querySelector('[data-testid=nav-login]').href).searchParams.get('return_to') === p",
        arg=path,
    )
    login.click()
    provider_login(page, TRIAL_USER)
    page.wait_for_url(site + path)
    assert "nereo_session" in {c["name"] for c in page.context.cookies()}


def test_navbar_login_follows_client_side_navigation(new_page, site):
    page = new_page()
    page.goto(site + "/compare")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    page.evaluate("() => window.__reactRouterDataRouter.navigate('/en/pricing?plan=interact')")
    page.wait_for_function(
        "() => new URL(document.querySelector('[data-testid=nav-login]').href).searchParams.get('return_to')"
        " === '/en/pricing?plan=interact'"
    )
    page.get_by_test_id("nav-login").click()
    provider_login(page, TRIAL_USER)
    page.wait_for_url(site + "/en/pricing?plan=interact")


def test_logged_in_navbar_fits_every_width(new_page, site):
    """The logout icon widens the menu: still no overflow or overlap from 320 to 1440 px."""
    page = new_page()
    page.goto(site + "/")
    page.get_by_test_id("nav-login").click()
    provider_login(page, TRIAL_USER)
    page.wait_for_url(site + "/")
    page.get_by_test_id("logout").wait_for()
    assert layout_faults(page, SWEEP_WIDTHS) == []
    # The protected trial page, which the anonymous route sweep cannot stay on.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site + "/start-free-trial")
    page.locator("#trial-lastName").wait_for()
    assert layout_faults(page, ROUTE_WIDTHS) == []


def test_a_form_on_another_site_cannot_log_the_visitor_out(new_page, site):
    """Forced logout: another site's page posting to /auth/logout (with federated=1, which would
    also end the provider's session) gets a 403 and changes nothing."""
    page = new_page()
    page.goto(site + "/compare")
    page.get_by_test_id("nav-login").click()
    provider_login(page, TRIAL_USER)
    page.wait_for_url(site + "/compare")
    page.get_by_test_id("logout").wait_for()
    before = {c["name"]: c["value"] for c in page.context.cookies()}
    with ForeignSite(auto_post_form(site + "/auth/logout", {"federated": "1"})) as attacker:
        with page.expect_response(site + "/auth/logout") as answer:
            page.goto(attacker.url)
        assert answer.value.status == 403
        assert answer.value.request.headers["origin"] == attacker.url.rstrip("/")  # sent from the other site
    after = {c["name"]: c["value"] for c in page.context.cookies()}
    assert after["nereo_session"] == before["nereo_session"]
    assert after["nereo.is.authenticated"] == before["nereo.is.authenticated"]
    assert page.request.get(site + "/auth/session").json()["isAuthenticated"] is True
    # The site's own logout button still works.
    page.goto(site + "/compare")
    page.get_by_test_id("logout").click()
    page.wait_for_url(re.compile(r".*/oauth2/end_session.*"))
    assert "nereo_session" not in {c["name"] for c in page.context.cookies()}
