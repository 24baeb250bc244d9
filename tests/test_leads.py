"""The lead service and the outbox worker, on a real SQLite database and a real SMTP server."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from lead_corpus import ACCEPTED, BASE, REFUSED, variants
from lead_payloads import EBOOK_SUBJECT, form_values, lead_payload, stored_rows
from servers import SmtpSink

SEND = ("sent", "retry", "failed")


def counted(name: str, **labels: str) -> float:
    """A metric of this process (metrics.py), 0 before its first count."""
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value(name, labels) or 0.0


def _run(coro):
    # In a thread of its own: Playwright's sync API may own this thread's event loop.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_accepted_lead_and_its_mail_are_stored_together(service):
    from marketing_site.db.leads import Lead, OutboxMessage

    result = service.submit_lead(lead_payload(), "10.0.0.1")
    assert result.status == "accepted"
    [lead] = stored_rows(Lead)
    [message] = stored_rows(OutboxMessage)
    assert (lead.form, lead.firstname, lead.email) == ("ebook", "Hélène", "helene.lefevre@example.com")
    assert message.lead_id == lead.id and message.status == "pending"
    assert message.subject == EBOOK_SUBJECT
    assert message.reply_to == "helene.lefevre@example.com"
    assert message.body == (
        "Prénom : Hélène\nNom : Lefèvre\nTéléphone : +33 1 23 45 67 89\n"
        "Email : helene.lefevre@example.com\nSociété : Banque Exemple\n"
        "Document : Nereo - Wealth manager nouvelle generation - ebook.pdf (version française)\n"
    )
    assert lead.flags == ""


def test_first_name_may_come_as_nom(service):
    payload = lead_payload(nom="Hélène")
    del payload["firstname"]
    assert service.submit_lead(payload, "10.0.0.1").status == "accepted"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"name": ""}, "name"),
        ({"company": None}, "company"),
        ({"email": "not-an-email"}, "email"),
        ({"email": "ada@intranet"}, "email"),
        ({"phone": "call me"}, "phone"),
        ({"phone": "12"}, "phone"),
        ({"company": "x" * 201}, "company"),
        ({"name": "Dupont\r\nBcc: x@example.com"}, "name"),
        ({"firstname": "Ann\x00e"}, "firstname"),
        ({"subject": "Anything else"}, "subject"),
        ({"elapsedMs": "fast"}, "elapsedMs"),
        ({"mailSent": "yes"}, "mailSent"),
    ],
)
def test_invalid_input_is_refused_and_nothing_stored(service, overrides, field):
    from marketing_site.db.leads import Lead, OutboxMessage

    result = service.submit_lead(lead_payload(**overrides), "10.0.0.2")
    assert result.status == "invalid"
    assert field in result.errors
    assert stored_rows(Lead) == [] and stored_rows(OutboxMessage) == []


@pytest.mark.parametrize(("field", "value"), variants(ACCEPTED))
def test_every_plausible_value_is_accepted(field, value):
    from marketing_site.services.leads import validate_fields

    check = validate_fields("ebook", form_values("ebook", **{**BASE, field: value}))
    assert check.ok, check.errors
    assert "\t" not in check.values[field] and check.values[field] == check.values[field].strip(" \u00a0")


@pytest.mark.parametrize(("field", "value"), variants(REFUSED))
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_refused_values_get_the_field_message_in_the_page_language(field, value, lang):
    from marketing_site.content.words import words
    from marketing_site.services.leads import validate_fields

    check = validate_fields("ebook", form_values("ebook", **{**BASE, field: value}), lang)
    messages = words(lang, "lead_forms.field_errors")
    assert set(check.errors) == {field}
    assert check.errors[field] in messages.values()


def test_internationalised_domains_are_stored_readable_and_mailed_ascii(service):
    from marketing_site.db.leads import Lead, OutboxMessage

    for address in ("jose@exämple.fr", "jose@xn--exmple-cua.fr"):  # typed, or as Chromium sends it
        assert service.submit_lead(lead_payload(email=address, company=address), "10.0.0.12").status == "accepted"
    assert {lead.email for lead in stored_rows(Lead)} == {"jose@exämple.fr"}
    assert {m.reply_to for m in stored_rows(OutboxMessage)} == {"jose@xn--exmple-cua.fr"}


def test_anti_bot_signals_flag_the_lead_instead_of_refusing_it(service, capsys):
    from marketing_site import ops
    from marketing_site.db.leads import Lead, OutboxMessage

    fast = service.submit_lead(lead_payload(email="fast@example.com", elapsedMs=150), "10.0.0.10")
    trap = service.submit_lead(lead_payload(email="trap@example.com", website="x", elapsedMs=9000), "10.0.0.10")
    calm = service.submit_lead(lead_payload(email="calm@example.com", elapsedMs=9000), "10.0.0.10")
    assert (fast.status, trap.status, calm.status) == ("accepted",) * 3
    flags = {lead.email: lead.flags for lead in stored_rows(Lead)}
    assert flags == {"fast@example.com": "fast", "trap@example.com": "honeypot", "calm@example.com": ""}
    bodies = {m.reply_to: m.body for m in stored_rows(OutboxMessage)}
    assert "À vérifier : formulaire envoyé très vite" in bodies["fast@example.com"]
    assert "À vérifier" not in bodies["calm@example.com"]
    ops.main(["leads"])
    out = capsys.readouterr().out
    assert "[flagged: fast]" in out and "[flagged: honeypot]" in out
    assert sum("flagged" in line for line in out.splitlines()) == 2


def test_the_mail_says_which_language_was_downloaded(service):
    from marketing_site.db.leads import OutboxMessage

    service.submit_lead(lead_payload(lang="en", email="en@example.com"), "10.0.0.11")
    [message] = stored_rows(OutboxMessage)
    assert "Document : Nereo - The next-generation wealth manager - ebook.pdf (version anglaise)\n" in message.body


def test_two_hundred_characters_are_accepted(service):
    assert service.submit_lead(lead_payload(company="x" * 200), "10.0.0.3").status == "accepted"


def test_double_submission_makes_one_lead(service):
    from marketing_site.db.leads import Lead, OutboxMessage

    first = service.submit_lead(lead_payload(), "10.0.0.4", client_key="form-1")
    second = service.submit_lead(lead_payload(), "10.0.0.4", client_key="form-1")
    assert (first.status, second.status) == ("accepted", "accepted")
    assert second.duplicate and second.lead_id == first.lead_id
    # Without a client key, the same content within the window is the same lead too.
    service.submit_lead(lead_payload(email="b@example.com"), "10.0.0.4")
    again = service.submit_lead(lead_payload(email="b@example.com"), "10.0.0.4")
    assert again.duplicate
    assert len(stored_rows(Lead)) == 2 and len(stored_rows(OutboxMessage)) == 2


def test_an_idempotency_key_is_scoped_to_the_client_and_the_payload(service):
    """Someone else's key (or the same key with other details) never returns, nor swallows, a lead."""
    from marketing_site.db.leads import Lead

    alice = lead_payload(email="alice@example.com", firstname="Alice")
    mallory = lead_payload(email="mallory@example.com", firstname="Mallory")
    first = service.submit_lead(alice, "10.1.0.1", client_key="shared-key")
    retry = service.submit_lead(alice, "10.1.0.1", client_key="shared-key")
    assert retry.duplicate and retry.lead_id == first.lead_id
    other_client = service.submit_lead(mallory, "10.1.0.2", client_key="shared-key")
    same_payload_other_client = service.submit_lead(alice, "10.1.0.2", client_key="shared-key")
    corrected = service.submit_lead({**alice, "company": "Banque Corrigée"}, "10.1.0.1", client_key="shared-key")
    for result in (other_client, same_payload_other_client, corrected):
        assert result.status == "accepted" and not result.duplicate and result.lead_id != first.lead_id
    stored = sorted((lead.email, lead.company) for lead in stored_rows(Lead))
    assert stored == [
        ("alice@example.com", "Banque Corrigée"),
        ("alice@example.com", "Banque Exemple"),
        ("alice@example.com", "Banque Exemple"),
        ("mallory@example.com", "Banque Exemple"),
    ]


