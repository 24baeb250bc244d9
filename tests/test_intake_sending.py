"""Issue 39, finding 6: intake accepted `{"email": "x@y.xn--a-"}`, which no mail header can carry:
the mail failed, health turned degraded and the critical MailFailing alert fired for six hours,
all from one request. One rule now: intake accepts an address only when `mail_headers.mailbox`,
the function that writes every address header the outbox sends, writes it
(services.leads._email_forms). The property: whatever address intake accepts, the outbox
composes a mail to it and from it (To of the visitor's booking mail, Reply-To of the sales
mail) and the real SMTP server of the tests takes it, with that address in the envelope."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from lead_payloads import form_values

# A download form's fields, from their specs (each test names the email).
CONTACT = form_values("ebook")
_ATEXT = "abcXYZ019!#$%&'*+/=?^_`{|}~-"
label_characters = st.sampled_from([*"abcxyz019-ßéçüσςΣ中文日本ÄÖ", "xn--", "\u00ad", "\u200d"])
labels = st.lists(label_characters, min_size=1, max_size=12).map("".join)
top_levels = st.one_of(
    st.sampled_from(["fr", "com", "example", "xn--a-", "xn--zz", "xn--p1ai", "xn--", "ελ", "中国", "c-", "-c", "co"]),
    labels,
)
built = st.builds(
    lambda local, domain, top: f"{local}@{'.'.join(domain)}.{top}",
    st.lists(st.text(alphabet=_ATEXT, min_size=1, max_size=8), min_size=1, max_size=3).map(".".join),
    st.lists(labels, min_size=1, max_size=3),
    top_levels,
)
addresses = st.one_of(st.emails(), built, st.sampled_from(["x@y.xn--a-", "x@xn--zz.fr", "ADA@Bücher.Example"]))


def _run(coro):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture
def sending(smtp, monkeypatch):
    """The settings of the session's SMTP server (conftest.py's `smtp`)."""
    from marketing_site.settings import get_settings

    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("SMTP_PORT", str(smtp.port))
    monkeypatch.setenv("SMTP_STARTTLS", "false")
    get_settings.cache_clear()
    yield smtp
    get_settings.cache_clear()


def test_the_address_no_header_can_carry_is_refused_at_intake():
    from marketing_site.services import leads

    for email in ("x@y.xn--a-", "x@y.-ab", "x@a-.fr"):
        assert "email" in leads.validate_fields("ebook", {**CONTACT, "email": email}).errors, email


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(email=addresses)
def test_any_address_intake_accepts_is_sent_through_the_smtp_server(sending, email):
    from marketing_site.db.leads import OutboxMessage, utcnow
    from marketing_site.services import leads, mail
    from marketing_site.settings import get_settings

    check = leads.validate_fields("ebook", {**CONTACT, "email": email})
    event("accepted" if check.ok else "refused")
    if not check.ok:
        return
    stored = check.values["email"]
    # As the booking writes the visitor's mail (To: the stored address) and the lead's sales mail
    # (Reply-To: the address as intake wrote it for headers).
    message = OutboxMessage(
        message_id=mail.new_message_id(),
        mail_from=get_settings().mail_from,
        mail_to=leads.email_for_headers(stored),
        reply_to=check.email_ascii,
        subject="Demo",
        body="-",
        created_at=utcnow(),
    )
    composed = mail.compose(message)
    received = len(sending.envelopes)
    _run(mail.deliver(composed))
    _, recipients, data = sending.envelopes[received]
    assert recipients == (check.email_ascii,)
    assert f"Reply-To: {check.email_ascii}".encode() in data
    assert leads.email_for_headers(stored) == check.email_ascii  # the stored form writes back the same
