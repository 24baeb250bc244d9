"""Relying-party services in-process, with real sockets and a temporary SQLite database."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from sqlmodel import SQLModel

from marketing_site.db import metadata
from marketing_site.services import oidc, sessions
from marketing_site.services.return_paths import safe_return_path
from marketing_site.settings import get_settings
from marketing_site.state.auth import error_message, public_user, role_destination, roles_of

ROOT = Path(__file__).resolve().parent.parent


def _run(coroutine):
    """asyncio.run in a thread of its own (Playwright's sync API may own this thread's loop)."""
    result: dict = {}

    def target():
        try:
            result["value"] = asyncio.run(coroutine)
        except BaseException as error:  # noqa: BLE001 - re-raised in the test's thread
            result["error"] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


@pytest.fixture
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'auth.db'}")
    monkeypatch.setenv("SESSION_SECRET", "test-secret-" + "x" * 32)
    get_settings.cache_clear()
    metadata.create_all(sessions.engine())
    yield
    get_settings.cache_clear()


# ----------------------------------------------------------------------- return paths


@pytest.mark.parametrize(
    "value",
    [
        "//evil.com",
        "https://evil.com",
        "/\\evil.com",
        "\\\\evil.com",
        "/\t/evil.com",
        "/\n/evil.com",
        "http:evil.com",
        "javascript:alert(1)",
        "evil.com",
        "",
        None,
        "/auth/login",
        "/api/v1/x",
    ],
)
def test_unsafe_return_targets_fall_back_to_home(value):
    assert safe_return_path(value) == "/"


@pytest.mark.parametrize("value", ["/", "/compare", "/start-free-trial?x=1", "/portail-client-priv%C3%A9e?a=b"])
def test_same_site_paths_are_kept(value):
    assert safe_return_path(value) == value


# ----------------------------------------------------------------------- roles


def _settings(**changes):
    return get_settings().replace(
        advisor_app_url="https://advisor.test", investor_app_url="https://investor.test", **changes
    )


@pytest.mark.parametrize(
    ("roles", "destination"),
    [
        (["ADVISOR"], "https://advisor.test"),  # first position: missed by the original's index > 0
        (["INVESTOR"], "https://investor.test"),
        (["BETA", "INVESTOR"], "https://investor.test"),
        (["INVESTOR", "ADVISOR"], "https://advisor.test"),
        (["BETA"], None),
        ([], None),
    ],
)
def test_role_redirect_whatever_the_position(roles, destination):
    assert role_destination(roles, _settings()) == destination


def test_roles_come_from_the_configured_claim_and_only_public_claims_reach_the_page():
    claims = {"sub": "u", "given_name": "A", "nonce": "n", "at_hash": "h", "https://x/roles": ["ADVISOR"]}
    assert roles_of(claims, "https://x/roles") == ["ADVISOR"]
    assert roles_of(claims, "roles") == []
    assert public_user(claims, "https://x/roles") == {"sub": "u", "given_name": "A", "https://x/roles": ["ADVISOR"]}


def test_spec_messages():
    assert error_message("login_failed") == "Login failed"
    assert error_message("token_failed") == "Get access token failed"
    assert error_message("invalid_state") == "Invalid state"


# ----------------------------------------------------------------------- transactions and sessions


def test_transaction_is_used_once_lasts_one_day_and_belongs_to_its_browser(database):
    transaction = sessions.new_transaction(redirect_uri="http://x/cb", return_to="/", binding="b1")
    assert len(transaction.code_verifier) == 43
    assert sessions.take_transaction(transaction.state, "other-browser") is None
    transaction = sessions.new_transaction(redirect_uri="http://x/cb", return_to="/", binding="b1")
    assert sessions.take_transaction(transaction.state, "b1").state == transaction.state
    assert sessions.take_transaction(transaction.state, "b1") is None  # used once
    old = sessions.new_transaction(redirect_uri="http://x/cb", return_to="/", binding="b1")
    later = old.created_at + sessions.TRANSACTION_LIFETIME_SECONDS + 1
    assert sessions.take_transaction(old.state, "b1", now=later) is None


def test_session_store_keeps_no_plain_id_nor_plain_tokens(database):
    tokens = sessions.Tokens("id.token.x", "access-123", "refresh-456", time.time() + 3600)
    session_id = sessions.create_session({"sub": "u"}, tokens)
    record = sessions.load_session(session_id)
    assert record.id_hash != session_id and "access-123" not in record.access_token
    assert sessions.tokens_of(record).refresh_token == "refresh-456"
    assert sessions.load_session(session_id, now=time.time() + sessions.SESSION_LIFETIME_SECONDS + 1) is None


# ----------------------------------------------------------------------- token endpoint behaviour


class _Provider:
    """Discovery on a real loopback server; the token endpoint is whatever the test says."""

    def __init__(self, token_endpoint: str | None = None, token_delay: float = 0.0):
        self.token_requests = 0
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _json(self, body):
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._json(
                    {
                        "issuer": provider.issuer,
                        "authorization_endpoint": provider.issuer + "/authorize",
                        "token_endpoint": token_endpoint or provider.issuer + "/token",
                        "jwks_uri": provider.issuer + "/jwks",
                    }
                )

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                provider.token_requests += 1
                time.sleep(token_delay)
                self._json(
                    {"access_token": f"fresh-{provider.token_requests}", "expires_in": 3600, "token_type": "Bearer"}
                )

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class _Dropper:
    """Accepts TCP connections and closes them at once: a real network failure, counted."""

    def __init__(self):
        self.connections = 0
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/token"
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()


def _party(issuer: str) -> oidc.RelyingParty:
    return oidc.RelyingParty(get_settings().replace(oidc_issuer=issuer, oidc_client_id="c", oidc_client_secret="s"))


def _expired_session() -> str:
    tokens = sessions.Tokens("id.token.x", "old-access", "refresh-1", time.time() + 30)  # inside the 60 s margin
    return sessions.create_session({"sub": "u", "given_name": "A"}, tokens)


def test_discovered_issuer_must_equal_the_configured_one(database):
    provider = _Provider()
    try:
        party = _party(provider.issuer + "/")  # one character different
        with pytest.raises(oidc.ConfigurationError):
            _run(party.metadata())
    finally:
        provider.close()


def test_refresh_is_tried_three_times_on_network_failure_then_get_access_token_failed(database):
    dropper = _Dropper()
    provider = _Provider(token_endpoint=dropper.url)
    try:
        party = _party(provider.issuer)
        session_id = _expired_session()
        with pytest.raises(oidc.TokenFailed) as failure:
            _run(party.session_tokens(session_id))
        assert dropper.connections == 3
        assert error_message(failure.value.code) == "Get access token failed"
        assert sessions.load_session(session_id) is not None  # the session survives a network failure
    finally:
        provider.close()
        dropper.sock.close()


def test_tokens_are_refreshed_60_seconds_early_and_one_refresh_at_a_time(database):
    provider = _Provider(token_delay=0.5)
    try:
        party = _party(provider.issuer)
        session_id = _expired_session()

        async def two_at_once():
            return await asyncio.gather(party.session_tokens(session_id), party.session_tokens(session_id))

        first, second = _run(two_at_once())
        assert provider.token_requests == 1
        assert first[1].access_token == second[1].access_token == "fresh-1"
        assert _run(party.session_tokens(session_id))[1].access_token == "fresh-1"  # fresh: no new request
        assert provider.token_requests == 1
    finally:
        provider.close()


def test_expired_access_without_refresh_token_needs_the_silent_round_trip(database):
    tokens = sessions.Tokens("id.token.x", "old-access", None, time.time() - 10)
    session_id = sessions.create_session({"sub": "u"}, tokens)
    assert _run(_party("http://127.0.0.1:9").session_tokens(session_id)) is None


def test_scope_adds_offline_access_only_with_refresh_tokens():
    settings = get_settings()
    assert oidc.RelyingParty(settings.replace(oidc_use_refresh_tokens=True)).scope == (
        "openid profile email offline_access"
    )
    assert oidc.RelyingParty(settings.replace(oidc_use_refresh_tokens=False)).scope == "openid profile email"


# ----------------------------------------------------------------------- production refusal


def test_production_refuses_the_development_services():
    production = get_settings().replace(site_url="https://www.example.test", session_secret="s" * 40)
    assert oidc.configuration_problems(production) == []
    assert any("DEV_SERVICES" in p for p in oidc.configuration_problems(production.replace(dev_services=True)))
    insecure = production.replace(oidc_issuer="http://127.0.0.1:9400")
    assert any("OIDC_ISSUER" in p for p in oidc.configuration_problems(insecure))
    assert oidc.configuration_problems(production.replace(site_url="http://127.0.0.1:8000", dev_services=True)) == []


def test_dev_services_script_refuses_a_production_configuration():
    env = {**os.environ, "SITE_URL": "https://www.example.test", "OIDC_ISSUER": ""}
    result = subprocess.run(
        [sys.executable, "scripts/dev_services.py", "--", "true"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "Refusing to start" in result.stderr


def test_migrations_match_the_tables(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'migrated.db'}"}
    alembic = str(Path(sys.executable).parent / "alembic")
    subprocess.run([alembic, "upgrade", "head"], cwd=ROOT, env=env, check=True, capture_output=True)
    check = subprocess.run([alembic, "check"], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


def test_sqlmodel_metadata_has_the_auth_tables():
    assert {"auth_session", "auth_login_transaction"} <= set(SQLModel.metadata.tables)
