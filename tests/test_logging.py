"""One root logging configuration: every library's records are JSON lines with the site's
redaction in production, readable lines in development (issue 23 item 5)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from address_forms import ipv4_addresses, ipv4_forms, ipv6_addresses
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from servers import ROOT

# A process as the site runs: Reflex's and Granian's own logging set up first, as they do under
# `reflex run`, then the site's configure(); then a record from each library.
PROGRAM = r"""
import logging
import granian.log
import sqlalchemy  # noqa: F401  (the site imports it: it sets its loggers to WARNING)
from reflex_base.utils import log as reflex_log

reflex_log.enable_managed_logging()  # what the reflex CLI does: its own sinks on "reflex"
from marketing_site import logs
from marketing_site.reflex_internals.reflex_logging import route_reflex_output

logs.configure()
route_reflex_output()
granian.log.configure_logging(granian.log.LogLevels.info, logs.granian_log_config())
logging.getLogger("httpx2").warning(
    'HTTP Request: GET https://calendar.example/private-canary-ics/basic.ics?token=canary-token "HTTP/1.1 200 OK"'
)
logging.getLogger("reflex").warning("state for camille.durand@example.test expired")
logging.getLogger("_granian").error("Unexpected exit from worker-2")
logging.getLogger("granian.access").warning("GET /api/v1/health 200")
logging.getLogger("sqlalchemy.engine").warning("connection to postgresql://nereo:canary-db@db/nereo lost")
logging.getLogger("authlib").warning("refresh for +33 6 12 34 56 78 failed")
logging.getLogger("marketing_site.leads").info("lead 12 stored")
logging.getLogger("sqlalchemy.engine.Engine").info("SELECT 1")  # SQLAlchemy keeps its WARNING level
"""
LOGGERS = ["httpx2", "reflex", "_granian", "granian.access", "sqlalchemy.engine", "authlib", "marketing_site.leads"]
SECRETS = ["private-canary-ics", "canary-token", "camille.durand", "canary-db", "12 34 56 78"]


def run(log_format: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LOG_", "REFLEX_"))}
    env.update(LOG_FORMAT=log_format, LOG_LEVEL="INFO", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )


def test_production_writes_every_library_as_redacted_json_lines():
    done = run("json")
    lines = done.stderr.splitlines()
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert [r["logger"] for r in records] == LOGGERS
    assert done.stdout == ""
    assert [s for s in SECRETS if s in done.stderr] == []
    assert records[0]["msg"] == 'HTTP Request: GET https://calendar.example/… "HTTP/1.1 200 OK"'
    assert "postgresql://db/…" in records[4]["msg"]


def test_development_writes_readable_lines():
    done = run("text")
    lines = done.stderr.splitlines()
    assert len(lines) == len(LOGGERS)
    assert all(not line.startswith("{") for line in lines)
    assert "ERROR _granian Unexpected exit from worker-2" in done.stderr
    assert [s for s in SECRETS if s in done.stderr] == []


def test_failure_references_survive_the_phone_number_mask():
    """A reference is quoted by the person and searched in the log: the mask must never hide it
    (an all-digit one, like 36171810, was taken for a phone number)."""
    from marketing_site.logs import PHONE, new_reference, redact

    assert PHONE.search("ref=36171810")  # why references start with a letter
    for _ in range(2000):
        reference = new_reference()
        assert re.fullmatch(r"[A-F][0-9A-F]{7}", reference)
        assert redact(f"event handler failed ref={reference}").endswith(f"ref={reference}")


def test_ip_addresses_are_masked_as_such_and_a_server_address_stays():
    from marketing_site.logs import redact

    assert redact("client 203.0.113.7 refused") == "client <ip> refused"
    assert redact("App running at: http://127.0.0.1:8000/") == "App running at: http://127.0.0.1:8000/"
    assert redact("listening on 0.0.0.0:8000") == "listening on 0.0.0.0:8000"
    assert redact("call +33 6 12 34 56 78") == "call <phone>"


# Reflex under its CLI: its sinks attached, the site's configure(), then what Reflex does later in
# the same process (its configuration read again, its log level set by --loglevel) and what it
# prints and logs around a request: the banners, a warning, a Redis lock warning.
REFLEX_PROGRAM = r"""
import logging
from reflex_base.constants import LogLevel
from reflex_base.utils import console, log as reflex_log

