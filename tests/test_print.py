"""Printing the pages buyers print (pricing, compare, the legal pages, the documentation
landings): Chromium prints each to PDF, and the PDF's text and the print layout are checked.
No navbar, footer, consent banner, form or scheduler; each link's address after its text;
the compare table with all its columns on the page."""

from __future__ import annotations

import io
import re
import unicodedata
from urllib.parse import quote

import pytest
from pypdf import PdfReader

from marketing_site import routes
from marketing_site.content.offers import OFFER_NAMES
from marketing_site.content.words import words

pytestmark = pytest.mark.browser

PRINTED = [
    routes.PRICING.fr,
    routes.PRICING.en,
    routes.COMPARE.fr,
    routes.COMPARE.en,
    routes.LEGAL_NOTICE.fr,
    routes.LEGAL_NOTICE.en,
    routes.SALES_TERMS.fr,
    routes.SALES_TERMS.en,
    routes.PRIVACY.fr,
    routes.PRIVACY.en,
    routes.ACCESSIBILITY.fr,
    routes.ACCESSIBILITY.en,
    routes.KYC_DOCUMENTATION.fr,
    routes.PORTAL_DOCUMENTATION.fr,
    routes.SUBSCRIPTION.fr,
]
# Everything that must not reach paper, by selector.
NOT_PRINTED = ".site-header, .site-footer, .skip-link, .consent-banner, form, .booking-scheduler, iframe"
# An A4 page less Chromium's default print margins, in CSS pixels.
A4_CONTENT_WIDTH = 718
PRINT_LAYOUT = """(selector) => {
  const shown = [...document.querySelectorAll(selector)].filter((e) => e.checkVisibility());
  const links = [...document.querySelectorAll('main a[href]')]
    .filter((a) => a.checkVisibility() && !a.getAttribute('href').startsWith('#'))
    .map((a) => [a.href, a.getAttribute('href'), getComputedStyle(a, '::after').content]);
  return {shown: shown.map((e) => e.outerHTML.slice(0, 80)), links};
}"""


def pdf_text(page) -> str:
    reader = PdfReader(io.BytesIO(page.pdf(format="A4", print_background=False)))
    # Line breaks inside long addresses do not matter here.
    return "".join(p.extract_text() for p in reader.pages)


@pytest.mark.parametrize("path", PRINTED)
def test_printed_page_is_content_with_link_addresses(new_page, site, path):
    page = new_page(width=A4_CONTENT_WIDTH, height=1000)
    page.goto(site + quote(path, safe="/"), wait_until="networkidle")
    page.emulate_media(media="print")
    layout = page.evaluate(PRINT_LAYOUT, NOT_PRINTED)
    assert layout["shown"] == []
    assert layout["links"], "the printed page has links"
    for _, raw, after in layout["links"]:
        # The address as printed: the link's own, a site path behind the site's origin.
        address = site + raw if raw.startswith("/") else raw
        assert after == f'" ({address})"', (raw, after)
    text = pdf_text(page)
    lang = routes.page_lang(path)
    layout_words = words(lang, "layout")
    for absent in (
        layout_words["copyright"],
        layout_words["footer_tagline"],
        layout_words["skip_to_content"],
        words(lang, "consent.title"),
    ):
        assert absent not in text
    # A site link and an outside link, each printed with its full address.
    internal = [site + raw for _, raw, _ in layout["links"] if raw.startswith("/")]
    external = [raw for _, raw, _ in layout["links"] if raw.startswith(("https:", "mailto:"))]
    assert internal, path
    # The PDF's text breaks long addresses across lines and keeps the font's ligatures (ﬀ):
    # compared without white space, ligatures spelt out.
    printed = re.sub(r"\s", "", unicodedata.normalize("NFKC", text))
    for address in (internal[0], *external[:1]):
        assert f"({address})" in printed, address


@pytest.mark.parametrize("path", [routes.COMPARE.fr, routes.COMPARE.en])
def test_printed_compare_table_has_every_column_on_the_page(new_page, site, path):
    page = new_page(width=375, height=800)  # printed from a phone: the screen table scrolls
    page.goto(site + quote(path, safe="/"), wait_until="networkidle")
    page.set_viewport_size({"width": A4_CONTENT_WIDTH, "height": 1000})
    page.emulate_media(media="print")
    fit = page.evaluate(
        """() => {
          const scroller = document.querySelector('.compare__scroll');
          const table = document.querySelector('[data-testid=compare-table]');
          const heads = [...table.querySelectorAll('thead th')].map((th) => th.getBoundingClientRect().right);
          return {overflow: scroller.scrollWidth - scroller.clientWidth, right: Math.max(...heads),
                  width: document.documentElement.clientWidth};
        }"""
    )
    assert fit["overflow"] <= 0 and fit["right"] <= fit["width"], fit
    text = pdf_text(page)
    for name in OFFER_NAMES.values():
        assert name in text
