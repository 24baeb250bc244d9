"""Benchmark (not a test): Lighthouse 12.8.2 on the indexable routes of the production build.

Serves the production build on loopback (as `make run` does), then runs Lighthouse
(npm, in .tools/) with Debian's Chromium, mobile default profile:
  - every indexable route and the three thank-you pages, median of RUNS_OTHER runs (3), the four key pages (French and
    English home, pricing, the premium-portal feature page) median of RUNS (5);
  - beside each, its "no-JavaScript twin": the same page with `--blocked-url-patterns=*.js`,
    the floor the first paint can reach; the ratio of the two FCPs shows what scripts cost;
  - the key pages once more with `--preset=desktop`.
Prints one table with the goals beside the figures and writes the raw figures as JSON.

    make bench                        # or: .venv/bin/python scripts/bench_lighthouse.py
    RUNS=3 .venv/bin/python scripts/bench_lighthouse.py --routes / /en/
    .venv/bin/python scripts/bench_lighthouse.py --all       # also the noindex pages
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from servers import SiteServer, free_port

from marketing_site import routes

LIGHTHOUSE = ROOT / ".tools" / "node_modules" / ".bin" / "lighthouse"
OUTPUT = ROOT / "bench-results" / "lighthouse.json"
KEY_PAGES = [routes.HOME.fr, routes.HOME.en, routes.PRICING.fr, routes.FEATURE_PORTAL.fr]
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync"
)
GOALS = {
    "performance": "100 on every indexable route (median)",
    "fcp ratio": "≤1.15 × the no-JavaScript twin",
    "tbt": "≤50 ms",
    "cls": "0",
    "js": "≤150 KB transferred",
    "others": "100",
    "desktop": "100",
}
FCP_RATIO_GOAL = 1.15


def run_lighthouse(url: str, desktop: bool, block_js: bool = False) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out.name}",
            f"--chrome-flags={CHROME_FLAGS}",
            "--only-categories=performance,accessibility,best-practices,seo",
        ]
        if desktop:
            command.append("--preset=desktop")
        if block_js:
            command.append("--blocked-url-patterns=*.js")
        env = {**os.environ, "CHROME_PATH": "/usr/bin/chromium"}
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
        report = json.loads(Path(out.name).read_text())
    audits = report["audits"]
    requests = audits["network-requests"]["details"]["items"]
    return {
        "scores": {k: round(v["score"] * 100) for k, v in report["categories"].items()},
        "fcp_ms": audits["first-contentful-paint"]["numericValue"],
        "lcp_ms": audits["largest-contentful-paint"]["numericValue"],
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "bytes": audits["total-byte-weight"]["numericValue"],
        "js_bytes": sum(r.get("transferSize", 0) for r in requests if r.get("resourceType") == "Script"),
    }


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def median_run(url: str, desktop: bool, runs: int, block_js: bool = False) -> dict:
    """Each figure is the median over `runs` runs (bytes and CLS included)."""
    results = [run_lighthouse(url, desktop, block_js) for _ in range(runs)]
    merged = {
        "scores": {k: _median([r["scores"][k] for r in results]) for k in results[0]["scores"]},
        **{k: _median([r[k] for r in results]) for k in ("fcp_ms", "lcp_ms", "tbt_ms", "cls", "bytes", "js_bytes")},
    }
    merged["runs"] = runs
    merged["performance_runs"] = [r["scores"]["performance"] for r in results]
    merged["fcp_runs_ms"] = [round(r["fcp_ms"]) for r in results]
    return merged


HEADER = (
    f"{'route':<62} {'perf':>4} {'a11y':>4} {'bp':>4} {'seo':>4} {'FCP s':>5} {'LCP s':>5} {'TBT':>4} "
    f"{'CLS':>5} {'KB':>6} {'JS KB':>6} | {'noJS':>4} {'FCP s':>5} {'ratio':>5}  runs"
)


def row(label: str, r: dict, twin: dict | None = None) -> str:
    s = r["scores"]
    text = (
        f"{label:<62} {s['performance']:>4} {s['accessibility']:>4} {s['best-practices']:>4} {s['seo']:>4} "
        f"{r['fcp_ms'] / 1000:>5.2f} {r['lcp_ms'] / 1000:>5.2f} {r['tbt_ms']:>4.0f} {r['cls']:>5.3f} "
        f"{r['bytes'] / 1000:>6.1f} {r['js_bytes'] / 1000:>6.1f} | "
    )
    if twin is not None:
        text += f"{twin['scores']['performance']:>4} {twin['fcp_ms'] / 1000:>5.2f} {r['fcp_ms'] / twin['fcp_ms']:>5.2f}"
    else:
        text += f"{'':>4} {'':>5} {'':>5}"
    return text + f"  {r['runs']}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--routes", nargs="*", help="only these routes (default: every indexable route and the thank-you pages)"
    )
    parser.add_argument("--all", action="store_true", help="also the pages kept out of search engines")
    parser.add_argument("--runs", type=int, default=int(os.environ.get("RUNS", "5")), help="key pages")
    parser.add_argument("--runs-other", type=int, default=int(os.environ.get("RUNS_OTHER", "3")))
    parser.add_argument("--no-desktop", action="store_true")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        print("Lighthouse is missing: run `make bench` (it installs lighthouse@12.8.2).", file=sys.stderr)
        return 1
    # The thank-you pages are kept out of search engines, yet every converting visitor sees one.
    thanks = (routes.THANKS_EBOOK, routes.THANKS_WHITE_PAPER, routes.THANKS_DOCUMENTATION)
    measured = [p for page in routes.PAGES if page.indexable or page in thanks for _, p in page.paths()]
    paths = args.routes or (routes.all_paths() if args.all else measured)
    key_pages = [p for p in KEY_PAGES if p in paths]
    server = SiteServer(int(os.environ.get("PORT", free_port())), Path(tempfile.mkdtemp(prefix="bench-")))
    server.migrate()
    server.start()
    results: dict[str, dict] = {}
    twins: dict[str, dict] = {}
    try:
        for path in paths:
            url = server.url + quote(path, safe="/")
            runs = args.runs if path in key_pages else args.runs_other
            results[f"mobile {path}"] = median_run(url, False, runs)
            twins[f"mobile {path}"] = median_run(url, False, runs, block_js=True)
            print(row(f"mobile {path}", results[f"mobile {path}"], twins[f"mobile {path}"]), flush=True)
        if not args.no_desktop:
            for path in key_pages:
                results[f"desktop {path}"] = median_run(server.url + quote(path, safe="/"), True, args.runs)
    finally:
        server.stop()

    print()
    print(HEADER)
    print("-" * len(HEADER))
    for label, r in results.items():
        print(row(label, r, twins.get(label)))
    print("-" * len(HEADER))
    print("goals: " + "; ".join(f"{k} {v}" for k, v in GOALS.items()))
    mobile = {k: r for k, r in results.items() if k.startswith("mobile")}
    desktop = [r for k, r in results.items() if k.startswith("desktop")]
    ratios = {k: r["fcp_ms"] / twins[k]["fcp_ms"] for k, r in mobile.items()}
    summary = {
        "min mobile performance": min(r["scores"]["performance"] for r in mobile.values()),
        "routes below 100 on mobile": [k for k, r in mobile.items() if r["scores"]["performance"] < 100],
        "max FCP ratio to the no-JavaScript twin": round(max(ratios.values()), 2),
        "routes over the FCP ratio goal": [k for k, v in ratios.items() if v > FCP_RATIO_GOAL],
        "max TBT ms": round(max(r["tbt_ms"] for r in mobile.values())),
        "max CLS": round(max(r["cls"] for r in mobile.values()), 4),
        "max JS KB": round(max(r["js_bytes"] for r in mobile.values()) / 1000, 1),
        "max KB": round(max(r["bytes"] for r in mobile.values()) / 1000, 1),
        "min accessibility/best-practices/seo": min(
            min(r["scores"]["accessibility"], r["scores"]["best-practices"], r["scores"]["seo"])
            for r in mobile.values()
        ),
        "min desktop performance": min((r["scores"]["performance"] for r in desktop), default=None),
    }
    for k, v in summary.items():
        print(f"{k}: {v}")
    OUTPUT.parent.mkdir(exist_ok=True)
    OUTPUT.write_text(
        json.dumps({"results": results, "no_js_twins": twins, "summary": summary, "goals": GOALS}, indent=1)
    )
    print(f"JSON: {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
