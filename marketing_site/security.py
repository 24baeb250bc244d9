"""Security headers on every response, and the websocket's origin check: one ASGI middleware.

`SecurityHeaders` is the outermost of the app's `api_transformer` list, so it covers the
prerendered pages and assets (served by `exact_paths.ExactPathSite`), the files, the JSON API,
Reflex's own routes and the websocket handshake:

- Content-Security-Policy: only our origin plus the configured third parties (the scheduling
  widget in frames; the consent service and analytics in scripts, connections and images);
  no `unsafe-eval`; `frame-ancestors 'none'`. The prerendered pages carry inline scripts
  (theme, scroll restoration, React Router's hydration data): their SHA-256 hashes are
  computed at build time (`exact_paths.write_manifest`) and `ExactPathSite` sends each page
  with its own hashes. Styles keep `'unsafe-inline'` (a style cannot run code): the site's
  own pages need none beyond their theme `<style>` since they ship no runtime CSS
  (`frontend_build`), but a configured consent service or analytics script inserts styles.
- Strict-Transport-Security when the site is served over https (SITE_URL or the request).
- `Server: nereo`: Granian adds `Server: granian` to any response that has none, which tells
  a visitor the software (and so its known weaknesses) for nothing.
- X-Content-Type-Options, Referrer-Policy, X-Frame-Options, a restrictive Permissions-Policy.
  Scripts and stylesheets go without the three headers that only documents act on (CSP,
  X-Frame-Options, Permissions-Policy): ~1 KB less on each of the ~10 scripts of a page.
- Set-Cookie from the server gets SameSite=Lax and (over https) Secure when missing, and
  HttpOnly unless it is one the page must read (the login marker and error cookies).
- A websocket handshake or an `/_event` request whose Origin is not the site's is refused (403).
- A cross-site request that could change something is refused (403) before it reaches the app:
  every POST, PUT, PATCH or DELETE (the logout, the booking cancel form, the console's
  downloads, the JSON APIs) and every request to the console API. The browser says where a
  request comes from in `Sec-Fetch-Site` (which a page cannot forge); without it (older
  browsers) the `Origin` must be the site's, or, when it is absent or `null`, the `Referer`'s.
  A request with neither is not a browser's, so no visitor's cookie can be abused by it, and
  it goes through (curl, server-to-server).
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from marketing_site.content import consent
from marketing_site.settings import Settings, get_settings

CSP = "content-security-policy"
_INLINE_SCRIPT = re.compile(rb"<script\b([^>]*)>(.*?)</script>", re.DOTALL | re.IGNORECASE)
# Every feature a marketing page has no use for.
PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), encrypted-media=(), "
    "geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), "
    "publickey-credentials-get=(), screen-wake-lock=(), usb=(), xr-spatial-tracking=(), "
    "fullscreen=(self)"
)

# Responses that are never a document (the site runs no worker): browsers ignore CSP,
# X-Frame-Options and Permissions-Policy on them, so they are not sent (deploy/nginx does the same).
SUBRESOURCE_CONTENT_TYPES = ("text/javascript", "application/javascript", "text/css")
DOCUMENT_ONLY_HEADERS = (b"content-security-policy", b"x-frame-options", b"permissions-policy")


# The site-wide referrer policy; a response that sets its own keeps it (the login callback sends
# `no-referrer`, the booking cancel page `strict-origin`: their URLs carry a code or a token).
REFERRER_POLICY = "strict-origin-when-cross-origin"
# Sent instead of the application server's name (Granian's default header).
SERVER_HEADER = b"nereo"
# Requests that change something; a cross-site one is refused whatever the path.
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Paths whose every request acts with the operator's cookie (downloads are written to the audit log).
COOKIE_ACTION_PREFIXES = ("/api/console/",)
# Sec-Fetch-Site values allowed: our own pages, and (for a GET) an address typed or bookmarked.
SAME_ORIGIN_FOR_UNSAFE = frozenset({b"same-origin"})
SAME_ORIGIN_FOR_SAFE = frozenset({b"same-origin", b"none"})


def is_subresource(content_type: str) -> bool:
    return content_type.split(";")[0].strip().lower() in SUBRESOURCE_CONTENT_TYPES


def origin_of(url: str) -> str | None:
    """`scheme://host[:port]` of an absolute http(s) URL, else None."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}"


_SCRIPT_TYPE = re.compile(rb"""\btype\s*=\s*["']?([^"'\s>]*)""", re.IGNORECASE)
# Script types a browser runs; any other (application/ld+json) is a data block, never run.
_EXECUTABLE_TYPES = {b"", b"module", b"text/javascript", b"application/javascript"}


def inline_script_hashes(html: bytes) -> list[str]:
    """CSP source expressions for the inline scripts of a page (those without `src`).

    Data blocks (JSON-LD) are left out: the browser never executes them, so the policy
    need not allow them.
    """
    hashes = []
    for attributes, body in _INLINE_SCRIPT.findall(html):
        if re.search(rb"\bsrc\s*=", attributes):
            continue
        script_type = _SCRIPT_TYPE.search(attributes)
        if script_type and script_type.group(1).lower() not in _EXECUTABLE_TYPES:
            continue
        digest = base64.b64encode(hashlib.sha256(body).digest()).decode()
        source = f"'sha256-{digest}'"
        if source not in hashes:
            hashes.append(source)
    return hashes


def _sources(*urls: str) -> list[str]:
    origins = []
    for url in urls:
        origin = origin_of(url) if url else None
        if origin and origin not in origins:
            origins.append(origin)
    return origins


