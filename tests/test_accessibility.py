"""Two WCAG 2.1 A and AA checkers, axe-core and HTML_CodeSniffer, on every route (and a
not-found page), at desktop and phone widths. Each finds defects the other misses: HTML_CodeSniffer
flags data cells not tied to multi-level headers, a form without a submit button, and contrast
at exactly the 4.5:1 threshold."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from browser_checks import AXE, HTMLCS, RUN_AXE, RUN_HTMLCS

from marketing_site import routes

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width", [1280, 375])
def test_no_axe_violations_on_any_route(new_page, site, width):
    assert AXE.exists(), "axe-core is missing: `make test` installs it"
    page = new_page(width=width, height=900)
    # An init script, not a <script> tag: the site's Content-Security-Policy refuses injected ones.
    page.add_init_script(path=str(AXE))
    found = {}
    # The protected trial page sends an anonymous visitor to the identity provider.
    for path in [*routes.public_paths(), "/nope"]:
        page.goto(site + quote(path, safe="/"), wait_until="networkidle")
        violations = page.evaluate(RUN_AXE)
        if violations:
            found[path] = violations
    assert found == {}


@pytest.mark.parametrize("width", [1280, 375])
def test_no_html_codesniffer_errors_on_any_route(new_page, site, width):
    assert HTMLCS.exists(), "html_codesniffer is missing: `make test` installs it"
    page = new_page(width=width, height=900)
    page.add_init_script(path=str(HTMLCS))
    found = {}
    for path in [*routes.public_paths(), "/nope", "/en/nope"]:
        page.goto(site + quote(path, safe="/"), wait_until="networkidle")
        errors = page.evaluate(RUN_HTMLCS)
        if errors:
            found[path] = errors
    assert found == {}
