"""Helpers shared by the HTTP tests (a helper module, not a test module)."""

from __future__ import annotations

# The French not-found page's text, as the prerendered HTML spells it.
NOT_FOUND_TEXT = "Oops ! Nous sommes désolés, la page demandée n&#x27;existe pas"


def unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            break
        out, body = out + rest[:size], rest[size + 2 :]
    return out
