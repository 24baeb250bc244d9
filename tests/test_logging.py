"""One root logging configuration: every library's records are JSON lines with the site's
redaction in production, readable lines in development (issue 23 item 5)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

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
