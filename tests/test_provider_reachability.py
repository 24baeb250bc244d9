"""The login routes with a provider that stopped answering, and the refresh setting, without a
build: the site's Starlette routes over ASGI against a real provider (oidc-provider-mock, the
development provider) started and stopped on a loopback port (issue 39, points 11 to 13).

- Login, Logout and the silent check ask the provider before sending the browser there; when it
  does not answer the visitor gets the site's own page (Login, Logout) or stays on the page (the
  silent check), an ERROR names the endpoint whole, and each visitor is counted by route;
- the answer is believed a few seconds (UP_SECONDS, DOWN_SECONDS), then asked again;
- OIDC_USE_REFRESH_TOKENS=false never refreshes, even with a refresh token stored;
- at logout an expired access token is refreshed first: a refused refresh drops the hint, a
  provider that cannot be asked leaves it;
- the refused client credentials' log line quotes the issuer whole (a period came right after
  it; the other line, a refresh meeting another issuer, is tested in tests/test_auth_djop.py,
  which has an issuer with a path).
"""

from __future__ import annotations

import logging
import subprocess
import time

import pytest
from servers import free_port
from test_auth_bounds import _api, database  # noqa: F401 - `database` is a fixture, used by name
from test_auth_services import _run

from marketing_site import logs, metrics
from marketing_site.content.words import words
from marketing_site.dev_services import start_provider
from marketing_site.services import logout_hint, oidc, provider_reachability, sessions
from marketing_site.settings import get_settings

USER = {"sub": "u", "email": "u@example.test"}


@pytest.fixture(autouse=True)
def fresh_answers():
    """Each test meets the provider afresh: no answer of another test believed."""
    provider_reachability.reachability().forget()
    yield
    provider_reachability.reachability().forget()


class Provider:
    """oidc-provider-mock on a port of its own, stopped and started again at will."""

    def __init__(self):
        self.port = free_port()
        self.issuer = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> Provider:
        self.proc = start_provider(self.port, [USER])
        return self

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            self.proc = None


@pytest.fixture
def provider():
    running = Provider().start()
    yield running
    running.stop()


def _unreachable(route: str) -> float:
    return metrics.OIDC_PROVIDER_UNREACHABLE.labels(route=route)._value.get()


def _session(expires_in: float = 3600, refresh_token: str | None = None) -> str:
    tokens = sessions.Tokens("id.token.x", "access-1", refresh_token, time.time() + expires_in, time.time() - 10)
    return sessions.create_session({"sub": "u"}, tokens)


@pytest.mark.usefixtures("database")
def test_login_and_logout_with_the_provider_down_show_the_sites_page_logged_and_counted(monkeypatch, provider, caplog):
    """Discovery cached while the provider answered, then the provider stops: /auth/login
    answers 503 with the site's page in the return path's language (Retry-After 60, nothing
    sent to the provider), logs an ERROR naming the authorize endpoint whole and counts the
    visitor; /auth/logout ends the site's session and shows the same kind of page."""
    client = _api(monkeypatch, provider.issuer)
    first = client.get("/auth/login", params={"return_to": "/en/pricing"})
    authorize = first.headers["location"]
    assert first.status_code == 302 and authorize.startswith(provider.issuer + "/oauth2/authorize?")
    provider.stop()
    provider_reachability.reachability().forget()  # the "up" of a moment ago forgotten
    logins = _unreachable("login")
    with caplog.at_level(logging.ERROR, logger="marketing_site.services.provider_reachability"):
        refused = client.get("/auth/login", params={"return_to": "/en/pricing"})
    assert refused.status_code == 503 and "location" not in refused.headers
    assert refused.headers["retry-after"] == "60" and refused.headers["cache-control"] == "no-store"
    assert words("en", "messages.auth.provider_unavailable") in refused.text and 'lang="en"' in refused.text
    assert 'href="/en/pricing"' in refused.text  # back to the page the visitor was on
    assert _unreachable("login") == logins + 1
    record = next(r for r in caplog.records if "identity provider unreachable" in r.getMessage())
    line = logs.RedactingFormatter().format(record)
    assert record.levelno == logging.ERROR and repr(provider.issuer + "/oauth2/authorize") in line, line

    french = client.get("/auth/login", params={"return_to": "/compare"}, headers={"Accept-Language": "fr-FR"})
    assert french.status_code == 503 and words("fr", "messages.auth.provider_unavailable") in french.text
    assert _unreachable("login") == logins + 2

    session_id = _session()
    client.cookies.set(sessions.SESSION_COOKIE, session_id)
    logouts = _unreachable("logout")
    out = client.post("/auth/logout", headers={"Accept-Language": "en-GB"})
    assert out.status_code == 503 and words("en", "messages.auth.logged_out_provider_unavailable") in out.text
    assert sessions.live_session(session_id) is None and _unreachable("logout") == logouts + 1
    cleared = out.headers.get_list("set-cookie")
    assert any(c.startswith(f'{sessions.SESSION_COOKIE}=""') for c in cleared)
    assert any(c.startswith(f'{sessions.MARKER_COOKIE}=""') for c in cleared)


