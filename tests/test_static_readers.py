"""An anonymous reader opens no state websocket; whoever needs the server's state still connects.

The connection policy is in `marketing_site/reflex_internals/frontend_build.py` (its Vite plugin rewrites
Reflex's client, `frontend/vite_plugin.js`). Here: the rewrite against the installed Reflex's
own `state.js` (a Reflex upgrade that moves what it rewrites fails here, and the build stops),
the policy's page list against the pages' on_load events, and in Chromium the websockets of
each journey: navigating between public pages (none; reading every route, in the walk of
tests/test_accessibility.py: none), the stateful
pages (one), a logged-in visitor (the logged-in navbar everywhere), the console and the trial.
The interactive parts of the public pages are checked without a websocket where they are
tested (lead forms, scheduler, carousel, consent, pricing: `page.state_sockets`).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import reflex as rx
from browser_checks import provider_login
from conftest import CONSOLE_ADMIN_USER, TRIAL_USER
from http_checks import StateSocket
from servers import ROOT

from marketing_site import routes
from marketing_site.reflex_internals.frontend_build import (
    STATE_COOKIES,
    VITE_PLUGIN,
    add_site_plugin,
    connection_policy,
)

HYDRATED = "() => window.__reactRouterDataRouter !== undefined"
STATE_JS = Path(__import__("reflex_base").__file__).parent / ".templates" / "web" / "utils" / "state.js"
READ_ONLY = [p for p in routes.all_paths() if not routes.page_for_path(p).stateful]
STATEFUL = [p for p in routes.all_paths() if routes.page_for_path(p).stateful]

TRANSFORM = """
import { transformState } from %s;
import { readFileSync } from "node:fs";
const code = readFileSync(process.argv[1], "utf8");
const plugin = { error(message) { console.error(message); process.exit(3); } };
process.stdout.write(transformState(plugin, code, JSON.parse(process.argv[2])));
"""


INTERNALS = ROOT / "marketing_site" / "reflex_internals"


def test_what_the_site_notice_reads_of_reflex_client_is_still_there():
    """reflex_internals/site_notice.jsx (frontend_build.py, point 4): `refs` from utils/state.js,
    the EventLoopContext of the context module, and connectErrors as the second item of its
    value; the ref it registers is the one `rx.set_value` on the site's ref looks up."""
    from reflex_base.compiler import templates

    from marketing_site import failures
    from marketing_site.components.site_notice import site_notice
    from marketing_site.reflex_internals.site_notice import reflex_ref_name

    notice = (INTERNALS / "site_notice.jsx").read_text()
    assert 'import { EventLoopContext } from "$/utils/context"' in notice
    assert 'import { refs } from "$/utils/state"' in notice
    assert "loop[1]" in notice
    assert re.search(r"^export const refs = \{\};$", STATE_JS.read_text(), re.MULTILINE)
    context_module = Path(templates.__file__).read_text()
    assert re.search(r"export \{\{[^}]*\bEventLoopContext\b", context_module)
    assert re.search(
        r"EventLoopContext\.Provider,\s*\{\{ value: \[addEventsLocal, connectErrors\] \}\}", context_module
    )
    assert re.search(r"return \[addEvents, connectErrors\];", STATE_JS.read_text())
    assert "refs[refName] = {" in notice
    event = rx.set_value(failures.NOTICE_REF, "A1B2C3D4")
    assert str(event.args[0][1]) == json.dumps(reflex_ref_name(failures.NOTICE_REF))
    assert f"refName:{json.dumps(reflex_ref_name(failures.NOTICE_REF))}" in str(site_notice("fr"))


# What reads Reflex's client (its module paths, its registries and contexts, the names of the
# slots its client state keeps in `refs`), in JavaScript or in JavaScript that Python writes.
CLIENT_INTERNALS = re.compile(
    r"\$/utils/|\$/env\.json|\brefs\s*\[|\{\s*refs\s*\}|\bEventLoopContext\b|\bStateContexts\b|"
    r"\bconnectErrors\b|_client_state_|\bapplyEventActions\b|\bReflexEvent\b"
)
SOURCE_SUFFIXES = {".js", ".jsx", ".mjs", ".ts", ".tsx", ".py"}


def client_internals_read(path: Path, root: Path = ROOT) -> list[str]:
    return [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CLIENT_INTERNALS.search(line)
    ]


