"""Where a visitor is sent back after login (`return_to`): every open-redirect shape is refused.

The value reaches `safe_return_path` once decoded (a query parameter), and what it accepts is sent
to the browser as a Location or a meta refresh: so a kept value must land on the site itself
however a browser reads it (a browser drops tabs and newlines, trims control characters and
spaces at the ends, and reads a backslash as a slash in an http(s) URL).
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marketing_site.services.return_paths import MAX_LENGTH, safe_return_path

SITE = "https://www.nereo.example/fr/page"

REFUSED = [
    # Scheme-relative, whatever the number of slashes (a browser reads `///evil.com` as `//evil.com`).
    "//evil.com",
    "///evil.com",
    "////evil.com/x",
    "//evil.com/fr",
    # Backslashes, read as slashes by browsers.
    "/\\evil.com",
    "\\/evil.com",
    "\\\\evil.com",
    "/\\/evil.com",
    "/x\\..\\..\\/evil.com",
    # Whitespace and control characters a browser drops or trims.
    "/\t/evil.com",
    "/\n/evil.com",
    "/\r/evil.com",
    "/\r\n/evil.com",
    " //evil.com",
    "\t//evil.com",
    "\x00//evil.com",
    "/\x00/evil.com",
    "/\x0c/evil.com",
    "/ /evil.com",
    "/\x7f/evil.com",
    "/compare\n",
    # Absolute URLs, any scheme, with or without slashes, and userinfo.
    "https://evil.com",
    "http://evil.com/",
    "HTTPS://evil.com",
    "http:evil.com",
    "https:/evil.com",
    "https:\\\\evil.com",
    "//www.nereo.example@evil.com",
    "https://www.nereo.example@evil.com/",
    "//user:pass@evil.com",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "ftp://evil.com",
    # Not starting with a slash at all: relative to the page, or a host name.
    "evil.com",
    "evil.com/fr",
    "@evil.com",
    # Encoded forms as they arrive, decoded once by the query string parser (a second decoding
    # never happens, so `%2F%2F` stays text).
    "%2F%2Fevil.com",
    "%5C%5Cevil.com",
    "%09//evil.com",
    # Look-alikes of the slash.
    "\uff0f\uff0fevil.com",
    "\u2215\u2215evil.com",
    "\u3000//evil.com",
    # The backend's own paths: never a page to return to (and /auth/ would start a flow again).
    "/auth/login",
    "/auth/callback?code=x",
    "/api/v1/mail/send",
    "/api/console/leads.csv",
    "/_event/x",
    "/_upload",
    # Nothing, too long, or not text.
    "",
    None,
    "/" + "a" * 2000,
]


@pytest.mark.parametrize("value", REFUSED)
def test_every_open_redirect_shape_falls_back_to_the_default(value):
    assert safe_return_path(value) == "/"
    assert safe_return_path(value, "/en/") == "/en/"


@pytest.mark.parametrize("value", [b"/compare", 5, ["/compare"], {"path": "/compare"}])
def test_a_value_that_is_not_text_falls_back_to_the_default(value):
    assert safe_return_path(value) == "/"


@pytest.mark.parametrize(
    "value",
    [
        "/",
        "/compare",
        "/en/pricing",
        "/start-free-trial?x=1",
        "/portail-client-priv%C3%A9e?a=b",
        "/portail-client-privée",
        "/fr/page#section",
        "/a/b/c?return_to=//evil.com",  # a query that names another site is still our page
        # Encoded slashes and backslashes stay in the path: a browser never decodes them there.
        "/%2F%2Fevil.com",
        "/%5Cevil.com",
        "/@evil.com",
        "/" + "a" * (MAX_LENGTH - 1),
    ],
)
def test_same_site_paths_are_kept_as_they_are(value):
    assert safe_return_path(value) == value
    assert safe_return_path(value, "/en/") == value


def test_a_return_path_longer_than_its_bound_keeps_its_path_or_falls_back():
    """Each login stores its return path for a day: a page address, never a payload."""
    path = "/" + "a" * (MAX_LENGTH - 1)
    assert safe_return_path(path + "?q=" + "x" * 600) == path  # the query goes, the page stays
    assert safe_return_path(path + "#" + "x" * 600) == path
    assert safe_return_path(path + "a") == "/"  # the path itself is too long
    assert safe_return_path(path + "a", "/en/") == "/en/"
    assert safe_return_path("//evil.com?" + "x" * 600) == "/"  # shortened, then still judged


def browser_target(value: str, base: str = SITE) -> tuple[str, str]:
    """(scheme, host) a browser goes to for `value` as a Location on `base` (WHATWG URL parsing,
    as far as it differs from urllib's: C0 controls and spaces trimmed at the ends, tabs and
    newlines removed everywhere, backslashes read as slashes in an http(s) URL)."""
    value = value.strip("".join(chr(c) for c in range(0x21)))
    value = value.replace("\t", "").replace("\n", "").replace("\r", "").replace("\\", "/")
    target = urlsplit(urljoin(base, value))
    if target.scheme in ("http", "https") and value.startswith("//"):
        return target.scheme, urlsplit("https:" + value).hostname or ""
    return target.scheme, target.hostname or ""


# The pieces open redirects are made of; a drawn value is a few of them end to end.
PIECES = [
    "/",
    "//",
    "\\",
    "evil.com",
    "www.nereo.example",
    "@",
    ":",
    "https:",
    "javascript:",
    "%2F",
    "%5C",
    "\t",
    "\n",
    "\r",
    " ",
    "\x00",
    "\x0b",
    "\u3000",
    "\uff0f",
    "?",
    "#",
    ".",
    "..",
    "auth",
    "api",
    "_event",
    "user",
    "fr",
    "%09",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join))
def test_a_kept_value_always_lands_on_the_site(value):
    kept = safe_return_path(value, default="/home")
    if kept == "/home":
        return
    assert kept == value  # kept unchanged, never rewritten
    scheme, host = browser_target(value)
    assert (scheme, host) == ("https", "www.nereo.example"), value
    assert not kept.startswith(("/auth/", "/api/", "/_event", "/_upload")), value


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_any_text_kept_lands_on_the_site(value):
    kept = safe_return_path(value)
    if kept != "/":
        assert kept == value
        assert browser_target(value) == ("https", "www.nereo.example"), value
