"""The relying party's rules that need no provider: how a token endpoint's answer is read
(status first, OAuth error body, `expires_in`), the replay memory of back-channel logout tokens
without Redis, and the production refusal. Real `httpx2` responses and settings, no server."""

from __future__ import annotations

import asyncio
import time

import httpx2
import pytest
from servers import run_in_own_loop

from marketing_site.services import oidc, sessions
from marketing_site.settings import get_settings

TOKEN_ENDPOINT = "http://127.0.0.1:9/token"


def _answer(status: int, **content) -> httpx2.Response:
    return httpx2.Response(status, request=httpx2.Request("POST", TOKEN_ENDPOINT), **content)


# ----------------------------------------------------------------------- the status decides first


@pytest.mark.parametrize("status", [401, 429, 500, 502, 503, 599])
def test_client_authentication_throttling_and_5xx_raise_whatever_the_body(status):
    """A 401 `unauthorized_client` body would otherwise be read as a refused grant (ending the
    session), a 429 or 503 with a JSON body as a token."""
    with pytest.raises(httpx2.HTTPStatusError):
        oidc._status_first(_answer(status, json={"error": "unauthorized_client", "access_token": "x"}))


@pytest.mark.parametrize("status", [200, 400, 403, 404, 428, 430, 499])
def test_other_statuses_are_left_to_the_body(status):
    answer = _answer(status, json={"error": "invalid_grant"})
    assert oidc._status_first(answer) is answer


def test_an_oauth_error_body_is_read_with_its_description_when_it_has_one():
    assert oidc._oauth_error_of(_answer(401, json={"error": "invalid_client"})) == "invalid_client"
    described = {"error": "invalid_client", "error_description": "bad secret"}
    assert oidc._oauth_error_of(_answer(401, json=described)) == "invalid_client: bad secret"
    assert oidc._oauth_error_of(_answer(401, json={"error": "x", "error_description": ""})) == "x"
    assert oidc._oauth_error_of(_answer(401, json={"error": "x", "error_description": 7})) == "x"


@pytest.mark.parametrize(
    "content",
    [
        {"text": "<html>Unauthorized</html>"},
        {"json": ["invalid_client"]},
        {"json": {"error": 401}},
        {"json": {"message": "no"}},
    ],
)
def test_a_body_without_an_oauth_error_gives_nothing(content):
    assert oidc._oauth_error_of(_answer(401, **content)) == ""


# ----------------------------------------------------------------------- expires_in


@pytest.mark.parametrize(
    ("expires_in", "lifetime"),
    [(3600, 3600.0), ("3600", 3600.0), (30.5, 30.5), (0, 0.0), ("0", 0.0)],
)
def test_expires_in_as_a_number_or_a_string_of_digits_is_a_lifetime(expires_in, lifetime):
    now = 1_000_000.0
    assert oidc.RelyingParty._expiry({"expires_in": expires_in}, now) == now + lifetime


@pytest.mark.parametrize("expires_in", [True, False, None, "3600s", "-5", "", [3600], {"s": 1}])
def test_any_other_expires_in_is_unknown_not_expired(expires_in):
    assert oidc.RelyingParty._expiry({"expires_in": expires_in}, 1_000_000.0) is None


def test_a_token_set_keeps_its_tokens_in_order_with_when_they_came():
    tokens = oidc.TokenSet("id", "access", "refresh", 2_000.0, {"sub": "u"}, 1_000.0).as_tokens()
    assert (tokens.id_token, tokens.access_token, tokens.refresh_token) == ("id", "access", "refresh")
    assert (tokens.access_expires_at, tokens.received_at) == (2_000.0, 1_000.0)


def test_raw_or_gives_a_string_value_only():
    assert oidc.raw_or({"id_token": "a.b.c"}, "id_token") == "a.b.c"
    assert oidc.raw_or({"id_token": 7}, "id_token") == ""
    assert oidc.raw_or({}, "id_token") == ""


def test_an_auth_errors_message_is_its_detail_else_its_error_else_its_code():
    assert str(oidc.TokenFailed("the detail", error="invalid_grant")) == "the detail"
    assert str(oidc.ProviderRejected(error="invalid_grant", description="d")) == "invalid_grant"
    refused = oidc.ProviderRejected(error="invalid_grant", description="d")
    assert (refused.error, refused.description, refused.code) == ("invalid_grant", "d", "token_failed")
    assert str(oidc.TokenFailed()) == "token_failed"
    assert str(oidc.LoginFailed()) == "login_failed"


# ----------------------------------------------------------------------- logout token replays


def _party() -> oidc.RelyingParty:
    settings = get_settings().replace(oidc_issuer="https://id.example.test", oidc_client_id="c", redis_url="")
    return oidc.RelyingParty(settings)


