"""The start-up self-check against a real loopback provider: what it reports as a problem
(ERROR: a login cannot work), what it only logs (WARNING: the site adapts), and the lifespan
task that logs them for the operator."""

from __future__ import annotations

import logging

import pytest
from test_auth_services import _Dropper, _party, _Provider, _run

from marketing_site import logs
from marketing_site.services import oidc
from marketing_site.settings import get_settings

REFUSED_GRANT = (400, {"error": "invalid_grant"})  # the client authenticated, the made-up token is refused


def test_an_error_finding_of_discovery_is_a_problem_and_a_warning_is_only_logged(caplog):
    provider = _Provider(
        token_answer=lambda n, form: REFUSED_GRANT,
        extra_metadata={"code_challenge_methods_supported": ["plain"]},  # ERROR; no end_session_endpoint: WARNING
    )
    try:
        with caplog.at_level(logging.WARNING, logger=oidc.__name__):
            problems = _run(_party(provider.issuer).self_check())
        (problem,) = problems
        assert "enable PKCE with S256" in problem
        warnings = [record for record in caplog.records if record.levelno == logging.WARNING]
        assert any("end_session_endpoint" in record.getMessage() for record in warnings)
        assert all("S256" not in record.getMessage() for record in warnings)
    finally:
        provider.close()


def test_a_token_endpoint_that_does_not_answer_is_a_problem():
    dropper = _Dropper()
    provider = _Provider(token_endpoint=dropper.url, extra_metadata={"end_session_endpoint": "http://x/logout"})
    try:
        (problem,) = _run(_party(provider.issuer).self_check())
        assert problem.startswith("the token endpoint did not answer: ") and "3 attempts" in problem
    finally:
        provider.close()
        dropper.sock.close()


def test_refused_client_credentials_are_a_problem_naming_the_refusal():
    provider = _Provider(token_answer=lambda n, form: (401, {"error": "invalid_client", "error_description": "who"}))
    try:
        (problem,) = _run(_party(provider.issuer).self_check())
        assert problem.startswith("the provider refused the client credentials: ") and "who" in problem
    finally:
        provider.close()


@pytest.fixture
def configured(monkeypatch):
    """The site's own settings (as the lifespan task reads them) pointed at a loopback provider."""

    def configure(provider: _Provider | None, **environment: str) -> None:
        monkeypatch.setenv("OIDC_ISSUER", provider.issuer if provider else "")
        monkeypatch.setenv("OIDC_CLIENT_ID", "c" if provider else "")
        monkeypatch.setenv("OIDC_CLIENT_SECRET", "s")
        monkeypatch.setenv("REFLEX_REDIS_URL", "")
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()

    yield configure
    get_settings.cache_clear()


def test_the_lifespan_self_check_logs_each_problem_at_error_with_the_configuration_shown(configured, caplog):
    provider = _Provider(
        token_answer=lambda n, form: REFUSED_GRANT,
        extra_metadata={
            "code_challenge_methods_supported": ["plain"],
            "id_token_signing_alg_values_supported": ["ES256"],
        },
    )
    try:
        configured(provider)
        with caplog.at_level(logging.INFO, logger=oidc.__name__):
            _run(oidc.self_check())
        errors = [record for record in caplog.records if record.levelno == logging.ERROR]
        assert len(errors) == 2
        assert all(record.getMessage().startswith("OIDC self-check: ") for record in errors)
        assert any("S256" in record.getMessage() for record in errors)
        assert any("RS256" in record.getMessage() for record in errors)
        for record in errors:  # the issuer is shown whole in the log (logs.configuration)
            assert provider.issuer in getattr(record, logs.CONFIGURATION_VALUES)
        assert not any("accepts client" in record.getMessage() for record in caplog.records)
    finally:
        provider.close()


def test_the_lifespan_self_check_says_so_when_the_provider_accepts_the_client(configured, caplog):
    provider = _Provider(
        token_answer=lambda n, form: REFUSED_GRANT, extra_metadata={"end_session_endpoint": "http://x/logout"}
    )
    try:
        configured(provider)
        with caplog.at_level(logging.INFO, logger=oidc.__name__):
            _run(oidc.self_check())
        assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
        # Only the self-check's own lines (in a whole run, other loggers' INFO lines are caught too).
        (line,) = [r for r in caplog.records if r.levelno == logging.INFO and r.name == oidc.__name__]
        assert provider.issuer in getattr(line, logs.CONFIGURATION_VALUES)
        assert line.getMessage() == f"OIDC self-check: provider {provider.issuer} accepts client c"
    finally:
        provider.close()


