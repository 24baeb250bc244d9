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
from urllib.parse import parse_qs, urlsplit

import pytest
from joserfc import jws
from joserfc.jwk import RSAKey
from sqlmodel import SQLModel

from marketing_site.db import metadata
from marketing_site.services import oidc, sessions
from marketing_site.services.return_paths import safe_return_path
from marketing_site.services.sessions import roles_of
from marketing_site.settings import get_settings
from marketing_site.state.auth import error_message, public_user, role_destination

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


def test_roles_claim_defaults_to_roles_and_may_be_a_dotted_path():
    assert get_settings().oidc_roles_claim == "roles" or os.environ.get("OIDC_ROLES_CLAIM")
    keycloak = {"sub": "u", "realm_access": {"roles": ["ADVISOR", "offline_access"]}}
    assert roles_of(keycloak, "realm_access.roles") == ["ADVISOR", "offline_access"]
    assert public_user(keycloak, "realm_access.roles")["realm_access.roles"] == ["ADVISOR", "offline_access"]
    assert roles_of({"roles": "INVESTOR"}, "roles") == ["INVESTOR"]


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
    """Discovery on a real loopback server; the token endpoint is whatever the test says.

    `token_answer(n, form)` gives (status, body) of the n-th token request (default: a fresh
    access token for 1 hour; a str body is sent as an HTML page, as a gateway would); every
    token request's form is kept in `token_forms`. `/jwks` serves the test signing key `KEY`:
    `id_token(sub)` is an ID token it issued for client "c".
    """

    def __init__(
        self,
        token_endpoint: str | None = None,
        token_delay: float = 0.0,
        token_answer=None,
        userinfo: dict | None = None,
        extra_metadata: dict | None = None,
    ):
        self.token_requests = 0
        self.token_forms: list[dict[str, str]] = []
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _json(self, body, status=200):
                html = isinstance(body, str)
                data = body.encode() if html else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html" if html else "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if self.path == "/userinfo":
                    return self._json(userinfo or {}, 200 if userinfo else 401)
                if self.path == "/jwks":
                    return self._json(JWKS)
                metadata = {
                    "issuer": provider.issuer,
                    "authorization_endpoint": provider.issuer + "/authorize",
                    "token_endpoint": token_endpoint or provider.issuer + "/token",
                    "jwks_uri": provider.issuer + "/jwks",
                }
                if userinfo:
                    metadata["userinfo_endpoint"] = provider.issuer + "/userinfo"
                return self._json({**metadata, **(extra_metadata or {})})

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                provider.token_requests += 1
                provider.token_forms.append({k: v[0] for k, v in parse_qs(raw).items()})
                time.sleep(token_delay)
                if token_answer is not None:
                    status, body = token_answer(provider.token_requests, provider.token_forms[-1])
                    return self._json(body, status)
                return self._json(
                    {"access_token": f"fresh-{provider.token_requests}", "expires_in": 3600, "token_type": "Bearer"}
                )

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def id_token(self, sub: str) -> str:
        return _id_token(self.issuer, sub=sub)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


KEY = RSAKey.generate_key(2048, parameters={"kid": "k1", "use": "sig"})
JWKS = {"keys": [KEY.as_dict(private=False)]}


def _id_token(issuer: str, **claims) -> str:
    """An ID token for client "c" signed by `KEY` (served at the `_Provider`'s /jwks)."""
    now = int(time.time())
    body = {"iss": issuer, "aud": "c", "sub": "u", "iat": now, "exp": now + 600, **claims}
    return jws.serialize_compact({"alg": "RS256", "kid": "k1"}, json.dumps(body).encode(), KEY)


class _Dropper:
    """Accepts TCP connections and closes them at once: a real network failure, counted and timed."""

    def __init__(self):
        self.connections = 0
        self.times: list[float] = []
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
            self.times.append(time.monotonic())
            conn.close()


def _party(issuer: str, **changes) -> oidc.RelyingParty:
    return oidc.RelyingParty(
        get_settings().replace(oidc_issuer=issuer, oidc_client_id="c", oidc_client_secret="s", redis_url="", **changes)
    )


