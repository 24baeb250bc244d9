"""Can this worker serve? Database, Redis (when configured) and outbox.

`health_report()` is the body of GET /api/v1/health (`api/health.py`) and what the operators'
console shows. "ok", "degraded" when mail is failing or late (the site still takes leads, an
operator should look), "down" when the database (or the configured Redis) is down. No personal
data: counts and ages only.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from sqlalchemy import func, text
from sqlmodel import col, select

from marketing_site.db import new_session
from marketing_site.db.leads import OutboxMessage, utcnow
from marketing_site.settings import get_settings

# Mail waiting longer than this (pending or being sent) makes the outbox "late".
LATE_SECONDS = 15 * 60
log = logging.getLogger("marketing_site.health")


def _aware(moment: datetime | None) -> datetime | None:
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def check_database() -> tuple[str, dict]:
    try:
        with new_session() as session:
            session.exec(select(text("1"))).one()
            counts = dict(session.exec(select(OutboxMessage.status, func.count()).group_by(OutboxMessage.status)).all())
            oldest = session.exec(
                select(func.min(OutboxMessage.created_at)).where(col(OutboxMessage.status).in_(("pending", "sending")))
            ).one()
    except Exception as error:  # noqa: BLE001 (any failure means "down")
        log.error("health: database check failed: %s", type(error).__name__)
        return "error", {}
    oldest_at = _aware(oldest)
    waiting = int((utcnow() - oldest_at).total_seconds()) if oldest_at else 0
    outbox = {
        "pending": counts.get("pending", 0) + counts.get("sending", 0),
        "failed": counts.get("failed", 0),
        "sent": counts.get("sent", 0),
        "oldest_pending_seconds": waiting,
        "status": "failing" if counts.get("failed", 0) else "late" if waiting > LATE_SECONDS else "ok",
    }
    return "ok", outbox


def check_redis() -> str:
    url = get_settings().redis_url
    if not url:
        return "off"
    import redis

    try:
        redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1).ping()
    except (redis.RedisError, OSError) as error:
        log.error("health: Redis check failed: %s", type(error).__name__)
        return "error"
    return "ok"


def health_report() -> dict:
    """The health body (blocking: run it in a thread); also shown by the operators' console."""
    database, outbox = check_database()
    redis_status = check_redis()
    down = database == "error" or redis_status == "error"
    status = "down" if down else "degraded" if outbox.get("status") != "ok" else "ok"
    return {"status": status, "database": database, "redis": redis_status, "outbox": outbox}
