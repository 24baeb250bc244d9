"""The not-found page suggests up to three known pages of its language near the path asked
for, nearest first, and the answer stays a 404."""

from __future__ import annotations

import pytest
from browser_checks import NOT_FOUND_EXAMPLES, not_found_suggestions

from marketing_site import routes

pytestmark = pytest.mark.browser


def test_typos_of_known_pages_are_suggested_first_and_answer_404(new_page, page_errors, site):
    page = new_page()
    for path, expected in NOT_FOUND_EXAMPLES.items():
        status, suggested = not_found_suggestions(page, site + path)
        assert status == 404, path
        assert 1 <= len(suggested) <= 3, (path, suggested)
        assert suggested[0] == expected, (path, suggested)
        lang = routes.page_lang(path)
        # Only pages of the path's language, each a page of the route table.
        assert all(routes.page_lang(p) == lang and routes.page_for_path(p) for p in suggested), suggested
    assert page_errors == []


def test_a_path_like_no_page_suggests_nothing(new_page, site):
    page = new_page(locale="en-GB")
    status, suggested = not_found_suggestions(page, site + "/zzzzzzzzzzzzzzzzzzzz-qqq")
    assert (status, suggested) == (404, [])
    # The heading of the suggestions follows the page's message language (here the browser's).
    status, _ = not_found_suggestions(page, site + "/conexion")
    assert page.get_by_test_id("not-found-suggestions").get_by_role("heading").inner_text() == "Were you looking for"


def test_suggestions_are_keyboard_reachable_links(new_page, site):
    page = new_page()
    not_found_suggestions(page, site + "/compar")
    link = page.get_by_test_id("not-found-suggestions").locator("a").first
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(site + "/compare")
