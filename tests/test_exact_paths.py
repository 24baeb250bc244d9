"""Unit tests of the exact-path resolver, on a small build tree made here."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from marketing_site import routes
from marketing_site.reflex_internals import exact_paths


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"/portail-client-priv%C3%A9e", "/portail-client-privée"),
        ("/portail-client-privée".encode(), "/portail-client-privée"),
        # The same accent typed as a combining sequence (NFD) means the same page.
        ("/portail-client-prive\u0301e".encode(), "/portail-client-privée"),
        (b"/a%2Fb", "/a/b"),
        (b"/%FF", "/\ufffd"),
    ],
)
def test_normalize_request_path(raw, expected):
    assert exact_paths.normalize_request_path(raw) == expected


def test_reflex_route():
    assert exact_paths.reflex_route("/") == "index"
    assert exact_paths.reflex_route("/en/") == "en"
    assert exact_paths.reflex_route("/registration/2") == "registration/2"


def test_accented_route_parts_are_accepted():
    from reflex.route import verify_route_validity

    exact_paths.install()
    verify_route_validity("en/conformité-kyc-wealth-management")
    with pytest.raises(ValueError):
        verify_route_validity("a b")


def test_an_accented_page_runs_its_own_on_load_events():
    """The browser sends its path percent-encoded; Reflex looks on_load up by decoded routes."""
    from marketing_site.marketing_site import app
    from marketing_site.state.auth import AuthState

    accented = routes.FEATURE_PORTAL.fr
    assert accented != quote(accented)  # the case this is about
    events = app.get_load_events(quote(accented))
    assert events is app.get_load_events(accented)  # the page's own list, not the not-found page's
    assert events[0] == AuthState.initialise
    # The not-found page's own: a logged-in visitor's navbar there too.
    assert app.get_load_events(quote("/en/pas-une-page")) == [AuthState.initialise]


@pytest.fixture
def site_tree(tmp_path):
    (tmp_path / "index.html").write_text("<html>home</html>")
    (tmp_path / "portail-client-priv%C3%A9e.html").write_text('<html lang="fr">portail</html>')
    (tmp_path / "not-found.html").write_text("<html>not found</html>")
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "not-found.html").write_text('<html lang="en">not found</html>')
    (tmp_path / "logo.svg").write_text("<svg/>")
    (tmp_path / exact_paths.MANIFEST_NAME).write_text(
        json.dumps(
            {
                "pages": {"/": "index.html", "/portail-client-privée": "portail-client-priv%C3%A9e.html"},
                "not_found": {"fr": "not-found.html", "en": "en/not-found.html"},
                "redirects": {"/old": "/"},
            }
        )
    )
    return tmp_path


def _call(app, path: bytes, method: str = "GET"):
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path.decode("utf-8", "replace"),
        "raw_path": path,
        "query_string": b"",
        "headers": [],
        "asgi": {"version": "3.0", "spec_version": "2.4"},
    }
    # In a thread of its own: Playwright's sync API may own this thread's event loop.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


async def _inner(scope, receive, send):
    await send({"type": "http.response.start", "status": 299, "headers": []})
    await send({"type": "http.response.body", "body": b"backend"})


def test_resolver_serves_exact_paths_and_404s(site_tree):
    app = exact_paths.ExactPathSite(_inner, static_dir=site_tree)
    assert _call(app, b"/portail-client-priv%C3%A9e")[::2] == (200, b'<html lang="fr">portail</html>')
    assert _call(app, "/portail-client-privée".encode())[0] == 200
    assert _call(app, b"/logo.svg")[0] == 200
    status, headers, body = _call(app, b"/PORTAIL-CLIENT-PRIV%C3%89E")
    assert (status, body) == (404, b"<html>not found</html>")
    assert _call(app, b"/portail-client-privee")[0] == 404
    # Unknown English paths get the English not-found page.
    assert _call(app, b"/en/merci")[::2] == (404, b'<html lang="en">not found</html>')
    assert _call(app, b"/enx/merci")[::2] == (404, b"<html>not found</html>")
    assert _call(app, b"/not-found.html")[0] == 404
    assert _call(app, b"/../etc/passwd")[0] == 404
    status, headers, _ = _call(app, b"/old")
    assert (status, headers[b"location"]) == (308, b"/")
    status, headers, _ = _call(app, b"/portail-client-priv%C3%A9e/")
    assert (status, headers[b"location"]) == (308, b"/portail-client-priv%C3%A9e")


def test_backend_paths_and_other_methods_reach_reflex(site_tree):
    app = exact_paths.ExactPathSite(_inner, static_dir=site_tree)
    assert _call(app, b"/_event/")[0] == 299
    assert _call(app, b"/api/v1/mail/send", method="POST")[0] == 299
    assert _call(app, b"/", method="POST")[0] == 299


def test_without_a_build_everything_reaches_reflex(tmp_path):
    app = exact_paths.ExactPathSite(_inner, static_dir=tmp_path)
    assert _call(app, b"/")[0] == 299


def test_manifest_fails_on_a_missing_page(tmp_path):
    (tmp_path / "index.html").write_text('<html lang="fr">')
    with pytest.raises(RuntimeError, match="missing"):
        exact_paths.write_manifest(tmp_path)


def test_manifest_drops_module_preloads_and_sets_lang_on_every_page(tmp_path):
    preloads = '<link rel="modulepreload" href="/assets/root-1.js"/><link rel="modulepreload" href="/assets/x.js"/>'
    page = (
        f'<html lang="fr"><head>{preloads}<link rel="stylesheet" href="/assets/a.css"/></head><body>'
        '<script type="module" async="">import "/assets/manifest-1.js";</script></body></html>'
    )
    for path in [*routes.all_paths(), *exact_paths.NOT_FOUND_PROBES.values()]:
        route = exact_paths.reflex_route(path)
        file = tmp_path / (("index" if route == "index" else quote(route, safe="/")) + ".html")
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(page)
    manifest = exact_paths.write_manifest(tmp_path)
    for path, name in manifest["pages"].items():
        html = (tmp_path / name).read_text()
        assert "modulepreload" not in html
        assert f'<html lang="{routes.page_lang(path)}"' in html
        # The stylesheet and the module script that hydrates the page stay.
        assert 'rel="stylesheet"' in html and 'import "/assets/manifest-1.js"' in html
    for lang, name in manifest["not_found"].items():
        html = (tmp_path / name).read_text()
        assert "modulepreload" not in html and f'<html lang="{lang}"' in html


# ------------------------------------------------------------------ any spelling of a file path
# Issue 30, finding 8: /booking.jsx/, /lead_form.jsx/ and /exact-paths.json/ answered 200 with
# the file. A file answers at its exact path only, and a build file that is not public never.

PUBLIC_FILES = {"/logo.svg": b"<svg/>", "/assets/app-1a2b.js": b"app()", "/.well-known/security.txt": b"Contact: x"}
PRIVATE_FILES = {"/booking.jsx": b"jsx booking", "/lead_form.jsx": b"jsx lead form", "/.env": b"SECRET=1"}


@pytest.fixture
def file_tree(site_tree):
    for path, content in {**PUBLIC_FILES, **PRIVATE_FILES, "/exact-paths.json.gz": b"gz"}.items():
        (site_tree / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (site_tree / path.lstrip("/")).write_bytes(content)
    return site_tree


def _spellings(path: str) -> st.SearchStrategy[bytes]:
    """The same file's path written another way, percent-encoded or not."""
    head, _, name = path.rpartition("/")
    variants = st.sampled_from(
        [
            path + "/",
            path + "//",
            "/" + path,
            f"{head}/./{name}",
            f"{head}/x/../{name}",
            path + "/.",
            path + "%2F",
            path.replace("/", "%2F"),
            quote(path + "/", safe=""),
            path + "%00",
            path + "\\",
            path.upper(),
        ]
    )
    return st.builds(lambda text, suffix: (text + suffix).encode(), variants, st.sampled_from(["", "/", "?x=1"]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_file_answers_at_its_exact_path_only_and_a_build_file_never(file_tree, data):
    app = exact_paths.ExactPathSite(_inner, static_dir=file_tree)
    path, content = data.draw(st.sampled_from(sorted({**PUBLIC_FILES, **PRIVATE_FILES, MANIFEST: b""}.items())))
    raw = data.draw(st.one_of(st.just(path.encode()), _spellings(path)))
    raw = raw.split(b"?")[0]
    status, _headers, body = _call(app, raw)
    # Percent-encoding is no other spelling: /%2Flogo.svg is /logo.svg decoded, as pages are.
    if exact_paths.normalize_request_path(raw) == path and path in PUBLIC_FILES:
        assert (status, body) == (200, content)
    else:
        assert status == 404, (raw, status)
        assert content not in body or not content


MANIFEST = "/" + exact_paths.MANIFEST_NAME
