"""Security headers on a page, assets, a file and the API; the websocket's origin check;
no secret in the frontend bundle; cookie flags and HSTS (middleware on a tiny app)."""

from __future__ import annotations

import asyncio
import re
import socket
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import httpx2
from servers import ROOT, WEB_DIR

from marketing_site import security
from marketing_site.settings import get_settings

BUILD = WEB_DIR / "build" / "client"
COMMON = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
}


def _directives(policy: str) -> dict[str, list[str]]:
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


def _assert_secure(response: httpx2.Response) -> dict[str, list[str]]:
    for name, value in COMMON.items():
        assert response.headers.get(name) == value, name
    permissions = response.headers["permissions-policy"]
    assert "camera=()" in permissions and "geolocation=()" in permissions and "microphone=()" in permissions
    csp = _directives(response.headers["content-security-policy"])
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["object-src"] == ["'none'"]
    assert not any("unsafe-eval" in v for values in csp.values() for v in values)
    assert "'unsafe-inline'" not in csp["script-src"]
    # Plain http on loopback: no HSTS (browsers ignore it there anyway).
    assert "strict-transport-security" not in response.headers
    return csp


def test_headers_on_a_page_an_asset_a_file_the_api_and_a_404(site):
    with httpx2.Client(base_url=site) as client:
        page = client.get("/")
        stylesheet = re.search(r'href="(/assets/[^"]+\.css)"', page.text).group(1)
        script = re.search(r'import "(/assets/[^"]+\.js)"', page.text).group(1)
        responses = {
            "page": page,
            "accented page": client.get("/portail-client-priv%C3%A9e"),
            "svg": client.get("/favicon.svg"),
            "file": client.get("/files/" + next(p.name for p in (ROOT / "files").glob("*.pdf"))),
            "api": client.post("/api/v1/mail/send", json={}),
            "openapi": client.get("/api/v1/openapi.json"),
            "health": client.get("/api/v1/health"),
            "404": client.get("/nope"),
            "redirect": client.get("/compare/"),
            "ping": client.get("/ping"),
        }
        subresources = {"stylesheet": client.get(stylesheet), "script": client.get(script)}
    for name, response in responses.items():
        assert response.status_code < 500, name
        _assert_secure(response)
    # Scripts and stylesheets never become documents: only the headers that act on them.
    for name, response in subresources.items():
        assert response.status_code == 200, name
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == COMMON["referrer-policy"]
        for document_only in ("content-security-policy", "x-frame-options", "permissions-policy"):
            assert document_only not in response.headers, (name, document_only)


def test_each_page_allows_exactly_its_own_inline_scripts(site):
    """The hashes in the policy are those of the scripts in the page the browser received."""
    page = httpx2.get(site + "/en/pricing")
    csp = _directives(page.headers["content-security-policy"])
    expected = security.inline_script_hashes(page.content)
    assert expected, "the prerendered page has inline scripts"
    assert [s for s in csp["script-src"] if s.startswith("'sha256-")] == expected
    assert csp["script-src"][0] == "'self'"
    assert "'unsafe-inline'" in csp["style-src"]
    analytics = security.origin_of(get_settings().analytics_script_url) if get_settings().analytics_script_url else None
    if analytics:
        assert analytics in csp["script-src"]


def _handshake(site: str, origin: str | None) -> int:
    host, port = urlsplit(site).hostname, urlsplit(site).port
    lines = [
        "GET /_event/?EIO=4&transport=websocket HTTP/1.1",
        f"Host: {host}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin:
        lines.append(f"Origin: {origin}")
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        status_line = sock.recv(4096).split(b"\r\n", 1)[0]
    return int(status_line.split()[1])


def test_websocket_refuses_a_foreign_origin_and_accepts_the_site(site):
    assert _handshake(site, "https://evil.example") == 403
    assert _handshake(site, site) == 101


def test_no_secret_reaches_the_frontend_bundle(production_build):
    """`make test` builds with recognisable values for every secret; none may be in the build."""
    makefile = (ROOT / "Makefile").read_text()
    canaries = dict(re.findall(r"\b(SMTP_PASSWORD|OIDC_CLIENT_SECRET|SESSION_SECRET)=(\S+)", makefile))
    assert set(canaries) == {"SMTP_PASSWORD", "OIDC_CLIENT_SECRET", "SESSION_SECRET"}
    assert BUILD.is_dir(), "no frontend build"
    leaks = []
    for file in BUILD.rglob("*"):
        if file.is_file() and not file.name.endswith((".gz", ".br")):
            content = file.read_bytes()
            leaks += [
                f"{name} in {file.relative_to(BUILD)}" for name, value in canaries.items() if value.encode() in content
            ]
    assert leaks == []


# ---------------------------------------------------------------------- middleware alone


def _call(app, scope_extra=None, headers=()):
    sent = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/x", "headers": list(headers), "scheme": "http"}
    scope.update(scope_extra or {})
    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    return sent


async def _cookie_app(scope, receive, send):
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"set-cookie", b"session=abc; Path=/"),
                (b"set-cookie", b"pref=1; Path=/; SameSite=Strict; HttpOnly; Secure"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})


