"""The site on a Redis whose configuration it must not change (issue 33, finding 8): Reflex's
`CONFIG SET notify-keyspace-events` is gone (marketing_site/reflex_internals/redis_keyspace.py), the site reads
the setting where CONFIG is allowed or probes it where CONFIG is disabled, warns at start when a
needed flag is missing, and still starts. Real redis-servers (PrivateRedis), one with
`rename-command CONFIG ""` as managed services run them.
"""

from __future__ import annotations

import inspect
import logging
import re
import time
from pathlib import Path

import httpx2
import pytest
import redis
import redis.asyncio
from hypothesis import given, settings
from hypothesis import strategies as st
from reflex.istate.manager import redis as reflex_redis_manager
from reflex.istate.manager.redis import StateManagerRedis
from reflex.utils import token_manager as reflex_token_manager
from reflex.utils.token_manager import RedisTokenManager
from servers import ARTIFACTS, PrivateRedis, SiteServer, free_port, run_in_own_loop

from marketing_site.reflex_internals import redis_keyspace

NO_CONFIG = ("--rename-command", "CONFIG", "")
REFLEX_PACKAGES = [Path(reflex_redis_manager.__file__).parents[2]]
REFLEX_PACKAGES.append(REFLEX_PACKAGES[0].parent / "reflex_base")


@pytest.fixture(scope="module")
def open_redis():
    server = PrivateRedis().start()
    yield server
    server.kill()


def _notify_setting(url: str) -> str:
    return redis.Redis.from_url(url, decode_responses=True).config_get("notify-keyspace-events")[
        "notify-keyspace-events"
    ]


async def _call(function, url: str) -> None:
    client = redis.asyncio.Redis.from_url(url)
    try:
        await function(client)
    finally:
        await client.aclose()


def test_reflex_subscribes_without_writing_the_server_configuration(open_redis):
    """After install(), what Reflex's state and token managers call before subscribing leaves
    `notify-keyspace-events` as the operator set it; Reflex's own function wrote it."""
    redis.Redis.from_url(open_redis.url).config_set("notify-keyspace-events", "")
    redis_keyspace.install()
    for module in (reflex_redis_manager, reflex_token_manager):
        run_in_own_loop(_call(module.enable_keyspace_notifications, open_redis.url))
    assert _notify_setting(open_redis.url) == ""
    assert redis_keyspace.REFLEX_ENABLE is not None
    run_in_own_loop(_call(redis_keyspace.REFLEX_ENABLE, open_redis.url))  # what Reflex did without the site
    assert redis_keyspace.flags(_notify_setting(open_redis.url)) == set(redis_keyspace.NEEDED)
    redis.Redis.from_url(open_redis.url).config_set("notify-keyspace-events", "")


def test_a_reflex_upgrade_that_moves_the_configuration_write_fails_here():
    """Tripwire: in the installed Reflex, the only write of a Redis server's configuration is in
    `enable_keyspace_notifications`, its callers reach it by the module names install() replaces,
    and it asks for the flags the site checks. An upgrade that changes any of this fails here."""
    writes = []
    for package in REFLEX_PACKAGES:
        for path in package.rglob("*.py"):
            text = path.read_text(errors="replace")
            for match in re.finditer(r"config_set\(|config_rewrite\(|[\"']CONFIG[\"']", text):
                writes.append(f"{path.relative_to(package.parent)}:{text.count(chr(10), 0, match.start()) + 1}")
    assert writes == ["reflex/istate/manager/redis.py:61"], writes
    assert "config_set" in inspect.getsource(redis_keyspace.REFLEX_ENABLE)
    importers = sorted(
        str(path.relative_to(package.parent))
        for package in REFLEX_PACKAGES
        for path in package.rglob("*.py")
        if "enable_keyspace_notifications" in path.read_text(errors="replace")
    )
    assert importers == ["reflex/istate/manager/redis.py", "reflex/utils/token_manager.py"]
    assert "await enable_keyspace_notifications(" in inspect.getsource(StateManagerRedis._enable_keyspace_notifications)
    assert "await enable_keyspace_notifications(" in inspect.getsource(
        RedisTokenManager._subscribe_socket_record_updates
    )
    assert reflex_redis_manager.NOTIFY_KEYSPACE_EVENTS == redis_keyspace.NEEDED


def test_install_refuses_a_reflex_that_moved_what_it_replaces(monkeypatch):
    monkeypatch.delattr(reflex_token_manager, "enable_keyspace_notifications")
    with pytest.raises(redis_keyspace.ReflexKeyspaceMoved, match=r"reflex\.utils\.token_manager"):
        redis_keyspace.install()
    monkeypatch.undo()
    monkeypatch.setattr(reflex_redis_manager, "NOTIFY_KEYSPACE_EVENTS", "KA")
    with pytest.raises(redis_keyspace.ReflexKeyspaceMoved, match="NOTIFY_KEYSPACE_EVENTS"):
        redis_keyspace.install()


