"""The settings: every bad variable reported at once by name, and no secret in print or logs."""

from __future__ import annotations

import io
import logging
import re

import pytest

from marketing_site.logs import RedactingFormatter
from marketing_site.settings import PROJECT_ROOT, Settings, SettingsError, get_settings, load_settings

# Recognisable values for everything secret a deployment sets.
CANARIES = {
    "SMTP_PASSWORD": "canary-smtp-9d41",
    "OIDC_CLIENT_SECRET": "canary-oidc-77ab",
    "SESSION_SECRET": "canary-session-0c5e",
    "BOOKING_BUSY_ICS_URL": "https://calendar.example/private-canary-ics-3f10/basic.ics",
    "DATABASE_URL": "postgresql+psycopg://nereo:canary-db-5b2a@db.internal:5432/nereo",
    "REFLEX_REDIS_URL": "redis://:canary-redis-e81c@cache.internal:6379/0",
    "METRICS_TOKEN": "canary-metrics-a17f",
    "SENTRY_DSN": "https://canary-sentry-6b2e@errors.example/17",
}
SECRET_PARTS = [
    "canary-smtp-9d41",
    "canary-oidc-77ab",
    "canary-session-0c5e",
    "private-canary-ics-3f10",
    "canary-db-5b2a",
    "canary-redis-e81c",
    "canary-metrics-a17f",
    "canary-sentry-6b2e",
]


@pytest.fixture
def environment(monkeypatch):
    """A clean slate: the settings are read again from what the test sets."""
    get_settings.cache_clear()
    yield monkeypatch
    get_settings.cache_clear()


def _with_canaries(monkeypatch):
    for name, value in CANARIES.items():
        monkeypatch.setenv(name, value)


def test_secrets_reach_their_callers(environment):
    _with_canaries(environment)
    settings = load_settings()
    assert settings.smtp_password.get_secret_value() == "canary-smtp-9d41"
    assert settings.oidc_client_secret.get_secret_value() == "canary-oidc-77ab"
    assert settings.session_secret.get_secret_value() == "canary-session-0c5e"
    assert settings.booking_busy_ics_url.get_secret_value() == CANARIES["BOOKING_BUSY_ICS_URL"]
    assert settings.metrics_token.get_secret_value() == "canary-metrics-a17f"
    assert settings.sentry_dsn.get_secret_value() == CANARIES["SENTRY_DSN"]
    # The engines get the whole URL, password included.
    assert settings.database_url == CANARIES["DATABASE_URL"]
    assert settings.redis_url == CANARIES["REFLEX_REDIS_URL"]


def test_printing_dumping_or_logging_the_settings_shows_no_secret(environment):
    _with_canaries(environment)
    settings = load_settings()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter(as_json=True))
    logger = logging.getLogger("test_settings.canaries")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("settings: %s", settings)
        logger.warning("settings: %r", settings)
        logger.warning("dump: %s", settings.model_dump())
    finally:
        logger.removeHandler(handler)
    printed = [str(settings), repr(settings), f"{settings}", settings.model_dump_json(), str(settings.model_dump())]
    shown = "\n".join([*printed, stream.getvalue()])
    leaked = [part for part in SECRET_PARTS if part in shown]
    assert leaked == []
    # What is shown still tells an operator where things point.
    assert "db.internal:5432/nereo" in shown
    assert "cache.internal:6379" in shown


def test_every_bad_variable_is_reported_at_once_by_name(environment):
    _with_canaries(environment)
    bad = {
        "SMTP_PORT": "five-eight-seven",
        "RATE_LIMIT_PER_IP": "-3",
        "LEAD_MIN_FILL_SECONDS": "nan",
        "OUTBOX_RETRY_BASE_SECONDS": "inf",
        "OUTBOX_POLL_SECONDS": "0",
        "LOG_LEVEL": "verbose",
        "LOG_FORMAT": "xml",
        "SMTP_STARTTLS": "maybe",
        "TRUSTED_PROXIES": "10.0.0.5, proxy.local",
        "BOOKING_WORKING_DAYS": "0,8",
        "PRICING_PRICE_SET": "cheap",
        "RATE_LIMIT_IPV6_PREFIX": "129",
        "BOOKING_BUDGET_PER_EMAIL": "0",
        # One character short of the shortest token accepted (METRICS_TOKEN_MIN_LENGTH is 16).
        "METRICS_TOKEN": "fifteen-chars-x",
    }
    for name, value in bad.items():
        environment.setenv(name, value)
    with pytest.raises(SettingsError) as raised:
        load_settings()
    message = str(raised.value)
    reported = {line.strip().split(":", 1)[0] for line in message.splitlines()[1:]}
    assert reported == set(bad)
    assert "'proxy.local'" in message
    # A report about other variables does not echo the secrets around them.
    assert [part for part in SECRET_PARTS if part in message] == []


