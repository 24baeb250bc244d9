"""Every route (and the not-found pages), at a phone and a desktop width, in one page load each:
the content tour (no console error, no unfinished text, no horizontal overflow at 375 px, a
full-page screenshot in test-artifacts/screenshots/, not committed), two WCAG 2.1 A and AA
checkers, axe-core and HTML_CodeSniffer, then a keyboard-only Tab walk with the consent banner
showing; a page that needs no server state opens no state websocket through all of it.

Each checker finds defects the other misses: HTML_CodeSniffer flags data cells not tied to
multi-level headers, a form without a submit button, and contrast at exactly the 4.5:1 threshold.
The walk fails when the focused element is covered (by the fixed banner, the sticky header …),
out of view or invisible. One load serves them all (the checkers read the page before the walk
moves focus): loading each route once per check made this the slowest part of the suite.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from browser_checks import AXE, HTMLCS, RUN_AXE, RUN_HTMLCS, tab_walk
from servers import ARTIFACTS

from marketing_site import routes

pytestmark = pytest.mark.browser

NOT_FOUND = ("/nope", "/en/nope")
UNFINISHED = re.compile(r"lorem|todo|placeholder|xxx", re.IGNORECASE)
SHOTS = ARTIFACTS / "screenshots"
# Loaded: the page's scripts ran, React took over the prerendered page and the fonts are in
# (contrast and sizes are measured on what a reader sees). An anonymous reader's page makes no
# further request, so there is no network to wait for.
READY = """async () => {
  // A page whose scripts never start fails here within 15 s instead of hanging the walk.
  for (const started = Date.now(); window.__reactRouterDataRouter === undefined; ) {
    if (Date.now() - started > 15000) throw new Error('the page did not hydrate within 15 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  await document.fonts.ready;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}"""


@pytest.mark.parametrize("width", [375, 1280])
def test_every_route_passes_the_tour_axe_html_codesniffer_and_a_keyboard_walk(new_page, site, page_errors, width):
    assert AXE.exists(), "axe-core is missing: `make test` installs it"
    assert HTMLCS.exists(), "html_codesniffer is missing: `make test` installs it"
    page = new_page(width=width, height=740 if width < 600 else 800, reduced_motion="reduce")
    # Init scripts, not <script> tags: the site's Content-Security-Policy refuses injected ones.
    page.add_init_script(path=str(AXE))
    page.add_init_script(path=str(HTMLCS))
    SHOTS.mkdir(parents=True, exist_ok=True)
    found: dict[str, list[str]] = {}
    # The protected pages (trial, console) send an anonymous visitor to log in: the tour only.
    public = routes.public_paths()
    events: list[str] = []  # requests to Reflex's state endpoint, websocket or polling
    page.on("request", lambda r: events.append(r.url) if "/_event/" in r.url else None)
    for path in [*routes.all_paths(), *NOT_FOUND]:
        checked = path in public or path in NOT_FOUND
        stateless = path in NOT_FOUND or not routes.page_for_path(path).stateful
        sockets_before, events_before = len(page.state_sockets), len(events)
        page.context.clear_cookies()  # the consent banner shows on every page
        # A protected page goes on to the login: wait until nothing moves any more.
        page.goto(site + quote(path, safe="/"), wait_until="load" if checked else "networkidle")
        if checked:
            page.evaluate(READY)
        problems = _tour(page, path, width)
        if page_errors:
            problems.append(f"errors: {page_errors[:]}")
            page_errors.clear()
        if not checked:
            if problems:
                found[path] = problems
            continue
        problems += [f"axe: {v}" for v in page.evaluate(RUN_AXE)]
        problems += [f"HTML_CodeSniffer: {e}" for e in page.evaluate(RUN_HTMLCS)]
        if path not in NOT_FOUND:
            assert page.locator(".consent-banner").is_visible(), path
            stops, walk_problems = tab_walk(page)
            assert stops > 3, path
            problems += [f"keyboard: {p}" for p in walk_problems]
        if stateless and (len(page.state_sockets), len(events)) != (sockets_before, events_before):
            problems.append("a state websocket opened (issue 25: anonymous readers cost the backend nothing)")
        if problems:
            found[path] = problems
    assert found == {}


def _tour(page, path: str, width: int) -> list[str]:
    problems = []
    if match := UNFINISHED.search(page.locator("body").inner_text()):
        problems.append(f"unfinished text {match.group(0)!r}")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    if width == 375 and overflow > 0:
        problems.append(f"{overflow}px horizontal overflow at 375px")
    name = path.strip("/").replace("/", "_") or "home"
    page.screenshot(path=str(SHOTS / f"{width}-{name}.png"), full_page=True)
    return problems
