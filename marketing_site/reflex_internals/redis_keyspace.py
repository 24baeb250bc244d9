"""Reflex's keyspace notifications on a Redis the site does not configure.

With REFLEX_REDIS_URL, Reflex (0.10) learns of other workers' changes through Redis keyspace
notifications: its state manager (StateManagerRedis) waits for lock releases (`*_lock` keys), its token manager
follows socket records (which worker holds a tab, tab_handover.py). Before subscribing, both call
`reflex.istate.manager.redis.enable_keyspace_notifications`, which sends
`CONFIG SET notify-keyspace-events K$sgxe` to the server: a write to a shared server's
configuration, behind its operator's back, that managed services refuse (CONFIG disabled, or
renamed), after which Reflex logged errors and its token watcher stopped (issue 33, finding 8).

`install()` replaces that function, in the two modules that call it, with one that never writes:
the operator sets `notify-keyspace-events` (docs/operations.md says what), and `check_at_start`, a
lifespan task of every worker, says at start whether it is set. It reads the setting when CONFIG
is allowed; when it is not, it watches a probe key of its own (set, add to a set, delete, expire)
and reports which notifications arrived. Either way it warns, saying what to set, and starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import uuid
from typing import Any

from reflex.istate.manager import redis as reflex_redis_manager
from reflex.utils import token_manager as reflex_token_manager

from marketing_site.settings import get_settings

log = logging.getLogger("marketing_site.redis_keyspace")

# What Reflex asks for (reflex.istate.manager.redis.NOTIFY_KEYSPACE_EVENTS): K keyspace events,
# $ string commands (SET), s set commands, g generic ones (DEL, EXPIRE), x expirations, e
# evictions. tests/test_redis_keyspace.py fails when a Reflex upgrade asks for others.
NEEDED = "K$sgxe"
# Redis's "A": every class of event at once (g$lshzxetd), keyspace or keyevent still to choose.
_ALL_CLASSES = "g$lshzxetd"
# What each probe command notifies, and the flag that lets it through.
_PROBED = {"set": "$", "sadd": "s", "del": "g", "expired": "x"}
PROBE_SECONDS = 1.0


class ReflexKeyspaceMoved(RuntimeError):
    """A Reflex upgrade moved what `install` replaces: the site would write the server's configuration again."""


def flags(value: str) -> set[str]:
    """The event classes a `notify-keyspace-events` value enables ("A" spelt out)."""
    return set(value.replace("A", _ALL_CLASSES))


async def _leave_the_configuration_alone(redis: Any, events: str = NEEDED) -> None:
    """Reflex's `enable_keyspace_notifications`, without its `CONFIG SET`: the operator sets the
    server's configuration, and `check_at_start` has said whether it suits."""
    if set(events) - flags(NEEDED):
        log.warning(
            "Reflex asks for Redis keyspace events %r, more than the %r the site checks: see docs/operations.md",
            events,
            NEEDED,
        )


# Reflex's own function, for the tests that show what it did (a write the site no longer makes).
REFLEX_ENABLE = getattr(reflex_redis_manager, "enable_keyspace_notifications", None)
if getattr(REFLEX_ENABLE, "__module__", "") == __name__:  # this module reloaded after install()
    REFLEX_ENABLE = None


def install() -> None:
    """Reflex subscribes without writing the Redis configuration (idempotent); refuses to start
    when a Reflex upgrade moved the function it replaces."""
    for module in (reflex_redis_manager, reflex_token_manager):
        if not inspect.iscoroutinefunction(getattr(module, "enable_keyspace_notifications", None)):
            raise ReflexKeyspaceMoved(
                f"{module.__name__} no longer has enable_keyspace_notifications: update marketing_site/redis_keyspace.py"
            )
    if getattr(reflex_redis_manager, "NOTIFY_KEYSPACE_EVENTS", None) != NEEDED:
        raise ReflexKeyspaceMoved(
            "Reflex's NOTIFY_KEYSPACE_EVENTS changed: update NEEDED in marketing_site/redis_keyspace.py and the docs"
        )
    # Replacing Reflex's writer is the point; the token manager calls it by the name it imported.
    reflex_redis_manager.enable_keyspace_notifications = _leave_the_configuration_alone
    reflex_token_manager.enable_keyspace_notifications = _leave_the_configuration_alone