@settings(max_examples=20)
@given(
    on=st.sets(st.sampled_from("$sgxe")),
    others=st.sets(st.sampled_from("lhztE")),
    keyspace=st.booleans(),
)
def test_what_is_set_is_what_is_reported_whether_read_or_probed(open_redis, on, others, keyspace):
    """Any setting: CONFIG GET's reading reports the needed flags that are off; the probe, which
    CONFIG-less servers get, sees the same ones on (evictions aside: they cannot be probed)."""
    value = ("K" if keyspace else "") + "".join(sorted(on | others))
    redis.Redis.from_url(open_redis.url).config_set("notify-keyspace-events", value)

    async def run() -> tuple[tuple[str | None, str], set[str]]:
        client = redis.asyncio.Redis.from_url(open_redis.url)
        try:
            return await redis_keyspace.check(client, "test:"), await redis_keyspace.probe(client, "test:", seconds=0.3)
        finally:
            await client.aclose()

    (read, missing), probed = run_in_own_loop(run())
    have = on | ({"K"} if keyspace else set())
    assert read is not None and redis_keyspace.flags(read) >= have
    assert missing == "".join(flag for flag in redis_keyspace.NEEDED if flag not in have)
    expected = (on - {"e"}) | {"K"} if keyspace and on - {"e"} else set()
    assert probed == expected


@pytest.mark.parametrize(
    ("flags", "warning"),
    [
        ("K$sgxe", "redis.keyspace_config_unreadable"),
        ("", "redis.keyspace_notifications_missing"),
    ],
)
def test_without_config_the_start_warns_and_says_what_to_set(flags, warning, monkeypatch, caplog):
    from marketing_site import settings as site_settings

    server = PrivateRedis(args=(*NO_CONFIG, "--notify-keyspace-events", flags)).start()
    try:
        with pytest.raises(redis.ResponseError):
            redis.Redis.from_url(server.url).config_get("notify-keyspace-events")
        monkeypatch.setenv("REFLEX_REDIS_URL", server.url)
        site_settings.get_settings.cache_clear()
        with caplog.at_level(logging.INFO, logger="marketing_site.redis_keyspace"):
            run_in_own_loop(redis_keyspace.check_at_start())
    finally:
        server.kill()
        site_settings.get_settings.cache_clear()
    [record] = [r for r in caplog.records if r.name == "marketing_site.redis_keyspace"]
    assert record.levelno == logging.WARNING
    assert record.getMessage().startswith(warning)
    assert "K$sgxe" in record.getMessage()
    if not flags:
        assert "'K$sgx'" in record.getMessage()  # all but evictions seen missing by the probe


def test_a_site_on_a_redis_without_config_starts_warns_and_keeps_its_watchers(workdir):
    """Two workers on a redis-server without CONFIG whose operator set the flags: the site starts,
    each worker warns that it cannot read the setting, no CONFIG command is sent (Reflex logged
    its refusal before), a tab's events go through, and Reflex's keyspace subscribers are alive
    (pattern subscriptions on the server: before, the token watcher died on the refusal)."""
    from http_checks import StateSocket

    private = PrivateRedis(args=(*NO_CONFIG, "--notify-keyspace-events", "K$sgxe")).start()
    server = SiteServer(free_port(), workdir, workers=2, REFLEX_REDIS_URL=private.url)
    server.migrate()
    try:
        server.start()
        socket = StateSocket(server.url, "nereo.is.authenticated=false")
        try:
            assert socket.receive().startswith("0")
            socket.send("40/_event,")
            assert socket.receive().startswith("40/_event,")
            deadline = time.monotonic() + 20
            while redis.Redis.from_url(private.url).pubsub_numpat() < 1:
                assert time.monotonic() < deadline, "no keyspace subscription on the server"
                time.sleep(0.2)
        finally:
            socket.close()
        assert httpx2.get(server.url + "/api/v1/health", timeout=10).status_code == 200
        deadline = time.monotonic() + 30
        log_file = ARTIFACTS / f"site-{server.port}.log"
        while (log := log_file.read_text(errors="replace")).count("redis.keyspace_config_unreadable") < 2:
            assert time.monotonic() < deadline, "a worker did not warn"  # one warning a worker
            time.sleep(0.3)
        assert "unknown command" not in log and "CONFIG" not in log.replace("CONFIG is disabled", "")
    finally:
        server.stop()
        private.kill()
