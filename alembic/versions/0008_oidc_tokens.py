"""Sessions: an access token's expiry may be unknown (no expires_in), and when its tokens came.

Revision ID: 0008_oidc_tokens
Revises: 0012_audience
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0008_oidc_tokens"
down_revision: str | None = "0012_audience"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # batch: SQLite changes a column's nullability by copying the table.
    with op.batch_alter_table("auth_session") as batch:
        batch.alter_column("access_expires_at", existing_type=sa.Float(), nullable=True)
        batch.add_column(sa.Column("tokens_at", sa.Float(), nullable=True))


def downgrade() -> None:
    op.execute("UPDATE auth_session SET access_expires_at = 0 WHERE access_expires_at IS NULL")
    with op.batch_alter_table("auth_session") as batch:
        batch.drop_column("tokens_at")
        batch.alter_column("access_expires_at", existing_type=sa.Float(), nullable=False)
