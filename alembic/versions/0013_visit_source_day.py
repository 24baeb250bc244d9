"""Daily views per source (referring host, utm_source, utm_campaign): the console's traffic per
campaign or source over 13 months reads these few rows a day, not every page and device's. The
covering index that served those reads on page_view_day goes (it only slowed the upserts).

Revision ID: 0013_visit_source_day
Revises: 0007_outbox_failed_at
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0013_visit_source_day"
down_revision: str | None = "0007_outbox_failed_at"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEYS = ("day", "referrer", "utm_source", "utm_campaign")


def upgrade() -> None:
    op.create_table(
        "visit_source_day",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("referrer", sa.String(length=253), nullable=False),
        sa.Column("utm_source", sa.String(length=100), nullable=False),
        sa.Column("utm_campaign", sa.String(length=100), nullable=False),
        sa.Column("views", sa.Integer(), nullable=False),
    )
    op.create_index("uq_visit_source_day", "visit_source_day", list(KEYS), unique=True)
    # The views counted so far, summed into the new table.
    columns = ", ".join(KEYS)
    op.execute(
        f"INSERT INTO visit_source_day ({columns}, views) "
        f"SELECT {columns}, SUM(views) FROM page_view_day GROUP BY {columns}"
    )
    op.drop_index("ix_page_view_day_traffic", table_name="page_view_day")


def downgrade() -> None:
    op.create_index(
        "ix_page_view_day_traffic",
        "page_view_day",
        ["day", "path", "lang", "utm_campaign", "utm_source", "referrer", "views"],
    )
    op.drop_index("uq_visit_source_day", table_name="visit_source_day")
    op.drop_table("visit_source_day")
