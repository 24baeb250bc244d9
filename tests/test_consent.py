"""Consent and conversions (lead-capture issue, issue 31): our banner, the six-month choice, and
each purpose's script (audience measurement, marketing) and the conversion event only after that
purpose's own consent.

The test build's ANALYTICS_SCRIPT_URL and MARKETING_SCRIPT_URL point at `/__test-analytics.js`
and `/__test-marketing.js` on the test site (see the Makefile); these tests answer them with
Playwright's interception and record every request to each. Before any script runs,
`window.dataLayer.push` is wrapped to record each push and whether the marketing script (the
one the conversion event belongs to) had loaded by then.
"""

from __future__ import annotations

import re
import time
from types import SimpleNamespace
from urllib.parse import parse_qs, quote

import pytest
from lead_payloads import fill_form

from marketing_site import routes
from marketing_site.components.consent import COOKIE_MAX_AGE_DAYS, COOKIE_NAME
from marketing_site.content.consent import PURPOSES
from marketing_site.content.words import words as site_words

pytestmark = pytest.mark.browser

ANALYTICS_PATH = "/__test-analytics.js"
MARKETING_PATH = "/__test-marketing.js"
RECORD_PUSHES = """
window.__pushes = [];
window.dataLayer = [];
window.dataLayer.push = function (event) {
  window.__pushes.push({event: event, scriptLoaded: window.__marketingLoads || 0});
  return Array.prototype.push.call(this, event);
};
"""
ANALYTICS_SCRIPT = "window.__analyticsLoads = (window.__analyticsLoads || 0) + 1;"
MARKETING_SCRIPT = "window.__marketingLoads = (window.__marketingLoads || 0) + 1;"
EN_PAGE = routes.WHITE_PAPER.en
FR_PAGE = routes.HOME.fr

words = SimpleNamespace(FR=site_words("fr", "consent"), EN=site_words("en", "consent"))


def _answer_with(body: str):
    """A route handler answering with this script (one argument: Playwright passes the request
    too to a handler that takes two)."""
    return lambda route: route.fulfill(status=200, content_type="text/javascript", body=body)


class Visit:
    """A page in a fresh browser context, with the analytics URL answered and recorded."""

    def __init__(self, new_page, site: str, **kwargs):
        self.site = site
        self.page = new_page(**kwargs)
        self.requests: list[str] = []  # to the analytics script
        self.marketing_requests: list[str] = []
        self.page.add_init_script(RECORD_PUSHES)
        self.page.context.on("request", self._record)
        for path, body in ((ANALYTICS_PATH, ANALYTICS_SCRIPT), (MARKETING_PATH, MARKETING_SCRIPT)):
            self.page.context.route(f"**{path}", _answer_with(body))

    def _record(self, request) -> None:
        if ANALYTICS_PATH in request.url:
            self.requests.append(request.url)
        elif MARKETING_PATH in request.url:
            self.marketing_requests.append(request.url)

    def goto(self, path: str) -> None:
        self.page.goto(self.site + quote(path, safe="/#"), wait_until="networkidle")
        self.page.wait_for_function("() => window.nereoConsent !== undefined")

    def reload(self) -> None:
        self.page.reload(wait_until="networkidle")
        self.page.wait_for_function("() => window.nereoConsent !== undefined")

    @property
    def banner(self):
        return self.page.get_by_role("dialog", name=words.FR["label"]).or_(
            self.page.get_by_role("dialog", name=words.EN["label"])
        )

    def track(self, name: str = "conversion", data: dict | None = None) -> bool:
        return self.page.evaluate(
            "([n, d]) => window.nereoConsent.track(n, d)", [name, data or {"form": "white_paper"}]
        )

    def pushes(self) -> list[dict]:
        return self.page.evaluate("window.__pushes")

    def cookie(self) -> dict | None:
        found = [c for c in self.page.context.cookies() if c["name"] == COOKIE_NAME]
        return found[0] if found else None

    def choice(self) -> dict[str, str]:
        cookie = self.cookie()
        assert cookie is not None
        return {k: v[0] for k, v in parse_qs(cookie["value"]).items()}


def _button(visit: Visit, lang: str, key: str):
    texts = words.FR if lang == "fr" else words.EN
    return visit.banner.get_by_role("button", name=texts[key], exact=True)


