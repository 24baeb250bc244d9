"""Where the backend workers of one serving process group keep their metrics.

Granian runs the site in several worker processes and any of them may answer Prometheus'
scrape: each worker writes its figures to memory-mapped files (prometheus-client's
multiprocess mode) in one folder of the process group, and the worker that answers adds
them all up (`metrics.exposition`). This module owns that folder; it imports nothing of
prometheus-client at load, because prometheus-client picks its storage (memory or files)
once, when it is first imported: the folder must be named in the environment before that.

- `prepare_process_group` runs in the process that starts the workers (rxconfig.py, loaded
  by `reflex run` before it starts Granian): it makes `METRICS_DIR/<its pid>/`, empties it,
  removes the folders of process groups that are gone, and names it in
  PROMETHEUS_MULTIPROC_DIR, which the workers inherit. A worker that loads rxconfig.py again
  finds its parent's folder there and keeps it.
- `worker_exited` runs when Granian replaces a worker (exact_paths.respawn_failed_workers):
  the dead worker's counters stay in the sums (its requests happened), its live gauges (open
  websockets, connections in use) go.

A restart of the whole site is a new process group: its counters start again from zero, which
Prometheus reads as a counter reset (rate() and increase() count across it). Without
METRICS_TOKEN nothing reads the metrics: no folder is made, and each process counts in memory.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from pathlib import Path

from marketing_site.settings import Settings, get_settings

# prometheus-client's variable: set, every process started from here writes its metrics there.
ENVIRONMENT_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"

log = logging.getLogger("marketing_site.metrics")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def process_group_directory() -> Path | None:
    """The folder this process writes its metrics to, if it writes them to files."""
    value = os.environ.get(ENVIRONMENT_VARIABLE)
    return Path(value) if value else None


def prepare_process_group(settings: Settings | None = None) -> Path | None:
    """Give the process group about to start its own empty metrics folder (idempotent in its
    workers); None when metrics are off."""
    settings = settings or get_settings()
    if not settings.metrics_token.get_secret_value():
        return None
    current = process_group_directory()
    if current is not None and current.name == str(os.getppid()) and current.is_dir():
        return current  # a worker: its supervisor made this folder
    base = Path(settings.metrics_dir)
    base.mkdir(parents=True, exist_ok=True)
    for folder in base.iterdir():
        # Folders of process groups that are gone (a restart, a crash): nothing reads them.
        if folder.is_dir() and folder.name.isdigit() and not _alive(int(folder.name)):
            shutil.rmtree(folder, ignore_errors=True)
    own = base / str(os.getpid())
    # The pid of a group long gone may come back: start empty all the same.
    shutil.rmtree(own, ignore_errors=True)
    own.mkdir()
    os.environ[ENVIRONMENT_VARIABLE] = str(own)
    return own


def worker_exited(pid: int) -> None:
    """A worker of this process group is gone: its live gauges leave the sums."""
    directory = process_group_directory()
    if directory is None:
        return
    from prometheus_client import multiprocess

    with contextlib.suppress(OSError):
        multiprocess.mark_process_dead(pid, str(directory))
    log.info("metrics: worker %s gone, its live gauges removed", pid)
