"""Structured logs without personal data, for the site and every library it runs.

`configure()` gives the root logger the process's one handler, on standard error: one JSON
object per line (`LOG_FORMAT=json`, the default, what a server runs) or readable lines
(`LOG_FORMAT=text`, what `make dev` sets). Reflex, Granian, SQLAlchemy, alembic, authlib and
httpx2 records reach it too: the handlers those libraries attach are removed and their loggers
propagate (`granian_log_config` does it for the Granian processes, which configure their own).
Whatever a record says, email addresses and phone numbers are masked and URLs are cut to
their scheme and host (httpx2 logs every request's full URL; a private calendar address or a
token in a query string is a secret) before it is written. Log a lead or an outbox message by
its id.

Reflex needs more than that: `reflex_internals.reflex_logging.route_reflex_output`, called
beside `configure()`, keeps its console handler off and turns what it prints into records.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import secrets
import sys
import threading
import time
from typing import Any

EMAIL = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
# Six or more digits, possibly grouped by spaces, dots, dashes, slashes or parentheses (not a
# piece of a longer dashed figure: 2026-11 of a timestamp 2026-11-26T20:10).
PHONE = re.compile(r"(?<![\w-])\+?\(?\d(?:[\d .()\-/]{4,}\d)(?![\w-])")


DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2})?")
# A URL's user part, path, query and fragment go; the scheme and host stay.
URL = re.compile(r"\b(https?|wss?|redis|rediss|postgresql(?:\+\w+)?)://(?:[^\s/@\"'<>]*@)?([^\s/?#\"'<>]+)[^\s\"'<>]*")

# A dotted quad, however few its digits (1.2.3.4 as well as 203.0.113.7), not inside a longer
# dotted number (a version such as 5.1.2.3.4).
IPV4 = re.compile(r"(?<![\w])(?<!\d\.)(?:\d{1,3}\.){3}\d{1,3}(?![\w])(?!\.\d)")
# A run of hex digits, colons and dots with a colon in it (and a zone, fe80::1%eth0): whatever
# in it `ipaddress` takes for an IPv6 address (compressed, full, upper case, with an embedded
# IPv4) is one. A clock time (12:34:56) has too few groups to be one.
IPV6_RUN = re.compile(r"(?<![0-9A-Fa-f:.])[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*(?:%[\w.-]+)?")
# Values that open a session or prove an identity, whatever their format: a header (Cookie:,
# Authorization:), a key of a dict or JSON object ('cookie': '…', "token": "…") or of a query or
# cookie string (nereo_session=…; access_token=…). Reflex's event errors print the websocket
# handshake's headers, session cookie included.
SECRET_KEY = (
    r"(?:set-)?cookie|http_cookie|(?:proxy-)?authorization|sec-websocket-key|x-api-key|"
    r"[\w.-]*(?:token|secret|password|session|binding|verifier|nonce)[\w.-]*"
)
SECRET_QUOTED = re.compile(rf"""(?i)(['"])({SECRET_KEY})\1(\s*[:=]\s*)(['"])(?:\\.|(?!\4).)*\4""")
SECRET_HEADER = re.compile(r"(?im)\b((?:set-)?cookie|(?:proxy-)?authorization):[ \t]*[^\r\n'\"]+")
SECRET_ASSIGNED = re.compile(rf"(?i)(?<![\w.-])({SECRET_KEY})=[^\s;&,'\"<>)\]}}]+")
JWT = re.compile(r"\beyJ[\w-]+\.[\w-]+\.[\w-]*")
# Reflex's tab token (whoever holds it is that tab's state, login included), an OIDC state.
UUID = re.compile(r"\b[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\b")
MASKED = "<redacted>"
# Characters that end a line somewhere (a terminal, a log shipper, str.splitlines): escaped in
# every value, so that a visitor's text never starts a line of its own.
LINE_BREAKS = {
    "\r": "\\r",
    "\n": "\\n",
    "\x0b": "\\u000b",
    "\x0c": "\\u000c",
    "\x1c": "\\u001c",
    "\x1d": "\\u001d",
    "\x1e": "\\u001e",
    "\x85": "\\u0085",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
# Escaped too, as \\uXXXX: the other control characters (C0 but tab, DEL, C1), which a terminal
# may act on, the text-direction controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069),
# which make a reader see the line reordered, and what is no text (lone surrogates, which no
# UTF-8 stream can carry, and noncharacters).
_UNSAFE = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
    "\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
    + "".join(chr(plane << 16 | low) for plane in range(1, 17) for low in (0xFFFE, 0xFFFF))
    + "]"
)


def _phone(match: re.Match) -> str:
    found = match.group()
    if IPV4.search(found):  # "0.0.0.0 127.0.0.1" is two addresses IPV4 kept, not a number
        parts = _IPV4_SPLIT.split(found)  # text, address, text, …
        return "".join(part if index % 2 else PHONE.sub(_phone, part) for index, part in enumerate(parts))
    if DATE.fullmatch(found.strip()) or sum(c.isdigit() for c in found) < 6:
        return found  # a timestamp, or too short to be a phone number
    return "<phone>"


_IPV4_SPLIT = re.compile(f"({IPV4.pattern})")


def _names_someone(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    # A visitor's address is personal data; the loopback and "any" addresses a server binds to
    # name no one ("App running at http://127.0.0.1:8000", "listening on [::]:8000").
    return not (address.is_loopback or address.is_unspecified)


def _ipv4(match: re.Match) -> str:
    found = match.group()
    if any(int(part) > 255 for part in found.split(".")):
        return found  # not an address (a version or a sum)
    return "<ip>" if _names_someone(ipaddress.IPv4Address(".".join(str(int(p)) for p in found.split(".")))) else found


def _ipv6(match: re.Match) -> str:
    run = match.group()
    # The run may carry the punctuation around the address: "addr:2001:db8::1", "2001:db8::1:".
    for start, end in ((0, len(run)), (1, len(run)), (0, len(run) - 1), (1, len(run) - 1)):
        candidate = run[start:end]
        if (
            not candidate
            or candidate.endswith(".")
            or (start and run.startswith("::"))
            or (end < len(run) and run.endswith("::"))
        ):
            continue
        try:
            address = ipaddress.IPv6Address(candidate)
        except ValueError:
            continue
        masked = "<ip>" if _names_someone(address.ipv4_mapped or address) else candidate
        return run[:start] + masked + run[end:]
    return run


def _url(match: re.Match) -> str:
    scheme, host = match.group(1), match.group(2)
    rest = match.group()[match.end(2) - match.start() :]
    return f"{scheme}://{host}" + ("/…" if rest.strip("/") else rest)


def _secret_quoted(match: re.Match) -> str:
    quote, key, between, value_quote = match.group(1, 2, 3, 4)
    return f"{quote}{key}{quote}{between}{value_quote}{MASKED}{value_quote}"


def redact(text: str) -> str:
    """Cut URLs to scheme and host; mask email addresses, phone numbers, IP addresses (IPv4 and
    IPv6, but loopback and unspecified), cookies, tokens and other credentials (configuration
    values a log call names are kept whole: `configuration`)."""
    text = URL.sub(_url, text)  # first: a query's token=… goes with the rest of the URL
    text = SECRET_HEADER.sub(lambda m: f"{m.group(1)}: {MASKED}", text)
    text = SECRET_QUOTED.sub(_secret_quoted, text)
    text = SECRET_ASSIGNED.sub(lambda m: f"{m.group(1)}={MASKED}", text)
    text = EMAIL.sub("<email>", JWT.sub(MASKED, UUID.sub(MASKED, text)))
    return PHONE.sub(_phone, IPV4.sub(_ipv4, IPV6_RUN.sub(_ipv6, text)))


def _escape(character: str) -> str:
    code = ord(character)
    if character in LINE_BREAKS:
        return LINE_BREAKS[character]
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    high, low = divmod(code - 0x10000, 0x400)  # JSON writes a character beyond U+FFFF as its UTF-16 pair
    return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"


def escape_unsafe(text: str) -> str:
    """Every character that could end a line (\\n, \\u2028…), any other control character, the
    text-direction controls and what is no text, written as its escape: a visitor's text never
    starts a line of its own, nor reorders or breaks one. In a JSON line the escapes are JSON's
    own (the line still parses to the same text)."""
    return _UNSAFE.sub(lambda m: _escape(m.group()), text)


# Configuration quoted by a log line (an issuer, an endpoint URL: no personal data) is shown in
# full when the call names it: `logger.error("… %s", issuer, extra=logs.configuration(issuer))`.
# Each named value is kept where it stands whole; a longer URL that starts with it (a query, a
# path after it) is still cut, and a value with an "@" (an address, credentials) is not kept.
CONFIGURATION_VALUES = "configuration_values"
_VALUE_END = r"(?![^\s'\"<>),;\]])"


def configuration(*values: object) -> dict[str, tuple[str, ...]]:
    """The `extra` of a log call whose message quotes these configuration values."""
    return {CONFIGURATION_VALUES: tuple(v for v in values if isinstance(v, str) and v and "@" not in v)}


def redact_keeping(text: str, kept: tuple[str, ...] = ()) -> str:
    """`redact`, except for the configuration values `kept` where each stands whole."""
    slots: list[str] = []
    for value in sorted(set(kept), key=len, reverse=True):
        pattern = re.compile(re.escape(value) + _VALUE_END)
        if pattern.search(text):
            text = pattern.sub(f"\x00{len(slots)}\x00", text)
            slots.append(value)
    text = redact(text)
    for index, value in enumerate(slots):
        text = text.replace(f"\x00{index}\x00", value)
    return text


class RedactingFormatter(logging.Formatter):
    """Formats a record as one JSON line (or text), with personal data masked."""

    def __init__(self, as_json: bool = True):
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")
        self.as_json = as_json

    def format(self, record: logging.LogRecord) -> str:
        message = redact_keeping(_message_of(record), getattr(record, CONFIGURATION_VALUES, ()))
        error = redact(self.formatException(record.exc_info)) if record.exc_info else None
        if not self.as_json:
            line = f"{self.formatTime(record)} {record.levelname} {record.name} {escape_unsafe(message)}"
            return f"{line}\n{error}" if error else line
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "msg": message,
        }
        for key in ("event", "lead_id", "message_id", "status", "attempts"):
            if hasattr(record, key):
                value = getattr(record, key)
                entry[key] = value if isinstance(value, int | float | bool | None) else redact(str(value))
        if error:
            entry["exc"] = error
        # json.dumps escapes C0 (\n, \r…); the rest of what escape_unsafe escapes it writes as is.
        return escape_unsafe(json.dumps(entry, ensure_ascii=False))


def _message_of(record: logging.LogRecord) -> str:
    """The record's message; one whose arguments do not fit its format is still written (the
    logging module would print it, arguments and all, straight to standard error)."""
    try:
        return record.getMessage()
    except Exception as error:  # noqa: BLE001 - any formatting error: say so, keep the line
        return f"{record.msg} (its arguments did not format: {type(error).__name__})"


# Libraries that attach handlers of their own: theirs go, their records propagate to the root.
OWN_HANDLERS = ("reflex", "_granian", "granian.access", "alembic", "sqlalchemy", "httpx", "httpx2", "authlib")
# python-engineio and python-socketio (Reflex's websocket) attach a plain StreamHandler to these
# when the server is made (after configure()), unless the logger already has a level: a
# handler's traceback of a malformed event went to standard error as plain lines. ERROR is the
# level they would take themselves.
SOCKET_LOGGERS = ("engineio.server", "engineio.client", "socketio.server", "socketio.client")


def granian_log_config() -> dict:
    """Granian's logging configuration (it runs one in every process it starts): its loggers
    write through the root logger's handler instead of plain lines to standard output."""
    return {
        "handlers": {},
        "loggers": {
            "_granian": {"handlers": [], "propagate": True},
            "granian.access": {"handlers": [], "propagate": True},
        },
    }


def configure() -> None:
    """Give the root logger the one handler of this process (idempotent)."""
    from marketing_site.settings import get_settings

    settings = get_settings()
    root = logging.getLogger()
    root.setLevel(settings.log_level)
    for handler in list(root.handlers):
        if not getattr(handler, "_marketing_site", False):
            root.removeHandler(handler)
    if not any(getattr(h, "_marketing_site", False) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(RedactingFormatter(as_json=settings.log_format == "json"))
        handler._marketing_site = True  # type: ignore[attr-defined]  # marks the handler this module installed
        root.addHandler(handler)
    for name in SOCKET_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.ERROR)
    # Every logger that exists now writes through the root's handler only (Reflex, Granian,
    # SQLAlchemy, alembic, authlib, httpx2, engineio and socketio among them).
    existing = [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)]
    for logger in [*existing, *(logging.getLogger(name) for name in ("marketing_site", *OWN_HANDLERS))]:
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        # Levels stay each library's own (SQLAlchemy's WARNING keeps its SQL echo off).
        logger.propagate = True
    _uncaught_through_root()


