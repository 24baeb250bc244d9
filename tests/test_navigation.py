"""Navigation as data (content/navigation.py, content/<lang>/navigation.yaml): the navbar's menus and
the footer's columns and legal links are built from it, in its order, in each language; and the
generic logo row (components/logo_row.py) with its own classes. Build-free."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from marketing_site import routes
from marketing_site.components.footer import footer
from marketing_site.components.logo_row import logo_row
from marketing_site.components.navbar import navbar
from marketing_site.content import navigation
from marketing_site.content.logos import Logo
from marketing_site.content.navigation import Link, Menu
from marketing_site.content.words import words as loaded
from marketing_site.settings import get_settings

CONTENT = Path(navigation.__file__).parent


def _words(lang: str) -> dict:
    return yaml.safe_load((CONTENT / lang / "navigation.yaml").read_text(encoding="utf-8"))


def _links(entries) -> list[Link]:
    return [link for entry in entries for link in (entry.links if isinstance(entry, Menu) else (entry,))]


def _in_order(rendered: str, needles: list[str]) -> bool:
    positions = [rendered.find(needle) for needle in needles]
    return -1 not in positions and positions == sorted(positions)


def _target(link: Link, lang: str) -> str:
    """How a link's address appears in compiled JSX."""
    return f"to:{json.dumps(link.href(lang))}"


@pytest.mark.parametrize("lang", routes.LANGS)
def test_every_menu_and_link_has_its_words_in_each_language_file(lang):
    """Written in each language's own file (no French fallback for the navigation)."""
    words = _words(lang)
    for menu in [e for e in (*navigation.NAVBAR, *navigation.FOOTER) if isinstance(e, Menu)]:
        assert words["menus"][menu.key].strip(), menu.key
    for link in _links((*navigation.NAVBAR, *navigation.FOOTER, *navigation.LEGAL)):
        assert link.label or words["links"][link.key].strip(), link.key


@pytest.mark.parametrize("lang", routes.LANGS)
def test_the_navbar_shows_the_navigation_data_in_its_order(lang):
    rendered = str(navbar(routes.HOME.path(lang)))
    words = loaded(lang, "navigation")
    expected = []
    for entry in navigation.NAVBAR:
        if isinstance(entry, Menu):
            expected.append(f"label:{json.dumps(words['menus'][entry.key])}")
            expected += [_target(link, lang) for link in entry.links]
        else:
            expected.append(_target(entry, lang))
    assert _in_order(rendered, expected), expected
    assert _target(Link("x", url_setting="blog_url"), lang) == f'to:"{get_settings().blog_url}"'


@pytest.mark.parametrize("lang", routes.LANGS)
def test_the_footer_shows_its_columns_and_legal_links_from_the_data(lang):
    rendered = str(footer(lang))
    words = loaded(lang, "navigation")  # as the loader gives them (French typography)
    expected = []
    for menu in navigation.FOOTER:
        expected.append(json.dumps(words["menus"][menu.key]))
        for link in menu.links:
            label = link.label or words["links"][link.key]
            expected.append(f"{_target(link, lang)}}},{json.dumps(label)}")
    expected += [f"{_target(link, lang)}}},{json.dumps(words['links'][link.key])}" for link in navigation.LEGAL]
    assert _in_order(rendered, expected), expected
    # The offers under their own names, each to its card of the pricing page.
    assert f'to:{json.dumps(routes.PRICING.path(lang) + "#engage")}}},"Engage"' in rendered


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"key": "x"}, "exactly one of"),
        ({"key": "x", "page": routes.PRICING, "url": "https://a.example"}, "exactly one of"),
        ({"key": "x", "url": "http://a.example"}, "starts with https"),
        ({"key": "x", "url_setting": "blog_address"}, "no setting 'blog_address'"),
        ({"key": "x", "url": "https://a.example", "anchor": "top"}, "anchor belongs to a page"),
    ],
)
def test_a_link_written_wrong_is_refused_with_what_to_fix(arguments, message):
    with pytest.raises(ValueError, match=message):
        Link(**arguments)


def test_a_link_goes_to_a_page_in_the_pages_language_with_its_anchor():
    assert Link("x", page=routes.PRICING, anchor="engage").href("en") == "/en/pricing#engage"
    assert Link("x", page=routes.ABOUT).href("en") == routes.ABOUT.fr  # a French-only page
    assert Link("x", url="https://a.example/b").href("fr") == "https://a.example/b"


# -- the logo row ----------------------------------------------------------------------------------


def test_the_logo_row_names_each_logo_and_links_those_with_a_site():
    rendered = str(
        logo_row(
            [Logo("Corvelle Gestion", "/partners/corvelle.svg", "https://corvelle.example"), Logo("Aubert", "/a.svg")],
            "Our partners",
        )
    )
    assert rendered.startswith('jsx("ul",{"aria-label":"Our partners",className:"logo-row"}')
    assert rendered.count('className:"logo-row__item"') == 2
    assert 'alt:"Corvelle Gestion",className:"logo-row__image"' in rendered
    assert 'height:64,loading:"lazy",src:"/partners/corvelle.svg",width:160' in rendered  # no layout shift
    assert 'className:"logo-row__link",rel:"noopener",to:"https://corvelle.example"' in rendered
    assert rendered.count("logo-row__link") == 1  # the other logo is not a link
    assert "home-trust" not in rendered
    css = (CONTENT.parent.parent / "assets" / "styles" / "logo-row.css").read_text()
    assert ".logo-row {" in css and "width: 160px;" in css and "height: 64px;" in css


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"name": " ", "image": "/a.svg"}, "organisation's name"),
        ({"name": "A", "image": "a.svg"}, "starting with /"),
        ({"name": "A", "image": "/a.svg", "url": "http://a.example"}, "https address"),
    ],
)
def test_a_logo_written_wrong_is_refused_with_what_to_fix(arguments, message):
    with pytest.raises(ValueError, match=message):
        Logo(**arguments)
