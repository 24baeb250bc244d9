"""The booking API on the production site: a slot is booked once even when many visitors confirm
it at the same instant on two workers (SQLite here; PostgreSQL and Redis when TEST_DATABASE_URL
and TEST_REDIS_URL are set), each refusal answers clearly and changes nothing, and a forged or
expired cancel link frees nothing."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import httpx2
import pytest
from lead_payloads import form_values
from servers import SiteServer, free_port

SLOTS = "/api/v1/booking/slots"
BOOK = "/api/v1/booking"
CANCEL = "/api/v1/booking/cancel"
# The demo form's fields (from their specs; the email is each test's), the page's language, the zone.
CONTACT = form_values(
    "demo",
    name="Martin",
    firstname="Paul",
    phone="+33 6 12 34 56 78",
    company="Gestion Privée Martin",
    lang="fr",
    timezone="Europe/Paris",
)


def _counts(server: SiteServer) -> tuple[int, int, int]:
    [(bookings,)] = server.query("SELECT COUNT(*) FROM booking")
    [(leads,)] = server.query("SELECT COUNT(*) FROM lead")
    [(mails,)] = server.query("SELECT COUNT(*) FROM outbox_message")
    return bookings, leads, mails


@pytest.fixture(scope="module")
def two_workers(workdir):
    """A site with two backend workers (on PostgreSQL and Redis when the engines are given)."""
    server = SiteServer(free_port(), workdir, workers=2, BOOKING_RATE_LIMIT_PER_IP="1000")
    server.migrate()
    server.start()
    yield server
    server.stop()


def test_a_slot_confirmed_at_the_same_instant_by_many_visitors_is_booked_once(two_workers):
    slots = httpx2.get(two_workers.url + SLOTS).json()["slots"]
    visitors = 12
    for slot in slots[:3]:
        barrier = threading.Barrier(visitors)
        statuses: list[int] = []

        def confirm(
            n: int, slot: str = slot, barrier: threading.Barrier = barrier, statuses: list[int] = statuses
        ) -> None:
            payload = {**CONTACT, "email": f"visitor{n}@example.com", "slot": slot}
            with httpx2.Client(timeout=30) as client:
                barrier.wait()
                statuses.append(client.post(two_workers.url + BOOK, json=payload).status_code)

        threads = [threading.Thread(target=confirm, args=(n,)) for n in range(visitors)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [201] + [409] * (visitors - 1), statuses
        start = datetime.fromisoformat(slot.replace("Z", ":00+00:00"))
        rows = two_workers.query("SELECT status FROM booking WHERE status = 'confirmed'")
        assert len(rows) == slots.index(slot) + 1
        assert slot not in httpx2.get(two_workers.url + SLOTS).json()["slots"]
        assert start > datetime.now(UTC)
    # The losers' leads were rolled back with their booking: one lead and two mails per slot.
    assert _counts(two_workers) == (3, 3, 6)


def test_the_same_request_again_is_the_same_booking(two_workers):
    slot = httpx2.get(two_workers.url + SLOTS).json()["slots"][-1]
    payload = {**CONTACT, "email": "twice@example.com", "slot": slot}
    headers = {"Idempotency-Key": "retry-of-one-booking"}
    first = httpx2.post(two_workers.url + BOOK, json=payload, headers=headers)
    again = httpx2.post(two_workers.url + BOOK, json=payload, headers=headers)
    assert (first.status_code, again.status_code) == (201, 201)
    assert two_workers.query(
        "SELECT COUNT(*) FROM booking JOIN lead ON lead.id = booking.lead_id WHERE email = ?", "twice@example.com"
    ) == [(1,)]


def test_someone_elses_idempotency_key_never_returns_their_booking(site, site_server):
    """The key is scoped to the client and the payload: another visitor sending the same key books
    their own slot, and never learns the first visitor's."""
    slots = httpx2.get(site + SLOTS).json()["slots"]
    key = {"Idempotency-Key": f"shared-{time.time_ns()}"}
    alice = {**CONTACT, "email": "alice.booking@example.com", "slot": slots[12]}
    mallory = {**CONTACT, "email": "mallory.booking@example.com", "slot": slots[13]}
    with _from("127.0.0.31") as first, _from("127.0.0.32") as second:
        booked = first.post(site + BOOK, json=alice, headers=key)
        again = first.post(site + BOOK, json=alice, headers=key)
        other = second.post(site + BOOK, json=mallory, headers=key)
    assert (booked.status_code, booked.json()["slot"]) == (201, slots[12])
    assert (again.status_code, again.json()["slot"]) == (201, slots[12])
    assert (other.status_code, other.json()["slot"]) == (201, slots[13])
    count = "SELECT COUNT(*) FROM booking JOIN lead ON lead.id = booking.lead_id WHERE email = ?"
    assert site_server.query(count, alice["email"]) == [(1,)]
    assert site_server.query(count, mallory["email"]) == [(1,)]


