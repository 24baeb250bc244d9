"""Leads and the mail outbox: a lead and its outbox row are written in one transaction."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, Index, Text
from sqlmodel import Field, SQLModel

# Where a visit came from, as the browser kept it in page memory (services.audience cleans it):
# on every lead and every booking, empty when unknown.


def utcnow() -> datetime:
    return datetime.now(UTC)


def _timestamp(**kwargs) -> Column:
    return Column(DateTime(timezone=True), **kwargs)


class VisitAttribution(SQLModel):
    """Where the visit came from (services.audience): its first page, the referring host and the
    UTM tags; columns of both `lead` and `booking`."""

    landing_page: str = Field(default="", max_length=200, sa_column_kwargs={"server_default": ""})
    referrer: str = Field(default="", max_length=253, sa_column_kwargs={"server_default": ""})
    utm_source: str = Field(default="", max_length=100, sa_column_kwargs={"server_default": ""})
    utm_medium: str = Field(default="", max_length=100, sa_column_kwargs={"server_default": ""})
    utm_campaign: str = Field(default="", max_length=100, sa_column_kwargs={"server_default": ""})
    utm_content: str = Field(default="", max_length=100, sa_column_kwargs={"server_default": ""})
    utm_term: str = Field(default="", max_length=100, sa_column_kwargs={"server_default": ""})


ATTRIBUTION = tuple(VisitAttribution.model_fields)


# Tables whose ids leave the database (the console's rows and retry buttons, `ops`, the log) never
# hand an id out twice: SQLite otherwise reuses the highest id after a delete (an erasure, a purge),
# so an operator's open page or an old log line would name the next person's row. PostgreSQL's
# sequences never go back. Migration 0015 rebuilt the existing SQLite tables this way.
NEVER_REUSED_IDS = {"sqlite_autoincrement": True}


class Lead(VisitAttribution, table=True):
    """A visitor who asked for a document, with the contact details they gave."""

    __tablename__ = "lead"
    __table_args__ = (NEVER_REUSED_IDS,)

    id: int | None = Field(default=None, primary_key=True)
    form: str = Field(max_length=40, index=True)
    lang: str = Field(max_length=2)
    name: str = Field(max_length=200)
    firstname: str = Field(max_length=200)
    phone: str = Field(max_length=200)
    company: str = Field(max_length=200)
    email: str = Field(max_length=200, index=True)
    # Same key within the idempotency window = the same lead (double click, retried request).
    idempotency_key: str = Field(max_length=64, unique=True)
    # Anti-bot signals that cannot tell a person from a robot ("fast", "honeypot", comma-separated):
    # the lead is kept and mailed, and marked for the operators.
    flags: str = Field(default="", max_length=100, sa_column_kwargs={"server_default": ""})
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp(nullable=False, index=True))


class OutboxMessage(SQLModel, table=True):
    """A mail to send about a lead; the worker claims it with a lease, then marks it."""

    __tablename__ = "outbox_message"
    __table_args__ = (Index("ix_outbox_due", "status", "next_attempt_at"), NEVER_REUSED_IDS)

    id: int | None = Field(default=None, primary_key=True)
    # None only for a mail about no one: the sales notice of a demo cancelled by an erasure.
    lead_id: int | None = Field(default=None, foreign_key="lead.id", index=True)
    # Made once (services.mail.new_message_id: random, never a row id) and sent with every attempt:
    # a resend after a lost acknowledgement is recognised downstream.
    message_id: str = Field(max_length=200, unique=True)
    mail_from: str = Field(max_length=320)
    mail_to: str = Field(max_length=320)
    reply_to: str = Field(max_length=320)
    subject: str = Field(max_length=300)
    body: str = Field(sa_column=Column(Text, nullable=False))
    # A calendar invitation (iCalendar text, METHOD:REQUEST or CANCEL) sent with the body, if any.
    calendar_ics: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    status: str = Field(default="pending", max_length=10)  # pending | sending | sent | failed
    attempts: int = Field(default=0)
    # A claim moves it forward by the lease: a message whose worker dies is never first in line.
    next_attempt_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp(nullable=False))
    locked_until: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
    # The fencing token of the claim that holds it: every state change names it, so the result
    # of a worker that stalled past its lease (another took the message over) changes nothing.
    claim_token: str | None = Field(default=None, max_length=32)
    last_error: str | None = Field(default=None, max_length=500)
    # When an attempt last failed (temporary, permanent or composing): the console and `ops outbox`.
    last_failure_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
    sent_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
    # When it failed for good (status "failed"): the health check counts recent failures only.
    failed_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp(nullable=False))