def test_no_file_outside_the_internals_package_reads_reflex_client():
    """Reflex's client (`$/utils/state`, `$/utils/context`, its `refs`, the event loop's context,
    the slots of its client state) is read from marketing_site/reflex_internals/ only: the site's
    JavaScript (assets/, the package) and the Python that writes JavaScript. A Reflex upgrade
    then has one folder to look at (docs/reflex-upgrade.md)."""
    sources = [
        path
        for folder in (ROOT / "assets", ROOT / "marketing_site")
        for path in folder.rglob("*")
        if path.suffix in SOURCE_SUFFIXES and path.is_file() and "external" not in path.relative_to(ROOT).parts
    ]
    outside = [path for path in sources if INTERNALS not in path.parents]
    assert len(outside) > 100 and any(path.suffix == ".jsx" for path in outside)
    assert [found for path in outside for found in client_internals_read(path)] == []
    # The scan sees the reads where they are.
    assert client_internals_read(INTERNALS / "site_notice.jsx")
    assert client_internals_read(INTERNALS / "client_state.py")


def test_the_scan_for_reads_of_reflex_client_finds_each_form(tmp_path):
    forms = [
        'import { refs } from "$/utils/state";',
        'import { EventLoopContext } from "$/utils/context";',
        "const loop = useContext(EventLoopContext);",
        "refs['ref_site_error'] = {};",
        "rx.Var(\"refs['_client_state_setX'](true)\")",
        "window.location.href + connectErrors.length",
    ]
    for n, line in enumerate(forms):
        path = tmp_path / f"scan_{n}.jsx"
        path.write_text(line + "\n")
        assert client_internals_read(path, tmp_path), line
    harmless = tmp_path / "scan_ok.jsx"
    harmless.write_text('const preferences = { refsCount: 1 };\nimport { useState } from "react";\n')
    assert client_internals_read(harmless, tmp_path) == []


def _transform(state_js: str, tmp_path: Path) -> subprocess.CompletedProcess:
    source = tmp_path / "state.js"
    source.write_text(state_js)
    script = TRANSFORM % json.dumps(VITE_PLUGIN.as_uri())
    return subprocess.run(
        ["node", "--input-type=module", "-e", script, str(source), json.dumps(connection_policy())],
        capture_output=True,
        text=True,
        check=False,
    )


# -- the rewrite of Reflex's client -------------------------------------------------------------


def test_the_rewrite_applies_to_the_installed_reflex_client(tmp_path):
    original = STATE_JS.read_text()
    result = _transform(original, tmp_path)
    assert result.returncode == 0, result.stderr
    code = result.stdout
    assert "queueMicrotask(() => {\n    if (\n      socketStarted" not in code
    assert "!siteNeedsState(window.location.pathname) ||" in code  # the warm-up
    assert "if (siteNeedsState(window.location.pathname)) ensureSocketConnected();" in code  # the mount
    assert "(socket.current || _events.some(siteIsStatefulEvent))" in code  # an event
    assert "if (siteNeedsState(location.pathname)) ensureSocketConnected();" in code  # a navigation
    for path in connection_policy()["stateRoutes"]:
        assert json.dumps(path) in code
    node = subprocess.run(
        ["node", "--check", "--input-type=module"], input=code, capture_output=True, text=True, check=False
    )
    assert node.returncode == 0, node.stderr


@pytest.mark.parametrize(
    "removed",
    [
        "    mounted.current = true;\n    ensureSocketConnected();",
        "addEvents(app.onLoadInternalEvent());",
        "// Reconnect socket if needed for non-temporal events.\n",
        "queueMicrotask(",
    ],
    ids=["mount", "navigation", "event", "warm-up"],
)
def test_the_rewrite_stops_the_build_when_reflex_moved_what_it_rewrites(tmp_path, removed):
    original = STATE_JS.read_text()
    assert removed in original
    result = _transform(original.replace(removed, "", 1), tmp_path)
    assert result.returncode == 3
    assert "Reflex's state.js changed" in result.stderr


def test_the_policy_lists_the_pages_with_an_on_load_and_the_login_cookies():
    from marketing_site import page_table
    from marketing_site.services import site_storage

    with_on_load = {page.key for page in routes.PAGES if page_table.on_load_events(page.key)[1:]}
    assert with_on_load == {page.key for page in routes.PAGES if page.stateful}
    assert all(page.stateful for page in routes.PAGES if page.protected)
    assert set(STATE_COOKIES) == {site_storage.MARKER.name, site_storage.LOGIN_ERROR.name}
    config = add_site_plugin("export default defineConfig(() => ({\n  plugins: [\n    reactRouter(),\n  ],\n}));\n")
    assert json.dumps(connection_policy(), ensure_ascii=False) in config


def test_the_built_client_carries_the_policy(site):
    from marketing_site.reflex_internals.exact_paths import static_dir_of_build

    scripts = "".join(p.read_text(errors="replace") for p in (static_dir_of_build() / "assets").glob("*.js"))
    assert "/start-free-trial" in scripts and "nereo.is.authenticated" in scripts


