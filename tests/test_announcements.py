"""Announcements as data (content/announcements.py, content/<lang>/announcements.yaml) and their
strip (components/announcement.py): dates read as Paris days, one cut-off instant for the server
and the visitor, the pages each shows on, a named region with a named close button, the focus
after closing, nothing for the server to do. Build-free; tests/test_client_state_browser.py shows
the strip in Chromium (closed and remembered, no flash, the focus, scripts blocked)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from reflex.compiler.compiler import compile_page

from marketing_site import routes
from marketing_site.components import announcement as strip
from marketing_site.components import client_variables
from marketing_site.components.layout import MAIN_ID, site_layout
from marketing_site.content import announcements as content
from marketing_site.content.announcements import Announcement
from marketing_site.reflex_internals.client_state import ClientVar

CONTENT = Path(content.__file__).parent


def announced(monkeypatch, *items: Announcement) -> None:
    """The site's announcements are `items` (with their client variables, as at import)."""
    monkeypatch.setattr(content, "ANNOUNCEMENTS", items)
    monkeypatch.setattr(strip, "ON_AIR", {a.key: client_variables.announcement_on(a) for a in items})
    monkeypatch.setattr(
        strip, "CLOSED", {a.key: client_variables.announcement_closed(a) for a in items if a.dismissible}
    )


def words_for(monkeypatch, **items: dict) -> None:
    """Words of test announcements, in both languages."""
    from marketing_site.content import words as loader

    original = loader.words

    def words(lang, key, fallback="fr"):
        name, _, rest = key.partition(".items.")
        if name == "announcements" and rest in items:
            return items[rest]
        return original(lang, key, fallback)

    monkeypatch.setattr(strip, "words", words)


# -- the data --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"key": "Fair-2027"}, "lowercase letters"),
        ({"key": "fair", "pages": ("home", "partners")}, r"no page \['partners'\]"),
        ({"key": "fair", "ends": date(2027, 8, 31)}, "ends .* before it starts"),
        ({"key": "fair", "starts": datetime(2027, 9, 1, 9)}, "needs a time zone"),
        ({"key": "fair", "link": "http://fair.example"}, "an https address"),
        ({"key": "fair", "link": "page:fair"}, "no page 'fair'"),
    ],
)
def test_an_announcement_written_wrong_is_refused_at_import_with_what_to_fix(arguments, message):
    values = {"starts": date(2027, 9, 1), "ends": date(2027, 9, 25), **arguments}
    with pytest.raises(ValueError, match=message):
        Announcement(**values)


@pytest.mark.parametrize(
    ("last_day", "cut_off"),
    [
        (date(2027, 9, 25), datetime(2027, 9, 25, 22, tzinfo=UTC)),  # summer time: UTC+2
        (date(2027, 12, 31), datetime(2027, 12, 31, 23, tzinfo=UTC)),  # winter time: UTC+1
        (date(2027, 10, 30), datetime(2027, 10, 30, 22, tzinfo=UTC)),  # the night the clocks go back
    ],
)
def test_the_last_day_ends_at_midnight_in_paris_one_instant_for_everyone(last_day, cut_off):
    item = Announcement("fair", starts=date(2027, 9, 1), ends=last_day)
    assert item.ends_at == cut_off
    assert item.is_on(cut_off - timedelta(microseconds=1)) and not item.is_on(cut_off) and item.is_over(cut_off)
    assert item.starts_at == datetime(2027, 8, 31, 22, tzinfo=UTC)
    assert not item.is_on(item.starts_at - timedelta(microseconds=1)) and item.is_on(item.starts_at)
    # The variable the visitor's browser reads carries the same instants.
    assert client_variables.announcement_on(item).spec()["window"] == [
        round(item.starts_at.timestamp() * 1000),
        round(cut_off.timestamp() * 1000),
    ]


def test_an_exact_instant_and_no_end_are_kept_as_written():
    at = datetime(2027, 9, 25, 18, tzinfo=UTC)
    assert Announcement("outage", starts=date(2027, 9, 1), ends=at, dismissible=False).ends_at == at
    forever = Announcement("welcome", starts=date(2020, 1, 1), ends=None)
    assert forever.ends_at is None and forever.is_on(datetime(2999, 1, 1, tzinfo=UTC))
    assert client_variables.announcement_on(forever).spec()["window"][1] is None


def test_a_page_carries_the_announcements_of_its_page_that_are_not_over_when_it_is_built(monkeypatch):
    everywhere = Announcement("everywhere", starts=date(2027, 9, 1), ends=date(2027, 9, 25))
    home_only = Announcement("home_only", starts=date(2027, 9, 10), ends=None, pages=("home",))
    monkeypatch.setattr(content, "ANNOUNCEMENTS", (everywhere, home_only))
    during = datetime(2027, 9, 12, tzinfo=UTC)
    assert [a.key for a in content.carried("home", during)] == ["everywhere", "home_only"]
    assert [a.key for a in content.carried("pricing", during)] == ["everywhere"]
    assert [a.key for a in content.carried(None, during)] == ["everywhere"]  # a not-found page
    # Not started yet: carried (hidden until the visitor's clock reaches it). Over: left out.
    assert [a.key for a in content.carried("home", datetime(2027, 1, 1, tzinfo=UTC))] == ["everywhere", "home_only"]
    assert [a.key for a in content.carried("home", datetime(2027, 9, 26, tzinfo=UTC))] == ["home_only"]


