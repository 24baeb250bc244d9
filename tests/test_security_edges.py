"""security.py at its edges, build-free: the middleware driven with raw ASGI messages (a
websocket away from `/_event`, the lifespan, a response start without headers, an https request
behind a server that terminates TLS), cookies whose first attribute is the one that counts,
the policy with every third party configured, and pages whose inline scripts come after a data
block or an external script (mutation testing found these unasserted: docs/testing.md)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import itertools
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from marketing_site import security
from marketing_site.settings import get_settings

SITE = "https://www.nereo.example"


def _settings(**changes):
    return get_settings().replace(**{"site_url": SITE, **changes})


def _run(app, scope, incoming=()):
    """Every message `app` sends for `scope`, given the messages it receives (then a disconnect)."""
    sent = []
    queue = list(incoming)

    async def receive():
        if queue:
            return queue.pop(0)
        return {"type": f"{scope['type']}.disconnect"}

    async def send(message):
        sent.append(message)

    # In a thread of its own: Playwright's sync API may keep an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    return sent


def _http(path="/x", method="GET", headers=(), scheme="https"):
    return {"type": "http", "method": method, "path": path, "headers": list(headers), "scheme": scheme}


def _websocket(path, origin):
    headers = [(b"origin", origin)] if origin is not None else []
    return {"type": "websocket", "path": path, "headers": headers, "scheme": "wss"}


def _responder(headers=None, body=b"ok"):
    """An app that answers every request with `headers` (no `headers` key at all when None)."""

    async def app(scope, receive, send):
        start = {"type": "http.response.start", "status": 200}
        if headers is not None:
            start["headers"] = headers
        await send(start)
        await send({"type": "http.response.body", "body": body})

    return app


async def _echo_socket(scope, receive, send):
    """A websocket app: accepts, then echoes what it receives, after its path, until the client leaves."""
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    while (message := await receive())["type"] == "websocket.receive":
        await send({"type": "websocket.send", "text": f"{scope['path']} {message['text']}"})


def _headers(start) -> dict[bytes, list[bytes]]:
    found: dict[bytes, list[bytes]] = {}
    for name, value in start["headers"]:
        found.setdefault(name, []).append(value)
    return found


def _directives(policy: str) -> dict[str, list[str]]:
    return {part.split()[0]: part.split()[1:] for part in policy.split("; ")}


def _hash(body: bytes) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"


# ---------------------------------------------------------------------- inline scripts


def test_scripts_after_a_data_block_or_an_external_script_are_still_allowed():
    page = (
        b'<script type="application/ld+json">{"@type": "Organization"}</script>'
        b"<script>theme()</script>"
        b'<script type="module" src="/assets/app.js"></script>'
        b'<script type="module">import "/assets/page.js";</script>'
        b'<script type="application/ld+json">{"@type": "FAQPage"}</script>'
        b"<script>restoreScroll()</script>"
    )
    assert security.inline_script_hashes(page) == [
        _hash(b"theme()"),
        _hash(b'import "/assets/page.js";'),
        _hash(b"restoreScroll()"),
    ]


def test_script_types_are_read_whatever_their_case():
    """HTML's type attribute is case-insensitive: a browser runs `MODULE`, not `Application/LD+JSON`."""
    page = (
        b"<SCRIPT TYPE='MODULE'>one()</SCRIPT>"
        b'<script type="Text/JavaScript">two()</script>'
        b'<script type="module">three()</script>'
        b'<script type="Application/LD+JSON">{}</script>'
        b'<script type="text/plain">four()</script>'
    )
    assert security.inline_script_hashes(page) == [_hash(b"one()"), _hash(b"two()"), _hash(b"three()")]


# ---------------------------------------------------------------------- the policy


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://www.nereo.example:8443/fr/tarifs?x=1", "https://www.nereo.example:8443"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("ftp://files.example/a", None),
        ("https:///no-host", None),
        ("www.nereo.example", None),
        ("", None),
    ],
)
def test_origin_of_is_the_scheme_and_host_of_an_absolute_http_url_only(url, origin):
    assert security.origin_of(url) == origin


