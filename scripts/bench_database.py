"""A scratch PostgreSQL database for the benchmarks (bench_console.py, bench_traffic.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


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


def use_database(url: str) -> None:
    """Point this process's settings and engine at `url`, migrated to head."""
    from marketing_site import db, settings

    os.environ["DATABASE_URL"] = url
    settings.get_settings.cache_clear()
    db.engine_for.cache_clear()
    subprocess.run(
        [str(BIN / "alembic"), "upgrade", "head"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        env={**os.environ, "DATABASE_URL": url},
    )
