"""The login routes' bounds and the relying party's adaptation to its provider, in-process.

Issue 30: growth and cost per anonymous client (login transactions rate-limited, a short
`return_to`, expired ones purged while the site runs; the JWKS asked again at most once a
minute; a back-channel logout token accepted once, across workers with Redis; small forms
only on the two POST routes). Issue 34: the start-up self-check reads discovery and names the
setting to change, the site adapts where it is safe (scopes, client authentication), RFC 9207,
the `id_token_hint` only while the provider still knows it, configuration shown in full in
the log. Real loopback servers and a real SQLite database (Redis too when TEST_REDIS_URL).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from joserfc import jws
from joserfc.jwk import RSAKey
from sqlmodel import Session, select
from test_auth_services import KEY, _party, _Provider, _run

from marketing_site import logs
from marketing_site.db import metadata
from marketing_site.db.auth import LoginTransaction
from marketing_site.services import id_token as id_tokens
from marketing_site.services import oidc, sessions
from marketing_site.services.return_paths import MAX_LENGTH, safe_return_path
from marketing_site.settings import get_settings

EVENT = {id_tokens.BACKCHANNEL_LOGOUT_EVENT: {}}


@pytest.fixture
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'auth.db'}")
    monkeypatch.setenv("SESSION_SECRET", "test-secret-" + "x" * 32)
    get_settings.cache_clear()
    metadata.create_all(sessions.engine())
    yield
    get_settings.cache_clear()
    oidc._PARTIES.clear()
    from marketing_site.api import auth

    auth._login_limiter.cache_clear()  # its limit of a few logins would refuse the next file's logins


def _api(monkeypatch, issuer: str, **env: str):
    """The site's Starlette routes over ASGI, configured for `issuer` (client "c", secret "s")."""
    from starlette.testclient import TestClient

    from marketing_site.api import api_app

    monkeypatch.setenv("OIDC_ISSUER", issuer)
    monkeypatch.setenv("OIDC_CLIENT_ID", "c")
    monkeypatch.setenv("OIDC_CLIENT_SECRET", "s")
    monkeypatch.delenv("REFLEX_REDIS_URL", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    oidc._PARTIES.clear()
    from marketing_site.api import auth

    auth._login_limiter.cache_clear()
    return TestClient(api_app(), base_url="http://127.0.0.1", follow_redirects=False)


def _transactions() -> int:
    with Session(sessions.engine()) as db:
        return len(db.exec(select(LoginTransaction.state)).all())


# ----------------------------------------------------------------------------- login transactions


def test_starting_a_login_is_rate_limited_per_address(database, monkeypatch):
    """Each start stores a transaction for a day: beyond LOGIN_RATE_LIMIT_PER_IP per window the
    route answers 429 in the browser's language and stores nothing; the silent check, beyond
    it, goes back to the page (never to the provider) and clears the marker."""
    provider = _Provider()
    try:
        client = _api(monkeypatch, provider.issuer, LOGIN_RATE_LIMIT_PER_IP="3", OIDC_SILENT_LOGIN="true")
        for _ in range(2):
            assert client.get("/auth/login", params={"return_to": "/compare"}).status_code == 302
        client.cookies.set(sessions.MARKER_COOKIE, "true")
        assert client.get("/auth/silent", params={"return_to": "/compare"}).status_code == 302
        assert _transactions() == 3
        refused = client.get("/auth/login", headers={"Accept-Language": "en-GB,en"})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
        assert 'lang="en"' in refused.text and "Too many login attempts" in refused.text
        assert "Trop de tentatives" in client.get("/auth/login", headers={"Accept-Language": "fr-FR"}).text
        silent = client.get("/auth/silent", params={"return_to": "/compare"})
        assert silent.status_code == 303 and silent.headers["location"] == "/compare"
        assert f'{sessions.MARKER_COOKIE}=""' in silent.headers["set-cookie"]
        assert _transactions() == 3
    finally:
        provider.close()


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=3000) | st.from_regex(r"/[a-z/]{0,600}(\?[a-z=&]{0,900})?")
)
def test_a_return_path_is_short_and_same_site_whatever_is_asked(value):
    kept = safe_return_path(value)
    assert kept == "/" or (kept.startswith("/") and not kept.startswith("//") and len(kept) <= MAX_LENGTH)
    if value.startswith("/") and len(value) > MAX_LENGTH and kept != "/":
        assert value.startswith(kept) and "?" not in kept  # the path alone, without its long query


