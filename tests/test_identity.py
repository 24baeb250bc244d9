"""Identifiers that leave the database, and a person found by any form of their address, driven
through the services on a real database (SQLite, or PostgreSQL when TEST_DATABASE_URL is set: the
engines lane): an erased person's cancel link reaches nothing and the next person's rows get new
ids; erasure and lookup by any way of writing an address; the same booking sent twice at once;
values the validators accept followed into the CSV export and the console, then erased; and a
state machine of leads, bookings, cancellations, logins, erasures and purges in any order."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import threading
import time
import unicodedata
import uuid
from datetime import timedelta

import idna
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, rule
from lead_payloads import person_values
from sqlalchemy import text as sql
from test_outbox import _strategies as accepted_values

ENGINE = "postgresql" if os.environ.get("TEST_DATABASE_URL") else "sqlite"
PHONE = "+33 1 23 45 67 89"
SALES, ORGANIZER = "leads@nereo-wealth.fr", "demo@nereo-wealth.fr"  # the settings' defaults
EBOOK = "Ebook download - Wealth manager new generation"
# Children first: a whole database emptied between examples, its id counters left as they are.
TABLES = ("booking", "outbox_message", "lead", "auth_session", "console_audit")


def _operator():
    from marketing_site.services.console import Operator

    return Operator(sub="dpo@example.test", email="dpo@example.test")


def _empty_tables() -> None:
    from marketing_site.db import new_session

    with new_session() as session, session.begin():
        for table in TABLES:
            session.execute(sql(f"DELETE FROM {table}"))


def _contact(email: str, **fields: str) -> dict[str, str]:
    """One person's details for a download and a demo (every form's fields, from their specs)."""
    return person_values(
        **{
            "name": "Durand",
            "firstname": "Camille",
            "company": "Banque Delta",
            "phone": PHONE,
            "email": email,
            **fields,
        }
    )


def _book(contact: dict[str, str], slot_index: int = 0, key: str | None = None, slot: str | None = None):
    from marketing_site.services import booking

    slot = slot or booking.slot_id(booking.available_slots()[slot_index])
    payload = {**contact, "slot": slot, "timezone": "Europe/Paris", "lang": "fr"}
    return booking.book(payload, "10.7.0.1", key or uuid.uuid4().hex)


def _cancel_link_of(booking_id: int) -> str:
    """The token of the cancel link in the visitor's mail of this booking, as the mail carries it."""
    from sqlmodel import select

    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import OutboxMessage

    with new_session() as session:
        lead_id = session.get(Booking, booking_id).lead_id
        bodies = session.exec(select(OutboxMessage.body).where(OutboxMessage.lead_id == lead_id)).all()
    [token] = {match for body in bodies for match in re.findall(r"[?&]token=([^&\s]+)", body)}
    return token


# ------------------------------------------------------------------ the erased person's link


def test_an_erased_persons_cancel_link_reaches_nothing_and_the_next_person_gets_new_ids(store):
    """Person A books, is erased; person B books the same slot: A's link shows and cancels
    nothing, and none of B's rows has an id A's had (SQLite reused the highest id before)."""
    from sqlmodel import select

    from marketing_site.db import new_session
    from marketing_site.db.booking import CONFIRMED, Booking
    from marketing_site.db.leads import Lead, OutboxMessage
    from marketing_site.services import booking, console

    def ids() -> dict[str, set[int]]:
        with new_session() as session:
            return {
                "booking": set(session.exec(select(Booking.id)).all()),
                "lead": set(session.exec(select(Lead.id)).all()),
                "outbox_message": set(
                    session.exec(select(OutboxMessage.id).where(OutboxMessage.lead_id.is_not(None))).all()
                ),
            }

    first = _book(_contact("person.a@example.com"))
    assert first.status == "booked"
    link_a = _cancel_link_of(first.booking_id)
    assert booking.booking_for_token(link_a).status == "confirmed"
    ids_a = ids()
    assert console.erase_subject(_operator(), "Person.A@Example.com") == {
        "booking": 1,
        "outbox_message": 2,
        "lead": 1,
        "auth_session": 0,
    }
    second = _book(_contact("person.b@example.com", firstname="Basile"))
    assert second.status == "booked" and second.start == first.start  # the slot A held
    ids_b = ids()
    assert all(not ids_a[table] & ids_b[table] for table in ids_a), (ids_a, ids_b)
    assert (booking.booking_for_token(link_a).status, booking.cancel(link_a).status) == ("invalid", "invalid")
    with new_session() as session:
        assert session.get(Booking, second.booking_id).status == CONFIRMED
    # B's own link reaches B's booking, and only it.
    found = booking.booking_for_token(_cancel_link_of(second.booking_id))
    assert found.status == "confirmed" and found.booking.id == second.booking_id