def _expired_session() -> str:
    # A 1-hour token with 30 s left: inside the 60 s margin.
    tokens = sessions.Tokens("id.token.x", "old-access", "refresh-1", time.time() + 30, time.time() - 3570)
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


def test_expired_access_without_refresh_token_keeps_the_session_and_says_expired(database):
    """No silent round trip at page load: the session is the site's own and lives on; only a
    use of the access token (the trial) needs a new one (issue 22: no loop)."""
    tokens = sessions.Tokens("id.token.x", "old-access", None, time.time() - 10)
    session_id = sessions.create_session({"sub": "u"}, tokens)
    user, tokens = _run(_party("http://127.0.0.1:9").session_tokens(session_id))
    assert user == {"sub": "u"} and oidc.tokens_expired(tokens)


def test_the_expiry_margin_scales_with_the_token_lifetime_and_unknown_is_not_expired():
    now = 1_000_000.0
    # 30 s tokens: not expired when stored (the 60 s margin made them expired at once).
    assert not oidc.is_expired(now + 30, now, now=now)
    assert not oidc.is_expired(now + 30, now, now=now + 20)
    assert oidc.is_expired(now + 30, now, now=now + 23)  # margin 7.5 s
    # 1-hour tokens: 60 s early, as SPEC §9 says.
    assert not oidc.is_expired(now + 3600, now, now=now + 3539)
    assert oidc.is_expired(now + 3600, now, now=now + 3541)
    # No expires_in: unknown, never "expired now".
    assert oidc.RelyingParty._expiry({"access_token": "a"}, now) is None
    assert not oidc.is_expired(None, now, now=now + 10**6)
    assert oidc.RelyingParty._expiry({"expires_in": 30}, now) == now + 30


def test_a_session_stored_without_expires_in_is_used_without_any_provider_call(database):
    dropper = _Dropper()
    provider = _Provider(token_endpoint=dropper.url)
    try:
        tokens = sessions.Tokens("id.token.x", "access", "refresh-1", None)
        session_id = sessions.create_session({"sub": "u"}, tokens)
        for _ in range(3):
            assert _run(_party(provider.issuer).session_tokens(session_id))[1].access_token == "access"
        assert dropper.connections == 0
    finally:
        provider.close()
        dropper.sock.close()


def test_refresh_sends_no_scope_and_keeps_the_refresh_token_when_not_rotated(database):
    provider = _Provider()
    refreshed = _refreshes("refreshed")
    try:
        session_id = _expired_session()
        _run(_party(provider.issuer).session_tokens(session_id))
        assert _refreshes("refreshed") == refreshed + 1
        form = provider.token_forms[-1]
        assert form["grant_type"] == "refresh_token" and form["refresh_token"] == "refresh-1"
        assert "scope" not in form  # RFC 6749 §6: omitted means exactly the granted scope
        assert sessions.tokens_of(sessions.load_session(session_id)).refresh_token == "refresh-1"
    finally:
        provider.close()


def _refreshes(outcome: str) -> float:
    """Refreshes counted by outcome (metrics.py), in this process."""
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value("site_oidc_refreshes_total", {"outcome": outcome}) or 0.0


def test_a_refused_refresh_token_ends_the_session_for_the_page_and_auth_session(database):
    provider = _Provider(token_answer=lambda n, form: (400, {"error": "invalid_grant"}))
    ended = _refreshes("ended")
    try:
        session_id = _expired_session()
        assert _run(_party(provider.issuer).session_tokens(session_id)) is None
        assert sessions.live_session(session_id) is None  # what /auth/session reads
        assert _refreshes("ended") == ended + 1
    finally:
        provider.close()


def test_a_network_failure_keeps_the_session_for_the_page_and_auth_session(database):
    dropper = _Dropper()
    provider = _Provider(token_endpoint=dropper.url)
    failed, refreshed = _refreshes("failed"), _refreshes("refreshed")
    try:
        session_id = _expired_session()
        with pytest.raises(oidc.TokenFailed):
            _run(_party(provider.issuer).session_tokens(session_id))
        assert sessions.live_session(session_id) is not None
        assert (_refreshes("failed"), _refreshes("refreshed")) == (failed + 1, refreshed)
    finally:
        provider.close()
        dropper.sock.close()


