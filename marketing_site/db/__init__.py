"""Database tables (plain sqlmodel tables; migrations live in alembic/) and the engine."""

from __future__ import annotations

from functools import lru_cache

from sqlalchemy import Engine, event
from sqlmodel import Session, SQLModel, create_engine

from marketing_site.db import audience, auth, booking, console, leads  # noqa: F401  (registers the tables)
from marketing_site.settings import get_settings

metadata = SQLModel.metadata


def get_engine() -> Engine:
    """The engine of the configured DATABASE_URL (one pool per URL and process)."""
    return engine_for(get_settings().database_url)


@lru_cache(maxsize=4)
def engine_for(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection, _record):  # one writer at a time, readers never blocked
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def new_session() -> Session:
    return Session(get_engine(), expire_on_commit=False)
