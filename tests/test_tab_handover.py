"""A tab keeps its token (so its server state) when the worker it was connected to is gone, and
only then (marketing_site/reflex_internals/tab_handover.py), on a real Redis (TEST_REDIS_URL): two token
managers play two workers. tests/test_machines.py shows it end to end in Chromium."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

pytestmark = pytest.mark.skipif(not os.environ.get("TEST_REDIS_URL"), reason="TEST_REDIS_URL not set")


def _managers(count: int):
    from redis.asyncio import Redis

    from marketing_site.reflex_internals.tab_handover import HandoverTokenManager

    redis = Redis.from_url(os.environ["TEST_REDIS_URL"])
    return redis, [HandoverTokenManager(redis) for _ in range(count)]


async def _close(redis, managers, tokens) -> None:
    for manager in managers:
        if manager._heartbeat_task is not None:
            manager._heartbeat_task.cancel()
        for task in (manager._socket_record_task, manager._lost_and_found_task):
            if task is not None:
                task.cancel()
        await redis.delete(manager._heartbeat_key(manager.instance_id))
    for token in tokens:
        await redis.delete(managers[0]._get_redis_key(token))
    await redis.aclose()


def test_a_tab_of_a_dead_worker_keeps_its_token_a_duplicate_of_a_live_one_does_not():
    from marketing_site.reflex_internals.tab_handover import HEARTBEAT_SECONDS

    async def scenario() -> dict:
        redis, (first, second) = _managers(2)
        token = f"mstest-tab-{uuid.uuid4().hex}"
        issued: list[str] = []
        try:
            assert await first.link_token_to_sid(token, "sid-first") is None
            await asyncio.sleep(0.2)  # its heartbeat is written
            # The first worker is alive and holds the tab: a second tab with the same token (a
            # duplicated tab) gets a token of its own, after waiting for the holder at most.
            duplicate = await second.link_token_to_sid(token, "sid-duplicate")
            assert duplicate is not None and duplicate != token
            issued.append(duplicate)
            # The first worker dies (its heartbeat stops; its record stays, as after a SIGKILL):
            # the tab reconnecting to the second worker keeps its token.
            if first._heartbeat_task is not None:
                first._heartbeat_task.cancel()
            began = time.monotonic()
            kept = await second.link_token_to_sid(token, "sid-reconnected")
            waited = time.monotonic() - began
            owner = await second._record(token)
            # A leftover of this worker's own (its socket gone, the record still there) is no
            # duplicate either.
            second.sid_to_token.pop("sid-reconnected")
            again = await second.link_token_to_sid(token, "sid-again")
            return {"kept": kept, "waited": waited, "owner": owner.sid, "again": again}
        finally:
            await _close(redis, [first, second], [token, *issued])

    # In a thread of its own: Playwright's sync API may keep an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(asyncio.run, scenario()).result()
    print(f"the dead worker's tab was taken over after {result['waited']:.1f} s")
    assert result["kept"] is None  # no new token: the same state
    assert result["owner"] == "sid-reconnected"
    assert result["waited"] <= HEARTBEAT_SECONDS + 2
    assert result["again"] is None
