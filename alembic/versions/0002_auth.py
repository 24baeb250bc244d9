"""Login transactions and sessions (server-side OpenID Connect relying party).

Revision ID: 0002_auth
Revises: 0001_leads
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0002_auth"
down_revision: str | None = "0001_leads"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "auth_login_transaction",
        sa.Column("state", sa.String(length=64), primary_key=True),
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("code_verifier", sa.String(length=128), nullable=False),
        sa.Column("redirect_uri", sa.String(length=2000), nullable=False),
        sa.Column("return_to", sa.String(length=2000), nullable=False),
        sa.Column("silent", sa.Boolean(), nullable=False),
        sa.Column("max_age", sa.Integer(), nullable=True),
        sa.Column("binding_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_auth_login_transaction_created_at", "auth_login_transaction", ["created_at"])
    op.create_table(
        "auth_session",
        sa.Column("id_hash", sa.String(length=64), primary_key=True),
        sa.Column("sub", sa.String(length=255), nullable=False),
        sa.Column("user_json", sa.Text(), nullable=False),
        sa.Column("id_token", sa.Text(), nullable=False),
        sa.Column("access_token", sa.Text(), nullable=False),
        sa.Column("refresh_token", sa.Text(), nullable=True),
        sa.Column("access_expires_at", sa.Float(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_auth_session_expires_at", "auth_session", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_auth_session_expires_at", table_name="auth_session")
    op.drop_table("auth_session")
    op.drop_index("ix_auth_login_transaction_created_at", table_name="auth_login_transaction")
    op.drop_table("auth_login_transaction")
