"""Sliding-window rate limiting: in process memory, or in Redis when several workers share it."""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import deque

from marketing_site import metrics

log = logging.getLogger("marketing_site.rate_limit")


def address_key(email: str) -> str:
    """What a per-email limit's key holds of the address: a hash of it in lower case, so that
    `A@x` and `a@x` share one budget and no address is written to Redis (where a data-subject
    erasure would not reach it for the length of the window)."""
    return hashlib.sha256(email.lower().encode("utf-8", "surrogatepass")).hexdigest()


class RateLimiter:
    """At most `limit` hits per `window` seconds for each key.

    A hit may carry a token: hits with a token already counted in the window (the same
    submission arriving twice) are allowed without counting again.
    """

    def __init__(self, limit: int, window: float):
        self.limit = limit
        self.window = window
        self._hits: dict[str, deque[tuple[float, str | None]]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, token: str | None = None, now: float | None = None) -> float | None:
        """Count a hit; None if allowed, else the seconds until the key may try again."""
        now = time.monotonic() if now is None else now
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0][0] <= now - self.window:
                hits.popleft()
            if token is not None and any(t == token for _, t in hits):
                return None
            if len(hits) >= self.limit:
                metrics.RATE_LIMIT_REFUSALS.labels(limit=metrics.rate_limit_name(key)).inc()
                return max(hits[0][0] + self.window - now, 0.001)
            hits.append((now, token))
            if len(self._hits) > 50_000:  # forget idle keys so memory stays bounded
                self._hits = {k: v for k, v in self._hits.items() if v and v[-1][0] > now - self.window}
            return None

    def release(self, key: str, token: str) -> None:
        """Take back the hit counted with `token` (what it allowed did not happen after all)."""
        with self._lock:
            hits = self._hits.get(key)
            if hits:
                self._hits[key] = deque(hit for hit in hits if hit[1] != token)


# Sliding window in one sorted set per key, scored by the Redis server's clock (the same for
# every worker and machine). Returns -1 when allowed, else the seconds to wait (as a string).
_REDIS_HIT = """
local key, window, limit, token, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4]
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if token ~= '' and redis.call('ZSCORE', key, 't:' .. token) then return -1 end
if redis.call('ZCARD', key) >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return tostring(math.max(tonumber(oldest[2]) + window - now, 0.001))
end
if token ~= '' then member = 't:' .. token end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, math.ceil(window * 1000))
return -1
"""


class RedisRateLimiter:
    """The same limits as `RateLimiter`, shared by every worker and machine through Redis.

    If Redis cannot be reached, the hit is counted by a per-process `RateLimiter` instead
    (lead capture stays up while Redis restarts; the limit is then per process).
    """

    def __init__(self, limit: int, window: float, url: str, prefix: str = "nereo:rate:"):
        import redis

        self.limit = limit
        self.window = window
        self.prefix = prefix
        self._client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        self._script = self._client.register_script(_REDIS_HIT)
        self._fallback = RateLimiter(limit, window)
        self._errors = (redis.RedisError, OSError)

    def hit(self, key: str, token: str | None = None, now: float | None = None) -> float | None:
        """Count a hit; None if allowed, else the seconds until the key may try again."""
        import uuid

        try:
            result = self._script(
                keys=[self.prefix + key],
                args=[self.window, self.limit, token or "", f"r:{uuid.uuid4().hex}"],
            )
        except self._errors as error:
            log.warning("rate limiter: Redis unavailable (%s), counting in this process", type(error).__name__)
            return self._fallback.hit(key, token, now)
        wait = float(result.decode() if isinstance(result, bytes) else result)
        if wait >= 0:
            metrics.RATE_LIMIT_REFUSALS.labels(limit=metrics.rate_limit_name(key)).inc()
        return None if wait < 0 else wait

    def release(self, key: str, token: str) -> None:
        """Take back the hit counted with `token` (what it allowed did not happen after all)."""
        try:
            self._client.zrem(self.prefix + key, f"t:{token}")
        except self._errors as error:
            log.warning("rate limiter: Redis unavailable (%s), hit kept", type(error).__name__)
        self._fallback.release(key, token)


def make_rate_limiter(limit: int, window: float) -> RateLimiter | RedisRateLimiter:
    """Redis-backed when REFLEX_REDIS_URL is set (several workers or machines), else in memory."""
    from marketing_site.settings import get_settings

    settings = get_settings()
    if not settings.redis_url:
        return RateLimiter(limit, window)
    return RedisRateLimiter(
        limit, window, settings.redis_url, prefix=f"{settings.redis_key_prefix}rate:{limit}/{window}:"
    )


