"""The built-in demo scheduler in Chromium, on the production build, with the real SMTP server:
book from the demo page in both languages (keyboard only), read the invitation back with
icalendar, cancel through the mail's link; the 630 px box does not move while slots load and
nothing overflows from 320 to 1440 px."""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta
from email.header import decode_header, make_header
from email.message import Message
from zoneinfo import ZoneInfo

import httpx2
import pytest
from icalendar import Calendar
from lead_payloads import booking_payload, fill_form

CASES = {
    "fr": {
        "path": "/demo-nereo",
        "locale": "fr-FR",
        "zone": "America/New_York",
        "email": "helene.booking@example.com",
        "selected": "Créneau sélectionné",
        "booked": "Votre démonstration est réservée",
        "cancel_button": "Annuler la démonstration",
        "cancelled": "Votre démonstration est annulée",
        "day_offset": 1,
    },
    "en": {
        "path": "/en/demo-nereo",
        "locale": "en-GB",
        "zone": "Asia/Tokyo",
        "email": "oliver.booking@example.com",
        "selected": "Selected slot",
        "booked": "Your demo is booked",
        "cancel_button": "Cancel the demo",
        "cancelled": "Your demo is cancelled",
        "day_offset": 2,
    },
}
SCHEDULER = ".booking-scheduler"


def _calendar_part(message: Message) -> tuple[str, Calendar]:
    for part in message.walk():
        if part.get_content_type() == "text/calendar":
            return part.get_param("method"), Calendar.from_ical(part.get_payload(decode=True))
    raise AssertionError("no text/calendar part")


def _plain_text(message: Message) -> str:
    [part] = [p for p in message.walk() if p.get_content_type() == "text/plain"]
    return part.get_payload(decode=True).decode(part.get_content_charset())


def _to(smtp, address: str, count: int) -> list[Message]:
    found: list[Message] = []
    for _ in range(200):
        found = [m for m in smtp.received() if m["To"] == address]
        if len(found) >= count:
            break
        time.sleep(0.1)
    return found


