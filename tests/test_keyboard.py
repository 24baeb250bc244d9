"""Keyboard-only journeys in Chromium: Tab walks every public page with the consent banner
showing, and fails when the focused element is covered (by the fixed banner, the sticky
header …), out of view or invisible; the mobile menu and the Solutions menu give focus back
and close when focus leaves them; a client-side page change moves focus to the new page."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from marketing_site import routes

pytestmark = pytest.mark.browser

# Where the focused element is and whether a person can see it; `null` once focus is back on
# the body or on an element already visited (the walk has come round). The walks run with
# reduced motion (no smooth scrolling): the focused element is where it ends up at the next frame.
FOCUS_STATE = """async () => {
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const e = document.activeElement;
  window.__visited = window.__visited || new WeakSet();
  if (!e || e === document.body || window.__visited.has(e)) return null;
  window.__visited.add(e);
  const label = (e.getAttribute('aria-label') || e.textContent || e.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
  const desc = `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${label}"`;
  const r = e.getBoundingClientRect();
  if (r.width < 1 || r.height < 1 || !e.checkVisibility({opacityProperty: true, visibilityProperty: true}))
    return {desc, problem: 'invisible'};
  if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth)
    return {desc, problem: 'out of view'};
  // The middle of its first box in view (a link wrapping over two lines has two) must be
  // the element itself or what it contains.
  const box = [...e.getClientRects()].find((b) => b.bottom > 0 && b.top < innerHeight && b.width >= 1) || r;
  const x = (Math.max(box.left, 0) + Math.min(box.right, innerWidth)) / 2;
  const y = (Math.max(box.top, 0) + Math.min(box.bottom, innerHeight)) / 2;
  const hit = document.elementFromPoint(x, y);
  if (hit && hit !== e && !e.contains(hit) && !(hit.tagName === 'LABEL' && hit.control === e))
    return {desc, problem: `covered by ${hit.tagName.toLowerCase()}.${String(hit.className).split(' ')[0]}`};
  return {desc, problem: ''};
}"""
MAX_TABS = 250


def tab_walk(page) -> tuple[int, list[str]]:
    """Tab from the top of the page until focus comes round; (stops, problems)."""
    page.evaluate(
        "() => { window.__visited = new WeakSet(); document.activeElement && document.activeElement.blur(); }"
    )
    problems, stops = [], 0
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        state = page.evaluate(FOCUS_STATE)
        if state is None:
            break
        stops += 1
        if state["problem"]:
            problems.append(f"{state['desc']}: {state['problem']}")
    return stops, problems


@pytest.mark.parametrize("width", [375, 1280])
def test_tab_through_every_page_keeps_the_focused_element_in_sight(new_page, site, width):
    page = new_page(width=width, height=740 if width < 600 else 800, reduced_motion="reduce")
    found = {}
    for path in routes.public_paths():
        page.context.clear_cookies()  # the consent banner shows on every page
        page.goto(site + quote(path, safe="/"), wait_until="networkidle")
        assert page.locator(".consent-banner").is_visible(), path
        stops, problems = tab_walk(page)
        assert stops > 3, path
        if problems:
            found[path] = problems
    assert found == {}


def test_mobile_menu_escape_returns_focus_and_tabbing_out_closes_it(new_page, site):
    page = new_page(width=375, height=740)
    page.goto(site + "/", wait_until="networkidle")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    toggle = page.locator(".site-header__toggle")
    toggle.focus()
    page.keyboard.press("Enter")
    header = page.locator(".site-header")
    assert header.get_attribute("data-menu-open") == "true"
    page.keyboard.press("Tab")
    page.keyboard.press("Escape")
    assert header.get_attribute("data-menu-open") == "false"
    assert page.evaluate("() => document.activeElement.classList.contains('site-header__toggle')")
    # Open again and Tab past the last item: the menu closes behind the focus.
    page.keyboard.press("Enter")
    items = page.locator(".site-header__menu a:visible, .site-header__menu button:visible").count()
    for _ in range(items + 12):
        page.keyboard.press("Tab")
        if not page.evaluate("() => document.querySelector('.site-header').contains(document.activeElement)"):
            break
    assert not page.evaluate("() => document.querySelector('.site-header').contains(document.activeElement)")
    assert header.get_attribute("data-menu-open") == "false"


def test_solutions_menu_closes_when_focus_leaves_it(new_page, site):
    page = new_page(width=1280)
    page.goto(site + "/", wait_until="networkidle")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    button = page.locator(".disclosure__button").first
    button.focus()
    page.keyboard.press("Enter")
    panel = page.locator(".disclosure__panel").first
    assert panel.is_visible()
    for _ in range(panel.locator("a").count()):
        page.keyboard.press("Tab")
    assert panel.is_visible()  # still inside, on its last link
    page.keyboard.press("Tab")
    assert not panel.is_visible()
    assert button.get_attribute("aria-expanded") == "false"


def test_client_side_page_change_moves_focus_to_the_new_heading(new_page, site):
    page = new_page(width=1280)
    page.goto(site + "/", wait_until="networkidle")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    page.locator(f".site-header a[href='{routes.PRICING.fr}']").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(site + quote(routes.PRICING.fr, safe="/"))
    page.wait_for_function("() => document.activeElement && document.activeElement.tagName === 'H1'")
    assert page.evaluate("() => document.querySelector('main h1') === document.activeElement")


@pytest.mark.parametrize("path", [routes.HOME.fr, routes.HOME.en])
def test_language_switch_names_the_other_language_in_that_language(new_page, site, path):
    page = new_page()
    page.goto(site + path)
    hidden = page.get_by_test_id("language-flag").locator(".sr-only")
    assert hidden.get_attribute("lang") == ("en" if path == routes.HOME.fr else "fr")


def test_answering_the_consent_banner_by_keyboard_keeps_focus_in_the_page_and_confirms(new_page, site):
    page = new_page(width=375, height=740)
    page.goto(site + routes.PRICING.en, wait_until="networkidle")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    refuse = page.locator(".consent-banner .consent-button").nth(1)
    refuse.focus()
    page.keyboard.press("Enter")
    page.locator(".consent-banner").wait_for(state="detached")
    assert page.evaluate("() => document.activeElement.id") == "contenu"
    assert page.get_by_role("status").filter(has_text="Your cookie choices are saved.").count() == 1