def _purpose(visit: Visit, lang: str, key: str):
    """The customise panel's checkbox of a consent purpose (content/consent.py)."""
    texts = words.FR if lang == "fr" else words.EN
    return visit.banner.get_by_role("checkbox", name=texts["purposes"][key]["label"])


@pytest.mark.parametrize(("path", "lang"), [(FR_PAGE, "fr"), (EN_PAGE, "en")])
def test_nothing_is_tracked_before_a_choice(new_page, site, page_errors, path, lang):
    visit = Visit(new_page, site)
    visit.goto(path)
    banner = visit.banner
    banner.wait_for()
    texts = words.FR if lang == "fr" else words.EN
    assert banner.get_attribute("aria-label") == texts["label"]
    assert banner.get_by_role("heading", name=texts["title"]).is_visible()
    assert banner.get_by_role("link").get_attribute("href") == routes.PRIVACY.path(lang)
    for key in ("accept_all", "refuse_all", "customise"):
        assert _button(visit, lang, key).is_visible()
    visit.page.wait_for_timeout(800)
    assert visit.track() is False
    visit.page.wait_for_timeout(500)
    assert visit.requests == [] and visit.marketing_requests == []
    assert visit.pushes() == []
    assert visit.page.evaluate("document.querySelector('script[id^=nereo-consent-]')") is None
    assert visit.cookie() is None
    assert page_errors == []


def test_refuse_all_sends_nothing_even_after_reload(new_page, site, page_errors):
    visit = Visit(new_page, site)
    visit.goto(EN_PAGE)
    _button(visit, "en", "refuse_all").click()
    visit.banner.wait_for(state="detached")
    assert visit.choice()["analytics"] == "0" and visit.choice()["marketing"] == "0"
    assert visit.track() is False
    visit.reload()
    visit.page.wait_for_timeout(500)
    assert visit.banner.count() == 0
    assert visit.track() is False
    visit.goto(FR_PAGE)
    visit.page.wait_for_timeout(500)
    assert visit.banner.count() == 0
    assert visit.track() is False
    visit.page.wait_for_timeout(300)
    assert visit.requests == [] and visit.marketing_requests == []
    assert visit.pushes() == []
    assert page_errors == []


def test_accept_all_on_an_english_page_sends_the_conversion_event(new_page, site, page_errors):
    visit = Visit(new_page, site)
    visit.goto(EN_PAGE)
    assert visit.requests == []
    _button(visit, "en", "accept_all").click()
    visit.banner.wait_for(state="detached")
    visit.page.wait_for_function("() => window.__analyticsLoads === 1 && window.__marketingLoads === 1")
    assert visit.requests == [site + ANALYTICS_PATH]
    assert visit.marketing_requests == [site + MARKETING_PATH]
    assert visit.choice()["analytics"] == "1" and visit.choice()["marketing"] == "1"
    assert visit.pushes() == []  # nothing is sent on its own
    # What the English lead form calls after a successful download.
    assert visit.track("conversion", {"form": "white_paper", "page": EN_PAGE}) is True
    assert visit.pushes() == [
        {"event": {"form": "white_paper", "page": EN_PAGE, "event": "conversion"}, "scriptLoaded": 1}
    ]
    # The choice persists: no banner after a reload, the script loads again by itself.
    visit.reload()
    visit.page.wait_for_function("() => window.__analyticsLoads === 1 && window.__marketingLoads === 1")
    assert visit.banner.count() == 0
    assert len(visit.requests) == 2 and len(visit.marketing_requests) == 2
    assert page_errors == []
    assert visit.page.state_sockets == []


def test_an_event_tracked_while_the_script_loads_is_sent_once_it_has(new_page, site):
    visit = Visit(new_page, site)
    visit.goto(EN_PAGE)
    # Accept and track in the same task: the script cannot have loaded yet.
    sent = visit.page.evaluate(
        "() => { window.nereoConsent.grant('marketing'); return window.nereoConsent.track('conversion', {n: 1}); }"
    )
    assert sent is True
    visit.page.wait_for_function("() => window.__pushes.length === 1")
    assert visit.pushes() == [{"event": {"n": 1, "event": "conversion"}, "scriptLoaded": 1}]


