"""Real servers on loopback for the tests: the production site and an SMTP server.

`SiteServer` runs the production build exactly as `make run` does (`reflex run --env prod
--backend-only`), with its own database and settings. By default that is an SQLite file and
one worker; with `TEST_DATABASE_URL` (PostgreSQL) and `TEST_REDIS_URL` set, each server gets
a fresh PostgreSQL database, Reflex's Redis state manager and two backend workers. A site asked
for several workers without them gets a private redis-server (`PrivateRedis`): the site refuses
to start several workers that would each count the rate limits alone.
`SmtpSink` is aiosmtpd on a loopback port; it can be stopped, restarted, or told to answer
4xx/5xx.
"""

from __future__ import annotations

import asyncio
import email
import hashlib
import json
import os
import pwd
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import threading
import time
from email.message import Message
from pathlib import Path
from typing import Any, Self
from urllib.parse import urlsplit, urlunsplit

import httpx2
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
ARTIFACTS = ROOT / "test-artifacts"
# The production build the session's site serves: the project's `.web`, or (TEST_WEB_DIR) a build
# of its own, which lets `make test` run its PostgreSQL/Redis pass beside the SQLite one.
WEB_DIR = Path(os.environ.get("TEST_WEB_DIR") or ROOT / ".web").resolve()
# The bearer token of every test site's /metrics (tests/test_prometheus.py, test_metrics_site.py).
METRICS_TOKEN = "test-metrics-token-4c7b"
# The address tests/test_nginx.py scrapes /metrics from (the proxy's allow list names it).
METRICS_SCRAPER = "127.0.0.2"


def without_build() -> bool:
    """A run of the tests that need no frontend build, browser or nginx (`make test-fast`)."""
    return os.environ.get("TEST_WITHOUT_BUILD") == "1"


def refuse_without_build(what: str) -> None:
    """A test that starts a site, nginx or a build must be marked `needs_build` (conftest.py marks
    those whose fixtures reach the build): a run without the build says which one was not."""
    if without_build():
        raise RuntimeError(f"{what} in a run without the build (make test-fast): mark the test needs_build")


if without_build():
    # A test that reads the build without the `production_build` fixture finds none, even on a
    # machine that has one, instead of passing here by chance.
    WEB_DIR = ROOT / ".no-build-in-test-fast"
# Databases created for test servers on PostgreSQL start with this (dropped by `drop_test_databases`).
# It carries the run's TEST_PORT: two runs on one server (on two ports) never drop each other's.
PG_PREFIX = f"mstest_{os.environ.get('TEST_PORT', '8765')}_"


# What a test site takes from the environment of the test run: where it runs, not how it is set up.
MACHINE_ENVIRONMENT = (
    "HOME",
    "USER",
    "LANG",
    "LC_ALL",
    "TZ",
    "TMPDIR",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONUNBUFFERED",
)


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


def drop_test_database(name: str) -> None:
    from sqlalchemy import text

    engine = _pg_admin()
    with engine.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


def drop_test_databases() -> None:
    from sqlalchemy import text

    engine = _pg_admin()
    with engine.connect() as connection:
        names = (
            connection.execute(text("SELECT datname FROM pg_database WHERE datname LIKE :p"), {"p": PG_PREFIX + "%"})
            .scalars()
            .all()
        )
        for name in names:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


# One database migrated to head per engine and test run; every test database is a copy of it
# (a file copy on SQLite, CREATE DATABASE … TEMPLATE on PostgreSQL) instead of an alembic
# subprocess each (about a second apiece).
_templates: dict[str, str] = {}


def _alembic_upgrade(database_url: str, root: Path = ROOT) -> None:
    env = {name: os.environ[name] for name in MACHINE_ENVIRONMENT if name in os.environ}
    env.update(PATH=f"{BIN}:/usr/local/bin:/usr/bin:/bin", DATABASE_URL=database_url, ENV_FILE="")
    subprocess.run([str(BIN / "alembic"), "upgrade", "head"], cwd=root, env=env, check=True, capture_output=True)


def migrated_sqlite_copy(target: Path) -> None:
    """`target` becomes an SQLite database at the migrations' head."""
    if "sqlite" not in _templates:
        import tempfile

        template = Path(tempfile.mkdtemp(prefix="mstest-template-")) / "migrated.db"
        _alembic_upgrade(f"sqlite:///{template}")
        _templates["sqlite"] = str(template)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_templates["sqlite"], target)


