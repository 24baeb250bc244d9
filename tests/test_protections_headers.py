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
from email.header import decode_header, make_header
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


# ----------------------------------------------------------------------------- the writers' edges


def test_a_display_name_is_cut_into_encoded_words_of_45_bytes_that_read_back_whole():
    """RFC 2047: an encoded word is at most 75 characters; 45 bytes of UTF-8 in base64 are 60 plus
    the 12 of its frame. Cut between characters, never inside one."""
    for name, words in (("é" * 22 + "x", 1), ("é" * 23, 2), ("é" * 22 + "xy", 2), ("€" * 15, 1), ("€" * 16, 2)):
        written = mail_headers._display_name(name)
        parts = written.split(" ")
        assert len(parts) == words and all(len(part) <= 75 for part in parts), name
        assert str(make_header(decode_header(written))) == name  # RFC 2047 §6.2: no space between words
    assert mail_headers._display_name("Nereo Wealth") == "Nereo Wealth"  # plain words stay plain


@pytest.mark.parametrize("character", ["\x00", "\x1f", "\x7f", "\x80", "\x9f"])
def test_a_control_character_in_a_display_name_is_refused(character):
    with pytest.raises(HeaderRefused):
        mail_headers._display_name(f"Nereo{character}Wealth")


def test_a_folded_line_holds_no_control_character_but_a_tab():
    mail_headers.verify_folded("Subject", "Subject: a\tb\r\n")
    mail_headers.verify_folded("Subject", "Subject: a\r\n\tb\r\n")  # folded with a tab
    for bad in ("a\x7fb", "a\x01b", "a\x00b"):
        with pytest.raises(HeaderRefused, match="control character"):
            mail_headers.verify_folded("Subject", f"Subject: {bad}\r\n")


def test_an_encoded_line_break_before_a_colon_is_found():
    """The whole value after the header's name is decoded, not what follows its last colon."""
    for value in (
        "=?utf-8?q?a=E2=80=A8b?= : suite",
        "=?utf-8?q?a=0D=0AX-Injected=3A_yes?= : suite",
        "suite : =?utf-8?q?a=E2=80=A8b?=",
        "a: b: =?utf-8?q?a=0D=0AX-Injected=3A_yes?=",
    ):
        with pytest.raises(HeaderRefused):
            _written("Subject", value)


def test_a_domain_of_253_characters_is_written_and_254_is_refused():
    domain = ".".join(["d" * 63] * 3 + ["e" * 61])
    assert mail_headers.ascii_domain(domain) == domain
    longer = ".".join(["d" * 63] * 3 + ["e" * 62])  # every label within its 63
    assert len(longer) == 254
    with pytest.raises(HeaderRefused):
        mail_headers.ascii_domain(longer)


def test_a_message_id_of_200_characters_is_written_and_201_or_another_form_is_refused():
    at_limit = "<" + "a" * 184 + "@nereo.example>"
    assert len(at_limit) == 200 and mail_headers.checked_message_id(at_limit) == at_limit
    for bad in ("<a" + at_limit[1:], "a@nereo.example", "<a@nereo.example>x", "<a b@nereo.example>", None):
        with pytest.raises(HeaderRefused):
            mail_headers.checked_message_id(bad)
        with pytest.raises(HeaderRefused):
            _written("Message-ID", bad)


def test_a_quoted_display_name_is_read_without_its_quotes():
    [named] = mail_headers.parse_mailboxes('"Nereo Wealth" <equipe@nereo.example>')
    assert named.display_name == "Nereo Wealth"
    [empty] = mail_headers.parse_mailboxes('"" <equipe@nereo.example>')
    assert empty.display_name == "" and empty.header_text() == "equipe@nereo.example"
    [one] = mail_headers.parse_mailboxes('" <equipe@nereo.example>')
    assert one.display_name == '"'
    [inner] = mail_headers.parse_mailboxes('"a"b" <equipe@nereo.example>')
    assert inner.display_name == 'a"b'
    with pytest.raises(HeaderRefused):
        mail_headers.parse_mailboxes("   ")


def test_address_headers_given_as_mailboxes_read_back_and_anything_else_is_refused():
    from marketing_site.services.mail_headers import check_written, format_mailboxes, mailbox, parse_mailboxes

    mail = EmailMessage(policy=SITE_POLICY)
    mail["From"] = [mailbox("site@nereo.example", "Nereo")]
    mail["To"] = parse_mailboxes("personne@bank.example, Autre <autre@bank.example>")
    check_written(mail, mail.as_bytes())
    for not_mailboxes in (["personne@bank.example"], [mailbox("a@b.example"), "c@d.example"], 7, None, []):
        with pytest.raises(HeaderRefused):
            format_mailboxes(not_mailboxes)
    for not_text in (None, 7, b"a@b.example"):
        with pytest.raises(HeaderRefused):
            parse_mailboxes(not_text)