async def configured(client: Any) -> str | None:
    """The server's `notify-keyspace-events`, or None when CONFIG is refused (disabled, renamed, no ACL)."""
    import redis

    try:
        answer = await client.config_get("notify-keyspace-events")
    except redis.ResponseError:
        return None
    value = answer.get("notify-keyspace-events", "")
    return value.decode() if isinstance(value, bytes) else str(value)


async def probe(client: Any, prefix: str, seconds: float = PROBE_SECONDS) -> set[str]:
    """The flags a probe key of the site's own shows to be on (K and those of _PROBED), read
    from the notifications its commands raise; evictions cannot be probed."""
    db = client.get_connection_kwargs().get("db", 0)
    key = f"{prefix}keyspace-probe:{uuid.uuid4().hex}"
    seen: set[str] = set()
    async with client.pubsub() as pubsub:
        await pubsub.subscribe(f"__keyspace@{db}__:{key}")
        await pubsub.get_message(timeout=seconds)  # the subscription confirmed
        await client.set(key, "1")
        await client.delete(key)
        await client.sadd(key, "1")
        await client.pexpire(key, 1)
        await asyncio.sleep(0.01)
        await client.exists(key)  # an expired key read is expired now, with its notification
        await client.delete(key)
        deadline = asyncio.get_running_loop().time() + seconds
        while not set(_PROBED) <= seen and (left := deadline - asyncio.get_running_loop().time()) > 0:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=left)
            if message is not None and message.get("type") == "message":
                data = message["data"]
                seen.add(data.decode() if isinstance(data, bytes) else str(data))
    found = {_PROBED[event] for event in seen if event in _PROBED}
    return found | {"K"} if found else set()


async def check(client: Any, prefix: str) -> tuple[str | None, str]:
    """(the configured value or None when CONFIG is refused, the needed flags not on)."""
    value = await configured(client)
    # Evictions cannot be probed: not seen, not held against the server.
    have = flags(value) if value is not None else await probe(client, prefix) | {"e"}
    return value, "".join(flag for flag in NEEDED if flag not in have)


async def check_at_start() -> None:
    """Lifespan task of the backend: says whether the Redis server notifies what Reflex needs."""
    settings = get_settings()
    if not settings.redis_url:
        return
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(settings.redis_url, socket_timeout=3, socket_connect_timeout=3)
    try:
        value, missing = await check(client, settings.redis_key_prefix)
    except (redis.RedisError, OSError) as error:
        log.warning("redis.keyspace_unchecked: %s; the site does not set notify-keyspace-events itself", error)
        return
    finally:
        with contextlib.suppress(Exception):
            await client.aclose()
    if missing:
        log.warning(
            "redis.keyspace_notifications_missing: the Redis server does not notify %r (notify-keyspace-events is %s). "
            "Without them, a worker waits for another's lock to expire and a tab moved to another machine may "
            "lose its state. The site does not change a server's configuration: set notify-keyspace-events to "
            "include %s (redis.conf, or the managed service's parameters; docs/operations.md).",
            missing,
            repr(value) if value is not None else "unreadable, CONFIG is disabled; a probe key showed it",
            NEEDED,
        )
    elif value is None:
        log.warning(
            "redis.keyspace_config_unreadable: CONFIG is disabled on the Redis server; a probe key showed the "
            "keyspace notifications the site needs (K$sgx), but not evictions: make sure notify-keyspace-events "
            "includes %s (docs/operations.md).",
            NEEDED,
        )
    else:
        log.info("redis.keyspace_notifications_ok: notify-keyspace-events is %r", value)
