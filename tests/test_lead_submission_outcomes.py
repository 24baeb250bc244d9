"""What `submit_lead` answers and counts for each outcome, build-free on a real migrated SQLite
database: the refusal reasons of `site_leads_refused_total` (the dashboard sums by them, and
deploy/prometheus/site-alerts.yml's runbook names them: a renamed reason leaves its panel empty),
the duplicate and accepted counters, the `Retry-After` of a rate-limited request; and the stored
idempotency keys, which must keep their value from one release to the next (a retry sent across
a deploy would otherwise store the lead twice).
"""

from __future__ import annotations

import pytest
from lead_payloads import lead_payload

from marketing_site import metrics

WINDOW = 30  # RATE_LIMIT_WINDOW_SECONDS here: a refusal's wait is at most this


def counted(name: str, **labels: str) -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value(name, labels) or 0.0


def counts() -> dict[str, float]:
    return {
        **{reason: counted("site_leads_refused_total", reason=reason) for reason in metrics.LEAD_REFUSAL_REASONS},
        "accepted": counted("site_leads_accepted_total"),
        "duplicate": counted("site_leads_duplicate_total"),
    }


@pytest.fixture
def intake(service, monkeypatch):
    from marketing_site import settings

    monkeypatch.setenv("RATE_LIMIT_WINDOW_SECONDS", str(WINDOW))
    monkeypatch.delenv("REFLEX_REDIS_URL", raising=False)
    settings.get_settings.cache_clear()
    service._limiters.cache_clear()
    return service


def submitted(intake, payload, client_ip, key=None):
    """The result of one submission, and what it added to each counter."""
    before = counts()
    result = intake.submit_lead(payload, client_ip, key)
    after = counts()
    return result, {name: after[name] - before[name] for name in after if after[name] != before[name]}


def test_the_refusal_reasons_are_the_ones_the_dashboard_and_the_runbook_read():
    assert set(metrics.LEAD_REFUSAL_REASONS) == {"invalid", "rate_limited_ip", "rate_limited_email"}


def test_each_outcome_is_counted_once_under_its_own_name(intake):
    result, added = submitted(intake, lead_payload(), "10.3.0.1")
    assert result.status == "accepted" and not result.duplicate and added == {"accepted": 1}

    again, added = submitted(intake, lead_payload(), "10.3.0.1")
    assert (again.status, again.duplicate, again.lead_id) == ("accepted", True, result.lead_id)
    assert added == {"duplicate": 1}

    refused, added = submitted(intake, lead_payload(phone="call me"), "10.3.0.1")
    assert (refused.status, refused.retry_after, refused.lead_id) == ("invalid", 0, None)
    assert set(refused.errors) == {"phone"} and added == {"invalid": 1}


def test_a_rate_limited_address_is_counted_as_such_and_told_when_to_retry(intake):
    for number in range(5):  # RATE_LIMIT_PER_IP (the service fixture)
        assert intake.submit_lead(lead_payload(email=f"p{number}@example.com"), "10.3.0.2").status == "accepted"
    result, added = submitted(intake, lead_payload(email="p9@example.com"), "10.3.0.2")
    assert result.status == "rate_limited" and added == {"rate_limited_ip": 1}
    # The seconds until the oldest hit leaves the window, rounded up (never 0: "retry now" would loop).
    assert isinstance(result.retry_after, int) and WINDOW - 3 <= result.retry_after <= WINDOW
    assert result.lead_id is None and result.errors == {}


def test_a_rate_limited_email_is_counted_as_such_and_told_when_to_retry(intake):
    for number in range(3):  # RATE_LIMIT_PER_EMAIL (the service fixture), from other addresses each time
        payload = lead_payload(email="same@example.com", company=f"Banque {number}")
        assert intake.submit_lead(payload, f"10.3.1.{number}").status == "accepted"
    result, added = submitted(intake, lead_payload(email="Same@Example.com", company="Autre"), "10.3.1.9")
    assert result.status == "rate_limited" and added == {"rate_limited_email": 1}
    assert isinstance(result.retry_after, int) and WINDOW - 3 <= result.retry_after <= WINDOW


# ----------------------------------------------------------------------------- stored keys


