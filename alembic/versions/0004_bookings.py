"""Demo bookings of the built-in scheduler; outbox mail can carry a calendar invitation.

Revision ID: 0004_bookings
Revises: 0003_lead_flags
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0004_bookings"
down_revision: str | None = "0003_lead_flags"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE = sa.text("status = 'confirmed'")


def upgrade() -> None:
    op.create_table(
        "booking",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("lead_id", sa.Integer(), sa.ForeignKey("lead.id"), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("visitor_timezone", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("uid", sa.String(200), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_booking_lead_id", "booking", ["lead_id"])
    # One confirmed booking per slot start, enforced by the database for every worker.
    op.create_index(
        "uq_booking_active_slot", "booking", ["starts_at"], unique=True, sqlite_where=ACTIVE, postgresql_where=ACTIVE
    )
    with op.batch_alter_table("outbox_message") as batch:
        batch.add_column(sa.Column("calendar_ics", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox_message") as batch:
        batch.drop_column("calendar_ics")
    op.drop_table("booking")
