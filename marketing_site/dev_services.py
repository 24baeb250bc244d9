"""Local stand-ins for `make run` on a fresh machine, and for the tests.

- an OpenID provider: `oidc-provider-mock` (PyPI) on loopback, with two predefined
  users so Login is one click: an ADVISOR (names, email, picture) and an operator with
  the console role (CONSOLE_ROLE, /console);
- the manager service: a tiny HTTP server that accepts POST /environment/register
  with a Bearer token and serves the advisor and investor "applications" (/advisor/onboard,
  /investor/), recording every request.

They start only when OIDC_ISSUER is empty, and never for a production configuration
(SITE_URL on https): `scripts/dev_services.py` refuses, and the site itself refuses to
start when DEV_SERVICES=1 reaches a production configuration (`services.oidc`).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx2

BIN = Path(sys.executable).parent
DEV_CLIENT_ID = "nereo-dev"
DEV_CLIENT_SECRET = "nereo-dev-secret"
DEV_USER = {
    "sub": "camille.durand@example.test",
    "email": "camille.durand@example.test",
    "given_name": "Camille",
    "family_name": "Durand",
    "name": "Camille Durand",
    "picture": "https://example.test/camille.png",
    "updated_at": 1700000000,
}
# The second one-click user: an operator with the console role (CONSOLE_ROLE), so a fresh
# machine can open /console.
DEV_ADMIN = {
    "sub": "alex.martin@example.test",
    "email": "alex.martin@example.test",
    "given_name": "Alex",
    "family_name": "Martin",
    "name": "Alex Martin (site admin)",
    "updated_at": 1700000000,
}


@dataclass
class ManagerStub:
    """A loopback manager service; `requests` records (method, path, headers, body)."""

    port: int
    requests: list[dict[str, Any]] = field(default_factory=list)
    fail_registrations: bool = False
    # Seconds to wait before answering a registration (lets a test see the busy button).
    delay: float = 0.0
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ManagerStub:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _record(self, body: bytes) -> None:
                stub.requests.append(
                    {"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body}
                )

            def _send(self, status: int, text: str, content_type: str = "text/html; charset=utf-8") -> None:
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self._record(body)
                time.sleep(stub.delay)
                if self.path != "/environment/register":
                    self._send(404, "not found", "text/plain")
                elif not (self.headers.get("Authorization") or "").startswith("Bearer "):
                    self._send(401, '{"error":"missing bearer token"}', "application/json")
                elif stub.fail_registrations:
                    self._send(503, '{"error":"unavailable"}', "application/json")
                else:
                    self._send(201, '{"status":"created"}', "application/json")

            def do_GET(self) -> None:
                self._record(b"")
                app = self.path.split("/")[1] if self.path.count("/") >= 1 else ""
                if app in ("advisor", "investor"):
                    title = f"{app} application (local stand-in) {self.path}"
                    self._send(200, f"<!doctype html><title>{title}</title><h1>{title}</h1>")
                else:
                    self._send(404, "not found", "text/plain")

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def registrations(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["method"] == "POST" and r["path"] == "/environment/register"]


def start_provider(port: int, users: list[dict[str, Any]], log: Any = subprocess.DEVNULL) -> subprocess.Popen:
    """`oidc-provider-mock` on 127.0.0.1:port with predefined users; waits until it answers."""
    return wait_for_provider(launch_provider(port, users, log), port)


def launch_provider(port: int, users: list[dict[str, Any]], log: Any = subprocess.DEVNULL) -> subprocess.Popen:
    """`oidc-provider-mock` on 127.0.0.1:port with predefined users, started (not yet answering:
    `wait_for_provider`). In a session of its own: whoever launches it stops it."""
    command = [str(BIN / "oidc-provider-mock"), "--host", "127.0.0.1", "--port", str(port), "--require-nonce"]
    for user in users:
        command += ["--user-claims", json.dumps(user)]
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def wait_for_provider(proc: subprocess.Popen, port: int) -> subprocess.Popen:
    """`proc`, once the provider it runs on `port` answers (stopped if it does not in 30 s)."""
    issuer = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"oidc-provider-mock exited with {proc.returncode}")
        try:
            if httpx2.get(issuer + "/.well-known/openid-configuration", timeout=1).status_code == 200:
                return proc
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("oidc-provider-mock did not come up")


def site_environment(provider_port: int, manager_port: int, roles_claim: str) -> dict[str, str]:
    """The settings that point the site at the stand-ins."""
    manager = f"http://127.0.0.1:{manager_port}"
    return {
        "OIDC_ISSUER": f"http://127.0.0.1:{provider_port}",
        "OIDC_CLIENT_ID": DEV_CLIENT_ID,
        "OIDC_CLIENT_SECRET": DEV_CLIENT_SECRET,
        "MANAGER_SERVICE_URL": manager,
        "ADVISOR_APP_URL": f"{manager}/advisor",
        "INVESTOR_APP_URL": f"{manager}/investor",
        "DEV_SERVICES": "1",
        "OIDC_ROLES_CLAIM": roles_claim,
    }


def main(argv: list[str]) -> int:
    """`dev_services.py -- command...`: run the command with the stand-ins when needed."""
    from marketing_site.settings import get_settings

    command = argv[argv.index("--") + 1 :] if "--" in argv else argv
    if not command:
        print("usage: dev_services.py -- command [args...]", file=sys.stderr)
        return 2
    settings = get_settings()
    if settings.oidc_issuer:
        os.execvp(command[0], command)
    if settings.site_url.startswith("https://"):
        print(
            "Refusing to start: SITE_URL is https (production) and OIDC_ISSUER is empty. "
            "Configure the identity provider (see .env.example); the development provider "
            "never runs in production.",
            file=sys.stderr,
        )
        return 2
    provider_port, manager_port = settings.port + 1, settings.port + 2
    provider = start_provider(
        provider_port,
        [
            {**DEV_USER, settings.oidc_roles_claim: ["ADVISOR"]},
            {**DEV_ADMIN, settings.oidc_roles_claim: [settings.console_role]},
        ],
    )
    stub = ManagerStub(manager_port).start()
    env = {**os.environ, **site_environment(provider_port, manager_port, settings.oidc_roles_claim)}
    print(
        f"Development identity provider on {env['OIDC_ISSUER']} (one-click users "
        f"{DEV_USER['email']} and, with the console role, {DEV_ADMIN['email']}), "
        f"manager service stand-in on {stub.url}",
        flush=True,
    )
    site = subprocess.Popen(command, env=env)
    # `kill <pid>` of this wrapper stops the site and the stand-ins too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return site.wait()
    except KeyboardInterrupt:
        return 130
    finally:
        if site.poll() is None:
            site.terminate()
            try:
                site.wait(timeout=15)
            except subprocess.TimeoutExpired:
                site.kill()
        stub.stop()
        provider.terminate()
        try:
            provider.wait(timeout=10)
        except subprocess.TimeoutExpired:
            provider.kill()