# Layout boxes (offsets ignore the page's entrance transform): the scheduler and what follows it.
LAYOUT = """() => {
  const box = document.querySelector('.booking-scheduler');
  const next = box.parentElement.closest('section').nextElementSibling;
  return {height: box.offsetHeight, width: box.offsetWidth, top: box.offsetTop, next: next.offsetTop};
}"""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_book_a_demo_with_the_keyboard_then_cancel_it(lang, new_page, site, site_server, smtp, page_errors):
    case = CASES[lang]
    page = new_page(locale=case["locale"], timezone_id=case["zone"])
    held = []
    # Hold the slots request until the empty box is measured: the box must not move when they arrive.
    page.route("**/api/v1/booking/slots", lambda route: held.append(route))  # noqa: PLW0108 - Playwright tags the handler with an attribute: a bound builtin cannot carry one
    page.goto(site + case["path"])
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'loading'")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    before = page.evaluate(LAYOUT)
    assert before["height"] == 630
    held[0].continue_()
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'choose'")
    assert page.evaluate(LAYOUT) == before
    page.unroute("**/api/v1/booking/slots")

    assert case["zone"] in page.locator(".booking-scheduler__zone").inner_text()

    # Keyboard: move to another day with the arrow keys, then to the second slot, Enter chooses.
    first_day = page.locator(".booking-scheduler__day").first
    first_day.focus()
    for _ in range(case["day_offset"]):
        page.keyboard.press("ArrowRight")
    day = page.locator(".booking-scheduler__day[aria-checked='true']")
    assert day.evaluate("(node) => node === document.activeElement")
    assert day.get_attribute("data-value") == page.locator(".booking-scheduler__day").nth(
        case["day_offset"]
    ).get_attribute("data-value")
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")
    slot = page.locator(".booking-scheduler__slot[aria-checked='true']")
    slot_id = slot.get_attribute("data-value")
    assert slot.evaluate("(node) => node === document.activeElement")
    page.wait_for_function(
        "(expected) => document.querySelector('.booking-scheduler__live').textContent.startsWith(expected)",
        arg=case["selected"],
    )
    start = datetime.fromisoformat(slot_id.replace("Z", ":00+00:00"))
    local = start.astimezone(ZoneInfo(case["zone"]))
    assert slot.inner_text() == local.strftime("%H:%M")
    page.keyboard.press("Enter")

    # The demo form's fields (from their specs); the first has the focus.
    page.wait_for_function("() => document.activeElement?.id === 'booking-name'")
    fill_form(page.locator(SCHEDULER), "demo", lang, {"email": case["email"]})
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'booked'")
    assert case["booked"] in page.locator(".booking-scheduler__booked").inner_text()

    [(booking_id, uid, status, lead_form, _lead_email)] = site_server.query(
        "SELECT booking.id, uid, status, lead.form, lead.email FROM booking JOIN lead ON lead.id = booking.lead_id"
        " WHERE lead.email = ?",
        case["email"],
    )
    assert (status, lead_form) == ("confirmed", "demo")

    # The visitor's confirmation and the sales notification, each with the invitation.
    [visitor_mail] = _to(smtp, case["email"], 1)
    [sales_mail] = [m for m in smtp.wait_for(1, reply_to=case["email"]) if m["To"] != case["email"]]
    for message in (visitor_mail, sales_mail):
        method, calendar = _calendar_part(message)
        assert method == "REQUEST" and calendar["METHOD"] == "REQUEST"
        [event] = calendar.walk("VEVENT")
        assert str(event["UID"]) == uid
        assert event.decoded("DTSTART") == start
        assert event.decoded("DTEND") - event.decoded("DTSTART") == timedelta(minutes=30)
        assert event["DTSTART"].params["TZID"] == "Europe/Paris"
        assert [tz["TZID"] for tz in calendar.walk("VTIMEZONE")] == ["Europe/Paris"]
        assert str(event["ATTENDEE"]) == f"mailto:{case['email']}"
        assert str(event["ORGANIZER"]).startswith("mailto:")
        assert str(event["LOCATION"]).startswith("https://")
        assert any(part.get_filename() == "invitation.ics" for part in message.walk())
    # The visitor's mail speaks their time: the subject and the text show the slot in their zone.
    body = _plain_text(visitor_mail)
    assert local.strftime("%H:%M") in str(make_header(decode_header(visitor_mail["Subject"])))
    assert f"{local:%H:%M} ({case['zone']})" in body

    # The mail's cancel link: a page that asks first, then frees the slot and mails CANCEL.
    cancel_link = re.search(r"http://\S+/api/v1/booking/cancel\?\S+", body).group(0)
    assert slot_id not in httpx2.get(site + "/api/v1/booking/slots").json()["slots"]
    page.goto(cancel_link)
    assert site_server.query("SELECT status FROM booking WHERE id = ?", booking_id) == [("confirmed",)]
    page.get_by_role("button", name=case["cancel_button"]).click()
    page.wait_for_selector("[role=status]")
    assert case["cancelled"] in page.locator("main").inner_text()
    assert site_server.query("SELECT status FROM booking WHERE id = ?", booking_id) == [("cancelled",)]
    assert slot_id in httpx2.get(site + "/api/v1/booking/slots").json()["slots"]
    cancels = list(_to(smtp, case["email"], 2)[1:]) + [
        m for m in smtp.wait_for(2, reply_to=case["email"])[1:] if m["To"] != case["email"]
    ]
    assert len(cancels) == 2
    for message in cancels:
        method, calendar = _calendar_part(message)
        [event] = calendar.walk("VEVENT")
        assert method == "CANCEL" and str(event["UID"]) == uid and event["STATUS"] == "CANCELLED"
    assert page_errors == []
    assert page.state_sockets == []  # the scheduler talks to the JSON API, not to the state


@pytest.mark.parametrize("width", [320, 375, 768, 1024, 1440])
def test_the_scheduler_fits_every_width(width, new_page, site, page_errors):
    page = new_page(width=width, height=900)
    page.goto(site + "/demo-nereo")
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'choose'")
    assert page.evaluate(LAYOUT)["height"] == 630
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow == 0
    page.locator(".booking-scheduler__slot").first.click()
    page.get_by_role("button", name="Continuer avec ce créneau").click()
    page.wait_for_selector("#booking-name")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow == 0
    assert page_errors == []


def test_no_third_party_request_and_no_consent_needed(new_page, site, page_errors):
    """The scheduler works before the consent banner is answered, from our origin only."""
    page = new_page()
    hosts = set()
    page.on("request", lambda request: hosts.add(re.sub(r"^\w+://([^/]+).*$", r"\1", request.url)))
    page.goto(site + "/demo-nereo")
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'choose'")
    assert page.locator(".consent-banner").is_visible()  # the banner is still waiting for an answer
    assert hosts == {site.removeprefix("http://")}
    assert page.locator(".booking-scheduler__slot").count() > 0
    assert page_errors == []