def test_expired_login_transactions_are_purged_while_the_site_runs(database, monkeypatch):
    """Not only at start-up: the first transaction after PURGE_INTERVAL_SECONDS removes those
    older than their day (and no more often than that)."""
    stale = sessions.new_transaction(redirect_uri="http://x/cb", return_to="/", binding="b")
    with Session(sessions.engine()) as db:
        row = db.get(LoginTransaction, stale.state)
        row.created_at = time.time() - sessions.TRANSACTION_LIFETIME_SECONDS - 5
        db.add(row)
        db.commit()
    sessions.new_transaction(redirect_uri="http://x/cb", return_to="/", binding="b")
    assert _transactions() == 2  # purged less than PURGE_INTERVAL_SECONDS ago (the first one)
    monkeypatch.setitem(sessions._last_purge, "at", time.monotonic() - sessions.PURGE_INTERVAL_SECONDS)
    sessions.new_transaction(redirect_uri="http://x/cb", return_to="/", binding="b")
    with Session(sessions.engine()) as db:
        assert db.get(LoginTransaction, stale.state) is None
    assert _transactions() == 2


# ----------------------------------------------------------------------------- back-channel logout


class _Keys:
    """Discovery and a JWKS on loopback that count how often the keys are asked for."""

    def __init__(self, keys: list[RSAKey]):
        self.keys, self.fetches = keys, 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path == "/jwks":
                    owner.fetches += 1
                    body = {"keys": [key.as_dict(private=False) for key in owner.keys]}
                else:
                    body = {
                        "issuer": owner.issuer,
                        "authorization_endpoint": owner.issuer + "/authorize",
                        "token_endpoint": owner.issuer + "/token",
                        "jwks_uri": owner.issuer + "/jwks",
                    }
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def logout_token(self, key: RSAKey, **claims) -> str:
        body = {"iss": self.issuer, "aud": "c", "sub": "u", "iat": int(time.time()), "jti": "j1", "events": EVENT}
        body.update(claims)
        return jws.serialize_compact({"alg": "RS256", "kid": key.kid}, json.dumps(body).encode(), key)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_forged_logout_tokens_ask_for_the_keys_at_most_once_a_minute(database):
    """Issue 30: each token signed with an unknown key made the site fetch the JWKS again. Now a
    burst of them costs one fetch; after the cooldown a rotated key is found."""
    keys = _Keys([KEY])
    try:
        party = _party(keys.issuer)
        stranger = RSAKey.generate_key(2048, parameters={"kid": "k-forged"})
        for n in range(25):
            with pytest.raises(oidc.LoginFailed, match=r"\(key\)"):
                _run(party.logout_token_claims(keys.logout_token(stranger, jti=f"f{n}")))
        assert keys.fetches == 1  # the first look; the unknown key asks again only after the cooldown
        rotated = RSAKey.generate_key(2048, parameters={"kid": "k2", "use": "sig"})
        keys.keys.append(rotated)
        with pytest.raises(oidc.LoginFailed):  # inside the cooldown: not asked again
            _run(party.logout_token_claims(keys.logout_token(rotated, jti="r1")))
        party._jwks_at -= oidc.JWKS_REFRESH_COOLDOWN_SECONDS
        assert _run(party.logout_token_claims(keys.logout_token(rotated, jti="r2")))["sub"] == "u"
        assert keys.fetches == 2
    finally:
        keys.close()


def test_a_replayed_logout_token_is_refused_and_ends_no_session(database, monkeypatch):
    keys = _Keys([KEY])
    try:
        client = _api(monkeypatch, keys.issuer)
        token = keys.logout_token(KEY, jti="once")
        sessions.create_session({"sub": "u"}, sessions.Tokens("i.d.t", "a", None, None))
        assert client.post("/auth/backchannel-logout", data={"logout_token": token}).status_code == 200
        assert sessions.sessions_count() == 0
        sessions.create_session({"sub": "u"}, sessions.Tokens("i.d.t", "a", None, None))
        assert client.post("/auth/backchannel-logout", data={"logout_token": token}).status_code == 400
        assert sessions.sessions_count() == 1  # the replay ended nothing
        other = keys.logout_token(KEY, jti="another")
        assert client.post("/auth/backchannel-logout", data={"logout_token": other}).status_code == 200
    finally:
        keys.close()


