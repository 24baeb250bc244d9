"""Bookings per client are bounded on the production site (issue 30, finding 7: one IPv6 /64
booked all 132 slots in seconds, each booking mailing a confirmation to any address).

A site of its own, behind a trusted proxy (the test names each visitor in X-Forwarded-For), with
small limits: BOOKING_RATE_LIMIT_PER_IP counts a whole IPv6 /64 as one visitor, an email has
BOOKING_BUDGET_PER_EMAIL bookings a day and the site BOOKING_BUDGET_PER_DAY, whatever the
address; the booking widget shows the refusal in the page's language.
"""

from __future__ import annotations

import httpx2
import pytest
from lead_payloads import booking_payload, fill_form
from servers import SiteServer, free_port

pytestmark = pytest.mark.browser

BOOK = "/api/v1/booking"
PER_IP, PER_EMAIL, PER_DAY = 2, 1, 3
SPENT = "spent@example.com"


@pytest.fixture(scope="module")
def limited(workdir):
    server = SiteServer(
        free_port(),
        workdir,
        workers=1,
        TRUSTED_PROXIES="127.0.0.1",
        BOOKING_RATE_LIMIT_PER_IP=str(PER_IP),
        BOOKING_BUDGET_PER_EMAIL=str(PER_EMAIL),
        BOOKING_BUDGET_PER_DAY=str(PER_DAY),
    )
    server.migrate()
    server.start()
    yield server
    server.stop()


def _book(site: SiteServer, visitor: str, email: str, slot: str, lang: str = "fr") -> httpx2.Response:
    payload = booking_payload(slot, email=email, lang=lang)
    return httpx2.post(site.url + BOOK, json=payload, headers={"X-Forwarded-For": visitor}, timeout=30)


def test_one_ipv6_64_is_one_visitor_and_an_email_and_the_site_have_their_budgets(limited):
    slots = httpx2.get(limited.url + "/api/v1/booking/slots").json()["slots"]
    # Three addresses of one /64, each written its own way: one visitor, PER_IP attempts.
    same_64 = ["2001:db8:5:6::1", "2001:DB8:5:6:ffff:0:0:9", "[2001:db8:5:6::abcd]:51000"]
    statuses = [_book(limited, visitor, "x@example.com", "bad-slot").status_code for visitor in same_64]
    assert statuses == [422, 422, 429]
    assert _book(limited, "2001:db8:5:7::1", "x@example.com", "bad-slot").status_code == 422  # the next /64

    # One email, asked for from ever new addresses: its budget, then the reason and what to do.
    assert _book(limited, "2001:db8:a:1::1", SPENT, slots[0]).status_code == 201
    refused = _book(limited, "2001:db8:a:2::1", SPENT.upper(), slots[1])
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
    assert refused.json()["errors"]["form"].startswith("Cette adresse e-mail a déjà réservé")
    assert "contact@nereo-wealth.fr" in refused.json()["errors"]["form"]

    # The site's budget: PER_DAY bookings a day, whoever asks.
    booked = [_book(limited, f"203.0.113.{n}", f"visitor{n}@example.com", slots[n]).status_code for n in (2, 3)]
    assert booked == [201, 201]
    over = _book(limited, "203.0.113.9", "late@example.com", slots[4], lang="en")
    assert over.status_code == 429
    assert over.json()["errors"]["form"].startswith("Online booking is full for now")
    assert limited.query("SELECT COUNT(*) FROM booking") == [(PER_DAY,)]
    assert limited.query("SELECT COUNT(*) FROM outbox_message") == [(2 * PER_DAY,)]


@pytest.mark.parametrize(
    ("path", "proceed", "confirm", "reason"),
    [
        ("/demo-nereo", "Continuer avec ce créneau", "Confirmer la réservation", "La réservation en ligne"),
        ("/en/demo-nereo", "Continue with this slot", "Confirm booking", "Online booking is full for now"),
    ],
)
def test_the_widget_says_why_a_booking_is_refused(limited, new_page, page_errors, path, proceed, confirm, reason):
    """After the test above the site's budget is spent: the visitor reads why, in the page's
    language, with the address to write to, and nothing is stored."""
    page = new_page()
    page.goto(limited.url + path)
    page.wait_for_function("() => document.querySelector('.booking-scheduler')?.dataset.phase === 'choose'")
    page.locator(".booking-scheduler__slot").first.click()
    page.get_by_role("button", name=proceed).click()
    lang = "en" if path.startswith("/en/") else "fr"
    fill_form(page.locator(".booking-scheduler"), "demo", lang, {"email": "widget@example.com"})
    page.get_by_role("button", name=confirm).click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert alert.inner_text().startswith(reason) and "contact@nereo-wealth.fr" in alert.inner_text()
    assert limited.query("SELECT COUNT(*) FROM lead WHERE email = ?", "widget@example.com") == [(0,)]
    assert [e for e in page_errors if BOOK not in e] == []  # the 429 itself is expected
