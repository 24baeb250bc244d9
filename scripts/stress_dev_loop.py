"""`make dev` in a copy of the repository, its saves repeated until one is missed.

Each round saves `content/fr/about.yaml` in one of the sequences below, the last save with a
word of its own, and checks that the word reaches the page's compiled file in the web
directory (no browser: what the tab would be sent). A round whose word has not arrived in
time is a miss; the loop's lines since the round began are printed, and a good save follows
to start the next round from a page up to date.

    .venv/bin/python scripts/stress_dev_loop.py [--rounds 40] [--fresh 0] [--only break-fix]

`--fresh N` also starts N fresh clones and saves while their other pages are being compiled.
One loop runs at a time, on free ports, with DEV_TIMINGS=1.
"""

from __future__ import annotations

import argparse
import itertools
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import dev_loop_driver as drive
from dev_loop_driver import Running

ABOUT = "marketing_site/content/fr/about.yaml"
LAYOUT = "marketing_site/content/fr/layout.yaml"
COMPILED_ABOUT = ".web-dev/app/routes/[a-propos]._index.jsx"
TITLE = "  title: Qui sommes-nous ?"
BROKEN_TITLE = "  title: Qui sommes: nous ?"
LAYOUT_WORDS = "des professionnels du patrimoine."
MISTAKE = r"make dev: marketing_site/content/fr/about\.yaml, line \d+: this is not valid YAML"
ARRIVAL_SECONDS = 60  # a layout save compiles every page (about 20 s here) before about's turn


class Site:
    """A copy of the repository with the loop running in it."""

    def __init__(self, repo: Path, running: Running) -> None:
        self.repo = repo
        self.running = running
        self.about = repo / ABOUT
        self.layout = repo / LAYOUT
        self.good = self.about.read_text(encoding="utf-8")
        self.good_layout = self.layout.read_text(encoding="utf-8")
        self.words = (f"Zq{n}x" for n in itertools.count(random.randrange(10**6)))

    def save_about(self, word: str | None) -> None:
        """about.yaml with `word` in its title, or broken (invalid YAML) when `word` is None."""
        text = (
            self.good.replace(TITLE, BROKEN_TITLE)
            if word is None
            else self.good.replace(TITLE, f"{TITLE[:-2]} {word} ?")
        )
        self.about.write_text(text, encoding="utf-8")

    def save_layout(self) -> None:
        self.layout.write_text(
            self.good_layout.replace(LAYOUT_WORDS, f"des gérants {next(self.words)}."), encoding="utf-8"
        )

    def arrived(self, word: str, timeout: float) -> bool:
        compiled = self.repo / COMPILED_ABOUT
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if compiled.exists() and word in compiled.read_text(encoding="utf-8"):
                return True
            time.sleep(0.05)
        return False

    def mark(self) -> int:
        return len(self.running.lines)

    def wait_line(self, pattern: str, since: int, timeout: float = 60) -> None:
        self.running.wait_for(pattern, timeout, since=since)


# -- the sequences: each returns the word its last save carries -------------------------------


def break_then_fix(site: Site, mark: int, pause: float) -> str:
    """Saved broken; once the mistake is said (after line `mark`) and up to `pause` s later, the fix."""
    site.save_about(None)
    site.wait_line(MISTAKE, mark)
    time.sleep(random.uniform(0.0, pause))
    site.save_about(word := next(site.words))
    return word


def break_fix(site: Site) -> str:
    """Saved broken, then fixed, with nothing else compiling."""
    return break_then_fix(site, site.mark(), 0.0)


def break_fix_after_layout(site: Site) -> str:
    """Every page queued (a layout save), about saved broken meanwhile, the fix as soon as said."""
    mark = site.mark()
    site.save_layout()
    time.sleep(random.uniform(0.0, 1.5))
    return break_then_fix(site, mark, 0.0)


def break_fix_during_compile(site: Site) -> str:
    """A layout save, about saved broken once its first page is out, the fix up to 1 s after."""
    mark = site.mark()
    site.save_layout()
    site.wait_line(r"updated in", mark)
    return break_then_fix(site, mark, 1.0)


def quick_saves(site: Site) -> str:
    """Several saves in a row, some broken, a few tens of milliseconds to a second apart."""
    for _ in range(random.randint(2, 6)):
        site.save_about(None if random.random() < 0.4 else next(site.words))
        time.sleep(random.choice([0.02, 0.1, 0.3, 0.45, 0.8, 1.2]))
    site.save_about(word := next(site.words))
    return word