def test_network_retries_back_off(database):
    dropper = _Dropper()
    provider = _Provider(token_endpoint=dropper.url)
    try:
        with pytest.raises(oidc.TokenFailed):
            _run(_party(provider.issuer).session_tokens(_expired_session()))
        gaps = [b - a for a, b in zip(dropper.times, dropper.times[1:], strict=False)]
        assert len(gaps) == 2
        assert gaps[0] >= oidc.RETRY_BACKOFF_SECONDS * 0.9 and gaps[1] >= 2 * oidc.RETRY_BACKOFF_SECONDS * 0.9
    finally:
        provider.close()
        dropper.sock.close()


@pytest.mark.parametrize("discovery", ["unreachable", "another issuer"])
def test_a_refresh_without_discovery_is_get_access_token_failed_and_keeps_the_session(database, discovery):
    """A worker that has not cached discovery yet (just restarted) refreshes while the provider
    is away, or while discovery names another issuer: a failure like a network one, which the
    page (`AuthState.initialise` catches TokenFailed) and /auth/session both survive."""
    provider = _Provider()
    try:
        issuer = "http://127.0.0.1:9" if discovery == "unreachable" else provider.issuer + "/"
        session_id = _expired_session()
        with pytest.raises(oidc.TokenFailed) as failure:
            _run(_party(issuer).session_tokens(session_id))
        assert not isinstance(failure.value, oidc.ProviderRejected)
        assert error_message(failure.value.code) == "Get access token failed"
        assert sessions.live_session(session_id) is not None
        assert provider.token_requests == 0
    finally:
        provider.close()


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (503, "<html><body>Service Unavailable</body></html>"),
        (502, {"error": "invalid_grant"}),  # a 5xx is the provider's failure, whatever its body says
        (429, "<html><body>Too Many Requests</body></html>"),
        (429, {"message": "rate limited"}),  # JSON without an OAuth error: not a token either
        (400, {"error": "temporarily_unavailable"}),
        (400, {"error": "server_error", "error_description": "database down"}),
    ],
)
def test_an_unavailable_provider_is_retried_then_get_access_token_failed_and_the_session_kept(database, status, body):
    provider = _Provider(token_answer=lambda n, form: (status, body))
    try:
        session_id = _expired_session()
        with pytest.raises(oidc.TokenFailed) as failure:
            _run(_party(provider.issuer).session_tokens(session_id))
        assert type(failure.value) is oidc.TokenFailed  # neither a refused grant nor a refused client
        assert provider.token_requests == 3
        assert sessions.tokens_of(sessions.live_session(session_id)[0]).refresh_token == "refresh-1"
    finally:
        provider.close()


def test_a_provider_back_after_two_503s_refreshes_the_session(database):
    def answer(n, form):
        if n < 3:
            return 503, "<html><body>Service Unavailable</body></html>"
        return 200, {"access_token": f"fresh-{n}", "expires_in": 3600, "token_type": "Bearer"}

    provider = _Provider(token_answer=answer)
    try:
        session_id = _expired_session()
        _, tokens = _run(_party(provider.issuer).session_tokens(session_id))
        assert tokens.access_token == "fresh-3" and provider.token_requests == 3
        assert sessions.tokens_of(sessions.load_session(session_id)).access_token == "fresh-3"
    finally:
        provider.close()


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (400, {"error": "unauthorized_client", "error_description": "refresh_token grant not allowed"}),
        (400, {"error": "unsupported_grant_type"}),
        (400, {"error": "invalid_scope"}),
        (400, {"error": "invalid_target"}),
        (400, {"error": "invalid_request"}),
        (403, "<html><body>Forbidden by the firewall</body></html>"),
    ],
)
def test_a_refusal_other_than_invalid_grant_keeps_the_session_and_is_logged_at_error(database, caplog, status, body):
    """Only `invalid_grant` says the refresh token is no good; these say the client's
    registration (or something in front of the provider) is wrong, which a new login would
    not fix: one attempt, the session kept, 'Get access token failed'."""
    provider = _Provider(token_answer=lambda n, form: (status, body))
    try:
        session_id = _expired_session()
        with caplog.at_level("INFO", logger="marketing_site.services.oidc"), pytest.raises(oidc.TokenFailed) as failure:
            _run(_party(provider.issuer).session_tokens(session_id))
        assert not isinstance(failure.value, oidc.ClientRejected)
        assert error_message(failure.value.code) == "Get access token failed"
        assert provider.token_requests == 1
        assert sessions.live_session(session_id) is not None
        if isinstance(body, dict):
            errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
            assert len(errors) == 1 and body["error"] in errors[0] and "session kept" in errors[0]
    finally:
        provider.close()


