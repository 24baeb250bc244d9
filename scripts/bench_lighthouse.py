"""Benchmark (not a test): Lighthouse 12.8.2 on every route of the production build.

Serves the production build on loopback (as `make run` does), then runs Lighthouse
(npm, in .tools/) with Debian's Chromium:
  - every route once with the mobile default;
  - the four key pages (French and English home, pricing, the premium-portal feature page)
    RUNS times each (median), mobile and `--preset=desktop`.
Prints one table with the goals beside the figures and writes the raw figures as JSON.

    make bench                        # or: .venv/bin/python scripts/bench_lighthouse.py
    RUNS=3 .venv/bin/python scripts/bench_lighthouse.py --routes / /en/
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

from marketing_site import routes  # noqa: E402
from servers import SiteServer, free_port  # noqa: E402

LIGHTHOUSE = ROOT / ".tools" / "node_modules" / ".bin" / "lighthouse"
OUTPUT = ROOT / "bench-results" / "lighthouse.json"
KEY_PAGES = [routes.HOME.fr, routes.HOME.en, routes.PRICING.fr, routes.FEATURE_PORTAL.fr]
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync"
)
GOALS = {
    "performance": "≥95 (key pages: median 100)",
    "others": "100",
    "desktop": "100",
    "bytes": "≤250 KB",
    "js": "≤150 KB",
    "cls": "≤0.01",
}


def run_lighthouse(url: str, desktop: bool) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [
            str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out.name}",
            f"--chrome-flags={CHROME_FLAGS}", "--only-categories=performance,accessibility,best-practices,seo",
        ]
        if desktop:
            command.append("--preset=desktop")
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


def median_run(url: str, desktop: bool, runs: int) -> dict:
    results = [run_lighthouse(url, desktop) for _ in range(runs)]
    by_perf = sorted(results, key=lambda r: r["scores"]["performance"])
    chosen = by_perf[len(by_perf) // 2]  # the run with the median performance score
    chosen["runs"] = runs
    chosen["performance_runs"] = [r["scores"]["performance"] for r in results]
    return chosen


def row(label: str, r: dict) -> str:
    s = r["scores"]
    return (
        f"{label:<58} {s['performance']:>4} {s['accessibility']:>4} {s['best-practices']:>4} {s['seo']:>4} "
        f"{r['fcp_ms'] / 1000:>5.2f} {r['lcp_ms'] / 1000:>5.2f} {r['tbt_ms']:>5.0f} {r['cls']:>6.3f} "
        f"{r['bytes'] / 1000:>7.1f} {r['js_bytes'] / 1000:>6.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--routes", nargs="*", help="only these routes (default: every route)")
    parser.add_argument("--runs", type=int, default=int(os.environ.get("RUNS", "5")))
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        print("Lighthouse is missing: run `make bench` (it installs lighthouse@12.8.2).", file=sys.stderr)
        return 1
    paths = args.routes or routes.all_paths()
    key_pages = [p for p in KEY_PAGES if p in paths]
    server = SiteServer(int(os.environ.get("PORT", free_port())), Path(tempfile.mkdtemp(prefix="bench-")))
    server.migrate()
    server.start()
    results: dict[str, dict] = {}
    try:
        for path in paths:
            url = server.url + quote(path, safe="/")
            results[f"mobile {path}"] = (
                median_run(url, False, args.runs) if path in key_pages else run_lighthouse(url, False)
            )
        for path in key_pages:
            results[f"desktop {path}"] = median_run(server.url + quote(path, safe="/"), True, args.runs)
    finally:
        server.stop()

    header = f"{'route':<58} {'perf':>4} {'a11y':>4} {'bp':>4} {'seo':>4} {'FCP s':>5} {'LCP s':>5} {'TBT':>5} {'CLS':>6} {'KB':>7} {'JS KB':>6}"
    print(header)
    print("-" * len(header))
    for label, r in results.items():
        print(row(label, r) + ("  (median of %d)" % r["runs"] if "runs" in r else ""))
    print("-" * len(header))
    print("goals: " + "; ".join(f"{k} {v}" for k, v in GOALS.items()))
    mobile = [r for k, r in results.items() if k.startswith("mobile")]
    desktop = [r for k, r in results.items() if k.startswith("desktop")]
    summary = {
        "min mobile performance": min(r["scores"]["performance"] for r in mobile),
        "key pages median mobile performance": [r["scores"]["performance"] for k, r in results.items()
                                                if k.startswith("mobile") and "runs" in r],
        "min desktop performance": min((r["scores"]["performance"] for r in desktop), default=None),
        "min accessibility/best-practices/seo": min(
            min(r["scores"]["accessibility"], r["scores"]["best-practices"], r["scores"]["seo"]) for r in mobile
        ),
        "max KB": round(max(r["bytes"] for r in mobile) / 1000, 1),
        "max JS KB": round(max(r["js_bytes"] for r in mobile) / 1000, 1),
        "max CLS": round(max(r["cls"] for r in mobile), 4),
    }
    for k, v in summary.items():
        print(f"{k}: {v}")
    OUTPUT.parent.mkdir(exist_ok=True)
    OUTPUT.write_text(json.dumps({"results": results, "summary": summary, "goals": GOALS}, indent=1))
    print(f"JSON: {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
