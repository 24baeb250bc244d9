"""Shared fixtures: the production site served on loopback, and a real Chromium.

Every test whose fixtures reach the production build (`production_build`: the site, the folder
of the test sites, nginx in front of them) or Chromium (`browser`), however indirectly, is marked
`needs_build` when collected; `make test-fast` deselects that mark and runs the rest.

`make test` builds the production frontend first; the `site` fixture serves that build
with `reflex run --env prod --backend-only` exactly as `make run` does, pointed at a real
OpenID provider (`oidc-provider-mock`) and a manager-service stub, both on loopback ports
TEST_PORT+1 and TEST_PORT+2 (the built frontend does not depend on them).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest
from hypothesis import settings as hypothesis_settings

# No Hypothesis example has a deadline: the machine is shared and noisy, and a test asserts what
# happens, never how fast (performance lives in scripts/bench_*.py).
hypothesis_settings.register_profile("site", deadline=None)
hypothesis_settings.load_profile("site")

sys.path.insert(0, str(Path(__file__).parent))

from sentry_receiver import SentryReceiver
from servers import (
    ARTIFACTS,
    BIN,
    ROOT,
    WEB_DIR,
    PrivateRedis,
    SiteServer,
    SmtpSink,
    drop_test_database,
    drop_test_databases,
    engines,
    free_port,
    migrated_database,
    migrated_sqlite_copy,
    refuse_without_build,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# The fixtures that stand for the frontend build or a browser. A test is classified by its
# fixture closure, so a new test on the site is marked without a list of files to keep.
BUILD_FIXTURES = frozenset({"production_build", "browser"})


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        if BUILD_FIXTURES.intersection(getattr(item, "fixturenames", ())) or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.needs_build)


@pytest.fixture(scope="session")
def production_build() -> Path:
    """The production frontend build the test sites serve (`make test` makes it)."""
    refuse_without_build("the production build requested")
    return WEB_DIR


@pytest.fixture(scope="session")
def workdir(production_build, tmp_path_factory) -> Path:
    """The folder of the test sites (each one serves the production build)."""
    if "TEST_DATABASE_URL" in engines():
        drop_test_databases()  # those of an earlier run
    return tmp_path_factory.mktemp("site")


ROLES_CLAIM = "https://nereo-wealth.fr/roles"
# Users of the test provider (one click each on its login page).
TRIAL_USER = {
    "sub": "trial.user@example.test",
    "email": "trial.user@example.test",
    "given_name": "Camille",
    "family_name": "Durand",
    "picture": "https://example.test/camille.png",
    "updated_at": 1700000000,
}
INVESTOR_USER = {
    "sub": "investor.user@example.test",
    "email": "investor.user@example.test",
    "given_name": "Ines",
    "family_name": "Vasseur",
    ROLES_CLAIM: ["INVESTOR"],
}
ADVISOR_FIRST_USER = {
    "sub": "advisor.user@example.test",
    "email": "advisor.user@example.test",
    ROLES_CLAIM: ["ADVISOR", "BETA"],
}
# An operator: the console role (CONSOLE_ROLE's default) among others.
CONSOLE_ADMIN_USER = {
    "sub": "site.admin@example.test",
    "email": "site.admin@example.test",
    "given_name": "Alex",
    "family_name": "Martin",
    ROLES_CLAIM: ["ADVISOR", "SITE_ADMIN"],
}


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A Redis for the tests that need one without a site: CI's (TEST_REDIS_URL), else a
    redis-server of the session's own on a loopback port. Tests give their keys a prefix of
    their own."""
    if os.environ.get("TEST_REDIS_URL"):
        yield os.environ["TEST_REDIS_URL"]
        return
    server = PrivateRedis().start()
    try:
        yield server.url
    finally:
        server.kill()


@pytest.fixture(scope="session")
def smtp() -> Iterator[SmtpSink]:
    """The SMTP server the session's site sends its lead mail to."""
    sink = SmtpSink().start()
    yield sink
    sink.stop()


