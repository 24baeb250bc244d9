"""Driving `make dev` from outside, as a maintainer would: for `make bench-dev` (scripts/bench_dev.py)
and tests/test_dev_loop.py.

A copy of the repository (the files git knows, the virtualenv and the tools linked), the loop
started in it on ports of its own, its output kept, Chromium open on a page, a file saved, and
the time until the open tab shows the change. Also the floor the loop is held against: a
one-page Reflex app of the same Reflex, started the way Reflex's documentation starts an app.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent
LINKED = (".venv", ".tools")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"]
# A person's browser: the audience measurement ignores a headless one.
USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"


def copy_repository(target: Path) -> Path:
    """The repository's files as git knows them (committed or not, ignored ones left out), with
    their modification times, in `target`; the virtualenv and the tools linked, not copied."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPOSITORY,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (entry.decode() for entry in listed)):
        source = REPOSITORY / name
        if not source.is_file():
            continue
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, destination)
    for name in LINKED:
        (target / name).symlink_to(REPOSITORY / name)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if text.count(old) != 1:
        raise AssertionError(f"{path}: {old!r} is found {text.count(old)} times, not once")
    path.write_text(text.replace(old, new), encoding="utf-8")


def tool_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """What the Makefile exports: the tools first on PATH, no telemetry, no version look-up."""
    env = {
        **os.environ,
        "PATH": f"{REPOSITORY / '.tools/node_modules/.bin'}:{REPOSITORY / '.venv/bin'}:{os.environ.get('PATH', '')}",
        "REFLEX_TELEMETRY_ENABLED": "false",
        "REFLEX_CHECK_LATEST_VERSION": "false",
    }
    for name in ("TEST_DATABASE_URL", "TEST_REDIS_URL", "DATABASE_URL", "REFLEX_REDIS_URL", "SITE_URL", "PORT"):
        env.pop(name, None)
    return {**env, **(extra or {})}


class Running:
    """A process started in its own session, its output kept line by line."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.lines: list[str] = []
        self.seconds: list[float] = []  # when each line came, from the start
        self.marks: list[tuple[float, str]] = []  # what the driver saw meanwhile (`mark`)
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.seconds.append(time.monotonic() - self.started)
            self.lines.append(line.rstrip("\n"))

    def output(self) -> str:
        return "\n".join(self.lines)

    def mark(self, text: str) -> None:
        self.marks.append((time.monotonic() - self.started, f"--- {text}"))

    def timeline(self) -> str:
        """The output and the marks, each line after the seconds since the start at which it came."""
        said = sorted([*zip(self.seconds, self.lines, strict=False), *self.marks], key=lambda item: item[0])
        return "\n".join(f"{at:7.2f}  {line}" for at, line in said)

    def wait_for(self, pattern: str, timeout: float, since: int = 0) -> re.Match:
        """The first line after `since` matching `pattern`; fails when the process ends or time is up."""
        deadline = time.monotonic() + timeout
        compiled = re.compile(pattern)
        while time.monotonic() < deadline:
            for line in self.lines[since:]:
                if match := compiled.search(line):
                    return match
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"no line matching {pattern!r} within {timeout} s; output:\n{self.output()[-4000:]}")

    def stop(self) -> None:
        """SIGTERM to the process group, as a terminal's Ctrl-C reaches `make dev`, and time
        for the loop to stop what it started in sessions of their own (the dev server, the
        development identity provider): `make` exits at once, the loop does not."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            self.process.poll()  # `make` reaped: a zombie would keep the group
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self._reader.join(timeout=5)


def start_loop(repository: Path, frontend_port: int, backend_port: int, extra: dict[str, str] | None = None) -> Running:
    """`make dev` in `repository` on the given ports."""
    env = tool_environment(
        {"REFLEX_FRONTEND_PORT": str(frontend_port), "REFLEX_BACKEND_PORT": str(backend_port), **(extra or {})}
    )
    return Running(["make", "--no-print-directory", "dev"], repository, env)


FLOOR_APP = '''"""The floor of `make bench-dev`: one page, nothing else."""

import reflex as rx


def index() -> rx.Component:
    return rx.el.main(rx.el.h1("Floor page"), rx.el.p("FLOOR_TEXT"))


app = rx.App()
app.add_page(index, route="/")
'''


def write_floor_app(directory: Path) -> Path:
    """A one-page Reflex app of the same Reflex, as `reflex init` would lay it out."""
    (directory / "floor").mkdir(parents=True, exist_ok=True)
    (directory / "rxconfig.py").write_text(
        'import reflex as rx\n\nconfig = rx.Config(app_name="floor", telemetry_enabled=False)\n'
    )
    (directory / "floor" / "__init__.py").write_text("")
    (directory / "floor" / "floor.py").write_text(FLOOR_APP)
    return directory / "floor" / "floor.py"


def start_floor(directory: Path, frontend_port: int, backend_port: int) -> Running:
    env = tool_environment({"REFLEX_FRONTEND_PORT": str(frontend_port), "REFLEX_BACKEND_PORT": str(backend_port)})
    return Running([str(REPOSITORY / ".venv/bin/reflex"), "run"], directory, env)


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_when_serving(browser: Any, url: str, text: str, timeout: float) -> Any:
    """A tab on `url` once it shows `text` (the server may not be listening yet)."""
    page = browser.new_page(user_agent=USER_AGENT)
    deadline = time.monotonic() + timeout
    while True:
        try:
            # As long as a person's browser would wait: a dev server that answers late (a fresh
            # clone's holds its first requests until the home page is compiled) is not refused.
            page.goto(url, wait_until="commit", timeout=max(1_000, (deadline - time.monotonic()) * 1000))
            page.wait_for_function(f"document.body && document.body.textContent.includes({text!r})", timeout=5_000)
            return page
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def mark_loaded(page: Any) -> None:
    """A value that a reload of the tab would lose."""
    page.evaluate("window.__siteDevLoopMarker = true")


def reloaded(page: Any) -> bool:
    return not page.evaluate("window.__siteDevLoopMarker === true")


def time_until(page: Any, save: Callable[[], None], condition: str, timeout: float = 60) -> float:
    """Seconds from `save()` until the tab's JavaScript `condition` holds."""
    started = time.monotonic()
    save()
    page.wait_for_function(condition, timeout=timeout * 1000)
    return time.monotonic() - started


def shows(text: str) -> str:
    return f"document.body.textContent.includes({text!r})"


def python() -> str:
    return sys.executable


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds (user and system, of the living processes and of the children they reaped)
    of a process and all its descendants: what a start cost, whatever else the machine was
    doing. Descendants, not a session: `make dev` starts Vite and the development provider in
    sessions of their own (counting the session left Vite's seconds out)."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    seconds: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        # After the command's closing parenthesis: state ppid ... utime(11) stime(12) cutime(13)
        # cstime(14), counting from 0.
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        seconds[pid] = sum(int(value) for value in fields[11:15])
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    total, waiting = 0, [root]
    while waiting:
        pid = waiting.pop()
        total += seconds.get(pid, 0)
        waiting.extend(children.get(pid, []))
    return total / ticks