def test_refusals_in_the_browser_are_clear_and_accessible(new_page, site, site_server, page_errors):
    """A slot taken meanwhile sends the visitor back to a refreshed calendar with the reason; a
    bad field is marked and explained; both states pass axe (WCAG 2.1 AA)."""
    from browser_checks import AXE, RUN_AXE

    page = new_page(width=375, height=900)
    page.add_init_script(path=str(AXE))
    page.goto(site + "/demo-nereo")
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'choose'")
    # The first slot shown: the day on screen may have only one left, late in the afternoon.
    slot = page.locator(".booking-scheduler__slot").first
    slot_id = slot.get_attribute("data-value")
    slot.click()
    page.get_by_role("button", name="Continuer avec ce créneau").click()
    # Another visitor books the same slot first.
    taken = httpx2.post(
        site + "/api/v1/booking",
        json=booking_payload(slot_id, email="quicker@example.com"),
    )
    assert taken.status_code == 201
    fill_form(page.locator(SCHEDULER), "demo", "fr", {"email": "slower@example.com"})
    page.get_by_role("button", name="Confirmer la réservation").click()
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'choose'")
    assert "Ce créneau vient d'être réservé" in page.get_by_role("alert").inner_text()
    assert page.locator(f".booking-scheduler__slot[data-value='{slot_id}']").count() == 0
    assert page.evaluate(RUN_AXE) == []

    page.locator(".booking-scheduler__slot").first.click()
    page.get_by_role("button", name="Continuer avec ce créneau").click()
    fill_form(page.locator(SCHEDULER), "demo", "fr", {"phone": "call me", "email": "slower@example.com"})
    booking_posts: list[str] = []
    page.on("request", lambda r: booking_posts.append(r.url) if r.method == "POST" else None)
    page.get_by_role("button", name="Confirmer la réservation").click()
    page.wait_for_selector("#booking-phone-error")
    assert page.get_attribute("#booking-phone", "aria-invalid") == "true"
    # The lead form's rule and message, in the page's language, before anything is sent.
    assert "de 6 à 20 chiffres" in page.inner_text("#booking-phone-error")
    assert booking_posts == []
    assert page.evaluate(RUN_AXE) == []
    assert site_server.query("SELECT COUNT(*) FROM lead WHERE email = ?", "slower@example.com") == [(0,)]
    # The page's own 409 and 422 answers are expected here; nothing else may fail.
    assert [e for e in page_errors if "/api/v1/booking" not in e] == []


# Every element of `root` with text: its text lines stay inside the element's own box and inside
# `root`, no box spills its content (scrollWidth beyond clientWidth with overflow visible), and
# the page scrolls no wider than the window.
TEXT_FAULTS = """(root) => {
  const frame = document.querySelector(root).getBoundingClientRect();
  const name = (e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '');
  const faults = [];
  for (const element of document.querySelectorAll(root + ', ' + root + ' *')) {
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    // Screen-reader-only text (the live region) is clipped to nothing on purpose.
    if (element.closest('.sr-only, .visually-hidden, [class$=__live]')) continue;
    if (element.clientWidth > 0 && style.overflowX === 'visible' && element.scrollWidth > element.clientWidth + 1)
      faults.push('spills: ' + name(element) + ' ' + element.scrollWidth + '/' + element.clientWidth);
    const own = element.getBoundingClientRect();
    // Inside a scrolling strip (the days), text beyond the strip is scrolled, not spilled:
    // the strip is the frame.
    let clip = frame;
    for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') { clip = up.getBoundingClientRect(); break; }
    }
    for (const node of element.childNodes) {
      if (node.nodeType !== 3 || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const line of range.getClientRects()) {
        if (line.width === 0) continue;
        if (line.right > clip.right + 1 || line.left < clip.left - 1) {
          if (clip === frame) faults.push('outside the frame: ' + name(element));
        } else if (line.right > frame.right + 1 || line.left < frame.left - 1) faults.push('outside the frame: ' + name(element));
        else if (style.display !== 'inline' && (line.right > own.right + 1 || line.left < own.left - 1))
          faults.push('outside its box: ' + name(element));
      }
    }
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth) faults.push('page ' + page.scrollWidth + ' px in ' + page.clientWidth);
  return [...new Set(faults)];
}"""
LONG_EMAIL = "marie-charlotte.de-la-tour-dauvergne.relations@banque-pri.fr"
# Every 16 px from 320 to 1440, and 375 (the width of the bug report: an iPhone's viewport).
FLOW_WIDTHS = sorted({*range(320, 1441, 16), 375})


def _sweep(page, root: str, phase: str) -> list[str]:
    faults = []
    for width in FLOW_WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        faults += [f"{phase} {width}px: {fault}" for fault in page.evaluate(TEXT_FAULTS, root)]
    return faults


