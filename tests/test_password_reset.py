"""Password reset in Chromium on the production build: honest in both configurations.

Without OIDC_PASSWORD_RESET_URL (the default, the session's site) the page has no form and
says how to reset. With it, the session's site is restarted pointed at a reset endpoint on
loopback (the built pages talk to the session's port, so no second site can serve their
events), and restarted without it afterwards: the provider of the test suite (oidc-provider-mock) has no password-reset
endpoint, so the endpoint is a small real HTTP server here that records each call and
answers as told (the provider's side of the contract: Auth0's
POST /dbconnections/change_password with JSON {"client_id", "email"}).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from servers import SiteServer, free_port

from marketing_site import routes
from marketing_site.i18n import lookup

pytestmark = pytest.mark.browser

RESET_PATH = "/dbconnections/change_password"


class ResetEndpoint:
    """The identity provider's reset endpoint: records calls, answers `status`."""

    def __init__(self) -> None:
        self.calls: list[dict] = []
        self.status = 200
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                endpoint.calls.append(
                    {"path": self.path, "type": self.headers.get("Content-Type"), "json": json.loads(body)}
                )
                text = b"We've just sent you an email to reset your password."
                self.send_response(endpoint.status)
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{RESET_PATH}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def reset_endpoint():
    endpoint = ResetEndpoint()
    yield endpoint
    endpoint.stop()


def _restart(server: SiteServer, reset_url: str | None) -> None:
    server.stop()
    if reset_url:
        server.env["OIDC_PASSWORD_RESET_URL"] = reset_url
    else:
        server.env.pop("OIDC_PASSWORD_RESET_URL", None)
    server.start()


@pytest.fixture
def reset_site(site_server, reset_endpoint):
    _restart(site_server, reset_endpoint.url)
    try:
        yield site_server.url
    finally:
        _restart(site_server, None)


def _open(new_page, url: str, locale: str = "fr-FR"):
    page = new_page(locale=locale)
    page.goto(url + routes.RESET_PASSWORD.path("fr"))
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    return page


@pytest.mark.parametrize(("locale", "lang"), [("fr-FR", "fr"), ("en-GB", "en")])
def test_without_a_reset_endpoint_the_page_says_how_to_reset_and_sends_nothing(
    new_page, site, page_errors, locale, lang
):
    page = _open(new_page, site, locale)
    manual = page.get_by_test_id("reset-manual")
    manual.wait_for()
    page.wait_for_timeout(500)  # the page's state has loaded: still no form
    assert page.locator("#reset-email").count() == 0
    assert lookup(lang, "reset_password.manual_steps") in manual.inner_text()
    assert page.locator("main a[href^='mailto:']").count() >= 1
    provider = page.get_by_test_id("reset-provider-link")
    assert provider.get_attribute("href").startswith("/auth/login?")
    text = page.locator("main").inner_text()
    for claim in ("reset_password.requested", "reset_password.lead"):
        assert lookup(lang, claim) not in text
    assert "quelques minutes" not in text and "within a few minutes" not in text
    assert page_errors == []


def test_with_a_reset_endpoint_the_provider_is_called_and_the_page_says_what_it_answered(
    new_page, reset_site, reset_endpoint, auth_services, page_errors
):
    # Accepted: the provider got the request, and the page says it passed it on.
    reset_endpoint.calls.clear()
    reset_endpoint.status = 200
    page = _open(new_page, reset_site)
    page.locator("#reset-email").fill("camille.durand+reset@example.test")
    page.get_by_role("button", name=lookup("fr", "reset_password.submit")).click()
    page.get_by_test_id("reset-requested").wait_for()
    assert page.get_by_test_id("reset-requested").inner_text() == lookup("fr", "reset_password.requested")
    assert reset_endpoint.calls == [
        {
            "path": RESET_PATH,
            "type": "application/json",
            "json": {"client_id": auth_services["env"]["OIDC_CLIENT_ID"], "email": "camille.durand+reset@example.test"},
        }
    ]
    # Refused by the provider: reported, never shown as sent; the visitor can try again.
    reset_endpoint.status = 500
    page = _open(new_page, reset_site, "en-GB")
    page.locator("#reset-email").fill("ada@example.test")
    page.get_by_role("button", name=lookup("en", "reset_password.submit")).click()
    page.get_by_test_id("reset-failed").wait_for()
    assert lookup("en", "reset_password.failed") in page.get_by_test_id("reset-failed").inner_text()
    assert page.get_by_test_id("reset-requested").count() == 0
    assert page.locator("#reset-email").count() == 1
    assert len(reset_endpoint.calls) == 2
    assert page_errors == []


def test_the_reset_relay_is_rate_limited_per_address_and_per_email(new_page, reset_site, reset_endpoint, page_errors):
    """The relay makes the provider mail whoever is named: beyond the limits nothing is sent and
    the page says to try later (the site runs with PASSWORD_RESET_RATE_LIMIT_PER_EMAIL=3 and
    PASSWORD_RESET_RATE_LIMIT_PER_IP=5, the defaults)."""
    reset_endpoint.calls.clear()
    reset_endpoint.status = 200
    page = _open(new_page, reset_site)
    outcomes = []
    for _ in range(4):  # one victim's address, again and again
        page.locator("#reset-email").fill("victim@example.test")
        page.get_by_role("button", name=lookup("fr", "reset_password.submit")).click()
        found = page.locator("[data-testid=reset-requested], [data-testid=reset-rate-limited]")
        found.first.wait_for()
        outcomes.append(found.first.get_attribute("data-testid"))
        if outcomes[-1] == "reset-requested":
            page = _open(new_page, reset_site)  # the form is gone after a success
    assert outcomes == ["reset-requested"] * 3 + ["reset-rate-limited"]
    assert page.get_by_test_id("reset-rate-limited").inner_text() == lookup("fr", "reset_password.rate_limited")
    assert page.locator("#reset-email").count() == 1  # the visitor can try again later
    assert [call["json"]["email"] for call in reset_endpoint.calls] == ["victim@example.test"] * 3
    # Another address from the same connection: the fifth request of this address (refused ones
    # count) goes through, the sixth does not, whatever the email.
    page = _open(new_page, reset_site)
    page.locator("#reset-email").fill("a@example.test")
    page.get_by_role("button", name=lookup("fr", "reset_password.submit")).click()
    page.get_by_test_id("reset-requested").wait_for()
    page = _open(new_page, reset_site, "en-GB")
    page.locator("#reset-email").fill("b@example.test")
    page.get_by_role("button", name=lookup("en", "reset_password.submit")).click()
    page.get_by_test_id("reset-rate-limited").wait_for()
    assert page.get_by_test_id("reset-rate-limited").inner_text() == lookup("en", "reset_password.rate_limited")
    assert [call["json"]["email"] for call in reset_endpoint.calls][3:] == ["a@example.test"]
    assert page_errors == []
