"""The console opens to the console role exactly: a role that merely contains its name
(`NOT_SITE_ADMIN`, `SITE_ADMIN_READONLY`), another case or spacing, or the name inside one
string of several roles is not that role. Sessions are real rows of a migrated database."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _access(roles, claim: str | None = None) -> str:
    from marketing_site.services import sessions
    from marketing_site.services.console import access_of
    from marketing_site.settings import get_settings

    claims = {"sub": "u", "email": "u@example.test", claim or get_settings().oidc_roles_claim: roles}
    session_id = sessions.create_session(claims, sessions.Tokens("id", "access", None, time.time() + 3600))
    return access_of(f"{sessions.SESSION_COOKIE}={session_id}")[0]


@pytest.mark.parametrize(
    "roles",
    [
        ["NOT_SITE_ADMIN"],
        ["SITE_ADMIN_READONLY"],
        ["SITE_ADMINS"],
        ["XSITE_ADMIN"],
        ["site_admin"],
        ["Site_Admin"],
        [" SITE_ADMIN"],
        ["SITE_ADMIN "],
        ["SITE_ADMIN\n"],
        ["ADVISOR,SITE_ADMIN"],
        ["ADVISOR SITE_ADMIN"],
        [["SITE_ADMIN"]],
        [{"SITE_ADMIN": True}],
        "NOT_SITE_ADMIN",
        "SITE_ADMIN_READONLY",
        "ADVISOR SITE_ADMIN",
        {"SITE_ADMIN": True},
        [],
        "",
        None,
        ["ADVISOR", "INVESTOR"],
    ],
)
def test_a_role_that_is_not_exactly_the_console_role_is_forbidden(service, roles):
    assert _access(roles) == "forbidden"


@pytest.mark.parametrize("roles", [["SITE_ADMIN"], "SITE_ADMIN", ["NOT_SITE_ADMIN", "SITE_ADMIN", "ADVISOR"]])
def test_the_console_role_itself_is_granted(service, roles):
    assert _access(roles) == "granted"


def test_the_configured_role_is_the_one_matched(service, monkeypatch):
    from marketing_site.settings import get_settings

    monkeypatch.setenv("CONSOLE_ROLE", "OPS")
    get_settings.cache_clear()
    assert _access(["OPS"]) == "granted"
    for other in (["SITE_ADMIN"], ["OPS_READONLY"], ["NOT_OPS"], ["ops"]):
        assert _access(other) == "forbidden", other


def test_the_roles_come_from_the_configured_claim_only(service):
    assert _access(["SITE_ADMIN"], claim="https://elsewhere.example/roles") == "forbidden"


# Text around the role name: never empty on both sides, so never the role itself.
_AFFIXES = st.tuples(st.text(max_size=6), st.text(max_size=6)).filter(lambda a: a != ("", ""))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(affixes=_AFFIXES, others=st.lists(st.sampled_from(["ADVISOR", "INVESTOR", "BETA", "site_admin"]), max_size=3))
def test_any_role_containing_the_console_role_is_forbidden(service, affixes, others):
    prefix, suffix = affixes
    assert _access([*others, f"{prefix}SITE_ADMIN{suffix}"]) == "forbidden"


@pytest.mark.parametrize(
    ("roles", "destination"),
    [
        (["NOT_ADVISOR"], None),
        (["ADVISOR_PENDING"], None),
        (["advisor"], None),
        (["INVESTOR_PENDING"], None),
        (["FORMER_INVESTOR", "BETA"], None),
        (["ADVISOR"], "https://advisor.test"),
        (["INVESTOR"], "https://investor.test"),
    ],
)
def test_the_role_redirect_matches_whole_roles(roles, destination):
    from marketing_site.settings import get_settings
    from marketing_site.state.auth import role_destination

    settings_ = get_settings().replace(advisor_app_url="https://advisor.test", investor_app_url="https://investor.test")
    assert role_destination(roles, settings_) == destination
