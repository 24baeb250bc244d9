"""Who cancelled a demo booking: the visitor (their mail's link) or the team (the console's
Bookings view, on the person's behalf).

Revision ID: 0017_booking_cancelled_by
Revises: 0016_booking_client_key
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0017_booking_cancelled_by"
down_revision: str | None = "0016_booking_client_key"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("booking", sa.Column("cancelled_by", sa.String(length=10), server_default="", nullable=False))
    # Until now only the visitor's link could cancel.
    op.execute("UPDATE booking SET cancelled_by = 'visitor' WHERE status = 'cancelled'")


def downgrade() -> None:
    with op.batch_alter_table("booking") as batch:
        batch.drop_column("cancelled_by")