def save_during_compile(site: Site) -> str:
    """A layout save; about saved while the other pages compile."""
    mark = site.mark()
    site.save_layout()
    site.wait_line(r"updated in", mark)
    time.sleep(random.uniform(0.0, 3.0))
    site.save_about(word := next(site.words))
    return word


def save_during_import(site: Site) -> str:
    """The compiling process started again (rxconfig.py saved), about saved while it imports the app."""
    mark = site.mark()
    config = site.repo / "rxconfig.py"
    config.write_text(config.read_text(encoding="utf-8"), encoding="utf-8")
    site.wait_line(r"starting the compiling process again", mark)
    time.sleep(random.uniform(0.0, 8.0))
    site.save_about(random.choice([None, next(site.words)]))
    time.sleep(random.uniform(0.0, 2.0))
    site.save_about(word := next(site.words))
    return word


SEQUENCES: dict[str, Callable[[Site], str]] = {
    "break-fix": break_fix,
    "break-fix-after-layout": break_fix_after_layout,
    "break-fix-during-compile": break_fix_during_compile,
    "quick-saves": quick_saves,
    "save-during-compile": save_during_compile,
    "save-during-import": save_during_import,
}


def settle(site: Site) -> None:
    """about's page showing a good save, and the loop quiet for 2 s (the layout keeps its last word:
    saving it back would compile every page again)."""
    site.save_about(word := next(site.words))
    if not site.arrived(word, ARRIVAL_SECONDS):
        site.save_about(word := next(site.words))
        site.arrived(word, ARRIVAL_SECONDS)
    deadline = time.monotonic() + ARRIVAL_SECONDS
    seen = site.mark()
    while time.monotonic() < deadline:
        time.sleep(2)
        if site.mark() == seen:
            return
        seen = site.mark()


def start(root: Path) -> Site:
    from servers import free_port

    repo = drive.copy_repository(root / "repo")
    running = drive.start_loop(repo, free_port(), free_port(), {"DEV_TIMINGS": "1"})
    return Site(repo, running)


def rounds(site: Site, count: int, names: list[str]) -> dict[str, list[int]]:
    tally: dict[str, list[int]] = {name: [0, 0] for name in names}
    for index in range(count):
        name = names[index % len(names)]
        mark = site.mark()
        word = SEQUENCES[name](site)
        arrived = site.arrived(word, ARRIVAL_SECONDS)
        tally[name][0 if arrived else 1] += 1
        print(f"round {index + 1} {name}: {'arrived' if arrived else 'MISSED'}", flush=True)
        if not arrived:
            print("--- the loop said:\n" + "\n".join(site.running.lines[mark:]) + "\n---", flush=True)
        settle(site)
    return tally


def fresh_clone_saves(root: Path, count: int) -> list[int]:
    """Fresh clones, about saved broken then fixed while the other pages are still compiling."""
    tally = [0, 0]
    for index in range(count):
        site = start(root / f"fresh{index}")
        try:
            site.wait_line(r"updated in", 0, 900)
            time.sleep(random.uniform(0.0, 5.0))
            mark = site.mark()
            site.save_about(None)
            site.wait_line(MISTAKE, mark, 120)
            site.save_about(word := next(site.words))
            arrived = site.arrived(word, 120)
            tally[0 if arrived else 1] += 1
            print(f"fresh clone {index + 1}: {'arrived' if arrived else 'MISSED'}", flush=True)
            if not arrived:
                print("--- the loop said:\n" + "\n".join(site.running.lines[mark:]) + "\n---", flush=True)
        finally:
            site.running.stop()
    return tally


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--fresh", type=int, default=0)
    parser.add_argument("--only", action="append", choices=sorted(SEQUENCES))
    parser.add_argument("--seed", type=int, default=None)
    arguments = parser.parse_args()
    random.seed(arguments.seed)
    names = arguments.only or list(SEQUENCES)
    with tempfile.TemporaryDirectory(prefix="stress-dev-loop-") as directory:
        root = Path(directory)
        if arguments.rounds:
            site = start(root / "loop")
            try:
                site.wait_line(r"\d+ pages up to date", 0, 900)
                tally = rounds(site, arguments.rounds, names)
            finally:
                site.running.stop()
            for name, (arrived, missed) in tally.items():
                print(f"{name}: {arrived} arrived, {missed} missed")
        if arguments.fresh:
            arrived, missed = fresh_clone_saves(root, arguments.fresh)
            print(f"fresh clone: {arrived} arrived, {missed} missed")


if __name__ == "__main__":
    import signal
    import sys

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the loop in the copy is stopped too
    sys.path.insert(0, str(drive.REPOSITORY / "tests"))  # servers.free_port
    main()