def _from(address: str) -> httpx2.Client:
    """A visitor connecting from `address` (any 127.x.y.z reaches loopback on Linux)."""
    return httpx2.Client(transport=httpx2.HTTPTransport(local_address=address), timeout=30)


def _slot_id(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%MZ")


def _next_sunday_3am_utc() -> datetime:
    today = datetime.now(UTC).replace(hour=3, minute=0, second=0, microsecond=0)
    return today + timedelta(days=(6 - today.weekday()) % 7 or 7)


def test_each_refusal_is_clear_and_changes_nothing(site, site_server):
    slots = httpx2.get(site + SLOTS).json()["slots"]
    taken = slots[5]
    assert httpx2.post(site + BOOK, json={**CONTACT, "email": "first@example.com", "slot": taken}).status_code == 201
    on_grid = datetime.fromisoformat(slots[6].replace("Z", ":00+00:00"))
    cases = {
        "past": (_slot_id(datetime.now(UTC) - timedelta(days=1)), 422, "déjà passé"),
        "outside hours": (_slot_id(_next_sunday_3am_utc()), 422, "en dehors des heures"),
        "taken": (taken, 409, "vient d'être réservé"),
        "tampered (off the grid)": (_slot_id(on_grid + timedelta(minutes=7)), 422, "n'existe pas"),
        "tampered (not an id)": (slots[6] + "' OR 1=1", 422, "n'existe pas"),
    }
    before = _counts(site_server)
    for name, (slot, status, words) in cases.items():
        response = httpx2.post(site + BOOK, json={**CONTACT, "email": "second@example.com", "slot": slot})
        assert response.status_code == status, name
        assert words in response.json()["errors"]["slot"], name
    english = httpx2.post(site + BOOK, json={**CONTACT, "lang": "en", "email": "second@example.com", "slot": taken})
    assert english.json()["errors"]["slot"] == "This time slot has just been booked. Choose another slot."
    not_json = httpx2.post(
        site + BOOK, content=b"slot=1", headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert not_json.status_code == 415
    assert _counts(site_server) == before


def _arabic_indic(digits: str) -> str:
    return "".join(chr(0x0660 + int(d)) for d in digits)


def test_forged_or_expired_cancel_links_free_nothing(site, site_server):
    from marketing_site.db.booking import new_cancel_key
    from marketing_site.services.booking import _cancel_signature, cancel_token

    slot = httpx2.get(site + SLOTS).json()["slots"][7]
    assert httpx2.post(site + BOOK, json={**CONTACT, "email": "keep@example.com", "slot": slot}).status_code == 201
    [(booking_id, cancel_key)] = site_server.query(
        "SELECT booking.id, cancel_key FROM booking JOIN lead ON lead.id = booking.lead_id WHERE email = ?",
        "keep@example.com",
    )
    valid = cancel_token(cancel_key, datetime.fromisoformat(slot.replace("Z", ":00+00:00")))
    ident, expiry, signature = valid.split(".")
    # The form mailed before migration 0015, signed by this site: `<row id>.<expiry>`.
    retired = f"{booking_id}.{expiry}"
    links = {
        "forged signature": (f"{ident}.{expiry}.{signature[::-1]}", 400, "pas valide"),
        "another booking": (f"{new_cancel_key()}.{expiry}.{signature}", 400, "pas valide"),
        "later expiry": (f"{ident}.{int(expiry) + 86400}.{signature}", 400, "pas valide"),
        "expired": (cancel_token(cancel_key, datetime.now(UTC) - timedelta(minutes=1)), 410, "a expiré"),
        "retired form (a row id)": (f"{retired}.{_cancel_signature(retired)}", 410, "version précédente"),
        "garbage": ("<script>", 400, "pas valide"),
        # Aliases of the valid token: the signature covers the text as sent, ASCII digits only.
        "leading zero": (f"{ident}.0{expiry}.{signature}", 400, "pas valide"),
        "another case": (f"{ident.swapcase()}.{expiry}.{signature}", 400, "pas valide"),
        "expiry in other digits": (f"{ident}.{_arabic_indic(expiry)}.{signature}", 400, "pas valide"),
        # Hostile numbers and characters: a 4xx, never a 500 (OverflowError, TypeError).
        "huge expiry": (f"{ident}.{'9' * 400}.{signature}", 400, "pas valide"),
        "huge id": (f"{'9' * 5000}.{expiry}.{signature}", 400, "pas valide"),
        "negative expiry": (f"{ident}.-{expiry}.{signature}", 400, "pas valide"),
        "non-ASCII signature": (f"{ident}.{expiry}.{'é' * len(signature)}", 400, "pas valide"),
        "four parts": (f"{ident}.{expiry}.{signature}.{signature}", 400, "pas valide"),
    }
    before = _counts(site_server)
    for name, (token, status, words) in links.items():
        page = httpx2.get(site + CANCEL, params={"token": token})
        assert (page.status_code, words in page.text) == (status, True), name
        post = httpx2.post(site + CANCEL, data={"token": token})
        assert (post.status_code, words in post.text) == (status, True), name
        assert "<script>" not in post.text
    assert site_server.query("SELECT status FROM booking WHERE id = ?", booking_id) == [("confirmed",)]
    assert _counts(site_server) == before
    english = httpx2.get(site + CANCEL, params={"token": "x", "lang": "en"})
    assert "This cancellation link is not valid" in english.text
    # A GET (a mail scanner following the link) asks; only the form's POST cancels.
    assert "Annuler la démonstration" in httpx2.get(site + CANCEL, params={"token": valid}).text
    assert site_server.query("SELECT status FROM booking WHERE id = ?", booking_id) == [("confirmed",)]


def test_a_cancel_posted_from_another_site_is_refused(site, site_server):
    """The cancel form is the site's own page; a cross-site POST (even with a stolen link) frees nothing."""
    from marketing_site.services.booking import cancel_token

    slot = httpx2.get(site + SLOTS).json()["slots"][10]
    assert httpx2.post(site + BOOK, json={**CONTACT, "email": "stay@example.com", "slot": slot}).status_code == 201
    [(booking_id, cancel_key)] = site_server.query(
        "SELECT booking.id, cancel_key FROM booking JOIN lead ON lead.id = booking.lead_id WHERE email = ?",
        "stay@example.com",
    )
    token = cancel_token(cancel_key, datetime.fromisoformat(slot.replace("Z", ":00+00:00")))
    for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}):
        assert httpx2.post(site + CANCEL, data={"token": token}, headers=headers).status_code == 403, headers
    assert site_server.query("SELECT status FROM booking WHERE id = ?", booking_id) == [("confirmed",)]
    # The page's own form in a browser without Sec-Fetch-Site: its true Origin (strict-origin policy).
    same_origin = {"Origin": site}
    response = httpx2.post(site + CANCEL, data={"token": token}, headers=same_origin)
    assert response.status_code == 200
    assert site_server.query("SELECT status FROM booking WHERE id = ?", booking_id) == [("cancelled",)]


