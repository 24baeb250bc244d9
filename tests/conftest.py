"""Shared fixtures: the production site served on loopback, and a real Chromium.

`make test` builds the production frontend first; the `site` fixture serves that build
with `reflex run --env prod --backend-only` exactly as `make run` does, pointed at a real
OpenID provider (`oidc-provider-mock`) and a manager-service stub, both on loopback ports
TEST_PORT+1 and TEST_PORT+2 (the built frontend does not depend on them).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
ARTIFACTS = ROOT / "test-artifacts"
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


def _env(port: int) -> dict[str, str]:
    env = dict(os.environ)
    tools = str(ROOT / ".tools" / "node_modules" / ".bin")
    env["PATH"] = os.pathsep.join([tools, str(BIN), env.get("PATH", "")])
    env["PORT"] = str(port)
    env["SITE_URL"] = f"http://127.0.0.1:{port}"
    env["REFLEX_TELEMETRY_ENABLED"] = "false"
    return env


def _wait_until_up(url: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the site exited with {proc.returncode}")
        try:
            if httpx.get(url + "/ping", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError("the site did not come up")


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


@pytest.fixture(scope="session")
def auth_services():
    """The real identity provider and the recording manager stub, on loopback."""
    from marketing_site.dev_services import ManagerStub, site_environment, start_provider

    port = int(os.environ.get("TEST_PORT", "8765"))
    ARTIFACTS.mkdir(exist_ok=True)
    log = (ARTIFACTS / "provider.log").open("wb")
    provider = start_provider(port + 1, [TRIAL_USER, INVESTOR_USER, ADVISOR_FIRST_USER], log=log)
    stub = ManagerStub(port + 2).start()
    try:
        yield {"env": site_environment(port + 1, port + 2, ROLES_CLAIM), "manager": stub, "provider_port": port + 1}
    finally:
        stub.stop()
        provider.terminate()
        try:
            provider.wait(timeout=10)
        except subprocess.TimeoutExpired:
            provider.kill()
        log.close()


@pytest.fixture(scope="session")
def site(auth_services) -> Iterator[str]:
    """Base URL of the production build, served like `make run` serves it."""
    port = int(os.environ.get("TEST_PORT", "8765"))
    env = {**_env(port), **auth_services["env"]}
    manifest = ROOT / ".web" / "build" / "client" / "exact-paths.json"
    if not manifest.exists():
        subprocess.run(
            [str(BIN / "reflex"), "export", "--frontend-only", "--no-zip", "--loglevel", "warning"],
            cwd=ROOT,
            env=env,
            check=True,
        )
    try:
        httpx.get(f"http://127.0.0.1:{port}/ping", timeout=1)
    except httpx.HTTPError:
        pass
    else:
        pytest.fail(f"port {port} is already serving: stop that server, the tests must start their own")
    ARTIFACTS.mkdir(exist_ok=True)
    log = (ARTIFACTS / "site.log").open("wb")
    proc = subprocess.Popen(
        [
            str(BIN / "reflex"), "run", "--env", "prod", "--backend-only",
            "--backend-host", "127.0.0.1", "--backend-port", str(port),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, proc)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page_errors() -> list[str]:
    return []


@pytest.fixture
def new_page(browser, page_errors):
    """Open pages in a fresh context; console errors and page errors are collected."""
    contexts = []

    def _open(locale: str = "fr-FR", width: int = 1280, height: int = 800):
        context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: page_errors.append(f"pageerror: {e}"))
        # A failed subresource is an error; a document's own 404 is the page under test.
        page.on(
            "response",
            lambda r: page_errors.append(f"{r.status}: {r.url}")
            if r.status >= 400 and r.request.resource_type != "document"
            else None,
        )
        page.on(
            "console",
            lambda m: page_errors.append(f"console: {m.text}")
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None,
        )
        return page

    yield _open
    for context in contexts:
        context.close()


def pytest_configure(config):
    # The suite's helpers live beside the tests.
    sys.path.insert(0, str(Path(__file__).parent))
