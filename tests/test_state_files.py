"""Reflex's disk state manager purges expired state files as each process creates the app; two
processes starting at once must both start (reflex_internals/state_files.py, touch point 22)."""

from __future__ import annotations

import inspect
import os
import threading
import time

import pytest


def test_what_the_purge_relies_on_is_still_there():
    from reflex.istate.manager.disk import StateManagerDisk

    from marketing_site.reflex_internals import state_files

    state_files.tolerate_concurrent_purges()
    purge = StateManagerDisk._purge_expired_states
    assert purge.tolerates_concurrent_purges
    # Reflex's purge, which the site's does file by file: what it removes, and when.
    original = inspect.getsource(purge.__wrapped__)
    for part in ('path.suffix != ".pkl"', "path.stat().st_mtime", "self.token_expiration", "path.unlink()"):
        assert part in original, part
    assert "_purge_expired_states()" in inspect.getsource(StateManagerDisk.__post_init__)


@pytest.mark.parametrize("tolerant", [True, False])
def test_two_state_managers_created_at_once_over_expired_files_both_start(tolerant, tmp_path, monkeypatch):
    """Four threads create a disk state manager over 3,000 expired state files at once: each
    starts, and every expired file is gone. Without the fix some fail (checked: `tolerant=False`
    runs Reflex's own purge and expects a failure, so that this test can tell)."""
    from reflex.istate.manager.disk import StateManagerDisk

    from marketing_site.reflex_internals import state_files

    state_files.tolerate_concurrent_purges()
    if not tolerant:
        monkeypatch.setattr(
            StateManagerDisk, "_purge_expired_states", StateManagerDisk._purge_expired_states.__wrapped__
        )
    monkeypatch.setenv("REFLEX_STATES_WORKDIR", str(tmp_path))
    old = time.time() - 10 * 24 * 3600
    for number in range(3000):
        path = tmp_path / f"{number:040x}.pkl"
        path.write_bytes(b"")
        os.utime(path, (old, old))
    failures: list[BaseException] = []
    start = threading.Barrier(4)

    def create() -> None:
        start.wait()
        try:
            StateManagerDisk(token_expiration=3600)
        except BaseException as error:  # noqa: BLE001 - collected for the assertion
            failures.append(error)

    threads = [threading.Thread(target=create) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if tolerant:
        assert failures == [] and list(tmp_path.glob("*.pkl")) == []
    else:
        assert failures and all(isinstance(error, FileNotFoundError) for error in failures)
