"""Sliding-window rate limiting, in process memory (one counter set per worker)."""

from __future__ import annotations

import threading
import time
from collections import deque


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
                return max(hits[0][0] + self.window - now, 0.001)
            hits.append((now, token))
            if len(self._hits) > 50_000:  # forget idle keys so memory stays bounded
                self._hits = {k: v for k, v in self._hits.items() if v and v[-1][0] > now - self.window}
            return None