# -- in Chromium ------------------------------------------------------------------------------


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function(HYDRATED)
    # Past the warm-up's timer and the event loop's mount, and a scroll to the bottom.
    page.mouse.wheel(0, 20000)
    page.wait_for_timeout(400)


def _event_requests(page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if "/_event/" in r.url else None)
    return seen


# Reading every route (load, every link and button focused by keyboard, the WCAG checkers, a
# full-page screenshot) opens no websocket: checked in test_accessibility.py's walk of every route.


@pytest.mark.browser
def test_client_side_navigation_between_public_pages_opens_no_websocket(new_page, site, page_errors):
    page = new_page(width=1280)
    requests = _event_requests(page)
    _open(page, site + "/")
    # Real links: the navbar's pricing, a solution of the Solutions menu, the language flag,
    # the footer; then the router itself through every other read-only route.
    page.locator(".site-header a[href*='offres-portail']").first.click()
    page.wait_for_url(re.compile(r".*/offres-portail-client.*"))
    page.get_by_test_id("price-engage").wait_for()
    page.locator(".disclosure button").first.click()
    page.locator(".disclosure__list a").first.click()
    page.wait_for_url(re.compile(r".*/gestion-relation-client-wealth-management$"))
    page.get_by_test_id("language-flag").click()
    page.wait_for_url(re.compile(r".*/en/gestion-relation-client-wealth-management$"))
    page.locator("footer a[href='/en/compare'], footer a[href^='/en/']").first.click()
    page.wait_for_function("() => location.pathname.startsWith('/en/')")
    for path in READ_ONLY:
        page.evaluate("(p) => window.__reactRouterDataRouter.navigate(p)", path)
        page.wait_for_function("(p) => decodeURIComponent(location.pathname) === p", arg=path)
        page.wait_for_timeout(50)
    page.wait_for_timeout(400)
    assert page.evaluate("() => performance.getEntriesByType('navigation').length") == 1  # never reloaded
    assert page.state_sockets == [] and requests == []
    assert page_errors == []


@pytest.mark.browser
@pytest.mark.parametrize("path", STATEFUL)
def test_a_page_that_needs_state_connects_once_when_it_loads(new_page, site, path):
    page = new_page()
    page.goto(site + path)
    page.wait_for_function("() => document.readyState === 'complete'")
    page.wait_for_timeout(800)
    assert len(page.state_sockets) == 1, page.state_sockets


@pytest.mark.browser
def test_navigating_to_the_login_page_connects_and_runs_its_on_load(new_page, site, page_errors):
    """Client-side, from a page read without a socket: the login page's on_load reads `return_to`."""
    page = new_page()
    _open(page, site + "/compare")
    assert page.state_sockets == []
    page.evaluate("() => window.__reactRouterDataRouter.navigate('/connexion?return_to=%2Fcompare')")
    page.wait_for_function("() => document.querySelector('input[name=return_to]')?.value === '/compare'", timeout=15000)
    assert len(page.state_sockets) == 1
    # Back on a public page, the open socket stays the only one.
    page.evaluate("() => window.__reactRouterDataRouter.navigate('/')")
    page.wait_for_timeout(500)
    assert len(page.state_sockets) == 1
    assert page_errors == []


@pytest.mark.browser
def test_the_first_event_for_a_backend_handler_connects(new_page, site):
    """On a public page read without a socket, the first backend event opens one and is delivered:
    here Reflex's own handler of uncaught errors (every page has it), whose log line the
    backend writes once the event arrives."""
    page = new_page()
    _open(page, site + "/compare")
    assert page.state_sockets == []
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    page.evaluate("() => setTimeout(() => { throw new Error('first-use probe'); })")
    page.wait_for_timeout(1500)
    assert len(page.state_sockets) == 1
    assert any("handle_frontend_exception" in frame and "first-use probe" in frame for frame in sent), sent


@pytest.mark.browser
def test_a_logged_in_visitor_keeps_the_logged_in_navbar_on_every_public_page(new_page, site, page_errors):
    page = new_page()
    _open(page, site + "/compare")
    page.get_by_test_id("nav-login").click()
    provider_login(page, TRIAL_USER)
    page.wait_for_url(site + "/compare")
    page.get_by_test_id("logout").wait_for()
    # A new document per page (each connects: the marker cookie), then client-side navigation.
    for path in (routes.HOME.fr, routes.PRICING.en, routes.FEATURE_PORTAL.fr, routes.THANKS_EBOOK.fr):
        before = len(page.state_sockets)
        page.goto(site + quote(path, safe="/"))
        page.get_by_test_id("logout").wait_for(timeout=15000)
        assert len(page.state_sockets) == before + 1
    for path in (routes.COMPARE.fr, routes.DEMO.en, routes.HOME.fr):
        page.evaluate("(p) => window.__reactRouterDataRouter.navigate(p)", path)
        page.wait_for_function("(p) => decodeURIComponent(location.pathname) === p", arg=path)
        page.get_by_test_id("logout").wait_for()
    # Logout: anonymous again, and the next page view connects no more.
    page.get_by_test_id("logout").click()
    page.wait_for_url(re.compile(r".*/oauth2/end_session.*"))
    count = len(page.state_sockets)
    _open(page, site + "/compare")
    assert page.get_by_test_id("logout").count() == 0
    assert len(page.state_sockets) == count


