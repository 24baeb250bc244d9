"""A scratch PostgreSQL database for the benchmarks (bench_console.py, bench_traffic.py)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def pg_database(server_url: str, name: str, create: bool) -> str:
    """Drop database `name` on the server (and create it again when `create`); its URL."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    admin = create_engine(server_url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        if create:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return urlunsplit(urlsplit(server_url)._replace(path="/" + name))
