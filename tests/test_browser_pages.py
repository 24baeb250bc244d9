"""Page behaviour in Chromium: pricing and its state events, compare, anchors (content)."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from browser_checks import PRICES, price_amounts, switch_to_alternate_prices_over_websocket

from marketing_site import routes

pytestmark = pytest.mark.browser


def _open(new_page, site, path, **kwargs):
    page = new_page(**kwargs)
    page.goto(site + quote(path, safe="/#"))
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    return page


def _offers_as_data(page, lang: str) -> None:
    """The highlighted plan's badge, and each footnote a card marks: its note shown once, and given
    by the browser as the marked line's description (content/offers.py, tests/test_offer_notes.py)."""
    from playwright.sync_api import expect

    from marketing_site.content.offers import FOOTNOTES, HIGHLIGHTED
    from marketing_site.content.words import words

    assert page.get_by_test_id("most-popular").count() == 1
    badge = page.locator(f"#{HIGHLIGHTED}").get_by_test_id("most-popular")
    assert badge.text_content() == words(lang, "offers.highlight_badge")
    shown = 0
    for note in FOOTNOTES:
        marked = page.locator(f'[aria-describedby~="offer-note-{note.key}"]')
        if marked.count():
            shown += 1
            expect(page.locator(f"#offer-note-{note.key}")).to_be_visible()
            expect(marked.first).to_have_accessible_description(
                re.compile(re.escape(words(lang, f"offers.notes.{note.key}")))
            )
    assert shown, "the site's own footnote (KYC-LAB) is on the pricing page"


def test_french_pricing_in_euros_with_default_set(new_page, site):
    page = _open(new_page, site, routes.PRICING.fr)
    amounts = price_amounts(page)
    assert [re.sub(r"\s", " ", amounts[k]) for k in PRICES[:3]] == ["8 €", "100 €", "150 €"]
    assert amounts["complete"] == "Sur devis"
    _offers_as_data(page, "fr")
    assert "$" not in page.locator("main").inner_text()
    assert page.state_sockets == []  # the configured set is prerendered (state/pricing.py)


def test_english_pricing_in_dollars(new_page, site):
    page = _open(new_page, site, routes.PRICING.en)
    amounts = price_amounts(page)
    assert [amounts[k] for k in PRICES[:3]] == ["$8", "$100", "$150"]
    assert amounts["complete"] == "On quote"
    _offers_as_data(page, "en")
    assert "€" not in page.locator("main").inner_text()


def test_switch_event_applies_alternate_set_on_the_accented_page(new_page, site):
    """The switch event goes through the page's own websocket to the real backend handler."""
    switch_to_alternate_prices_over_websocket(new_page(), site)


def test_compare_table_has_five_columns_and_filled_rows(new_page, site):
    for path, first in ((routes.COMPARE.fr, "Fonctionnalités"), (routes.COMPARE.en, "Features")):
        page = _open(new_page, site, path, width=375)
        assert page.locator("h1").inner_text() in ("Comparez tout nos plans", "Compare all our plans")
        table = page.get_by_test_id("compare-table")
        headers = [h.strip() for h in table.locator("thead th").all_inner_texts()]
        assert headers == [first, "Engage", "Manage", "Interact", "Complete"]
        rows = table.locator("tbody tr:not(.compare__group)")
        assert rows.count() >= 12
        for i in range(rows.count()):
            cells = rows.nth(i).locator("th, td")
            assert cells.count() == 5
            assert all(text.strip() for text in cells.all_text_contents())


def test_features_page_anchors_exist_and_are_reachable(new_page, site):
    page = _open(new_page, site, routes.ABOUT.fr)
    assert "Nos fonctionnalités" in page.locator("main").inner_text()
    for anchor in ("todo", "Rdv", "ficheClient", "reporting", "dashboard"):
        section = page.locator(f"#{anchor}")
        assert section.count() == 1
        assert len(section.inner_text().split()) > 30, anchor
    page = _open(new_page, site, routes.ABOUT.fr + "#reporting")
    page.wait_for_function("() => document.getElementById('reporting').getBoundingClientRect().top < 200")


@pytest.mark.parametrize("path", [routes.FEATURE_PORTAL.fr, routes.FEATURE_COMPLIANCE.en, routes.SUBSCRIPTION.fr])
def test_documentation_buttons_scroll_to_the_form(new_page, site, path):
    page = _open(new_page, site, path, height=700)
    page.locator('main a[href$="#documentation"]').first.click()
    page.wait_for_function("() => Math.abs(document.getElementById('documentation').getBoundingClientRect().top) < 120")


@pytest.mark.parametrize("path", [routes.EBOOK.fr, routes.WHITE_PAPER.en])
def test_download_banner_shines_five_times_on_the_compositor(new_page, site, path):
    """SPEC §2: the banner animation repeats 5 times; it moves a layer with `transform` only,
    so the browser animates it without repainting on the main thread."""
    page = _open(new_page, site, path)
    animations = page.evaluate(
        """() => document.querySelector('.download-banner').getAnimations({subtree: true}).map((a) => ({
          iterations: a.effect.getTiming().iterations,
          properties: [...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)))]
            .filter((p) => !['offset', 'computedOffset', 'easing', 'composite'].includes(p)),
        }))"""
    )
    assert animations == [{"iterations": 5, "properties": ["transform"]}]
    # The shine stays under the banner's text and link.
    link = page.locator(".download-banner__link")
    on_top = link.evaluate(
        """(el) => { const r = el.getBoundingClientRect();
                     return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }"""
    )
    assert on_top