@pytest.mark.parametrize(
    ("name", "value", "attribute", "expected"),
    [
        ("LOG_LEVEL", "warning", "log_level", "WARNING"),
        ("LOG_LEVEL", "", "log_level", "INFO"),
        ("SMTP_PORT", " 2525 ", "smtp_port", 2525),
        ("SMTP_PORT", "", "smtp_port", 587),
        ("LEAD_MIN_FILL_SECONDS", "0", "lead_min_fill_seconds", 0.0),
        ("OUTBOX_POLL_SECONDS", "0.5", "outbox_poll_seconds", 0.5),
        ("SMTP_STARTTLS", "off", "smtp_starttls", False),
        ("BOOKING_HOLIDAYS", "", "booking_holidays", ""),  # empty: no public holidays off
        ("BOOKING_HOLIDAYS", "de", "booking_holidays", "DE"),
        ("CONSOLE_ROLE", "", "console_role", "SITE_ADMIN"),
        ("RATE_LIMIT_IPV6_PREFIX", "", "rate_limit_ipv6_prefix", 64),
        ("RATE_LIMIT_IPV6_PREFIX", "56", "rate_limit_ipv6_prefix", 56),
        ("AUDIENCE_SOURCES_PER_DAY", "", "audience_sources_per_day", 200),
        ("BOOKING_BUDGET_PER_EMAIL", "", "booking_budget_per_email", 2),
        ("BOOKING_BUDGET_PER_IP", "", "booking_budget_per_ip", 4),
        ("BOOKING_ALERT_PER_DAY", "40", "booking_alert_per_day", 40),
    ],
)
def test_values_are_read_as_documented(environment, name, value, attribute, expected):
    environment.setenv(name, value)
    assert getattr(load_settings(), attribute) == expected


def test_site_url_defaults_to_the_port(environment):
    environment.setenv("PORT", "9123")
    environment.setenv("SITE_URL", "")
    assert load_settings().site_url == "http://127.0.0.1:9123"


def test_replace_checks_like_the_environment(environment):
    settings = load_settings()
    assert settings.replace(smtp_port="2525").smtp_port == 2525
    assert settings.replace(session_secret="x" * 40).session_secret.get_secret_value() == "x" * 40
    with pytest.raises(ValueError, match="log_level"):
        settings.replace(log_level="LOUD")


def variable_names() -> set[str]:
    """The environment variable each setting is read from: its alias, else its name in capitals."""
    names = set()
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        assert alias is None or isinstance(alias, str), f"{name}: read the variable name from {alias!r} here"
        names.add(alias or name.upper())
    return names


def test_every_setting_is_in_env_example_and_nothing_else():
    lines = re.findall(r"(?m)^([A-Z][A-Z0-9_]*)=", (PROJECT_ROOT / ".env.example").read_text())
    assert len(lines) == len(set(lines)), "a variable is listed twice in .env.example"
    assert {"PORT", "REFLEX_REDIS_URL", "SESSION_SECRET"} <= set(lines)
    settings = variable_names()
    assert sorted(settings - set(lines)) == [], "settings missing from .env.example"
    assert sorted(set(lines) - settings) == [], ".env.example lists variables no setting reads"


@pytest.mark.parametrize(
    ("workers", "redis", "refused"),
    [("", "", False), ("1", "", False), ("2", "", True), ("4", "redis://cache:6379/0", False), ("two", "", True)],
)
def test_several_workers_without_redis_are_refused(environment, workers, redis, refused):
    """Issue 30, must-hold 5: each worker would count the rate limits and budgets alone."""
    from marketing_site.settings import refuse_unshared_workers

    environment.setenv("REFLEX_REDIS_URL", redis)
    settings = load_settings()
    if refused:
        with pytest.raises(SettingsError, match=r"WORKERS|GRANIAN_WORKERS"):
            refuse_unshared_workers(settings, {"GRANIAN_WORKERS": workers})
    else:
        refuse_unshared_workers(settings, {"GRANIAN_WORKERS": workers})


def test_the_site_refuses_to_start_several_workers_without_redis(tmp_path):
    """What `make run WORKERS=2` and ./serve start (reflex run, GRANIAN_WORKERS=2) stops at once
    with the one message, before any worker starts."""
    import os
    import subprocess

    from servers import BIN, MACHINE_ENVIRONMENT, ROOT

    env = {name: os.environ[name] for name in MACHINE_ENVIRONMENT if name in os.environ}
    env.update(
        PATH=f"{BIN}:/usr/bin:/bin",
        ENV_FILE="",
        GRANIAN_WORKERS="2",
        REFLEX_TELEMETRY_ENABLED="false",
        DATABASE_URL=f"sqlite:///{tmp_path / 'never.db'}",
    )
    done = subprocess.run(
        [str(BIN / "reflex"), "run", "--env", "prod", "--backend-only", "--backend-port", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "invalid settings:",
        (
            "  WORKERS: 2 workers need REFLEX_REDIS_URL (Redis), where every worker sees the same rate limits, "
            "booking budgets and page state; without it, run one worker (WORKERS=1)"
        ),
    ]
    assert not (tmp_path / "never.db").exists()


def test_a_metrics_token_shorter_than_sixteen_characters_is_refused_at_start(environment):
    """Anyone may try tokens against /metrics: a one-character token falls in one try. Sixteen
    characters are accepted, fifteen refused by name, without echoing the value; empty means no
    metrics."""
    environment.setenv("METRICS_TOKEN", "k" * 16)
    assert load_settings().metrics_token.get_secret_value() == "k" * 16
    environment.setenv("METRICS_TOKEN", "")
    assert load_settings().metrics_token.get_secret_value() == ""
    for short in ("k" * 15, "t"):
        environment.setenv("METRICS_TOKEN", short)
        with pytest.raises(SettingsError, match="METRICS_TOKEN: must be at least 16 characters") as refused:
            load_settings()
        assert "k" * 15 not in str(refused.value)