@pytest.mark.browser
def test_a_login_error_on_a_public_page_is_shown(new_page, site):
    """The one-shot error cookie makes the page connect: its state turns it into the message."""
    page = new_page()
    page.context.add_cookies([{"name": "nereo_auth_error", "value": "login_failed", "url": site}])
    page.goto(site + "/compare")
    assert page.get_by_test_id("auth-error").inner_text(timeout=15000) == "Login failed"
    assert len(page.state_sockets) == 1


@pytest.mark.browser
def test_the_console_and_the_trial_connect_and_work(new_page, site, page_errors):
    page = new_page()
    _open(page, site + "/")
    assert page.state_sockets == []
    page.goto(site + "/console")
    provider_login(page, CONSOLE_ADMIN_USER)
    page.wait_for_url(site + "/console")
    page.get_by_test_id("console-total").wait_for(timeout=15000)
    assert page.state_sockets
    page.goto(site + "/start-free-trial")
    page.wait_for_function("() => document.querySelector('#trial-lastName')?.value === 'Martin'", timeout=15000)
    assert page.get_by_test_id("logout").count() == 1


# -- state expiry ---------------------------------------------------------------------------------

EXPIRY_SECONDS = 2
ROOT_STATE = "reflex___state____state"
ON_LOAD_INTERNAL = f"{ROOT_STATE}.reflex___state____on_load_internal_state.on_load_internal"


def _router(path: str) -> dict:
    return {"pathname": path, "asPath": path}


@pytest.fixture(scope="module")
def short_expiry_site(workdir, auth_services):
    from servers import SiteServer, free_port

    server = SiteServer(free_port(), workdir, None, STATE_EXPIRY_SECONDS=str(EXPIRY_SECONDS), **auth_services["env"])
    server.env["SESSION_SECRET"] = "short-expiry-session-secret"
    server.migrate()
    server.start()
    yield server
    server.stop()


def test_an_expired_state_is_rebuilt_with_the_login_state_by_the_next_event(short_expiry_site):
    """STATE_EXPIRY_SECONDS applies, and a logged-in tab whose state expired stays logged in."""
    server = short_expiry_site
    create = (
        "from marketing_site.services import sessions; import time; print(sessions.create_session("
        "{'sub': 'reader@example.test', 'email': 'reader@example.test'}, "
        "sessions.Tokens('id', 'access', None, time.time() + 3600)))"
    )
    session_id = (
        subprocess.run(
            [str(ROOT / ".venv" / "bin" / "python"), "-c", create],
            env=server.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    socket = StateSocket(server.url, f"nereo_session={session_id}; nereo.is.authenticated=true")
    try:
        assert socket.receive().startswith("0")  # Engine.IO open
        boot = {"name": f"{ROOT_STATE}.hydrate_and_load", "payload": {}, "router_data": _router("/compare")}
        socket.send("40/_event," + json.dumps({"event": boot}))
        first = "".join(socket.until_hydrated())
        assert '"isAuthenticated_rx_state_":true' in first
        assert '"priceEngage_rx_state_"' in first  # a full hydrate carries every state
        # A navigation while the state lives: only what changed comes back.
        socket.send("42/_event," + json.dumps(["event", {"name": ON_LOAD_INTERNAL, "router_data": _router("/")}]))
        live = "".join(socket.until_hydrated())
        assert '"priceEngage_rx_state_"' not in live
        # Past the expiry (and the state manager's purge pass), the next navigation finds no
        # state: Reflex hydrates a new one and runs the page's on_load, logged in from the cookie.
        time.sleep(EXPIRY_SECONDS + 4)
        socket.send(
            "42/_event," + json.dumps(["event", {"name": ON_LOAD_INTERNAL, "router_data": _router("/compare")}])
        )
        rebuilt = "".join(socket.until_hydrated())
        assert '"priceEngage_rx_state_"' in rebuilt
        assert '"isAuthenticated_rx_state_":true' in rebuilt
    finally:
        socket.close()