def test_every_announcement_has_its_words_in_every_language():
    for lang in routes.LANGS:
        written = yaml.safe_load((CONTENT / lang / "announcements.yaml").read_text(encoding="utf-8"))
        assert written["label"] and written["close"]
        for item in content.ANNOUNCEMENTS:
            own = written["items"][item.key]
            assert own["text"].strip(), (lang, item.key)
            assert bool(own.get("link")) == bool(item.link), (lang, item.key)


# -- the strip ---------------------------------------------------------------------------------------


def _compiled(path: str) -> str:
    return compile_page("x", strip.announcements(path, focus_after_close=MAIN_ID))[1]


def test_the_strip_is_a_named_region_with_a_named_close_button_that_moves_the_focus(monkeypatch):
    fair = Announcement("fair", starts=date(2020, 1, 1), ends=None, link="page:demo", pages=("home",))
    announced(monkeypatch, fair)
    words_for(monkeypatch, fair={"text": "Meet us at the fair.", "link": "Book a meeting"})
    code = _compiled(routes.HOME.path("en"))
    assert '"aria-label":"Announcement"' in code  # a <section> with a name: a region
    assert 'jsx("section",' in code
    assert '"aria-label":"Close the announcement"' in code
    assert '"aria-describedby":"announcement-fair"' in code and 'id:"announcement-fair"' in code
    assert 'to:"/en/demo-nereo"},"Book a meeting"' in code
    # Closing: remembered under the key, then the focus goes to the page's content, not scrolled.
    assert '"name": "announcement_fair_closed"' in code and '"key": "nereo_client"' in code
    assert f"document.getElementById({json.dumps(MAIN_ID)})?.focus({{ preventScroll: true }})" in code
    # Nothing for the server: no state event (no websocket), nothing evaluated from a string.
    assert "reflex___state" not in code and "_call_script" not in code
    # Hidden while off its dates or closed, from the first paint; the button needs a script.
    assert '"data-client-hide":"announcement_fair_on=false announcement_fair_closed=true"' in code
    assert '"data-client-script-only":""' in code
    assert "data-client-hidden-at-build" not in code  # on at build: shown without scripts
    assert "\"data-on-air\":refs['_client_state_dict_client_announcement_fair_on']" in code
    assert 'useClientVar({"name": "announcement_fair_on"' in code  # the clock read again on mount
    assert _compiled(routes.PRICING.path("en")).count("jsx(") <= 2  # not on this page


def test_an_announcement_not_started_when_built_is_carried_hidden_and_one_not_dismissible_has_no_button(
    monkeypatch,
):
    soon = Announcement("soon", starts=datetime.now(UTC).date() + timedelta(days=3), ends=None, dismissible=False)
    announced(monkeypatch, soon)
    words_for(monkeypatch, soon={"text": "Maintenance on Sunday."})
    code = _compiled(routes.HOME.path("fr"))
    assert '"data-client-hidden-at-build":""' in code  # hidden without scripts, as the build's clock says
    assert '"data-client-hide":"announcement_soon_on=false"' in code
    assert "button" not in code and "_closed" not in code


def test_two_announcements_on_a_page_are_two_regions_with_different_names(monkeypatch):
    first = Announcement("first", starts=date(2020, 1, 1), ends=None)
    second = Announcement("second", starts=date(2020, 1, 1), ends=None)
    announced(monkeypatch, first, second)
    words_for(monkeypatch, first={"text": "One."}, second={"text": "Two."})
    code = _compiled(routes.HOME.path("fr"))
    assert '"aria-label":"Annonce 1/2"' in code and '"aria-label":"Annonce 2/2"' in code


def test_the_layout_puts_the_strip_after_the_skip_link_and_before_the_navbar():
    page = routes.PRICING
    body = __import__(f"marketing_site.pages.{page.key}", fromlist=["page"]).page
    for lang in routes.LANGS:
        rendered = str(site_layout(page.path(lang), body(lang)))
        skip, region, navbar = (rendered.index(mark) for mark in ("skip-link", '"data-announcement":', "SiteHeader"))
        assert skip < region < navbar
    home = str(
        site_layout(routes.HOME.path("fr"), __import__("marketing_site.pages.home", fromlist=["page"]).page("fr"))
    )
    shipped = [a for a in content.ANNOUNCEMENTS if a.pages and "home" not in a.pages]
    for item in shipped:
        assert f'"data-announcement":"{item.key}"' not in home


def test_an_announcement_needs_its_variables_declared_before_the_head_is_built():
    """The strip's variables are declared at import from the content (the app builds the head
    from them after): each announcement on air has its dates, each dismissible one its closing."""
    now = datetime.now(UTC)
    for item in content.ANNOUNCEMENTS:
        if item.is_over(now):
            continue
        assert isinstance(strip.ON_AIR[item.key], ClientVar)
        assert (item.key in strip.CLOSED) == item.dismissible
