"""`make bench-dev`: the development loop against the floor, a one-page app of the same Reflex.

Both are started in copies (the site: its files as git knows them; the floor: written here)
from a fresh clone (no web directory); a file is saved N times per kind of edit and Chromium, open
on the page, is timed until it shows the change without reloading; then each is started again
with the web directory there (the first start after that session of edits), once more with
nothing changed since (a maintainer's every morning, a new tab), and once in the tab left open
(it loads its page again when the dev server is back). It prints, for each start, the seconds to
the first page and the CPU seconds every process of it spent until then (the machine is shared:
the CPU seconds compare across runs, the wall seconds within one), and for each kind of edit the
median and the worst save → visible time; each start's output, timed, is in bench-results/dev/.
A benchmark: it prints, it never fails on a figure.

    .venv/bin/python scripts/bench_dev.py [--edits 10] [--no-floor]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import dev_loop_driver as drive

SITE_PORTS = (3310, 8310)
FLOOR_PORTS = (3320, 8320)
STARTUP_TIMEOUT = 900
# What each start said, to read beside its figures (bench-results/ is not committed).
OUTPUT = Path(__file__).resolve().parent.parent / "bench-results" / "dev"


def keep_output(name: str, label: str, running) -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / f"{name}, {label}.log").write_text(running.timeline(), encoding="utf-8")


def cold_start(start, url: str, text: str, browser) -> tuple[float, float, object, object]:
    """Seconds and CPU seconds from the start to `text` shown at `url`; the process and the tab."""
    began = time.monotonic()
    running = start()
    page = drive.open_when_serving(browser, url, text, STARTUP_TIMEOUT)
    wall = time.monotonic() - began
    running.mark("bench: the tab shows the page")
    return wall, drive.tree_cpu_seconds(running.process.pid), running, page


# The starts with the web directory there. Each stop closes the loop's tabs first (a tab left
# open reloads when its dev server comes back, and loads its page beside the one timed), except
# before the last start, which times the tab left open: the page it showed, shown again.
WARM_STARTS = ("start, web directory there", "start, nothing changed since", "start, the tab left open")


def warm_starts(
    name: str, start, url: str, text: str, browser, settled: str | None = None
) -> dict[str, tuple[float, float]]:
    """The three starts; `settled`, what the loop says once its start is done (before it stops)."""
    results: dict[str, tuple[float, float]] = {}
    left_open = None
    for label in WARM_STARTS:
        if left_open is None:
            wall, cpu, running, page = cold_start(start, url, text, browser)
        else:
            began = time.monotonic()
            running, page = start(), left_open
            page.wait_for_function(
                f"window.__siteDevLoopMarker === undefined && document.body.textContent.includes({text!r})",
                timeout=STARTUP_TIMEOUT * 1000,
            )
            wall, cpu = time.monotonic() - began, drive.tree_cpu_seconds(running.process.pid)
        results[label] = (wall, cpu)
        print(f"{name}, {label.removeprefix('start, ')}: first page after {wall:.1f} s ({cpu:.1f} CPU s)", flush=True)
        if settled:
            settled(running)
        if label == WARM_STARTS[-2]:
            drive.mark_loaded(page)
            left_open = page
        else:
            page.close()
        running.stop()
        keep_output(name, label, running)
    return results


def edits(page, count: int, save, condition) -> list[float]:
    """`count` saves, each timed until the tab shows it; a reload of the tab is reported."""
    drive.mark_loaded(page)
    times = []
    for index in range(count):
        times.append(drive.time_until(page, lambda i=index: save(i), condition(index)))
        if drive.reloaded(page):
            print(f"  note: edit {index + 1} reloaded the tab", flush=True)
            drive.mark_loaded(page)
        page.wait_for_timeout(300)
    return times


def site_runs(root: Path, count: int, browser) -> dict[str, object]:
    results: dict[str, object] = {}
    repo = drive.copy_repository(root / "site")
    base = f"http://127.0.0.1:{SITE_PORTS[0]}"
    # DEV_TIMINGS=1: the kept output (bench-results/dev/) has every line of Vite's and the timings.
    start = lambda: drive.start_loop(repo, *SITE_PORTS, {"DEV_TIMINGS": "1"})
    wall, cpu, running, page = cold_start(start, base + "/", "Nereo", browser)
    results["start, fresh clone"] = (wall, cpu)
    print(f"site, fresh clone: first page after {wall:.1f} s ({cpu:.1f} CPU s)", flush=True)
    try:
        running.wait_for(r"\d+ pages up to date", 600)  # a fresh clone compiles the other pages after the first
        home = repo / "marketing_site/content/fr/home.yaml"
        anchor = _first_title(home)
        text = home.read_text(encoding="utf-8")
        results["YAML word (content/fr/home.yaml)"] = edits(
            page,
            count,
            lambda i: home.write_text(text.replace(anchor, f"{anchor} Y{i}x", 1), encoding="utf-8"),
            lambda i: drive.shows(f"{anchor} Y{i}x"),
        )
        home.write_text(text, encoding="utf-8")
        style = repo / "assets/styles/home.css"
        css = style.read_text(encoding="utf-8")
        results["style (assets/styles/home.css)"] = edits(
            page,
            count,
            lambda i: style.write_text(css + f"\n.site {{ outline: 1px solid rgb(1, 2, {i + 3}); }}\n"),
            lambda i: f"getComputedStyle(document.querySelector('.site')).outlineColor === 'rgb(1, 2, {i + 3})'",
        )
        style.write_text(css)
        page.goto(base + "/accessibilite")
        markdown = repo / "marketing_site/content/fr/accessibility.md"
        source = markdown.read_text(encoding="utf-8")
        sentence = _first_sentence(source)
        page.wait_for_function(drive.shows(sentence))
        results["Markdown sentence (content/fr/accessibility.md)"] = edits(
            page,
            count,
            lambda i: markdown.write_text(source.replace(sentence, f"{sentence} M{i}x", 1), encoding="utf-8"),
            lambda i: drive.shows(f"{sentence} M{i}x"),
        )
        markdown.write_text(source, encoding="utf-8")
        page.goto(base + "/a-propos")
        hero = repo / "marketing_site/pages/about/hero.py"
        code = hero.read_text(encoding="utf-8")
        line = '        eyebrow=text["eyebrow"],'
        page.wait_for_timeout(1000)
        results["Python (pages/about/hero.py)"] = edits(
            page,
            count,
            lambda i: hero.write_text(code.replace(line, f'        eyebrow=text["eyebrow"] + " P{i}x",', 1)),
            lambda i: drive.shows(f"P{i}x"),
        )
        hero.write_text(code)
        results["new page (routes.py and a package)"] = [_new_page(repo, base, browser, running)]
    finally:
        page.close()
        running.stop()
        keep_output("site", "fresh clone and edits", running)
    # The first start after the session: it compiles what the session left changed (the new page).
    # The next ones are a maintainer's every morning: nothing changed since the loop stopped.
    results.update(warm_starts("site", start, base + "/", "Nereo", browser, site_settled))
    return results


def site_settled(running) -> None:
    """The loop has imported the app and compiled what changed while it was stopped: stopped
    sooner, it compiles the same pages again at the next start, which is then no longer one
    with nothing changed."""
    running.wait_for(r"Backend running at", 600)  # released: the worker imports the app meanwhile
    time.sleep(3)
    compiling = [i for i, line in enumerate(running.lines) if line.startswith("make dev: compiling")]
    if compiling:
        running.wait_for(r"pages up to date|updated in", 600, since=compiling[-1])


def _first_title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("title:") and len(line.split(":", 1)[1].strip()) > 8:
            return line.split(":", 1)[1].strip().strip("'\"")
    raise SystemExit(f"{path}: no title to edit")


def _first_sentence(source: str) -> str:
    body = source.split("---", 2)[2]
    for line in body.splitlines():
        # Words that French typography leaves as written (no space before ':', ';', '!'...).
        if line and line[0].isupper() and len(line) > 40 and not set(line[:30]) & set("{[*:;!?%«»°`"):
            return line[:30].rstrip()
    raise SystemExit("no sentence to edit")


def _new_page(repo: Path, base: str, browser, running) -> float:
    package = repo / "marketing_site/pages/partners"
    package.mkdir()
    (package / "__init__.py").write_text(
        '"""Partners."""\n\nimport reflex as rx\n\n\ndef page(lang: str) -> rx.Component:\n'
        '    return rx.el.section(rx.el.h1("Nos partenaires BENCHPAGE"))\n'
    )
    for lang in ("fr", "en"):
        meta = repo / f"marketing_site/content/{lang}/meta.yaml"
        meta.write_text(meta.read_text() + "partners:\n  title: Partners | {{brand}}\n  description: Partners.\n")
    time.sleep(3)  # the loop has compiled the words; now the route table
    routes = repo / "marketing_site/routes.py"
    started = time.monotonic()
    drive.edit(routes, "SUBSCRIPTION = Page(", 'PARTNERS = Page("partners", fr="/partenaires")\nSUBSCRIPTION = Page(')
    drive.edit(routes, "    SUBSCRIPTION,\n    CONSOLE,", "    SUBSCRIPTION,\n    PARTNERS,\n    CONSOLE,")
    drive.open_when_serving(browser, base + "/partenaires", "BENCHPAGE", 120).close()
    return time.monotonic() - started


def floor_runs(root: Path, count: int, browser) -> dict[str, object]:
    results: dict[str, object] = {}
    directory = root / "floor"
    module = drive.write_floor_app(directory)
    base = f"http://127.0.0.1:{FLOOR_PORTS[0]}"
    start = lambda: drive.start_floor(directory, *FLOOR_PORTS)
    wall, cpu, running, page = cold_start(start, base + "/", "FLOOR_TEXT", browser)
    results["start, fresh clone"] = (wall, cpu)
    print(f"floor, fresh clone: first page after {wall:.1f} s ({cpu:.1f} CPU s)", flush=True)
    try:
        code = module.read_text()
        results["Python (pages/about/hero.py)"] = edits(
            page,
            count,
            lambda i: module.write_text(code.replace("FLOOR_TEXT", f"FLOOR_TEXT F{i}x")),
            lambda i: drive.shows(f"FLOOR_TEXT F{i}x"),
        )
        module.write_text(code)
    finally:
        page.close()
        running.stop()
        keep_output("floor", "fresh clone and edits", running)
    results.update(warm_starts("floor", start, base + "/", "FLOOR_TEXT", browser))
    return results


def report(site: dict[str, object], floor: dict[str, object], count: int) -> None:
    print()
    print(f"{'':52} {'one-page app (floor)':>24} {'make dev':>24}")
    print("-" * 102)
    for key in ("start, fresh clone", *WARM_STARTS):
        cells = []
        for results in (floor, site):
            value = results.get(key)
            cells.append(f"{value[0]:.1f} s ({value[1]:.1f} CPU s)" if value else "—")
        ratio = ""
        if floor.get(key) and site.get(key):
            ratio = f"  × {site[key][0] / floor[key][0]:.2f} wall, × {site[key][1] / floor[key][1]:.2f} CPU"
        print(f"{'cold start to the first page, ' + key:52} {cells[0]:>24} {cells[1]:>24}{ratio}")
    for key in (k for k in site if not k.startswith("start")):
        cells = []
        for results in (floor, site):
            times = results.get(key)
            cells.append(f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s" if times else "—")
        label = f"save → visible, {key} ×{len(site[key])}"  # type: ignore[arg-type]  # a list of times
        print(f"{label:52} {cells[0]:>24} {cells[1]:>24}")
    print(f"\n{count} edits per kind, {time.strftime('%Y-%m-%d %H:%M')}, load average {_load()}")


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--no-floor", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-dev-") as temporary, drive.chromium() as browser:
        root = Path(temporary)
        floor = {} if args.no_floor else floor_runs(root, args.edits, browser)
        site = site_runs(root, args.edits, browser)
        report(site, floor, args.edits)
    return 0


if __name__ == "__main__":
    sys.exit(main())
