"""Several machines on one host, as deploy/README.md runs them, for the deployment tests and drills.

A release archive made from the test build (scripts/release.py, as tests/test_release.py does),
unpacked and installed once (`./install`); each machine is a `./serve` of it on its own port
with its own drain file, under a supervisor that starts it again a second after it exits (what
the systemd unit's `Restart=always` does). The machines share one PostgreSQL database, a private
Redis (so that a test can stop it) and an SMTP sink; `deploy/nginx/nereo.conf` runs in front
(servers.NginxProxy). `LeadFlow` posts leads through the proxy while a drill runs and counts
every answer.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import tarfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx2
from lead_payloads import lead_payload
from servers import ARTIFACTS, BIN, ROOT, free_port

# What a server's environment holds (as tests/test_release.py gives it): the machine's basics
# and certificates, nothing of the developer's shell, no .venv or .tools on PATH.
MACHINE = ("HOME", "LANG", "SSL_CERT_FILE", "SSL_CERT_DIR", "PIP_CERT", "PIP_FIND_LINKS", "REQUESTS_CA_BUNDLE")
READY = "/api/v1/health"
LIVE = "/api/v1/health/live"


def make_release(folder: Path) -> Path:
    """The test build packed as a release, unpacked in `folder` and installed; returns `folder`."""
    made = subprocess.run(
        [str(BIN / "python"), "scripts/release.py", "--out", str(folder / "dist")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    [archive] = (folder / "dist").glob("nereo-marketing-site-*.tar.gz")
    release = folder / "release"
    with tarfile.open(archive) as tar:
        tar.extractall(release, filter="tar")
    installed = subprocess.run(
        ["./install"], cwd=release, env=machine_environment(), capture_output=True, text=True, check=False
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return release


def machine_environment(**settings: str) -> dict[str, str]:
    env = {name: os.environ[name] for name in MACHINE if name in os.environ}
    env.update(PATH="/usr/local/bin:/usr/bin:/bin", ENV_FILE="")
    env.update(settings)
    return env


class Machine:
    """One machine: the release's `./serve` on `port`, started again a second after it exits
    (unless held), in a process group of its own (signals reach its workers too)."""

    def __init__(self, release: Path, port: int, workdir: Path, **settings: str):
        self.release, self.port = release, port
        self.address = f"127.0.0.1:{port}"
        self.url = f"http://{self.address}"
        self.pid_file = workdir / f"serve-{port}.pid"
        self.drain_file = workdir / f"draining-{port}"
        self.log = ARTIFACTS / f"machine-{port}.log"
        self.env = machine_environment(PORT=str(port), DRAIN_FILE=str(self.drain_file), **settings)
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self.held = False  # True: not started again when it exits
        self._stopping = False
        self._thread: threading.Thread | None = None

    def start(self) -> Machine:
        ARTIFACTS.mkdir(exist_ok=True)
        self._thread = threading.Thread(target=self._supervise, daemon=True)
        self._thread.start()
        self.wait(LIVE)
        return self

    def _supervise(self) -> None:
        while not self._stopping:
            if self.held:
                time.sleep(0.1)
                continue
            with self.log.open("ab") as log:
                self.proc = subprocess.Popen(
                    ["./serve"],
                    cwd=self.release,
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            self.starts += 1
            self.pid_file.write_text(str(self.proc.pid))
            self.proc.wait()
            time.sleep(1)  # RestartSec=1

    def restart_command(self) -> str:
        """A shell command that stops the machine as the systemd unit does (SIGTERM to the group,
        SIGKILL if it is still there 30 s later: TimeoutStopSec) and returns once it is gone; the
        supervisor starts it again, as `systemctl restart`."""
        return (
            f"pid=$(cat {self.pid_file}); kill -TERM -$pid; n=0; while kill -0 -$pid 2>/dev/null; do "
            "n=$((n + 1)); if [ $n -eq 300 ]; then kill -KILL -$pid; fi; sleep 0.1; done"
        )

    def signal(self, sig: int) -> None:
        """`sig` to every process of the machine (its supervisor restarts it after a kill)."""
        if self.proc is not None:
            os.killpg(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL, as a machine lost: nothing runs its shutdown; returns once it is gone."""
        proc = self.proc
        if proc is not None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    def wait(self, path: str = READY, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if httpx2.get(self.url + path, timeout=2).status_code == 200:
                    return
            except httpx2.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{self.address} did not answer {path}; see {self.log}")

    def stop(self) -> None:
        self._stopping = True
        proc = self.proc
        if proc is not None and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        if self._thread is not None:
            self._thread.join(5)


@dataclasses.dataclass
class Answer:
    n: int
    keyed: bool
    status: int  # 0: no HTTP answer (the error's name in `error`)
    seconds: float
    error: str = ""


class LeadFlow:
    """Leads posted through the proxy by `clients` threads until stopped, each on a connection
    of its own (a visitor's request, not a reused one) and never retried: every answer counts.
    Every other lead carries an Idempotency-Key, as the site's forms send it."""

    def __init__(self, origin: str, clients: int = 2, pause: float = 0.1):
        self.origin, self.clients, self.pause = origin, clients, pause
        self.run = uuid.uuid4().hex[:10]
        self.answers: list[Answer] = []
        self._next = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def email(self, n: int) -> str:
        return f"flow-{self.run}-{n}@example.com"

    def post(self, n: int, keyed: bool) -> Answer:
        headers = {"Idempotency-Key": f"{self.run}-{n}"} if keyed else {}
        began = time.monotonic()
        try:
            with httpx2.Client(verify=False, timeout=60) as client:
                response = client.post(
                    self.origin + "/api/v1/mail/send", json=lead_payload(email=self.email(n)), headers=headers
                )
            return Answer(n, keyed, response.status_code, time.monotonic() - began)
        except httpx2.HTTPError as error:
            return Answer(n, keyed, 0, time.monotonic() - began, type(error).__name__)

    def _client(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                n = self._next
                self._next += 1
            answer = self.post(n, keyed=n % 2 == 0)
            with self._lock:
                self.answers.append(answer)
            time.sleep(self.pause)

    def start(self) -> LeadFlow:
        self._threads = [threading.Thread(target=self._client, daemon=True) for _ in range(self.clients)]
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> list[Answer]:
        self._stop.set()
        for thread in self._threads:
            thread.join(90)
        return sorted(self.answers, key=lambda a: a.n)

    def stored(self, query) -> Counter:
        """Lead rows per email of this flow (`query`: a machine's SQL reader)."""
        rows = query("SELECT email FROM lead WHERE email LIKE ?", f"flow-{self.run}-%")
        return Counter(email for (email,) in rows)


def summary(answers: list[Answer]) -> str:
    statuses = Counter(a.status or a.error for a in answers)
    seconds = sorted(a.seconds for a in answers) or [0.0]
    return (
        f"{len(answers)} leads, answers {dict(statuses)}, "
        f"p50 {seconds[len(seconds) // 2]:.2f} s, max {seconds[-1]:.2f} s"
    )


def free_ports(count: int) -> list[int]:
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port not in ports:
            ports.append(port)
    return ports
