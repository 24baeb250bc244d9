"""How the site writes mail headers: addresses written by the site itself, every folded header
verified before it leaves, and a start-up check that this holds on the running interpreter.

Why not the standard library alone: its header registry decodes RFC 2047 encoded words while it
writes. An address such as `=?us-ascii?q?a=2C_b?=@bank.example` (a dot-atom the lead form
accepts) is written `a, b@bank.example` (two recipients), also through
`email.headerregistry.Address`, and on CPython 3.11.0-3.11.9 (3.11.7 here; pyproject.toml allows
any 3.11) an encoded CR LF in an unstructured header such as Subject is written as is: a new
header line (CVE-2024-6923). So:

- address headers (From, To, Reply-To, Cc, Sender) and Message-ID are written by `format_mailboxes`
  and `checked_message_id` from plain ASCII parts (a dot-atom local part as typed, never decoded;
  the domain in IDNA form) and stored raw: the registry never parses them;
- every header the message carries is folded through `SiteMailPolicy`, which parses what the
  library wrote and refuses (`HeaderRefused`) anything but one header of the given name: no bare
  CR or LF, no line that is not a continuation, ASCII only, at most 998 characters a line;
- `problems()` runs hostile probes through that policy; the site refuses to start when it finds
  any (`mail.check_startup`), so the guarantee holds on whichever interpreter runs it, patched
  or not, rather than on one pinned version.

Visitor text never goes into a Subject at all (content/fr/booking_sales.yaml); the verification is
the guard for what a later change might put there.
"""

from __future__ import annotations

import base64
import dataclasses
import re
from collections.abc import Iterable
from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.message import EmailMessage
from email.parser import BytesHeaderParser, HeaderParser
from email.policy import EmailPolicy, compat32

import idna

# Written raw by the site, never parsed (nor decoded) by the header registry.
ADDRESS_HEADERS = frozenset({"from", "to", "reply-to", "cc", "sender"})
RAW_HEADERS = ADDRESS_HEADERS | {"message-id"}
MAX_LINE = 998  # RFC 5322 §2.1.1: a line is at most 998 characters
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
DOT_ATOM = re.compile(rf"{_ATEXT}(?:\.{_ATEXT})*")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
ASCII_DOMAIN = re.compile(rf"(?:{_LABEL}\.)*{_LABEL}")
MESSAGE_ID = re.compile(rf"<{_ATEXT}(?:\.{_ATEXT})*@{_ATEXT}(?:\.{_ATEXT})*>")
# A display name that needs neither quotes nor encoding (no "=?", which readers may decode).
_PLAIN_NAME = re.compile(r"[A-Za-z0-9!#$%&'*+/^_`{|}~ -]+")
# One configured mailbox: `addr-spec` or `Display Name <addr-spec>`.
_MAILBOX = re.compile(r'\s*(?:(?P<name>[^<>]*?)\s*<(?P<addr>[^<>\s]+)>|(?P<bare>[^<>\s",;]+))\s*')


class HeaderRefused(ValueError):
    """A header the site will not send: it would not read back as the one header it means."""


@dataclasses.dataclass(frozen=True)
class Mailbox:
    local: str  # a dot-atom, exactly as given
    domain: str  # ASCII (IDNA), lower case
    display_name: str = ""

    @property
    def addr_spec(self) -> str:
        return f"{self.local}@{self.domain}"

    def header_text(self) -> str:
        if not self.display_name:
            return self.addr_spec
        return f"{_display_name(self.display_name)} <{self.addr_spec}>"