reflex_log.enable_managed_logging()
from marketing_site import logs
from marketing_site.reflex_internals.reflex_logging import route_reflex_output

logs.configure()
route_reflex_output()
reflex_log.ensure_configured()
console.set_log_level(LogLevel.INFO)
reflex_log.set_json_mode(False)
console.rule("[bold]Starting Reflex App")
console.print("App running at: [bold green]http://127.0.0.1:8000/[/bold green]")
console.print("shown once", dedupe=True)
console.print("shown once", dedupe=True)
logging.getLogger("reflex.utils.prerequisites").warning("Your version (20.20.2) of Node.js is out of date.")
logging.getLogger("reflex.istate.manager.redis").warning(
    "Lock for token 96205f92_state.auth was held too long time_taken=1.6s, use `@rx.event(background=True)`",
    extra={"dedupe": True},
)
logging.getLogger("reflex.utils.processes").info("Reflex app stopped.")
logging.getLogger("reflex.utils.processes").debug("below the site's LOG_LEVEL")
"""


def test_reflex_banners_prints_and_records_are_json_lines_for_good():
    from marketing_site.logs import redact

    env = {k: v for k, v in os.environ.items() if not k.startswith(("LOG_", "REFLEX_"))}
    env.update(LOG_FORMAT="json", LOG_LEVEL="INFO", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", REFLEX_PROGRAM], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout == ""
    records = [json.loads(line) for line in done.stderr.splitlines()]  # every line is one JSON object
    assert [(r["level"], r["logger"]) for r in records] == [
        ("INFO", "reflex.console"),
        ("INFO", "reflex.console"),
        ("INFO", "reflex.console"),
        ("WARNING", "reflex.utils.prerequisites"),
        ("WARNING", "reflex.istate.manager.redis"),
        ("INFO", "reflex.utils.processes"),
    ]
    assert [r["msg"] for r in records[:3]] == [
        "Starting Reflex App",
        f"App running at: {redact('http://127.0.0.1:8000/')}",
        "shown once",
    ]
    assert records[4]["msg"].startswith("Lock for token 96205f92_state.auth was held too long")
    assert records[5]["msg"] == "Reflex app stopped."


def test_a_reflex_upgrade_that_moves_what_the_site_replaces_stops_the_start(monkeypatch):
    from reflex_base.utils import console

    from marketing_site.reflex_internals import reflex_logging

    monkeypatch.delattr(console, "rule")
    with pytest.raises(reflex_logging.ReflexLoggingMoved, match=r"reflex_base\.utils\.console\.rule"):
        reflex_logging.route_reflex_output()


# ------------------------------------------------------------------ any text, one JSON line
# Issue 30, finding 8: whatever a record carries (a visitor's text with line breaks of every
# kind, an address in any form, a session cookie or a token in any container), the JSON line
# holds no raw line break, no cookie or token, and no address.

separators = st.sampled_from([" ", "\n", "\r\n", ", ", "; ", "\t", " | ", "\u2028", "\x85"])
secrets_ = st.text(
    alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min_size=16, max_size=40
)


def _credentials(value: str) -> st.SearchStrategy[str]:
    """A session cookie or a token as the site's libraries print them."""
    return st.sampled_from(
        [
            f"Cookie: nereo_session={value}; nereo.is.authenticated=1",
            repr({"headers": {"host": "127.0.0.1", "cookie": f"nereo_session={value}"}, "sid": "x"}),
            json.dumps({"cookie": f"nereo_session={value}; nereo_login_binding={value}"}),
            f"nereo_session={value}",
            f"Authorization: Bearer {value}",
            f"GET https://idp.example/token?code=x&refresh_token={value} 200",
            repr({"token": value}),
            f"set-cookie: nereo_login_binding={value}; HttpOnly",
        ]
    )