def test_no_text_leaves_its_box_in_the_booking_flow_with_a_long_email(new_page, site, smtp, page_errors):
    assert len(LONG_EMAIL) == 60
    page = new_page(width=320, height=900)
    page.goto(site + "/demo-nereo")
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'choose'")
    faults = _sweep(page, ".booking-scheduler", "slots")
    page.set_viewport_size({"width": 320, "height": 900})
    page.locator(".booking-scheduler__slot").first.click()
    page.get_by_role("button", name="Continuer avec ce créneau").click()
    fill_form(page.locator(SCHEDULER), "demo", "fr", {"email": LONG_EMAIL})
    faults += _sweep(page, ".booking-scheduler", "form")
    page.set_viewport_size({"width": 320, "height": 900})
    page.get_by_role("button", name="Confirmer la réservation").click()
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'booked'")
    assert LONG_EMAIL in page.locator(".booking-scheduler__booked").inner_text()
    faults += _sweep(page, ".booking-scheduler", "booked")
    # The cancel page of the mail's link, then its answer.
    [mail] = _to(smtp, LONG_EMAIL, 1)
    page.goto(re.search(r"http://\S+/api/v1/booking/cancel\?\S+", _plain_text(mail)).group(0))
    faults += _sweep(page, "body", "cancel page")
    page.get_by_role("button", name="Annuler la démonstration").click()
    page.wait_for_selector("[role=status]")
    faults += _sweep(page, "body", "cancelled page")
    assert faults == []
    assert page_errors == []


def test_the_cancel_page_belongs_to_the_site(new_page, site, smtp, page_errors):
    """Reached from the mail: the site's logo, stylesheet, favicon and legal links, in the
    booking's language; never indexed, and no referrer for the token in its URL."""
    booked = httpx2.post(
        site + "/api/v1/booking",
        json=booking_payload(
            httpx2.get(site + "/api/v1/booking/slots").json()["slots"][-1],
            email="cancel.frame@example.com",
            lang="en",
            timezone="Europe/London",
        ),
    )
    assert booked.status_code == 201
    [mail] = _to(smtp, "cancel.frame@example.com", 1)
    link = re.search(r"http://\S+/api/v1/booking/cancel\?\S+", _plain_text(mail)).group(0)
    answer = httpx2.get(link)
    assert answer.headers["referrer-policy"] == "strict-origin"
    page = new_page(locale="fr-FR")
    page.goto(link)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("meta[name=robots]").get_attribute("content").startswith("noindex")
    assert page.locator("meta[name=referrer]").get_attribute("content") == "strict-origin"
    assert page.locator(".site-header .brand img[src='/logo.svg']").is_visible()
    assert page.locator("link[rel=icon]").get_attribute("href") == "/favicon.svg"
    # The site's stylesheet applies: the brand colour and the site's button.
    assert page.evaluate("getComputedStyle(document.querySelector('.brand')).display") != "inline"
    assert page.get_by_role("button", name="Cancel the demo").get_attribute("class") == "btn btn--primary"
    assert page.get_by_role("link", name="Legal notice").count() == 1
    assert httpx2.get(site + "/favicon.ico").status_code == 200
    assert page_errors == []


def test_a_booking_met_by_502_twice_is_sent_again_and_made_once(new_page, site, site_server, smtp):
    """Issue 33: the proxy answers 502 twice (a machine restarting); the scheduler sends the
    booking again by itself with the same Idempotency-Key, saying so, and the third request
    books the slot: one booking, the confirmation shown."""
    from marketing_site.content.words import words as site_words

    page = new_page(width=1280, height=900)
    page.goto(site + "/demo-nereo")
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'choose'")
    page.locator(".booking-scheduler__slot").first.click()
    page.get_by_role("button", name="Continuer avec ce créneau").click()
    email = f"retry-{time.time_ns()}@example.com"
    fill_form(page.locator(SCHEDULER), "demo", "fr", {"email": email})
    page.evaluate(
        """() => new MutationObserver(() => {
            const note = document.querySelector('.booking-scheduler .lead-form__retrying');
            if (note && window.__bookingRetrying === undefined) window.__bookingRetrying = note.innerText;
        }).observe(document.body, {childList: true, subtree: true, characterData: true})"""
    )
    keys: list[str | None] = []

    def restarting(route):
        if route.request.method != "POST":
            route.continue_()
            return
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) <= 2:
            route.fulfill(status=502, body="bad gateway")
        else:
            route.continue_()

    page.route("**/api/v1/booking", restarting)
    page.get_by_role("button", name="Confirmer la réservation").click()
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'booked'")
    assert page.evaluate("() => window.__bookingRetrying") == site_words("fr", "booking")["widget"]["retrying"]
    assert len(keys) == 3 and len(set(keys)) == 1 and keys[0]
    rows = site_server.query(
        "SELECT COUNT(*) FROM booking JOIN lead ON lead.id = booking.lead_id WHERE lead.email = ?", email
    )
    assert rows == [(1,)]
