"""One settings object, read once from the environment (and `.env` via python-dotenv).

Every variable is documented in `.env.example` and docs/configuration.md. Nothing here needs a
service to be running: the defaults give the embedded site (SQLite, local mail sink).

pydantic-settings reads and checks every variable; `get_settings()` reports all bad ones at
once, each by its variable name. Secrets are `SecretStr` (`.get_secret_value()` where they are
used) and URLs that may carry a password are shown without it, so printing or logging the
settings reveals no secret.
"""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit, urlunsplit

from dotenv import load_dotenv
from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_serializer, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
# Non-negative whole numbers (counts, seconds, minutes); a port is 1-65535.
Count = Annotated[int, Field(ge=0)]
Port = Annotated[int, Field(ge=1, le=65535)]
# A demo's length: the agenda's fixed steps (content/demo.py, 10 minutes) leave the
# demonstration 5 minutes at least; beyond four hours it is a workshop, not a demo.
MIN_MEETING_MINUTES, MAX_MEETING_MINUTES = 15, 240

# Variables whose empty value means "the default" (as `VAR=` in a copied .env.example). The
# others keep an empty value: an empty BOOKING_HOLIDAYS means no public holidays off, an
# empty OIDC_ISSUER no login, an empty BOOKING_URL the site's own scheduler.
_EMPTY_MEANS_DEFAULT = frozenset(
    {
        "port",
        "pricing_price_set",
        "smtp_port",
        "smtp_starttls",
        "smtp_timeout_seconds",
        "rate_limit_per_ip",
        "rate_limit_per_email",
        "rate_limit_window_seconds",
        "lead_min_fill_seconds",
        "outbox_retry_base_seconds",
        "outbox_max_attempts",
        "outbox_poll_seconds",
        "oidc_use_refresh_tokens",
        "oidc_silent_login",
        "login_rate_limit_per_ip",
        "console_role",
        "dev_services",
        "redis_key_prefix",
        "state_expiry_seconds",
        "hsts_max_age_seconds",
        "log_format",
        "log_level",
        "lead_retention_months",
        "booking_timezone",
        "booking_working_days",
        "booking_working_hours",
        "booking_min_notice_minutes",
        "booking_days_ahead",
        "booking_buffer_minutes",
        "booking_meeting_minutes",
        "booking_busy_cache_seconds",
        "booking_rate_limit_per_ip",
        "audience_rate_limit_per_minute",
        "audience_flush_seconds",
        "audience_retention_months",
        "password_reset_rate_limit_per_ip",
        "password_reset_rate_limit_per_email",
        "sentry_environment",
        "sentry_reports_per_fingerprint",
        "sentry_reports_per_client",
        "rate_limit_ipv6_prefix",
        "audience_sources_per_day",
        "audience_sources_per_address",
        "audience_combinations_per_address",
        "booking_budget_per_email",
        "booking_budget_per_ip",
        "booking_alert_per_day",
    }
)


# A bearer token anyone may try against /metrics: shorter than this, it can be guessed.
METRICS_TOKEN_MIN_LENGTH = 16

# Shown without their password when the settings are printed, logged or dumped.
_URLS_WITH_PASSWORD = ("database_url", "redis_url")


class SettingsError(ValueError):
    """One or more variables are wrong; the message names each of them."""


