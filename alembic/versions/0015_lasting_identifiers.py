"""Identifiers that leave the database are unique for all time: cancel links name a booking by a
random key stored with it (never its row id), and SQLite never hands an id out twice.

SQLite reuses the highest rowid after a delete unless the table is AUTOINCREMENT, which only a
rebuilt table can become (batch mode: copy, drop, rename). Ids already deleted above a table's
current highest cannot be known here, so they may come back once; every id given after this
migration is new. PostgreSQL's sequences never go back: nothing to rebuild there.

Revision ID: 0015_lasting_identifiers
Revises: 0014_outbox_claims
"""

import secrets
import warnings
from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0015_lasting_identifiers"
down_revision: str | None = "0014_outbox_claims"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The tables whose ids appear outside the database (console, `ops`, logs).
TABLES = ("lead", "booking", "outbox_message", "console_audit")
KEY_LENGTH = 24  # db.booking.CANCEL_KEY_LENGTH when this was written


def _indexes_sql(bind, table: str) -> list[str]:
    rows = bind.execute(
        sa.text("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = :t AND sql IS NOT NULL"),
        {"t": table},
    )
    return [sql for (sql,) in rows]


def upgrade() -> None:
    # Batch mode reflects `lead` (a table itself, or the parent of one), whose expression index
    # it cannot read: the indexes are recreated from their own SQL below, so the warning says nothing.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based index")
        _upgrade()


def _upgrade() -> None:
    bind = op.get_bind()
    op.add_column("booking", sa.Column("cancel_key", sa.String(length=KEY_LENGTH), nullable=True))
    # Bookings made before: a key each (their links of the old form are refused from now on).
    booking = sa.table("booking", sa.column("id", sa.Integer), sa.column("cancel_key", sa.String))
    for (booking_id,) in bind.execute(sa.select(booking.c.id)).all():
        key = secrets.token_urlsafe(KEY_LENGTH * 3 // 4)
        bind.execute(booking.update().where(booking.c.id == booking_id).values(cancel_key=key))
    with op.batch_alter_table("booking") as batch:
        batch.alter_column("cancel_key", existing_type=sa.String(length=KEY_LENGTH), nullable=False)
    op.create_index("uq_booking_cancel_key", "booking", ["cancel_key"], unique=True)
    if bind.dialect.name != "sqlite":
        return
    # Alembic's env connects without PRAGMA foreign_keys, so dropping a parent table while
    # rebuilding it leaves its children's rows alone.
    for table in TABLES:
        # Batch mode's reflection skips expression indexes (lower(email)) and may lose a partial
        # index's WHERE: the indexes are recreated from their own SQL after the rebuild.
        indexes = _indexes_sql(bind, table)
        with op.batch_alter_table(table, recreate="always", table_kwargs={"sqlite_autoincrement": True}):
            pass
        # PRAGMA index_list: (seq, name, unique, origin, partial); origin "c" is a CREATE INDEX.
        for name in [row[1] for row in bind.execute(sa.text(f"PRAGMA index_list('{table}')")) if row[3] == "c"]:
            op.drop_index(name, table_name=table)
        for sql in indexes:
            bind.execute(sa.text(sql))


def downgrade() -> None:
    # The tables stay AUTOINCREMENT (harmless to the earlier code); the key goes.
    op.drop_index("uq_booking_cancel_key", table_name="booking")
    with op.batch_alter_table("booking") as batch:
        batch.drop_column("cancel_key")
