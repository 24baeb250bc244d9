"""The relying party's requests as a provider sees them, and its answers to what a provider
sends back: the authorize URL (state, nonce, PKCE S256, the login's redirect URI), the client
authentication at the token endpoint, discovery's checks, the token answers that are retried,
refused or taken, the keys asked again after a rotation, and a refresh that outlives the
request that started it. A real loopback provider (`_Idp`) that records what it is sent; no
mocks.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from joserfc import jws
from joserfc.jwk import RSAKey
from test_auth_services import KEY, _expired_session, _refreshes, _run, database  # noqa: F401 - the fixture, by name

from marketing_site.db.auth import LoginTransaction
from marketing_site.services import oidc, sessions
from marketing_site.settings import get_settings

DISCOVERY = "/.well-known/openid-configuration"


class _Idp:
    """Discovery (at `issuer` + DISCOVERY only), a JWKS of `keys`, UserInfo and a token endpoint
    on loopback. `token_answer(n, form)` gives (status, body) of the n-th token request (a str
    body goes as an HTML page); `metadata` overrides discovery's fields (None removes one);
    `discovery` replaces discovery's whole answer (status, body). Every GET path, token form and
    token request's headers are kept."""

    def __init__(self, path: str = "", token_answer=None, userinfo: dict | None = None, metadata: dict | None = None):
        self.keys = [KEY]
        self.gets: list[str] = []
        self.forms: list[dict[str, str]] = []
        self.headers: list[dict[str, str]] = []
        self.get_headers: list[dict[str, str]] = []
        self.token_answer = token_answer or (lambda n, form: (200, _access(f"access-{n}")))
        self.discovery = None
        self.jwks_answer = None
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, status, body):
                html = isinstance(body, str)
                data = body.encode() if html else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html" if html else "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                owner.gets.append(self.path)
                owner.get_headers.append({k.lower(): v for k, v in self.headers.items()})
                if self.path == path + "/jwks":
                    if owner.jwks_answer is not None:
                        return self._send(*owner.jwks_answer)
                    return self._send(200, {"keys": [key.as_dict(private=False) for key in owner.keys]})
                if self.path == path + "/userinfo" and userinfo is not None:
                    return self._send(200, userinfo)
                if self.path != path.rstrip("/") + DISCOVERY:
                    return self._send(404, "<html><body>Not Found</body></html>")
                if owner.discovery is not None:
                    return self._send(*owner.discovery)
                found = {
                    "issuer": owner.issuer,
                    "authorization_endpoint": owner.issuer + "/authorize",
                    "token_endpoint": owner.issuer + "/token",
                    "jwks_uri": owner.issuer + "/jwks",
                }
                if userinfo is not None:
                    found["userinfo_endpoint"] = owner.issuer + "/userinfo"
                found.update(metadata or {})
                self._send(200, {k: v for k, v in found.items() if v is not None})

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                owner.forms.append({k: v[0] for k, v in parse_qs(raw).items()})
                owner.headers.append({k.lower(): v for k, v in self.headers.items()})
                self._send(*owner.token_answer(len(owner.forms), owner.forms[-1]))

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}{path}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def id_token(self, key: RSAKey = KEY, **claims) -> str:
        now = int(time.time())
        body = {"iss": self.issuer, "aud": "c", "sub": "u", "iat": now, "exp": now + 600, **claims}
        return jws.serialize_compact({"alg": "RS256", "kid": key.kid}, json.dumps(body).encode(), key)

    def discoveries(self) -> int:
        return sum(path.endswith(DISCOVERY) for path in self.gets)

    def jwks_fetches(self) -> int:
        return sum(path.endswith("/jwks") for path in self.gets)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def idp():
    provider = _Idp()
    yield provider
    provider.close()


def _access(access_token: str, **more) -> dict:
    return {"access_token": access_token, "expires_in": 3600, "token_type": "Bearer", **more}


def _party(issuer: str, **changes) -> oidc.RelyingParty:
    values = {"oidc_client_secret": "s", **changes}
    return oidc.RelyingParty(get_settings().replace(oidc_issuer=issuer, oidc_client_id="c", redis_url="", **values))


def _transaction(**changes) -> LoginTransaction:
    values = {
        "state": "the-state",
        "nonce": "the-nonce",
        "code_verifier": "v" * 43,
        "redirect_uri": "https://www.example.test/auth/callback?from=transaction",
        "max_age": None,
        **changes,
    }
    return LoginTransaction(binding_hash="b", return_to="/", silent=False, created_at=time.time(), **values)


