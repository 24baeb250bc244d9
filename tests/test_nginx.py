"""The nginx configuration of deploy/ runs for real: Debian's nginx in front of the site.

The session builds the site for the proxy's origin once (`proxy_build` in conftest.py:
`SITE_URL=https://127.0.0.1:<port>`, in its own Reflex web folder, so the session's build is
untouched) and writes the nginx maps from it with scripts/nginx_maps.py; this module serves that
build with a production-like app (https SITE_URL, session secret, TRUSTED_PROXIES = the proxy)
and runs `deploy/nginx/nereo.conf` with a throwaway certificate as our own nginx process. Every check compares the proxy with the app
behind it: same pages at the same exact paths, same 404s and redirects, same headers.
"""

from __future__ import annotations

import re
import socket
import ssl
import subprocess
import time
from dataclasses import dataclass
from urllib.parse import quote

import httpx2
import pytest
from browser_checks import NOT_FOUND_EXAMPLES, not_found_suggestions, switch_to_alternate_prices_over_websocket
from http_checks import NOT_FOUND_TEXT, unchunk
from lead_payloads import lead_payload
from servers import METRICS_SCRAPER, METRICS_TOKEN, NginxProxy, SiteServer, ensure_nginx, free_port

from marketing_site import routes

API = "/api/v1/mail/send"
SECURITY_HEADERS = (
    "content-security-policy",
    "strict-transport-security",
    "x-content-type-options",
    "referrer-policy",
    "x-frame-options",
    "permissions-policy",
)
PER_IP_LIMIT = 3


@dataclass
class Proxied:
    app: SiteServer
    proxy: NginxProxy
    config_test: subprocess.CompletedProcess

    @property
    def origin(self) -> str:
        return self.proxy.origin


@pytest.fixture(scope="module")
def proxied(workdir, smtp, proxy_build):
    ensure_nginx()
    app = SiteServer(
        free_port(),
        workdir,
        smtp,
        SITE_URL=proxy_build.origin,
        REFLEX_WEB_WORKDIR=str(proxy_build.web_dir),
        ANALYTICS_SCRIPT_URL="",
        MARKETING_SCRIPT_URL="",
        SESSION_SECRET="proxy-test-session-secret",
        TRUSTED_PROXIES="127.0.0.1",
        RATE_LIMIT_PER_IP=str(PER_IP_LIMIT),
    )
    app.migrate()
    app.start()
    proxy = NginxProxy(workdir, proxy_build.build, proxy_build.maps, f"127.0.0.1:{app.port}", port=proxy_build.port)
    proxy.write_config()
    config_test = proxy.test_config()
    if config_test.returncode == 0:
        proxy.start()
    try:
        yield Proxied(app, proxy, config_test)
    finally:
        proxy.stop()
        app.stop()


def _client(source: str = "127.0.0.1", http2: bool = True) -> httpx2.Client:
    """A visitor connecting from `source` (any 127.x address reaches loopback)."""
    transport = httpx2.HTTPTransport(verify=False, http2=http2, local_address=source)
    return httpx2.Client(transport=transport, follow_redirects=False, timeout=20)


def _both(proxied: Proxied, path: str, **headers: str) -> tuple[httpx2.Response, httpx2.Response]:
    """The same GET through the proxy and straight to the app behind it."""
    target = quote(path, safe="/?=&")
    with _client() as client:
        through = client.get(proxied.origin + target, headers=headers)
    direct = httpx2.get(proxied.app.url + target, headers=headers, follow_redirects=False, timeout=20)
    return through, direct