def _settings(**changes):
    return get_settings().replace(**changes)


def test_https_adds_hsts_secure_cookies_and_upgrades():
    settings = _settings(
        site_url="https://www.nereo.example",
        booking_url="https://cal.example/nereo/30min",
        consent_script_url="https://consent.example/uc.js",
        analytics_script_url="",
    )
    start = _call(security.SecurityHeaders(_cookie_app, settings))[0]
    headers = [(k.decode(), v.decode()) for k, v in start["headers"]]
    as_dict = dict(headers)
    assert as_dict["strict-transport-security"].startswith("max-age=63072000")
    cookies = [v for k, v in headers if k == "set-cookie"]
    assert cookies[0] == "session=abc; Path=/; HttpOnly; SameSite=Lax; Secure"
    assert cookies[1] == "pref=1; Path=/; SameSite=Strict; HttpOnly; Secure"
    csp = _directives(as_dict["content-security-policy"])
    assert csp["frame-src"] == ["https://cal.example", "https://consent.example"]
    assert "https://consent.example" in csp["script-src"]
    assert csp["connect-src"][:2] == ["'self'", "wss://www.nereo.example"]
    assert "upgrade-insecure-requests" in csp


def test_http_cookies_get_httponly_and_samesite_but_not_secure():
    start = _call(security.SecurityHeaders(_cookie_app, _settings(site_url="http://127.0.0.1:1")))[0]
    cookies = [v.decode() for k, v in start["headers"] if k == b"set-cookie"]
    assert cookies[0] == "session=abc; Path=/; HttpOnly; SameSite=Lax"
    assert not any(k == b"strict-transport-security" for k, _ in start["headers"])


def test_event_endpoint_over_http_refuses_a_foreign_origin():
    app = security.SecurityHeaders(_cookie_app, _settings(site_url="https://www.nereo.example"))
    refused = _call(app, {"path": "/_event/"}, [(b"origin", b"https://evil.example")])
    assert refused[0]["status"] == 403
    allowed = _call(app, {"path": "/_event/"}, [(b"origin", b"https://www.nereo.example")])
    assert allowed[0]["status"] == 200


def test_cookies_the_page_reads_stay_readable():
    from marketing_site.services import sessions

    async def app(scope, receive, send):
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"set-cookie", f"{sessions.MARKER_COOKIE}=1; Path=/; Max-Age=86400".encode()),
                    (b"set-cookie", f"{sessions.SESSION_COOKIE}=x; Path=/".encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})

    start = _call(security.SecurityHeaders(app, _settings(site_url="http://127.0.0.1:1")))[0]
    marker, session = [v.decode() for k, v in start["headers"] if k == b"set-cookie"]
    assert "HttpOnly" not in marker and "SameSite=Lax" in marker
    assert "HttpOnly" in session


def test_cross_site_requests_that_change_something_are_refused():
    """Sec-Fetch-Site first (a page cannot forge it), then Origin; neither: not a browser's request."""
    app = security.SecurityHeaders(_cookie_app, _settings(site_url="https://www.nereo.example"))
    site = b"https://www.nereo.example"

    def status(method, path, headers=()):
        return _call(app, {"method": method, "path": path}, list(headers))[0]["status"]

    for method in ("POST", "PUT", "PATCH", "DELETE"):
        for path in ("/auth/logout", "/api/v1/booking/cancel", "/api/console/subject.json", "/api/v1/mail/send"):
            assert status(method, path, [(b"sec-fetch-site", b"cross-site")]) == 403, (method, path)
            assert status(method, path, [(b"sec-fetch-site", b"same-site")]) == 403, (method, path)
            assert status(method, path, [(b"sec-fetch-site", b"none")]) == 403, (method, path)
            assert status(method, path, [(b"origin", b"https://evil.example")]) == 403, (method, path)
            assert status(method, path, [(b"origin", b"null")]) == 403, (method, path)
            assert status(method, path, [(b"origin", b"https://www.nereo.example.evil.example")]) == 403
            assert status(method, path, [(b"sec-fetch-site", b"cross-site"), (b"origin", site)]) == 403
            # Our own pages (the cancel page sends `Origin: null`: its referrer policy), and non-browsers.
            assert status(method, path, [(b"sec-fetch-site", b"same-origin"), (b"origin", b"null")]) == 200
            assert status(method, path, [(b"origin", site)]) == 200
            assert status(method, path) == 200
    # The console's downloads act with the operator's cookie whatever the method.
    assert status("GET", "/api/console/leads.csv", [(b"sec-fetch-site", b"cross-site")]) == 403
    assert status("GET", "/api/console/leads.csv", [(b"origin", b"https://evil.example")]) == 403
    assert status("GET", "/api/console/leads.csv", [(b"sec-fetch-site", b"none")]) == 200  # a bookmark
    assert status("GET", "/api/console/leads.csv", [(b"sec-fetch-site", b"same-origin")]) == 200
    # Reading a page or a file from another site's link is what links are for.
    assert status("GET", "/", [(b"sec-fetch-site", b"cross-site")]) == 200
    assert status("GET", "/api/v1/booking/cancel", [(b"sec-fetch-site", b"cross-site")]) == 200
