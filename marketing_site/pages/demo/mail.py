"""A `mailto:` link to the contact address with a prefilled subject."""

from __future__ import annotations

from urllib.parse import quote

from marketing_site.settings import get_settings


def mailto(subject: str) -> str:
    return f"mailto:{get_settings().contact_email}?subject={quote(subject)}"