def test_the_choice_is_kept_six_months_in_a_first_party_cookie(new_page, site):
    visit = Visit(new_page, site)
    visit.goto(FR_PAGE)
    _button(visit, "fr", "accept_all").click()
    visit.banner.wait_for(state="detached")
    cookie = visit.cookie()
    assert cookie is not None
    lifetime_days = (cookie["expires"] - time.time()) / 86400
    assert COOKIE_MAX_AGE_DAYS - 1 < lifetime_days <= COOKIE_MAX_AGE_DAYS
    assert cookie["sameSite"] == "Lax"
    assert cookie["path"] == "/"
    assert cookie["domain"] == "127.0.0.1"
    assert visit.choice()["v"] == "1"


def test_a_choice_of_an_older_version_is_asked_again(new_page, site):
    visit = Visit(new_page, site)
    visit.page.context.add_cookies([{"name": COOKIE_NAME, "value": "v=0&analytics=1&marketing=1", "url": site}])
    visit.goto(EN_PAGE)
    visit.banner.wait_for()
    visit.page.wait_for_timeout(500)
    assert visit.track() is False
    assert visit.requests == [] and visit.marketing_requests == []


def test_an_earlier_analytics_only_choice_keeps_audience_and_asks_for_marketing(new_page, site, page_errors):
    """The banner before issue 31 stored one choice, `analytics`, for "audience and conversion
    measurement": it stays consent to audience measurement, never becomes consent to marketing,
    and the banner asks again (painted before hydration by the head gate) with it ticked."""
    visit = Visit(new_page, site)
    visit.page.context.add_cookies([{"name": COOKIE_NAME, "value": "v=1&analytics=1&ts=1700000000", "url": site}])
    visit.goto(EN_PAGE)
    visit.banner.wait_for()
    assert visit.page.evaluate("document.documentElement.dataset.consent") == "pending"
    visit.page.wait_for_function("() => window.__analyticsLoads === 1")
    visit.page.wait_for_timeout(300)
    assert visit.marketing_requests == []
    assert visit.page.evaluate("window.nereoConsent.has('marketing')") is False
    assert visit.track() is False
    _button(visit, "en", "customise").click()
    assert _purpose(visit, "en", "analytics").is_checked()
    assert not _purpose(visit, "en", "marketing").is_checked()
    _button(visit, "en", "save").click()
    visit.banner.wait_for(state="detached")
    assert visit.choice()["analytics"] == "1" and visit.choice()["marketing"] == "0"
    visit.reload()
    visit.page.wait_for_timeout(300)
    assert visit.banner.count() == 0 and visit.marketing_requests == []
    assert page_errors == []


@pytest.mark.parametrize(("chosen", "other"), [("analytics", "marketing"), ("marketing", "analytics")])
def test_each_purpose_loads_only_its_own_script_after_its_own_choice(new_page, site, page_errors, chosen, other):
    visit = Visit(new_page, site)
    visit.goto(EN_PAGE)
    _button(visit, "en", "customise").click()
    _purpose(visit, "en", chosen).check()
    assert not _purpose(visit, "en", other).is_checked()
    _button(visit, "en", "save").click()
    visit.banner.wait_for(state="detached")
    visit.page.wait_for_function(f"() => window.__{chosen}Loads === 1")
    visit.page.wait_for_timeout(300)
    requests = {"analytics": visit.requests, "marketing": visit.marketing_requests}
    assert requests[chosen] == [site + f"/__test-{chosen}.js"]
    assert requests[other] == []
    assert visit.choice()[chosen] == "1" and visit.choice()[other] == "0"
    # The conversion event is the marketing purpose's: sent with it, never with audience alone.
    assert visit.track() is (chosen == "marketing")
    visit.page.wait_for_timeout(200)
    assert len(visit.pushes()) == (1 if chosen == "marketing" else 0)
    assert page_errors == []


