"""The console's audit log and the lead indexes behind its filters, sorts and lookups.

Revision ID: 0005_console_audit
Revises: 0004_bookings
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0005_console_audit"
down_revision: str | None = "0004_bookings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "console_audit",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_sub", sa.String(length=255), nullable=False),
        sa.Column("actor_email", sa.String(length=320), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("subject", sa.String(length=500), nullable=False),
        sa.Column("counts_json", sa.Text(), nullable=False),
    )
    op.create_index("ix_console_audit_created_at", "console_audit", ["created_at"])
    op.create_index("ix_lead_email_lower", "lead", [sa.text("lower(email)")])
    op.create_index("ix_lead_form_created_at", "lead", ["form", "created_at"])
    op.create_index("ix_lead_lang_created_at", "lead", ["lang", "created_at"])
    op.create_index("ix_lead_created_at_form_lang", "lead", ["created_at", "form", "lang"])
    op.create_index("ix_lead_name", "lead", ["name"])
    op.create_index("ix_lead_company", "lead", ["company"])


def downgrade() -> None:
    for name in (
        "ix_lead_company",
        "ix_lead_name",
        "ix_lead_created_at_form_lang",
        "ix_lead_lang_created_at",
        "ix_lead_form_created_at",
        "ix_lead_email_lower",
    ):
        op.drop_index(name, table_name="lead")
    op.drop_index("ix_console_audit_created_at", table_name="console_audit")
    op.drop_table("console_audit")
