"""What a refused header says, and the rules at their exact edges.

A refused header's sentence is what an operator reads: a mail refused at composing keeps it as
its `last_error` (services/mail.py, shown by `ops outbox` and the console), and the start-up
check prints it after the setting's name (`mail_headers.problems`). Each sentence names the
header and the rule, so that "MAIL_FROM cannot be written" says what to change.
"""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from marketing_site.services import mail_headers
from marketing_site.services.mail_headers import SITE_POLICY, HeaderRefused


def _refusal(call, *arguments) -> str:
    with pytest.raises(HeaderRefused) as caught:
        call(*arguments)
    return str(caught.value)


@pytest.mark.parametrize(
    ("call", "argument", "said"),
    [
        (mail_headers.ascii_domain, "\u2603.example", "an address whose domain has no IDNA form"),
        (mail_headers.ascii_domain, "bank_example.test", "an address whose domain is not a host name"),
        (mail_headers.mailbox, "first last@bank.example", "an address whose local part is not a plain dot-atom"),
        (mail_headers.parse_mailboxes, "  ", "no address"),
        (mail_headers.parse_mailboxes, "Name <a@b.example", "an address list the site does not write"),
        (mail_headers.format_mailboxes, 42, "an address header given neither mailboxes nor text"),
        (mail_headers.format_mailboxes, [], "no address"),
        (mail_headers.checked_message_id, "<no-domain>", "a Message-ID that is not <dot-atom@dot-atom>"),
    ],
)
def test_each_refused_address_or_message_id_says_which_rule(call, argument, said):
    assert _refusal(call, argument) == said


@pytest.mark.parametrize(
    ("folded", "said"),
    [
        (b"Subject: caf\xc3\xa9\r\n", "Subject: 8-bit bytes in a header"),
        ("Subject: café\r\n", "Subject: non-ASCII text in a header"),
        ("Subject: hello", "Subject: a header that does not end its line"),
        ("Bcc: someone@else.example\r\n", "Subject: a header that does not start with its own name"),
        ("Subject: a\x00b\r\n", "Subject: a CR, LF or control character inside a header"),
        ("Subject: " + "x" * 990 + "\r\n", "Subject: a line longer than 998 characters"),
        ("Subject: hello\r\nBcc: x@y.example\r\n", "Subject: a folded line that would start a header or end them"),
        ("Subject: hello\r\n\tBcc : x\r\n", None),  # a continuation line: accepted as it is
        ("Subject: hello:\r\n world\r\n", None),
    ],
)
def test_each_refused_folded_header_names_the_header_and_the_rule(folded, said):
    if said is None:
        mail_headers.verify_folded("Subject", folded)
    else:
        assert _refusal(mail_headers.verify_folded, "Subject", folded) == said


def test_a_header_a_parser_reads_as_another_is_refused_with_its_name():
    # One line by every rule above, yet no header at all for a parser (the name holds a space).
    assert (
        _refusal(mail_headers.verify_folded, "X Note", "X Note: hello\r\n")
        == "X Note: the folded header reads back as other headers"
    )


def test_a_line_break_given_in_a_headers_text_is_refused_with_the_headers_name():
    mail = EmailMessage(policy=SITE_POLICY)
    with pytest.raises(HeaderRefused) as caught:
        mail["Subject"] = "Demo\u2028Bcc: x@y.example"
    assert str(caught.value) == "Subject: a line break or control character in a header's text"


def test_a_line_break_hidden_in_an_encoded_word_is_refused_when_written():
    # Given as an encoded word, the break is found once the folded header is decoded back.
    mail = EmailMessage(policy=SITE_POLICY)
    mail["Subject"] = "=?utf-8?q?Demo=E2=80=A8Bcc=3A_x=40y=2Eexample?="  # U+2028, encoded
    with pytest.raises(HeaderRefused) as caught:
        mail.as_bytes()
    assert str(caught.value) == "Subject: a line break or control character in a header's text"


def test_a_message_flattened_as_text_is_verified_as_when_flattened_as_bytes():
    # `as_string` folds through `SiteMailPolicy.fold`, `as_bytes` through `fold_binary`: both check.
    mail = EmailMessage(policy=SITE_POLICY)
    mail["From"] = mail_headers.mailbox("site@bank.example", "Nereo")
    mail["Subject"] = "Votre démonstration"
    mail.set_content("Bonjour")
    assert mail.as_string().replace("\r\n", "\n") == mail.as_bytes().decode("ascii").replace("\r\n", "\n")
    assert "Subject: Votre =?utf-8?q?d=C3=A9monstration?=\r\n" in mail.as_string()
    bad = EmailMessage(policy=SITE_POLICY)
    bad["Subject"] = "=?utf-8?q?Demo=E2=80=A8Bcc=3A_x=40y=2Eexample?="
    with pytest.raises(HeaderRefused) as caught:
        bad.as_string()
    assert str(caught.value) == "Subject: a line break or control character in a header's text"


def test_a_local_part_of_64_characters_is_accepted_and_65_refused():
    assert mail_headers.mailbox("a" * 64 + "@bank.example").addr_spec == "a" * 64 + "@bank.example"
    with pytest.raises(HeaderRefused):
        mail_headers.mailbox("a" * 65 + "@bank.example")


@pytest.mark.parametrize("control", ["\t", "\x00", "\x1f", "\x7f"])
def test_a_display_name_with_a_tab_or_any_control_character_is_refused(control):
    # A tab is no line break (`_BREAKS` lets it through header text), yet a display name holds none.
    assert (
        _refusal(mail_headers.format_mailboxes, mail_headers.mailbox("a@bank.example", f"Ana{control}Lima"))
        == "a display name with a control character or a line break"
    )
