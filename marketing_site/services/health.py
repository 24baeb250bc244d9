"""What can this machine do? The one health check behind GET /api/v1/health, the console and `ops health`.

The public answer (`api.health`) is the status alone, for a load balancer choosing machines:

- `ok`;
- `degraded`: the machine serves visitors and takes leads, but something an operator should
  look at is wrong: mail failing or late, or Redis unreachable (rate limits are then counted in
  each process and connected pages lose their server state, on every machine alike: taking them
  all out would only turn that into an outage);
- `draining`: an operator is taking the machine out (DRAIN_FILE exists, `ops drain`), so that
  a restart loses no visitor: not ready;
- `down`: the database cannot be reached, so no lead can be stored here: not ready.

The figures behind it (mail sent, pending, failed) are business data: they are shown to
operators only, in the console and by `python -m marketing_site.ops health`.

"Failing" means a message failed for good in the last RECENT_FAILURE_HOURS hours: an old failure,
already seen (and retried or not) by an operator, does not keep the site degraded forever.
"Stuck" means a message is claimed and its lease ended more than STUCK_SECONDS ago: no worker took
it over (none is running, or every one is stalled). "Late" means a message has waited more than
LATE_SECONDS. `mail_needing_attention` lists those messages, and the ones retrying after a failed
attempt, with when they last failed (the console's mail section, `ops outbox`).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import case, func, or_, text
from sqlmodel import col, select

from marketing_site.db import new_session
from marketing_site.db.leads import OutboxMessage, utcnow
from marketing_site.settings import get_settings

# Mail waiting longer than this (pending or being sent) makes the outbox "late".
LATE_SECONDS = 15 * 60
# A claim whose lease ended this long ago and that no worker took over: the outbox is "stuck".
STUCK_SECONDS = 60
# A message failed for good within this many hours makes the outbox "failing".
RECENT_FAILURE_HOURS = 6
STATUSES = ("ok", "degraded", "draining", "down")
# A load balancer sends no visitor to a machine in these (readiness answers 503).
NOT_READY = ("draining", "down")
log = logging.getLogger("marketing_site.health")


def _aware(moment: datetime | None) -> datetime | None:
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def check_database(now: datetime | None = None) -> tuple[str, dict]:
    """("ok", the outbox figures) or ("error", {}) when the database cannot be read."""
    now = now or utcnow()
    try:
        with new_session() as session:
            session.exec(select(text("1"))).one()
            counts = dict(session.exec(select(OutboxMessage.status, func.count()).group_by(OutboxMessage.status)).all())
            oldest = session.exec(
                select(func.min(OutboxMessage.created_at)).where(col(OutboxMessage.status).in_(("pending", "sending")))
            ).one()
            recent_failures, stuck, retrying, last_failure = session.exec(
                select(
                    _count(
                        (col(OutboxMessage.status) == "failed")
                        & (col(OutboxMessage.failed_at) >= now - timedelta(hours=RECENT_FAILURE_HOURS))
                    ),
                    _count(_stuck(now)),
                    _count(_retrying()),
                    func.max(OutboxMessage.last_failure_at),
                )
            ).one()
    except Exception as error:  # noqa: BLE001 (any failure means "down")
        log.error("health: database check failed: %s", type(error).__name__)
        return "error", {}
    oldest_at = _aware(oldest)
    waiting = int((now - oldest_at).total_seconds()) if oldest_at else 0
    last_failed = _aware(last_failure)
    outbox = {
        "pending": counts.get("pending", 0) + counts.get("sending", 0),
        "stuck": stuck or 0,
        "retrying": retrying or 0,
        "failed": counts.get("failed", 0),
        "failed_recently": recent_failures or 0,
        "sent": counts.get("sent", 0),
        "oldest_pending_seconds": waiting,
        "last_failure_at": last_failed.isoformat(timespec="seconds") if last_failed else None,
        "status": ("failing" if recent_failures else "stuck" if stuck else "late" if waiting > LATE_SECONDS else "ok"),
    }
    return "ok", outbox


def _count(condition) -> Any:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _stuck(now: datetime) -> Any:
    """Claimed, and the claim's lease ended more than STUCK_SECONDS ago."""
    return (col(OutboxMessage.status) == "sending") & (
        col(OutboxMessage.locked_until) < now - timedelta(seconds=STUCK_SECONDS)
    )


def _retrying() -> Any:
    """Waiting for another attempt after a failed one."""
    return (col(OutboxMessage.status) == "pending") & col(OutboxMessage.last_failure_at).is_not(None)


def _late(now: datetime) -> Any:
    return col(OutboxMessage.status).in_(("pending", "sending")) & (
        col(OutboxMessage.created_at) < now - timedelta(seconds=LATE_SECONDS)
    )


def mail_state(message: OutboxMessage, now: datetime) -> str:
    """What an operator should know of a message: sent, failed, stuck, late, retrying, sending or
    pending (the first that applies)."""
    if message.status in ("sent", "failed"):
        return message.status
    locked_until, created_at = _aware(message.locked_until), _aware(message.created_at)
    if message.status == "sending" and locked_until and locked_until < now - timedelta(seconds=STUCK_SECONDS):
        return "stuck"
    if created_at and created_at < now - timedelta(seconds=LATE_SECONDS):
        return "late"
    if message.status == "pending" and message.last_failure_at is not None:
        return "retrying"
    return message.status


def mail_needing_attention(limit: int = 50, now: datetime | None = None) -> list[tuple[OutboxMessage, str]]:
    """Messages failed, stuck, late or retrying, the most recently failed first, with their state."""
    now = now or utcnow()
    condition = or_(col(OutboxMessage.status) == "failed", _stuck(now), _late(now), _retrying())
    with new_session() as session:
        rows = session.exec(
            select(OutboxMessage)
            .where(condition)
            .order_by(
                col(OutboxMessage.last_failure_at).desc().nulls_last(),
                col(OutboxMessage.id).desc(),
            )
            .limit(limit)
        ).all()
    return [(message, mail_state(message, now)) for message in rows]


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


def draining() -> bool:
    """An operator is taking this machine out of the load balancer (DRAIN_FILE exists)."""
    return Path(get_settings().drain_file).exists()


def set_draining(on: bool) -> Path:
    """Start (on) or end the drain of this machine; returns the drain file."""
    path = Path(get_settings().drain_file)
    if on:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    else:
        path.unlink(missing_ok=True)
    return path


def health_report(now: datetime | None = None) -> dict:
    """The full report, for operators (blocking: run it in a thread from async code)."""
    database, outbox = check_database(now)
    redis_status = check_redis()
    if database == "error":
        status = "down"
    elif draining():
        status = "draining"
    elif redis_status == "error" or outbox.get("status") != "ok":
        status = "degraded"
    else:
        status = "ok"
    return {"status": status, "database": database, "redis": redis_status, "outbox": outbox}


def public_status() -> str:
    """What anyone may know: ok, degraded or down, and nothing else."""
    return health_report()["status"]