def migrated_postgresql_copy(name: str) -> None:
    """Database `name` (existing or not) becomes a copy of the migrated template."""
    from sqlalchemy import text

    if "postgresql" not in _templates:
        template = f"{PG_PREFIX}template_{time.time_ns()}"
        _alembic_upgrade(create_test_database(template))
        _templates["postgresql"] = template
    engine = _pg_admin()
    with engine.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{_templates["postgresql"]}"'))
    engine.dispose()


def migrated_database(folder: Path, name: str) -> tuple[str, str]:
    """A fresh database at the migrations' head on the run's engine: (its URL, the PostgreSQL
    database's name to drop after, or "" for an SQLite file in `folder`)."""
    if "TEST_DATABASE_URL" in engines():
        database = f"{PG_PREFIX}{name}_{time.time_ns()}"
        url = create_test_database(database)
        migrated_postgresql_copy(database)
        return url, database
    migrated_sqlite_copy(folder / f"{name}.db")
    return f"sqlite:///{folder / f'{name}.db'}", ""


def run_in_own_loop(coroutine: Any) -> Any:
    """`asyncio.run` in a thread of its own: once a browser test has run, Playwright's sync API
    holds a running event loop in the test's thread, where `asyncio.run` refuses to start."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def wait_until_answering(proc: subprocess.Popen, url: str, what: str, log: object, timeout: float) -> None:
    """Until a GET of `url` answers 200; a RuntimeError naming `log` if `proc` exits first, or
    after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}; see {log}")
        try:
            if httpx2.get(url, timeout=2).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not come up")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PrivateRedis:
    """redis-server on a free loopback port, without persistence; can be killed and restarted.

    Set up as docs/deploy.md asks an operator to: with the keyspace notifications Reflex needs (the
    site never sets them itself). `args`: more of redis-server's options, later ones winning, as a
    managed service sets them (say `--rename-command CONFIG ""`, `--notify-keyspace-events ""`)."""

    def __init__(self, port: int | None = None, args: tuple[str, ...] = ()):
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.args = args
        self.proc: subprocess.Popen | None = None

    def start(self) -> PrivateRedis:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--notify-keyspace-events",
                "K$sgxe",
                *self.args,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            if (
                subprocess.run(
                    ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, check=False
                ).stdout.strip()
                == b"PONG"
            ):
                return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.proc = None


class _PathReadingSMTP(SMTP):
    """aiosmtpd reading MAIL FROM and RCPT TO paths as RFC 5321 writes them, as Postfix and Exim
    do. Its own reader is the email package's header parser, which decodes RFC 2047 encoded words
    in a path: `RCPT TO:<=?utf-8?q?ceo?=@bank.example>` would be taken for ceo@bank.example."""

    def _getaddr(self, arg: str) -> tuple[str | None, str | None]:
        match = re.fullmatch(r"\s*<([^<>\s]*)>\s*(.*)", arg) or re.fullmatch(r"\s*([^<>\s]+)\s*(.*)", arg)
        return (match[1], match[2]) if match else (None, None)


class _SinkController(Controller):
    def factory(self) -> SMTP:
        return _PathReadingSMTP(self.handler, **self.SMTP_kwargs)