@pytest.mark.parametrize(
    "answer",
    [
        (401, {"error": "invalid_client", "error_description": "client authentication failed"}),
        # Keycloak's answer to a wrong client secret: a 401 is client authentication, whatever the code.
        (401, {"error": "unauthorized_client", "error_description": "Invalid client or Invalid client credentials"}),
        (400, {"error": "invalid_client"}),
    ],
)
def test_invalid_client_is_an_operator_error_logged_at_error_and_keeps_the_session(database, caplog, answer):
    provider = _Provider(token_answer=lambda n, form: answer)
    try:
        session_id = _expired_session()
        with caplog.at_level("INFO", logger="marketing_site.services.oidc"), pytest.raises(oidc.ClientRejected):
            _run(_party(provider.issuer).session_tokens(session_id))
        errors = [r for r in caplog.records if r.levelname == "ERROR"]
        assert len(errors) == 1 and "OIDC_CLIENT_SECRET" in errors[0].getMessage()
        assert "configuration" in errors[0].getMessage()
        assert provider.token_requests == 1  # not retried
        assert sessions.live_session(session_id) is not None
        caplog.clear()
        with caplog.at_level("INFO", logger="marketing_site.services.oidc"):
            problems = _run(_party(provider.issuer).self_check())
        assert problems and "refused the client credentials" in problems[0]
    finally:
        provider.close()


def test_the_self_check_passes_when_the_client_authenticates(database):
    provider = _Provider(token_answer=lambda n, form: (400, {"error": "invalid_grant"}))
    try:
        assert _run(_party(provider.issuer).self_check()) == []
        assert provider.token_forms[-1]["refresh_token"].startswith("self-check-")
    finally:
        provider.close()


def test_userinfo_is_merged_and_its_subject_must_match(database):
    provider = _Provider(userinfo={"sub": "u", "given_name": "Camille", "email": "c@example.test"})
    try:
        session_id = _expired_session()
        user, _ = _run(_party(provider.issuer).session_tokens(session_id))
        assert user["given_name"] == "Camille" and user["email"] == "c@example.test"
        assert json.loads(sessions.load_session(session_id).user_json)["email"] == "c@example.test"
    finally:
        provider.close()
    provider = _Provider(userinfo={"sub": "someone-else", "email": "x@example.test"})
    try:
        session_id = _expired_session()
        assert _run(_party(provider.issuer).session_tokens(session_id)) is None  # another user: session ended
        assert sessions.live_session(session_id) is None
    finally:
        provider.close()


def test_a_refreshed_id_token_for_another_subject_ends_the_session(database, caplog):
    """The session is "u"'s; the provider's refresh answer carries a valid ID token, signed with
    its key, for "u" (kept) or for someone else (the session ends: a page and /auth/session see
    no one)."""
    subject: list[str] = []
    issued: list[str] = []

    def answer(n, form):
        issued.append(provider.id_token(subject[0]))
        return 200, {"access_token": f"fresh-{n}", "expires_in": 3600, "token_type": "Bearer", "id_token": issued[-1]}

    provider = _Provider(token_answer=answer)
    try:
        subject.append("u")
        session_id = _expired_session()
        user, tokens = _run(_party(provider.issuer).session_tokens(session_id))
        assert user["sub"] == "u" and tokens.access_token == "fresh-1"
        assert tokens.id_token == issued[-1]  # validated and kept in place of the old one
        assert sessions.tokens_of(sessions.load_session(session_id)).id_token == issued[-1]

        subject[0] = "someone-else"
        session_id = _expired_session()
        with caplog.at_level("ERROR", logger="marketing_site.services.oidc"):
            assert _run(_party(provider.issuer).session_tokens(session_id)) is None
        assert sessions.live_session(session_id) is None
        assert sessions.load_session(session_id) is None  # deleted, not merely expired
        assert provider.token_requests == 2
        assert any("another subject" in r.getMessage() for r in caplog.records)
    finally:
        provider.close()


