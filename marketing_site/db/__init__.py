"""Database tables (plain sqlmodel tables; migrations live in alembic/)."""

from sqlmodel import SQLModel

# Table modules are imported here so that `metadata` knows every table.
from marketing_site.db import auth  # noqa: F401

metadata = SQLModel.metadata