class SmtpSink:
    """An SMTP server on loopback that records what it accepts: each message (parsed without
    decoding its headers) and its envelope (`envelopes`: sender, recipients, the bytes)."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.messages: list[Message] = []
        self.envelopes: list[tuple[str, tuple[str, ...], bytes]] = []
        self.reply: str | None = None  # e.g. "451 4.3.0 Try later" or "550 5.1.1 Refused"
        self._lock = threading.Lock()
        self._controller: Controller | None = None

    async def handle_DATA(self, server, session, envelope):
        if self.reply:
            return self.reply
        with self._lock:
            self.messages.append(email.message_from_bytes(envelope.content))
            self.envelopes.append((envelope.mail_from, tuple(envelope.rcpt_tos), bytes(envelope.content)))
        return "250 OK"

    def start(self) -> SmtpSink:
        self._controller = _SinkController(self, hostname="127.0.0.1", port=self.port)
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

    def __init__(
        self,
        port: int,
        workdir: Path,
        smtp: SmtpSink | None = None,
        workers: int | None = None,
        root: Path = ROOT,
        **settings: str,
    ):
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
        # Sealed: the machine's basics, not the developer's shell (a DATABASE_URL, OIDC_ISSUER or
        # REFLEX_REDIS_URL exported there, or in .env, never reaches a test site).
        self.env = {name: os.environ[name] for name in MACHINE_ENVIRONMENT if name in os.environ}
        self.env.update(
            PATH=os.pathsep.join(
                [str(ROOT / ".tools" / "node_modules" / ".bin"), str(BIN), "/usr/local/bin:/usr/bin:/bin"]
            ),
            ENV_FILE="",
            PORT=str(port),
            SITE_URL=self.url,
            REFLEX_TELEMETRY_ENABLED="false",
            # No look-up of Reflex's latest version on PyPI at each start or build (as the Makefile).
            REFLEX_CHECK_LATEST_VERSION="false",
            DATABASE_URL=self.database_url,
            MAIL_SINK_DIR=str(self.mail_dir),
            # The whole test session shares 127.0.0.1: lift its per-IP budget. The production
            # limits are tested on sites of their own, from other loopback addresses.
            RATE_LIMIT_PER_IP="100000",
            BOOKING_RATE_LIMIT_PER_IP="100",
            BOOKING_BUDGET_PER_EMAIL="1000",
            BOOKING_BUDGET_PER_IP="100000",
            LOGIN_RATE_LIMIT_PER_IP="100000",
            OUTBOX_RETRY_BASE_SECONDS="0.5",
            OUTBOX_POLL_SECONDS="0.5",
            # Page views are written as they arrive (the tests read them at once), and the
            # session's one address may send as many as its browsers do.
            AUDIENCE_FLUSH_SECONDS="0",
            AUDIENCE_RATE_LIMIT_PER_MINUTE="100000",
            # Metrics on, as a production site runs: the workers write the group's files.
            METRICS_TOKEN=METRICS_TOKEN,
            METRICS_DIR=str(workdir / f"metrics-{port}"),
        )
        if os.environ.get("TEST_WEB_DIR"):
            self.env["REFLEX_WEB_WORKDIR"] = str(WEB_DIR)
        # As `make test` builds it: the consent tests answer this URL themselves.
        self.env.setdefault("ANALYTICS_SCRIPT_URL", f"{self.url}/__test-analytics.js")
        self.env.setdefault("MARKETING_SCRIPT_URL", f"{self.url}/__test-marketing.js")
        if "TEST_REDIS_URL" in real:
            # Reflex's Redis state manager and the shared rate limits; keys apart per server.
            self.env.update(
                REFLEX_REDIS_URL=real["TEST_REDIS_URL"], REDIS_KEY_PREFIX=f"mstest:{port}:{time.time_ns()}:"
            )
        self.env["GRANIAN_WORKERS"] = str(workers or (2 if "TEST_REDIS_URL" in real else 1))
        # Several workers share their limits through Redis, or the site refuses to start
        # (settings.refuse_unshared_workers): without TEST_REDIS_URL, a private redis-server.
        self.private_redis: PrivateRedis | None = None
        if int(self.env["GRANIAN_WORKERS"]) > 1 and "REFLEX_REDIS_URL" not in {**self.env, **settings}:
            self.private_redis = PrivateRedis()
            self.env.update(REFLEX_REDIS_URL=self.private_redis.url, REDIS_KEY_PREFIX=f"mstest:{port}:")
        if smtp is not None:
            self.env.update(
                SMTP_HOST="127.0.0.1", SMTP_PORT=str(smtp.port), SMTP_STARTTLS="false", SMTP_TIMEOUT_SECONDS="3"
            )
        self.env.update(settings)
        self.proc: subprocess.Popen | None = None

    def migrate(self) -> None:
        """The site's database at the migrations' head (a copy of the run's migrated template)."""
        if self.database_url.startswith("sqlite"):
            migrated_sqlite_copy(self.db_path)
        else:
            migrated_postgresql_copy(urlsplit(self.database_url).path.lstrip("/"))

    def start(self, timeout: float = 120) -> SiteServer:
        refuse_without_build("a site started")
        if self.private_redis is not None and self.private_redis.proc is None:
            self.private_redis.start()
        ARTIFACTS.mkdir(exist_ok=True)
        log = (ARTIFACTS / f"site-{self.port}.log").open("ab")
        self.proc = subprocess.Popen(
            [
                str(BIN / "reflex"),
                "run",
                "--env",
                "prod",
                "--backend-only",
                "--backend-host",
                "127.0.0.1",
                "--backend-port",
                str(self.port),
            ],
            cwd=self.root,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        wait_until_answering(self.proc, self.url + "/api/v1/health/live", "the site", log.name, timeout)
        return self

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is None:
            if self.private_redis is not None:
                self.private_redis.kill()
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
        if self.private_redis is not None:
            self.private_redis.kill()

    def query(self, sql: str, *params) -> list[tuple]:
        """Read (or change) the site's database directly (SQLite, or PostgreSQL through SQLAlchemy Core)."""
        if self.database_url.startswith("sqlite"):
            with sqlite3.connect(self.db_path, timeout=10) as db:
                return db.execute(sql, params).fetchall()
        from sqlalchemy import create_engine, text
        from sqlalchemy.pool import NullPool

        names = iter(range(len(params)))
        statement = text(re.sub(r"\?", lambda _: f":p{next(names)}", sql))
        engine = create_engine(self.database_url, poolclass=NullPool)
        try:
            with engine.begin() as connection:  # committed: an UPDATE or DELETE holds, as on SQLite
                result = connection.execute(statement, {f"p{i}": v for i, v in enumerate(params)})
                rows = result.fetchall() if result.returns_rows else []
        finally:
            engine.dispose()
        return [tuple(row) for row in rows]


NGINX_CONF = ROOT / "deploy" / "nginx" / "nereo.conf"


def build_in_own_web_folder(server: SiteServer, web: Path, root: Path = ROOT) -> None:
    """A second production build of `root` with `server`'s settings, into its own web folder
    (REFLEX_WEB_WORKDIR must be `web` in server.env): the project's web folder without its build,
    sharing the installed node_modules. Fails the test with the build's output if it fails."""
    import tarfile

    refuse_without_build("a frontend build started")
    web.mkdir(parents=True, exist_ok=True)
    archive = web.parent / f"{web.parent.name}-web.tar"
    with tarfile.open(archive, "w") as tar:
        for item in (ROOT / ".web").iterdir():
            if item.name not in ("node_modules", "build"):
                tar.add(item, arcname=item.name)
    with tarfile.open(archive) as tar:
        tar.extractall(web, filter="tar")
    (web / "node_modules").symlink_to(ROOT / ".web" / "node_modules")
    build = subprocess.run(
        [str(BIN / "reflex"), "export", "--frontend-only", "--no-zip", "--loglevel", "warning"],
        cwd=root,
        env=server.env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]


def ensure_nginx() -> str:
    """Debian's nginx, installed when missing (as `make test` does for chromium)."""
    refuse_without_build("nginx requested")
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if found:
        return found
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "nginx"], check=True, env=env)
    return shutil.which("nginx") or "/usr/sbin/nginx"