def _refresh(party: oidc.RelyingParty, refresh_token: str = "refresh-1") -> oidc.TokenSet:
    previous = sessions.Tokens("old.id.token", "old-access", refresh_token, time.time() - 10, time.time() - 3610)
    return _run(party.refresh(refresh_token, previous, "u"))


# ----------------------------------------------------------------------------- the authorize URL


def _params(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def test_the_authorize_url_carries_the_logins_state_nonce_redirect_uri_and_an_s256_challenge(idp):
    transaction = _transaction()
    for party in (_party(idp.issuer), _party(idp.issuer, oidc_client_secret="")):  # confidential and public
        url = _run(party.authorization_url(transaction))
        assert url.startswith(idp.issuer + "/authorize?") and "#" not in url
        params = _params(url)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(transaction.code_verifier.encode()).digest())
        assert params["code_challenge"] == challenge.rstrip(b"=").decode()
        assert params["code_challenge_method"] == "S256"
        assert params["state"] == "the-state" and params["nonce"] == "the-nonce"
        assert params["redirect_uri"] == transaction.redirect_uri  # the login's own, not the default
        assert params["response_type"] == "code" and params["client_id"] == "c"
        assert params["response_mode"] == "query"
        assert "login_hint" not in params and "max_age" not in params and "code_verifier" not in params


def test_the_authorize_url_asks_a_login_hint_a_max_age_of_zero_and_keeps_its_fragment(idp):
    party = _party(idp.issuer)
    url = _run(party.authorization_url(_transaction(max_age=0), login_hint="someone@example.test", fragment="top"))
    assert url.endswith("#top")
    params = _params(url.split("#")[0])
    assert params["login_hint"] == "someone@example.test" and params["max_age"] == "0"


def test_a_prompt_asked_for_is_kept_and_auth0_keeps_offline_access_even_silently(idp):
    login = _params(_run(_party(idp.issuer).authorization_url(_transaction(), prompt="login")))
    assert login["prompt"] == "login" and login["scope"] == "openid profile email offline_access"
    auth0 = _params(_run(_party(idp.issuer, oidc_compat="auth0").authorization_url(_transaction(), prompt="none")))
    assert auth0["prompt"] == "none" and auth0["scope"] == "openid profile email offline_access"


# ----------------------------------------------------------------------------- client authentication


@pytest.mark.parametrize(
    ("secret", "offered", "method"),
    [
        ("s", None, "client_secret_basic"),  # OIDC Discovery's default when the provider does not say
        ("s", ["client_secret_basic", "client_secret_post"], "client_secret_basic"),
        ("s", ["client_secret_post"], "client_secret_post"),
        ("s", ["client_secret_post", "private_key_jwt"], "client_secret_post"),
        ("s", ["private_key_jwt"], "client_secret_basic"),  # nothing better to offer: the self-check says so
        ("s", "client_secret_post", "client_secret_basic"),  # not a list: not read
        ("", ["client_secret_post"], "none"),
        ("", None, "none"),
    ],
)
def test_the_token_endpoint_auth_method_follows_the_secret_and_what_the_provider_offers(secret, offered, method):
    party = _party("https://idp.example", oidc_client_secret=secret)
    metadata = {} if offered is None else {"token_endpoint_auth_methods_supported": offered}
    assert party.token_auth_method(metadata) == method


@pytest.mark.parametrize(
    ("secret", "offered", "sent"),
    [
        ("s", None, "basic"),
        ("s", ["client_secret_basic", "client_secret_post"], "basic"),
        ("s", ["client_secret_post"], "post"),
        ("", None, "none"),
    ],
)
def test_the_client_authenticates_at_the_token_endpoint_as_chosen(secret, offered, sent):
    idp = _Idp(metadata={"token_endpoint_auth_methods_supported": offered})
    try:
        _refresh(_party(idp.issuer, oidc_client_secret=secret))
        form, headers = idp.forms[-1], idp.headers[-1]
        basic = "Basic " + base64.b64encode(b"c:s").decode()
        assert (headers.get("authorization") == basic) is (sent == "basic")
        assert ("authorization" in headers) is (sent == "basic")
        assert form.get("client_secret") == ("s" if sent == "post" else None)
        if sent != "basic":
            assert form["client_id"] == "c"
    finally:
        idp.close()


