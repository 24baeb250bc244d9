"""When an outbox message failed for good: the health check's "failing" means recently.

Revision ID: 0007_outbox_failed_at
Revises: 0008_oidc_tokens
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0007_outbox_failed_at"
down_revision: str | None = "0008_oidc_tokens"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Messages that failed before this column existed stay NULL: old failures, not recent ones.
    op.add_column("outbox_message", sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox_message") as batch:
        batch.drop_column("failed_at")