def test_carousel_cycles_and_ignores_clicks_during_animation(new_page, site):
    page = _open(new_page, site, routes.HOME.fr)
    carousel = page.locator("[data-moves]")
    quote_text = carousel.locator("blockquote").inner_text()
    assert quote_text.strip()
    page.get_by_role("button", name="Témoignage suivant").click()
    assert carousel.get_attribute("data-animating") == "true"
    # A click while the slide is moving is ignored.
    page.get_by_role("button", name="Témoignage précédent").click()
    assert carousel.get_attribute("data-moves") == "1"
    page.wait_for_function("() => document.querySelector('[data-moves]').dataset.animating === 'false'")
    page.get_by_role("button", name="Témoignage précédent").click()
    assert carousel.get_attribute("data-moves") == "2"
    # One testimonial: next and previous cycle back to it.
    assert carousel.get_attribute("data-index") == "0"
    assert carousel.locator("blockquote").inner_text() == quote_text
    # Autoplay is off by default (content/testimonials.py): no Pause control, nothing turns.
    assert carousel.get_attribute("data-autoplay") == "off"
    assert carousel.locator(".carousel__button--pause").count() == 0
    assert page.state_sockets == []


def test_carousel_has_no_controls_on_english_pages(new_page, site):
    page = _open(new_page, site, routes.HOME.en)
    carousel = page.locator("[data-moves]")
    assert carousel.locator("blockquote").inner_text().strip()
    assert carousel.locator("button").count() == 0


def _compare_matrix(page) -> dict[str, dict[str, str]]:
    """{row label: {offer name: cell status text}} as the compare page shows it."""
    return page.evaluate(
        """() => {
          const table = document.querySelector('[data-testid=compare-table]');
          const offers = [...table.querySelectorAll('thead th')].slice(1).map((th) => th.innerText.trim());
          const matrix = {};
          for (const row of table.querySelectorAll('tbody tr:not(.compare__group)')) {
            const cells = [...row.querySelectorAll('td')];
            if (!cells.length) continue;
            matrix[row.querySelector('th').innerText.trim()] = Object.fromEntries(
              cells.map((td, i) => [offers[i], td.textContent.replace(/^[✓+—]/, '').trim()]));
          }
          return matrix;
        }"""
    )


def _pricing_cards(page) -> dict[str, dict[str, list[str]]]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('article.offer')].map((card) => [
          card.querySelector('.offer__name').innerText.trim(),
          {included: [...card.querySelectorAll('.offer__list--included li')].map((li) => li.innerText.trim()),
           addons: [...card.querySelectorAll('.offer__list--addons li')].map((li) => li.innerText.trim())},
        ]))"""
    )


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_pricing_and_compare_state_the_same_facts(new_page, site, lang):
    """Every feature a pricing card lists as included or optional has that status in the
    offer's column of the compare table, every add-on of the table is on the card, and an
    "all of X" line means every feature X includes is included."""
    from marketing_site.content.offers import OFFER_NAMES
    from marketing_site.content.words import words

    status = words(lang, "compare.table.status")
    # A card's "everything in offer X" lines, as the pricing page words them: line -> X.
    all_of_lines = {line: OFFER_NAMES[key] for key, line in words(lang, "pricing.offers.all_of").items()}
    cards = _pricing_cards(_open(new_page, site, routes.PRICING.path(lang)))
    matrix = _compare_matrix(_open(new_page, site, routes.COMPARE.path(lang)))
    services = {
        "Support premium",
        "Onboarding personnalisé",
        "Gestion et nettoyage des données",
        "Premium support",
        "Personalised onboarding",
        "Data management and clean-up",
    }
    assert set(cards) == {"Engage", "Manage", "Interact", "Complete"}
    checked = 0
    for offer, card in cards.items():
        for line in card["included"]:
            all_of = all_of_lines.get(line)
            if all_of:
                for feature, cells in matrix.items():
                    if cells[all_of] == status["yes"]:
                        assert cells[offer] == status["yes"], (offer, line, feature)
                        checked += 1
            else:
                assert line in matrix, f"{offer} card lists {line!r}, which the compare table does not show"
                assert matrix[line][offer] == status["yes"], (offer, line, matrix[line][offer])
                checked += 1
        for line in card["addons"]:
            assert line in matrix, f"{offer} card offers {line!r}, which the compare table does not show"
            assert matrix[line][offer] == status["option"], (offer, line, matrix[line][offer])
            checked += 1
        table_addons = {f for f, cells in matrix.items() if cells[offer] == status["option"]} - services
        assert table_addons == set(card["addons"]), offer
    assert checked > 40
