"""Where features meet, failures reach the person: in Chromium on the production build (its CSP,
no 'unsafe-eval'), with the session's real site, database and identity provider.

- An action that fails, on a public page (French and English: an event its handler does not
  take, as from a page older than a deployment, refused before Reflex reads it) and on the
  console (a handler that raises): the page's message in its language with a reference, and the
  same reference in the server log.
- A lost connection: the message while it is down, then "back", and the reference logged.
- The console's erasure: disabled until confirmed; a database refusal rolls back, says so with a
  reference, and is in the audit log; every action states whether it worked.
- The navbar shows who is logged in (name, else email) beside the logout control, both
  languages, at 375 and 1280 px.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from urllib.parse import quote

import pytest
from browser_checks import AUTHORIZE, provider_login
from conftest import ADVISOR_FIRST_USER, CONSOLE_ADMIN_USER
from servers import ARTIFACTS

from marketing_site import routes

pytestmark = pytest.mark.browser

NOTICE = "[data-testid=site-notice]"
MESSAGES = {
    "fr": {
        "handler": "votre dernière action n'a pas abouti",
        "connection": "La connexion avec le site est interrompue",
    },
    "en": {"handler": "your last action did not go through", "connection": "The connection to the site is interrupted"},
}


def _server_log(site_server) -> str:
    return (ARTIFACTS / f"site-{site_server.port}.log").read_text(encoding="utf-8", errors="replace")


def _wait_in_log(site_server, needle: str, timeout: float = 15) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = _server_log(site_server)
        if needle in text:
            return text
        time.sleep(0.2)
    raise AssertionError(f"{needle!r} not in the server log")


def _relay(page) -> dict:
    """Playwright between the page and the site's websocket: frames to the server are recorded
    and can be added to; `down` makes the connection drop and refuses new ones until lifted."""
    relay: dict = {"frames": [], "server": None, "down": False, "sockets": []}

    def connect(ws):
        if relay["down"]:
            ws.close()
            return
        server = ws.connect_to_server()
        relay["server"] = server
        relay["sockets"].append((ws, server))

        def to_server(message):
            relay["frames"].append(message)
            server.send(message)

        ws.on_message(to_server)

    page.route_web_socket(re.compile(r".*/_event/.*"), connect)
    return relay


def _first_event(page, relay) -> dict:
    for _ in range(150):
        # The first event travels in the connect packet (as in browser_checks).
        frame = next((f for f in relay["frames"] if str(f).startswith("40/_event,")), None)
        if frame:
            return json.loads(frame.removeprefix("40/_event,"))["event"]
        page.wait_for_timeout(100)
    raise AssertionError("the page sent no event")


def _open_connected(page, site: str, relay, path: str) -> dict:
    """An anonymous reader's page opens no socket (frontend_build.py): open the login page, which
    connects, then go to `path` client-side on the same socket. Returns the first event sent."""
    page.goto(site + quote(routes.LOGIN.fr, safe="/"))
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    event = _first_event(page, relay)
    page.evaluate("(p) => window.__reactRouterDataRouter.navigate(p)", path)
    page.wait_for_function("(p) => decodeURIComponent(window.location.pathname) === p", arg=path)
    return event


def _send(relay, event: dict, name: str, payload: dict) -> None:
    relay["server"].send("42/_event," + json.dumps(["event", {**event, "name": name, "payload": payload}]))


def _notice(page, kind: str) -> tuple[str, str]:
    page.wait_for_selector(f"{NOTICE}[data-kind={kind}]")
    return page.locator(NOTICE).inner_text(), page.get_by_test_id("site-notice-ref").inner_text()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_failing_handler_on_a_public_page_is_told_with_the_logged_reference(
    lang, new_page, site, site_server, page_errors
):
    from marketing_site.state.pricing import PricingState

    page = new_page(locale="fr-FR" if lang == "fr" else "en-GB")
    relay = _relay(page)
    event = _open_connected(page, site, relay, routes.PRICING.path(lang))
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
    # An event with an argument its handler does not take (as from a page older than a
    # deployment that changed the handler) is refused before Reflex reads it: the page is told
    # with the reference of the client's warning, which names the handler.
    _send(relay, event, f"{PricingState.get_full_name()}.use_alternate_prices", {"unexpected": 1})
    text, reference = _notice(page, "handler")
    assert MESSAGES[lang]["handler"] in text
    assert re.fullmatch(r"[A-F][0-9A-F]{7}", reference)
    log = _wait_in_log(site_server, f"ref={reference}")
    assert "use_alternate_prices" in log.split(f"ref={reference}", 1)[1][:4000]
    # Reflex's toast (blocked by the CSP) is not what told the visitor.
    assert not [e for e in page_errors if "EvalError" in e or "unsafe-eval" in e], page_errors
    page.get_by_test_id("site-notice").get_by_role("button", name="Fermer" if lang == "fr" else "Close").click()
    assert page.locator(NOTICE).count() == 0


def test_a_lost_connection_is_told_then_reported_once_back(new_page, site, site_server, page_errors):
    page = new_page()
    relay = _relay(page)
    _open_connected(page, site, relay, routes.PRICING.fr)
    relay["down"] = True
    for ws, server in relay["sockets"]:
        server.close()
        ws.close()
    text, reference = _notice(page, "connection")
    assert MESSAGES["fr"]["connection"] in text
    assert f"ref={reference}" not in _server_log(site_server)
    relay["down"] = False
    back, same = _notice(page, "reconnected")
    assert same == reference and "La connexion est rétablie" in back
    _wait_in_log(site_server, f"page lost its connection ref={reference}")
    assert [e for e in page_errors if "WebSocket" not in e] == []


# ----------------------------------------------------------------------------- console


def _engine(site_server):
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    return create_engine(site_server.database_url, poolclass=NullPool)


def _refuse(site_server, table: str, operation: str, reason: str) -> None:
    """A database trigger that refuses `operation` on `table`: a real failure inside the site."""
    from sqlalchemy import text

    engine = _engine(site_server)
    name = f"refuse_{table}_{operation.lower()}"
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            connection.execute(
                text(f"CREATE TRIGGER {name} BEFORE {operation} ON {table} BEGIN SELECT RAISE(ABORT, '{reason}'); END")
            )
        else:
            connection.execute(
                text(
                    f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS "
                    f"$$ BEGIN RAISE EXCEPTION '{reason}'; END $$"
                )
            )
            connection.execute(
                text(f"CREATE TRIGGER {name} BEFORE {operation} ON {table} FOR EACH ROW EXECUTE FUNCTION {name}()")
            )
    engine.dispose()


def _allow(site_server, table: str, operation: str) -> None:
    from sqlalchemy import text

    engine = _engine(site_server)
    name = f"refuse_{table}_{operation.lower()}"
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            connection.execute(text(f"DROP TRIGGER IF EXISTS {name}"))
        else:
            connection.execute(text(f"DROP TRIGGER IF EXISTS {name} ON {table}"))
            connection.execute(text(f"DROP FUNCTION IF EXISTS {name}()"))
    engine.dispose()


def _seed_lead(site_server, email: str) -> None:
    from sqlmodel import Session

    from marketing_site.db.leads import Lead

    engine = _engine(site_server)
    with Session(engine) as session, session.begin():
        session.add(
            Lead(
                form="ebook",
                lang="fr",
                name="Erase",
                firstname="Me",
                phone="+33 1 23 45 67 89",
                company="Co",
                email=email,
                idempotency_key=uuid.uuid4().hex,
            )
        )
    engine.dispose()


def _console(new_page, site, lang: str = "fr"):
    page = new_page(locale="fr-FR" if lang == "fr" else "en-GB")
    path = routes.CONSOLE.path(lang)
    page.goto(site + path)
    provider_login(page, CONSOLE_ADMIN_USER)
    page.wait_for_url(site + path)
    page.locator("#leads").wait_for()
    return page


def _outcome(page, outcome: str) -> str:
    page.wait_for_selector(f"[data-testid=console-outcome] [data-outcome={outcome}]")
    return page.get_by_test_id("console-outcome").inner_text()


def _confirm(page) -> None:
    # A controlled box: ticked once the server has armed the erasure (a round trip).
    page.get_by_test_id("console-erase-confirm").click()
    page.wait_for_function("() => !document.querySelector('[data-testid=console-subject-erase]').disabled")


def test_console_handler_failure_and_erasure_outcomes(new_page, site, site_server, page_errors):
    email = f"erase-{uuid.uuid4().hex[:8]}@example.test"
    _seed_lead(site_server, email)
    page = _console(new_page, site)
    form = page.locator("#data-subjects form").first

    # A lookup whose audit entry the database refuses: the handler fails, the page says so.
    _refuse(site_server, "console_audit", "INSERT", "audit on hold")
    try:
        form.locator("[name=email]").fill(email)
        page.get_by_test_id("console-subject-find").click()
        text, reference = _notice(page, "handler")
        assert MESSAGES["fr"]["handler"] in text
        _wait_in_log(site_server, f"ref={reference}")
    finally:
        _allow(site_server, "console_audit", "INSERT")
    page.locator(f"{NOTICE} button").click()

    page.get_by_test_id("console-subject-find").click()
    assert "1 ligne(s) trouvée(s)" in _outcome(page, "found")
    erase = page.get_by_test_id("console-subject-erase")
    assert erase.is_disabled()
    _confirm(page)

    # The database refuses the erasure: nothing goes, the operator is told, the log has it.
    _refuse(site_server, "lead", "DELETE", "leads on hold")
    try:
        erase.click()
        text = _outcome(page, "erase_failed")
        reference = page.locator("[data-testid=console-outcome] code").inner_text()
        assert "rien n'a été effacé" in text and reference in text
        assert page.locator("[data-testid=console-outcome] [data-ok=false]").count() == 1
        _wait_in_log(site_server, f"erasure failed ref={reference}")
        assert site_server.query("SELECT COUNT(*) FROM lead WHERE email = ?", email) == [(1,)]
        page.wait_for_selector("[data-testid=console-audit] td[data-col=action]:text-is('erase-failed')")
    finally:
        _allow(site_server, "lead", "DELETE")
    assert erase.is_disabled()  # each attempt needs its own confirmation

    _confirm(page)
    erase.click()
    assert "Effacement fait" in _outcome(page, "erased")
    assert site_server.query("SELECT COUNT(*) FROM lead WHERE email = ?", email) == [(0,)]

    # Other actions say what they did too.
    page.get_by_test_id("console-apply").click()
    assert "Filtre appliqué" in _outcome(page, "filtered")
    assert not [e for e in page_errors if "EvalError" in e], page_errors


def test_console_refusals_of_events_sent_past_its_controls_and_the_traffic_outcomes(
    new_page, site, site_server, page_errors
):
    """Events the console's controls never send, on its own socket: an erasure without its armed
    confirmation, an unknown sort column, a page that is not a whole number. The server refuses each
    aloud and erases nothing. And the traffic form says what it showed, or that it refused."""
    from marketing_site.state.console import ConsoleState

    email = f"unarmed-{uuid.uuid4().hex[:8]}@example.test"
    _seed_lead(site_server, email)
    erasures = site_server.query("SELECT COUNT(*) FROM console_audit WHERE action LIKE 'erase%'")
    page = new_page()
    relay = _relay(page)
    path = routes.CONSOLE.fr
    page.goto(site + path)
    provider_login(page, CONSOLE_ADMIN_USER)
    page.wait_for_url(site + path)
    page.locator("#leads").wait_for()
    # The first event of the console's socket after the login (the one before left with its page).
    frames = [f for f in relay["frames"] if str(f).startswith("40/_event,")]
    event = json.loads(frames[-1].removeprefix("40/_event,"))["event"]
    state = ConsoleState.get_full_name()

    # The operator looks the person up; the erase button shows, disabled (its box not ticked).
    page.locator("#data-subjects form").first.locator("[name=email]").fill(email)
    page.get_by_test_id("console-subject-find").click()
    _outcome(page, "found")
    assert page.get_by_test_id("console-subject-erase").is_disabled()
    _send(relay, event, f"{state}.erase_subject", {"form_data": {"email": email, "confirm": "on"}})
    assert "Cochez d'abord la case de confirmation" in _outcome(page, "erase_unconfirmed")
    assert page.locator("[data-testid=console-outcome] [data-ok=false]").count() == 1
    assert site_server.query("SELECT COUNT(*) FROM lead WHERE email = ?", email) == [(1,)]
    assert site_server.query("SELECT COUNT(*) FROM console_audit WHERE action LIKE 'erase%'") == erasures

    _send(relay, event, f"{state}.sort_by", {"column": "phone"})
    assert "Tri refusé" in _outcome(page, "sort_refused")
    _send(relay, event, f"{state}.go_to_page", {"page": 2.5})
    assert "Numéro de page invalide" in _outcome(page, "page_refused")
    assert page.locator("[data-testid=console-outcome] [data-ok=false]").count() == 1

    traffic = page.get_by_test_id("console-traffic-form")
    traffic.locator("[name=by]").select_option("language")
    page.get_by_test_id("console-traffic-apply").click()
    text = _outcome(page, "traffic_shown").replace("\xa0", " ")  # French spacing before the colon
    shown = page.locator("[data-testid=console-traffic] tbody tr").count()
    assert f"Trafic affiché : {shown} ligne(s)." in text
    traffic.locator("[name=from]").fill("2030-01-02")
    traffic.locator("[name=to]").fill("2030-01-01")
    page.get_by_test_id("console-traffic-apply").click()
    assert "Période ou regroupement refusé" in _outcome(page, "traffic_refused")
    assert page.locator("[data-testid=console-outcome] [data-ok=false]").count() == 1
    assert "Date de fin invalide" in traffic.get_by_role("alert").inner_text()
    assert page.locator("[data-testid=console-traffic] tbody tr").count() == shown  # the last valid choice
    assert not [e for e in page_errors if "EvalError" in e], page_errors


# ----------------------------------------------------------------------------- navbar


@pytest.mark.parametrize(("user", "shown"), [(CONSOLE_ADMIN_USER, "Alex Martin"), (ADVISOR_FIRST_USER, None)])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_navbar_says_who_is_logged_in(user, shown, lang, new_page, site, page_errors):
    shown = shown or user["email"]
    page = new_page(locale="fr-FR" if lang == "fr" else "en-GB")
    home = routes.HOME.path(lang)
    page.goto(site + home)
    page.get_by_test_id("nav-login").click()
    page.wait_for_url(AUTHORIZE)
    provider_login(page, user)
    page.wait_for_url(site + home)
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 800})
        if width == 375 and page.locator(".site-header__menu").is_hidden():
            page.locator(".site-header__toggle").click()
        identity = page.get_by_test_id("nav-identity")
        identity.wait_for()
        assert identity.get_attribute("title") == shown
        assert shown.startswith(identity.locator(".nav-identity__name").inner_text().rstrip("…"))
        assert ("Connecté en tant que" if lang == "fr" else "Logged in as") in identity.inner_text()
        assert page.get_by_test_id("nav-login").count() == 0
        logout = page.get_by_test_id("logout")
        assert logout.is_visible()
        # Beside the logout control, both inside the window.
        a, b = identity.bounding_box(), logout.bounding_box()
        assert a and b and a["x"] >= 0 and b["x"] + b["width"] <= width
        assert abs((a["y"] + a["height"] / 2) - (b["y"] + b["height"] / 2)) < 60
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow == 0
    assert page_errors == []


def test_a_server_restart_is_told_then_reported_once_back(new_page, site, site_server, page_errors):
    """The session's site itself stops and starts again (its in-memory state is gone)."""
    page = new_page()
    relay = _relay(page)
    _open_connected(page, site, relay, routes.PRICING.fr)
    site_server.stop()
    try:
        text, reference = _notice(page, "connection")
        assert MESSAGES["fr"]["connection"] in text
    finally:
        site_server.start()
    back, same = _notice(page, "reconnected")
    assert same == reference and "La connexion est rétablie" in back
    _wait_in_log(site_server, f"page lost its connection ref={reference}")