@pytest.fixture(scope="session")
def auth_services():
    """The real identity provider and the recording manager stub, on loopback."""
    from marketing_site.dev_services import ManagerStub, site_environment, start_provider

    port = int(os.environ.get("TEST_PORT", "8765"))
    ARTIFACTS.mkdir(exist_ok=True)
    log = (ARTIFACTS / "provider.log").open("wb")
    provider = start_provider(port + 1, [TRIAL_USER, INVESTOR_USER, ADVISOR_FIRST_USER, CONSOLE_ADMIN_USER], log=log)
    stub = ManagerStub(port + 2).start()
    try:
        # The mock provider answers prompt=none by redirecting back: the silent check is on for it.
        env = {**site_environment(port + 1, port + 2, ROLES_CLAIM), "OIDC_SILENT_LOGIN": "true"}
        yield {"env": env, "manager": stub, "provider_port": port + 1}
    finally:
        stub.stop()
        provider.terminate()
        try:
            provider.wait(timeout=10)
        except subprocess.TimeoutExpired:
            provider.kill()
        log.close()


@pytest.fixture(scope="session")
def site_server(workdir, smtp, auth_services) -> Iterator[SiteServer]:
    """The production build, served like `make run` serves it, with its own database,
    the session's SMTP server and the loopback identity provider."""
    port = int(os.environ.get("TEST_PORT", "8765"))
    server = SiteServer(port, workdir, smtp, **auth_services["env"])
    manifest = WEB_DIR / "build" / "client" / "exact-paths.json"
    if not manifest.exists():
        subprocess.run(
            [str(BIN / "reflex"), "export", "--frontend-only", "--no-zip", "--loglevel", "warning"],
            cwd=ROOT,
            env=server.env,
            check=True,
        )
    try:
        httpx2.get(f"http://127.0.0.1:{port}/api/v1/health/live", timeout=1)
    except httpx2.HTTPError:
        pass
    else:
        pytest.fail(f"port {port} is already serving: stop that server, the tests must start their own")
    server.migrate()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def site(site_server) -> str:
    """Base URL of the session's production site."""
    return site_server.url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    refuse_without_build("Chromium requested")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page_errors() -> list[str]:
    return []


# The identity provider's pages link a CDN stylesheet; there is no internet here, so it is
# refused at once rather than left to time out.
PROVIDER_CDN = re.compile(r"https://cdn\.jsdelivr\.net/.*")


@pytest.fixture
def new_page(browser, page_errors):
    """Open pages in a fresh context; console errors and page errors are collected."""
    contexts = []

    def _open(locale: str = "fr-FR", width: int = 1280, height: int = 800, **context_options):
        context = browser.new_context(locale=locale, viewport={"width": width, "height": height}, **context_options)
        contexts.append(context)
        context.route(PROVIDER_CDN, lambda route: route.abort())
        page = context.new_page()
        # Every state websocket the page opens (Reflex's /_event/), for the tests that count them.
        page.state_sockets = []
        page.on("websocket", lambda ws: page.state_sockets.append(ws.url) if "/_event/" in ws.url else None)
        page.on("pageerror", lambda e: page_errors.append(f"pageerror: {e}"))
        # A failed subresource is an error; a document's own 404 is the page under test.
        page.on(
            "response",
            lambda r: (
                page_errors.append(f"{r.status}: {r.url}")
                if r.status >= 400 and r.request.resource_type != "document"
                else None
            ),
        )
        page.on(
            "console",
            lambda m: (
                page_errors.append(f"console: {m.text}")
                if m.type == "error" and not m.text.startswith("Failed to load resource")
                else None
            ),
        )
        return page

    yield _open
    for context in contexts:
        context.close()


@pytest.fixture
def service(tmp_path, monkeypatch):
    """The service modules bound to a fresh migrated database and fresh rate limits."""
    from marketing_site import db, settings
    from marketing_site.services import leads

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'leads.db'}")
    monkeypatch.setenv("MAIL_SINK_DIR", str(tmp_path / "mail"))
    monkeypatch.setenv("RATE_LIMIT_PER_IP", "5")
    monkeypatch.setenv("RATE_LIMIT_PER_EMAIL", "3")
    monkeypatch.setenv("OUTBOX_RETRY_BASE_SECONDS", "0.01")
    monkeypatch.delenv("SMTP_HOST", raising=False)
    for cached in (settings.get_settings, db.engine_for, leads._limiters):
        cached.cache_clear()
    migrated_sqlite_copy(tmp_path / "leads.db")
    yield leads
    for cached in (settings.get_settings, db.engine_for, leads._limiters):
        cached.cache_clear()


