"""The contact fields' character rules: one definition for the lead intake (`services.leads`),
the lead form's HTML `pattern` attributes, and the attribution a form or a beacon carries
(`services.audience`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# One definition for both sides: the server matches these patterns with `re.fullmatch`, and the
# lead form puts them in the page as HTML `pattern` attributes (which browsers compile as
# JavaScript regular expressions with the `v` flag, anchored). So they use only syntax that both
# engines read the same way: explicit classes (no \d \w \s \p, whose meaning differs), four-digit \u
# escapes, every `( ) [ ] { } / - |` escaped inside a class, and no `\-` outside one.

_SPACE = r"[ \u00A0\u202F]"  # space, no-break space, narrow no-break space (pasted numbers)
# Code points that are no text at all: the lone UTF-16 surrogates (JSON's "\ud800" decodes to one,
# and no UTF-8 can carry it: the database, the log and the mail all refuse it) and the
# noncharacters of the first plane (U+FDD0-U+FDEF, U+FFFE, U+FFFF). Every class below leaves them
# out; `is_text` also refuses the noncharacters of the other planes, which four-digit escapes
# cannot name.
_NOT_TEXT = r"\uD800-\uDFFF\uFDD0-\uFDEF\uFFFE\uFFFF"
# Anything but control characters, line breaks included (tab is allowed: pasted from a sheet),
# and the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): a
# name holding them is shown reversed or shuffled in the mail and the console.
_NOT_CONTROL = rf"[^\x00-\x08\x0A-\x1F\x7F-\x9F\u2028-\u202E\u2066-\u2069{_NOT_TEXT}]"
# A character that is neither a control character nor a space of any kind.
_VISIBLE = rf"[^\x00-\x20\x7F-\xA0\u1680\u2000-\u200B\u2028-\u202F\u205F\u2066-\u2069\u3000\uFEFF{_NOT_TEXT}]"
TEXT_PATTERN = f"{_NOT_CONTROL}*{_VISIBLE}{_NOT_CONTROL}*"

_PHONE_CHAR = r"[0-9 \u00A0\u202F.\-\(\)\/]"
# An extension in words ("poste 12", "ext. 12", "x12", "(int. 12)") or "#12".
_EXTENSION = (
    r"(?:[ \u00A0\u202F,;]*\(?(?:[A-Za-z\u00C0-\u024F]+\.?[ \u00A0\u202F]*){1,3}[:#]?[ \u00A0\u202F]*[0-9]{1,6}\)?"
    r"|[ \u00A0\u202F]*#[0-9]{1,6})"
)
MIN_PHONE_DIGITS, MAX_PHONE_DIGITS = 6, 20
PHONE_PATTERN = (
    # 6 to 20 digits before any extension, counted by look-aheads on the number itself.
    rf"(?=[^0-9]*(?:[0-9][^0-9A-Za-z\u00C0-\u024F#]*){{{MIN_PHONE_DIGITS}}})"
    rf"(?![^0-9]*(?:[0-9][^0-9A-Za-z\u00C0-\u024F#]*){{{MAX_PHONE_DIGITS + 1}}})"
    rf"{_SPACE}*\(?\+?{_PHONE_CHAR}*[0-9]{_PHONE_CHAR}*{_EXTENSION}?{_SPACE}*"
)

_ATOM = r"[A-Za-z0-9!#$%&'*+\/=?^_`\{\|\}~\-]+"
# Letters of any script (internationalised domains): every code point from U+00A1 that is text.
_LABEL_CHAR = r"A-Za-z0-9\u00A1-\uD7FF\uE000-\uFDCF\uFDF0-\uFFFD"
_LABEL = rf"[{_LABEL_CHAR}](?:[{_LABEL_CHAR}\-]{{0,61}}[{_LABEL_CHAR}])?"
_TOP_LEVEL = r"(?:[A-Za-z\u00A1-\uD7FF\uE000-\uFDCF\uFDF0-\uFFFD]{2,63}|[Xx][Nn]--[A-Za-z0-9\-]{1,59})"
# local@domain.tld: a dot-atom local part of at most 64 characters (browsers refuse non-ASCII
# there), a domain with at least one dot (`ada@intranet` cannot be answered from outside).
EMAIL_PATTERN = rf"{_SPACE}*(?=[^@]{{1,64}}@){_ATOM}(?:\.{_ATOM})*@(?:{_LABEL}\.)+{_TOP_LEVEL}{_SPACE}*"


# Line breaks too (a textarea), but no other control character nor text-direction override.
_NOT_CONTROL_BUT_BREAKS = rf"[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028-\u202E\u2066-\u2069{_NOT_TEXT}]"
MULTILINE_PATTERN = f"{_NOT_CONTROL_BUT_BREAKS}*{_VISIBLE}{_NOT_CONTROL_BUT_BREAKS}*"
# The same characters, nothing visible required: a free text that may be left blank.
MULTILINE_CHARACTERS = f"{_NOT_CONTROL_BUT_BREAKS}*"


# ----------------------------------------------------------------------------- text at all

# The same code points as _NOT_TEXT, and the noncharacters of planes 1 to 16 (U+1FFFE … U+10FFFF).
_NOT_TEXT_ANYWHERE = re.compile(
    f"[{_NOT_TEXT}" + "".join(chr(plane << 16 | low) for plane in range(1, 17) for low in (0xFFFE, 0xFFFF)) + "]"
)


def is_text(value: str) -> bool:
    """Every code point of `value` is a character for interchange: no lone surrogate, no
    noncharacter of any plane. Whatever a field's own rule, nothing else is stored, logged or
    mailed."""
    return _NOT_TEXT_ANYWHERE.search(value) is None


def first_non_text(value: object, where: str = "body") -> str | None:
    """Where in a decoded JSON value the first string that is not text is (a key or a value, at
    any depth: `body.attribution.utm_source`), or None when every string is text.

    `json.loads` accepts "\\ud800" and "\\uffff" escapes: valid JSON, no text. A door that reads
    JSON refuses such a body whole (api/mail.py: read_json_object) or ignores it (the beacon)."""
    pending: list[tuple[object, str]] = [(value, where)]
    while pending:
        item, path = pending.pop()
        if isinstance(item, str):
            if not is_text(item):
                return path
        elif isinstance(item, Mapping):
            for key, inner in item.items():
                if not is_text(str(key)):
                    return f"{path}.<key>"
                pending.append((inner, f"{path}.{key}"))
        elif isinstance(item, list):
            pending.extend((inner, f"{path}[{index}]") for index, inner in enumerate(item))
    return None