@pytest.mark.parametrize(
    ("offered", "scopes"),
    [
        ([], ["openid", "profile", "email", "offline_access"]),  # an empty list says nothing
        ("openid", ["openid", "profile", "email", "offline_access"]),  # not a list: not read
        (["email", "offline_access"], ["openid", "email", "offline_access"]),
    ],
)
def test_scopes_supported_is_read_only_as_a_list_that_names_some(offered, scopes):
    assert _party("https://idp.example").scopes({"scopes_supported": offered}) == scopes


# ----------------------------------------------------------------------------- discovery


def test_discovery_is_read_under_the_issuers_path_once_and_kept(database):  # noqa: F811 - the fixture
    idp = _Idp(path="/realms/site")
    try:
        party = _party(idp.issuer)
        first = _run(party.metadata())
        assert first["token_endpoint"] == idp.issuer + "/token"
        assert _run(party.metadata()) is first and idp.discoveries() == 1
        assert idp.gets == ["/realms/site" + DISCOVERY]
    finally:
        idp.close()


def test_an_issuer_with_a_trailing_slash_finds_discovery_below_it():
    """Discovery names the issuer with its slash; the document is still at one slash below."""
    idp = _Idp(path="/tenant/")
    try:
        assert _run(_party(idp.issuer).metadata())["issuer"] == idp.issuer
        assert idp.gets == ["/tenant" + DISCOVERY]
    finally:
        idp.close()


def test_no_discovery_without_an_issuer_and_a_client_id():
    for issuer, client_id in (("", "c"), ("https://idp.example", "")):
        party = oidc.RelyingParty(get_settings().replace(oidc_issuer=issuer, oidc_client_id=client_id))
        with pytest.raises(oidc.ConfigurationError, match="OIDC_ISSUER and OIDC_CLIENT_ID"):
            _run(party.metadata())


@pytest.mark.parametrize(
    ("answer", "failure"),
    [
        ((404, "<html><body>Not Found</body></html>"), oidc.LoginFailed),
        ((200, "<html><body>a login page</body></html>"), oidc.LoginFailed),
        ((200, ["not", "an", "object"]), oidc.ConfigurationError),
    ],
)
def test_a_discovery_that_fails_or_is_not_an_object_is_refused(idp, answer, failure):
    idp.discovery = answer
    party = _party(idp.issuer)
    with pytest.raises(failure) as refused:
        _run(party.metadata())
    assert type(refused.value) is failure
    assert party._metadata is None and party._discovered_issuer is None


def test_a_discovery_naming_another_issuer_is_refused_and_the_issuer_found_kept_for_the_log(idp):
    idp.discovery = (200, {"issuer": idp.issuer + "/", "token_endpoint": "x", "jwks_uri": "x"})
    party = _party(idp.issuer)
    with pytest.raises(oidc.ConfigurationError, match="set OIDC_ISSUER to exactly the discovered one") as refused:
        _run(party.metadata())
    assert repr(idp.issuer + "/") in str(refused.value) and party._discovered_issuer == idp.issuer + "/"
    idp.discovery = (200, {"issuer": 7})
    with pytest.raises(oidc.ConfigurationError):
        _run(party.metadata())
    assert party._discovered_issuer is None


@pytest.mark.parametrize("field", ["authorization_endpoint", "token_endpoint", "jwks_uri"])
@pytest.mark.parametrize("value", [None, 42])
def test_discovery_without_an_endpoint_as_a_string_is_refused(field, value):
    idp = _Idp(metadata={field: value})
    try:
        party = _party(idp.issuer)
        with pytest.raises(oidc.ConfigurationError, match=f"provider metadata lacks {field}"):
            _run(party.metadata())
        assert party._metadata is None
    finally:
        idp.close()


# ----------------------------------------------------------------------------- token answers


def test_a_500_and_a_5xx_with_an_oauth_error_on_the_code_exchange_are_retried(idp):
    for status, body in ((500, "<html><body>Internal Server Error</body></html>"), (502, {"error": "invalid_grant"})):
        idp.forms.clear()
        idp.token_answer = lambda n, form, status=status, body=body: (status, body)
        with pytest.raises(oidc.TokenFailed) as failure:
            _run(_party(idp.issuer).exchange_code("code-1", _transaction()))
        assert type(failure.value) is oidc.TokenFailed and len(idp.forms) == 3
        assert "after 3 attempts" in str(failure.value) and str(status) in str(failure.value)