def _clear_service_caches() -> None:
    from marketing_site import db, settings
    from marketing_site.services import booking, leads

    for cached in (settings.get_settings, db.engine_for, leads._limiters, booking._limiter):
        cached.cache_clear()
    booking._busy_feed.clear()


@pytest.fixture
def store(tmp_path, monkeypatch):
    """The services bound to a fresh migrated database on the lane's engine (PostgreSQL when
    TEST_DATABASE_URL is set, else SQLite), every hour of every day bookable, and limits out of
    the way: one address stores a lead and a booking per example of a property test
    (tests/lead_payloads.py UNBOUNDED_INTAKE)."""
    from lead_payloads import UNBOUNDED_INTAKE

    from marketing_site import db

    url, database = migrated_database(tmp_path, "store")
    for name, value in {
        **UNBOUNDED_INTAKE,
        "DATABASE_URL": url,
        "MAIL_SINK_DIR": str(tmp_path / "mail"),
        "BOOKING_DAYS_AHEAD": "3",
    }.items():
        monkeypatch.setenv(name, value)
    for name in ("SMTP_HOST", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    _clear_service_caches()
    yield
    db.get_engine().dispose()
    _clear_service_caches()
    if database:
        drop_test_database(database)


@dataclass(frozen=True)
class ProxyBuild:
    """The site built for an nginx proxy's origin (https://127.0.0.1:<port>), and its nginx maps."""

    port: int
    origin: str
    web_dir: Path  # the Reflex web folder of that build (REFLEX_WEB_WORKDIR)
    build: Path  # its client build, nginx's root
    maps: Path  # scripts/nginx_maps.py's output


@pytest.fixture(scope="session")
def proxy_build(workdir) -> ProxyBuild:
    """One production build for a proxy's origin, in its own web folder (the session's build is
    untouched), shared by the modules that put deploy/nginx/nereo.conf in front of the site
    (tests/test_nginx.py, tests/test_machines.py): each runs its nginx on this port in turn."""
    port = free_port()
    origin = f"https://127.0.0.1:{port}"
    web_dir = workdir / "proxy-web"
    env = SiteServer(
        free_port(),
        workdir,
        SITE_URL=origin,
        REFLEX_WEB_WORKDIR=str(web_dir),
        ANALYTICS_SCRIPT_URL="",
        MARKETING_SCRIPT_URL="",
    ).env
    subprocess.run(
        [str(BIN / "reflex"), "export", "--frontend-only", "--no-zip", "--loglevel", "warning"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    build = web_dir / "build" / "client"
    maps = workdir / "proxy-maps"
    subprocess.run(
        [str(BIN / "python"), "scripts/nginx_maps.py", "--build", str(build), "--out", str(maps)],
        cwd=ROOT,
        env=env,
        check=True,
    )
    return ProxyBuild(port, origin, web_dir, build, maps)


@pytest.fixture
def receiver():
    sink = SentryReceiver()
    yield sink
    sink.stop()


@pytest.fixture
def reports_to(monkeypatch):
    """Turn error reports on in this process, towards a DSN (and report limits, by variable);
    off again after the test."""
    import sentry_sdk

    from marketing_site import error_reports
    from marketing_site.settings import get_settings

    def configure(dsn: str, **limits: str) -> bool:
        monkeypatch.setenv("SENTRY_DSN", dsn)
        for name, value in limits.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()
        error_reports._budgets.cache_clear()
        return error_reports.configure()

    yield configure
    client = sentry_sdk.get_client()
    client.close()
    sentry_sdk.get_global_scope().set_client(None)
    get_settings.cache_clear()
    error_reports._budgets.cache_clear()