def test_customise_with_analytics_off_behaves_like_refuse(new_page, site, page_errors):
    visit = Visit(new_page, site)
    visit.goto(EN_PAGE)
    customise = _button(visit, "en", "customise")
    assert customise.get_attribute("aria-expanded") == "false"
    customise.click()
    assert customise.get_attribute("aria-expanded") == "true"
    panel = visit.page.locator(f'[id="{customise.get_attribute("aria-controls")}"]')
    necessary = panel.get_by_role("checkbox", name=words.EN["necessary_label"])
    assert necessary.is_checked() and necessary.is_disabled()
    # One box per purpose, in the order of content/consent.py, none ticked.
    assert panel.get_by_role("checkbox").count() == 1 + len(PURPOSES)
    for purpose in PURPOSES:
        assert not _purpose(visit, "en", purpose.key).is_checked()
        assert panel.get_by_text(words.EN["purposes"][purpose.key]["recipients"]).is_visible()
    assert panel.get_by_text(words.EN["always_on"]).is_visible()
    _button(visit, "en", "save").click()
    visit.banner.wait_for(state="detached")
    assert visit.choice()["analytics"] == "0" and visit.choice()["marketing"] == "0"
    visit.reload()
    visit.page.wait_for_timeout(500)
    assert visit.banner.count() == 0
    assert visit.track() is False
    visit.page.wait_for_timeout(300)
    assert visit.requests == [] and visit.marketing_requests == []
    assert visit.pushes() == []
    assert page_errors == []


def test_customise_with_analytics_on_loads_analytics(new_page, site):
    visit = Visit(new_page, site)
    visit.goto(FR_PAGE)
    _button(visit, "fr", "customise").click()
    _purpose(visit, "fr", "analytics").check()
    _button(visit, "fr", "save").click()
    visit.page.wait_for_function("() => window.__analyticsLoads === 1")
    assert visit.choice()["analytics"] == "1"


@pytest.mark.parametrize("where", ["privacy", "footer"])
def test_cookie_settings_reopen_the_banner(new_page, site, page_errors, where):
    visit = Visit(new_page, site)
    visit.goto(routes.PRIVACY.fr)
    _button(visit, "fr", "refuse_all").click()
    visit.banner.wait_for(state="detached")
    scope = visit.page.locator("#cookies" if where == "privacy" else "footer")
    settings = scope.get_by_role("button", name=words.FR["settings"])
    settings.click()
    visit.banner.wait_for()
    marketing = _purpose(visit, "fr", "marketing")
    assert not marketing.is_checked()  # the current choice
    marketing.check()
    _button(visit, "fr", "save").click()
    visit.banner.wait_for(state="detached")
    visit.page.wait_for_function("() => window.__marketingLoads === 1")
    assert visit.choice()["marketing"] == "1"
    assert visit.page.evaluate("document.activeElement.textContent") == words.FR["settings"]
    # Withdrawing is as easy: nothing more is sent (the loaded script stays in this page).
    settings.click()
    _button(visit, "fr", "refuse_all").click()
    assert visit.track() is False
    assert visit.pushes() == []
    assert page_errors == []


@pytest.mark.parametrize("width", [1280, 375])
def test_accept_and_refuse_are_equally_prominent_and_the_page_stays_usable(new_page, site, page_errors, width):
    visit = Visit(new_page, site, width=width, height=740)
    visit.goto(FR_PAGE)
    accept, refuse = _button(visit, "fr", "accept_all"), _button(visit, "fr", "refuse_all")
    style = (
        "e => { const s = getComputedStyle(e), r = e.getBoundingClientRect();"
        " return [Math.round(r.width), Math.round(r.height), s.backgroundColor, s.color, s.fontSize,"
        " s.fontWeight, s.borderTopWidth, s.borderTopColor, s.borderRadius]; }"
    )
    assert accept.evaluate(style) == refuse.evaluate(style)
    box = visit.banner.bounding_box()
    assert box["y"] + box["height"] == pytest.approx(740, abs=1)  # at the bottom
    assert box["height"] < 740 * 0.5  # never the whole window
    assert visit.banner.evaluate("e => getComputedStyle(e).position") == "fixed"
    assert visit.page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    # The page keeps room for it: the footer's last link can be scrolled clear of it.
    last = visit.page.locator("footer a").last
    last.scroll_into_view_if_needed()
    visit.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    visit.page.wait_for_timeout(200)
    assert last.bounding_box()["y"] + last.bounding_box()["height"] <= box["y"]
    # Choosing removes it without moving the page.
    top = visit.page.locator("main").evaluate("e => e.getBoundingClientRect().top + window.scrollY")
    accept.click()
    visit.banner.wait_for(state="detached")
    assert visit.page.locator("main").evaluate("e => e.getBoundingClientRect().top + window.scrollY") == top
    assert page_errors == []