def self_signed_certificate(directory: Path, host: str = "127.0.0.1") -> tuple[Path, Path]:
    """A throwaway certificate for an IP address; returns (certificate, key) files."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / "proxy.crt", directory / "proxy.key"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_file, key_file


class NginxProxy:
    """`deploy/nginx/nereo.conf` run by our own nginx process on loopback, in front of one app
    or several (`upstream`: "127.0.0.1:port", or a list of them, one per machine).

    The deployment file is used as it is; only the machine-specific values are replaced: the
    build and maps folders, the listen addresses, the certificate and the upstream servers'
    addresses (each keeps the shipped line's parameters: max_fails, fail_timeout).
    """

    def __init__(
        self, workdir: Path, build_dir: Path, maps_dir: Path, upstream: str | list[str], port: int | None = None
    ):
        self.nginx = ensure_nginx()
        self.port = port or free_port()
        self.http_port = free_port()
        self.origin = f"https://127.0.0.1:{self.port}"
        self.dir = workdir / f"nginx-{self.port}"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.build_dir, self.maps_dir, self.upstream = build_dir, maps_dir, upstream
        self.conf = self.dir / "nginx.conf"
        self.proc: subprocess.Popen | None = None

    def site_conf(self) -> str:
        text = NGINX_CONF.read_text()
        cert, key = self_signed_certificate(self.dir)
        replacements = {
            "/etc/nginx/nereo/": f"{self.maps_dir}/",
            "root /srv/nereo/client;": f"root {self.build_dir};",
            "listen 80;": f"listen 127.0.0.1:{self.http_port};",
            "listen [::]:80;": "",
            "listen 443 ssl http2;": f"listen 127.0.0.1:{self.port} ssl http2;",
            "listen [::]:443 ssl http2;": "",
            "/etc/letsencrypt/live/www.nereo-wealth.fr/fullchain.pem": str(cert),
            "/etc/letsencrypt/live/www.nereo-wealth.fr/privkey.pem": str(key),
            # The Prometheus server allowed to scrape /metrics: a second loopback address.
            "allow 10.0.0.5;": f"allow {METRICS_SCRAPER};",
        }
        for old, new in replacements.items():
            if old not in text:
                msg = f"{NGINX_CONF.name} no longer contains {old!r}: update NginxProxy"
                raise AssertionError(msg)
            text = text.replace(old, new)
        servers = re.findall(r"(?m)^ *server (\d+\.\d+\.\d+\.\d+:\d+)( [^\n]*)\n", text)
        if not servers:
            raise AssertionError(f"{NGINX_CONF.name} has no upstream server line")
        upstreams = [self.upstream] if isinstance(self.upstream, str) else self.upstream
        lines = [f"    server {address}{servers[min(i, len(servers) - 1)][1]}\n" for i, address in enumerate(upstreams)]
        block = "".join(f"    server {address}{params}\n" for address, params in servers)
        if block not in text:
            raise AssertionError(f"{NGINX_CONF.name}: the upstream server lines are no longer together")
        return text.replace(block, "".join(lines), 1)

    def write_config(self) -> None:
        (self.dir / "nereo.conf").write_text(self.site_conf())
        user = f"user {pwd.getpwuid(os.getuid()).pw_name};\n" if os.geteuid() == 0 else ""
        temp = "\n".join(
            f"    {kind}_temp_path {self.dir / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        self.conf.write_text(
            f"{user}worker_processes 1;\npid {self.dir / 'nginx.pid'};\nerror_log {self.dir / 'error.log'} warn;\n"
            "events { worker_connections 256; }\n"
            "http {\n    include /etc/nginx/mime.types;\n    default_type application/octet-stream;\n"
            f"    access_log {self.dir / 'access.log'};\n{temp}\n"
            f"    include {self.dir / 'nereo.conf'};\n}}\n"
        )

    def _command(self, *args: str) -> list[str]:
        return [self.nginx, "-p", str(self.dir), "-e", str(self.dir / "error.log"), "-c", str(self.conf), *args]

    def reload_command(self) -> str:
        """The shell command that reloads this nginx gracefully (`nginx -s reload`)."""
        return " ".join(self._command("-s", "reload"))

    def test_config(self) -> subprocess.CompletedProcess:
        """`nginx -t` on the configuration (output in stderr)."""
        return subprocess.run(self._command("-t"), capture_output=True, text=True, check=False)

    def version(self) -> str:
        return subprocess.run([self.nginx, "-v"], capture_output=True, text=True, check=True).stderr.strip()

    def start(self, timeout: float = 20) -> NginxProxy:
        refuse_without_build("nginx started")
        log = (self.dir / "stderr.log").open("ab")
        self.proc = subprocess.Popen(
            self._command("-g", "daemon off;"), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited with {self.proc.returncode}; see {self.dir / 'error.log'}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("nginx did not come up")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGQUIT)  # graceful shutdown of master and workers
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None


OIDC_PROVIDER_DIR = ROOT / "tests" / "oidc-provider"


class CertifiedProvider:
    """panva's `oidc-provider` 9.x (tests/oidc-provider/provider.mjs) on a loopback port.

    `clients`: its registered clients (oidc-provider metadata); `options`: per client id, what
    the tests vary (access_ttl, no_expires_in, rotate, refresh_delay_ms); `accounts`: claims per login;
    `resource`: an RFC 8707 resource indicator it issues JWT access tokens for. Every
    request it answers is one line "<METHOD> <path>" in its log, read by `requests()`.
    """

    def __init__(
        self,
        port: int,
        clients: list[dict],
        accounts: dict[str, dict],
        options: dict | None = None,
        resource: str = "",
    ):
        self.port = port
        self.issuer = f"http://127.0.0.1:{port}"
        self.log = ARTIFACTS / f"certified-provider-{port}.log"
        self.env = {
            **os.environ,
            "PROVIDER_PORT": str(port),
            "PROVIDER_CLIENTS": json.dumps(clients),
            "PROVIDER_ACCOUNTS": json.dumps(accounts),
            "PROVIDER_CLIENT_OPTIONS": json.dumps(options or {}),
            "PROVIDER_RESOURCE": resource,
        }
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> CertifiedProvider:
        if not (OIDC_PROVIDER_DIR / "node_modules" / "oidc-provider").is_dir():
            raise RuntimeError(f"oidc-provider is missing in {OIDC_PROVIDER_DIR}: `make test` installs it (npm ci)")
        ARTIFACTS.mkdir(exist_ok=True)
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                ["node", str(OIDC_PROVIDER_DIR / "provider.mjs")],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            wait_until_answering(
                self.proc, self.issuer + "/.well-known/openid-configuration", "oidc-provider", self.log, timeout
            )
        except RuntimeError:
            self.stop()
            raise
        return self

    def requests(self, path: str | None = None) -> list[str]:
        lines = self.said(("GET ", "POST "))
        return [line for line in lines if path is None or line.split(" ", 1)[1] == path]

    def said(self, prefix: str | tuple[str, ...]) -> list[str]:
        """Its log lines that start with `prefix` (such as "refreshed ", see provider.mjs)."""
        return [line for line in self.log.read_text().splitlines() if line.startswith(prefix)]

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


DOT_DIR = ROOT / "tests" / "oidc-dot"
DOT_PYTHON = DOT_DIR / ".venv" / "bin" / "python"
# DOT's own names for the client it registers (tests/oidc-dot/setup_data.py).
DOT_CLIENT_ID, DOT_CLIENT_SECRET = "nereo-site", "dot-secret-9f2c7a1e4b6d8f0a"
DJOP_DIR = ROOT / "tests" / "oidc-djop"
# django-oidc-provider's client (tests/oidc-djop/setup_data.py).
DJOP_CLIENT_ID, DJOP_CLIENT_SECRET = "nereo-site", "djop-secret-5c1e9a7f3b2d4e60"


class DjangoProvider:
    """A Django identity provider of the tests (a folder of tests/ with `manage.py`, its
    `setup_data.py` and a pinned virtualenv `make test` builds) on a loopback port, under
    Django's development server; subclasses name the folder, the issuer's path and the prefix
    of its environment knobs (`<PREFIX>_DATA_DIR`, `<PREFIX>_SITE_URL`, `<PREFIX>_PORT`, …).

    Its SQLite database lives in `data` (made once: `prepare`); the provider's sessions and
    grants survive `restart`, which changes its knobs. Every request it answers is one line of
    its log (Django's `django.server` lines), read by `requests()`.
    """

    directory: Path
    issuer_path: str
    knob_prefix: str
    authorize_path: str  # where the site sends the browser to log in

    def __init__(self, port: int, site_url: str, data: Path):
        self.port = port
        self.issuer = f"http://127.0.0.1:{port}{self.issuer_path}"
        self.data = data
        self.log = ARTIFACTS / f"{self.directory.name}-provider-{port}.log"
        self.env = {name: os.environ[name] for name in MACHINE_ENVIRONMENT if name in os.environ}
        prefix = self.knob_prefix
        self.env.update(
            {f"{prefix}_DATA_DIR": str(data), f"{prefix}_SITE_URL": site_url, f"{prefix}_PORT": str(port)},
            PATH="/usr/local/bin:/usr/bin:/bin",
            PYTHONUNBUFFERED="1",
        )
        self.knobs: dict[str, str] = {}
        self.proc: subprocess.Popen | None = None

    @property
    def python(self) -> Path:
        return self.directory / ".venv" / "bin" / "python"

    def _manage(self, *args: str, stdin: str | None = None) -> str:
        if not self.python.exists():
            installed = self.python.parent.parent / ".installed"
            raise RuntimeError(f"{self.python} is missing: `make test` builds it (make {installed.relative_to(ROOT)})")
        done = subprocess.run(
            [str(self.python), "manage.py", *args],
            cwd=self.directory,
            env={**self.env, **self.knobs},
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")
        return done.stdout

    def _before_migrating(self) -> None:
        """What the provider needs in `data` before Django starts (nothing by default)."""

    def prepare(self) -> Self:
        """Its database migrated, its users and the site's client (and what `_before_migrating` adds)."""
        self.data.mkdir(parents=True, exist_ok=True)
        self._before_migrating()
        # Migrating takes 20 s on a busy machine: once per installed virtualenv, then a file copy.
        pins = hashlib.sha256((self.directory / "requirements.txt").read_bytes()).hexdigest()[:12]
        template = self.python.parent.parent / f"migrated-{pins}.sqlite3"
        if not template.exists():
            self._manage("migrate", "--no-input")
            shutil.copyfile(self.data / "db.sqlite3", template)
        else:
            shutil.copyfile(template, self.data / "db.sqlite3")
        self._manage("shell", stdin=(self.directory / "setup_data.py").read_text())
        return self

    def shell(self, code: str) -> str:
        """Run Python in the provider's Django (its models), with its knobs; what it printed."""
        return self._manage("shell", "-c", code)

    def start(self, timeout: float = 30, **knobs: str) -> Self:
        self.knobs = dict(knobs)
        ARTIFACTS.mkdir(exist_ok=True)
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [str(self.python), "manage.py", "runserver", f"127.0.0.1:{self.port}", "--noreload", "--insecure"],
                cwd=self.directory,
                env={**self.env, **self.knobs},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            wait_until_answering(
                self.proc, self.issuer + "/.well-known/openid-configuration", self.directory.name, self.log, timeout
            )
        except RuntimeError:
            self.stop()
            raise
        return self

    def restart(self, **knobs: str) -> Self:
        """The same provider (database, key, sessions) with these knobs; nothing if unchanged."""
        if self.proc is not None and knobs == self.knobs:
            return self
        self.stop()
        return self.start(**knobs)

    def requests(self, path: str = "") -> list[str]:
        """Its request lines ("GET /o/authorize/?… 302"), those whose path starts with `path`."""
        found = re.findall(r'"(GET|POST) (\S+) HTTP/[\d.]+" (\d{3})', self.log.read_text(errors="replace"))
        return [f"{method} {target} {status}" for method, target, status in found if target.startswith(path)]

    def stop(self) -> None:
        if self.proc is None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None


class DotProvider(DjangoProvider):
    """django-oauth-toolkit 3.4.1 (tests/oidc-dot); issuer `http://127.0.0.1:<port>/o`. Knobs:
    `DOT_ACCESS_TTL`, `DOT_OFFLINE_ACCESS_SCOPE`, `DOT_ISS_PARAM`, `DOT_APPROVAL`,
    `DOT_LOGOUT_PROMPT`, `DOT_SILENT_FIX` (tests/oidc-dot/idp/settings.py)."""

    directory = DOT_DIR
    issuer_path = "/o"
    knob_prefix = "DOT"
    authorize_path = "/o/authorize/"

    def _before_migrating(self) -> None:
        """Its RSA signing key, a file its settings read."""
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa

        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        (self.data / "oidc.key").write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()
            )
        )


