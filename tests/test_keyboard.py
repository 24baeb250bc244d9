"""Keyboard-only journeys in Chromium: the mobile menu and the Solutions menu give focus back
and close when focus leaves them; a client-side page change moves focus to the new page; the
consent banner answers by keyboard and comes after the skip link; the focus ring stands out on
the dark bands. (The Tab walk of every route is in test_accessibility.py, in the same page load
as the WCAG checkers.)"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from browser_checks import tab_walk

from marketing_site import routes
from marketing_site.content.words import words as site_words

pytestmark = pytest.mark.browser


def test_the_tab_walk_reports_a_covered_element_and_judges_a_sliding_one_where_it_ends(new_page):
    """The walk of every route (test_accessibility.py) on a page made to fail it: a link under a
    fixed bar is reported; a skip link sliding into view on focus is not."""
    page = new_page(reduced_motion="reduce")
    page.set_content(
        "<style>.skip{position:absolute;top:0;transform:translateY(-200%);transition:transform .3s}"
        ".skip:focus{transform:none}.bar{position:fixed;bottom:0;left:0;right:0;height:120px;background:#fff}"
        "</style><a class=skip href=#m>Skip</a><main id=m><a href=#a>Visible</a><div style=height:2000px></div>"
        "</main><a href=#b style=position:fixed;bottom:10px>Under the bar</a><div class=bar></div>"
    )
    assert tab_walk(page) == (3, ['a "Under the bar": covered by div.bar'])


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


def test_the_documents_own_page_keeps_the_focus_when_react_renders_it_again(new_page, site):
    """React may throw away a render of the page it hydrates and render it once more (an update
    before hydration ends, a part that differs from the prerendered one): that second render is
    still the document's own page, with no entrance and no focus moved to its heading. The
    document here is served with one hydrated word changed, so React renders the page anew."""
    page = new_page(width=375, height=740)
    refuse = site_words("fr", "consent")["refuse_all"]

    def served_with_a_changed_word(route):
        answer = route.fetch()
        html = answer.text()
        assert f">{refuse}<" in html
        route.fulfill(response=answer, body=html.replace(f">{refuse}<", f">{refuse} ?<", 1))

    page.route(site + routes.HOME.fr, served_with_a_changed_word)
    page.goto(site + routes.HOME.fr, wait_until="networkidle")
    # The button's own word is back: React rendered the page itself, not the prerendered HTML.
    page.locator(".consent-banner .consent-button", has_text=re.compile(f"^{re.escape(refuse)}$")).wait_for()
    assert page.locator("[data-entrance]").count() == 0
    assert page.evaluate("() => document.activeElement === document.body")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('skip-link')")


def test_the_first_tab_reaches_the_skip_link_while_the_consent_banner_shows(new_page, site):
    page = new_page(width=375, height=740)  # a fresh context: no cookie, no choice made
    page.goto(site + routes.HOME.fr, wait_until="networkidle")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    assert page.locator(".consent-banner").is_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('skip-link')")
    assert page.locator(".skip-link").is_visible()


# The focused element's outline, and the background colours from its parent up (the ring is
# drawn outside the element, over what surrounds it).
RING = """(e) => {
  const style = getComputedStyle(e);
  const backgrounds = [];
  for (let n = e.parentElement; n; n = n.parentElement) backgrounds.push(getComputedStyle(n).backgroundColor);
  return {focused: e === document.activeElement && e.matches(':focus-visible'), color: style.outlineColor,
          style: style.outlineStyle, width: parseFloat(style.outlineWidth), backgrounds};
}"""


def _rgba(css: str) -> tuple[float, float, float, float]:
    match = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", css)
    assert match, css
    red, green, blue, alpha = match.groups()
    return float(red), float(green), float(blue), float(alpha or 1)


def _luminance(css: str) -> float:
    """WCAG 2.1 relative luminance of an opaque colour."""
    channels = [c / 255 for c in _rgba(css)[:3]]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(one: str, other: str) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_helpers_follow_wcag():
    assert _contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)") == pytest.approx(21)
    assert _contrast("rgb(118, 118, 118)", "rgb(255, 255, 255)") == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize("band", [".site-footer", ".cta-banner"])
def test_the_focus_ring_on_the_dark_bands_has_3_to_1_contrast(new_page, site, band):
    """WCAG 2.4.7 and 1.4.11: the ring a keyboard user sees, against the band behind it."""
    page = new_page(width=1280)
    page.goto(site + routes.COMPARE.en, wait_until="networkidle")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    target = page.locator(f"{band} a[href]").first
    # Tab onto it from the stop before it, as a keyboard user arrives.
    target.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    ring = target.evaluate(RING)
    assert ring["focused"], band
    assert ring["style"] != "none" and ring["width"] >= 2, ring
    background = next((c for c in ring["backgrounds"] if _rgba(c)[3] == 1), "rgb(255, 255, 255)")
    assert _rgba(ring["color"])[3] == 1, ring
    assert _contrast(ring["color"], background) >= 3, (band, ring["color"], background)
