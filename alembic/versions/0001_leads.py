"""Leads and the mail outbox.

Revision ID: 0001_leads
Revises:
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0001_leads"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lead",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("form", sa.String(40), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("firstname", sa.String(200), nullable=False),
        sa.Column("phone", sa.String(200), nullable=False),
        sa.Column("company", sa.String(200), nullable=False),
        sa.Column("email", sa.String(200), nullable=False),
        sa.Column("idempotency_key", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_lead_form", "lead", ["form"])
    op.create_index("ix_lead_email", "lead", ["email"])
    op.create_index("ix_lead_created_at", "lead", ["created_at"])
    op.create_table(
        "outbox_message",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("lead_id", sa.Integer(), sa.ForeignKey("lead.id"), nullable=False),
        sa.Column("message_id", sa.String(200), nullable=False, unique=True),
        sa.Column("mail_from", sa.String(320), nullable=False),
        sa.Column("mail_to", sa.String(320), nullable=False),
        sa.Column("reply_to", sa.String(320), nullable=False),
        sa.Column("subject", sa.String(300), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_outbox_message_lead_id", "outbox_message", ["lead_id"])
    op.create_index("ix_outbox_due", "outbox_message", ["status", "next_attempt_at"])


def downgrade() -> None:
    op.drop_table("outbox_message")
    op.drop_table("lead")