class DjopProvider(DjangoProvider):
    """django-oidc-provider 0.9.0 (tests/oidc-djop); issuer `http://127.0.0.1:<port>/openid`.
    It finds the client at its end-session endpoint through `id_token_hint` only, shows its
    consent page for `prompt=consent`, issues refresh tokens whatever the scope, and has no
    single logout. Knobs: `DJOP_TOKEN_TTL`, `DJOP_IDTOKEN_TTL`, `DJOP_SKEW`, `DJOP_TAMPER`, …
    (tests/oidc-djop/djop/settings.py); its RSA key is made by `setup_data.py`."""

    directory = DJOP_DIR
    issuer_path = "/openid"
    knob_prefix = "DJOP"
    authorize_path = "/openid/authorize"


class ForeignSite:
    """Another site, for cross-site requests in a real browser: serves `html` at every path on
    `http://localhost:<port>`, which Chromium counts as a different site from 127.0.0.1."""

    def __init__(self, html: str):
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        body = html.encode()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://localhost:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def auto_post_form(action: str, fields: dict[str, str]) -> str:
    """An attacker's page: a form that posts itself to `action` as soon as it loads."""
    import html

    inputs = "".join(
        f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in fields.items()
    )
    return (
        f'<!doctype html><html><body><form id="f" method="post" action="{html.escape(action)}">{inputs}</form>'
        "<script>document.getElementById('f').submit()</script></body></html>"
    )
