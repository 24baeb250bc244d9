"""An open tab keeps its server state when the worker (or the whole machine) it was connected to dies.

With Redis, Reflex records which worker holds each tab's websocket (a "socket record" per client
token). A tab that connects while its token's record names another worker is taken for a
duplicated tab and gets a fresh token, that is, a fresh state. A worker that stops gracefully
deletes its records first, so its tabs reconnect elsewhere with their state; one that is killed
(SIGKILL, out of memory, a machine lost) leaves them behind for STATE_EXPIRY_SECONDS, and every
one of its tabs came back on another machine with its state reset (the console's filters and page).

Here each worker also keeps a heartbeat key in Redis (refreshed every second, gone
HEARTBEAT_SECONDS after the worker stops refreshing it). When a tab connects and its record names
another worker, the connection waits, at most HEARTBEAT_SECONDS, for that worker's heartbeat to
lapse (a dead worker) or for the record to go (a worker that disconnects the tab); either way the
tab keeps its token, and Reflex loads its state from Redis. A record whose worker stays alive is
a real duplicate: Reflex's own answer (a fresh token) stands. A record this worker wrote for a
socket it no longer holds is a leftover, dropped at once (Reflex treats it so elsewhere).

`install()` makes Reflex create this token manager; it changes nothing without Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import time

from reflex.utils import token_manager
from reflex.utils.token_manager import RedisTokenManager, SocketRecord, TokenManager

log = logging.getLogger("marketing_site.tab_handover")

# A worker whose heartbeat is this old is taken for dead. Its tabs wait that long at most before
# they take their state over; a worker stalled this long (its event loop blocked) could lose a
# tab to a duplicate, which is harmless: both show the same state.
HEARTBEAT_SECONDS = 5.0
BEAT_EVERY_SECONDS = 1.0
_HEARTBEAT_PREFIX = "token_manager_instance_alive_"


class HandoverTokenManager(RedisTokenManager):
    """Reflex's Redis token manager, plus: a tab whose worker died keeps its token (and state)."""

    _heartbeat_task: asyncio.Task | None = None

    def _heartbeat_key(self, instance_id: str) -> str:
        return f"{_HEARTBEAT_PREFIX}{instance_id}"

    async def _beat(self) -> None:
        while True:
            try:
                await self.redis.set(self._heartbeat_key(self.instance_id), b"1", px=int(HEARTBEAT_SECONDS * 1000))
            except Exception as error:  # noqa: BLE001 (Redis out: Reflex's state is out too; try again)
                log.debug("tab handover: heartbeat not written: %s", type(error).__name__)
            await asyncio.sleep(BEAT_EVERY_SECONDS)

    def _ensure_heartbeat(self) -> None:
        if self._heartbeat_task is None or self._heartbeat_task.done():
            self._heartbeat_task = asyncio.get_running_loop().create_task(self._beat())

    async def _record(self, token: str) -> SocketRecord | None:
        data = await self.redis.get(self._get_redis_key(token))
        return pickle.loads(data) if data else None

    async def _held_by_the_gone(self, token: str) -> bool:
        """Whether the token's record names a worker that is gone (its heartbeat lapsed, waiting
        HEARTBEAT_SECONDS at most) or a socket of this worker's that is gone; False when there is
        no record, or a live worker holds the tab."""
        deadline = time.monotonic() + HEARTBEAT_SECONDS + BEAT_EVERY_SECONDS
        while True:
            record = await self._record(token)
            if record is None:
                return False  # let go meanwhile: Reflex links the token as it is
            if record.instance_id == self.instance_id:
                # Ours: a live socket of this worker (a real duplicate), or a leftover of one.
                return self.sid_to_token.get(record.sid) != token
            if not await self.redis.exists(self._heartbeat_key(record.instance_id)):
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.25)

    async def link_token_to_sid(self, token: str, sid: str) -> str | None:
        if (record := self.token_to_socket.get(token)) is not None and record.sid == sid:
            return None  # the same socket again
        self._ensure_heartbeat()
        try:
            if await self.redis.exists(self._get_redis_key(token)) and await self._held_by_the_gone(token):
                # A local entry of ours for a socket that is gone goes first: Reflex's watcher
                # stores a deleted record again while its own entry names it (a live socket, it
                # assumes), and the link below would then see a duplicate.
                local = self.token_to_socket.get(token)
                if local is not None and self.sid_to_token.get(local.sid) != token:
                    del self.token_to_socket[token]
                # Reflex then links the token as one nobody holds: same token, same state.
                await self.redis.delete(self._get_redis_key(token))
                log.info("tab handover: a tab of a stopped worker reconnected here with its state")
        except Exception as error:  # noqa: BLE001 (Reflex's own link decides, and logs Redis errors)
            log.warning("tab handover: owner check failed: %s", type(error).__name__)
        return await super().link_token_to_sid(token, sid)

    async def close(self) -> None:
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat_task
            self._heartbeat_task = None
            with contextlib.suppress(Exception):
                await self.redis.delete(self._heartbeat_key(self.instance_id))
        await super().close()


_reflex_create = TokenManager.create.__func__  # type: ignore[attr-defined]  # a classmethod read from its class is bound: __func__ is there


def _create(cls: type[TokenManager]) -> TokenManager:
    created = _reflex_create(cls)
    if type(created) is RedisTokenManager:
        return HandoverTokenManager(created.redis)
    return created


def install() -> None:
    """Reflex's token managers are created by `TokenManager.create`: with Redis, ours."""
    token_manager.TokenManager.create = classmethod(_create)  # type: ignore[method-assign,assignment]  # replacing Reflex's factory is the point (tests/test_tab_handover.py)