def test_banner_is_keyboard_operable_with_visible_focus(new_page, site, page_errors):
    visit = Visit(new_page, site)
    visit.goto(EN_PAGE)
    visit.banner.wait_for()
    # The skip link is the first Tab stop (test_keyboard.py); the banner's controls come next.
    visit.page.keyboard.press("Tab")
    assert visit.page.evaluate("document.activeElement.classList.contains('skip-link')")
    visit.page.keyboard.press("Tab")
    assert visit.page.evaluate("document.activeElement.closest('[role=dialog]') !== null")
    focused = []
    for _ in range(4):
        focused.append(visit.page.evaluate("document.activeElement.textContent"))
        outline = visit.page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none", focused[-1]
        if focused[-1] == words.EN["customise"]:
            break
        visit.page.keyboard.press("Tab")
    assert focused == [words.EN["privacy_link"], words.EN["accept_all"], words.EN["refuse_all"], words.EN["customise"]]
    visit.page.keyboard.press("Enter")
    assert _button(visit, "en", "customise").get_attribute("aria-expanded") == "true"
    # The next Tab enters the panel (the necessary box is disabled): Space ticks analytics, the
    # next Tab reaches the marketing box.
    analytics = _purpose(visit, "en", "analytics")
    visit.page.keyboard.press("Tab")
    assert analytics.evaluate("e => e === document.activeElement")
    visit.page.keyboard.press("Space")
    assert analytics.is_checked()
    visit.page.keyboard.press("Tab")
    assert _purpose(visit, "en", "marketing").evaluate("e => e === document.activeElement")
    visit.page.keyboard.press("Tab")
    assert visit.page.evaluate("document.activeElement.textContent") == words.EN["save"]
    visit.page.keyboard.press("Enter")
    visit.banner.wait_for(state="detached")
    visit.page.wait_for_function("() => window.__analyticsLoads === 1")
    assert page_errors == []


def test_grant_and_revoke_drive_tracking(new_page, site):
    """The contract a third-party consent service relies on (see docs/security.md)."""
    visit = Visit(new_page, site)
    visit.goto(EN_PAGE)
    assert visit.page.evaluate("window.nereoConsent.has('marketing')") is False
    visit.page.evaluate("window.nereoConsent.grant('marketing')")
    visit.page.wait_for_function("() => window.__marketingLoads === 1")
    assert visit.requests == []  # audience measurement was not granted
    assert visit.track("conversion", {"n": 1}) is True
    visit.page.evaluate("window.nereoConsent.revoke('marketing')")
    assert visit.track("conversion", {"n": 2}) is False
    assert [p["event"]["n"] for p in visit.pushes()] == [1]


def _submit_english_white_paper(visit: Visit) -> None:
    form = visit.page.locator("form.lead-form")
    values = {"name": "Smith", "firstname": "Jane", "phone": "+44 20 7946 0000", "company": "Smith Wealth"}
    fill_form(form, "white_paper", "en", {**values, "email": f"conversion-{time.time_ns()}@example.com"})
    time.sleep(0.4)
    with visit.page.expect_download():
        form.get_by_role("button").click()
    visit.page.wait_for_function("() => location.pathname === '/en/merci'")


def test_english_form_success_fires_the_conversion_only_after_accept_all(new_page, site):
    visit = Visit(new_page, site)
    visit.goto(EN_PAGE)
    _button(visit, "en", "accept_all").click()
    _submit_english_white_paper(visit)
    conversions = [p["event"] for p in visit.pushes() if p["event"].get("event") == "conversion"]
    assert conversions == [{"event": "conversion", "form": "white_paper", "lang": "en"}]


def test_english_form_success_after_refuse_all_sends_nothing(new_page, site):
    visit = Visit(new_page, site)
    visit.goto(EN_PAGE)
    _button(visit, "en", "refuse_all").click()
    _submit_english_white_paper(visit)
    assert visit.pushes() == [] and visit.requests == [] and visit.marketing_requests == []