# ------------------------------------------------------------------ any form of the address

ASCII_LOCALS = st.text("abcdefghijklmnopqrstuvwxyz0123456789._-", min_size=1, max_size=12).filter(
    lambda s: s[0] not in ".-" and s[-1] != "." and ".." not in s
)
IDN_LABELS = st.text("abcdefghijklmnopqrstuvwxyzéèüößçñøåæœкирилцаαβγ日本語", min_size=1, max_size=12).filter(
    lambda s: s[2:4] != "--"
)
TOP_LEVELS = st.sampled_from(["com", "fr", "example", "рф", "中国"])


def _domain_ascii(domain: str) -> str:
    return idna.encode(domain, uts46=True).decode() if not domain.isascii() else domain


def _writings(email: str) -> st.SearchStrategy[str]:
    """Ways of writing one address a person or a provider may use: the domain in punycode or
    Unicode, NFD, another case of the ASCII letters, spaces around it."""
    local, _, domain = email.rpartition("@")

    def write(punycode: bool, nfd: bool, flip: list[bool], padded: bool) -> str:
        text = f"{local}@{_domain_ascii(domain) if punycode else domain}"
        text = "".join(c.swapcase() if c.isascii() and f else c for c, f in zip(text, flip * len(text), strict=False))
        text = unicodedata.normalize("NFD", text) if nfd else text
        return f"  {text} " if padded else text

    return st.builds(
        write, st.booleans(), st.booleans(), st.lists(st.booleans(), min_size=1, max_size=5), st.booleans()
    )


@st.composite
def person_and_writings(draw) -> tuple[str, str, str, str]:
    """An address as typed into the form, a login claim's and an operator's writing of it."""
    local = draw(ASCII_LOCALS)
    domain = ".".join([*draw(st.lists(IDN_LABELS, min_size=1, max_size=2)), draw(TOP_LEVELS)])
    typed = f"{local}@{domain}"
    try:
        _domain_ascii(domain)
    except idna.IDNAError:
        assume(False)
    return typed, draw(_writings(typed)), draw(_writings(typed)), draw(_writings(typed))


def _leftovers() -> dict[str, int]:
    """Rows that could still hold someone: every lead, booking and login session, and every mail
    but the erasure's notice to sales (it names no one and belongs to no lead)."""
    from marketing_site.db import new_session

    with new_session() as session:
        counts = {
            table: session.execute(sql(f"SELECT count(*) FROM {table}")).scalar_one()
            for table in ("lead", "booking", "auth_session")
        }
        counts["outbox_message"] = session.execute(
            sql("SELECT count(*) FROM outbox_message WHERE lead_id IS NOT NULL OR mail_to <> :sales"), {"sales": SALES}
        ).scalar_one()
    return {name: count for name, count in counts.items() if count}