def test_a_token_answer_that_is_not_json_is_retried_like_a_network_failure(idp):
    idp.token_answer = lambda n, form: (200, "<html><body>maintenance</body></html>") if n < 3 else (200, _access("a"))
    assert _refresh(_party(idp.issuer)).access_token == "a" and len(idp.forms) == 3


def test_the_last_unavailable_answer_is_named_when_the_attempts_run_out(idp):
    idp.token_answer = lambda n, form: (400, {"error": "server_error", "error_description": f"database down {n}"})
    with pytest.raises(oidc.TokenFailed, match="database down 3") as failure:
        _refresh(_party(idp.issuer))
    assert type(failure.value) is oidc.TokenFailed and "server_error: database down 3" in str(failure.value)


def test_an_unavailable_answer_without_a_description_is_named_by_its_code(idp):
    idp.token_answer = lambda n, form: (400, {"error": "temporarily_unavailable"})
    with pytest.raises(oidc.TokenFailed) as failure:
        _refresh(_party(idp.issuer))
    assert str(failure.value).endswith("attempts: 'temporarily_unavailable: '")


def test_each_retried_attempt_is_logged_with_its_number_and_what_the_provider_said(idp, caplog):
    """The operator reads which attempt failed, out of how many, and why (the status, the
    OAuth error, the network error)."""
    answers = [(503, "<html><body>down</body></html>"), (400, {"error": "server_error", "error_description": "db"})]
    idp.token_answer = lambda n, form: answers[n - 1] if n <= len(answers) else (200, _access("a"))
    with caplog.at_level("WARNING", logger="marketing_site.services.oidc"):
        assert _refresh(_party(idp.issuer)).access_token == "a"
    assert [record.getMessage() for record in caplog.records] == [
        "token request attempt 1/3: provider answered HTTP 503",
        "token request attempt 2/3: provider unavailable (server_error: db)",
    ]


def test_a_token_endpoint_that_refuses_connections_is_given_up_on_after_three_quick_attempts(caplog):
    idp = _Idp(metadata={"token_endpoint": "http://127.0.0.1:9/token"})
    try:
        started = time.monotonic()
        with (
            caplog.at_level("WARNING", logger="marketing_site.services.oidc"),
            pytest.raises(oidc.TokenFailed) as failure,
        ):
            _refresh(_party(idp.issuer))
        assert time.monotonic() - started < 5  # 0.5 s then 1 s of back-off: the page does not hang
        assert "after 3 attempts" in str(failure.value) and "ConnectError" in str(failure.value)
        messages = [record.getMessage() for record in caplog.records]
        assert [message.split(" failed: ")[0] for message in messages] == [
            f"token request attempt {n}/3" for n in (1, 2, 3)
        ]
        assert all("ConnectError" in message for message in messages)
    finally:
        idp.close()


def test_a_401_on_the_code_exchange_is_the_client_refused_whatever_the_code(idp):
    idp.token_answer = lambda n, form: (401, {"error": "unauthorized_client", "error_description": "bad secret"})
    with pytest.raises(oidc.ClientRejected, match=r"HTTP 401 unauthorized_client") as refused:
        _run(_party(idp.issuer).exchange_code("code-1", _transaction()))
    assert refused.value.error == "invalid_client" and len(idp.forms) == 1


def test_invalid_client_names_the_providers_description_or_its_code(idp):
    idp.token_answer = lambda n, form: (400, {"error": "invalid_client", "error_description": "unknown client c"})
    with pytest.raises(oidc.ClientRejected, match=r"client credentials refused \(unknown client c\)"):
        _refresh(_party(idp.issuer))
    idp.token_answer = lambda n, form: (400, {"error": "invalid_client"})
    with pytest.raises(oidc.ClientRejected, match=r"client credentials refused \(invalid_client\)"):
        _refresh(_party(idp.issuer))


