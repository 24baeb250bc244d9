"""Every cookie the site sets, with every attribute, build-free (issue 39, point 15).

- The login cookies (binding, session, marker, error): `test_auth_services.py::
  test_a_login_through_the_app_sets_its_cookies_with_their_attributes`, through the whole app
  and through the login routes alone, exact attribute sets with Max-Age.
- Cleared cookies (here): the login routes alone, without `security.SecurityHeaders` (which
  adds HttpOnly, SameSite and Secure to a cookie lacking them), clear with the attributes they
  set: a cookie cleared with other attributes, or without Secure over https, stays.
- The net itself, `security.SecurityHeaders`: `test_security.py` (https and http).
- The consent cookie (written by assets/consent.jsx in the browser; here in Bun, as
  `test_consent_store.py` runs it): Max-Age its lifetime of site_storage, Path=/, SameSite=Lax,
  Secure over https only, nothing else (no Domain: host-only).

No cookie of the site has the `__Host-` prefix: the site runs over http in development and in
the tests, where a browser refuses a `__Host-` cookie (it requires Secure). Every cookie is
host-only all the same (no Domain attribute, asserted by the exact attribute sets), Path=/.
"""

from __future__ import annotations

import pytest
from sqlmodel import SQLModel
from test_consent_store import banner, site_props

from marketing_site.components import consent
from marketing_site.services import sessions
from marketing_site.settings import get_settings

HALF_A_YEAR = 182 * 24 * 3600  # the privacy policy's word for the consent cookie


def _attributes(header: str) -> tuple[str, set[str]]:
    name, _, rest = header.partition("=")
    attributes = {part.strip().lower() for part in rest.split(";")[1:]}
    return name, {a for a in attributes if not a.startswith("expires=")}


@pytest.fixture
def routes(tmp_path, monkeypatch):
    """The API routes alone (no security middleware) on a fresh database, over https."""
    from starlette.testclient import TestClient

    from marketing_site.api import api_app

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'auth.db'}")
    monkeypatch.setenv("SESSION_SECRET", "test-secret-" + "x" * 32)
    monkeypatch.setenv("SITE_URL", "https://www.nereo.example")
    monkeypatch.setenv("OIDC_SILENT_LOGIN", "false")
    get_settings.cache_clear()
    SQLModel.metadata.create_all(sessions.engine())
    yield TestClient(api_app(), base_url="https://www.nereo.example", follow_redirects=False)
    get_settings.cache_clear()


def test_the_routes_clear_the_marker_with_the_attributes_it_was_set_with(routes):
    """/auth/session with a marker but no live session: the marker goes, Path=/, SameSite=Lax,
    Secure (over https), Max-Age=0, not HttpOnly (the page clears it too)."""
    routes.cookies.set(sessions.MARKER_COOKIE, "1")
    response = routes.get("/auth/session")
    cleared = dict(_attributes(h) for h in response.headers.get_list("set-cookie"))
    assert cleared[sessions.MARKER_COOKIE] == {"path=/", "samesite=lax", "secure", "max-age=0"}


def test_the_consent_cookie_has_its_lifetime_path_and_same_site_and_secure_over_https():
    for protocol, secure in (("http:", set()), ("https:", {"secure"})):
        done = banner(site_props(), calls=[["grant", "analytics"]], protocol=protocol)
        name, attributes = _attributes(done["set_cookie"])
        assert name == consent.COOKIE_NAME
        assert attributes == {f"max-age={HALF_A_YEAR}", "path=/", "samesite=lax", *secure}, protocol
