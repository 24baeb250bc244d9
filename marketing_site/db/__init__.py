"""Database tables (plain sqlmodel tables; migrations live in alembic/) and the engine."""

from __future__ import annotations

import sqlite3
from functools import lru_cache

import psycopg
from sqlalchemy import CursorResult, Engine, Result, event, exc
from sqlmodel import Session, SQLModel, create_engine

from marketing_site import metrics
from marketing_site.db import audience, auth, booking, console, leads  # noqa: F401  (registers the tables)
from marketing_site.settings import get_settings

metadata = SQLModel.metadata
# PostgreSQL: seconds to open a connection, and to have data sent on one acknowledged.
CONNECT_TIMEOUT_SECONDS = 3


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
    # A machine cut off from its database must fail fast, not hang: readiness then answers
    # `down` and the write APIs 503 (libpq has no connect timeout of its own, and a query sent
    # into a dead link waits for TCP to give up, minutes later).
    connect_args = {"connect_timeout": CONNECT_TIMEOUT_SECONDS, "tcp_user_timeout": CONNECT_TIMEOUT_SECONDS * 1000}
    return create_engine(url, pool_pre_ping=True, hide_parameters=True, connect_args=connect_args)


# SQLite's words for a database this process cannot use now (a file or folder gone or not
# readable, a full disk, a writer holding the lock past the busy timeout), as against a statement
# that is wrong ("no such table"): only these are an outage.
_SQLITE_UNAVAILABLE = (
    "unable to open database file",
    "database is locked",
    "disk i/o error",
    "database or disk is full",
    "readonly database",
)


def database_unavailable(error: BaseException) -> bool:
    """The database cannot be reached, or cannot take a write, right now: what a client should
    try again in a moment (the API answers 503 with Retry-After), never a fault of the request.

    PostgreSQL: any connection-level failure (refused, reset, timed out, the server shutting
    down: psycopg's OperationalError and its subclasses), a connection SQLAlchemy found dead, the
    pool's own timeout. SQLite: the file cannot be opened or written, or stays locked."""
    if isinstance(error, exc.TimeoutError):  # no connection free in the pool in time
        return True
    if isinstance(error, exc.DBAPIError):
        if error.connection_invalidated:
            return True
        original = error.orig
        if isinstance(original, psycopg.OperationalError):
            return True
        if isinstance(original, sqlite3.OperationalError):
            message = str(original).lower()
            return any(words in message for words in _SQLITE_UNAVAILABLE)
    return False


def refused_content(error: BaseException) -> bool:
    """The database, or its driver, refuses the values themselves (a character it cannot store,
    such as a lone surrogate or, in PostgreSQL, NUL; a value too long; a constraint): writing the
    same values again never succeeds, whatever the database's health."""
    if isinstance(error, exc.StatementError) and not isinstance(error, exc.DBAPIError):
        error = error.orig or error  # a value the driver could not bind
    return isinstance(error, UnicodeError | exc.DataError | exc.IntegrityError)


def rows_changed(result: Result) -> int:
    """Rows an UPDATE or DELETE changed (SQLAlchemy types `execute` as a Result; for these
    statements it is a CursorResult, which has the count)."""
    assert isinstance(result, CursorResult)
    return result.rowcount


def new_session() -> Session:
    return Session(get_engine(), expire_on_commit=False)
