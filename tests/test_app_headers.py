"""Every security header on every kind of response the server sends, and the attributes of the
cookies it sets, through the site's whole ASGI app with a test client (tests/site_app.py: the
app's own middleware stack over a small build made here), over http and over https.

The expected values are written out here, not read from `marketing_site.security`: loosening a
header there (a feature allowed, a directive dropped, a shorter HSTS) fails these tests.
The same headers on the production build served by Granian: tests/test_security.py.
"""

from __future__ import annotations

import base64
import hashlib
from urllib.parse import quote

import pytest
from servers import ROOT, free_port
from site_app import HOME_SCRIPT, site_app, stub_build
from starlette.testclient import TestClient

from marketing_site.services import sessions

PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), encrypted-media=(), geolocation=(), "
    "gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), publickey-credentials-get=(), "
    "screen-wake-lock=(), usb=(), xr-spatial-tracking=(), fullscreen=(self)"
)
TWO_YEARS = 63072000
PDF = next((ROOT / "files").glob("*.pdf")).name


def _policy(origin: str, issuer: str, *, https: bool, script_hashes: tuple[str, ...] = ()) -> dict[str, list[str]]:
    socket = origin.replace("http", "ws", 1)
    policy = {
        "default-src": ["'self'"],
        "script-src": ["'self'", *script_hashes],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'", socket],
        "frame-src": ["'none'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'", issuer],
        "frame-ancestors": ["'none'"],
    }
    if https:
        policy["upgrade-insecure-requests"] = []
    return policy


def _directives(value: str) -> dict[str, list[str]]:
    return {part.split()[0]: part.split()[1:] for part in value.split(";") if part.strip()}


class Site:
    def __init__(self, origin: str, issuer: str):
        self.origin = origin
        self.issuer = issuer
        self.https = origin.startswith("https://")
        self.client = TestClient(site_app(), base_url=origin, raise_server_exceptions=False, follow_redirects=False)

    def policy(self, **options) -> dict[str, list[str]]:
        return _policy(self.origin, self.issuer, https=self.https, **options)


@pytest.fixture(params=["http://127.0.0.1:8000", "https://www.nereo.example"], ids=["http", "https"])
def site(request, service, tmp_path, monkeypatch):
    """The app with a migrated database, the small build and an identity provider that is down."""
    from marketing_site.settings import get_settings

    stub_build(tmp_path / "web")
    issuer = f"http://127.0.0.1:{free_port()}"  # nothing listens there: logins fail and say so
    monkeypatch.setenv("REFLEX_WEB_WORKDIR", str(tmp_path / "web"))
    monkeypatch.setenv("SITE_URL", request.param)
    monkeypatch.setenv("OIDC_ISSUER", issuer)
    monkeypatch.setenv("OIDC_CLIENT_ID", "site")
    for name in (
        "BOOKING_URL",
        "CONSENT_SCRIPT_URL",
        "ANALYTICS_SCRIPT_URL",
        "MARKETING_SCRIPT_URL",
        "CSP_REPORT_URI",
        "HSTS_MAX_AGE_SECONDS",
    ):
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    return Site(request.param, issuer)


def _assert_document_headers(site: Site, response, policy=None, referrer="strict-origin-when-cross-origin") -> None:
    headers = response.headers
    assert _directives(headers["content-security-policy"]) == (policy or site.policy())
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == referrer
    assert headers["permissions-policy"] == PERMISSIONS_POLICY
    assert headers.get_list("server") == ["nereo"]
    _assert_transport(site, response)


def _assert_transport(site: Site, response) -> None:
    if site.https:
        assert response.headers["strict-transport-security"] == f"max-age={TWO_YEARS}; includeSubDomains"
    else:
        assert "strict-transport-security" not in response.headers


