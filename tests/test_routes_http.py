"""Acceptance over HTTP against the production build: exact paths, 404s, redirects, lang."""

from __future__ import annotations

import re
import socket
from urllib.parse import quote, urlsplit

import httpx2
import pytest
from http_checks import NOT_FOUND_TEXT, unchunk

from marketing_site import routes

NOINDEX = re.compile(r'<meta (?=[^>]*name="robots")(?=[^>]*content="noindex")[^>]*>')
ACCENTED = [p for p in routes.all_paths() if not p.isascii()]


def _raw_get(site: str, target: bytes) -> httpx2.Response:
    """GET with the request target sent byte for byte (raw UTF-8), as some clients do."""
    host, port = urlsplit(site).hostname, urlsplit(site).port
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(
            b"GET " + target + b" HTTP/1.1\r\nHost: " + f"{host}:{port}".encode() + b"\r\nConnection: close\r\n\r\n"
        )
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = [tuple(line.split(": ", 1)) for line in header_lines]
    if {k.lower(): v for k, v in headers}.get("transfer-encoding") == "chunked":
        body = unchunk(body)
    return httpx2.Response(int(status_line.split()[1]), headers=headers, content=body)


def _get(site: str, path: str, raw: bool = False) -> httpx2.Response:
    if raw:
        return _raw_get(site, path.encode("utf-8"))
    with httpx2.Client(base_url=site, follow_redirects=False) as client:
        return client.get(quote(path, safe="/"))


def test_route_table_has_every_spec_route():
    # Counts come from the route table: one page in each of its languages, no path twice.
    french = [p for p in routes.all_paths() if routes.page_lang(p) == "fr"]
    english = [p for p in routes.all_paths() if routes.page_lang(p) == "en"]
    assert french == [page.fr for page in routes.PAGES]
    assert english == [page.en for page in routes.PAGES if page.en]
    assert len(set(routes.all_paths())) == len(french) + len(english)
    assert {
        "/portail-client-privée",
        "/conformité-kyc-wealth-management",
        "/wealth-manager-nouvelle-génération",
        "/offres-portail-client-et-crm-dédié-a-la-gestion-privée",
    } <= set(french)


@pytest.mark.parametrize("path", routes.all_paths())
def test_every_route_answers_200_with_prerendered_page(site, path):
    response = _get(site, path)
    assert response.status_code == 200, path
    html = response.text
    lang = routes.page_lang(path)
    assert f'<html lang="{lang}"' in html
    title = re.search(r"<title>([^<]+)</title>", html)
    assert title and title.group(1).strip()
    h1 = re.search(r"<h1[^>]*>(.+?)</h1>", html, re.DOTALL)
    assert h1 and re.sub(r"<[^>]+>", "", h1.group(1)).strip()
    # Body text is in the HTML before any JavaScript runs.
    main = re.search(r'<main[^>]*id="contenu"[^>]*>(.+?)</main>', html, re.DOTALL)
    assert main and len(re.sub(r"<[^>]+>", " ", main.group(1)).split()) >= 5


@pytest.mark.parametrize("path", ACCENTED)
def test_accented_routes_answer_raw_and_encoded(site, path):
    encoded = _get(site, path)
    raw = _get(site, path, raw=True)
    assert encoded.status_code == raw.status_code == 200
    assert encoded.text == raw.text


@pytest.mark.parametrize("path", ["/nope", "/CONNEXION", "/assets/", "/english/x"])
def test_unknown_paths_answer_404_with_not_found_page(site, path):
    response = _get(site, path)
    assert response.status_code == 404
    assert NOT_FOUND_TEXT in response.text
    assert NOINDEX.search(response.text)
    assert '<html lang="fr"' in response.text
    assert 'data-variant="fr"' in response.text


# A trailing slash, or another spelling of a file's path, never serves the file (issue 30,
# finding 8: /booking.jsx/ answered 200 with the widget's source).
@pytest.mark.parametrize(
    "path",
    ["/booking.jsx/", "/lead_form.jsx/", "/exact-paths.json/", "/site_ui.jsx//", "/favicon.ico/", "//favicon.ico"],
)
def test_a_file_path_spelt_otherwise_is_a_404(site, path):
    response = _get(site, path, raw=True)  # byte for byte: `//x` is no host here
    assert response.status_code == 404
    assert NOT_FOUND_TEXT in response.text


# /en/merci (where English downloads lead) stays a 404, a kept defect of the original,
# but like every unknown /en/ path it is the English not-found page: navbar, footer, lang.
@pytest.mark.parametrize("path", [routes.EN_THANKS_PATH, "/en/nope/deeper", "/en/pricing/x", "/en/CGV"])
def test_unknown_english_paths_answer_404_with_the_english_not_found_page(site, path):
    response = _get(site, path)
    assert response.status_code == 404
    html = response.text
    assert '<html lang="en"' in html
    assert 'data-variant="en"' in html
    assert "Oops! We are sorry, the page you asked for does not exist" in html
    assert "<title>Page not found | " in html
    footer = re.search(r"<footer.+?</footer>", html, re.DOTALL).group(0)
    assert 'href="/en/mentions-legales"' in footer and 'href="/mentions-legales"' not in footer
    assert NOT_FOUND_TEXT not in html
    assert NOINDEX.search(html)


def test_accented_privacy_spelling_redirects_permanently(site):
    for raw in (False, True):
        response = _get(site, "/politique-de-confidentialité", raw=raw)
        assert response.status_code in (301, 308)
        assert response.headers["location"] == "/politique-de-confidentialite"


@pytest.mark.parametrize("path", ["/connexion/", "/portail-client-privée/", "/en"])
def test_trailing_slash_variant_redirects_to_exact_path(site, path):
    response = _get(site, path)
    assert response.status_code in (301, 308)
    target = path.rstrip("/") if path.endswith("/") else path + "/"
    assert response.headers["location"] == quote(target, safe="/")


def test_redirect_keeps_query_string(site):
    with httpx2.Client(base_url=site) as client:
        response = client.get("/connexion/?x=1", follow_redirects=False)
    assert response.headers["location"] == "/connexion?x=1"


def test_head_request_and_query_string_on_a_page(site):
    with httpx2.Client(base_url=site) as client:
        assert client.head("/compare").status_code == 200
        assert client.get("/compare?utm_source=x").status_code == 200


def test_hashed_assets_are_cached_forever_and_pages_revalidated(site):
    with httpx2.Client(base_url=site) as client:
        page = client.get("/")
        asset = re.search(r'href="(/assets/[^"]+\.css)"', page.text).group(1)
        asset_response = client.get(asset)
    assert asset_response.status_code == 200
    assert "immutable" in asset_response.headers["cache-control"]
    assert page.headers["cache-control"] == "no-cache"


def test_backend_paths_are_not_pages(site):
    with httpx2.Client(base_url=site) as client:
        assert client.get("/api/v1/health/live").status_code == 200
        assert client.post("/connexion").status_code in (404, 405)


def test_pages_and_assets_are_served_precompressed(site):
    with httpx2.Client(base_url=site) as client:
        asset = re.search(r'import "(/assets/[^"]+\.js)"', client.get("/").text).group(1)
        for path in ("/", asset):
            brotli = client.get(path, headers={"Accept-Encoding": "br, gzip"})
            gzip_only = client.get(path, headers={"Accept-Encoding": "gzip"})
            assert brotli.headers["content-encoding"] == "br"
            assert gzip_only.headers["content-encoding"] == "gzip"
            assert "accept-encoding" in brotli.headers["vary"].lower()