def test_a_refusal_carries_the_providers_code_and_description(idp):
    idp.token_answer = lambda n, form: (400, {"error": "invalid_scope", "error_description": "no such scope"})
    with pytest.raises(oidc.ProviderRejected) as refused:
        _refresh(_party(idp.issuer))
    assert (refused.value.error, refused.value.description, str(refused.value)) == (
        "invalid_scope",
        "no such scope",
        "no such scope",
    )
    idp.token_answer = lambda n, form: (400, {"error": "invalid_grant"})
    with pytest.raises(oidc.ProviderRejected) as refused:
        _refresh(_party(idp.issuer))
    assert (refused.value.error, refused.value.description, str(refused.value)) == (
        "invalid_grant",
        "",
        "invalid_grant",
    )
    assert len(idp.forms) == 2  # neither retried


def test_another_status_without_an_oauth_error_names_the_status(idp):
    idp.token_answer = lambda n, form: (404, "<html><body>Not Found</body></html>")
    with pytest.raises(oidc.TokenFailed, match="answered HTTP 404 without an OAuth error") as failure:
        _refresh(_party(idp.issuer))
    assert type(failure.value) is oidc.TokenFailed and len(idp.forms) == 1


# ----------------------------------------------------------------------------- the code exchange


def test_the_code_exchange_gives_the_tokens_with_their_expiry_and_the_merged_identity():
    transaction = _transaction()
    holder: dict = {}
    idp = _Idp(
        token_answer=lambda n, form: (200, _access("access-1", refresh_token="refresh-1", id_token=holder["id"])),
        userinfo={"sub": "u", "email": "someone@example.test"},
    )
    try:
        holder["id"] = idp.id_token(nonce=transaction.nonce, given_name="Camille")
        before = time.time()
        tokens = _run(_party(idp.issuer).exchange_code("code-1", transaction))
        after = time.time()
        assert (tokens.id_token, tokens.access_token, tokens.refresh_token) == (holder["id"], "access-1", "refresh-1")
        assert before <= tokens.received_at <= after
        assert tokens.access_expires_at == tokens.received_at + 3600
        assert tokens.claims["given_name"] == "Camille" and tokens.claims["email"] == "someone@example.test"
        asked = idp.get_headers[idp.gets.index("/userinfo")]
        assert asked["authorization"] == "Bearer access-1"  # the access token just issued
        form = idp.forms[-1]
        assert form["code"] == "code-1" and form["grant_type"] == "authorization_code"
        assert form["code_verifier"] == transaction.code_verifier and form["redirect_uri"] == transaction.redirect_uri
    finally:
        idp.close()


def test_a_code_exchange_without_an_id_token_or_an_access_token_is_refused(idp):
    transaction = _transaction()
    idp.token_answer = lambda n, form: (200, _access("access-1"))
    with pytest.raises(oidc.LoginFailed, match="no id_token"):
        _run(_party(idp.issuer).exchange_code("code-1", transaction))
    id_token = idp.id_token(nonce=transaction.nonce)
    idp.token_answer = lambda n, form: (200, {"id_token": id_token, "token_type": "Bearer"})
    with pytest.raises(oidc.TokenFailed, match="the token response has no access_token"):
        _run(_party(idp.issuer).exchange_code("code-1", transaction))


def test_a_code_exchange_whose_userinfo_names_another_subject_fails_the_login():
    transaction = _transaction()
    holder: dict = {}
    idp = _Idp(token_answer=lambda n, form: (200, _access("a", id_token=holder["id"])), userinfo={"sub": "other"})
    try:
        holder["id"] = idp.id_token(nonce=transaction.nonce)
        with pytest.raises(oidc.LoginFailed, match="UserInfo names another subject") as failure:
            _run(_party(idp.issuer).exchange_code("code-1", transaction))
        assert type(failure.value) is oidc.LoginFailed
    finally:
        idp.close()