class Settings(BaseSettings):
    """Runtime configuration of the site (field `x_y` is variable `X_Y` unless an alias says)."""

    model_config = SettingsConfigDict(
        # Variables come from the process environment; `.env` is loaded into it by get_settings().
        env_file=None,
        case_sensitive=False,
        extra="ignore",
        frozen=True,
        # Tests and `replace()` pass field names; the environment uses the variable names.
        populate_by_name=True,
        str_strip_whitespace=True,
        # The derived defaults (SITE_URL from PORT, file paths) are filled in by validators.
        validate_default=True,
    )

    port: Port = 8000
    # Default: http://127.0.0.1:$PORT.
    site_url: str = ""
    blog_url: str = "https://blog.nereo-wealth.fr"
    webinar_url: str = "https://webinars.nereo-wealth.fr"
    booking_url: str = ""
    contact_email: str = "contact@nereo-wealth.fr"
    # The `Contact` of /.well-known/security.txt (a mailto:, https: or tel: URI, RFC 9116), read
    # at build time.
    security_contact: str = "mailto:security@nereo-wealth.fr"
    # Default: SQLite file var/marketing_site.db.
    database_url: str = ""
    pricing_price_set: Literal["default", "alternate"] = "default"
    # Lead capture and mail (an empty SMTP host sends mail to files in mail_sink_dir).
    smtp_host: str = ""
    smtp_port: Port = 587
    smtp_username: str = ""
    smtp_password: SecretStr = SecretStr("")
    smtp_starttls: bool = True
    smtp_timeout_seconds: Count = 15
    mail_from: str = "Nereo <noreply@nereo-wealth.fr>"
    lead_mail_to: str = "leads@nereo-wealth.fr"
    # Default: var/mail/.
    mail_sink_dir: str = ""
    # An office behind one address: 100 requests per 10 min lets 30+ colleagues through, yet
    # a burst is mostly refused. Per email: the five documents, each retried once.
    rate_limit_per_ip: Count = 100
    rate_limit_per_email: Count = 10
    rate_limit_window_seconds: Count = 600
    # One IPv6 subscriber holds a whole /64 (RFC 6177): every per-address limit counts the
    # network of this many leading bits as one visitor (128: each address alone).
    rate_limit_ipv6_prefix: Annotated[int, Field(ge=1, le=128)] = 64
    # Reverse proxies whose X-Forwarded-For names the visitor (empty: trust no one).
    trusted_proxies: Annotated[tuple[Network, ...], NoDecode] = ()
    lead_min_fill_seconds: float = 2.0
    outbox_retry_base_seconds: float = 30.0
    outbox_max_attempts: Count = 12
    outbox_poll_seconds: float = 5.0
    # Consent and the scripts of its purposes (third-party scripts; empty means none): each is
    # loaded only once its purpose is chosen (content.consent.PURPOSES names them).
    consent_script_url: str = ""
    analytics_script_url: str = ""
    marketing_script_url: str = ""
    # Login through OpenID Connect and the free-trial registration.
    oidc_issuer: str = ""
    oidc_client_id: str = ""
    oidc_client_secret: SecretStr = SecretStr("")
    # Auth0 only: its `audience` parameter. The standard is `resource` (RFC 8707).
    oidc_audience: str = ""
    oidc_resource: str = ""
    # A claim of the identity (ID token merged with UserInfo); a dotted name walks nested objects.
    oidc_roles_claim: str = "roles"
    # "standard" (OpenID Connect, RP-Initiated Logout) or "auth0" (its /v2/logout, returnTo, federated).
    oidc_compat: Literal["standard", "auth0"] = "standard"
    oidc_use_refresh_tokens: bool = True
    # The `prompt=none` round trip when the site's session is gone but the browser's marker says
    # it was logged in. Off: the page just says logged out. A provider may answer prompt=none with
    # a page of its own (django-oauth-toolkit 3.4.1: HTTP 500), where the visitor would be left.
    oidc_silent_login: bool = False
    # Logins started (GET /auth/login, /auth/silent: each stores a login transaction) per client
    # IP per RATE_LIMIT_WINDOW_SECONDS: an office logging in at nine passes, a loop does not.
    login_rate_limit_per_ip: Count = 60
    oidc_password_reset_url: str = ""
    # The reset relay makes the provider mail whoever is named: requests per client IP and per
    # email per RATE_LIMIT_WINDOW_SECONDS.
    password_reset_rate_limit_per_ip: Count = 5
    password_reset_rate_limit_per_email: Count = 3
    manager_service_url: str = ""
    advisor_app_url: str = ""
    investor_app_url: str = ""
    session_secret: SecretStr = SecretStr("")
    # The role (in OIDC_ROLES_CLAIM) that opens the operators' console (/console).
    console_role: str = "SITE_ADMIN"
    # Set by `scripts/dev_services.py` when it points the site at its local stand-ins.
    dev_services: bool = False
    # Scale-out and operations. Reflex reads the same REFLEX_REDIS_URL for its state manager.
    redis_url: str = Field("", validation_alias="REFLEX_REDIS_URL")
    redis_key_prefix: str = "nereo:"
    # While this file exists the machine is draining: readiness (GET /api/v1/health) answers
    # 503 "draining" so that a load balancer stops sending it visitors; `ops drain` and
    # `ops undrain` create and remove it. Default: var/draining.
    drain_file: str = ""
    # Seconds a tab's server state outlives its last event (Reflex's token expiration). A tab's
    # state holds the login state, rebuilt from the session cookie by the next event (Reflex
    # rehydrates an expired state and runs the page's on_load), and the console's view: ten idle
    # minutes, not Reflex's hour (docs/configuration.md).
    state_expiry_seconds: Count = 600
    hsts_max_age_seconds: Count = 63072000
    csp_report_uri: str = ""
    log_format: Literal["json", "text"] = "json"
    log_level: LogLevel = "INFO"
    lead_retention_months: Count = 36
    # The built-in demo scheduler (used when booking_url is empty).
    booking_timezone: str = "Europe/Paris"
    booking_working_days: Annotated[tuple[int, ...], NoDecode] = (1, 2, 3, 4, 5)
    booking_working_hours: Annotated[tuple[tuple[int, int], ...], NoDecode] = ((540, 720), (840, 1080))
    booking_min_notice_minutes: Count = 240
    booking_days_ahead: Count = 21
    # A demo's length, written wherever the words name it (`{{meeting_minutes}}`, content/words.py),
    # and the free time kept between two meetings (`{{buffer_minutes}}`).
    booking_meeting_minutes: Annotated[int, Field(ge=MIN_MEETING_MINUTES, le=MAX_MEETING_MINUTES)] = 30
    booking_buffer_minutes: Count = 15
    booking_holidays: str = "FR"
    # A private calendar address is a secret of its own (whoever has it reads the calendar).
    booking_busy_ics_url: SecretStr = SecretStr("")
    booking_busy_cache_seconds: Count = 300
    # Named after the demo, not its length: BOOKING_MEETING_MINUTES changes without it.
    booking_video_url: str = "https://meet.nereo-wealth.fr/demo"
    booking_organizer_email: str = "demo@nereo-wealth.fr"
    booking_rate_limit_per_ip: Count = 10
    # Budgets of one client over 24 hours (confirmed bookings; a cancellation gives its unit
    # back): bookings for one email, whatever the address (each mails a confirmation to it: a demo
    # and one change of slot), and bookings from one address (an IPv6 /64), whatever the email
    # (colleagues behind one office address). The site's figure closes nothing: beyond it, the
    # BookingsAboveDailyFigure alert asks an operator to look (the offer is about 130 slots over
    # three weeks).
    booking_budget_per_email: Annotated[int, Field(ge=1)] = 2
    booking_budget_per_ip: Annotated[int, Field(ge=1)] = 4
    booking_alert_per_day: Annotated[int, Field(ge=1)] = 24
    # First-party audience measurement (services.audience). A reader opens a page every few
    # seconds at most; an office behind one address is many readers: 120 beacons a minute lets
    # them through and stops a loop from filling the tables. A worker gathers views for
    # AUDIENCE_FLUSH_SECONDS before writing them (0: each view at once). The CNIL's exemption
    # for audience measurement keeps figures 13 months at most.
    audience_rate_limit_per_minute: Count = 120
    audience_flush_seconds: float = 10
    audience_retention_months: Count = 13
    # Distinct sources (referring host and UTM tags together) the daily totals keep a day; the
    # views of any further source that day are counted under "(other)". Real campaigns bring
    # a few dozen; a client sending a new tag with every beacon would add rows without end.
    audience_sources_per_day: Count = 200
    # What one client address (an IPv6 /64) may add in a UTC day: new sources (beyond, its views
    # of a further source are counted under "(other)": it cannot take the day's sources from the
    # real campaigns), and distinct combinations of page, language, source and device, one row
    # of the daily totals each (beyond, a view of a new combination is not counted).
    audience_sources_per_address: Count = 10
    audience_combinations_per_address: Count = 100
    # Operations (docs/operations.md). GET /metrics answers Prometheus' scrape with this bearer
    # token (METRICS_TOKEN_MIN_LENGTH characters at least); empty: no metrics (404), and the
    # workers keep no metric files.
    metrics_token: SecretStr = SecretStr("")
    # Where the workers of one serving process group write their metrics (a folder per group,
    # emptied at start). Default: var/metrics/.
    metrics_dir: str = ""
    # Error reports to Sentry (or any service speaking its protocol); empty: none are sent.
    # The DSN's key lets anyone send reports to the project: a secret like the others.
    sentry_dsn: SecretStr = SecretStr("")
    sentry_environment: str = "production"
    # At most this many reports a minute, in each worker, of one failure (its fingerprint: the
    # kind, the exception's type and where it was raised), and from one client (an IPv4 address,
    # an IPv6 /64): a flood of one failure, or one client's, reports a few and counts the rest
    # (site_error_reports_suppressed_total).
    sentry_reports_per_fingerprint: Annotated[int, Field(ge=1)] = 10
    sentry_reports_per_client: Annotated[int, Field(ge=1)] = 5

    # --- parsing and checks ------------------------------------------------------------

    @field_validator("*", mode="before")
    @classmethod
    def _empty_is_default(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, str):
            value = value.strip()
            if not value and info.field_name in _EMPTY_MEANS_DEFAULT:
                field = cls.model_fields[info.field_name]
                return field.get_default(call_default_factory=True)
        return value

    @field_validator("site_url")
    @classmethod
    def _site_url(cls, value: str, info: ValidationInfo) -> str:
        return value or f"http://127.0.0.1:{info.data.get('port', 8000)}"

    @field_validator("drain_file")
    @classmethod
    def _drain_file(cls, value: str) -> str:
        return value or str(PROJECT_ROOT / "var" / "draining")

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        return value or f"sqlite:///{PROJECT_ROOT / 'var' / 'marketing_site.db'}"

    @field_validator("mail_sink_dir")
    @classmethod
    def _mail_sink_dir(cls, value: str) -> str:
        return value or str(PROJECT_ROOT / "var" / "mail")

    @field_validator("metrics_dir")
    @classmethod
    def _metrics_dir(cls, value: str) -> str:
        return value or str(PROJECT_ROOT / "var" / "metrics")

    @field_validator("sentry_dsn")
    @classmethod
    def _sentry_dsn(cls, value: SecretStr) -> SecretStr:
        dsn = value.get_secret_value()
        if dsn:
            from sentry_sdk.utils import BadDsn, Dsn

            try:
                Dsn(dsn)
            except BadDsn as error:
                # Not the value itself: it is a secret.
                raise ValueError(f"must be a DSN like https://<key>@<host>/<project id> ({error})") from None
        return value

    @field_validator("metrics_token")
    @classmethod
    def _metrics_token(cls, value: SecretStr) -> SecretStr:
        token = value.get_secret_value()
        if token and len(token) < METRICS_TOKEN_MIN_LENGTH:
            # Not the value itself: it is a secret.
            raise ValueError(
                f"must be at least {METRICS_TOKEN_MIN_LENGTH} characters (a long random string: "
                "`openssl rand -hex 32`), or empty for no metrics"
            )
        return value

    @field_validator("security_contact")
    @classmethod
    def _security_contact(cls, value: str) -> str:
        value = value or "mailto:security@nereo-wealth.fr"
        if not value.startswith(("mailto:", "https://", "tel:")):
            raise ValueError(f"must be a mailto:, https: or tel: URI (RFC 9116), not {value!r}")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _log_level(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value

    @field_validator("booking_holidays", mode="before")
    @classmethod
    def _holiday_country(cls, value: Any) -> Any:
        """A country code of the `holidays` library, or empty for no public holidays off."""
        value = value.strip().upper() if isinstance(value, str) else value
        if value:
            import holidays

            if value not in holidays.list_supported_countries():
                raise ValueError(f"must be a country code of the holidays library (e.g. FR) or empty, not {value!r}")
        return value

    @field_validator(
        "lead_min_fill_seconds", "outbox_retry_base_seconds", "outbox_poll_seconds", "audience_flush_seconds"
    )
    @classmethod
    def _seconds(cls, value: float, info: ValidationInfo) -> float:
        # float() accepts nan and inf: neither is a delay.
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"must be a finite number of seconds, 0 or more, not {value!r}")
        if value == 0 and info.field_name not in ("lead_min_fill_seconds", "audience_flush_seconds"):
            raise ValueError("must be more than 0 seconds")
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _networks(cls, value: Any) -> Any:
        """Comma-separated IP addresses or CIDR networks."""
        if not isinstance(value, str):
            return value
        networks = []
        for item in filter(None, (part.strip() for part in value.split(","))):
            try:
                networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError as error:
                msg = f"must list IP addresses or networks (10.0.0.2, 10.0.0.0/24), not {item!r}"
                raise ValueError(msg) from error
        return tuple(networks)

    @field_validator("booking_timezone")
    @classmethod
    def _timezone(cls, value: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as error:
            raise ValueError(f"must be an IANA time zone such as Europe/Paris, not {value!r}") from error
        return value

    @field_validator("booking_working_days", mode="before")
    @classmethod
    def _days(cls, value: Any) -> Any:
        """ISO weekdays (1 = Monday … 7 = Sunday), comma-separated."""
        if not isinstance(value, str):
            return value
        message = f"must list ISO weekdays (1 = Monday … 7 = Sunday), not {value!r}"
        try:
            days = tuple(sorted({int(part) for part in value.split(",") if part.strip()}))
        except ValueError as error:
            raise ValueError(message) from error
        if not days or not all(1 <= day <= 7 for day in days):
            raise ValueError(message)
        return days

    @field_validator("booking_working_hours", mode="before")
    @classmethod
    def _hours(cls, value: Any) -> Any:
        """Ranges `HH:MM-HH:MM`, comma-separated, as (start, end) minutes after midnight."""
        if not isinstance(value, str):
            return value
        ranges = []
        try:
            for part in value.split(","):
                start, end = (int(h) * 60 + int(m) for h, m in (t.strip().split(":") for t in part.split("-")))
                ranges.append((start, end))
        except ValueError as error:
            raise ValueError(f"must be ranges like 09:00-12:00,14:00-18:00, not {value!r}") from error
        if any(not 0 <= start < end <= 24 * 60 for start, end in ranges):
            raise ValueError(f"each range must start before it ends, within one day ({value!r})")
        return tuple(sorted(ranges))

    # --- derived values ----------------------------------------------------------------

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

    def replace(self, **changes: Any) -> Settings:
        """A copy with some fields changed (by field name), checked like the environment."""
        values = {name: getattr(self, name) for name in type(self).model_fields}
        return type(self).model_validate({**values, **changes})

    # --- no secret in print or logs ------------------------------------------------------

    def __repr_args__(self) -> Any:
        for name, value in super().__repr_args__():
            masked = name in _URLS_WITH_PASSWORD and isinstance(value, str)
            yield name, _without_password(value) if masked else value

    @field_serializer(*_URLS_WITH_PASSWORD)
    def _dump_without_password(self, value: str) -> str:
        return _without_password(value)


def _without_password(url: str) -> str:
    """The URL with the password of its user part masked (postgresql://u:***@host/db)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def variable_name(field_name: str) -> str:
    """The environment variable of a settings field."""
    alias = Settings.model_fields[field_name].validation_alias
    return alias if isinstance(alias, str) else field_name.upper()


def _report(error: ValidationError) -> SettingsError:
    lines = []
    for item in error.errors(include_url=False, include_input=False):
        field = str(item["loc"][0]) if item["loc"] else ""
        name = variable_name(field) if field in Settings.model_fields else field.upper()
        message = str(item["msg"]).removeprefix("Value error, ")
        lines.append(f"{name}: {message}")
    return SettingsError("invalid settings:\n  " + "\n  ".join(lines))


def refuse_unshared_workers(settings: Settings, environ: Mapping[str, str]) -> None:
    """Several backend workers without Redis would each count the rate limits and booking
    budgets alone (and keep page state of their own): refused before any of them starts.

    The worker count is GRANIAN_WORKERS, which `make run WORKERS=n` and `./serve` set."""
    raw = (environ.get("GRANIAN_WORKERS") or "1").strip()
    try:
        workers = int(raw)
    except ValueError:
        raise SettingsError(f"invalid settings:\n  GRANIAN_WORKERS: must be a whole number, not {raw!r}") from None
    if workers > 1 and not settings.redis_url:
        raise SettingsError(
            f"invalid settings:\n  WORKERS: {workers} workers need REFLEX_REDIS_URL (Redis), where every worker "
            "sees the same rate limits, booking budgets and page state; without it, run one worker (WORKERS=1)"
        )


def load_settings() -> Settings:
    """Read and check every variable of the environment; all bad ones are reported at once."""
    try:
        return Settings()
    except ValidationError as error:
        raise _report(error) from None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Read the environment once per process."""
    # Into the process environment (not pydantic's env_file): Reflex and Granian read some of the
    # same variables (REFLEX_REDIS_URL) from os.environ themselves. ENV_FILE names another file;
    # empty, none (the test sites: only what they are given).
    env_file = os.environ.get("ENV_FILE", str(PROJECT_ROOT / ".env"))
    if env_file:
        load_dotenv(env_file, override=False)
    return load_settings()
