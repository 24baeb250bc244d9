"""One settings object, read once from the environment (and `.env` via python-dotenv).

Every variable is documented in `.env.example`. Nothing here needs a service to be
running: the defaults give the embedded site (SQLite, local mail sink).
"""

from __future__ import annotations

import dataclasses
import os
from functools import lru_cache
from pathlib import Path

from dotenv import load_dotenv

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _env(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def _choice(name: str, allowed: tuple[str, ...]) -> str:
    value = _env(name, allowed[0]) or allowed[0]
    if value not in allowed:
        msg = f"{name} must be one of {', '.join(allowed)}, not {value!r}"
        raise ValueError(msg)
    return value


@dataclasses.dataclass(frozen=True)
class Settings:
    """Runtime configuration of the site."""

    port: int
    site_url: str
    blog_url: str
    webinar_url: str
    booking_url: str
    contact_email: str
    database_url: str
    pricing_price_set: str

    @property
    def site_origin(self) -> str:
        """Scheme, host and port of the public site, without a trailing slash."""
        return self.site_url.rstrip("/")

    def absolute(self, path: str) -> str:
        """The public absolute URL of a site path."""
        return self.site_origin + path


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Read the environment once per process."""
    load_dotenv(PROJECT_ROOT / ".env", override=False)
    port = int(_env("PORT", "8000") or 8000)
    return Settings(
        port=port,
        site_url=_env("SITE_URL") or f"http://127.0.0.1:{port}",
        blog_url=_env("BLOG_URL", "https://blog.nereo-wealth.fr"),
        webinar_url=_env("WEBINAR_URL", "https://webinars.nereo-wealth.fr"),
        booking_url=_env("BOOKING_URL"),
        contact_email=_env("CONTACT_EMAIL", "contact@nereo-wealth.fr"),
        database_url=_env("DATABASE_URL")
        or f"sqlite:///{PROJECT_ROOT / 'var' / 'marketing_site.db'}",
        pricing_price_set=_choice("PRICING_PRICE_SET", ("default", "alternate")),
    )