def test_every_configured_third_party_script_is_allowed_to_run_connect_and_show_images():
    settings = _settings(
        consent_script_url="https://consent.example/uc.js",
        analytics_script_url="https://stats.example/js/script.js",
        marketing_script_url="https://tags.example/t.js",
        booking_url="https://cal.example/nereo/30min",
    )
    csp = _directives(security.content_security_policy(settings=settings))
    third_parties = ["https://consent.example", "https://stats.example", "https://tags.example"]
    assert csp["script-src"] == ["'self'", *third_parties]
    assert csp["img-src"] == ["'self'", "data:", *third_parties]
    assert csp["connect-src"] == ["'self'", "wss://www.nereo.example", *third_parties]
    # Only the booking widget and the consent service show frames, not the analytics.
    assert csp["frame-src"] == ["https://cal.example", "https://consent.example"]


def test_a_configured_report_uri_is_the_last_directive():
    settings = _settings(csp_report_uri="https://reports.example/csp?site=nereo")
    policy = security.content_security_policy(settings=settings)
    assert policy.endswith("; report-uri https://reports.example/csp?site=nereo")
    assert "report-uri" not in security.content_security_policy(settings=_settings(csp_report_uri=""))


def test_the_websocket_source_is_the_site_with_only_its_scheme_changed():
    for site, socket in (
        ("https://httpbin.example", "wss://httpbin.example"),
        ("http://http.example:8000", "ws://http.example:8000"),
    ):
        csp = _directives(security.content_security_policy(settings=_settings(site_url=site)))
        assert csp["connect-src"][1] == socket, site


def test_a_site_address_without_a_scheme_gives_no_websocket_source_and_no_empty_one():
    policy = security.content_security_policy(settings=_settings(site_url="www.nereo.example"))
    assert "connect-src 'self'; " in policy
    assert "  " not in policy


# ---------------------------------------------------------------------- cookies


COOKIE_ATTRIBUTES = (b"Path=/", b"HttpOnly", b"SameSite=Strict", b"Secure", b"Max-Age=60")


def test_a_cookie_with_every_attribute_is_left_as_it_is_in_any_order():
    """Appending `SameSite=Lax` to a `SameSite=Strict` cookie would weaken it: browsers take the last."""
    for attributes in itertools.permutations(COOKIE_ATTRIBUTES):
        cookie = b"; ".join([b"pref=a=b", *attributes])
        start = _run(security.SecurityHeaders(_responder([(b"set-cookie", cookie)]), _settings()), _http())[0]
        assert _headers(start)[b"set-cookie"] == [cookie]


@pytest.mark.parametrize("attribute", [b"httponly", b"SAMESITE=none", b"secure"])
def test_an_attribute_is_recognised_whatever_its_case_as_the_first_one(attribute):
    cookie = b"pref=1; " + attribute
    start = _run(security.SecurityHeaders(_responder([(b"set-cookie", cookie)]), _settings()), _http())[0]
    [fixed] = _headers(start)[b"set-cookie"]
    assert fixed.lower().count(attribute.split(b"=")[0].lower()) == 1, fixed


def test_an_https_request_behind_a_server_that_terminates_tls_gets_hsts_and_secure_cookies():
    """SITE_URL is http (as on a host whose proxy speaks TLS), the request's scheme https."""
    app = security.SecurityHeaders(
        _responder([(b"set-cookie", b"session=x; Path=/")]), _settings(site_url="http://127.0.0.1:8000")
    )
    over_https = _headers(_run(app, _http(scheme="https"))[0])
    assert over_https[b"set-cookie"] == [b"session=x; Path=/; HttpOnly; SameSite=Lax; Secure"]
    assert over_https[b"strict-transport-security"][0].startswith(b"max-age=")
    over_http = _headers(_run(app, _http(scheme="http"))[0])
    assert over_http[b"set-cookie"] == [b"session=x; Path=/; HttpOnly; SameSite=Lax"]
    assert b"strict-transport-security" not in over_http


# ---------------------------------------------------------------------- responses


