"""One settings object, read once from the environment (and `.env` via python-dotenv).

Every variable is documented in `.env.example`. Nothing here needs a service to be
running: the defaults give the embedded site (SQLite, local mail sink).
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from functools import lru_cache
from pathlib import Path

from dotenv import load_dotenv

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _env(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def _int(name: str, default: int) -> int:
    raw = _env(name)
    try:
        return int(raw) if raw else default
    except ValueError as error:
        msg = f"{name} must be a whole number, not {raw!r}"
        raise ValueError(msg) from error


def _bool(name: str, default: bool) -> bool:
    raw = _env(name).lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    msg = f"{name} must be true or false, not {raw!r}"
    raise ValueError(msg)


def _networks(name: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """Comma-separated IP addresses or CIDR networks."""
    networks = []
    for item in filter(None, (part.strip() for part in _env(name).split(","))):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError as error:
            msg = f"{name} must list IP addresses or networks (10.0.0.2, 10.0.0.0/24), not {item!r}"
            raise ValueError(msg) from error
    return tuple(networks)


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
    # Lead capture and mail (an empty SMTP host sends mail to files in mail_sink_dir).
    smtp_host: str
    smtp_port: int
    smtp_username: str
    smtp_password: str
    smtp_starttls: bool
    smtp_timeout_seconds: int
    mail_from: str
    lead_mail_to: str
    mail_sink_dir: str
    rate_limit_per_ip: int
    rate_limit_per_email: int
    rate_limit_window_seconds: int
    # Reverse proxies whose X-Forwarded-For names the visitor (empty: trust no one).
    trusted_proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]
    lead_min_fill_seconds: float
    outbox_retry_base_seconds: float
    outbox_max_attempts: int
    outbox_poll_seconds: float
    # Consent and analytics (third-party scripts; empty means none).
    consent_script_url: str
    analytics_script_url: str
    # Login through OpenID Connect and the free-trial registration.
    oidc_issuer: str
    oidc_client_id: str
    oidc_client_secret: str
    oidc_audience: str
    oidc_resource: str
    oidc_roles_claim: str
    # "standard" (OpenID Connect, RP-Initiated Logout) or "auth0" (its /v2/logout, returnTo, federated).
    oidc_compat: str
    oidc_use_refresh_tokens: bool
    oidc_password_reset_url: str
    manager_service_url: str
    advisor_app_url: str
    investor_app_url: str
    session_secret: str
    # The role (in OIDC_ROLES_CLAIM) that opens the operators' console (/console).
    console_role: str
    # Set by `scripts/dev_services.py` when it points the site at its local stand-ins.
    dev_services: bool
    # Scale-out and operations.
    redis_url: str
    redis_key_prefix: str
    hsts_max_age_seconds: int
    csp_report_uri: str
    log_format: str
    log_level: str
    lead_retention_months: int
    # The built-in demo scheduler (used when booking_url is empty).
    booking_timezone: str
    booking_working_days: tuple[int, ...]
    booking_working_hours: tuple[tuple[int, int], ...]
    booking_min_notice_minutes: int
    booking_days_ahead: int
    booking_buffer_minutes: int
    booking_holidays: str
    booking_busy_ics_url: str
    booking_busy_cache_seconds: int
    booking_video_url: str
    booking_organizer_email: str
    booking_rate_limit_per_ip: int

    @property
    def is_https(self) -> bool:
        return self.site_url.startswith("https://")

    @property
    def site_origin(self) -> str:
        """Scheme, host and port of the public site, without a trailing slash."""
        return self.site_url.rstrip("/")

    @property
    def is_production(self) -> bool:
        """A public deployment: the site is served over https."""
        return self.site_url.startswith("https://")

    def absolute(self, path: str) -> str:
        """The public absolute URL of a site path."""
        return self.site_origin + path


def _days(name: str, default: str) -> tuple[int, ...]:
    """ISO weekdays (1 = Monday … 7 = Sunday), comma-separated."""
    raw = _env(name, default) or default
    try:
        days = tuple(sorted({int(part) for part in raw.split(",") if part.strip()}))
    except ValueError as error:
        raise ValueError(f"{name} must list ISO weekdays (1 = Monday … 7 = Sunday), not {raw!r}") from error
    if not days or not all(1 <= day <= 7 for day in days):
        raise ValueError(f"{name} must list ISO weekdays (1 = Monday … 7 = Sunday), not {raw!r}")
    return days


def _hours(name: str, default: str) -> tuple[tuple[int, int], ...]:
    """Ranges `HH:MM-HH:MM`, comma-separated, as (start, end) minutes after midnight."""
    raw = _env(name, default) or default
    ranges = []
    try:
        for part in raw.split(","):
            start, end = (int(h) * 60 + int(m) for h, m in (t.strip().split(":") for t in part.split("-")))
            ranges.append((start, end))
    except ValueError as error:
        raise ValueError(f"{name} must be ranges like 09:00-12:00,14:00-18:00, not {raw!r}") from error
    if any(not 0 <= start < end <= 24 * 60 for start, end in ranges):
        raise ValueError(f"{name}: each range must start before it ends, within one day ({raw!r})")
    return tuple(sorted(ranges))


def _timezone(name: str, default: str) -> str:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    value = _env(name, default) or default
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(f"{name} must be an IANA time zone such as Europe/Paris, not {value!r}") from error
    return value


def _holiday_country(name: str, default: str) -> str:
    """A country code of the `holidays` library, or empty for no public holidays off."""
    value = _env(name, default).upper()
    if value:
        import holidays

        if value not in holidays.list_supported_countries():
            raise ValueError(f"{name} must be a country code of the holidays library (e.g. FR) or empty, not {value!r}")
    return value


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
        database_url=_env("DATABASE_URL") or f"sqlite:///{PROJECT_ROOT / 'var' / 'marketing_site.db'}",
        pricing_price_set=_choice("PRICING_PRICE_SET", ("default", "alternate")),
        smtp_host=_env("SMTP_HOST"),
        smtp_port=_int("SMTP_PORT", 587),
        smtp_username=_env("SMTP_USERNAME"),
        smtp_password=_env("SMTP_PASSWORD"),
        smtp_starttls=_bool("SMTP_STARTTLS", True),
        smtp_timeout_seconds=_int("SMTP_TIMEOUT_SECONDS", 15),
        mail_from=_env("MAIL_FROM", "Nereo <noreply@nereo-wealth.fr>"),
        lead_mail_to=_env("LEAD_MAIL_TO", "leads@nereo-wealth.fr"),
        mail_sink_dir=_env("MAIL_SINK_DIR") or str(PROJECT_ROOT / "var" / "mail"),
        # An office behind one address: 100 requests per 10 min lets 30+ colleagues through, yet
        # a burst is mostly refused. Per email: the five documents, each retried once.
        rate_limit_per_ip=_int("RATE_LIMIT_PER_IP", 100),
        rate_limit_per_email=_int("RATE_LIMIT_PER_EMAIL", 10),
        rate_limit_window_seconds=_int("RATE_LIMIT_WINDOW_SECONDS", 600),
        trusted_proxies=_networks("TRUSTED_PROXIES"),
        lead_min_fill_seconds=float(_env("LEAD_MIN_FILL_SECONDS", "2") or 2),
        outbox_retry_base_seconds=float(_env("OUTBOX_RETRY_BASE_SECONDS", "30") or 30),
        outbox_max_attempts=_int("OUTBOX_MAX_ATTEMPTS", 12),
        outbox_poll_seconds=float(_env("OUTBOX_POLL_SECONDS", "5") or 5),
        consent_script_url=_env("CONSENT_SCRIPT_URL"),
        analytics_script_url=_env("ANALYTICS_SCRIPT_URL"),
        oidc_issuer=_env("OIDC_ISSUER"),
        oidc_client_id=_env("OIDC_CLIENT_ID"),
        oidc_client_secret=_env("OIDC_CLIENT_SECRET"),
        oidc_audience=_env("OIDC_AUDIENCE"),
        oidc_resource=_env("OIDC_RESOURCE"),
        oidc_roles_claim=_env("OIDC_ROLES_CLAIM", "roles") or "roles",
        oidc_compat=_choice("OIDC_COMPAT", ("standard", "auth0")),
        oidc_use_refresh_tokens=_bool("OIDC_USE_REFRESH_TOKENS", True),
        oidc_password_reset_url=_env("OIDC_PASSWORD_RESET_URL"),
        manager_service_url=_env("MANAGER_SERVICE_URL"),
        advisor_app_url=_env("ADVISOR_APP_URL"),
        investor_app_url=_env("INVESTOR_APP_URL"),
        session_secret=_env("SESSION_SECRET"),
        console_role=_env("CONSOLE_ROLE", "SITE_ADMIN") or "SITE_ADMIN",
        dev_services=_bool("DEV_SERVICES", False),
        redis_url=_env("REFLEX_REDIS_URL"),
        redis_key_prefix=_env("REDIS_KEY_PREFIX", "nereo:") or "nereo:",
        hsts_max_age_seconds=_int("HSTS_MAX_AGE_SECONDS", 63072000),
        csp_report_uri=_env("CSP_REPORT_URI"),
        log_format=_choice("LOG_FORMAT", ("json", "text")),
        log_level=_env("LOG_LEVEL", "INFO").upper() or "INFO",
        lead_retention_months=_int("LEAD_RETENTION_MONTHS", 36),
        booking_timezone=_timezone("BOOKING_TIMEZONE", "Europe/Paris"),
        booking_working_days=_days("BOOKING_WORKING_DAYS", "1,2,3,4,5"),
        booking_working_hours=_hours("BOOKING_WORKING_HOURS", "09:00-12:00,14:00-18:00"),
        booking_min_notice_minutes=_int("BOOKING_MIN_NOTICE_MINUTES", 240),
        booking_days_ahead=_int("BOOKING_DAYS_AHEAD", 21),
        booking_buffer_minutes=_int("BOOKING_BUFFER_MINUTES", 15),
        booking_holidays=_holiday_country("BOOKING_HOLIDAYS", "FR"),
        booking_busy_ics_url=_env("BOOKING_BUSY_ICS_URL"),
        booking_busy_cache_seconds=_int("BOOKING_BUSY_CACHE_SECONDS", 300),
        booking_video_url=_env("BOOKING_VIDEO_URL", "https://meet.nereo-wealth.fr/demo-30-min"),
        booking_organizer_email=_env("BOOKING_ORGANIZER_EMAIL", "demo@nereo-wealth.fr"),
        booking_rate_limit_per_ip=_int("BOOKING_RATE_LIMIT_PER_IP", 10),
    )
