"""Reflex's disk state manager (each tab's state in `.states/`, when REFLEX_REDIS_URL is not set:
`make dev`, a one-worker `make run`, the tests) purges the expired state files as it is created,
that is, in every process that creates the app. Two processes that start at once (the two test
processes of `make test-fast`, `make dev`'s compiling worker and its backend) purge the same
files, and the one that comes second fails on a file the other already removed
(`FileNotFoundError` in `StateManagerDisk._purge_expired_states`): the app does not start.

`tolerate_concurrent_purges` replaces that purge with the same one file by file (a `.pkl` file
not touched for `token_expiration` seconds is removed) that passes over a file another process
removed first. Touch point 22 (docs/reflex-upgrade.md); `tests/test_state_files.py`.
"""

from __future__ import annotations

import functools
import time


def tolerate_concurrent_purges() -> None:
    """Once per process: the disk state manager's purge passes over files another process removes."""
    from reflex.istate.manager.disk import StateManagerDisk
    from reflex.utils import path_ops

    purge = StateManagerDisk._purge_expired_states
    if getattr(purge, "tolerates_concurrent_purges", False):
        return

    @functools.wraps(purge)
    def purge_each_file(self: StateManagerDisk) -> None:
        for path in path_ops.ls(self.states_directory):
            if path.suffix != ".pkl":
                continue
            try:
                if time.time() - path.stat().st_mtime > self.token_expiration:
                    path.unlink(missing_ok=True)
            except FileNotFoundError:  # removed by another process meanwhile
                continue

    # (A marker on the function, so that a second call does not wrap it again: mypy knows no such attribute.)
    purge_each_file.tolerates_concurrent_purges = True  # type: ignore[attr-defined]  # the marker above
    StateManagerDisk._purge_expired_states = purge_each_file  # type: ignore[method-assign]  # the touch point itself