def test_a_response_start_without_headers_gets_every_header():
    """ASGI lets an app leave out `headers` (none)."""
    start = _run(security.SecurityHeaders(_responder(None), _settings()), _http())[0]
    assert set(_headers(start)) == {
        b"content-security-policy",
        b"x-content-type-options",
        b"referrer-policy",
        b"x-frame-options",
        b"permissions-policy",
        b"server",
        b"strict-transport-security",
    }


def test_headers_the_app_sets_itself_are_sent_once_with_its_value():
    own = [(b"x-content-type-options", b"nosniff"), (b"server", b"app"), (b"referrer-policy", b"no-referrer")]
    start = _run(security.SecurityHeaders(_responder(own), _settings()), _http())[0]
    headers = _headers(start)
    assert headers[b"server"] == [b"app"]
    assert headers[b"x-content-type-options"] == [b"nosniff"]
    assert headers[b"referrer-policy"] == [b"no-referrer"]
    # ASGI: header names are lower-case.
    assert all(name == name.lower() for name, _ in start["headers"])


def test_a_refused_request_is_a_complete_plain_text_403():
    reached = []

    async def app(scope, receive, send):
        reached.append(scope)

    start, body = _run(
        security.SecurityHeaders(app, _settings()),
        _http("/api/v1/leads", "POST", [(b"origin", b"https://evil.example")]),
    )
    assert reached == []
    assert start["status"] == 403
    assert all(name == name.lower() for name, _ in start["headers"])
    headers = _headers(start)
    assert headers[b"content-type"][0].lower() == b"text/plain"
    assert body == {"type": "http.response.body", "body": HTTPStatus.FORBIDDEN.phrase.encode()}
    assert headers[b"content-length"] == [str(len(body["body"])).encode()]
    assert headers[b"x-frame-options"] == [b"DENY"] and b"strict-transport-security" in headers


# ---------------------------------------------------------------------- websockets and lifespan


@pytest.mark.parametrize("path", ["/_event/", "/ws", "/"])
def test_a_websocket_from_another_site_is_closed_as_a_policy_violation_on_any_path(path):
    """1008: policy violation (RFC 6455 §7.4.1); the app never sees the handshake."""
    reached = []

    async def app(scope, receive, send):
        reached.append(scope)

    sent = _run(security.SecurityHeaders(app, _settings()), _websocket(path, b"https://evil.example"))
    assert sent == [{"type": "websocket.close", "code": 1008}]
    assert reached == []


@pytest.mark.parametrize("origin", [SITE.encode(), SITE.encode() + b"/", None])
def test_a_websocket_from_the_site_or_a_client_without_origin_talks_to_the_app(origin):
    incoming = [{"type": "websocket.connect"}, {"type": "websocket.receive", "text": "ping"}]
    sent = _run(security.SecurityHeaders(_echo_socket, _settings()), _websocket("/ws", origin), incoming)
    assert sent == [{"type": "websocket.accept"}, {"type": "websocket.send", "text": "/ws ping"}]


def test_the_lifespan_reaches_the_app_untouched():
    scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
    seen = []

    async def app(app_scope, receive, send):
        seen.append(app_scope)
        assert (await receive())["type"] == "lifespan.startup"
        await send({"type": "lifespan.startup.complete"})

    sent = _run(security.SecurityHeaders(app, _settings()), scope, [{"type": "lifespan.startup"}])
    assert seen == [scope] and seen[0] is scope
    assert sent == [{"type": "lifespan.startup.complete"}]


@given(suffix=st.binary(min_size=1, max_size=20))
@example(suffix=b"/")
@example(suffix=b"//")
@example(suffix=b" ")
@example(suffix=b"X")
@example(suffix=b".evil.example")
def test_an_origin_is_the_site_s_only_when_it_is_the_site_s_up_to_trailing_slashes(suffix):
    """Any byte after the site's origin, but slashes, makes another origin (a host `...exampleX`
    is another host, a trailing space is no browser's)."""
    origin = SITE.encode() + suffix
    sent = _run(
        security.SecurityHeaders(_echo_socket, _settings()),
        _websocket("/_event/", origin),
        [{"type": "websocket.connect"}],
    )
    refused = sent == [{"type": "websocket.close", "code": 1008}]
    assert refused == (suffix.rstrip(b"/") != b""), sent
