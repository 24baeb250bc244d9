"""Mail headers (services/mail_headers.py): why the site writes them itself on this interpreter,
that whatever it writes reads back as exactly the intended headers, and the start-up check that
refuses to start where that would not hold."""

from __future__ import annotations

import email
import sys
import unicodedata
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import compat32
from email.policy import default as default_policy

import idna
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from marketing_site.services import mail_headers
from marketing_site.services.mail_headers import SITE_POLICY, HeaderRefused

INJECTION = "=?utf-8?q?x=0D=0AX-Injected=3A_yes?="
# CPython wrote an encoded CR LF as is until 3.11.10 (CVE-2024-6923); this machine runs 3.11.7.
WRITES_ENCODED_CRLF = sys.version_info < (3, 11, 10)
ATEXT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~-"
HYPOTHESIS = settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def _header_names(data: bytes) -> list[str]:
    return list(email.message_from_bytes(data, policy=compat32).keys())


def test_the_standard_policy_here_writes_an_encoded_crlf_in_a_subject_and_the_site_policy_refuses_it():
    plain = EmailMessage(policy=default_policy)
    plain["Subject"] = f"Démo {INJECTION}"
    written = plain.as_bytes()
    assert (b"\nX-Injected: yes" in written) == WRITES_ENCODED_CRLF, sys.version
    assert ("X-Injected" in _header_names(written)) == WRITES_ENCODED_CRLF
    site = EmailMessage(policy=SITE_POLICY)
    site["Subject"] = f"Démo {INJECTION}"
    if WRITES_ENCODED_CRLF:
        with pytest.raises(HeaderRefused, match="Subject"):
            site.as_bytes()
    else:  # a fixed interpreter encodes it: one Subject, still
        assert _header_names(site.as_bytes()) == ["Subject"]


@pytest.mark.parametrize(
    ("local", "written_by_the_standard_library"),
    [
        ("=?us-ascii?q?a=2C_b?=", "a, b@bank.example"),  # two recipients
        ("=?utf-8?q?ceo?=", "ceo@bank.example"),  # another recipient
        ("=?utf-8?q?ceo=40other.example=3E?=", "ceo@other.example>@bank.example"),
    ],
)
def test_the_header_registry_decodes_an_address_into_other_recipients_and_the_site_writes_it_as_typed(
    local, written_by_the_standard_library
):
    """Also through `email.headerregistry.Address`: an encoded word in a local part is decoded
    when the header is written; the site writes the dot-atom as typed (RFC 2047 §5: an encoded
    word is never one in an addr-spec)."""
    plain = EmailMessage(policy=default_policy)
    plain["Reply-To"] = Address(username=local, domain="bank.example")
    assert plain.as_bytes() == f"Reply-To: {written_by_the_standard_library}\n\n".encode()
    site = EmailMessage(policy=SITE_POLICY)
    site["Reply-To"] = f"{local}@bank.example"
    assert site.as_bytes() == f"Reply-To: {local}@bank.example\r\n\r\n".encode()
    assert site["Reply-To"] == f"{local}@bank.example"  # read back as written, never decoded


def test_the_verification_refuses_every_known_way_out_of_a_header():
    for name, folded in mail_headers._KNOWN_BAD:
        with pytest.raises(HeaderRefused):
            mail_headers.verify_folded(name, folded)
    mail_headers.verify_folded("Subject", "Subject: =?utf-8?q?D=C3=A9mo?=\r\n suite\r\n")


@HYPOTHESIS
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_any_subject_is_refused_or_reads_back_as_that_one_header(text):
    mail = EmailMessage(policy=SITE_POLICY)
    try:
        mail["Subject"] = text
        written = mail.as_bytes()
    except ValueError:  # HeaderRefused, or the library's own refusal of a raw CR or LF
        return
    assert _header_names(written) == ["Subject"]
    assert all(len(line) <= 998 for line in written.split(b"\r\n"))
    read = email.message_from_bytes(written, policy=default_policy)["Subject"]
    assert "\r" not in str(read) and "\n" not in str(read)


def _encoded_word(payload: str, b_form: bool) -> str:
    import base64

    data = payload.encode()
    if b_form:
        return f"=?utf-8?b?{base64.b64encode(data).decode()}?="
    return "=?utf-8?q?" + "".join(chr(b) if chr(b).isalnum() and b < 128 else f"={b:02X}" for b in data) + "?="