def test_the_lifespan_self_check_asks_nothing_without_a_configured_provider(configured, caplog):
    configured(None)
    with caplog.at_level(logging.DEBUG, logger=oidc.__name__):
        _run(oidc.self_check())
    assert not caplog.records


def test_the_lifespan_self_check_never_takes_the_site_down(configured, caplog):
    """An unusable provider is a problem logged at ERROR; the task returns either way."""
    configured(None, OIDC_ISSUER="http://127.0.0.1:9", OIDC_CLIENT_ID="c")
    with caplog.at_level(logging.INFO, logger=oidc.__name__):
        _run(oidc.self_check())
    (line,) = caplog.records
    assert line.levelno == logging.ERROR and "is not usable" in line.getMessage()


def _findings(metadata: dict, **changes) -> list[tuple[int, str]]:
    settings = get_settings().replace(oidc_issuer="https://idp.example", oidc_client_id="c", **changes)
    return oidc.RelyingParty(settings).discovery_findings(metadata)


def test_a_provider_without_the_openid_scope_is_an_error_other_scopes_a_warning():
    endpoints = {"end_session_endpoint": "https://idp.example/logout", "userinfo_endpoint": "https://idp.example/u"}
    findings = _findings({"scopes_supported": ["profile", "email", "offline_access"], **endpoints})
    assert [level for level, text in findings if "openid scope" in text] == [logging.ERROR]
    findings = _findings({"scopes_supported": ["openid", "email", "offline_access"], **endpoints})
    assert [level for level, text in findings if "profile scope" in text] == [logging.WARNING]


@pytest.mark.parametrize("advertised", ["openid profile email offline_access", "x", {"openid": True}, 7])
def test_scopes_supported_that_is_not_a_list_is_not_held_against_the_provider(advertised):
    """A malformed field is as good as a missing one: no finding, and every scope asked."""
    endpoints = {"end_session_endpoint": "https://idp.example/logout", "userinfo_endpoint": "https://idp.example/u"}
    assert _findings({"scopes_supported": advertised, **endpoints}, oidc_use_refresh_tokens=True) == []
    party = oidc.RelyingParty(get_settings().replace(oidc_use_refresh_tokens=True))
    assert party.scopes({"scopes_supported": advertised}) == ["openid", "profile", "email", "offline_access"]


@pytest.mark.parametrize(
    ("secret", "fix", "wrong_fix"),
    [
        ("s", "register the client at the provider", "set OIDC_CLIENT_SECRET"),
        ("", "set OIDC_CLIENT_SECRET", "register"),
    ],
)
def test_a_refused_client_authentication_names_the_fix_that_fits_the_client(secret, fix, wrong_fix):
    """A confidential client the token endpoint would refuse is registered again at the
    provider; only a public one (no secret) is told to set OIDC_CLIENT_SECRET."""
    endpoints = {"end_session_endpoint": "https://idp.example/logout", "userinfo_endpoint": "https://idp.example/u"}
    findings = _findings(
        {"token_endpoint_auth_methods_supported": ["private_key_jwt"], **endpoints}, oidc_client_secret=secret
    )
    ((level, text),) = findings
    assert level == logging.ERROR and fix in text and wrong_fix not in text


def test_the_values_a_log_line_shows_whole_are_this_clients_configuration_and_the_providers_endpoints():
    """Issue 34: what an operator compares with the provider's screens is shown in full: the
    issuer, its discovery document, the issuer discovery named instead, the two addresses to
    register and every endpoint discovery gave; nothing else (a value without a scheme)."""
    provider = _Provider(extra_metadata={"end_session_endpoint": "http://127.0.0.1:9/logout", "claims": "sub"})
    try:
        party = _party(provider.issuer + "/", site_url="https://www.example.test")
        with pytest.raises(oidc.ConfigurationError):
            _run(party.metadata())
        shown = party.log_values()[logs.CONFIGURATION_VALUES]
        assert shown == (
            provider.issuer + "/",
            provider.issuer + "/.well-known/openid-configuration",
            provider.issuer,  # the one discovery named
            "https://www.example.test/auth/callback",
            "https://www.example.test/",
        )
        party = _party(provider.issuer, site_url="https://www.example.test")
        _run(party.metadata())
        shown = party.log_values()[logs.CONFIGURATION_VALUES]
        assert shown[:2] == (provider.issuer, provider.issuer + "/.well-known/openid-configuration")
        assert set(shown[2:]) == {
            "https://www.example.test/auth/callback",
            "https://www.example.test/",
            provider.issuer,  # the metadata's own issuer field
            provider.issuer + "/authorize",
            provider.issuer + "/token",
            provider.issuer + "/jwks",
            "http://127.0.0.1:9/logout",
        }
        assert "sub" not in shown
    finally:
        provider.close()