def test_a_prerendered_page_allows_exactly_its_own_inline_script(site):
    digest = base64.b64encode(hashlib.sha256(HOME_SCRIPT).digest()).decode()
    for method in ("GET", "HEAD"):
        page = site.client.request(method, "/")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        # The JSON-LD data block is never run: the policy need not (and does not) allow it.
        _assert_document_headers(site, page, site.policy(script_hashes=(f"'sha256-{digest}'",)))


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/portail-client-priv%C3%A9e", 200),  # an accented page
        ("GET", "/favicon.svg", 200),  # an image that is a document too (SVG runs scripts)
        ("GET", "/nope", 404),  # the not-found page
        ("GET", "/en/nope", 404),
        ("GET", "/ancienne-page", 308),  # a redirect of the manifest
        ("GET", "/portail-client-priv%C3%A9e/", 308),  # a trailing slash
        ("GET", f"/files/{quote(PDF)}", 200),  # a document to download
        ("GET", "/files/nope.pdf", 404),
        ("GET", "/api/v1/health/live", 200),  # the JSON API
        ("GET", "/api/v1/openapi.json", 200),
        ("POST", "/api/v1/mail/send", 422),  # a refused body
        ("PUT", "/api/v1/mail/send", 404),  # a method no route takes: Reflex's 404
        ("POST", "/api/v1/audience", 204),  # no content
        ("HEAD", "/api/v1/health/live", 200),
        ("GET", "/api/console/leads.csv", 401),  # the console's download, anonymous
        ("GET", "/ping", 404),  # not a page of the site: the not-found page
        ("GET", "/api/v2/nothing", 404),  # past every route, Reflex's own 404
    ],
)
def test_every_kind_of_response_carries_every_document_header(site, method, path, status):
    response = site.client.request(method, path, json={} if method in ("POST", "PUT") else None)
    assert response.status_code == status, response.text[:300]
    _assert_document_headers(site, response)


@pytest.mark.parametrize("path", ["/assets/app-1a2b.js", "/assets/site-1a2b.css"])
def test_scripts_and_stylesheets_carry_the_headers_that_act_on_them(site, path):
    response = site.client.get(path)
    assert response.status_code == 200
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert response.headers.get_list("server") == ["nereo"]
    for document_only in ("content-security-policy", "x-frame-options", "permissions-policy"):
        assert document_only not in response.headers
    _assert_transport(site, response)


def test_an_unexpected_error_carries_every_header(site, monkeypatch):
    from marketing_site.services import health

    def broken():
        raise RuntimeError("a bug")

    monkeypatch.setattr(health, "public_status", broken)
    response = site.client.get("/api/v1/health")
    assert response.status_code == 500
    _assert_document_headers(site, response)


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("POST", "/api/v1/mail/send", {"sec-fetch-site": "cross-site"}),
        ("POST", "/auth/logout", {"origin": "https://evil.example"}),
        ("GET", "/api/console/leads.csv", {"sec-fetch-site": "same-site"}),
        ("GET", "/_event/", {"origin": "https://evil.example"}),
    ],
)
def test_a_refused_cross_site_request_carries_every_header(site, method, path, headers):
    response = site.client.request(method, path, headers=headers)
    assert response.status_code == 403
    _assert_document_headers(site, response)


def _cookies(response) -> dict[str, list[str]]:
    """Set-Cookie by name: its attributes, as sent (value left out)."""
    found = {}
    for header in response.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        found[name] = sorted(part.strip().split("=")[0].lower() for part in rest.split(";")[1:])
    return found


def test_a_failed_login_sets_its_cookies_with_their_attributes(site):
    """The provider is down: the login page is told with a one-shot error cookie that the page
    reads (so not HttpOnly), SameSite=Lax, Secure over https; the answer keeps its own
    `Referrer-Policy: no-referrer` and gets every other header."""
    response = site.client.get("/auth/login?return_to=/compare")
    assert response.status_code == 200 and "http-equiv" in response.text
    secure = ["secure"] if site.https else []
    assert _cookies(response) == {sessions.ERROR_COOKIE: sorted(["max-age", "path", "samesite", *secure])}
    assert "samesite=lax" in response.headers["set-cookie"].lower()
    _assert_document_headers(site, response, referrer="no-referrer")


@pytest.mark.parametrize(
    ("silent_login", "clearing_path"),
    [("true", "/auth/silent?return_to=/compare"), ("false", "/auth/session")],
    ids=["silent-check", "stale-marker"],
)
def test_the_silent_check_clears_the_marker_with_the_same_attributes(site, monkeypatch, silent_login, clearing_path):
    """Where the marker goes (the silent check with OIDC_SILENT_LOGIN; otherwise /auth/session,
    the moment the site sees no live session behind it), it goes with the attributes it was set
    with: a cookie cleared with others would stay."""
    from marketing_site.settings import get_settings

    monkeypatch.setenv("OIDC_SILENT_LOGIN", silent_login)
    get_settings.cache_clear()
    site.client.cookies.set(sessions.MARKER_COOKIE, "1")
    response = site.client.get(clearing_path)
    cookies = _cookies(response)
    secure = ["secure"] if site.https else []
    assert cookies[sessions.MARKER_COOKIE] == sorted(["expires", "max-age", "path", "samesite", *secure])
    for header in response.headers.get_list("set-cookie"):
        assert "samesite=lax" in header.lower()