LOCAL = (
    st.lists(
        st.one_of(
            st.text(ATEXT, min_size=1, max_size=20),
            st.builds(_encoded_word, st.sampled_from(["x\r\nBcc: v@evil.example", "a, b@evil.example"]), st.booleans()),
        ),
        min_size=1,
        max_size=3,
    )
    .map(".".join)
    .filter(lambda s: len(s) <= 64)
)
DOMAIN = st.sampled_from(["bank.example", "exämple.fr", "BÜCHER.example", "xn--p1ai", "例え.テスト", "rk.example"])


@HYPOTHESIS
@given(LOCAL, DOMAIN, st.sampled_from(["NFC", "NFD"]))
def test_any_address_is_written_as_typed_with_an_ascii_domain(local, domain, form):
    domain = unicodedata.normalize(form, domain)
    expected = f"{local}@{idna.encode(domain, uts46=True).decode() if not domain.isascii() else domain.lower()}"
    mail = EmailMessage(policy=SITE_POLICY)
    mail["To"] = f"{local}@{domain}"
    mail["Reply-To"] = mail_headers.mailbox(f"{local}@{domain}")
    written = mail.as_bytes()
    assert written == f"To: {expected}\r\nReply-To: {expected}\r\n\r\n".encode()
    assert email.utils.getaddresses([email.message_from_bytes(written, policy=compat32)["To"]]) == [("", expected)]


@pytest.mark.parametrize(
    "text",
    [
        "a@b.example\r\nBcc: c@d.example",
        "a b@c.example",
        '"quoted local"@c.example',
        "a@-bad-.example",
        "a@b.example>",
        "a..b@c.example",
        "x" * 65 + "@c.example",
        "",
        "group: a@b.example;",
    ],
)
def test_an_address_the_site_does_not_write_is_refused(text):
    with pytest.raises(HeaderRefused):
        mail_headers.format_mailboxes(text)


def test_configured_names_are_encoded_by_the_site():
    assert mail_headers.format_mailboxes("Nereo <noreply@nereo-wealth.fr>") == "Nereo <noreply@nereo-wealth.fr>"
    written = mail_headers.format_mailboxes("Équipe Nereo =?x?= <a@b.example>, c@d.example")
    assert written.startswith("=?utf-8?b?") and written.endswith(" <a@b.example>, c@d.example")
    parsed = email.message_from_bytes(f"From: {written}\r\n\r\n".encode(), policy=default_policy)["From"]
    assert [(a.display_name, a.addr_spec) for a in parsed.addresses] == [
        ("Équipe Nereo =?x?=", "a@b.example"),
        ("", "c@d.example"),
    ]


# ----------------------------------------------------------------------------- start-up check


def test_the_start_up_check_passes_here_and_refuses_to_start_without_the_verification(monkeypatch):
    from marketing_site.services import mail

    assert mail_headers.problems() == []
    mail.check_startup()  # the configured addresses too
    monkeypatch.setattr(mail_headers, "verify_folded", lambda *args, **kwargs: None)
    problems = mail_headers.problems()
    assert any("lets through" in p for p in problems)
    if WRITES_ENCODED_CRLF:  # the probes themselves reach the wire changed on this interpreter
        assert any("probe" in p for p in problems)
    with pytest.raises(RuntimeError, match="Refusing to start"):
        mail.check_startup()


def test_the_start_up_check_refuses_a_configured_address_it_cannot_write(monkeypatch):
    from marketing_site import settings
    from marketing_site.services import mail

    monkeypatch.setenv("LEAD_MAIL_TO", "sales@intranet local")
    settings.get_settings.cache_clear()
    try:
        with pytest.raises(RuntimeError, match="LEAD_MAIL_TO"):
            mail.check_startup()
    finally:
        monkeypatch.undo()
        settings.get_settings.cache_clear()


def test_message_ids_are_random_and_carry_no_row_id():
    from marketing_site.services import mail

    ids = {mail.new_message_id() for _ in range(10_000)}
    assert len(ids) == 10_000
    assert all(mail_headers.MESSAGE_ID.fullmatch(i) and i.endswith("@nereo-wealth.fr>") for i in ids)
    assert all(len(i.split("@")[0]) == 25 for i in ids)  # "<" and 24 characters: 144 random bits
