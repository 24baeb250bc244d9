"""STUB standing in for the lead-capture migration (revision "0001_leads").

This file is a placeholder written on the `auth` branch only so that "0002_auth" can be
migrated before the branches merge. It creates nothing. At merge time it is replaced by
the real "0001_leads" migration from the lead-capture branch.

Revision ID: 0001_leads
Revises:
"""

from collections.abc import Sequence

revision: str = "0001_leads"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass  # stub: the real migration comes from the lead-capture branch


def downgrade() -> None:
    pass  # stub