def _code_exchange_provider(transaction_of, roles_claim: str, roles: list[str]) -> _Provider:
    """A provider whose code exchange answers a signed ID token holding `roles` (and no name)
    and whose UserInfo gives the name and email but no roles; refreshes answer an access token."""

    def answer(n, form):
        if form.get("grant_type") == "refresh_token":
            return 200, {"access_token": f"fresh-{n}", "expires_in": 3600, "token_type": "Bearer"}
        id_token = _id_token(provider.issuer, nonce=transaction_of["nonce"], **{roles_claim: roles})
        return 200, {"access_token": "access-1", "id_token": id_token, "expires_in": 3600, "token_type": "Bearer"}

    provider = _Provider(token_answer=answer, userinfo={"sub": "u", "given_name": "Alex", "email": "alex@example.test"})
    return provider


def test_roles_only_in_the_id_token_open_the_console(database):
    """The roles claim in the ID token, the names at UserInfo (as Entra ID's app roles): the
    merged identity keeps both, and the console's access rule grants the operator."""
    from marketing_site.services import console

    settings = get_settings()
    transaction_of: dict = {}
    provider = _code_exchange_provider(transaction_of, settings.oidc_roles_claim, [settings.console_role])
    try:
        party = _party(provider.issuer)
        transaction = sessions.new_transaction(redirect_uri=party.redirect_uri, return_to="/", binding="b")
        transaction_of["nonce"] = transaction.nonce
        tokens = _run(party.exchange_code("code-1", transaction))
        assert tokens.claims["given_name"] == "Alex"  # from UserInfo
        session_id = sessions.create_session(tokens.claims, tokens.as_tokens())
        access, operator = console.access_of(f"{sessions.SESSION_COOKIE}={session_id}")
        assert access == "granted" and operator.email == "alex@example.test"
    finally:
        provider.close()


def test_resource_is_sent_on_the_code_exchange_and_the_refresh(database):
    """RFC 8707 §2.2: the token requests name the resource too, or a provider issues the
    access token for its own UserInfo rather than for the API."""
    transaction_of: dict = {}
    provider = _code_exchange_provider(transaction_of, "roles", [])
    try:
        party = _party(provider.issuer, oidc_resource="https://api.example.test/")
        transaction = sessions.new_transaction(redirect_uri=party.redirect_uri, return_to="/", binding="b")
        transaction_of["nonce"] = transaction.nonce
        _run(party.exchange_code("code-1", transaction))
        _run(party.session_tokens(_expired_session()))
        exchange, refresh = provider.token_forms
        assert exchange["grant_type"] == "authorization_code" and refresh["grant_type"] == "refresh_token"
        assert exchange["resource"] == refresh["resource"] == "https://api.example.test/"
        _run(_party(provider.issuer).session_tokens(_expired_session()))
        assert "resource" not in provider.token_forms[-1]  # not configured: not sent
    finally:
        provider.close()


@pytest.mark.parametrize("nonce", ["the-nonce-of-another-login", "", None])
def test_the_code_exchange_refuses_an_id_token_without_the_login_nonce(database, nonce):
    """The ID token of the code exchange must carry this login's nonce: one replayed from
    another login, or issued without it, is refused (OIDC Core 3.1.3.7 point 11)."""
    transaction_of: dict = {}
    provider = _code_exchange_provider(transaction_of, "roles", [])
    try:
        party = _party(provider.issuer)
        transaction = sessions.new_transaction(redirect_uri=party.redirect_uri, return_to="/", binding="b")
        transaction_of["nonce"] = nonce
        with pytest.raises(oidc.LoginFailed, match="nonce"):
            _run(party.exchange_code("code-1", transaction))
        transaction_of["nonce"] = transaction.nonce
        assert _run(party.exchange_code("code-2", transaction)).claims["sub"] == "u"
    finally:
        provider.close()


