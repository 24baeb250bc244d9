"""Database tables (plain sqlmodel tables; migrations live in alembic/)."""

from sqlmodel import SQLModel

# Table modules are imported here so that `metadata` knows every table.
metadata = SQLModel.metadata
