"""Lead flags: anti-bot signals that mark a lead instead of refusing it.

Revision ID: 0003_lead_flags
Revises: 0002_auth
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0003_lead_flags"
down_revision: str | None = "0002_auth"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("lead") as batch:
        batch.add_column(sa.Column("flags", sa.String(100), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("lead") as batch:
        batch.drop_column("flags")
