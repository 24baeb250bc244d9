"""An outbox mail may belong to no lead: the sales notice of a demo cancelled by a data-subject
erasure outlives the erased lead (it holds no personal data: the slot and the event's UID).

Revision ID: 0006_outbox_without_lead
Revises: 0005_console_audit
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0006_outbox_without_lead"
down_revision: str | None = "0005_console_audit"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Batch mode: SQLite cannot alter a column in place (the table is copied).
    with op.batch_alter_table("outbox_message") as batch:
        batch.alter_column("lead_id", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM outbox_message WHERE lead_id IS NULL")
    with op.batch_alter_table("outbox_message") as batch:
        batch.alter_column("lead_id", existing_type=sa.Integer(), nullable=False)