@pytest.mark.skipif(
    not os.environ.get("TEST_REDIS_URL"), reason="needs TEST_REDIS_URL (Redis), as `make test` passes it"
)
def test_a_logout_token_replayed_to_another_worker_is_refused_with_redis(database):
    """Two relying parties (two workers) sharing Redis: the second sees the first's `jti`."""
    keys = _Keys([KEY])
    try:
        prefix = f"mstest:jti:{time.time_ns()}:"
        settings = get_settings().replace(
            oidc_issuer=keys.issuer,
            oidc_client_id="c",
            oidc_client_secret="s",
            redis_url=os.environ["TEST_REDIS_URL"],
            redis_key_prefix=prefix,
        )
        workers = [oidc.RelyingParty(settings) for _ in range(2)]
        token = keys.logout_token(KEY, jti="shared")
        assert _run(workers[0].logout_token_claims(token))["jti"] == "shared"
        with pytest.raises(oidc.LoginFailed, match="replayed"):
            _run(workers[1].logout_token_claims(token))
    finally:
        keys.close()


def _multipart(fields: dict[str, str], files: dict[str, bytes] | None = None) -> tuple[bytes, str]:
    boundary = "nereoBoundary42"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    for name, data in (files or {}).items():
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="x.bin"\r\n\r\n'
        parts.append(head.encode() + data + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


@pytest.mark.parametrize("path", ["/auth/logout", "/auth/backchannel-logout"])
def test_the_two_post_routes_read_small_forms_only(database, monkeypatch, path):
    """Issue 30: both parsed unlimited multipart bodies. A body past FORM_MAX_BYTES is 413
    (declared or streamed), a file or too many fields 400; the session lives on."""
    from marketing_site.api.auth import FORM_MAX_BYTES, FORM_MAX_FIELDS

    keys = _Keys([KEY])
    try:
        client = _api(monkeypatch, keys.issuer)
        session_id = sessions.create_session({"sub": "u"}, sessions.Tokens("i.d.t", "a", None, None))
        client.cookies.set(sessions.SESSION_COOKIE, session_id)
        big = {"local_only": "1", "logout_token": "x" * FORM_MAX_BYTES}
        assert client.post(path, data=big).status_code == 413

        def chunks():
            for _ in range(FORM_MAX_BYTES // 1024 + 2):
                yield b"a=" + b"b" * 1022

        streamed = client.post(path, content=chunks(), headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert streamed.status_code == 413
        body, content_type = _multipart({"local_only": "1"}, {"file": b"\0" * 100})
        assert client.post(path, content=body, headers={"Content-Type": content_type}).status_code == 400
        body, content_type = _multipart({f"f{n}": "1" for n in range(FORM_MAX_FIELDS + 1)})
        assert client.post(path, content=body, headers={"Content-Type": content_type}).status_code == 400
        assert sessions.live_session(session_id) is not None
        if path == "/auth/logout":  # a small multipart form goes through
            body, content_type = _multipart({"local_only": "1"})
            assert client.post(path, content=body, headers={"Content-Type": content_type}).status_code == 303
            assert sessions.live_session(session_id) is None
    finally:
        keys.close()


# ----------------------------------------------------------------------------- logout comes back


def _userinfo_provider(status: int) -> _Provider:
    advertised: dict[str, str] = {}
    provider = _Provider(userinfo={"sub": "u"}, extra_metadata=advertised)
    # Its own address (it answers every GET): the logout asks the endpoint before sending the browser there.
    advertised["end_session_endpoint"] = provider.issuer + "/logout"
    if status != 200:
        provider.server.RequestHandlerClass.do_GET_original = provider.server.RequestHandlerClass.do_GET

        def do_get(handler):
            if handler.path == "/userinfo":
                return handler._json({"error": "invalid_token"}, status)
            return handler.do_GET_original()

        provider.server.RequestHandlerClass.do_GET = do_get
    return provider


@pytest.mark.parametrize(
    ("userinfo", "expires_in", "hinted"),
    [(200, 3600, True), (401, 3600, False), (200, -10, True), (401, -10, True)],
)
def test_the_id_token_goes_as_hint_unless_the_provider_refuses_the_session(
    database, monkeypatch, userinfo, expires_in, hinted
):
    """A provider that no longer knows the ID token (a logout on another device, a revoked
    grant) shows its own error page for the hint and keeps the visitor: when UserInfo refuses
    the unexpired access token, the logout sends `client_id` without it. An expired access token
    (here without a refresh token) says nothing: the hint goes (RP-Initiated Logout 1.0 §2; a
    provider may find the client only through it). An identity's `login_hint` claim (Entra ID)
    goes as `logout_hint`."""
    provider = _userinfo_provider(userinfo)
    try:
        client = _api(monkeypatch, provider.issuer)
        tokens = sessions.Tokens(provider.id_token("u"), "access-1", None, time.time() + expires_in, time.time())
        session_id = sessions.create_session({"sub": "u", "login_hint": "O.aXNzdWVy"}, tokens)
        client.cookies.set(sessions.SESSION_COOKIE, session_id)
        response = client.post("/auth/logout")
        params = {k: v[0] for k, v in parse_qs(urlsplit(response.headers["location"]).query).items()}
        assert response.status_code == 303 and response.headers["location"].startswith(provider.issuer + "/logout?")
        assert ("id_token_hint" in params) is hinted
        assert params["client_id"] == "c" and params["logout_hint"] == "O.aXNzdWVy" and "state" not in params
        assert sessions.live_session(session_id) is None
    finally:
        provider.close()


# ----------------------------------------------------------------------------- discovery


_STRINGS = st.lists(st.sampled_from(["openid", "profile", "email", "offline_access", "api"]), unique=True)
_METADATA = st.fixed_dictionaries(
    {},
    optional={
        "scopes_supported": _STRINGS.filter(bool),
        "code_challenge_methods_supported": st.lists(st.sampled_from(["S256", "plain"]), unique=True),
        "token_endpoint_auth_methods_supported": st.lists(
            st.sampled_from(["client_secret_basic", "client_secret_post", "private_key_jwt", "none"]), unique=True
        ),
        "id_token_signing_alg_values_supported": st.lists(st.sampled_from(["RS256", "ES256", "HS256"]), unique=True),
        "end_session_endpoint": st.just("https://idp.example/logout"),
        "userinfo_endpoint": st.just("https://idp.example/userinfo"),
        "prompt_values_supported": st.lists(st.sampled_from(["none", "login", "consent"]), unique=True),
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    metadata=_METADATA,
    refresh=st.booleans(),
    secret=st.sampled_from(["", "s"]),
    silent=st.booleans(),
    compat=st.sampled_from(["standard", "auth0"]),
)
def test_the_self_check_names_the_setting_to_change_for_each_gap_in_discovery(
    metadata, refresh, secret, silent, compat
):
    """Every gap of discovery that matters gives one finding that names what to change (a
    setting here, or the client at the provider), and a gap the site adapts to (a scope,
    basic client authentication) changes what it asks for instead of failing the login."""
    party = oidc.RelyingParty(
        get_settings().replace(
            oidc_issuer="https://idp.example",
            oidc_client_id="c",
            oidc_client_secret=secret,
            oidc_use_refresh_tokens=refresh,
            oidc_silent_login=silent,
            oidc_compat=compat,
        )
    )
    findings = party.discovery_findings(metadata)
    texts = " | ".join(text for _, text in findings)
    errors = [text for level, text in findings if level >= logging.ERROR]
    offered = metadata.get("scopes_supported")
    missing_offline = refresh and bool(offered) and "offline_access" not in offered
    assert ("OIDC_USE_REFRESH_TOKENS to false" in texts) is missing_offline
    assert ("offline_access" in party.scopes(metadata)) is (refresh and not missing_offline)
    for scope in ("profile", "email"):
        gap = bool(offered) and scope not in offered
        assert (f"the {scope} scope" in texts) is gap and (scope in party.scopes(metadata)) is not gap
    assert ("openid scope" in texts) is (bool(offered) and "openid" not in offered)
    assert party.scopes(metadata)[0] == "openid"
    pkce = metadata.get("code_challenge_methods_supported")
    assert ("enable PKCE with S256" in texts) is (pkce is not None and "S256" not in pkce)
    methods = metadata.get("token_endpoint_auth_methods_supported")
    method = party.token_auth_method(metadata)
    if secret and methods is not None and "client_secret_basic" not in methods and "client_secret_post" in methods:
        assert method == "client_secret_post"  # adapted, no finding
    assert ("the token endpoint accepts" in texts) is (methods is not None and method not in methods)
    if not secret and methods is not None and "none" not in methods:
        assert "set OIDC_CLIENT_SECRET" in texts
    algorithms = metadata.get("id_token_signing_alg_values_supported")
    assert ("choose RS256" in texts) is (algorithms is not None and "RS256" not in algorithms)
    no_logout = compat == "standard" and "end_session_endpoint" not in metadata
    assert ("Enable RP-Initiated Logout" in texts) is no_logout
    prompts = metadata.get("prompt_values_supported")
    assert ("set OIDC_SILENT_LOGIN=false" in texts) is (silent and prompts is not None and "none" not in prompts)
    assert all(("OIDC_" in text) or ("at the provider" in text) for text in errors)


def test_a_provider_without_offline_access_is_asked_neither_for_it_nor_for_consent(database):
    for offered, scope, prompt in (
        (["openid", "profile", "email", "offline_access"], "openid profile email offline_access", "consent"),
        (["openid", "profile", "email"], "openid profile email", None),
    ):
        provider = _Provider(extra_metadata={"scopes_supported": offered})
        try:
            party = _party(provider.issuer)
            transaction = sessions.new_transaction(redirect_uri=party.redirect_uri, return_to="/", binding="b")
            params = parse_qs(urlsplit(_run(party.authorization_url(transaction))).query)
            assert params["scope"] == [scope] and params.get("prompt", [None])[0] == prompt
        finally:
            provider.close()


def test_client_secret_post_is_used_when_the_provider_offers_only_that(database):
    provider = _Provider(extra_metadata={"token_endpoint_auth_methods_supported": ["client_secret_post"]})
    try:
        _run(_party(provider.issuer).self_check())
        assert provider.token_forms[-1]["client_secret"] == "s" and provider.token_forms[-1]["client_id"] == "c"
    finally:
        provider.close()


@pytest.mark.parametrize(
    ("advertised", "iss", "refused"),
    [
        (True, "<issuer>", False),
        (True, None, True),
        (True, "https://evil.example", True),
        (True, "<issuer>/", True),
        (False, None, False),
        (False, "https://evil.example", True),  # present: compared even when not advertised
        (False, "<issuer>", False),
    ],
)
def test_the_authorization_responses_iss_must_be_the_issuer(database, advertised, iss, refused):
    extra = {"authorization_response_iss_parameter_supported": True} if advertised else {}
    provider = _Provider(extra_metadata=extra)
    try:
        party = _party(provider.issuer)
        value = iss.replace("<issuer>", provider.issuer) if iss else None
        assert (_run(party.response_issuer_problem(value)) is not None) is refused
        # An error response: a wrong iss is refused, a missing one passes (DOT leaves it out there).
        wrong = value is not None and value != provider.issuer
        assert (_run(party.response_issuer_problem(value, error_response=True)) is not None) is wrong
    finally:
        provider.close()


# ----------------------------------------------------------------------------- the log


_HOST = st.from_regex(r"[a-z][a-z0-9-]{0,20}(\.[a-z]{2,6}){1,2}(:[0-9]{2,5})?", fullmatch=True)
_PATH = st.from_regex(r"(/[A-Za-z0-9._~-]{1,12}){0,4}/?", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(
    scheme=st.sampled_from(["http", "https"]),
    host=_HOST,
    path=_PATH,
    secret=st.from_regex(r"[a-z0-9]{8,20}", fullmatch=True),
)
def test_configuration_values_are_shown_in_full_and_nothing_longer(scheme, host, path, secret):
    """Issue 34: the redactor cut "http://127.0.0.1:9600/o/" to "http://127.0.0.1:9600/…". A
    value the call names as configuration stands whole; the same value with a query or a
    longer path after it, or any other URL, is still cut."""
    value = f"{scheme}://{host}{path}"
    # A secret the value itself holds (a path ending "/x/<secret>") is shown with it, rightly.
    assume(secret not in value)
    message = f"issuer {value!r} is not {value}, see {value}?code={secret} or {value}x/{secret}"
    record = logging.makeLogRecord({"msg": message, "levelname": "ERROR", **logs.configuration(value)})
    line = json.loads(logs.RedactingFormatter().format(record))["msg"]
    assert line.startswith(f"issuer {value!r} is not {value}, see ")
    assert f"code={secret}" not in line and f"x/{secret}" not in line
    plain = json.loads(logs.RedactingFormatter().format(logging.makeLogRecord({"msg": message})))["msg"]
    assert plain == logs.redact(message)  # without the flag: as before
    mail = "someone@example.test"
    assert logs.configuration(f"https://{mail}/x") == {logs.CONFIGURATION_VALUES: ()}


@pytest.mark.parametrize(
    ("silent_login", "marker", "cleared"),
    [("false", "true", True), ("false", "silent", True), ("true", "true", False), ("true", "silent", True)],
)
def test_a_stale_marker_is_cleared_the_moment_the_site_knows_the_session_is_gone(
    database, monkeypatch, silent_login, marker, cleared
):
    """/auth/session without a live session: the "logged in" marker goes, unless it still buys
    the one silent check of OIDC_SILENT_LOGIN (the page's own check clears it by the same rule)."""
    provider = _Provider()
    try:
        client = _api(monkeypatch, provider.issuer, OIDC_SILENT_LOGIN=silent_login)
        client.cookies.set(sessions.MARKER_COOKIE, marker)
        client.cookies.set(sessions.SESSION_COOKIE, "a-session-that-ended")
        response = client.get("/auth/session")
        assert response.json() == {"isAuthenticated": False, "user": None}
        assert (f'{sessions.MARKER_COOKIE}=""' in response.headers.get("set-cookie", "")) is cleared
    finally:
        provider.close()
