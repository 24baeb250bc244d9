"""Where a visitor may be sent back after login: same-site relative paths only."""

from __future__ import annotations

from urllib.parse import urlsplit

DEFAULT = "/"
# Stored with each login transaction (a day): a page address, not a payload. A longer one
# keeps its path without the query, or else falls back to the default.
MAX_LENGTH = 512
# Backend paths are never pages to return to (and /auth/ would restart a flow).
_REFUSED_PREFIXES = ("/auth/", "/api/", "/_event", "/_upload")


def safe_return_path(value: str | None, default: str = DEFAULT) -> str:
    """`value` if it is a same-site relative path (with query), else `default`.

    Refused: anything not starting with a single `/` (`//evil.com`, `https://evil.com`,
    `evil.com`), any backslash (`/\\evil.com`, which browsers read as `//evil.com`), any
    control character or whitespace (browsers drop tabs and newlines: `/\\t/evil.com`),
    and backend paths. Longer than MAX_LENGTH: the path alone if it fits, else `default`.
    """
    if not value or not isinstance(value, str):
        return default
    if len(value) > MAX_LENGTH:
        value = value.split("?", 1)[0].split("#", 1)[0]
        if len(value) > MAX_LENGTH:
            return default
    if not value.startswith("/") or value.startswith("//"):
        return default
    if "\\" in value or any(ord(c) < 0x21 or ord(c) == 0x7F for c in value):
        return default
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return default
    if value.startswith(_REFUSED_PREFIXES):
        return default
    return value