def _raw_tls_get(origin_port: int, target: bytes) -> tuple[int, bytes]:
    """GET over TLS with the request target sent byte for byte (raw UTF-8)."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", origin_port), timeout=10) as plain, context.wrap_socket(plain) as sock:
        sock.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in head.lower():
        body = unchunk(body)
    return int(head.split()[1]), body


def test_configuration_passes_nginx_t(proxied):
    assert proxied.config_test.returncode == 0, proxied.config_test.stderr
    assert "test is successful" in proxied.config_test.stderr
    print(proxied.proxy.version())


@pytest.mark.parametrize("path", routes.all_paths())
def test_every_route_at_its_exact_path_encoded_and_raw(proxied, path):
    through, direct = _both(proxied, path)
    assert through.status_code == direct.status_code == 200, path
    assert through.text == direct.text
    status, body = _raw_tls_get(proxied.proxy.port, path.encode())
    assert status == 200
    assert body.decode() == direct.text


@pytest.mark.parametrize(
    "path",
    [
        "/nope",
        "/CONNEXION",
        "/Connexion",
        "/PORTAIL-CLIENT-PRIVÉE",
        routes.EN_THANKS_PATH,
        "/en/nope/deeper",
        "/assets/",
        "/assets/nope.js",
        "/connexion.html",
        "/index.html",
        "/__not-found",
    ],
)
def test_unknown_wrong_case_and_file_names_answer_404_with_the_not_found_page(proxied, path):
    through, direct = _both(proxied, path)
    assert direct.status_code == 404
    assert through.status_code == 404, path
    # The not-found page of the path's language (SPEC §1: /en/ paths are English).
    expected = (
        "Oops! We are sorry, the page you asked for does not exist" if path.startswith("/en/") else NOT_FOUND_TEXT
    )
    assert expected in through.text
    assert through.text == direct.text


@pytest.mark.parametrize(
    ("path", "location"),
    [
        ("/politique-de-confidentialité", "/politique-de-confidentialite"),
        ("/politique-de-confidentialité?from=footer", "/politique-de-confidentialite?from=footer"),
        ("/connexion/", "/connexion"),
        ("/connexion/?next=1", "/connexion?next=1"),
        ("/en", "/en/"),
        ("/portail-client-privée/", "/portail-client-priv%C3%A9e"),
    ],
)
def test_permanent_redirects_match_the_app(proxied, path, location):
    through, direct = _both(proxied, path)
    assert (direct.status_code, direct.headers["location"]) == (308, location)
    assert (through.status_code, through.headers["location"]) == (308, location)


def _asset_path(html: str) -> str:
    return re.search(r'import "(/assets/[^"]+\.js)"', html).group(1)


def test_security_and_cache_headers_are_the_apps(proxied):
    with _client() as client:
        home = client.get(proxied.origin + "/").text
    paths = [
        "/",
        routes.FEATURE_PORTAL.fr,
        routes.PRICING.en,
        "/nope",
        _asset_path(home),
        re.search(r'href="(/assets/[^"]+\.css)"', home).group(1),
        "/favicon.svg",
        "/favicon.ico",
        "/robots.txt",
        "/api/v1/health",
        "/api/v1/booking/cancel?token=1.2.x&lang=en",
        "/files/nope.pdf",
        "/api/v1/openapi.json",
    ]
    for path in paths:
        through, direct = _both(proxied, path)
        assert through.status_code == direct.status_code, path
        for name in SECURITY_HEADERS:
            assert through.headers.get_list(name) == direct.headers.get_list(name), (path, name)
        if not path.startswith(("/api/", "/files/")):
            assert through.headers.get("cache-control") == direct.headers.get("cache-control"), path
    assert direct.headers["strict-transport-security"].startswith("max-age=")
    # The cancel link's page keeps its own policy through the proxy: its token goes in no Referer.
    cancel, _ = _both(proxied, "/api/v1/booking/cancel?token=1.2.x&lang=en")
    assert cancel.headers.get_list("referrer-policy") == ["strict-origin"]
    # Each page allows exactly its own inline scripts: the policies differ from page to page.
    policies = {_both(proxied, p)[0].headers["content-security-policy"] for p in ("/", routes.PRICING.en)}
    assert len(policies) == 2


def test_hashed_assets_are_immutable_and_compressed(proxied):
    with _client() as client:
        home = client.get(proxied.origin + "/", headers={"Accept-Encoding": "gzip"})
        asset = client.get(proxied.origin + _asset_path(home.text), headers={"Accept-Encoding": "gzip"})
    assert home.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in home.headers.get("vary", "")
    assert asset.status_code == 200
    assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert asset.headers["content-encoding"] == "gzip"
    assert home.text == _both(proxied, "/")[1].text


def test_served_over_http2_and_plain_http_goes_to_https(proxied):
    with _client(http2=True) as client:
        response = client.get(proxied.origin + "/")
    assert response.http_version == "HTTP/2"
    plain = httpx2.get(f"http://127.0.0.1:{proxied.proxy.http_port}/connexion?x=1", follow_redirects=False)
    assert plain.status_code == 301
    assert plain.headers["location"] == "https://127.0.0.1/connexion?x=1"


@pytest.mark.browser
def test_websocket_pricing_switch_through_the_proxy(new_page, page_errors, proxied):
    page = new_page(ignore_https_errors=True)
    switch_to_alternate_prices_over_websocket(page, proxied.origin)
    assert page_errors == []
    page.context.close()  # nginx logs the websocket when it closes
    upgraded = re.compile(r'"GET /_event/\?[^"]*transport=websocket[^"]*" 101 ')
    for _ in range(50):
        if upgraded.search((proxied.proxy.dir / "access.log").read_text()):
            break
        time.sleep(0.1)
    assert upgraded.search((proxied.proxy.dir / "access.log").read_text())


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/.well-known/security.txt", "text/plain"),
        ("/manifest-fr.json", "application/json"),
        ("/manifest-en.json", "application/json"),
        ("/icons/app-512.png", "image/png"),
    ],
)
def test_security_txt_manifests_and_icons_are_the_apps(proxied, path, content_type):
    through, direct = _both(proxied, path)
    assert through.status_code == direct.status_code == 200
    assert through.headers["content-type"].split(";")[0] == content_type
    assert through.content == direct.content


@pytest.mark.browser
def test_not_found_page_suggests_near_pages_behind_the_proxy(new_page, page_errors, proxied):
    page = new_page(ignore_https_errors=True)
    for path, expected in NOT_FOUND_EXAMPLES.items():
        status, suggested = not_found_suggestions(page, proxied.origin + quote(path, safe="/"))
        assert status == 404, path
        assert suggested[0] == expected and len(suggested) <= 3, (path, suggested)
    assert page_errors == []


def _post_lead(source: str, email: str, origin: str, **headers: str) -> httpx2.Response:
    with _client(source) as client:
        return client.post(origin + API, json=lead_payload(email=email), headers=headers)


def test_a_lead_posted_through_the_proxy_is_stored(proxied):
    email = f"proxy-{time.time_ns()}@example.com"
    response = _post_lead("127.0.0.5", email, proxied.origin)
    assert response.status_code == 200
    assert proxied.app.query("SELECT form FROM lead WHERE email = ?", email) == [("ebook",)]


def test_rate_limit_counts_the_visitor_behind_the_proxy_not_the_proxy(proxied):
    def post(source: str, **headers: str) -> int:
        return _post_lead(source, f"rl-{time.time_ns()}@example.com", proxied.origin, **headers).status_code

    assert [post("127.0.0.2") for _ in range(PER_IP_LIMIT)] == [200] * PER_IP_LIMIT
    assert post("127.0.0.2") == 429
    # The visitor cannot pass for someone else: its own X-Forwarded-For comes before the proxy's hop.
    assert post("127.0.0.2", **{"X-Forwarded-For": "203.0.113.9"}) == 429
    # Another visitor through the same proxy has its own allowance.
    assert post("127.0.0.3") == 200


def test_forged_forwarded_for_sent_straight_to_the_app_gains_nothing(proxied):
    def post(**headers: str) -> int:
        email = f"direct-{time.time_ns()}@example.com"
        return _post_lead("127.0.0.4", email, proxied.app.url, **headers).status_code

    assert [post(**{"X-Forwarded-For": f"198.51.100.{i}"}) for i in range(PER_IP_LIMIT)] == [200] * PER_IP_LIMIT
    assert post(**{"X-Forwarded-For": "198.51.100.99"}) == 429


@pytest.mark.parametrize(
    ("path", "policy"),
    [
        # No query: the error page, an HTML refresh (the code and state stay out of Referer).
        ("/auth/callback", "no-referrer"),
        ("/auth/callback?state=unknown&code=x", "no-referrer"),
        # The mail's link, a token in the URL: a Referer is the origin alone (and the form's POST
        # carries the true Origin, which browsers without Sec-Fetch-Site are judged by).
        ("/api/v1/booking/cancel?token=1.2.x", "strict-origin"),
    ],
)
def test_pages_whose_url_carries_a_secret_keep_it_out_of_referer_through_the_proxy(proxied, path, policy):
    through, direct = _both(proxied, path)
    assert through.status_code == direct.status_code
    assert direct.headers.get_list("referrer-policy") == [policy]
    assert through.headers.get_list("referrer-policy") == [policy], path
    # Everything else keeps the site-wide policy, through the proxy as from the app.
    for other in ("/", "/api/v1/health", "/nope"):
        assert _both(proxied, other)[0].headers.get_list("referrer-policy") == ["strict-origin-when-cross-origin"]


@pytest.mark.parametrize(
    "path",
    [
        "/lead_form.jsx",
        "/site_ui.jsx",
        "/booking.jsx",
        "/exact-paths.json",
        "/exact-paths.json.gz",
        "/exact-paths.json.br",
        # With a trailing slash (the app served these files so, issue 30 finding 8).
        "/lead_form.jsx/",
        "/booking.jsx/",
        "/exact-paths.json/",
        "/favicon.ico/",
        "/styles/.keep",
        "/ping",
        "/_health",
    ],
)
def test_build_inputs_and_reflex_probes_are_not_served(proxied, path):
    through, direct = _both(proxied, path)
    assert (through.status_code, direct.status_code) == (404, 404), path
    assert NOT_FOUND_TEXT in through.text and through.text == direct.text


def test_the_application_server_is_not_named(proxied):
    for path in ("/", "/api/v1/health", "/api/v1/health/live", "/nope"):
        through, direct = _both(proxied, path)
        for response in (through, direct):
            assert "granian" not in str(response.headers).lower(), path
    assert direct.headers["server"] == "nereo"


def test_metrics_pass_only_from_the_named_scraper_and_with_the_token(proxied):
    """Anyone else gets the 404 page, as for an unknown path; the scraper without the token a 401."""
    token = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    with _client("127.0.0.1") as client:
        refused = client.get(proxied.origin + "/metrics", headers=token)
    assert refused.status_code == 404 and NOT_FOUND_TEXT in refused.text
    with _client(METRICS_SCRAPER) as client:
        assert client.get(proxied.origin + "/metrics").status_code == 401
        scraped = client.get(proxied.origin + "/metrics", headers=token)
    assert scraped.status_code == 200
    assert "site_http_requests_total" in scraped.text


class _Machine:
    """A machine behind the proxy whose database is down: readiness 503 `down`, and a lead POST
    still answered (as the app answers what needs no database). Counts what reaches it."""

    def __init__(self):
        import http.server
        import json
        import threading
        from collections import Counter

        self.hits: Counter[str] = Counter()
        machine = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self, status: int, body: dict) -> None:
                machine.hits[self.path] += 1
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._answer(503, {"status": "down"})

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self._answer(200, {"status": "accepted"})

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.address = f"127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_readiness_polled_through_the_proxy_never_takes_a_machine_out(workdir, proxy_build):
    """Issue 39, finding 9: during a database outage an uptime poller's 503s from /api/v1/health
    counted as upstream failures (passed to the next machine, each counted against one): both
    machines were taken out and 576 lead POSTs got 502 "no live upstreams" for 11 s. Readiness
    has a location of its own (`proxy_next_upstream error timeout`, not the 503): each poll asks one
    machine and gets its answer, and the machines stay in for everything else. A machine that does
    not answer at all is passed over: the poll gets the other's answer, not a 502 or a 504."""
    ensure_nginx()
    machines = [_Machine(), _Machine()]
    proxy = NginxProxy(workdir, proxy_build.build, proxy_build.maps, [m.address for m in machines])
    proxy.write_config()
    proxy.start()
    try:
        with _client() as client:
            for _ in range(12):  # four times the shipped max_fails of each machine
                polled = client.get(proxy.origin + "/api/v1/health")
                assert (polled.status_code, polled.json()) == (503, {"status": "down"})
            assert sum(machine.hits["/api/v1/health"] for machine in machines) == 12  # one machine a poll
            posted = [client.post(proxy.origin + API, json=lead_payload()).status_code for _ in range(6)]
        assert posted == [200] * 6
        assert all(machine.hits[API] for machine in machines)  # both machines still take requests
        machines[0].stop()  # connections refused from now on
        with _client() as client:
            polls = [client.get(proxy.origin + "/api/v1/health").status_code for _ in range(4)]
        assert polls == [503] * 4  # the other machine's own answer each time
    finally:
        proxy.stop()
        for machine in machines:
            machine.stop()
