"""Client variables on the built site, in Chromium: the site's announcement (content/announcements.py)
closed by keyboard is remembered on this browser, the focus goes to the page's content without a
scroll, the strip is never painted again (not even before hydration: the head's stylesheet and
script), the visitor's clock decides before hydration and after, and with scripts blocked the
strip reads as built, without a close button that would do nothing. No websocket opens.

The build-free side (the data, the cut-off, the head's script in Node, the compiled events) is in
tests/test_client_state.py and tests/test_announcements.py. One page per test, about 10 s in all.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from urllib.parse import quote, unquote

import pytest
from browser_checks import shipped_announcement

from marketing_site.components.layout import MAIN_ID
from marketing_site.content.words import words

pytestmark = pytest.mark.browser

HYDRATED = "() => window.__reactRouterDataRouter !== undefined"


def _url(site: str, path: str) -> str:
    return site + quote(path, safe="/")


def _hold_hydration(page) -> list:
    """Hold the React DOM module back: the page stays as prerendered until released."""
    held: list = []
    page.route(re.compile(r".*/assets/entry\.client-[^/]*\.js$"), lambda route: held.append(route))  # noqa: PLW0108 - Playwright tags the handler with an attribute: a bound builtin cannot carry one
    return held


def _prerendered(page, site: str, path: str) -> list:
    held = _hold_hydration(page)
    page.goto(_url(site, path), wait_until="domcontentloaded")
    page.wait_for_function("() => document.readyState === 'complete'")
    # The module is imported by an inline script: the page may be complete before Playwright
    # hands the held request to this thread (it does so while the test waits).
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the React DOM module was requested (and held)"
    return held


def _hydrate(page, held: list) -> None:
    for route in held:
        route.continue_()
    page.unroute(re.compile(r".*/assets/entry\.client-[^/]*\.js$"))
    page.wait_for_function(HYDRATED)
    page.wait_for_timeout(200)  # the layout effects of the first render


def test_a_closed_announcement_is_remembered_focus_moves_to_the_content_and_it_never_flashes_again(
    new_page, site, page_errors
):
    item, path = shipped_announcement()
    text = words("fr", "announcements")
    page = new_page()
    page.goto(_url(site, path), wait_until="networkidle")
    page.wait_for_function(HYDRATED)
    region = page.get_by_role("region", name=text["label"])
    assert region.is_visible()
    assert region.get_attribute("data-announcement") == item.key
    page.evaluate("() => window.scrollTo(0, 0)")
    # By keyboard: the close button is named, and Enter closes.
    close = region.get_by_role("button", name=text["close"])
    close.focus()
    page.keyboard.press("Enter")
    region.wait_for(state="hidden")
    assert page.evaluate("() => document.activeElement.id") == MAIN_ID
    assert page.evaluate("() => window.scrollY") == 0  # the focus moved, the page did not
    stored = json.loads(page.evaluate("() => window.localStorage.getItem('nereo_client')"))
    assert stored == {f"announcement_{item.key}_closed": True}
    # Read again: hidden from the first paint (before hydration), and after it.
    held = _prerendered(page, site, path)
    strip = page.locator(f'[data-announcement="{item.key}"]')
    assert strip.count() == 1 and not strip.is_visible()
    assert (
        page.evaluate(
            "() => document.documentElement.getAttribute('data-client-announcement-"
            + item.key.replace("_", "-")
            + "-closed')"
        )
        == "true"
    )
    _hydrate(page, held)
    assert not strip.is_visible()
    assert page.state_sockets == []  # nothing of it needs the server
    assert page_errors == []


def test_the_visitors_clock_decides_before_and_after_hydration(new_page, site, page_errors):
    """A page built after the start, read by a browser whose clock is before it: hidden from the
    first paint; at the start instant: shown. The cut-off is the same instant (the Paris day)."""
    item, path = shipped_announcement()
    for clock, shown in ((item.starts_at - timedelta(milliseconds=1), False), (item.starts_at, True)):
        page = new_page()
        page.clock.set_fixed_time(clock)
        held = _prerendered(page, site, path)
        strip = page.locator(f'[data-announcement="{item.key}"]')
        assert strip.is_visible() is shown, (clock, "before hydration")
        _hydrate(page, held)
        assert strip.is_visible() is shown, (clock, "after hydration")
        assert page.state_sockets == []
    assert page_errors == []


def test_with_scripts_blocked_the_announcement_reads_as_built_without_a_dead_button(new_page, site):
    item, path = shipped_announcement()
    text = words("fr", "announcements")
    own = words("fr", f"announcements.items.{item.key}")
    page = new_page(java_script_enabled=False)
    page.goto(_url(site, path))
    region = page.get_by_role("region", name=text["label"])
    assert region.is_visible()
    assert own["text"] in region.inner_text()
    if item.link:
        assert unquote(region.get_by_role("link", name=own["link"]).get_attribute("href") or "") == item.href("fr")
    assert region.locator("button").count() == 1 and not region.locator("button").is_visible()
    assert page.locator("html").get_attribute("data-client") is None  # the head's script did not run