@pytest.mark.usefixtures("database")
def test_the_silent_check_with_the_provider_down_stays_on_the_page(monkeypatch, provider):
    """Nobody asked for the silent round trip: with the provider down the visitor is sent back
    to the page, the marker cleared (no second try at the next load), counted as `silent`."""
    client = _api(monkeypatch, provider.issuer, OIDC_SILENT_LOGIN="true")
    assert client.get("/auth/silent", params={"return_to": "/compare"}).status_code == 302
    provider.stop()
    provider_reachability.reachability().forget()
    silent = _unreachable("silent")
    back = client.get("/auth/silent", params={"return_to": "/compare"})
    assert back.status_code == 303 and back.headers["location"] == "/compare"
    assert any(c.startswith(f'{sessions.MARKER_COOKIE}=""') for c in back.headers.get_list("set-cookie"))
    assert _unreachable("silent") == silent + 1


def test_an_answer_is_believed_a_few_seconds_then_asked_again(provider):
    """ "Up" is believed UP_SECONDS and "down" DOWN_SECONDS (a clock of the test's own), so a
    crowd of visitors costs the provider one request per origin in that time; after that the
    provider is asked again, and a provider back up is used again."""
    now = [1000.0]
    record = provider_reachability.Reachability(clock=lambda: now[0])
    endpoint = provider.issuer + "/oauth2/authorize?client_id=c"
    assert _run(record.answers(endpoint)) is True
    provider.stop()
    now[0] += provider_reachability.UP_SECONDS - 0.1
    assert _run(record.answers(endpoint)) is True  # believed
    now[0] += 0.2
    assert _run(record.answers(endpoint)) is False  # asked again
    provider.start()
    now[0] += provider_reachability.DOWN_SECONDS - 0.1
    assert _run(record.answers(endpoint)) is False  # believed
    now[0] += 0.2
    assert _run(record.answers(endpoint)) is True


def test_a_probe_that_does_not_answer_in_time_is_down():
    """A provider that accepts the connection and never answers: down after PROBE_TIMEOUT_SECONDS."""
    import socket

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        started = time.monotonic()
        up = _run(provider_reachability.Reachability().answers(f"http://127.0.0.1:{silent.getsockname()[1]}/authorize"))
        took = time.monotonic() - started
    assert up is False and 1.0 <= took < 5.0  # a short timeout: the visitor waits seconds, not minutes


# ----------------------------------------------------------------------------- OIDC_USE_REFRESH_TOKENS


@pytest.mark.usefixtures("database")
@pytest.mark.parametrize("use_refresh_tokens", [False, True])
def test_refresh_tokens_off_never_refresh_even_with_one_stored(use_refresh_tokens):
    """A provider may issue refresh tokens unasked (django-oidc-provider, django-oauth-toolkit).
    With OIDC_USE_REFRESH_TOKENS=false an expired access token is not refreshed: the session
    lives its day with it, no request leaves (the provider here is down: a refresh would fail
    as 'Get access token failed'), and the logout sends the ID token it has as the hint."""
    issuer = f"http://127.0.0.1:{free_port()}"  # nothing listens: any request fails
    party = oidc.RelyingParty(
        get_settings().replace(
            oidc_issuer=issuer, oidc_client_id="c", oidc_client_secret="s", oidc_use_refresh_tokens=use_refresh_tokens
        )
    )
    session_id = _session(expires_in=-10, refresh_token="refresh-1")
    if use_refresh_tokens:
        with pytest.raises(oidc.TokenFailed):
            _run(party.session_tokens(session_id))
        return
    user, tokens = _run(party.session_tokens(session_id))
    assert user["sub"] == "u" and oidc.tokens_expired(tokens) and tokens.access_token == "access-1"
    assert _run(logout_hint.id_token_hint(party, session_id)) == "id.token.x"


# ----------------------------------------------------------------------------- the issuer whole


def _line(record: logging.LogRecord) -> str:
    return logs.RedactingFormatter().format(record)


def test_the_refused_client_credentials_name_the_issuer_whole(caplog):
    """The sentence ends with a period right after the issuer: quoted, it is kept whole."""
    issuer = "http://127.0.0.1:9/realms/nereo/o"
    party = oidc.RelyingParty(get_settings().replace(oidc_issuer=issuer, oidc_client_id="c"))
    with caplog.at_level(logging.ERROR, logger="marketing_site.services.oidc"):
        party._client_rejected("HTTP 401")
    line = _line(caplog.records[-1])
    assert f"registered at {issuer!r}." in line and "…" not in line, line


# ----------------------------------------------------------------------------- the logout hint


@pytest.mark.usefixtures("database")
def test_an_expired_access_token_is_refreshed_before_the_logout_and_a_refused_grant_drops_the_hint(provider):
    """The access token's state alone never drops the hint: the site refreshes first. A provider
    that refuses the refresh token (it no longer knows the grant: here a token it never issued)
    ends the session and the hint goes; one that cannot be asked keeps it (the ID token it has)."""
    party = oidc.RelyingParty(
        get_settings().replace(oidc_issuer=provider.issuer, oidc_client_id="c", oidc_client_secret="s")
    )
    session_id = _session(expires_in=-10, refresh_token="a-refresh-token-it-never-issued")
    assert _run(logout_hint.id_token_hint(party, session_id)) is None
    assert sessions.live_session(session_id) is None  # the refused refresh ended it
    provider.stop()
    party = oidc.RelyingParty(party.settings.replace(oidc_issuer=provider.issuer + "/x"))  # discovery fails
    session_id = _session(expires_in=-10, refresh_token="refresh-1")
    assert _run(logout_hint.id_token_hint(party, session_id)) == "id.token.x"