@pytest.mark.parametrize(
    ("elapsed", "flags"),
    [
        (None, "fast"),  # sent as null
        ("missing", "fast"),
        (float("nan"), "fast"),
        (float("inf"), "fast"),
        (float("-inf"), "fast"),
        (-5, "fast"),
        (1999, "fast"),
        (2000, ""),
        (10**400, ""),  # a whole number too large for a float is still a (long) fill time
    ],
)
def test_a_lead_without_a_valid_fill_time_is_flagged_like_a_fast_one(service, elapsed, flags):
    from marketing_site.db.leads import Lead

    payload = lead_payload(elapsedMs=elapsed)
    if elapsed == "missing":
        del payload["elapsedMs"]
    assert service.submit_lead(payload, "10.2.0.1").status == "accepted"
    assert [lead.flags for lead in stored_rows(Lead)] == [flags]


def test_concurrent_twins_make_one_lead(service):
    from marketing_site.db.leads import Lead

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: service.submit_lead(lead_payload(), "10.0.0.5", "same"), range(4)))
    assert {r.status for r in results} == {"accepted"}
    assert len(stored_rows(Lead)) == 1


def test_rate_limits_per_ip_and_per_email(service):
    statuses = [service.submit_lead(lead_payload(email=f"p{i}@example.com"), "10.0.0.6").status for i in range(7)]
    assert statuses == ["accepted"] * 5 + ["rate_limited"] * 2
    limited = service.submit_lead(lead_payload(email="x@example.com"), "10.0.0.6")
    assert limited.retry_after >= 1
    by_email = [
        service.submit_lead(lead_payload(company=f"C{i}", email="same@example.com"), f"10.1.0.{i}").status
        for i in range(4)
    ]
    assert by_email == ["accepted"] * 3 + ["rate_limited"]


