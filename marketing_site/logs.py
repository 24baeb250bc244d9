"""Structured logs without personal data.

`configure()` gives the site's loggers (`marketing_site.*`) one handler on standard error:
one JSON object per line (`LOG_FORMAT=json`, the default) or plain text (`LOG_FORMAT=text`).
Whatever a log call passes, email addresses and phone numbers are masked in the message and
in exception text before it is written: a lead's contact details never reach a log line.
Log a lead or an outbox message by its id.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time

EMAIL = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
# Six or more digits, possibly grouped by spaces, dots, dashes, slashes or parentheses.
PHONE = re.compile(r"(?<![\w])\+?\(?\d(?:[\d .()\-/]{4,}\d)(?![\w])")


DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2})?")


def _phone(match: re.Match) -> str:
    found = match.group()
    if DATE.fullmatch(found.strip()) or sum(c.isdigit() for c in found) < 6:
        return found  # a timestamp, or too short to be a phone number
    return "<phone>"


def redact(text: str) -> str:
    """Mask email addresses and phone numbers."""
    return PHONE.sub(_phone, EMAIL.sub("<email>", text))


class RedactingFormatter(logging.Formatter):
    """Formats a record as one JSON line (or text), with personal data masked."""

    def __init__(self, as_json: bool = True):
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")
        self.as_json = as_json

    def format(self, record: logging.LogRecord) -> str:
        message = redact(record.getMessage())
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


def configure() -> None:
    """Install the handler on the `marketing_site` logger (idempotent)."""
    from marketing_site.settings import get_settings

    settings = get_settings()
    logger = logging.getLogger("marketing_site")
    if any(getattr(h, "_marketing_site", False) for h in logger.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter(as_json=settings.log_format == "json"))
    handler._marketing_site = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(settings.log_level)
    logger.propagate = False
