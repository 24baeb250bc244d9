"""Audience measurement: daily page-view totals, and where each lead's and booking's visit came from.

Revision ID: 0012_audience
Revises: 0006_outbox_without_lead
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0012_audience"
down_revision: str | None = "0006_outbox_without_lead"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DIMENSIONS = (
    "day",
    "path",
    "lang",
    "referrer",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_content",
    "utm_term",
    "device",
)
ATTRIBUTION = (
    ("landing_page", 200),
    ("referrer", 253),
    ("utm_source", 100),
    ("utm_medium", 100),
    ("utm_campaign", 100),
    ("utm_content", 100),
    ("utm_term", 100),
)


def upgrade() -> None:
    op.create_table(
        "page_view_day",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("path", sa.String(length=200), nullable=False),
        sa.Column("lang", sa.String(length=2), nullable=False),
        sa.Column("referrer", sa.String(length=253), nullable=False),
        sa.Column("utm_source", sa.String(length=100), nullable=False),
        sa.Column("utm_medium", sa.String(length=100), nullable=False),
        sa.Column("utm_campaign", sa.String(length=100), nullable=False),
        sa.Column("utm_content", sa.String(length=100), nullable=False),
        sa.Column("utm_term", sa.String(length=100), nullable=False),
        sa.Column("device", sa.String(length=10), nullable=False),
        sa.Column("views", sa.Integer(), nullable=False),
    )
    op.create_index("uq_page_view_day", "page_view_day", list(DIMENSIONS), unique=True)
    op.create_index(
        "ix_page_view_day_traffic",
        "page_view_day",
        ["day", "path", "lang", "utm_campaign", "utm_source", "referrer", "views"],
    )
    op.create_table(
        "page_path_day",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("path", sa.String(length=200), nullable=False),
        sa.Column("lang", sa.String(length=2), nullable=False),
        sa.Column("views", sa.Integer(), nullable=False),
    )
    op.create_index("uq_page_path_day", "page_path_day", ["day", "path", "lang"], unique=True)
    for table in ("lead", "booking"):
        with op.batch_alter_table(table) as batch:
            for name, length in ATTRIBUTION:
                batch.add_column(sa.Column(name, sa.String(length), nullable=False, server_default=""))
    op.create_index("ix_lead_utm_campaign_created_at", "lead", ["utm_campaign", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_lead_utm_campaign_created_at", table_name="lead")
    for table in ("booking", "lead"):
        with op.batch_alter_table(table) as batch:
            for name, _ in reversed(ATTRIBUTION):
                batch.drop_column(name)
    op.drop_index("uq_page_path_day", table_name="page_path_day")
    op.drop_table("page_path_day")
    op.drop_index("ix_page_view_day_traffic", table_name="page_view_day")
    op.drop_index("uq_page_view_day", table_name="page_view_day")
    op.drop_table("page_view_day")