def test_a_logout_token_id_is_accepted_once_per_issuer_and_forgotten_when_no_token_could_carry_it():
    party = _party()
    assert run_in_own_loop(party._first_use_of("j1")) is True
    assert run_in_own_loop(party._first_use_of("j1")) is False
    assert run_in_own_loop(party._first_use_of("j2")) is True
    other = oidc.RelyingParty(party.settings.replace(oidc_issuer="https://other.example.test"))
    other._seen_jtis = dict(party._seen_jtis)
    assert run_in_own_loop(other._first_use_of("j1")) is True  # the id is the issuer's: another's is not a replay
    # Kept as long as a logout token is accepted at all, then free.
    for until in party._seen_jtis.values():
        assert oidc.SEEN_JTI_SECONDS - 5 < until - time.monotonic() <= oidc.SEEN_JTI_SECONDS
    party._seen_jtis = {key: until - oidc.SEEN_JTI_SECONDS for key, until in party._seen_jtis.items()}
    assert run_in_own_loop(party._first_use_of("j1")) is True


def test_a_full_replay_memory_drops_the_stale_ids_and_refuses_while_every_id_is_live():
    """SEEN_JTI_MEMORY_MAX live ids: a flood of forged-but-signed tokens is refused rather than
    an id forgotten (which would let its token be replayed)."""
    party = _party()
    bound = oidc.SEEN_JTI_MEMORY_MAX

    async def record(ids):
        return [await party._first_use_of(jti) for jti in ids]

    assert all(run_in_own_loop(record(f"live-{n}" for n in range(bound))))
    assert len(party._seen_jtis) == bound
    assert run_in_own_loop(party._first_use_of("one-more")) is False
    assert len(party._seen_jtis) == bound
    # Two go stale: the memory drops them (and only them) and takes the new id.
    stale = sorted(party._seen_jtis)[:2]
    for key in stale:
        party._seen_jtis[key] -= oidc.SEEN_JTI_SECONDS + 1
    assert run_in_own_loop(party._first_use_of("one-more")) is True
    assert len(party._seen_jtis) == bound - 1
    assert not set(stale) & set(party._seen_jtis)
    # One short of full: still recorded, and a replay of a live id still refused.
    assert run_in_own_loop(party._first_use_of("last")) is True
    assert len(party._seen_jtis) == bound
    assert run_in_own_loop(party._first_use_of("live-7")) is False


# ----------------------------------------------------------------------- production refusal


def test_production_needs_a_session_secret_and_an_https_issuer():
    production = get_settings().replace(
        site_url="https://www.example.test", session_secret="s" * 40, oidc_issuer="https://id.example.test"
    )
    assert oidc.configuration_problems(production) == []
    (problem,) = oidc.configuration_problems(production.replace(session_secret=""))
    assert "SESSION_SECRET" in problem
    (problem,) = oidc.configuration_problems(production.replace(oidc_issuer="http://id.example.test"))
    assert "OIDC_ISSUER" in problem and "'http://id.example.test'" in problem
    assert oidc.configuration_problems(production.replace(oidc_issuer="")) == []  # no login configured
    both = production.replace(session_secret="", dev_services=True)
    assert len(oidc.configuration_problems(both)) == 2