# ----------------------------------------------------------------------------- daily quotas


class DailyQuota:
    """At most `limit` distinct members per key and UTC day, in process memory: a member already
    admitted that day is admitted again, a new one only while the key has room.

    What one client may add in a day (the audience's new sources and combinations), rather than
    how often it may ask. Keys and members are what the caller gives (hashes: nothing a visitor
    sent is kept). At most MAX_KEYS keys a day: past it the oldest key is forgotten (its client
    starts again, as a new address would)."""

    MAX_KEYS = 50_000

    def __init__(self, limit: int):
        self.limit = limit
        self._day = ""
        self._members: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """How many keys it holds (all of the current day: a new day drops the others)."""
        return len(self._members)

    def admit(self, key: str, member: str, day: str) -> bool:
        """True when `member` is, or now becomes, one of `key`'s members on `day` (an ISO date)."""
        with self._lock:
            if day != self._day:
                self._day, self._members = day, {}
            members = self._members.get(key)
            if members is None:
                if len(self._members) >= self.MAX_KEYS:
                    self._members.pop(next(iter(self._members)))
                members = self._members[key] = set()
            if member in members:
                return True
            if len(members) >= self.limit:
                return False
            members.add(member)
            return True


class FixedWindows:
    """At most `limit` admissions per key in a window of `window` seconds that starts at the
    key's first admission, in process memory, for at most `max_keys` keys at once.

    For what one worker must not repeat too often whoever asks (error reports, log lines), not
    for a budget that several workers share (make_rate_limiter). Memory is bounded whatever the
    number of keys: a new key past `max_keys` makes the key whose window began first forgotten
    (it starts again, as a new key would), so that a client rotating addresses costs a fixed
    number of entries."""

    def __init__(self, limit: int, window: float, max_keys: int):
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        # key -> [window start, admissions in it]; in order of window start (a new window of a
        # key moves it to the end), so the first key is the one to forget.
        self._windows: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def admit(self, key: str, now: float | None = None) -> bool:
        """Count one for `key` and say whether it is within the limit."""
        now = time.monotonic() if now is None else now
        with self._lock:
            entry = self._windows.get(key)
            if entry is None or now - entry[0] >= self.window:
                self._windows.pop(key, None)
                if len(self._windows) >= self.max_keys:
                    self._windows.pop(next(iter(self._windows)))
                entry = self._windows[key] = [now, 0]
            if entry[1] >= self.limit:
                return False
            entry[1] += 1
            return True

    def started(self, key: str) -> float | None:
        """When `key`'s current window began (None: it has none)."""
        with self._lock:
            entry = self._windows.get(key)
            return entry[0] if entry is not None else None

    def __len__(self) -> int:
        return len(self._windows)


# One set per key and day; it expires two days after its day began (the day's own key then names
# no day in use). Returns 1 when admitted, 0 when the key is full.
_REDIS_ADMIT = """
local key, limit, member = KEYS[1], tonumber(ARGV[1]), ARGV[2]
if redis.call('SISMEMBER', key, member) == 1 then return 1 end
if redis.call('SCARD', key) >= limit then return 0 end
redis.call('SADD', key, member)
redis.call('EXPIRE', key, 172800)
return 1
"""


class RedisDailyQuota:
    """The same quota, shared by every worker and machine through Redis; in process memory while
    Redis cannot be reached (the quota is then per process)."""

    def __init__(self, limit: int, url: str, prefix: str):
        import redis

        self.limit = limit
        self.prefix = prefix
        self._client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        self._script = self._client.register_script(_REDIS_ADMIT)
        self._fallback = DailyQuota(limit)
        self._errors = (redis.RedisError, OSError)

    def admit(self, key: str, member: str, day: str) -> bool:
        try:
            return bool(int(self._script(keys=[f"{self.prefix}{day}:{key}"], args=[self.limit, member])))
        except self._errors as error:
            log.warning("daily quota: Redis unavailable (%s), counting in this process", type(error).__name__)
            return self._fallback.admit(key, member, day)


def make_daily_quota(limit: int, name: str) -> DailyQuota | RedisDailyQuota:
    """Redis-backed when REFLEX_REDIS_URL is set (several workers or machines), else in memory."""
    from marketing_site.settings import get_settings

    settings = get_settings()
    if not settings.redis_url:
        return DailyQuota(limit)
    return RedisDailyQuota(limit, settings.redis_url, prefix=f"{settings.redis_key_prefix}quota:{name}/{limit}:")
