"""Message-IDs (services.mail.new_message_id): their shape and their uniqueness.

The shape is RFC 5322's `msg-id` exactly once: `<`, a dot-atom, `@`, the sender's domain, `>`,
with nothing before or after (a stray `>` makes the header unreadable to the receiving servers,
and a mail reader threads replies by it). Unique for all time: many draws in one process, and
draws of another process (a restart) never meet; never derived from a row id, which comes back
after a delete.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from email.parser import BytesHeaderParser
from email.policy import default as default_policy

import pytest
from servers import BIN, ROOT

from marketing_site.services import mail, mail_headers

# RFC 5322 §3.6.4 msg-id, as the site writes it: id-left a dot-atom of base64url text, id-right
# the sender's domain.
SHAPE = re.compile(r"<(?P<left>[A-Za-z0-9_-]+)@(?P<right>[a-z0-9-]+(?:\.[a-z0-9-]+)*)>")


@pytest.fixture
def mail_from(monkeypatch):
    from marketing_site import settings as site_settings

    def configure(value: str) -> None:
        monkeypatch.setenv("MAIL_FROM", value)
        site_settings.get_settings.cache_clear()

    yield configure
    site_settings.get_settings.cache_clear()


@pytest.mark.parametrize(
    ("configured", "domain"),
    [
        ("Nereo <noreply@nereo-wealth.fr>", "nereo-wealth.fr"),
        ("noreply@Mail.Nereo-Wealth.FR", "mail.nereo-wealth.fr"),
        ("Nereo <noreply@société.example>", "xn--socit-esab.example"),  # IDNA, as every header
        ("not an address", "localhost"),  # refused at start-up; never a crash while storing a lead
    ],
)
def test_a_message_id_is_one_msg_id_at_the_senders_domain(mail_from, configured, domain):
    mail_from(configured)
    for _ in range(50):
        value = mail.new_message_id()
        match = SHAPE.fullmatch(value)
        assert match is not None, value
        assert match["right"] == domain
        # 18 random bytes: 24 base64url characters, 144 bits.
        assert len(match["left"]) == 24
        assert value.count("<") == value.count(">") == value.count("@") == 1
        assert mail_headers.checked_message_id(value) == value


def test_the_sent_header_carries_the_stored_message_id_once_and_intact(mail_from):
    from marketing_site.db.leads import OutboxMessage, utcnow

    mail_from("Nereo <noreply@nereo-wealth.fr>")
    message_id = mail.new_message_id()
    composed = mail.compose(
        OutboxMessage(
            message_id=message_id,
            mail_from="Nereo <noreply@nereo-wealth.fr>",
            mail_to="leads@nereo-wealth.fr",
            reply_to="visitor@example.com",
            subject="Ebook download",
            body="Prénom : Hélène\n",
            created_at=utcnow(),
        )
    )
    assert composed.message_id == message_id
    assert composed.data.count(b"\r\nMessage-ID:") == 1
    assert f"\r\nMessage-ID: {message_id}\r\n".encode() in composed.data
    parsed = BytesHeaderParser(policy=default_policy).parsebytes(composed.data)
    assert parsed.get_all("Message-ID") == [message_id]


def test_many_draws_never_repeat():
    drawn = [mail.new_message_id() for _ in range(20_000)]
    assert len(set(drawn)) == len(drawn)
    # Nor does the random part: the domain is the same for every draw.
    assert len({value.partition("@")[0] for value in drawn}) == len(drawn)


def test_a_restarted_process_draws_other_ids():
    """Another interpreter (a restart, another worker or machine) never repeats this one's draws: no seeded generator, no counter that starts over (1.7 CPU seconds:
    one interpreter importing the mail service)."""
    script = "import json\nfrom marketing_site.services import mail\nprint(json.dumps([mail.new_message_id() for _ in range(2000)]))"
    environment = {key: value for key, value in os.environ.items() if key != "MAIL_FROM"}
    run = subprocess.run(
        [str(BIN / "python"), "-c", script],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    other_process = set(json.loads(run.stdout))
    here = {mail.new_message_id() for _ in range(2000)}
    assert len(other_process) == len(here) == 2000
    assert not other_process & here


def test_the_sink_keeps_one_file_per_message_id(tmp_path):
    """Without SMTP, mail goes to files named by the Message-ID: two messages never share one
    (the name keeps every character a Message-ID is drawn from), and the name is the id's."""
    folder = tmp_path / "sink"
    ids = [mail.new_message_id() for _ in range(200)]
    for message_id in ids:
        mail._write_to_sink(mail.ComposedMail("a@b.example", ("c@d.example",), b"x", message_id), folder)
    assert sorted(path.name for path in folder.iterdir()) == sorted(f"{value[1:-1]}.eml" for value in ids)