def test_outbox_delivers_once_through_smtp(service, monkeypatch):
    from marketing_site.db.leads import OutboxMessage
    from marketing_site.services import mail

    sink = SmtpSink().start()
    try:
        monkeypatch.setenv("SMTP_HOST", "127.0.0.1")
        monkeypatch.setenv("SMTP_PORT", str(sink.port))
        monkeypatch.setenv("SMTP_STARTTLS", "false")
        from marketing_site import settings

        settings.get_settings.cache_clear()
        service.submit_lead(lead_payload(), "10.0.0.7")
        assert _run(mail.process_due()) == 1
        assert _run(mail.process_due()) == 0
        [received] = sink.received()
        assert received["Subject"] == EBOOK_SUBJECT
        assert received["Reply-To"] == "helene.lefevre@example.com"
        assert received["To"] == settings.get_settings().lead_mail_to
        assert "Société : Banque Exemple" in received.get_payload(decode=True).decode()
        [message] = stored_rows(OutboxMessage)
        assert message.status == "sent" and message.attempts == 1
    finally:
        sink.stop()


def test_outbox_retries_4xx_and_downtime_and_gives_up_on_5xx(service, monkeypatch):
    from marketing_site import settings
    from marketing_site.db.leads import OutboxMessage
    from marketing_site.services import mail

    sink = SmtpSink()
    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("SMTP_PORT", str(sink.port))
    monkeypatch.setenv("SMTP_STARTTLS", "false")
    monkeypatch.setenv("SMTP_TIMEOUT_SECONDS", "2")
    # A retry must not fall due within the same pass (the test makes it due with _force_due).
    monkeypatch.setenv("OUTBOX_RETRY_BASE_SECONDS", "5")
    settings.get_settings.cache_clear()
    attempts_before = {outcome: counted("site_outbox_send_attempts_total", outcome=outcome) for outcome in SEND}
    service.submit_lead(lead_payload(), "10.0.0.8")
    # Server down: a temporary failure, retried later.
    _run(mail.process_due())
    [message] = stored_rows(OutboxMessage)
    assert (message.status, message.attempts) == ("pending", 1)
    sink.start()
    try:
        sink.reply = "451 4.3.0 Try again later"
        _force_due()
        _run(mail.process_due())
        [message] = stored_rows(OutboxMessage)
        assert (message.status, message.attempts) == ("pending", 2)
        assert "451" in message.last_error
        sink.reply = None
        _force_due()
        _run(mail.process_due())
        assert len(sink.received()) == 1
        assert stored_rows(OutboxMessage)[0].status == "sent"
        # A permanent refusal is recorded, not retried.
        service.submit_lead(lead_payload(email="other@example.com"), "10.0.0.9")
        sink.reply = "550 5.1.1 Mailbox unavailable"
        _run(mail.process_due())
        refused = next(m for m in stored_rows(OutboxMessage) if m.reply_to == "other@example.com")
        assert refused.status == "failed" and "550" in refused.last_error
        _force_due()
        assert _run(mail.process_due()) == 0
        # Each attempt is counted by its outcome (metrics.py): two retries, one sent, one given up.
        attempts = {o: counted("site_outbox_send_attempts_total", outcome=o) - attempts_before[o] for o in SEND}
        assert attempts == {"retry": 2, "sent": 1, "failed": 1}
    finally:
        sink.stop()