@st.composite
def records(draw):
    secret = draw(secrets_)
    if draw(st.booleans()):
        address = draw(ipv6_addresses)
        core = draw(st.sampled_from([address.compressed, address.exploded, address.exploded.upper()]))
        written = draw(st.sampled_from([core, f"[{core}]:8443", f"{core}%eth0"]))
    else:
        # Loopback (127/8) names no one and is kept readable on purpose (logs._is_personal).
        address4 = draw(ipv4_addresses.filter(lambda address: not address.is_loopback))
        core = str(address4)
        written = draw(ipv4_forms(address4))
    texts = draw(st.lists(st.text(max_size=40), min_size=3, max_size=3))
    pieces = [texts[0], draw(_credentials(secret)), texts[1], written, texts[2]]
    pieces = draw(st.permutations(pieces))
    message = ""
    for piece in pieces:
        message += piece + draw(separators)
    assume(not any(secret in text or core in text for text in texts))
    return message, secret, core, draw(st.booleans())


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_any_record_is_one_json_line_without_credentials_addresses_or_raw_line_breaks(drawn):
    import logging

    from marketing_site.logs import LINE_BREAKS, RedactingFormatter

    message, secret, address, as_exception = drawn
    record = logging.LogRecord("marketing_site.test", logging.ERROR, __file__, 1, "%s", (message,), None)
    if as_exception:
        try:
            raise ValueError(message)
        except ValueError:
            record.exc_info = sys.exc_info()
    line = RedactingFormatter(as_json=True).format(record)
    assert line.splitlines() == [line] and not any(character in line for character in LINE_BREAKS)
    assert isinstance(json.loads(line), dict)
    assert secret not in line and address not in line
    assert address.lower() not in line.lower()


def test_malformed_websocket_events_carrying_a_session_cookie_are_logged_redacted(site_server):
    """Finding 8 as reproduced on `make run`: events Reflex cannot read made engineio print plain
    tracebacks beside the JSON line, and Reflex's event errors printed the websocket handshake,
    session cookie, tab token and forwarded addresses included. Now such frames are refused before
    Reflex reads them (issue 39, point 3): one JSON warning for the client's minute, without a
    traceback, and none of the frames, the cookie, the token or the addresses in the log."""
    import time
    import uuid

    from http_checks import StateSocket
    from servers import ARTIFACTS

    log = ARTIFACTS / f"site-{site_server.port}.log"
    start = log.stat().st_size
    cookie = f"canary{uuid.uuid4().hex}"
    token = str(uuid.uuid4())
    forwarded = ["2001:db8:77:1::77", "1.2.3.4"]
    socket = StateSocket(
        site_server.url,
        f"nereo_session={cookie}; nereo.is.authenticated=true",
        token=token,
        headers={"X-Forwarded-For": ", ".join(forwarded)},
    )
    try:
        assert socket.receive().startswith("0")  # Engine.IO open
        socket.send("40/_event,")
        assert socket.receive().startswith("40/_event,")
        for event in ("not json\nforged line", {"name": "nope.nope", "payload": {"x": "a\nb"}}, ["a list"]):
            socket.send("42/_event," + json.dumps(["event", event]))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if "malformed websocket frame refused" in log.read_bytes()[start:].decode():
                break
            time.sleep(0.3)
        socket.send("42/_event," + json.dumps(["event", {"name": "nope.again", "payload": {}}]))
        time.sleep(1)  # a fourth frame of the same minute, which would be logged by now
        written = log.read_bytes()[start:].decode()
    finally:
        socket.close()
    lines = [line for line in written.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    refused = [r for r in records if "malformed websocket frame refused" in r["msg"]]
    assert len(refused) == 1, refused  # four frames, one warning for the client's minute
    assert refused[0]["level"] == "WARNING" and "Traceback" not in written
    assert "nope.nope" not in written and "a list" not in written  # never the frame itself
    assert [s for s in (cookie, token, *forwarded) if s in written] == []
    assert "forged line" not in [line.strip() for line in written.splitlines()]
