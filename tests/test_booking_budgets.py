"""Bookings per client are bounded on the production site, and no client closes the scheduler to
the others (issue 30, finding 7: one IPv6 /64 booked all 132 slots in seconds, each booking
mailing a confirmation to any address; issue 39, finding 2: 24 bookings from 3 addresses closed
the scheduler to everyone for a day).

A site of its own, behind a trusted proxy (the test names each visitor in X-Forwarded-For), with
small limits: BOOKING_RATE_LIMIT_PER_IP counts a whole IPv6 /64 as one visitor, an email has
BOOKING_BUDGET_PER_EMAIL bookings a day whatever the address, an address BOOKING_BUDGET_PER_IP
whatever the emails, and the site's BOOKING_ALERT_PER_DAY refuses nobody; the booking widget
shows a refusal in the page's language.
"""

from __future__ import annotations

import httpx2
import pytest
from lead_payloads import booking_payload, fill_form
from servers import SiteServer, free_port

pytestmark = pytest.mark.browser

BOOK = "/api/v1/booking"
PER_IP, PER_EMAIL, PER_ADDRESS, ALERT = 4, 1, 2, 3
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
        BOOKING_BUDGET_PER_IP=str(PER_ADDRESS),
        BOOKING_ALERT_PER_DAY=str(ALERT),
    )
    server.migrate()
    server.start()
    yield server
    server.stop()


def _book(site: SiteServer, visitor: str | None, email: str, slot: str, lang: str = "fr") -> httpx2.Response:
    payload = booking_payload(slot, email=email, lang=lang)
    headers = {"X-Forwarded-For": visitor} if visitor else {}
    return httpx2.post(site.url + BOOK, json=payload, headers=headers, timeout=30)


def test_one_ipv6_64_is_one_visitor_and_each_client_has_its_budgets_and_no_one_closes_the_site(limited):
    slots = iter(httpx2.get(limited.url + "/api/v1/booking/slots").json()["slots"])
    # Three addresses of one /64, each written its own way: one visitor, PER_IP attempts.
    same_64 = ["2001:db8:5:6::1", "2001:DB8:5:6:ffff:0:0:9", "[2001:db8:5:6::abcd]:51000", "2001:db8:5:6::2"]
    statuses = [
        _book(limited, visitor, "x@example.com", "bad-slot").status_code for visitor in [*same_64, "2001:db8:5:6::3"]
    ]
    assert statuses == [422, 422, 422, 422, 429]
    assert _book(limited, "2001:db8:5:7::1", "x@example.com", "bad-slot").status_code == 422  # the next /64

    # One email, asked for from ever new addresses: its budget, then the reason and what to do.
    assert _book(limited, "2001:db8:a:1::1", SPENT, next(slots)).status_code == 201
    refused = _book(limited, "2001:db8:a:2::1", SPENT.upper(), next(slots))
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
    assert refused.json()["errors"]["form"].startswith("Cette adresse e-mail a déjà réservé")
    assert "contact@nereo-wealth.fr" in refused.json()["errors"]["form"]

    # One address, ever new emails: its budget, then the site's words (closed to it for now).
    office = "203.0.113.50"
    assert [_book(limited, office, f"colleague{n}@example.com", next(slots)).status_code for n in range(2)] == [201] * 2
    over = _book(limited, office, "colleague9@example.com", next(slots), lang="en")
    assert over.status_code == 429
    assert over.json()["errors"]["form"].startswith("Online booking is full for now")

    # Past the site's figure (ALERT), other clients still book: an alert, not a refusal.
    assert [_book(limited, f"198.51.100.{n}", f"late{n}@example.com", next(slots)).status_code for n in range(3)] == [
        201
    ] * 3
    assert limited.query("SELECT COUNT(*) FROM booking") == [(6,)]
    assert limited.query("SELECT COUNT(*) FROM outbox_message") == [(12,)]


@pytest.fixture(scope="module")
def widget_address_spent(limited):
    """The budget of the browser's address (its pages reach the site from 127.0.0.1, without
    X-Forwarded-For), spent by two bookings from elsewhere in the building."""
    slots = httpx2.get(limited.url + "/api/v1/booking/slots").json()["slots"]
    for n, slot in enumerate(slots[-PER_ADDRESS:]):
        assert _book(limited, None, f"building{n}@example.com", slot).status_code == 201


@pytest.mark.parametrize(
    ("path", "proceed", "confirm", "reason"),
    [
        ("/demo-nereo", "Continuer avec ce créneau", "Confirmer la réservation", "La réservation en ligne"),
        ("/en/demo-nereo", "Continue with this slot", "Confirm booking", "Online booking is full for now"),
    ],
)
def test_the_widget_says_why_a_booking_is_refused(
    limited, widget_address_spent, new_page, page_errors, path, proceed, confirm, reason
):
    """The browser's own address has spent its budget: the visitor reads why, in the page's
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
