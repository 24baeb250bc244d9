"""A booking keeps a keyed hash of its client's address: the per-address booking budget.

Revision ID: 0016_booking_client_key
Revises: 0015_lasting_identifiers
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0016_booking_client_key"
down_revision: str | None = "0015_lasting_identifiers"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Bookings made before have no key: they count for their email's budget only.
    op.add_column("booking", sa.Column("client_key", sa.String(length=32), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("booking") as batch:
        batch.drop_column("client_key")
