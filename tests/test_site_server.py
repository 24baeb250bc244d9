"""A test site is sealed: it gets the machine's basics (servers.MACHINE_ENVIRONMENT) and the
settings its test gives, never what the developer's shell exports."""

from __future__ import annotations

from servers import SiteServer


def test_the_shell_environment_does_not_reach_a_test_site(tmp_path, monkeypatch):
    # The SQLite case: no PostgreSQL database is made for this server.
    monkeypatch.delenv("TEST_DATABASE_URL", raising=False)
    monkeypatch.delenv("TEST_REDIS_URL", raising=False)
    exported = {
        "OIDC_ISSUER": "https://login.developer.example",
        "OIDC_CLIENT_SECRET": "developer-secret",
        "DATABASE_URL": "postgresql+psycopg://developer@db.example/nereo",
        "REFLEX_REDIS_URL": "redis://cache.example:6379/0",
        "SMTP_HOST": "smtp.developer.example",
        "LOG_LEVEL": "DEBUG",
    }
    for name, value in exported.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("LANG", "C.UTF-8")  # one of the machine's basics

    server = SiteServer(9, tmp_path, BOOKING_HOLIDAYS="")

    assert {name: server.env[name] for name in exported if name in server.env} == {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site-9.db'}"  # the site's own database
    }
    assert server.env["LANG"] == "C.UTF-8"
    assert server.env["ENV_FILE"] == ""  # nor the project's .env
    assert server.env["BOOKING_HOLIDAYS"] == ""  # what the test gives
