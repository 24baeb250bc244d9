"""One root logging configuration: every library's records are JSON lines with the site's
redaction in production, readable lines in development (issue 23 item 5)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
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

logs.configure()
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

logs.configure()
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

    from marketing_site import logs

    monkeypatch.delattr(console, "rule")
    with pytest.raises(logs.ReflexLoggingMoved, match=r"reflex_base\.utils\.console\.rule"):
        logs._reflex_through_root()