def test_a_scoped_key_is_the_one_earlier_releases_stored():
    """Known answers: a client that sent a request with an Idempotency-Key before a deploy and
    retries it after finds its lead or booking only if the stored key is computed as before."""
    from marketing_site.services.leads import scoped_idempotency_key

    parts = ("ebook", "fr", "Lefèvre", None, "x\udc80")  # a non-text part counts as empty; a lone surrogate kept
    assert scoped_idempotency_key("203.0.113.7", "abc", parts) == (
        "8e430ebf8912bb947b0bb6faee98058f4cee7708e7d2a3465330c97f53961fb4"
    )
    assert scoped_idempotency_key("203.0.113.7", "abc", ("ebook", "fr", "Lefèvre", "", "x\udc80")) == (
        scoped_idempotency_key("203.0.113.7", "abc", parts)
    )
    # The header's first 200 characters (the schema's maxLength) are the key.
    assert scoped_idempotency_key("203.0.113.7", "k" * 300, ("ebook",)) == (
        "2bc6fd5ec81ef7bba133b29ed3866ddf031c44e0cbd2e882e52db4aa1622dde1"
    )
    assert scoped_idempotency_key("203.0.113.7", "k" * 200, ("ebook",)) == (
        scoped_idempotency_key("203.0.113.7", "k" * 300, ("ebook",))
    )
    assert scoped_idempotency_key("203.0.113.7", "k" * 199, ("ebook",)) != (
        scoped_idempotency_key("203.0.113.7", "k" * 200, ("ebook",))
    )


def _stored_leads():
    from lead_payloads import stored_rows

    from marketing_site.db.leads import Lead

    return stored_rows(Lead)


def test_without_a_key_the_stored_content_key_is_the_one_earlier_releases_stored(intake, monkeypatch):
    """The same details sent twice within the ten minutes around a deploy are still one lead."""
    monkeypatch.setattr(intake.time, "time", lambda: 1_800_000_123.0)  # window 3_000_000
    payload = lead_payload(company="Banque Exemple", email="Helene.Lefevre@Example.com")
    assert intake.submit_lead(payload, "10.3.2.1").status == "accepted"
    [lead] = _stored_leads()
    assert lead.idempotency_key == "114017eac714dcfc03a0b76478a1a44702ce88dcd6add0dcf851410ab7c317fc"


def test_a_lead_is_stored_with_its_flags_and_where_the_visit_came_from(intake):
    attribution = {"landing_page": "/", "referrer": "news.example", "utm_source": "newsletter", "utm_term": "kyc"}
    payload = lead_payload(elapsedMs=10, website="x", attribution=attribution)
    assert intake.submit_lead(payload, "10.3.3.1").status == "accepted"
    [lead] = _stored_leads()
    assert lead.flags == "fast,honeypot"
    stored = {
        name: getattr(lead, name) for name in ("landing_page", "referrer", "utm_source", "utm_medium", "utm_term")
    }
    assert stored == {**attribution, "utm_medium": ""}


def test_a_twin_that_wins_the_race_at_the_unique_key_is_answered_as_the_same_lead(intake):
    """Two copies of one submission both find no lead, then both store: the unique index refuses
    the second, which answers the first's lead as a duplicate and stores no mail of its own.
    The twin is stored (by the same code, in a session of its own) just before this one's row is
    written."""
    from sqlalchemy import event
    from sqlalchemy.orm import Session

    from marketing_site.db.leads import Lead, OutboxMessage

    payload = lead_payload()
    twin: dict[str, int] = {}

    def store_the_twin_first(session, *_):
        pending = [row for row in session.new if isinstance(row, Lead)]
        if pending and not twin:
            twin["id"] = 0  # this session's own flush is not the twin's
            lead, _ = intake.validate(payload)
            twin["id"] = intake._store(lead, pending[0].idempotency_key)

    event.listen(Session, "before_flush", store_the_twin_first)
    try:
        result, added = submitted(intake, payload, "10.3.4.1", "retry-key")
    finally:
        event.remove(Session, "before_flush", store_the_twin_first)
    assert (result.status, result.duplicate, result.lead_id) == ("accepted", True, twin["id"])
    assert added == {"duplicate": 1}
    assert [lead.id for lead in _stored_leads()] == [twin["id"]]
    from lead_payloads import stored_rows

    assert [message.lead_id for message in stored_rows(OutboxMessage)] == [twin["id"]]