def test_check_startup_refuses_a_bad_production_configuration_naming_every_problem(monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://www.example.test")
    monkeypatch.setenv("SESSION_SECRET", "")
    monkeypatch.setenv("DEV_SERVICES", "1")
    get_settings.cache_clear()
    try:
        with pytest.raises(RuntimeError, match=r"^Refusing to start: .*DEV_SERVICES.*; SESSION_SECRET"):
            oidc.check_startup()
    finally:
        get_settings.cache_clear()


def test_the_relying_party_is_one_per_settings():
    settings = get_settings().replace(oidc_issuer="https://id.example.test", oidc_client_id="c")
    assert oidc.relying_party(settings) is oidc.relying_party(settings)
    assert oidc.relying_party(settings) is not oidc.relying_party(settings.replace(oidc_client_id="d"))


# ----------------------------------------------------------------------- with Redis (several workers)


def _workers(redis_url: str, count: int = 2) -> tuple[list[oidc.RelyingParty], str]:
    prefix = f"mstest:oidc:{time.time_ns()}:"
    settings = get_settings().replace(
        oidc_issuer="https://id.example.test", oidc_client_id="c", redis_url=redis_url, redis_key_prefix=prefix
    )
    return [oidc.RelyingParty(settings) for _ in range(count)], prefix


def _redis(redis_url: str):
    import redis

    return redis.Redis.from_url(redis_url)


def test_with_redis_a_logout_token_id_is_shared_by_the_workers_and_kept_as_long_as_a_token_is_accepted(redis_url):
    """The replay memory is in Redis, under the site's prefix and a hash of issuer and jti, with
    the expiry of the longest-lived acceptable token: another worker refuses the replay."""
    (first, second), prefix = _workers(redis_url)

    async def uses():
        return [await first._first_use_of("j1"), await second._first_use_of("j1"), await second._first_use_of("j2")]

    assert run_in_own_loop(uses()) == [True, False, True]
    assert not first._seen_jtis and not second._seen_jtis  # nothing in the processes: all in Redis
    store = _redis(redis_url)
    keys = sorted(key.decode() for key in store.scan_iter(f"{prefix}*"))
    assert len(keys) == 2 and all(key.startswith(f"{prefix}oidc-logout-jti:") for key in keys)
    assert not any("j1" in key or "j2" in key for key in keys)  # a digest, not the raw id
    for key in keys:
        assert oidc.SEEN_JTI_SECONDS - 5 <= store.ttl(key) <= oidc.SEEN_JTI_SECONDS
        assert store.get(key)  # a value Redis keeps (SET NX stores it)


def test_with_redis_away_the_replay_check_falls_back_to_the_process(caplog):
    """Redis unreachable: the id is kept in this process, a replay to this worker is still refused."""
    from tests.servers import free_port

    settings = get_settings().replace(
        oidc_issuer="https://id.example.test", oidc_client_id="c", redis_url=f"redis://127.0.0.1:{free_port()}/0"
    )
    party = oidc.RelyingParty(settings)

    async def uses():
        return [await party._first_use_of("j1"), await party._first_use_of("j1")]

    with caplog.at_level("WARNING", logger=oidc.__name__):
        assert run_in_own_loop(uses()) == [True, False]
    assert len(party._seen_jtis) == 1
    assert "Redis unavailable" in caplog.text


def test_with_redis_one_refresh_of_a_session_at_a_time_across_workers(redis_url):
    """The refresh lock is one Redis lock per session for every worker, with a lease that frees
    it if its holder dies; a worker whose lock is taken waits (here: until it is given back)."""
    (first, second), prefix = _workers(redis_url)
    store = _redis(redis_url)
    order: list[str] = []

    async def race():
        entered = asyncio.Event()

        async def holder():
            async with first.refresh_lock("session-hash"):
                order.append("first in")
                entered.set()
                name = f"{prefix}oidc-refresh:session-hash"
                assert store.exists(name)
                assert 0 < store.pttl(name) <= oidc.LOCK_LEASE_SECONDS * 1000
                await asyncio.sleep(0.3)
                order.append("first out")

        async def waiter():
            await asyncio.wait_for(entered.wait(), 60)  # not forever if the holder failed
            async with second.refresh_lock("session-hash"):
                order.append("second in")

        async def other_session():
            await asyncio.wait_for(entered.wait(), 60)
            async with second.refresh_lock("another-session"):
                order.append("other session in")

        await asyncio.gather(holder(), waiter(), other_session())
        for party in (first, second):
            await party._redis_client().aclose()

    run_in_own_loop(race())
    assert order.index("other session in") < order.index("first out")  # another session is not held up
    assert order.index("first out") < order.index("second in")
    assert not list(store.scan_iter(f"{prefix}*"))  # every lock given back


@pytest.mark.parametrize("error", sorted(oidc.CONFIGURATION_ERRORS))
def test_an_authorization_error_about_the_request_or_registration_is_the_operators(error):
    assert _party().authorization_error_is_configuration(error)


@pytest.mark.parametrize("error", [*sorted(oidc.RECOVERABLE_ERRORS), "server_error", "temporarily_unavailable", ""])
def test_the_visitors_own_or_passing_errors_are_not_configuration(error):
    assert not _party().authorization_error_is_configuration(error)


def test_a_token_of_a_few_seconds_keeps_a_quarter_of_its_life_as_margin_not_a_second():
    now = 1_000_000.0
    assert not oidc.is_expired(now + 2, now, now=now + 1)  # margin 0.5 s
    assert oidc.is_expired(now + 2, now, now=now + 1.5)
    assert oidc.is_expired(now, now, now=now)  # expires_in 0: expired at once


def test_a_sessions_tokens_expire_by_their_own_lifetime_at_the_moment_asked():
    """`tokens_expired` passes the time the tokens came (a 30 s token gets a 7.5 s margin, not
    60 s) and the moment asked about; tokens stored without it get the full 60 s."""
    now = 1_000_000.0
    short = sessions.Tokens("i.d.t", "a", None, now + 30, now)
    assert not oidc.tokens_expired(short, now=now + 10)
    assert oidc.tokens_expired(short, now=now + 22.5)
    unknown_start = sessions.Tokens("i.d.t", "a", None, now + 3600, None)
    assert not oidc.is_expired(now + 3600, None, now=now + 3539)
    assert oidc.tokens_expired(unknown_start, now=now + 3540)
    assert not oidc.tokens_expired(unknown_start, now=now)