def _force_due():
    from sqlalchemy import update

    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage, utcnow

    with new_session() as session, session.begin():
        session.execute(update(OutboxMessage).values(next_attempt_at=utcnow()))


def test_a_message_is_claimed_by_one_worker_only(service):
    from marketing_site.db.leads import utcnow
    from marketing_site.services import mail

    for i in range(6):
        service.submit_lead(lead_payload(email=f"c{i}@example.com"), f"10.2.0.{i}")
    now = utcnow()
    with ThreadPoolExecutor(3) as pool:
        claims = list(pool.map(lambda _: [c.message.id for c in mail.claim_due(now)], range(3)))
    claimed = [i for batch in claims for i in batch]
    assert sorted(claimed) == sorted(set(claimed)) and len(claimed) == 6


def test_backoff_grows_exponentially_with_jitter():
    from marketing_site.services.mail import backoff_seconds

    for attempts, base in ((1, 30), (2, 60), (3, 120), (20, 3600)):
        delay = backoff_seconds(attempts, 30)
        assert 0.5 * base <= delay <= 1.5 * base


def test_operator_commands_list_export_and_retry(service, tmp_path, capsys):
    from sqlalchemy import update

    from marketing_site import ops
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage

    service.submit_lead(lead_payload(company='=HYPERLINK("x")'), "10.3.0.1")
    assert ops.main(["leads"]) == 0
    assert "helene.lefevre@example.com" in capsys.readouterr().out
    out = tmp_path / "leads.csv"
    ops.main(["export", "--output", str(out)])
    lines = out.read_text(encoding="utf-8-sig").splitlines()
    assert lines[0].startswith("id;created_at;form")
    assert "'=HYPERLINK" in lines[1]  # a formula typed by a visitor stays text
    with new_session() as session, session.begin():
        session.execute(update(OutboxMessage).values(status="failed"))
    ops.main(["outbox", "--status", "failed"])
    assert EBOOK_SUBJECT in capsys.readouterr().out
    ops.main(["retry", "--failed"])
    assert "1 message(s) queued again" in capsys.readouterr().out
    assert stored_rows(OutboxMessage)[0].status == "pending"


@pytest.mark.parametrize(("field", "value"), variants(ACCEPTED) + variants(REFUSED))
def test_the_api_schema_documents_the_form_rules(field, value):
    """The OpenAPI contact properties are the lead form's model: a client that follows the
    schema's pattern and lengths is accepted exactly when the form's own check accepts."""
    from marketing_site.api.mail import OPENAPI
    from marketing_site.services.leads import field_specs, validate_fields

    schema = OPENAPI["components"]["schemas"]["Lead"]["properties"][field]
    [spec] = [spec for spec in field_specs("ebook", "en") if spec["name"] == field]
    assert (schema["minLength"], schema["maxLength"]) == (1, spec["maxLength"])
    assert schema["pattern"] == f"^(?:{spec['pattern']})$"
    # JSON Schema's `$` (ECMA, no multiline flag) is the end of the text; Python's `\Z` is.
    follows_schema = re.search(schema["pattern"].removesuffix("$") + r"\Z", value) is not None
    follows_schema = follows_schema and len(value) <= schema["maxLength"]
    check = validate_fields("ebook", form_values("ebook", **{**BASE, field: value}))
    assert follows_schema == check.ok
