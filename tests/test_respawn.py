"""A killed backend worker is replaced while the other one keeps answering (issue 21 item 8).

Before, Reflex started Granian without `respawn_failed_workers`: one SIGKILLed worker (an
out-of-memory kill) logged "Unexpected exit from worker-2" and the whole site stopped.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import httpx2
from servers import SiteServer, free_port


def backend_workers(server: SiteServer) -> set[int]:
    """Granian's workers: the children of the site's main process."""
    assert server.proc is not None
    pid = server.proc.pid
    return {int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}


def test_a_killed_worker_is_respawned_and_the_other_keeps_answering(workdir):
    server = SiteServer(free_port(), workdir, workers=2)
    server.migrate()
    server.start()
    answers: list[tuple[float, int | str]] = []
    stop = threading.Event()

    def probe() -> None:
        with httpx2.Client(timeout=5) as client:
            while not stop.is_set():
                began = time.monotonic()
                try:
                    answers.append((began, client.get(server.url + "/api/v1/health").status_code))
                except httpx2.HTTPError as error:
                    answers.append((began, type(error).__name__))
                time.sleep(0.05)

    try:
        deadline = time.monotonic() + 60
        while len(before := backend_workers(server)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(before) == 2
        prober = threading.Thread(target=probe)
        prober.start()
        time.sleep(1)
        victim = min(before)
        killed_at = time.monotonic()
        os.kill(victim, signal.SIGKILL)

        deadline = killed_at + 60
        while time.monotonic() < deadline:
            now = backend_workers(server)
            if len(now) == 2 and victim not in now:
                break
            time.sleep(0.2)
        respawned_after = time.monotonic() - killed_at
        # The new worker answers too: probe on until a few requests began after the kill (a
        # loaded machine can hold one request for seconds).
        deadline = time.monotonic() + 30
        while sum(began > killed_at + 0.2 for began, _ in answers) < 5 and time.monotonic() < deadline:
            time.sleep(0.2)
        stop.set()
        prober.join()

        assert server.proc is not None and server.proc.poll() is None, "the site stopped with its worker"
        after = backend_workers(server)
        assert len(after) == 2 and victim not in after, f"workers {before} -> {after}"
        assert respawned_after < 30
        # Requests that began after the kill: all answered, by the surviving worker meanwhile.
        later = [status for began, status in answers if began > killed_at + 0.2]
        assert later and all(status == 200 for status in later), later
    finally:
        stop.set()
        server.stop()