def test_a_rotated_key_is_fetched_again_after_the_cooldown_and_another_fault_asks_no_keys(idp):
    transaction = _transaction()
    party = _party(idp.issuer)
    holder: dict = {}
    idp.token_answer = lambda n, form: (200, _access("a", id_token=holder["id"]))
    holder["id"] = idp.id_token(nonce=transaction.nonce)
    _run(party.exchange_code("code-1", transaction))
    assert idp.jwks_fetches() == 1
    holder["id"] = idp.id_token(nonce=transaction.nonce, aud="another-client")
    with pytest.raises(oidc.LoginFailed, match="invalid ID token"):
        _run(party.exchange_code("code-2", transaction))
    party._jwks_at -= oidc.JWKS_REFRESH_COOLDOWN_SECONDS  # a minute later: a wrong audience asks no keys
    with pytest.raises(oidc.LoginFailed, match="invalid ID token"):
        _run(party.exchange_code("code-3", transaction))
    assert idp.jwks_fetches() == 1
    rotated = RSAKey.generate_key(2048, parameters={"kid": "k2", "use": "sig"})
    idp.keys = [KEY, rotated]
    holder["id"] = idp.id_token(rotated, nonce=transaction.nonce)
    assert _run(party.exchange_code("code-4", transaction)).claims["sub"] == "u"
    assert idp.jwks_fetches() == 2
    stranger = RSAKey.generate_key(2048, parameters={"kid": "k3", "use": "sig"})
    holder["id"] = idp.id_token(stranger, nonce=transaction.nonce)
    with pytest.raises(oidc.LoginFailed, match=r"\(key\)"):  # inside the cooldown: refused, not asked
        _run(party.exchange_code("code-5", transaction))
    assert idp.jwks_fetches() == 2


@pytest.mark.parametrize("answer", [(500, "<html><body>down</body></html>"), (200, "<html><body>a page</body></html>")])
def test_keys_that_cannot_be_fetched_fail_the_login(idp, answer):
    transaction = _transaction()
    idp.jwks_answer = answer
    id_token = idp.id_token(nonce=transaction.nonce)
    idp.token_answer = lambda n, form: (200, _access("a", id_token=id_token))
    with pytest.raises(oidc.LoginFailed, match="could not fetch the provider's keys"):
        _run(_party(idp.issuer).exchange_code("code-1", transaction))


# ----------------------------------------------------------------------------- the refresh


def test_a_refresh_keeps_a_rotated_refresh_token_and_the_new_expiry(idp):
    idp.token_answer = lambda n, form: (200, _access("fresh", refresh_token="refresh-2", expires_in=600))
    before = time.time()
    tokens = _refresh(_party(idp.issuer))
    assert tokens.refresh_token == "refresh-2" and tokens.id_token == "old.id.token" and tokens.claims == {}
    assert before <= tokens.received_at and tokens.access_expires_at == tokens.received_at + 600
    assert idp.forms[-1]["refresh_token"] == "refresh-1"


def test_a_refresh_without_an_access_token_or_with_a_bad_id_token_keeps_the_session(idp):
    idp.token_answer = lambda n, form: (200, {"token_type": "Bearer", "expires_in": 3600})
    with pytest.raises(oidc.TokenFailed, match="refresh response has no access_token") as failure:
        _refresh(_party(idp.issuer))
    assert type(failure.value) is oidc.TokenFailed
    forged = idp.id_token(aud="another-client")
    idp.token_answer = lambda n, form: (200, _access("fresh", id_token=forged))
    with pytest.raises(oidc.TokenFailed, match="invalid ID token") as failure:
        _refresh(_party(idp.issuer))
    assert type(failure.value) is oidc.TokenFailed  # not a refused grant: the session is kept


def test_a_refresh_whose_requester_leaves_is_still_stored(database, idp):  # noqa: F811 - the fixture
    """Reflex cancels a page's events when the visitor leaves: the refresh it started has spent
    the refresh token at the provider, so its answer is stored all the same."""
    answered = threading.Event()

    def slow(n, form):
        answered.wait(5)
        return 200, _access("fresh-1", refresh_token="refresh-2")

    idp.token_answer = slow
    party = _party(idp.issuer)
    session_id = _expired_session()

    async def leave_then_wait():
        request = asyncio.ensure_future(party.session_tokens(session_id))
        while not idp.forms:
            await asyncio.sleep(0.01)
        request.cancel()
        answered.set()
        with pytest.raises(asyncio.CancelledError):
            await request
        for _ in range(500):
            if not party._refreshes:
                break
            await asyncio.sleep(0.01)

    _run(leave_then_wait())
    tokens = sessions.tokens_of(sessions.load_session(session_id))
    assert (tokens.access_token, tokens.refresh_token) == ("fresh-1", "refresh-2")
    assert sessions.user_of(sessions.load_session(session_id)) == {"sub": "u", "given_name": "A"}  # unchanged
    assert party._refreshes == set()


