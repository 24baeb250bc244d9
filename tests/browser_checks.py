"""Checks shared by the browser tests: axe-core, the navbar's overflow sweep, the provider's login.

A helper module, not a test module: test modules import from here, never from each other.
"""

from __future__ import annotations

import re

from servers import ROOT

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
