"""`make dev` in a copy of the repository, driven by Chromium (docs/development.md).

One start from a fresh clone of the copy (its web directory made, every page compiled), then in
order: left alone for 20 s it compiles nothing, restarts nothing and writes nothing; a word saved
in YAML reaches the open tab without a reload; a YAML file saved broken is said (file, line, what
to do) in the terminal and in the tab, while the pages keep being served; saving the fix
recovers, without restarting `make dev`. Behaviour only: the times are `make bench-dev`'s.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from servers import ARTIFACTS, free_port

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import dev_loop_driver as drive

IDLE_SECONDS = 20
BANNER = "#site-dev-loop-message"


def _web_files_written_since(web: Path, since: float) -> list[str]:
    return [
        str(path.relative_to(web))
        for folder in ("app", "app_components", "utils", "styles", "public")
        for path in (web / folder).rglob("*")
        if path.is_file() and path.stat().st_mtime > since
    ]


@pytest.fixture
def loop(tmp_path, request):
    repo = drive.copy_repository(tmp_path / "repo")
    frontend, backend = free_port(), free_port()
    # DEV_TIMINGS=1: every line of Vite's too, so that a failure's output says why a tab reloaded.
    running = drive.start_loop(repo, frontend, backend, {"DEV_TIMINGS": "1"})
    yield repo, f"http://127.0.0.1:{frontend}", running
    running.stop()
    # What make dev said, kept whole (test-artifacts/make-dev.log) and its end printed beside a failure.
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "make-dev.log").write_text(running.output(), encoding="utf-8")
    if request.session.testsfailed:
        print(f"--- make dev said (whole in test-artifacts/make-dev.log):\n{running.output()[-8000:]}")


def test_make_dev_stays_idle_shows_a_saved_word_and_survives_a_broken_file(loop, browser):
    repo, base, running = loop
    running.wait_for(rf"make dev: open {base}/", 600)
    page = drive.open_when_serving(browser, base + "/a-propos", "Qui sommes-nous", 600)
    running.wait_for(r"\d+ pages up to date", 600)  # a fresh clone compiles the other pages after the first
    # The dev server started once, with the export condition React Router's CLI needs
    # (dev_compile.dev_script_arguments): it did not start itself a second time.
    assert not any("Relaunching with" in line for line in running.lines)

    # Idle means idle: nothing compiled or restarted, no file of the web directory written.
    mark, since = len(running.lines), time.time()
    time.sleep(IDLE_SECONDS)
    activity = [
        line for line in running.lines[mark:] if any(w in line for w in ("updated in", "compiling", "starting again"))
    ]
    assert not activity, activity
    assert not _web_files_written_since(repo / ".web-dev", since)

    # A word saved in YAML reaches the open tab, which does not reload: the page's own words,
    # and words every page shows in a part hydration keeps as it was prerendered (the footer).
    words = repo / "marketing_site/content/fr/about.yaml"
    good = words.read_text(encoding="utf-8")
    drive.mark_loaded(page)
    drive.time_until(
        page,
        lambda: drive.edit(words, "Qui sommes-nous ?", "Qui sommes-nous vraiment ?"),
        drive.shows("Qui sommes-nous vraiment"),
    )
    layout = repo / "marketing_site/content/fr/layout.yaml"
    drive.time_until(
        page,
        lambda: drive.edit(layout, "des professionnels du patrimoine.", "des gérants de fortune."),
        drive.shows("des gérants de fortune."),
    )
    assert not drive.reloaded(page)

    # A broken file: said where and what to do, in the terminal and in the tab; the last good
    # page stays, and is still served to a new visitor.
    fixed = words.read_text(encoding="utf-8")
    mark = len(running.lines)
    words.write_text(
        fixed.replace("  title: Qui sommes-nous vraiment ?", "  title: Qui sommes: nous ?", 1), encoding="utf-8"
    )
    said = running.wait_for(
        r"make dev: (marketing_site/content/fr/about\.yaml, line \d+: this is not valid YAML.*)", 60, since=mark
    )
    assert "last good version" in said.group(1) and "Traceback" not in running.output()[-2000:]
    page.wait_for_selector(BANNER, timeout=30_000)
    banner = page.inner_text(BANNER)
    assert "about.yaml, line" in banner and "not valid YAML" in banner
    assert "Qui sommes-nous vraiment" in page.text_content("body")
    with urllib.request.urlopen(base + "/a-propos", timeout=30) as answer:
        assert answer.status == 200

    # The fix, saved: compiled again without a restart, the message gone.
    mark = len(running.lines)
    words.write_text(good.replace("Qui sommes-nous ?", "Qui sommes-nous donc ?", 1), encoding="utf-8")
    page.wait_for_function(drive.shows("Qui sommes-nous donc"), timeout=60_000)
    page.wait_for_selector(BANNER, state="detached", timeout=30_000)
    running.wait_for(r"make dev: fixed", 30, since=mark)
    assert not any("starting the compiling process again" in line for line in running.lines[mark:])
    assert running.process.poll() is None

    # The dev server stops by itself (killed here): said, started again, the page served again.
    mark = len(running.lines)
    web = (repo / ".web-dev").resolve()
    vite = [pid for pid, command, directory in _processes_of(repo) if directory == web and "react-router" in command]
    assert vite, "no dev server found under the copy's web directory"
    for pid in vite:
        os.kill(pid, signal.SIGKILL)
    running.wait_for(
        r"make dev: the dev server stopped \((killed by SIG[A-Z]+|exit code \d+); its lines above say why\); starting it again",
        60,
        since=mark,
    )
    drive.open_when_serving(browser, base + "/a-propos", "Qui sommes-nous donc", 120).close()
    assert running.process.poll() is None

    # Stopped as a terminal's Ctrl-C stops it: nothing it started is left running (the dev
    # server, the backend and the development provider run in sessions of their own).
    running.stop()
    deadline = time.monotonic() + 10
    while (left := _processes_of(repo)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, left


def _processes_of(repository: Path) -> list[tuple[int, str, Path]]:
    """The processes running in the copy `repository` or from it (their directory or command):
    pid, command line, directory."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            command = proc.joinpath("cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            directory = proc.joinpath("cwd").resolve()
        except OSError:
            continue
        if directory.is_relative_to(repository.resolve()) or str(repository) in command:
            found.append((int(proc.name), command[:200], directory))
    return found