def _uncaught_through_root() -> None:
    """What Python itself prints to standard error (an uncaught exception in the main thread
    or another thread, an exception nobody could raise, a warning) becomes a record."""
    crashes = logging.getLogger("marketing_site.uncaught")

    def excepthook(kind: type[BaseException], error: BaseException, trace: Any) -> None:
        crashes.critical("uncaught %s", kind.__name__, exc_info=(kind, error, trace))

    def thread_excepthook(args: Any) -> None:
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread is not None else "?"
        crashes.error(
            "uncaught %s in thread %s",
            args.exc_type.__name__,
            name,
            exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
        )

    def unraisablehook(unraisable: Any) -> None:
        error = unraisable.exc_value
        crashes.error(
            "%s: %s",
            unraisable.err_msg or "exception ignored",
            type(error).__name__,
            exc_info=(unraisable.exc_type, error, unraisable.exc_traceback) if error else None,
        )

    sys.excepthook = excepthook
    threading.excepthook = thread_excepthook
    sys.unraisablehook = unraisablehook
    logging.captureWarnings(True)


def new_reference() -> str:
    """A failure's reference, quoted by the person and found in the server log: eight hexadecimal
    characters, the first a letter, so that the log's phone-number mask (PHONE) never takes an
    all-digit reference for a phone number and hides it."""
    return secrets.choice("ABCDEF") + secrets.token_hex(4)[1:].upper()