def test_malformed_requests_get_a_clear_4xx_and_store_nothing(site, site_server):
    slot = httpx2.get(site + SLOTS).json()["slots"][8]
    good = {**CONTACT, "email": "shape@example.com", "slot": slot}
    before = _counts(site_server)
    bodies = [
        [],
        "text",
        {**good, "slot": {"start": slot}},
        {**good, "slot": None},
        {**good, "timezone": ["Europe/Paris"]},
        {**good, "timezone": "Mars/Olympus"},
        {**good, "lang": ["fr"]},
        {**good, "name": 42},
        {**good, "email": "a" * 300 + "@example.com"},
        {**good, "phone": "+33\n612345678"},
    ]
    for body in bodies:
        response = httpx2.post(site + BOOK, json=body)
        assert response.status_code == 422, body
        assert response.json()["errors"], body
    assert httpx2.post(site + BOOK, content=b"{", headers={"Content-Type": "application/json"}).status_code == 422
    # Nested past the JSON parser's stack (a RecursionError), well within the size limit.
    for nested in (b"[" * 5000, b'{"name":' + b"[" * 5000 + b"]" * 5000 + b"}"):
        response = httpx2.post(site + BOOK, content=nested, headers={"Content-Type": "application/json"})
        assert response.status_code == 422 and response.json()["errors"]
    assert httpx2.post(site + BOOK, json={"x": "y" * 20000}).status_code == 413
    assert _counts(site_server) == before


def test_a_filled_trap_field_books_and_flags_the_lead(site, site_server):
    """As on the lead form: autofill tools may fill the hidden field, so it marks, never refuses."""
    slot = httpx2.get(site + SLOTS).json()["slots"][9]
    response = httpx2.post(
        site + BOOK, json={**CONTACT, "email": "trap@example.com", "slot": slot, "website": "https://autofill.example"}
    )
    assert response.status_code == 201
    assert site_server.query("SELECT flags FROM lead WHERE email = ?", "trap@example.com") == [("honeypot",)]