def content_security_policy(script_hashes: Iterable[str] = (), settings: Settings | None = None) -> str:
    """The site's policy; a page adds the hashes of its own inline scripts."""
    settings = settings or get_settings()
    site = origin_of(settings.site_origin) or ""
    socket = site.replace("http", "ws", 1) if site else ""
    purpose_scripts = (getattr(settings, name) for p in consent.PURPOSES for name in p.script_settings)
    third_party_scripts = _sources(settings.consent_script_url, *purpose_scripts)
    # The login and logout forms post to our backend, which redirects to the identity
    # provider: form-action covers those redirects too.
    identity_provider = _sources(settings.oidc_issuer)
    directives = {
        "default-src": ["'self'"],
        "script-src": ["'self'", *script_hashes, *third_party_scripts],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", *third_party_scripts],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'", *([socket] if socket else []), *third_party_scripts],
        "frame-src": _sources(settings.booking_url, settings.consent_script_url) or ["'none'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'", *identity_provider],
        "frame-ancestors": ["'none'"],
    }
    if settings.is_https:
        directives["upgrade-insecure-requests"] = []
    if settings.csp_report_uri:
        directives["report-uri"] = [settings.csp_report_uri]
    return "; ".join(" ".join([name, *values]) for name, values in directives.items())


def _readable_cookies() -> set[bytes]:
    """Cookies the page itself reads or clears (the non-secret login marker and error)."""
    from marketing_site.services import sessions

    return {sessions.MARKER_COOKIE.encode(), sessions.ERROR_COOKIE.encode()}


def _fix_cookie(value: bytes, https: bool) -> bytes:
    attributes = {part.strip().split(b"=")[0].lower() for part in value.split(b";")[1:]}
    name = value.split(b"=", 1)[0].strip()
    if b"httponly" not in attributes and name not in _readable_cookies():
        value += b"; HttpOnly"
    if b"samesite" not in attributes:
        value += b"; SameSite=Lax"
    if https and b"secure" not in attributes:
        value += b"; Secure"
    return value


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response; the websocket's origin check."""

    def __init__(self, app, settings: Settings | None = None):
        self.app = app
        self.settings = settings or get_settings()
        self.allowed_origins = set(_sources(self.settings.site_origin))
        # Pages carry their own policy (with their scripts' hashes); everything else gets this.
        self.default_policy = content_security_policy(settings=self.settings).encode()

    def _https(self, scope) -> bool:
        return self.settings.is_https or scope.get("scheme") in ("https", "wss")

    def _foreign_origin(self, origin: bytes | None) -> bool:
        return origin is not None and origin.decode("latin-1").rstrip("/") not in self.allowed_origins

    def _origin_refused(self, scope) -> bool:
        headers = dict(scope.get("headers") or [])
        path = scope.get("path", "")
        if scope["type"] == "websocket" or path.startswith("/_event"):
            # Browsers always send Origin on a websocket handshake; other clients may omit it.
            return self._foreign_origin(headers.get(b"origin"))
        unsafe = scope.get("method", "GET") in UNSAFE_METHODS
        if not unsafe and not path.startswith(COOKIE_ACTION_PREFIXES):
            return False
        fetch_site = headers.get(b"sec-fetch-site")
        if fetch_site is not None:
            # Trusted over Origin: a page cannot forge it.
            allowed = SAME_ORIGIN_FOR_UNSAFE if unsafe else SAME_ORIGIN_FOR_SAFE
            return fetch_site.lower() not in allowed
        return self._foreign_source(headers.get(b"origin"), headers.get(b"referer"))

    def _foreign_source(self, origin: bytes | None, referer: bytes | None) -> bool:
        """A browser without `Sec-Fetch-Site` (before 2023): its `Origin`, else, when it sends
        none or `null`, the origin of its `Referer`. `null` with no Referer is a browser hiding
        where the request comes from (a sandboxed frame, a data: URL): refused. Neither header:
        no browser's request (curl, a server), and no visitor's cookie to abuse: let through."""
        if origin is not None and origin != b"null":
            return self._foreign_origin(origin)
        if referer is not None:
            return origin_of(referer.decode("latin-1")) not in self.allowed_origins
        return origin is not None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        https = self._https(scope)
        settings = self.settings

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (name, _fix_cookie(value, https) if name.lower() == b"set-cookie" else value)
                    for name, value in message.get("headers", [])
                ]
                present = {name.lower() for name, _ in headers}
                content_type = next((v for n, v in headers if n.lower() == b"content-type"), b"")
                # Not added: those the app set itself, and the document-only ones on a subresource.
                skipped = present | set(DOCUMENT_ONLY_HEADERS if is_subresource(content_type.decode("latin-1")) else ())
                extra = [
                    (b"content-security-policy", self.default_policy),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", REFERRER_POLICY.encode()),
                    (b"x-frame-options", b"DENY"),
                    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
                    (b"server", SERVER_HEADER),
                ]
                if https:
                    extra.append(
                        (
                            b"strict-transport-security",
                            f"max-age={settings.hsts_max_age_seconds}; includeSubDomains".encode(),
                        )
                    )
                headers += [(name, value) for name, value in extra if name not in skipped]
                message = {**message, "headers": headers}
            await send(message)

        if self._origin_refused(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                # The refusal is a response like any other: every header above.
                refusal = [(b"content-type", b"text/plain"), (b"content-length", b"9")]
                await send_with_headers({"type": "http.response.start", "status": 403, "headers": refusal})
                await send({"type": "http.response.body", "body": b"Forbidden"})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, send_with_headers)
