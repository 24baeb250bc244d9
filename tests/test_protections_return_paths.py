"""Every route that takes a return path, through the routes themselves (issue 39, point 15):
/auth/login and /auth/silent (with OIDC_SILENT_LOGIN and without) keep a same-site path and
replace anything else by the home page, whatever they do with it next (store it with the login
transaction, redirect to it, send it on to /auth/login); and the page after login (the callback's
HTML refresh) writes a path holding `"`, `<`, `>`, `'` or `&` as an attribute's text, never as
markup. `test_return_paths.py` holds the rule itself (`safe_return_path`); this checks that each
route applies it. Build-free: the API routes in-process and a provider on loopback."""

from __future__ import annotations

import html.parser
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from test_auth_services import _code_exchange_provider
from test_return_paths import REFUSED

from marketing_site.services import sessions
from marketing_site.settings import get_settings

KEPT = [
    "/compare",
    "/en/pricing?plan=team#faq",
    '/compare?q="x"',
    "/compare?q=<b>&amp;r='1'",
    '/compare?q="><script>alert(1)</script>',
    "/portail-client-privée",
]
# Each kind of refused value (test_return_paths.py holds them all): scheme-relative, backslashes,
# a control character or whitespace a browser drops, absolute URLs, backend paths, too long.
HOSTILE = [
    "//evil.com",
    "///evil.com",
    "/\\evil.com",
    "\\/evil.com",
    "/\t/evil.com",
    "/compare\n",
    " //evil.com",
    "https://evil.com",
    "javascript:alert(1)",
    "evil.com",
    "/auth/login",
    "/api/v1/mail/send",
    "/_event/x",
    "/" + "x" * 600,
]
assert set(HOSTILE) <= set(REFUSED) | {"/" + "x" * 600}


@pytest.fixture
def login(tmp_path, monkeypatch):
    """(client of the API routes alone, provider, its nonce holder) on a fresh database."""
    from starlette.testclient import TestClient

    from marketing_site.api import api_app, auth
    from marketing_site.db import metadata

    transaction_of: dict = {}
    provider = _code_exchange_provider(transaction_of, "roles", [])
    for name, value in {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'auth.db'}",
        "SESSION_SECRET": "test-secret-" + "x" * 32,
        "SITE_URL": "http://127.0.0.1:8000",
        "OIDC_ISSUER": provider.issuer,
        "OIDC_CLIENT_ID": "c",
        "OIDC_CLIENT_SECRET": "s",
        "LOGIN_RATE_LIMIT_PER_IP": "1000",
    }.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    auth._login_limiter.cache_clear()
    metadata.create_all(sessions.engine())
    client = TestClient(api_app(), base_url="http://127.0.0.1:8000", follow_redirects=False)
    yield client, transaction_of
    provider.close()
    auth._login_limiter.cache_clear()
    get_settings.cache_clear()


def _stored_return_to(client, response) -> str:
    """The return path the login transaction holds (taken, as the callback would)."""
    assert response.status_code == 302, response.text
    state = parse_qs(urlsplit(response.headers["location"]).query)["state"][0]
    binding = client.cookies.get(sessions.BINDING_COOKIE)
    transaction = sessions.take_transaction(state, binding)
    assert transaction is not None
    return transaction.return_to


def _expected(value: str) -> str:
    return value if value in KEPT else "/"


def test_the_login_route_stores_a_same_site_path_only(login):
    client, _ = login
    for value in KEPT + HOSTILE:
        response = client.get("/auth/login", params={"return_to": value})
        assert _stored_return_to(client, response) == _expected(value), value


def test_the_silent_check_stores_a_same_site_path_only(login, monkeypatch):
    client, _ = login
    monkeypatch.setenv("OIDC_SILENT_LOGIN", "true")
    get_settings.cache_clear()
    for value in KEPT + HOSTILE:
        response = client.get("/auth/silent", params={"return_to": value})
        assert _stored_return_to(client, response) == _expected(value), value


def test_the_silent_route_without_silent_login_sends_a_same_site_path_on_to_the_login(login, monkeypatch):
    client, _ = login
    monkeypatch.setenv("OIDC_SILENT_LOGIN", "false")
    get_settings.cache_clear()
    for value in KEPT + HOSTILE:
        response = client.get("/auth/silent", params={"return_to": value})
        assert response.status_code == 303
        target = urlsplit(response.headers["location"])
        assert target.path == "/auth/login"
        assert parse_qs(target.query)["return_to"] == [_expected(value)], value