def ascii_domain(domain: str) -> str:
    """The domain in ASCII (IDNA) form, lower case; HeaderRefused when it has none."""
    try:
        text = domain if domain.isascii() else idna.encode(domain, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as error:
        raise HeaderRefused("an address whose domain has no IDNA form") from error
    text = text.lower()
    if len(text) > 253 or not ASCII_DOMAIN.fullmatch(text):
        raise HeaderRefused("an address whose domain is not a host name")
    return text


def mailbox(addr_spec: str, display_name: str = "") -> Mailbox:
    """A plain `local@domain` (a dot-atom local part, never quoted, never decoded)."""
    local, at, domain = addr_spec.rpartition("@")
    if not at or len(local) > 64 or not DOT_ATOM.fullmatch(local):
        raise HeaderRefused("an address whose local part is not a plain dot-atom")
    return Mailbox(local, ascii_domain(domain), display_name.strip())


def parse_mailboxes(text: str) -> list[Mailbox]:
    """Mailboxes of a stored or configured address list: `a@x.example, Name <b@y.example>`.

    A strict grammar of its own (no comments, no groups, no commas in names), not the standard
    library's lenient parsers, which decode encoded words (see the module's docstring).
    """
    if not isinstance(text, str) or not text.strip():
        raise HeaderRefused("no address")
    found = []
    for item in text.split(","):
        match = _MAILBOX.fullmatch(item)
        if match is None:
            raise HeaderRefused("an address list the site does not write")
        name = (match["name"] or "").strip()
        if len(name) >= 2 and name[0] == name[-1] == '"':
            name = name[1:-1]
        found.append(mailbox(match["addr"] or match["bare"], name))
    return found


def _display_name(name: str) -> str:
    # Refused before it is encoded: a reader that decodes the encoded word would find the break
    # (U+2028, U+2029, NEL: `str.splitlines` ends a line at each).
    if any(ord(c) < 32 or ord(c) == 127 for c in name) or _BREAKS.search(name):
        raise HeaderRefused("a display name with a control character or a line break")
    if _PLAIN_NAME.fullmatch(name):
        return name
    # RFC 2047 encoded words, base64 (no character of the name survives as header syntax), each
    # at most 75 characters: 45 bytes of UTF-8 at most, cut between characters.
    words, chunk = [], b""
    for char in name:
        encoded = char.encode("utf-8")
        if len(chunk) + len(encoded) > 45:
            words.append(chunk)
            chunk = b""
        chunk += encoded
    words.append(chunk)
    return " ".join(f"=?utf-8?b?{base64.b64encode(word).decode('ascii')}?=" for word in words)


def format_mailboxes(value: object) -> str:
    """An address header's value as the site writes it (one line, ASCII)."""
    if isinstance(value, Mailbox):
        boxes = [value]
    elif isinstance(value, str):
        boxes = parse_mailboxes(value)
    elif isinstance(value, Iterable) and all(isinstance(box, Mailbox) for box in value):
        boxes = list(value)
    else:
        raise HeaderRefused("an address header given neither mailboxes nor text")
    if not boxes:
        raise HeaderRefused("no address")
    return ", ".join(box.header_text() for box in boxes)


def checked_message_id(value: object) -> str:
    if not isinstance(value, str) or len(value) > 200 or not MESSAGE_ID.fullmatch(value):
        raise HeaderRefused("a Message-ID that is not <dot-atom@dot-atom>")
    return value


def verify_folded(name: str, folded: str | bytes, linesep: str = "\r\n") -> None:
    """Refuse a folded header that would read back as anything but one header called `name`."""
    if isinstance(folded, bytes):
        try:
            folded = folded.decode("ascii")
        except UnicodeDecodeError:
            raise HeaderRefused(f"{name}: 8-bit bytes in a header") from None
    if not folded.isascii():
        raise HeaderRefused(f"{name}: non-ASCII text in a header")
    if not folded.endswith(linesep):
        raise HeaderRefused(f"{name}: a header that does not end its line")
    lines = folded[: -len(linesep)].split(linesep)
    if lines[0][: len(name) + 1].lower() != name.lower() + ":":
        raise HeaderRefused(f"{name}: a header that does not start with its own name")
    for number, line in enumerate(lines):
        if any((ord(c) < 32 and c != "\t") or ord(c) == 127 for c in line):
            raise HeaderRefused(f"{name}: a CR, LF or control character inside a header")
        if len(line) > MAX_LINE:
            raise HeaderRefused(f"{name}: a line longer than {MAX_LINE} characters")
        if number and (line[:1] not in (" ", "\t") or not line.strip()):
            raise HeaderRefused(f"{name}: a folded line that would start a header or end them")
    # And as a parser reads it: exactly this one header, nothing after it.
    parsed = HeaderParser(policy=compat32).parsestr(folded.replace(linesep, "\n") + "\n")
    if [key.lower() for key in parsed] != [name.lower()] or parsed.defects or parsed.get_payload():
        raise HeaderRefused(f"{name}: the folded header reads back as other headers")


# Control characters and every line break `str.splitlines` knows (a header value holds none).
_BREAKS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def _no_line_break(name: str, text: str) -> None:
    if _BREAKS.search(text):
        raise HeaderRefused(f"{name}: a line break or control character in a header's text")


class SiteMailPolicy(EmailPolicy):
    """The standard policy (CR LF, 7-bit bodies), with address headers and Message-ID written by
    the site and every folded header verified (`verify_folded`); the text of the others may
    hold no line break, given (`header_store_parse`) or once its encoded words are decoded
    (`_verify`): a reader that decodes it must not find one either."""

    def header_store_parse(self, name, value):
        key = name.lower()
        if key in ADDRESS_HEADERS:
            return (name, format_mailboxes(value))
        if key == "message-id":
            return (name, checked_message_id(value))
        if isinstance(value, str):
            _no_line_break(name, value)
        return super().header_store_parse(name, value)

    def header_fetch_parse(self, name, value):
        if name.lower() in RAW_HEADERS and isinstance(value, str):
            return value  # as written: never decoded
        return super().header_fetch_parse(name, value)

    def fold(self, name, value):
        folded = super().fold(name, value)
        self._verify(name, folded)
        return folded

    def fold_binary(self, name, value):
        folded = super().fold_binary(name, value)
        self._verify(name, folded)
        return folded

    def _verify(self, name: str, folded: str | bytes) -> None:
        verify_folded(name, folded, self.linesep)
        if name.lower() in RAW_HEADERS:
            return  # written by the site as typed: an addr-spec holds no encoded word (RFC 2047 §5)
        text = folded.decode("ascii") if isinstance(folded, bytes) else folded
        unfolded = text.split(":", 1)[1].replace(self.linesep, "")
        try:
            decoded = str(make_header(decode_header(unfolded)))
        except (HeaderParseError, LookupError, UnicodeError, ValueError):
            raise HeaderRefused(f"{name}: an encoded word that does not decode") from None
        _no_line_break(name, decoded)


# refold_source "none": a raw value (the address headers) is written as the site wrote it, never
# parsed again by the registry; "7bit": bodies travel as quoted-printable or base64.
SITE_POLICY = SiteMailPolicy(linesep="\r\n", refold_source="none", cte_type="7bit", utf8=False)


def written_headers(data: bytes) -> list[tuple[str, str]]:
    """The top-level headers of a flattened message, as a non-decoding parser reads them."""
    parsed = BytesHeaderParser(policy=compat32).parsebytes(data)
    return [(key, str(value)) for key, value in parsed.items()]


def check_written(mail: EmailMessage, data: bytes) -> None:
    """The flattened message reads back with exactly the headers set on it, the raw ones unchanged."""
    intended = [(key.lower(), value if isinstance(value, str) else None) for key, value in mail.raw_items()]
    found = written_headers(data)
    if [key.lower() for key, _ in found] != [key for key, _ in intended]:
        raise HeaderRefused("the message reads back with other headers than the site wrote")
    for (key, value), (_, read) in zip(intended, found, strict=True):
        if key in RAW_HEADERS and value is not None and read != value:
            raise HeaderRefused(f"{key}: the header reads back changed")


# ----------------------------------------------------------------------------- start-up check

# Folded headers the verification must refuse, whatever the interpreter.
_KNOWN_BAD = (
    ("Subject", "Subject: x\r\nX-Injected: yes\r\n"),
    ("Subject", "Subject: x\nX-Injected: yes\r\n"),
    ("Subject", "Subject: x\rX-Injected: yes\r\n"),
    ("Subject", "Subject: x\r\n\r\n<html>\r\n"),
    ("Subject", "Subject: x\r\n \r\n"),
    ("Subject", "Subject: caf\u00e9\r\n"),
    ("Reply-To", "Reply-To: a@b.example\r\nBcc: c@d.example\r\n"),
    ("Reply-To", "X-Other: x\r\n"),
)
# Encoded words that decode to CR LF and a header (q and b forms), in a Subject and in addresses.
_SUBJECT_PROBES = (
    "=?utf-8?q?x=0D=0AX-Injected=3A_yes?=",
    "Démo =?utf-8?b?eA0KWC1JbmplY3RlZDogeWVz?= =?utf-8?q?=0D=0A=0D=0A<html>?=",
    "=?utf-8?q?x=0AX-Injected=3A_yes?=",
)
_ADDRESS_PROBES = (
    "=?utf-8?q?x=0D=0ABcc=3A_y?=@bank.example",
    "=?utf-8?b?eA0KQmNjOiB5?=@bank.example",
    "=?us-ascii?q?a=2C_b?=@bank.example",
    "=?utf-8?q?ceo=40other.example=3E?=@bank.example",
)


def problems(configured: Iterable[tuple[str, str]] = ()) -> list[str]:
    """What keeps the site from writing safe headers on this interpreter; empty when nothing.

    `configured`: (setting name, address text) pairs that must be writable (MAIL_FROM …).
    """
    found = []
    for name, bad in _KNOWN_BAD:
        try:
            verify_folded(name, bad)
        except HeaderRefused:
            continue
        found.append(f"the header verification lets through {bad!r}")
    for subject in _SUBJECT_PROBES:
        for address in _ADDRESS_PROBES:
            problem = _probe(subject, address)
            if problem:
                found.append(problem)
    for setting, text in configured:
        try:
            format_mailboxes(text)
        except HeaderRefused as error:
            found.append(f"{setting} cannot be written as an address header: {error}")
    return found


def _probe(subject: str, address: str) -> str | None:
    mail = EmailMessage(policy=SITE_POLICY)
    try:
        mail["From"] = "Site <site@example.test>"
        mail["To"] = address
        mail["Reply-To"] = mailbox(address)
        mail["Message-ID"] = "<probe@example.test>"
        mail["Subject"] = subject
        mail.set_content("probe")
        data = mail.as_bytes()
    except HeaderRefused:
        return None  # refused: nothing leaves (what CPython 3.11.0-3.11.9 needs)
    except Exception as error:  # noqa: BLE001 - any other failure is a problem to report
        return f"composing a probe raised {type(error).__name__}: {error}"
    try:
        check_written(mail, data)
    except HeaderRefused as error:
        return f"a probe was written changed: {error}"
    found = written_headers(data)
    names = sorted(key.lower() for key, _ in found)
    expected = sorted(["from", "to", "reply-to", "message-id", "subject"] + [k.lower() for k in _MIME_HEADERS])
    if names != expected or {k.lower(): v for k, v in found}.get("to") != address:
        return f"a probe with {subject!r} and {address!r} was written as other headers: {names}"
    return None


_MIME_HEADERS = ("Content-Type", "Content-Transfer-Encoding", "MIME-Version")
