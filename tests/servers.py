"""Real servers on loopback for the tests: the production site and an SMTP server.

`SiteServer` runs the production build exactly as `make run` does (`reflex run --env prod
--backend-only`), with its own database and settings. By default that is an SQLite file and
one worker; with `TEST_DATABASE_URL` (PostgreSQL) and `TEST_REDIS_URL` set, each server gets
a fresh PostgreSQL database, Reflex's Redis state manager and two backend workers.
`SmtpSink` is aiosmtpd on a loopback port; it can be stopped, restarted, or told to answer
4xx/5xx.
"""

from __future__ import annotations

import email
import os
import re
import signal
import socket
import sqlite3
import subprocess
import threading
import time
from email.message import Message
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
ARTIFACTS = ROOT / "test-artifacts"
# Databases created for test servers on PostgreSQL start with this (dropped by `drop_test_databases`).
PG_PREFIX = "mstest_"


def engines() -> dict[str, str]:
    """The real engines the tests run on, if any: TEST_DATABASE_URL and TEST_REDIS_URL."""
    return {k: os.environ[k] for k in ("TEST_DATABASE_URL", "TEST_REDIS_URL") if os.environ.get(k)}


def _pg_admin():
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    return create_engine(os.environ["TEST_DATABASE_URL"], poolclass=NullPool, isolation_level="AUTOCOMMIT")


def create_test_database(name: str) -> str:
    """A fresh PostgreSQL database next to TEST_DATABASE_URL's; returns its URL."""
    from sqlalchemy import text

    engine = _pg_admin()
    with engine.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    parts = urlsplit(os.environ["TEST_DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + name))


def drop_test_databases() -> None:
    from sqlalchemy import text

    engine = _pg_admin()
    with engine.connect() as connection:
        names = connection.execute(
            text("SELECT datname FROM pg_database WHERE datname LIKE :p"), {"p": PG_PREFIX + "%"}
        ).scalars().all()
        for name in names:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SmtpSink:
    """An SMTP server on loopback that records what it accepts."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.messages: list[Message] = []
        self.reply: str | None = None  # e.g. "451 4.3.0 Try later" or "550 5.1.1 Refused"
        self._lock = threading.Lock()
        self._controller: Controller | None = None

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        if self.reply:
            return self.reply
        with self._lock:
            self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def start(self) -> SmtpSink:
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def received(self, subject: str | None = None, reply_to: str | None = None) -> list[Message]:
        with self._lock:
            return [
                m
                for m in self.messages
                if (subject is None or m["Subject"] == subject) and (reply_to is None or m["Reply-To"] == reply_to)
            ]

    def wait_for(self, count: int, timeout: float = 20, **kwargs) -> list[Message]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.received(**kwargs)
            if len(found) >= count:
                return found
            time.sleep(0.1)
        return self.received(**kwargs)


class SiteServer:
    """The production build served on a loopback port, with its own database."""

    def __init__(self, port: int, workdir: Path, smtp: SmtpSink | None = None, workers: int | None = None,
                 root: Path = ROOT, **settings: str):
        # `root`: the project served (a modified copy in tests/test_third_language.py).
        self.root = root
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.db_path = workdir / f"site-{port}.db"
        self.mail_dir = workdir / f"mail-{port}"
        real = engines()
        if "TEST_DATABASE_URL" in real:
            self.database_url = create_test_database(f"{PG_PREFIX}{port}_{time.time_ns()}")
        else:
            self.database_url = f"sqlite:///{self.db_path}"
        self.env = dict(os.environ)
        self.env.update(
            PATH=os.pathsep.join([str(ROOT / ".tools" / "node_modules" / ".bin"), str(BIN), self.env["PATH"]]),
            PORT=str(port),
            SITE_URL=self.url,
            REFLEX_TELEMETRY_ENABLED="false",
            DATABASE_URL=self.database_url,
            MAIL_SINK_DIR=str(self.mail_dir),
            # The whole test session shares 127.0.0.1: lift its per-IP budget. The production
            # limits are tested on sites of their own, from other loopback addresses.
            RATE_LIMIT_PER_IP="100000",
            BOOKING_RATE_LIMIT_PER_IP="100",
            OUTBOX_RETRY_BASE_SECONDS="0.5",
            OUTBOX_POLL_SECONDS="0.5",
        )
        # As `make test` builds it: the consent tests answer this URL themselves.
        self.env.setdefault("ANALYTICS_SCRIPT_URL", f"{self.url}/__test-analytics.js")
        if "TEST_REDIS_URL" in real:
            # Reflex's Redis state manager and the shared rate limits; keys apart per server.
            self.env.update(REFLEX_REDIS_URL=real["TEST_REDIS_URL"], REDIS_KEY_PREFIX=f"mstest:{port}:{time.time_ns()}:")
        self.env["GRANIAN_WORKERS"] = str(workers or (2 if "TEST_REDIS_URL" in real else 1))
        if smtp is not None:
            self.env.update(SMTP_HOST="127.0.0.1", SMTP_PORT=str(smtp.port), SMTP_STARTTLS="false",
                            SMTP_TIMEOUT_SECONDS="3")
        self.env.update(settings)
        self.proc: subprocess.Popen | None = None

    def migrate(self) -> None:
        subprocess.run([str(BIN / "alembic"), "upgrade", "head"], cwd=self.root, env=self.env, check=True)

    def start(self, timeout: float = 120) -> SiteServer:
        ARTIFACTS.mkdir(exist_ok=True)
        log = (ARTIFACTS / f"site-{self.port}.log").open("ab")
        self.proc = subprocess.Popen(
            [str(BIN / "reflex"), "run", "--env", "prod", "--backend-only",
             "--backend-host", "127.0.0.1", "--backend-port", str(self.port)],
            cwd=self.root, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the site exited with {self.proc.returncode}; see {log.name}")
            try:
                if httpx.get(self.url + "/ping", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        raise RuntimeError("the site did not come up")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(timeout=20)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def query(self, sql: str, *params) -> list[tuple]:
        """Read the site's database directly (SQLite, or PostgreSQL through SQLAlchemy Core)."""
        if self.database_url.startswith("sqlite"):
            with sqlite3.connect(self.db_path, timeout=10) as db:
                return db.execute(sql, params).fetchall()
        from sqlalchemy import create_engine, text
        from sqlalchemy.pool import NullPool

        names = iter(range(len(params)))
        statement = text(re.sub(r"\?", lambda _: f":p{next(names)}", sql))
        engine = create_engine(self.database_url, poolclass=NullPool)
        try:
            with engine.connect() as connection:
                rows = connection.execute(statement, {f"p{i}": v for i, v in enumerate(params)}).fetchall()
        finally:
            engine.dispose()
        return [tuple(row) for row in rows]