def test_two_sessions_refresh_at_the_same_time_each_under_its_own_lock(database, idp):  # noqa: F811 - the fixture
    """The refresh lock is one per session: a slow refresh of one visitor's session does not
    hold up another visitor's."""
    both_in = threading.Barrier(2, timeout=5)
    waited: list[bool] = []

    def answer(n, form):
        try:
            both_in.wait()
            waited.append(False)
        except threading.BrokenBarrierError:
            waited.append(True)
        return 200, _access(f"fresh-{n}")

    idp.token_answer = answer
    party = _party(idp.issuer)
    first, second = _expired_session(), _expired_session()

    async def both():
        return await asyncio.gather(party.session_tokens(first), party.session_tokens(second))

    answers = _run(both())
    assert sorted(tokens.access_token for _, tokens in answers) == ["fresh-1", "fresh-2"]
    assert waited == [False, False]  # both requests were at the provider together


@pytest.mark.parametrize(
    ("answer", "level", "message"),
    [
        (
            (400, {"error": "invalid_scope", "error_description": "scope api withdrawn"}),
            "ERROR",
            (
                "OIDC token refresh refused with 'invalid_scope' (scope api withdrawn): session kept; check the "
                "client's registration (grant types, scopes) and OIDC_RESOURCE"
            ),
        ),
        ((400, {"error": "invalid_grant"}), "INFO", "refresh token refused (invalid_grant): session ended"),
        (
            "another subject",
            "ERROR",
            "token refresh ended the session: the refreshed ID token names another subject than the session",
        ),
    ],
)
def test_a_refused_refresh_is_logged_with_the_providers_answer_and_what_became_of_the_session(
    database,  # noqa: F811 - the fixture
    idp,
    caplog,
    answer,
    level,
    message,
):
    if answer == "another subject":
        id_token = idp.id_token(sub="someone-else")
        answer = (200, _access("fresh", id_token=id_token))
    idp.token_answer = lambda n, form: answer
    session_id = _expired_session()
    ended = _refreshes("ended")
    with caplog.at_level("INFO", logger="marketing_site.services.oidc"), contextlib.suppress(oidc.TokenFailed):
        _run(_party(idp.issuer).session_tokens(session_id))
    kept = level == "ERROR" and "session kept" in message
    assert (sessions.load_session(session_id) is not None) is kept
    assert _refreshes("ended") == ended + (0 if kept else 1)
    assert [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "marketing_site.services.oidc"] == [
        (level, message)
    ]


def test_the_process_keeps_one_relying_party_per_settings_built_for_them():
    settings = get_settings().replace(oidc_issuer=f"https://id.example.test/{secrets.token_hex(8)}", oidc_client_id="c")
    party = oidc.relying_party(settings)
    assert isinstance(party, oidc.RelyingParty) and party.settings is settings
    assert oidc.relying_party(settings) is party


def test_a_fresh_session_gives_its_user_and_tokens_without_asking_the_provider(database, idp):  # noqa: F811 - the fixture
    tokens = sessions.Tokens("id.token.x", "access", "refresh-1", time.time() + 3600, time.time())
    session_id = sessions.create_session({"sub": "u", "given_name": "A"}, tokens)
    user, found = _run(_party(idp.issuer).session_tokens(session_id))
    assert user == {"sub": "u", "given_name": "A"} and found.access_token == "access"
    assert idp.forms == []


def test_with_refresh_tokens_off_a_stored_refresh_token_is_never_used(database, idp):  # noqa: F811 - the fixture
    session_id = _expired_session()
    user, tokens = _run(_party(idp.issuer, oidc_use_refresh_tokens=False).session_tokens(session_id))
    assert user["sub"] == "u" and tokens.access_token == "old-access" and oidc.tokens_expired(tokens)
    assert idp.forms == []


def test_a_second_request_for_the_same_session_waits_for_the_first_refresh_and_gets_its_user(database):  # noqa: F811 - the fixture
    idp = _Idp(userinfo={"sub": "u", "email": "someone@example.test"})
    idp.token_answer = lambda n, form: (time.sleep(0.3), (200, _access(f"fresh-{n}")))[1]
    try:
        party = _party(idp.issuer)
        session_id = _expired_session()

        async def twice():
            return await asyncio.gather(party.session_tokens(session_id), party.session_tokens(session_id))

        answers = _run(twice())
        assert len(idp.forms) == 1
        for user, tokens in answers:
            assert user == {"sub": "u", "given_name": "A", "email": "someone@example.test"}
            assert tokens.access_token == "fresh-1"
    finally:
        idp.close()
