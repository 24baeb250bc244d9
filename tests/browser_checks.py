"""Checks shared by the browser tests: axe-core, the navbar's overflow sweep, the provider's
login, the pricing page's amounts and its alternate-prices event, the site's announcement.

A helper module, not a test module: test modules import from here, never from each other.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote

from servers import ROOT

from marketing_site import routes

AXE = ROOT / ".tools" / "node_modules" / "axe-core" / "axe.min.js"
RUN_AXE = """async () => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
  return result.violations.map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`);
}"""

# Widths every route is checked at; the layout (home, French and English) is swept in
# steps of 16 px from 320 to 1440 px.
ROUTE_WIDTHS = (320, 375, 414, 600, 640, 656, 672, 688, 768, 992, 1200, 1280, 1440)
SWEEP_WIDTHS = tuple(range(320, 1441, 16))
OVERFLOW = """() => {
  const root = document.scrollingElement;
  const boxes = [...document.querySelectorAll('.site-header__bar > .brand, .site-header__menu > *')]
    .map((e) => [e.className, e.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && r.height > 0);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      if (ra.left < rb.right - 0.5 && rb.left < ra.right - 0.5 && ra.top < rb.bottom - 0.5 && rb.top < ra.bottom - 0.5)
        overlaps.push(a + ' / ' + b);
    }
  const bar = document.querySelector('.site-header__bar').getBoundingClientRect();
  const outside = boxes.filter(([, r]) => r.left < bar.left - 0.5 || r.right > bar.right + 0.5).map(([c]) => c);
  return {scroll: root.scrollWidth, client: root.clientWidth, overlaps, outside};
}"""


def layout_faults(page, widths) -> list[str]:
    faults = []
    for width in widths:
        page.set_viewport_size({"width": width, "height": 800})
        found = page.evaluate(OVERFLOW)
        if found["scroll"] > found["client"]:
            faults.append(f"{width}px: page {found['scroll']} px wide in a {found['client']} px window")
        if found["overlaps"] or found["outside"]:
            faults.append(f"{width}px: navbar overlaps {found['overlaps']}, outside the bar {found['outside']}")
    return faults


AUTHORIZE = re.compile(r".*/oauth2/authorize.*")


def provider_login(page, user):
    """Click the predefined user's button on the provider's login page."""
    page.wait_for_url(AUTHORIZE)
    page.locator(f"button[name=sub][value='{user['sub']}']").click()


PRICES = ("engage", "manage", "interact", "complete")


def price_amounts(page) -> dict[str, str]:
    return {key: page.get_by_test_id(f"price-{key}").inner_text() for key in PRICES}


def switch_to_alternate_prices_over_websocket(page, site: str) -> None:
    """Send the switch event on the page's own websocket; the French pricing page shows its result.

    The spec shows no trigger for the switch, so the event is emitted on the page's socket
    exactly as the Reflex client would (its router data copied from the page's first
    event); the backend handler runs and the page shows the alternate set. An anonymous
    reader of the pricing page has no socket (frontend_build.py): the visitor opens the
    login page first, which connects, then goes to the pricing page client-side.
    """
    from marketing_site.state.pricing import PricingState

    relay = {}

    def connect(ws):
        server = ws.connect_to_server()
        relay["server"], relay["frames"] = server, []

        def to_server(message):
            relay["frames"].append(message)
            server.send(message)

        ws.on_message(to_server)

    page.route_web_socket(re.compile(r".*/_event/.*"), connect)
    page.goto(site + quote(routes.LOGIN.fr, safe="/"))
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    first = None
    for _ in range(100):  # the client connects once hydrated; wait for its first event
        first = next((f for f in relay.get("frames", []) if str(f).startswith("40/_event,")), None)
        if first:
            break
        page.wait_for_timeout(100)
    page.evaluate("(p) => window.__reactRouterDataRouter.navigate(p)", routes.PRICING.fr)
    page.wait_for_function("() => document.querySelector('[data-testid=price-engage]')")
    event = json.loads(first.removeprefix("40/_event,"))["event"]
    event["name"] = f"{PricingState.get_full_name()}.use_alternate_prices"
    event["payload"] = {}
    relay["server"].send("42/_event," + json.dumps(["event", event]))
    page.wait_for_function("() => document.querySelector('[data-testid=price-engage]').innerText.startsWith('120')")
    amounts = price_amounts(page)
    assert [re.sub(r"\s", " ", amounts[k]) for k in PRICES[:3]] == ["120 €", "150 €", "200 €"]


# HTML_CodeSniffer, the second WCAG 2.1 checker: its WCAG2AA standard (A and AA success
# criteria), errors only (its warnings and notices ask for a human's judgement). It reads its
# messages' language from <html lang>, and has no French: English messages on every page.
HTMLCS = ROOT / ".tools" / "node_modules" / "html_codesniffer" / "build" / "HTMLCS.js"
RUN_HTMLCS = """() => new Promise((resolve, reject) => {
  HTMLCS.process('WCAG2AA', document, () => {
    resolve(HTMLCS.getMessages().filter((m) => m.type === 1 /* error */).map((m) => {
      const e = m.element;
      const where = e.tagName ? e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).split(' ')[0] : '') : 'document';
      return `${m.code} ${where}: ${m.msg.slice(0, 160)}`;
    }));
  }, () => reject(new Error('HTML_CodeSniffer failed')), 'en');
})"""


# Unknown paths and the page the not-found page must suggest first (typos of known pages).
NOT_FOUND_EXAMPLES = {
    "/conexion": "/connexion",
    "/compar": "/compare",
    "/en/pricng": "/en/pricing",
    "/Mentions-Legale": "/mentions-legales",
    "/portail-client-privee/x": "/portail-client-privée",
}


def not_found_suggestions(page, url: str) -> tuple[int, list[str]]:
    """Open an unknown path: its HTTP status and the paths the page suggests, in order."""
    response = page.goto(url, wait_until="networkidle")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    found = page.get_by_test_id("not-found-suggestions")
    if found.count() == 0:
        page.wait_for_timeout(300)  # an effect after hydration; none may come
    hrefs = found.locator("a").evaluate_all("(links) => links.map((a) => decodeURIComponent(a.pathname))")
    return response.status, hrefs


# Where the focused element is and whether a person can see it; `null` once focus is back on
# the body or on an element already visited (the walk has come round). The walks run with
# reduced motion (no smooth scrolling); what still moves on focus (a skip link sliding in, a
# menu closing) is waited for, so the element is judged where it ends up.
FOCUS_STATE = """async () => {
  // Transitions that move or hide something (a skip link sliding in), not colour fades.
  const moving = document.getAnimations().filter((a) => a instanceof CSSTransition && !/color|shadow|outline/.test(a.transitionProperty));
  if (moving.length) await Promise.all(moving.map((a) => a.finished.catch(() => null)));
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


def shipped_announcement():
    """The site's first dismissible announcement on air (content/announcements.py), and a French
    page an anonymous reader reads it on: the browser checks of announcements need one."""
    from datetime import UTC, datetime

    import pytest

    from marketing_site.content.announcements import ANNOUNCEMENTS

    now = datetime.now(UTC)
    for item in ANNOUNCEMENTS:
        if item.dismissible and item.is_on(now):
            pages = [p for p in routes.PAGES if item.shows_on(p.key) and p.fr and not (p.protected or p.stateful)]
            if pages:
                return item, pages[0].fr
    pytest.fail("the browser checks need a dismissible announcement on air in content/announcements.py")
