"""Database tables (plain sqlmodel tables; migrations live in alembic/) and the engine."""

from __future__ import annotations

from functools import lru_cache

from sqlalchemy import CursorResult, Engine, Result, event
from sqlmodel import Session, SQLModel, create_engine

from marketing_site import metrics
from marketing_site.db import audience, auth, booking, console, leads  # noqa: F401  (registers the tables)
from marketing_site.settings import get_settings

metadata = SQLModel.metadata


def get_engine() -> Engine:
    """The engine of the configured DATABASE_URL (one pool per URL and process)."""
    return engine_for(get_settings().database_url)


@lru_cache(maxsize=4)
def engine_for(url: str) -> Engine:
    engine = _new_engine(url)
    metrics.watch_pool(engine)
    return engine


def _new_engine(url: str) -> Engine:
    # hide_parameters: an error names the statement, never the values (a visitor's name or
    # email), in the log and in error reports alike.
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, hide_parameters=True)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection, _record):  # one writer at a time, readers never blocked
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, hide_parameters=True)


def rows_changed(result: Result) -> int:
    """Rows an UPDATE or DELETE changed (SQLAlchemy types `execute` as a Result; for these
    statements it is a CursorResult, which has the count)."""
    assert isinstance(result, CursorResult)
    return result.rowcount


def new_session() -> Session:
    return Session(get_engine(), expire_on_commit=False)
