"""The rate limits and daily quotas while their Redis is away or frozen, without a site.

Away: nothing listens on the port (the connection is refused at once). Frozen: a redis-server of
the test's own stopped with SIGSTOP, so that it accepts connections and never answers, as a Redis
that hangs does. Either way a limit is still counted, in the process, and the answer comes within
the client's 1 s timeout: a visitor's request must not hang on Redis (redis-py waits for ever
without a timeout). Each fallback logs a warning naming the exception, which is what an operator
has to tell a refused connection from a Redis that stopped answering.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from servers import PrivateRedis, free_port

from marketing_site.services.rate_limit import RedisDailyQuota, RedisRateLimiter

# Far above the 1 s timeout, even on a loaded machine; without the timeout the call never returns.
GENEROUS_SECONDS = 5.0


def _answer_in_time(call: Callable[[], object]) -> object:
    """What `call` returns, failing the test if it has not returned within GENEROUS_SECONDS (the
    thread is left to end when Redis runs again)."""
    outcome: list[object] = []
    worker = threading.Thread(target=lambda: outcome.append(call()), daemon=True)
    started = time.monotonic()
    worker.start()
    worker.join(GENEROUS_SECONDS)
    assert not worker.is_alive(), f"no answer within {GENEROUS_SECONDS} s from a frozen Redis"
    assert time.monotonic() - started < GENEROUS_SECONDS
    assert outcome, "the call raised instead of answering"
    return outcome[0]


@pytest.fixture
def frozen_redis() -> Iterator[PrivateRedis]:
    """A redis-server that was running, then stopped (SIGSTOP): it accepts and never answers."""
    server = PrivateRedis().start()
    assert server.proc is not None
    try:
        yield server
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
        server.kill()


def _freeze(server: PrivateRedis) -> None:
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGSTOP)


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "marketing_site.rate_limit" and record.levelno == logging.WARNING
    ]


def test_a_frozen_redis_answers_within_a_second_and_the_limit_still_holds(frozen_redis, caplog):
    """A limiter and a quota that were using Redis when it froze: each call falls back after the
    timeout, counts in the process, and says it was a timeout."""
    prefix = f"mstest:{uuid.uuid4().hex}:"
    limiter = RedisRateLimiter(1, 60, frozen_redis.url, prefix=prefix)
    quota = RedisDailyQuota(1, frozen_redis.url, prefix)
    assert limiter.hit("ip:a") is None and quota.admit("k", "m", "2026-11-27")  # through Redis
    _freeze(frozen_redis)
    caplog.set_level(logging.WARNING, logger="marketing_site.rate_limit")

    assert _answer_in_time(lambda: limiter.hit("ip:b", token="t1")) is None
    assert _answer_in_time(lambda: limiter.hit("ip:b", token="t2")) is not None
    _answer_in_time(lambda: limiter.release("ip:b", "t1"))
    assert _answer_in_time(lambda: limiter.hit("ip:b", token="t2")) is None  # t1's place given back
    assert _answer_in_time(lambda: quota.admit("k", "n", "2026-11-27")) is True  # a quota of its own here
    assert _answer_in_time(lambda: quota.admit("k", "o", "2026-11-27")) is False

    assert _warnings(caplog) == [
        "rate limiter: Redis unavailable (TimeoutError), counting in this process",
        "rate limiter: Redis unavailable (TimeoutError), counting in this process",
        "rate limiter: Redis unavailable (TimeoutError), hit kept",
        "rate limiter: Redis unavailable (TimeoutError), counting in this process",
        "daily quota: Redis unavailable (TimeoutError), counting in this process",
        "daily quota: Redis unavailable (TimeoutError), counting in this process",
    ]


def test_a_limiter_made_while_redis_is_frozen_answers_within_a_second(frozen_redis, caplog):
    """A worker that starts while Redis hangs: its first connection is accepted, then nothing."""
    _freeze(frozen_redis)
    caplog.set_level(logging.WARNING, logger="marketing_site.rate_limit")
    prefix = f"mstest:{uuid.uuid4().hex}:"
    limiter = RedisRateLimiter(1, 60, frozen_redis.url, prefix=prefix)
    quota = RedisDailyQuota(1, frozen_redis.url, prefix)
    assert _answer_in_time(lambda: limiter.hit("ip:a")) is None
    assert _answer_in_time(lambda: quota.admit("k", "m", "2026-11-27")) is True
    assert _warnings(caplog) == [
        "rate limiter: Redis unavailable (TimeoutError), counting in this process",
        "daily quota: Redis unavailable (TimeoutError), counting in this process",
    ]


def test_a_refused_connection_is_logged_as_one_and_counted_in_the_process(caplog):
    caplog.set_level(logging.WARNING, logger="marketing_site.rate_limit")
    url = f"redis://127.0.0.1:{free_port()}/0"
    limiter = RedisRateLimiter(1, 60, url, prefix="mstest:away:")
    quota = RedisDailyQuota(1, url, "mstest:away:")
    assert limiter.hit("ip:a", token="t1") is None
    limiter.release("ip:a", "t1")
    assert quota.admit("k", "m", "2026-11-27")
    assert _warnings(caplog) == [
        "rate limiter: Redis unavailable (ConnectionError), counting in this process",
        "rate limiter: Redis unavailable (ConnectionError), hit kept",
        "daily quota: Redis unavailable (ConnectionError), counting in this process",
    ]


def test_without_redis_the_limiter_counts_at_the_moments_it_is_given():
    """`hit(now=...)` means the same with Redis away as in `RateLimiter`: the window is counted
    from the moments passed, not from the clock."""
    limiter = RedisRateLimiter(1, 60, f"redis://127.0.0.1:{free_port()}/0", prefix="mstest:away:")
    assert limiter.hit("ip:a", now=1000) is None
    assert limiter.hit("ip:a", now=1030) == pytest.approx(30)
    assert limiter.hit("ip:a", now=1060) is None


def test_without_redis_each_key_and_each_day_has_its_own_quota():
    quota = RedisDailyQuota(1, f"redis://127.0.0.1:{free_port()}/0", "mstest:away:")
    assert quota.admit("a", "m", "2026-11-27")
    assert quota.admit("b", "n", "2026-11-27")  # another address: a quota of its own
    assert not quota.admit("a", "n", "2026-11-27")
    assert quota.admit("a", "n", "2026-11-28")  # the next UTC day starts again