def test_lookup_and_erasure_find_a_person_by_any_writing_of_their_address(store):
    """Intake stores one form (NFC, readable lower-case domain); a provider's claim or an operator
    may write the same address in another: every writing finds and erases all of it."""
    from marketing_site.services import console, leads, sessions

    @settings(max_examples=25, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(person_and_writings())
    def check(writings):
        typed, claimed, looked_up, erased_as = writings
        assume(leads.validate_fields("ebook", _contact(typed)).ok)
        _empty_tables()
        assert (
            leads.submit_lead({**_contact(typed), "subject": EBOOK, "elapsedMs": 9000}, "10.7.0.2").status == "accepted"
        )
        assert _book(_contact(typed)).status == "booked"
        sessions.create_session(
            {"sub": f"p-{uuid.uuid4()}", "email": claimed}, sessions.Tokens("id", "access", None, time.time() + 3600)
        )
        found = console.subject_data(_operator(), looked_up, "lookup")
        assert {k: len(v) for k, v in found.items()} == {
            "booking": 1,
            "outbox_message": 3,
            "lead": 2,
            "auth_session": 1,
        }
        assert console.erase_subject(_operator(), erased_as) == {k: len(v) for k, v in found.items()}
        assert _leftovers() == {}
        # The audit log names one subject, whatever the writing.
        assert len({console.subject_key(console.normalise_email(w)) for w in writings}) == 1

    check()


# A lead that arrives for the person while their erasure runs (here a database trigger writes it as
# the erasure deletes the last one): the erasure's own look-up afterwards still finds them.
ARRIVING_LEAD = {
    "sqlite": [
        """CREATE TRIGGER arriving_lead AFTER DELETE ON lead WHEN old.form = 'ebook' BEGIN
        INSERT INTO lead (form, lang, name, firstname, phone, company, email, idempotency_key, created_at)
        VALUES ('whitepaper', 'fr', 'Durand', 'Camille', '+33 1 23 45 67 89', 'Banque Delta', old.email,
                'arriving-' || old.id, CURRENT_TIMESTAMP); END""",
    ],
    "postgresql": [
        """CREATE FUNCTION arriving_lead() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF old.form = 'ebook' THEN
        INSERT INTO lead (form, lang, name, firstname, phone, company, email, idempotency_key, created_at)
        VALUES ('whitepaper', 'fr', 'Durand', 'Camille', '+33 1 23 45 67 89', 'Banque Delta', old.email,
                'arriving-' || old.id, now()); END IF; RETURN old; END $$""",
        "CREATE TRIGGER arriving_lead AFTER DELETE ON lead FOR EACH ROW EXECUTE FUNCTION arriving_lead()",
    ],
}


def test_an_erasure_that_still_finds_some_of_the_person_says_so_and_is_audited_partial(store):
    from sqlmodel import select

    from marketing_site.db import new_session
    from marketing_site.db.console import ConsoleAudit
    from marketing_site.services import console, leads

    assert (
        leads.submit_lead({**_contact("late@example.com"), "subject": EBOOK, "elapsedMs": 9000}, "10.7.0.5").status
        == "accepted"
    )
    with new_session() as session, session.begin():
        for statement in ARRIVING_LEAD[ENGINE]:
            session.execute(sql(statement))
    with pytest.raises(console.ErasurePartial) as partial:
        console.erase_subject(_operator(), "LATE@example.com")
    assert (partial.value.erased["lead"], partial.value.remaining) == (1, {"lead": 1})
    with new_session() as session:
        [entry] = session.exec(select(ConsoleAudit)).all()
    assert entry.action == "erase-partial"
    assert json.loads(entry.counts_json) == {
        "auth_session": 0,
        "booking": 0,
        "lead": 1,
        "lead left": 1,
        "outbox_message": 1,
    }


# ------------------------------------------------------------------ the same booking twice at once


def test_the_same_booking_sent_twice_at_once_is_booked_once_and_never_refused_as_taken(store):
    """A double click or a retry racing the first request (same Idempotency-Key): every copy
    answers "booked" with the one booking, none "slot just booked" for the visitor's own slot."""
    from sqlmodel import select

    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.services import booking

    copies = 8  # 8 copies in 16 rounds: the race showed in most runs before the fix
    for round_ in range(16):
        contact = _contact(f"twice.{round_}@example.com")
        key, slot = uuid.uuid4().hex, booking.slot_id(booking.available_slots()[0])  # one request, sent 8 times
        start = threading.Barrier(copies)
        results = []

        def send(delay: float, contact=contact, key=key, slot=slot, start=start, results=results):
            start.wait()
            time.sleep(delay)  # spread over the first copy's write: some copies land inside it
            results.append(_book(contact, key=key, slot=slot))

        threads = [threading.Thread(target=send, args=(0.002 * i,)) for i in range(copies)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(r.status for r in results) == ["booked"] * copies, [(r.status, r.errors) for r in results]
        assert len({r.booking_id for r in results}) == 1
        with new_session() as session:
            assert len(session.exec(select(Booking)).all()) == round_ + 1


# ------------------------------------------------------------------ export, console, erasure


def test_every_accepted_value_reaches_the_export_and_the_console_as_text_then_erasure_leaves_nothing(store):
    """Names, companies and emails from everything the validators accept (test_outbox's drawing):
    the CSV export gives each back, in one row, read as text by a spreadsheet; the console's rows
    carry them unchanged, shown as text; erasing the address as typed leaves nothing of them."""
    from marketing_site.services import console, lead_export, leads

    @settings(
        max_examples=40 if ENGINE == "sqlite" else 20,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(values=accepted_values())
    def check(values):
        contact = person_values(**values, phone=PHONE)
        checked = leads.validate_fields("ebook", contact)
        assume(checked.ok)
        _empty_tables()
        assert leads.submit_lead({**contact, "subject": EBOOK, "elapsedMs": 9000}, "10.7.0.3").status == "accepted"
        assert _book(contact).status == "booked"
        stored = checked.values

        exported, count = console.export_leads_csv(console.LeadFilter())
        assert count == 2 and exported.startswith(lead_export.BOM)
        rows = list(csv.DictReader(io.StringIO(exported[1:]), delimiter=lead_export.DELIMITER))
        assert len(rows) == 2
        for row in rows:
            for field in ("name", "firstname", "company", "email"):
                cell = row[field]
                # A cell a spreadsheet could run is quoted with "'", and only such a cell.
                assert cell == (
                    "'" + stored[field] if stored[field].startswith(lead_export.FORMULA_STARTS) else stored[field]
                )

        page = console.lead_page(console.LeadFilter())
        assert page.total == 2
        for row in page.rows:
            assert {f: row[f] for f in ("name", "firstname", "company", "email")} == {
                f: stored[f] for f in ("name", "firstname", "company", "email")
            }

        assert console.erase_subject(_operator(), values["email"])["lead"] == 2
        assert _leftovers() == {}
        assert (
            console.export_leads_csv(console.LeadFilter())[1] == 0
            and console.lead_page(console.LeadFilter()).total == 0
        )

    check()


def test_the_console_shows_lead_values_as_text_never_as_markup():
    """The leads table puts each value in its cell as a text child (React escapes it), and no
    part of the console injects HTML: the values of the test above reach it as they are stored."""
    from marketing_site.content.words import words
    from marketing_site.pages.console import leads as leads_table
    from marketing_site.pages.console import mail, subjects

    text = words("fr", "console")
    rendered = str(leads_table.table(text, "fr"))
    for field in ("firstname", "name", "company"):
        assert f'row_rx_state_?.["{field}"]' in rendered, field  # the row's value itself, a child
    everything = rendered + str(leads_table.section(text, "fr")) + str(mail.section(text)) + str(subjects.section(text))
    assert "innerHTML" not in everything  # dangerouslySetInnerHTML included


# ------------------------------------------------------------------ any order of events

PEOPLE = ("ada@bücher.example", "bob@example.com", "chloe@café.fr")


class Identities(RuleBasedStateMachine):
    """Leads, bookings, cancellations, logins, erasures and retention purges in any order.

    It keeps, from outside the code under test, who each issued token, lead id, booking id and
    Message-ID belongs to, and checks after every step: a token or id reaches its own person's
    record or nothing; no Message-ID names two messages; every erasure succeeds and leaves nothing."""

    tokens = Bundle("tokens")

    @initialize()
    def start(self):
        _empty_tables()
        self.owner_of_token: dict[str, str] = {}
        self.gone: set[str] = set()  # tokens whose person was erased or purged
        self.owner_of: dict[tuple[str, int], str] = {}  # (table, id) -> person, for all time
        self.message_of_row: dict[int, str] = {}
        self.row_of_message: dict[str, int] = {}

    def _person(self, email: str) -> str:
        from marketing_site.services import console

        return console.normalise_email(email)

    @rule(person=st.sampled_from(PEOPLE), writing=st.integers(0, 3))
    def create_lead(self, person, writing):
        from marketing_site.services import leads

        email = _written(person, writing)
        result = leads.submit_lead({**_contact(email), "subject": EBOOK, "elapsedMs": 9000}, "10.7.0.4")
        assert result.status == "accepted"
        self._claim("lead", result.lead_id, person)

    @rule(target=tokens, person=st.sampled_from(PEOPLE), writing=st.integers(0, 3))
    def book(self, person, writing):
        result = _book(_contact(_written(person, writing)))
        assert result.status == "booked", result.errors
        self._claim("booking", result.booking_id, person)
        token = _cancel_link_of(result.booking_id)
        self.owner_of_token[token] = person
        return token

    @rule(token=tokens)
    def cancel(self, token):
        from marketing_site.services import booking

        result = booking.cancel(token)
        if token in self.gone:
            assert result.status == "invalid"
        else:
            assert result.status in ("cancelled", "already")
            self._reaches_its_owner(token, result.booking)

    @rule(person=st.sampled_from(PEOPLE), writing=st.integers(0, 3))
    def log_in(self, person, writing):
        from marketing_site.services import sessions

        claims = {"sub": f"sub-{uuid.uuid4()}", "email": _written(person, writing)}
        sessions.create_session(claims, sessions.Tokens("id", "access", None, time.time() + 3600))

    @rule(person=st.sampled_from(PEOPLE), writing=st.integers(0, 3))
    def erase(self, person, writing):
        from marketing_site.services import console

        console.erase_subject(_operator(), _written(person, writing))  # raises when failed or partial
        found = console.subject_data(_operator(), person, "lookup")
        assert all(not rows for rows in found.values()), found
        self.gone.update(t for t, owner in self.owner_of_token.items() if owner == self._person(person))

    @rule()
    def purge(self):
        from marketing_site.db.leads import utcnow
        from marketing_site.services import retention

        # Every lead is older than a one-month period seen from two months ahead: all prospects go.
        retention.purge_leads(1, now=utcnow() + timedelta(days=62))
        self.gone.update(self.owner_of_token)

    def _claim(self, table: str, row_id: int | None, person: str) -> None:
        assert row_id is not None
        owner = self.owner_of.setdefault((table, row_id), self._person(person))
        assert owner == self._person(person), f"{table} id {row_id} of {owner} given to {person}"

    def _reaches_its_owner(self, token: str, booking) -> None:
        from marketing_site.db import new_session
        from marketing_site.db.leads import Lead

        with new_session() as session:
            lead = session.get(Lead, booking.lead_id)
        assert self._person(lead.email) == self.owner_of_token[token]
        assert self.owner_of[("booking", booking.id)] == self.owner_of_token[token]

    @invariant()
    def tokens_reach_their_own_person_or_nothing(self):
        from marketing_site.services import booking

        for token in self.owner_of_token:
            found = booking.booking_for_token(token)
            if token in self.gone:
                assert found.status == "invalid", token
            else:
                assert found.status in ("confirmed", "already")
                self._reaches_its_owner(token, found.booking)

    @invariant()
    def ids_and_message_ids_are_never_given_twice(self):
        from sqlmodel import select

        from marketing_site.db import new_session
        from marketing_site.db.booking import Booking
        from marketing_site.db.leads import Lead, OutboxMessage

        with new_session() as session:
            for lead_id, email in session.exec(select(Lead.id, Lead.email)).all():
                self._claim("lead", lead_id, email)
            for booking_id, email in session.exec(
                select(Booking.id, Lead.email).join(Lead, Lead.id == Booking.lead_id)
            ).all():
                self._claim("booking", booking_id, email)
            for row_id, message_id in session.exec(select(OutboxMessage.id, OutboxMessage.message_id)).all():
                assert self.message_of_row.setdefault(row_id, message_id) == message_id, f"outbox id {row_id} reused"
                assert self.row_of_message.setdefault(message_id, row_id) == row_id, f"{message_id} repeated"


def _written(person: str, writing: int) -> str:
    """One of four writings of a person's address: as is, the domain in punycode, upper-case
    ASCII letters, NFD with spaces around."""
    local, _, domain = person.rpartition("@")
    return (
        person,
        f"{local}@{_domain_ascii(domain)}",
        "".join(c.upper() if c.isascii() else c for c in person),
        f" {unicodedata.normalize('NFD', person)} ",
    )[writing]


def test_leads_bookings_cancellations_erasures_and_purges_in_any_order(store):
    Identities.TestCase.settings = settings(
        # 12 s on SQLite, 14 s on PostgreSQL at load 5 (the CI lane's bound is 60 s); the failures
        # it found before the fixes showed within the first few examples.
        max_examples=30,
        stateful_step_count=15,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    Identities.TestCase().runTest()
