"""The login walk in Chromium against a Django identity provider of the tests, shared by
tests/test_auth_dot.py (django-oauth-toolkit) and tests/test_auth_djop.py (django-oidc-provider).

`pointed_at` restarts the session's site towards a started provider (the frontend build is
the session's, so the site keeps its port) and back afterwards; the helpers drive a fresh
browser through the navbar's Login, the provider's Django login form and its consent page,
and read the site's database, log and `/auth/session`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from servers import ARTIFACTS, ROOT, DjangoProvider, SiteServer

from marketing_site.services import sessions

PASSWORDS = {"camille": "camille-pass-1", "alex": "alex-pass-1", "nina": "nina-pass-1", "zoe": "zoe-pass-1"}
MARKER = sessions.MARKER_COOKIE


class ProviderSite:
    """A provider, and the session's site pointed at it."""

    def __init__(self, provider: DjangoProvider, site_server: SiteServer):
        self.provider = provider
        self.site_server = site_server
        self.log = ARTIFACTS / f"site-{site_server.port}.log"

    def site_log_since(self, offset: int) -> str:
        return self.log.read_text(errors="replace")[offset:]

    def site_log_size(self) -> int:
        return len(self.log.read_text(errors="replace"))

    def logged_in_on(self, new_page, path: str, user: str = "camille", locale: str = "fr-FR"):
        """A fresh browser logged in at this provider from the navbar of `path`, back on `path`."""
        return logged_in_on(new_page, self.site_server.url, path, self.provider.authorize_path, user, locale)


def provider_fixture(name: str, kind: type[DjangoProvider], port_offset: int, client_id: str, client_secret: str):
    """The module-scoped fixture `name`: a `kind` provider on the session site's port +
    `port_offset`, prepared and started, with the session's site pointed at it (`pointed_at`)."""

    @pytest.fixture(scope="module", name=name)
    def provider_site(site_server, workdir) -> Iterator[ProviderSite]:
        provider = kind(site_server.port + port_offset, site_server.url, workdir / kind.knob_prefix.lower())
        with pointed_at(provider.prepare().start(), site_server, client_id, client_secret) as pointed:
            yield pointed

    return provider_site


@contextlib.contextmanager
def pointed_at(
    provider: DjangoProvider, site_server: SiteServer, client_id: str, client_secret: str, **settings: str
) -> Iterator[ProviderSite]:
    """The session's site restarted with `provider` as its identity provider (refresh tokens
    on, the silent check off: the defaults), then restarted as it was; the provider stopped."""
    original = dict(site_server.env)
    site_server.stop()
    site_server.env = {
        **original,
        "OIDC_ISSUER": provider.issuer,
        "OIDC_CLIENT_ID": client_id,
        "OIDC_CLIENT_SECRET": client_secret,
        "OIDC_ROLES_CLAIM": "roles",
        "OIDC_USE_REFRESH_TOKENS": "true",
        "OIDC_SILENT_LOGIN": "false",
        **settings,
    }
    site_server.start()
    try:
        yield ProviderSite(provider, site_server)
    finally:
        site_server.stop()
        site_server.env = original
        site_server.start()
        provider.stop()


def query_of(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def open_browser(new_page, authorize_path: str, locale: str = "fr-FR"):
    """A fresh browser (its own cookies at the site and at the provider) and the authorization
    requests the site sends it to (the provider's own redirects after its login form are not
    counted)."""
    page = new_page(locale=locale)
    authorize: list[str] = []

    def sent_by_the_site(request) -> None:
        came_from = request.redirected_from
        if authorize_path in request.url and came_from is not None and "/auth/" in came_from.url:
            authorize.append(request.url)

    page.on("request", sent_by_the_site)
    return page, authorize


def sign_in(page, user: str = "camille", consent: bool = True) -> None:
    """The provider's login form (Django's), then its consent page when it shows one."""
    page.locator("#id_username").fill(user)
    page.locator("#id_password").fill(PASSWORDS[user])
    page.locator("input[type=submit]").click()
    if consent:
        page.locator("input[name=allow]").click()


def logged_in_on(new_page, site: str, path: str, authorize_path: str, user: str = "camille", locale: str = "fr-FR"):
    """A fresh browser logged in from the navbar of `path`, back on `path`."""
    page, authorize = open_browser(new_page, authorize_path, locale)
    page.goto(site + path)
    # The prerendered link returns to the page's path; hydrated, to the address with its query
    # (a click before that comes back without the query: seen once in a whole run).
    page.wait_for_function(
        "(path) => new URL(document.querySelector('[data-testid=nav-login]').href).searchParams.get('return_to') === path",
        arg=path,
    )
    page.get_by_test_id("nav-login").click()
    sign_in(page, user)
    page.wait_for_url(site + path)
    return page, authorize


def shows_logged_in(page, wait: float = 15) -> bool:
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    try:
        page.get_by_test_id("logout").wait_for(timeout=wait * 1000)
    except PlaywrightTimeout:
        return False
    return True


def session_of(page, site: str) -> dict:
    return page.request.get(site + "/auth/session").json()


def cookies_of(page) -> dict[str, str]:
    return {c["name"]: c["value"] for c in page.context.cookies()}


def latest_session(site_server: SiteServer) -> tuple:
    """(id_hash, sealed refresh token) of the newest login session."""
    rows = site_server.query("SELECT id_hash, refresh_token FROM auth_session ORDER BY created_at DESC LIMIT 1")
    return rows[0]


def session_secret() -> str:
    return (ROOT / "var" / "session_secret").read_text().strip()


def expire_access_token(site_server: SiteServer, id_hash: str, *, keep_refresh_token: bool = True) -> None:
    """The session's access token expired (a second ago), as after its lifetime at the provider."""
    site_server.query("UPDATE auth_session SET access_expires_at = ? WHERE id_hash = ?", time.time() - 1, id_hash)
    if not keep_refresh_token:
        site_server.query("UPDATE auth_session SET refresh_token = NULL WHERE id_hash = ?", id_hash)


def wait_for(predicate, timeout: float, message: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, message
        time.sleep(0.3)


def a_page_load_ends_the_revoked_session(page, site_server: SiteServer, id_hash: str) -> None:
    """The session's grant was revoked at the provider: its access token expires, the page is
    loaded again, the refused refresh ends the session, and the page says logged out, the
    "logged in" marker gone."""
    expire_access_token(site_server, id_hash)
    page.reload()
    wait_for(
        lambda: site_server.query("SELECT count(*) FROM auth_session WHERE id_hash = ?", id_hash) == [(0,)],
        20,
        "the refused refresh did not end the session",
    )
    assert not shows_logged_in(page, wait=4)
    wait_for(lambda: MARKER not in cookies_of(page), 10, "the stale marker was not cleared")
