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

Reflex is the one library that needs more than that (`_reflex_through_root`, this module's
only reach into Reflex's internals, reflex-base 0.10.1): under its CLI it attaches its own
console handler to the "reflex" logger again whenever it reads its configuration
(`reflex_base.utils.log.configure`), and it prints its banners ("Starting Reflex App", "App
running at …") with Rich on standard output (`reflex_base.utils.console.print`, `rule`). Both
are replaced: its handlers stay off, and what it prints becomes a record of the
"reflex.console" logger. A Reflex upgrade that renames one of them stops the process at
start-up (`ReflexLoggingMoved`), and tests/test_logging.py fails first.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
import time
from typing import Any

EMAIL = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
# Six or more digits, possibly grouped by spaces, dots, dashes, slashes or parentheses.
PHONE = re.compile(r"(?<![\w])\+?\(?\d(?:[\d .()\-/]{4,}\d)(?![\w])")


DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2})?")
# A URL's user part, path, query and fragment go; the scheme and host stay.
URL = re.compile(r"\b(https?|wss?|redis|rediss|postgresql(?:\+\w+)?)://(?:[^\s/@\"'<>]*@)?([^\s/?#\"'<>]+)[^\s\"'<>]*")


IPV4 = re.compile(r"(?:\d{1,3}\.){3}\d{1,3}")


def _phone(match: re.Match) -> str:
    found = match.group()
    if DATE.fullmatch(found.strip()) or sum(c.isdigit() for c in found) < 6:
        return found  # a timestamp, or too short to be a phone number
    if IPV4.fullmatch(found.strip()):
        # A visitor's address is personal data; the loopback and "any" addresses a server
        # binds to name no one ("App running at http://127.0.0.1:8000").
        return found if found.strip().startswith("127.") or found.strip() == "0.0.0.0" else "<ip>"
    return "<phone>"


def _url(match: re.Match) -> str:
    scheme, host = match.group(1), match.group(2)
    rest = match.group()[match.end(2) - match.start() :]
    return f"{scheme}://{host}" + ("/…" if rest.strip("/") else rest)


def redact(text: str) -> str:
    """Cut URLs to scheme and host; mask email addresses, phone numbers and IP addresses."""
    return PHONE.sub(_phone, EMAIL.sub("<email>", URL.sub(_url, text)))


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
        message = redact_keeping(record.getMessage(), getattr(record, CONFIGURATION_VALUES, ()))
        error = redact(self.formatException(record.exc_info)) if record.exc_info else None
        if not self.as_json:
            line = f"{self.formatTime(record)} {record.levelname} {record.name} {message}"
            return f"{line}\n{error}" if error else line
        entry = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "msg": message,
        }
        for key in ("event", "lead_id", "message_id", "status", "attempts"):
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if error:
            entry["exc"] = error
        return json.dumps(entry, ensure_ascii=False)


# Libraries that attach handlers of their own: theirs go, their records propagate to the root.
OWN_HANDLERS = ("reflex", "_granian", "granian.access", "alembic", "sqlalchemy", "httpx", "httpx2", "authlib")


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


class ReflexLoggingMoved(RuntimeError):
    """A Reflex upgrade moved what `_reflex_through_root` replaces."""


# What `_reflex_through_root` replaces in reflex_base: module -> names.
REFLEX_REACHES = {
    "reflex_base.utils.log": ("configure", "strip_markup", "get_log_level"),
    "reflex_base.utils.console": ("print", "_print_stderr", "rule"),
}


def _reflex_through_root() -> None:
    """Reflex's records and prints reach the root logger's handler, for good (idempotent)."""
    from reflex_base.utils import console
    from reflex_base.utils import log as reflex_log

    reached = {"reflex_base.utils.log": reflex_log, "reflex_base.utils.console": console}
    missing = [
        f"{name}.{attr}" for name, attrs in REFLEX_REACHES.items() for attr in attrs if not hasattr(reached[name], attr)
    ]
    if missing:
        raise ReflexLoggingMoved(f"Reflex no longer has {', '.join(missing)}: update marketing_site/logs.py")
    if getattr(reflex_log.configure, "_marketing_site", False):
        return
    strip_markup = reflex_log.strip_markup
    printed = logging.getLogger("reflex.console")
    printed_once: set[str] = set()  # what Reflex prints with dedupe=True, once a process

    def configure() -> None:
        # Reflex calls this on every configuration read in its CLI and workers: instead of
        # attaching its Rich (or JSON) handler, take any off. Its level (--loglevel) stays, and
        # so does the site's LOG_LEVEL (the root's, which records of a logger with a level of
        # its own would pass by): the stricter of the two.
        reflex = logging.getLogger("reflex")
        for handler in list(reflex.handlers):
            reflex.removeHandler(handler)
        reflex.propagate = True
        reflex.setLevel(max(reflex_log.get_log_level().to_logging_level(), logging.getLogger().level))

    def print_(msg: str, *, dedupe: bool = False, level: str = "info", **_rich: Any) -> None:
        if dedupe and msg in printed_once:
            return
        if dedupe:
            printed_once.add(msg)
        levelno = logging.getLevelName(level.upper())  # "success" is Reflex's level 25
        printed.log(levelno if isinstance(levelno, int) else logging.INFO, strip_markup(str(msg)))

    def print_stderr(msg: str, *, dedupe: bool = False, level: str = "error", **_rich: Any) -> None:
        print_(msg, dedupe=dedupe, level=level)

    def rule(title: str, **_rich: Any) -> None:
        printed.info(strip_markup(title))

    configure._marketing_site = True  # type: ignore[attr-defined]  # the marker of this replacement
    reflex_log.configure = configure
    console.print = print_
    console._print_stderr = print_stderr
    console.rule = rule
    configure()


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
    for name in ("marketing_site", *OWN_HANDLERS):
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        # Levels stay each library's own (SQLAlchemy's WARNING keeps its SQL echo off).
        logger.propagate = True
    _reflex_through_root()


def new_reference() -> str:
    """A failure's reference, quoted by the person and found in the server log: eight hexadecimal
    characters, the first a letter, so that the log's phone-number mask (PHONE) never takes an
    all-digit reference for a phone number and hides it."""
    return secrets.choice("ABCDEF") + secrets.token_hex(4)[1:].upper()