STORAGE_SNAPSHOT = """() => ({
  localStorage: Object.keys(window.localStorage),
  sessionStorage: Object.keys(window.sessionStorage),
})"""
LIFETIME_UNITS = {"jour": 86400, "jours": 86400, "minute": 60, "minutes": 60}


def _lifetime_seconds(text: str) -> int | None:
    count, _, unit = text.partition(" ")
    return int(count) * LIFETIME_UNITS[unit] if count.isdigit() else None


def test_privacy_cookie_table_lists_exactly_what_the_site_sets(new_page, site, page_errors):
    """A visit, a consent choice, a closed announcement, a login and a failed login: every cookie
    and storage key present (or set by a response) is in the privacy policy's table, with the
    lifetime it really has; every row of the table was really set."""
    from browser_checks import provider_login
    from conftest import TRIAL_USER

    visit = Visit(new_page, site)
    page = visit.page
    page.context.route(re.compile(r"https://cdn\.jsdelivr\.net/.*"), lambda route: route.abort())
    seen: dict[tuple[str, str], float | None] = {}  # (store, name) -> lifetime in seconds (cookies)

    def record_set_cookie(response) -> None:
        if not response.url.startswith(site):
            return
        for header in response.headers_array():
            if header["name"].lower() != "set-cookie":
                continue
            name, _, rest = header["value"].partition("=")
            max_age = re.search(r"(?i)max-age=(\d+)", rest)
            if max_age and int(max_age.group(1)) > 0:
                seen[("cookie", name)] = int(max_age.group(1))

    page.on("response", record_set_cookie)

    def snapshot() -> None:
        now = time.time()
        for cookie in page.context.cookies(site):
            seen.setdefault(("cookie", cookie["name"]), cookie["expires"] - now if cookie["expires"] > 0 else None)
        for store, keys in page.evaluate(STORAGE_SNAPSHOT).items():
            for key in keys:
                seen.setdefault((store, key), None)

    visit.goto(routes.PRIVACY.fr)
    snapshot()
    _button(visit, "fr", "accept_all").click()
    visit.banner.wait_for(state="detached")
    snapshot()
    # The audience measurement's opt-out writes its key (and only then).
    page.get_by_test_id("audience-opt-out").get_by_role("button").click()
    page.wait_for_function("() => document.querySelector('.audience-opt-out').dataset.state === 'opt-out'")
    snapshot()
    # A closed announcement is remembered (the client variables' key: reflex_internals/client_state.py).
    from browser_checks import shipped_announcement

    item, announced_path = shipped_announcement()
    visit.goto(announced_path)
    page.locator(f'[data-announcement="{item.key}"] button').click()
    page.wait_for_function("() => window.localStorage.getItem('nereo_client') !== null")
    snapshot()
    visit.goto(routes.PRIVACY.fr)
    page.get_by_test_id("nav-login").click()
    provider_login(page, TRIAL_USER)
    page.wait_for_url(site + quote(routes.PRIVACY.fr, safe="/"))
    page.get_by_test_id("logout").wait_for()
    snapshot()
    page.goto(site + "/auth/callback?code=abc&state=not-ours")  # a failed login: its error cookie
    page.get_by_test_id("auth-error").wait_for()
    snapshot()

    visit.goto(routes.PRIVACY.fr)
    rows = page.get_by_test_id("cookie-table").locator("tbody tr")
    table = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("th, td").all_inner_texts()
        name, store = re.fullmatch(r"(\S+) \((.+)\)", cells[0].strip()).groups()
        assert cells[1].strip() and cells[3].strip() in ("Strictement nécessaire", "Mesure d'audience")
        table[
            (
                {"cookie": "cookie", "stockage local": "localStorage", "stockage de session": "sessionStorage"}[store],
                name,
            )
        ] = _lifetime_seconds(cells[2].strip())
    ours = seen  # the test analytics script sets nothing: everything seen is the site's own
    assert set(ours) - set(table) == set(), "set by the site but missing from the privacy policy"
    # Reflex's reload guard is written only after a technical error, so no visit shows it.
    assert set(table) - set(ours) == {("sessionStorage", "reflex_last_reloaded_on_error")}
    for key, lifetime in ours.items():
        if key[0] == "cookie" and lifetime is not None:
            assert abs(lifetime - table[key]) < 120, (key, lifetime, table[key])
