"""What follows a data-subject erasure besides the rows it deletes: the outbox worker is woken
when a demo to come was cancelled (the sales notice goes at once) and not otherwise, the log
line the team reads names the operator and the counts, an erasure whose audit entry cannot be
written is rolled back and says so with its reference, and the lookup's download is plain JSON
with its instants as ISO text (mutation testing found these free)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from datetime import UTC, datetime, timedelta

import pytest
from servers import run_in_own_loop
from sqlalchemy import func, select, text

SUBJECT = "camille@example.test"


def _operator():
    from marketing_site.services.console import Operator

    return Operator(sub="ops-sub-7", email="ops@example.test")


def _lead(email: str, at: datetime | None = None) -> int:
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead

    with new_session() as session, session.begin():
        lead = Lead(
            form="demo",
            lang="fr",
            name="Durand",
            firstname="Camille",
            phone="+33 1 23 45 67 89",
            company="Banque Delta",
            email=email,
            idempotency_key=f"erasure-{time.time_ns()}",
            created_at=at or datetime(2026, 11, 18, 9, 30, tzinfo=UTC),
        )
        session.add(lead)
        session.flush()
        return lead.id


def _book(lead_id: int, starts_at: datetime) -> None:
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking

    with new_session() as session, session.begin():
        session.add(
            Booking(
                lead_id=lead_id,
                starts_at=starts_at,
                ends_at=starts_at + timedelta(minutes=30),
                visitor_timezone="Europe/Paris",
                lang="fr",
                uid=f"erasure-{time.time_ns()}@test",
            )
        )


@pytest.fixture
def woken(store, monkeypatch):
    """Runs an action and says whether it woke the outbox worker (the wake-up is a callback the
    worker's loop runs on its next turn, looked at after one turn)."""
    from marketing_site.services import mail

    monkeypatch.setattr(mail, "_wakeup", mail._Wakeup())

    async def run(action) -> bool:
        event = mail._wakeup.bind()
        action()
        await asyncio.sleep(0)
        return event.is_set()

    return lambda action: run_in_own_loop(run(action))


def test_an_erasure_that_cancels_a_demo_wakes_the_outbox_worker_and_one_without_a_booking_does_not(woken):
    from marketing_site.services.console import erase_subject

    _book(_lead(SUBJECT), datetime.now(UTC) + timedelta(days=2))
    _lead("paul@example.test")
    assert woken(lambda: erase_subject(_operator(), "paul@example.test")) is False
    assert woken(lambda: erase_subject(_operator(), SUBJECT)) is True


def test_a_done_erasure_is_logged_with_the_operator_and_the_counts_never_the_address(store, caplog):
    from marketing_site.services.console import erase_subject

    _lead(SUBJECT)
    with caplog.at_level(logging.INFO, logger="marketing_site.services.console"):
        counts = erase_subject(_operator(), SUBJECT)
    [record] = [r for r in caplog.records if r.name == "marketing_site.services.console"]
    assert record.levelno == logging.INFO
    assert record.getMessage() == f"data-subject erasure by ops-sub-7: {counts}"
    assert counts["lead"] == 1 and SUBJECT not in record.getMessage()


def test_an_erasure_whose_audit_entry_cannot_be_written_erases_nothing_and_says_so(store, caplog):
    """The audit log is part of the erasure: without it (here its table refuses every row) the
    erasure is rolled back, and the log says that the failure's own entry was not written either."""
    from marketing_site.db import get_engine, new_session
    from marketing_site.db.leads import Lead
    from marketing_site.services.console import ErasureFailed, erase_subject

    _lead(SUBJECT)
    with get_engine().begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(
                text(
                    "CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS "
                    "$$ BEGIN RAISE EXCEPTION 'audit on hold'; END $$"
                )
            )
            connection.execute(
                text("CREATE TRIGGER hold_audit BEFORE INSERT ON console_audit EXECUTE FUNCTION refuse_audit()")
            )
        else:
            connection.execute(
                text(
                    "CREATE TRIGGER hold_audit BEFORE INSERT ON console_audit "
                    "BEGIN SELECT RAISE(ABORT, 'audit on hold'); END"
                )
            )
    with caplog.at_level(logging.ERROR), pytest.raises(ErasureFailed) as failure:
        erase_subject(_operator(), SUBJECT)
    reference = failure.value.reference
    assert str(failure.value) == reference
    with new_session() as session:
        assert session.scalar(select(func.count()).select_from(Lead)) == 1
    messages = [(r.getMessage(), r.exc_text or "") for r in caplog.records if r.levelno == logging.ERROR]
    assert messages[0][0] == f"data-subject erasure failed ref={reference} by ops-sub-7, rolled back"
    assert messages[1][0] == f"audit entry of the failed erasure ref={reference} not written"
    assert "audit on hold" in messages[0][1] and "audit on hold" in messages[1][1]


def test_the_lookup_gives_instants_as_iso_text_and_the_sessions_dates(store):
    from marketing_site.services import sessions
    from marketing_site.services.console import subject_data

    lead_id = _lead(SUBJECT, datetime(2026, 11, 18, 9, 30, 5, tzinfo=UTC))
    _book(lead_id, datetime(2026, 12, 1, 10, 0, tzinfo=UTC))
    sessions.create_session({"sub": "s-1", "email": SUBJECT}, sessions.Tokens("id", "access", None, time.time() + 3600))
    found = subject_data(_operator(), SUBJECT, "download")
    [lead] = found["lead"]
    assert lead["created_at"].startswith("2026-11-18T09:30:05") and lead["id"] == lead_id
    [booking] = found["booking"]
    assert booking["starts_at"].startswith("2026-12-01T10:00:00") and booking["lead_id"] == lead_id
    [login] = found["auth_session"]
    assert login["claims"] == {"sub": "s-1", "email": SUBJECT}
    assert set(login) == {"claims", "created_at", "expires_at"}
    json.dumps({k: v for k, v in found.items() if k != "auth_session"})  # the rows are plain JSON


# A lead of the person arriving while their erasure runs (a trigger stands for the other
# request): the erasure's second lookup finds it.
ARRIVING_LEAD = {
    "sqlite": [
        """CREATE TRIGGER arriving AFTER DELETE ON lead WHEN old.name = 'Durand' BEGIN
        INSERT INTO lead (form, lang, name, firstname, phone, company, email, idempotency_key, created_at)
        VALUES ('ebook', 'fr', 'Late', 'Camille', '+33 1', 'Delta', old.email, 'late-' || old.id, CURRENT_TIMESTAMP);
        END""",
    ],
    "postgresql": [
        """CREATE FUNCTION arriving() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF old.name = 'Durand' THEN
        INSERT INTO lead (form, lang, name, firstname, phone, company, email, idempotency_key, created_at)
        VALUES ('ebook', 'fr', 'Late', 'Camille', '+33 1', 'Delta', old.email, 'late-' || old.id, now());
        END IF; RETURN old; END $$""",
        "CREATE TRIGGER arriving AFTER DELETE ON lead FOR EACH ROW EXECUTE FUNCTION arriving()",
    ],
}


def test_a_partial_erasure_is_logged_as_an_error_with_what_went_and_what_is_left(store, caplog):
    from marketing_site.db import get_engine
    from marketing_site.services.console import ErasurePartial, erase_subject

    _lead(SUBJECT)
    with get_engine().begin() as connection:
        for statement in ARRIVING_LEAD[connection.dialect.name]:
            connection.execute(text(statement))
    with (
        caplog.at_level(logging.INFO, logger="marketing_site.services.console"),
        pytest.raises(ErasurePartial) as partial,
    ):
        erase_subject(_operator(), SUBJECT)
    erased, left = partial.value.erased, partial.value.remaining
    assert (erased["lead"], left) == (1, {"lead": 1}) and str(partial.value) == str(left)
    [record] = [r for r in caplog.records if r.name == "marketing_site.services.console"]
    assert record.levelno == logging.ERROR
    assert record.getMessage() == f"data-subject erasure by ops-sub-7 partial: {erased} erased, {left} left"


def test_a_subject_address_is_shown_in_its_readable_form_whatever_the_domain_sorts_after():
    # The readable form is chosen, not the first in alphabetical order: "xn--" sorts before "z".
    from marketing_site.services.console import normalise_email

    assert normalise_email("Ana@Zürich.example") == "ana@zürich.example"
    assert normalise_email("ana@xn--zrich-kva.example") == "ana@zürich.example"
    assert normalise_email(" ana@bücher.example ") == "ana@bücher.example"
