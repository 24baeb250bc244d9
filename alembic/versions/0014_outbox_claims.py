"""The outbox's fencing token and last failure: a stale worker's result changes nothing, and
operators see when a message last failed.

Revision ID: 0014_outbox_claims
Revises: 0013_visit_source_day
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0014_outbox_claims"
down_revision: str | None = "0013_visit_source_day"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A message being sent while this runs has no token: its worker (the old code) is stopped by
    # the deploy, and the next claim after its lease gives it one.
    op.add_column("outbox_message", sa.Column("claim_token", sa.String(length=32), nullable=True))
    op.add_column("outbox_message", sa.Column("last_failure_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox_message") as batch:
        batch.drop_column("last_failure_at")
        batch.drop_column("claim_token")
