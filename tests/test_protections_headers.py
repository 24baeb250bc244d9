"""The Unicode line separators (U+2028, U+2029, NEL U+0085: `str.splitlines` ends a line at each)
in every header the site writes (issue 39, point 15), raw or hidden in an encoded word, wherever
they stand in the value: each is refused, never written. Mail: Subject, From, To, Reply-To,
Message-ID, any other header, the display names the site encodes itself (MAIL_FROM's and the
other configured addresses'). HTTP: a return path never reaches Location or the page holding one
(return paths refuse nothing above U+0020 but DEL; these are percent-encoded or written as text
of an attribute, `test_protections_return_paths.py`), and the logs escape them
(`test_logging.py`). Build-free."""

from __future__ import annotations

import base64
import email
from email.message import EmailMessage
from email.policy import default as default_policy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marketing_site.services import mail_headers
from marketing_site.services.mail_headers import SITE_POLICY, HeaderRefused

SEPARATORS = ["\u2028", "\u2029", "\x85"]
# Text around the separator: any character but a surrogate (no header can hold one).
AROUND = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)


def _encoded(text: str) -> str:
    return f"=?utf-8?b?{base64.b64encode(text.encode()).decode()}?="


def _written(header: str, value) -> bytes:
    mail = EmailMessage(policy=SITE_POLICY)
    mail[header] = value
    return mail.as_bytes()


@settings(max_examples=60, deadline=None)
@given(separator=st.sampled_from(SEPARATORS), before=AROUND, after=AROUND, encoded=st.booleans())
def test_a_separator_in_a_subject_or_any_other_text_header_is_refused(separator, before, after, encoded):
    text = f"{before}{separator}{after}"
    for header in ("Subject", "X-Nereo-Form", "Comments"):
        with pytest.raises(ValueError):  # HeaderRefused
            _written(header, _encoded(text) if encoded else text)


@settings(max_examples=60, deadline=None)
@given(separator=st.sampled_from(SEPARATORS), before=AROUND, after=AROUND)
def test_a_separator_in_a_display_name_is_refused_before_it_is_encoded(separator, before, after):
    name = f"{before}x{separator}x{after}"  # inside the name (one at either end is trimmed away)
    for header in ("From", "To", "Reply-To", "Cc"):
        with pytest.raises(HeaderRefused):
            _written(header, mail_headers.mailbox("equipe@nereo.example", name))
        with pytest.raises(HeaderRefused):
            _written(header, f'"{name}" <equipe@nereo.example>')
        # An encoded word given as a name is text to the site: encoded again, it reads back as
        # that text, never as the separator it hides.
        written = _written(header, f"{_encoded(name)} <equipe@nereo.example>")
        read = email.message_from_bytes(written, policy=default_policy)[header]
        assert separator not in str(read) and "=?utf-8?b?" in str(read)


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_separator_in_an_address_or_a_message_id_is_refused(separator):
    for header in ("From", "To", "Reply-To"):
        with pytest.raises(HeaderRefused):
            _written(header, f"a{separator}b@bank.example")
        with pytest.raises(HeaderRefused):
            _written(header, f"ab@bank{separator}.example")
    with pytest.raises(HeaderRefused):
        _written("Message-ID", f"<a{separator}b@nereo.example>")


def test_the_same_headers_without_a_separator_are_written():
    """The refusals above are the separator's: without it, each value is written."""
    assert _written("Subject", "Démo – suite").startswith(b"Subject: ")
    assert b"From: " in _written("From", '"Équipe Nereo" <equipe@nereo.example>')
    assert _written("Reply-To", "ab@bank.example") == b"Reply-To: ab@bank.example\r\n\r\n"
    assert _written("Message-ID", "<ab@nereo.example>") == b"Message-ID: <ab@nereo.example>\r\n\r\n"


# ----------------------------------------------------------------------------- the start-up check


def test_the_start_up_probe_passes_a_safe_message_through_every_check():
    """`_probe` on inputs this interpreter writes safely reaches its last check and finds nothing:
    each of its checks (the headers read back, the To unchanged, the set of names) runs."""
    assert mail_headers._probe("Démo", "personne@bank.example") is None
    # The To written with its domain as xn--: not the address given, which the probe reports.
    assert "was written as other headers" in (mail_headers._probe("plain subject", "a.b@exämple.fr") or "")


def test_a_flattened_message_must_read_back_with_exactly_its_headers():
    from marketing_site.services.mail_headers import check_written

    mail = EmailMessage(policy=SITE_POLICY)
    mail["From"] = "Site <site@nereo.example>"
    mail["To"] = "personne@bank.example"
    mail["Subject"] = "Démo"
    data = mail.as_bytes()
    check_written(mail, data)
    check_written(mail, data.replace(b"To: ", b"tO: "))  # names in any case
    check_written(mail, data.replace(b"D=C3=A9mo", b"D=C3=A9mo2"))  # a text header's value is not compared
    for changed in (
        data.replace(b"To: personne@bank.example", b"To: autre@bank.example"),  # an address changed
        data.replace(b"To: personne@bank.example\r\n", b"To: personne@bank.example\r\nBcc: x@evil.example\r\n"),
        data.replace(b"To: personne@bank.example\r\n", b""),  # a header lost
        b"X-First: 1\r\n" + data,
    ):
        with pytest.raises(HeaderRefused):
            check_written(mail, changed)


def test_the_start_up_check_names_the_setting_it_cannot_write():
    found = mail_headers.problems([("MAIL_FROM", "Site <site@nereo.example>"), ("LEAD_MAIL_TO", "a b@x.example")])
    assert len(found) == 1 and found[0].startswith("LEAD_MAIL_TO cannot be written as an address header: ")
    assert mail_headers.problems() == []