def test_a_rate_limited_silent_check_goes_back_to_a_same_site_path_only(login, monkeypatch):
    """The silent check refused by the login rate limit goes straight back: to the home page
    when the return path is not the site's."""
    from marketing_site.api import auth

    client, _ = login
    monkeypatch.setenv("OIDC_SILENT_LOGIN", "true")
    monkeypatch.setenv("LOGIN_RATE_LIMIT_PER_IP", "1")
    get_settings.cache_clear()
    auth._login_limiter.cache_clear()
    client.get("/auth/silent", params={"return_to": "/compare"})
    for value in ["/compare", *HOSTILE]:
        refused = client.get("/auth/silent", params={"return_to": value})
        assert refused.status_code == 303 and refused.headers["location"] == _expected(value), value


class _Refresh(html.parser.HTMLParser):
    """The refresh's URL and the link's target, as a browser reads the attributes; and every tag."""

    def __init__(self):
        super().__init__()
        self.refresh: str | None = None
        self.links: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        values = dict(attrs)
        if tag == "meta" and values.get("http-equiv") == "refresh":
            self.refresh = values["content"]
        if tag == "a":
            self.links.append(values["href"])


def test_the_page_after_login_writes_the_path_as_text_of_its_attributes(login):
    """A path holding `"`, `<`, `>`, `'` or `&`: the browser reads back exactly that path, in the
    refresh and in the link, and no tag of it (the page has its own tags only)."""
    client, transaction_of = login
    for value in KEPT:
        started = client.get("/auth/login", params={"return_to": value})
        authorize = {k: v[0] for k, v in parse_qs(urlsplit(started.headers["location"]).query).items()}
        transaction_of["nonce"] = authorize["nonce"]
        page = client.get("/auth/callback", params={"state": authorize["state"], "code": "code-1"})
        assert page.status_code == 200 and page.cookies.get(sessions.SESSION_COOKIE), value
        parsed = _Refresh()
        parsed.feed(page.text)
        assert parsed.refresh == f"0;url={value}" and parsed.links == [value], page.text
        assert parsed.tags == ["html", "head", "meta", "meta", "title", "body", "p", "a"], page.text


def test_the_login_page_keeps_a_same_site_path_only():
    """The login page reads `?return_to=` into its form (LoginFormState.read_return_to, the
    state built as Reflex builds it, its router as a page load gives it): a path that is not the
    site's becomes the login page itself."""
    from urllib.parse import quote

    from reflex.istate.data import RouterData

    from marketing_site import routes
    from marketing_site.state.auth import LoginFormState

    login_page = quote(routes.LOGIN.path("fr"), safe="/")
    state = LoginFormState(_reflex_internal_init=True)
    for value in KEPT + HOSTILE:
        state.router = RouterData.from_router_data(
            {
                "headers": {"origin": "https://www.nereo.example"},
                "asPath": f"{login_page}?return_to={quote(value, safe='')}",
            }
        )
        LoginFormState.read_return_to.fn(state)
        assert state.returnTo == (value if value in KEPT else login_page), value


def test_a_failed_login_sends_the_visitor_to_the_login_page_with_the_whole_path(login):
    """The code exchange refused (an ID token without this login's nonce): the login page, with
    the return path as one query parameter that reads back whole (its own `?`, `&`, `#`)."""
    from marketing_site import routes

    client, transaction_of = login
    for value in KEPT:
        started = client.get("/auth/login", params={"return_to": value})
        authorize = {k: v[0] for k, v in parse_qs(urlsplit(started.headers["location"]).query).items()}
        transaction_of["nonce"] = "the-nonce-of-another-login"
        page = client.get("/auth/callback", params={"state": authorize["state"], "code": "code-1"})
        parsed = _Refresh()
        parsed.feed(page.text)
        target = urlsplit(parsed.refresh.removeprefix("0;url="))
        assert unquote(target.path) == routes.LOGIN.path("fr") and not target.fragment, page.text
        assert parse_qs(target.query) == {"return_to": [value]}, page.text