def _cookie_attributes(response) -> dict[str, set[str]]:
    """Set-Cookie by name: its attributes as sent, lower-cased (the Expires date left out: it
    follows Max-Age)."""
    found = {}
    for header in response.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        attributes = {part.strip().lower() for part in rest.split(";")[1:]}
        found[name] = {a for a in attributes if a.split("=")[0] != "expires"}
    return found


@pytest.mark.parametrize("site_url", ["http://127.0.0.1:8000", "https://www.nereo.example"])
@pytest.mark.parametrize("right_nonce", [True, False])
@pytest.mark.parametrize("layers", ["site", "routes"])
def test_a_login_through_the_app_sets_its_cookies_with_their_attributes(
    database, monkeypatch, site_url, right_nonce, layers
):
    """The whole redirect login through the site's ASGI app (tests/site_app.py): the binding and
    session cookies are HttpOnly, the marker the page reads is not, all are SameSite=Lax, Path=/,
    Max-Age their lifetime of site_storage (what the privacy policy says) and, over https, Secure.
    An ID token without this login's nonce opens no session. `routes`: the login routes alone
    (api_app, without security.SecurityHeaders, which adds HttpOnly, SameSite and Secure to a cookie
    that lacks them): the routes set every attribute themselves, not only through that net."""
    from site_app import site_app
    from starlette.testclient import TestClient

    from marketing_site.api import api_app

    transaction_of: dict = {}
    provider = _code_exchange_provider(transaction_of, "roles", [])
    for name, value in {"SITE_URL": site_url, "OIDC_ISSUER": provider.issuer, "OIDC_CLIENT_ID": "c"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("OIDC_CLIENT_SECRET", "s")
    get_settings.cache_clear()
    secure = {"secure"} if site_url.startswith("https") else set()
    try:
        client = TestClient(site_app() if layers == "site" else api_app(), base_url=site_url, follow_redirects=False)
        login = client.get("/auth/login?return_to=/compare")
        assert login.status_code == 302
        authorize = {k: v[0] for k, v in parse_qs(urlsplit(login.headers["location"]).query).items()}
        day = f"max-age={24 * 3600}"
        assert _cookie_attributes(login) == {
            sessions.BINDING_COOKIE: {"path=/", "httponly", "samesite=lax", day, *secure}
        }
        transaction_of["nonce"] = authorize["nonce"] if right_nonce else "the-nonce-of-another-login"
        callback = client.get(f"/auth/callback?state={authorize['state']}&code=code-1")
        assert callback.status_code == 200
        cookies = _cookie_attributes(callback)
        if not right_nonce:
            assert cookies == {sessions.ERROR_COOKIE: {"path=/", "samesite=lax", "max-age=300", *secure}}
            assert sessions.live_session(client.cookies.get(sessions.SESSION_COOKIE)) is None
            return
        assert cookies == {
            sessions.SESSION_COOKIE: {"path=/", "httponly", "samesite=lax", day, *secure},
            sessions.MARKER_COOKIE: {"path=/", "samesite=lax", day, *secure},
        }
        assert sessions.live_session(client.cookies.get(sessions.SESSION_COOKIE)) is not None
    finally:
        provider.close()


def test_logout_without_an_end_session_endpoint_is_local_and_back_home(database, monkeypatch, caplog):
    """POST /auth/logout (the route itself, over ASGI) with a provider that advertises no
    end_session_endpoint: no guessed Auth0 path, a 303 to the home page, the session gone."""
    from starlette.testclient import TestClient

    from marketing_site.api import api_app

    provider = _Provider()
    try:
        monkeypatch.setenv("OIDC_ISSUER", provider.issuer)
        monkeypatch.setenv("OIDC_CLIENT_ID", "c")
        monkeypatch.delenv("OIDC_COMPAT", raising=False)
        get_settings.cache_clear()
        session_id = _expired_session()
        client = TestClient(api_app(), base_url="http://127.0.0.1", follow_redirects=False)
        client.cookies.set(sessions.SESSION_COOKIE, session_id)
        with caplog.at_level("INFO", logger="marketing_site.api.auth"):
            response = client.post("/auth/logout")
        assert response.status_code == 303 and response.headers["location"] == "/"
        cleared = response.headers.get_list("set-cookie")
        assert any(c.startswith(f'{sessions.SESSION_COOKIE}=""') for c in cleared)
        assert any(c.startswith(f'{sessions.MARKER_COOKIE}=""') for c in cleared)
        assert sessions.live_session(session_id) is None
        assert any("no end_session_endpoint" in r.getMessage() for r in caplog.records)
    finally:
        provider.close()


def test_the_per_process_lock_dict_is_emptied_after_refreshes(database):
    provider = _Provider(token_delay=0.2)
    try:
        party = _party(provider.issuer)
        ids = [_expired_session() for _ in range(5)]

        async def all_at_once():
            return await asyncio.gather(*(party.session_tokens(i) for i in ids + ids))

        _run(all_at_once())
        assert provider.token_requests == 5
        assert party._locks == {}
    finally:
        provider.close()


def _authorize_params(party: oidc.RelyingParty, **options) -> dict[str, str]:
    transaction = sessions.new_transaction(redirect_uri=party.redirect_uri, return_to="/", binding="b")
    url = _run(party.authorization_url(transaction, **options))
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def test_offline_access_only_with_prompt_consent_and_resource_instead_of_audience(database):
    provider = _Provider()
    try:
        params = _authorize_params(_party(provider.issuer))
        assert params["scope"] == "openid profile email offline_access" and params["prompt"] == "consent"
        assert "audience" not in params and "resource" not in params
        silent = _authorize_params(_party(provider.issuer), prompt="none")
        assert silent["scope"] == "openid profile email" and silent["prompt"] == "none"
        without = _authorize_params(_party(provider.issuer, oidc_use_refresh_tokens=False))
        assert without["scope"] == "openid profile email" and "prompt" not in without
        api = _authorize_params(_party(provider.issuer, oidc_resource="https://api.example.test/"))
        assert api["resource"] == "https://api.example.test/" and "audience" not in api
        auth0 = _authorize_params(
            _party(provider.issuer, oidc_compat="auth0", oidc_audience="https://api.example.test")
        )
        assert auth0["audience"] == "https://api.example.test" and "prompt" not in auth0
        assert auth0["scope"] == "openid profile email offline_access"
    finally:
        provider.close()


def test_logout_by_the_book_auth0_only_when_configured_and_none_without_an_endpoint(database):
    provider = _Provider(extra_metadata={"end_session_endpoint": "http://127.0.0.1:9/session/end"})
    try:
        party = _party(provider.issuer, site_url="https://www.example.test")
        url = _run(party.logout_url(id_token_hint="id.token.x", federated=True))
        params = {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}
        assert url.startswith("http://127.0.0.1:9/session/end?")
        assert params["post_logout_redirect_uri"] == "https://www.example.test/"
        assert params["id_token_hint"] == "id.token.x" and params["client_id"] == "c"
        # No state: the provider would append it to the home page's address (issue 34).
        assert "returnTo" not in params and "federated" not in params and "state" not in params
        auth0 = _run(_party(provider.issuer, oidc_compat="auth0").logout_url(id_token_hint=None, federated=True))
        assert "returnTo=" in auth0 and auth0.endswith("&federated")
    finally:
        provider.close()
    provider = _Provider()  # no end_session_endpoint
    try:
        assert _run(_party(provider.issuer).logout_url(id_token_hint="id.token.x")) is None
        auth0 = _run(_party(provider.issuer, oidc_compat="auth0").logout_url(id_token_hint=None))
        assert auth0.startswith(provider.issuer + "/v2/logout?")
    finally:
        provider.close()


def test_take_transaction_gives_a_state_to_one_of_many_racing_callbacks(database):
    for _ in range(5):
        transaction = sessions.new_transaction(redirect_uri="http://x/cb", return_to="/", binding="b1")
        barrier = threading.Barrier(8)
        taken = []

        def take(state=transaction.state, barrier=barrier, taken=taken):
            barrier.wait()
            taken.append(sessions.take_transaction(state, "b1"))

        threads = [threading.Thread(target=take) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(t is not None for t in taken) == 1


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


# ----------------------------------------------------------------------- two workers, one refresh

RACER = """
import asyncio, sys
from marketing_site.services import oidc
from marketing_site.settings import get_settings
issuer, session_id, redis_url = sys.argv[1:4]
settings = get_settings().replace(oidc_issuer=issuer, oidc_client_id="c", oidc_client_secret="s", redis_url=redis_url)
party = oidc.RelyingParty(settings)
asyncio.run(party.metadata())
print("ready", flush=True)
sys.stdin.readline()  # both workers are loaded: go at once
result = asyncio.run(party.session_tokens(session_id))
print(result[1].access_token if result else "ENDED")
"""


def _rotating_answer(n, form):
    """A provider that rotates refresh tokens and refuses a used one (as a certified one may)."""
    if form.get("refresh_token") == "refresh-1" and n == 1:
        return 200, {"access_token": "fresh-1", "refresh_token": "refresh-2", "expires_in": 3600}
    return 400, {"error": "invalid_grant", "error_description": "refresh token already used"}


def _race(pg_url: str, redis_url: str, session_id: str, provider) -> list[str]:
    env = {**os.environ, "DATABASE_URL": pg_url, "SESSION_SECRET": os.environ["SESSION_SECRET"]}
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, provider.issuer, session_id, redis_url],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for racer in racers:
        assert racer.stdout.readline().strip() == "ready", racer.stderr.read()[-2000:]
    for racer in racers:
        racer.stdin.write("go\n")
        racer.stdin.flush()
    outputs = [racer.communicate(timeout=120) for racer in racers]
    assert all(racer.returncode == 0 for racer in racers), [err[-2000:] for _, err in outputs]
    return sorted(out.strip().splitlines()[-1] for out, _ in outputs)


@pytest.mark.skipif(
    not (os.environ.get("TEST_DATABASE_URL") and os.environ.get("TEST_REDIS_URL")),
    reason="needs TEST_DATABASE_URL (PostgreSQL) and TEST_REDIS_URL (Redis), as `make test` passes them",
)
def test_two_workers_racing_one_refresh_on_postgresql_and_redis(tmp_path, monkeypatch):
    """Two processes (two workers) refresh one expired session at the same instant, with a
    provider that rotates refresh tokens: with the Redis lock, one refresh, both get its
    token, the session lives. The same race with per-process locks (no Redis) refreshes
    twice and the loser's refused token ends the visitor's session: the lock is what holds."""
    from servers import PG_PREFIX, create_test_database

    pg_url = create_test_database(f"{PG_PREFIX}race_{time.time_ns()}")
    monkeypatch.setenv("DATABASE_URL", pg_url)
    monkeypatch.setenv("SESSION_SECRET", "race-secret-" + "x" * 32)
    get_settings.cache_clear()
    try:
        metadata.create_all(sessions.engine())
        outcomes = {}
        for name, redis_url in (("redis", os.environ["TEST_REDIS_URL"]), ("per-process", "")):
            provider = _Provider(token_delay=0.5, token_answer=_rotating_answer)
            try:
                session_id = _expired_session()
                outcomes[name] = (_race(pg_url, redis_url, session_id, provider), provider.token_requests)
                outcomes[name] += (sessions.live_session(session_id) is not None,)
            finally:
                provider.close()
        assert outcomes["redis"] == (["fresh-1", "fresh-1"], 1, True)
        assert outcomes["per-process"][1] == 2 and outcomes["per-process"][2] is False  # the bug without it
    finally:
        from sqlalchemy import text

        from marketing_site import db

        sessions.engine().dispose()
        db.engine_for.cache_clear()
        get_settings.cache_clear()
        engine = __import__("servers")._pg_admin()
        with engine.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{pg_url.rsplit("/", 1)[1]}" WITH (FORCE)'))
        engine.dispose()
