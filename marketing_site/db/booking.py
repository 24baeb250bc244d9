"""Demo bookings of the built-in scheduler: one row per booked slot, tied to its lead (its end: the
start plus BOOKING_MEETING_MINUTES as set when it was booked)."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import Column, DateTime, Index, text
from sqlmodel import Field

from marketing_site.db.leads import NEVER_REUSED_IDS, VisitAttribution, utcnow

CONFIRMED = "confirmed"
CANCELLED = "cancelled"
# Who cancelled a booking: the visitor (the link of their mail) or the team (the console, on the
# person's behalf). A booking cancelled by an erasure is deleted with the person.
BY_VISITOR = "visitor"
BY_TEAM = "team"
# Only a confirmed booking holds its slot: a cancelled one frees it for the next visitor.
ACTIVE = text(f"status = '{CONFIRMED}'")
CANCEL_KEY_LENGTH = 24  # characters of base64url: 144 random bits


def new_cancel_key() -> str:
    return secrets.token_urlsafe(CANCEL_KEY_LENGTH * 3 // 4)


def _timestamp(**kwargs) -> Column:
    return Column(DateTime(timezone=True), **kwargs)


class Booking(VisitAttribution, table=True):
    """A demo booked by a visitor; the partial unique index makes a slot bookable once."""

    __tablename__ = "booking"
    __table_args__ = (
        Index("uq_booking_active_slot", "starts_at", unique=True, sqlite_where=ACTIVE, postgresql_where=ACTIVE),
        Index("uq_booking_cancel_key", "cancel_key", unique=True),
        NEVER_REUSED_IDS,
    )

    id: int | None = Field(default=None, primary_key=True)
    lead_id: int = Field(foreign_key="lead.id", index=True)
    # UTC; the slot's identity.
    starts_at: datetime = Field(sa_column=_timestamp(nullable=False))
    ends_at: datetime = Field(sa_column=_timestamp(nullable=False))
    # The visitor's IANA zone (from the browser), to write the mail in their local time.
    visitor_timezone: str = Field(max_length=64)
    lang: str = Field(max_length=2)
    status: str = Field(default=CONFIRMED, max_length=10)  # confirmed | cancelled
    # The calendar invitation's UID: the cancellation refers to the same event.
    uid: str = Field(max_length=200, unique=True)
    # What the cancel link names (services.booking.cancel_token): random, made with the booking and
    # gone with it, so an old link reaches nothing after an erasure or a purge, never the next row.
    cancel_key: str = Field(default_factory=new_cancel_key, max_length=CANCEL_KEY_LENGTH)
    # The client's address for its booking budget (services.booking.address_budget_key): a keyed
    # hash of the IPv4 address or IPv6 /64, never the address; empty for bookings made before.
    client_key: str = Field(default="", max_length=32, sa_column_kwargs={"server_default": ""})
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp(nullable=False))
    cancelled_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
    # BY_VISITOR or BY_TEAM once cancelled (empty before; bookings cancelled before migration 0017
    # were all the visitor's).
    cancelled_by: str = Field(default="", max_length=10, sa_column_kwargs={"server_default": ""})
