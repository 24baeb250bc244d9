"""Evaluate every page of the route table without a frontend build (a quick smoke check).

Usage: .venv/bin/python scripts/check_pages.py [page_key ...]
Renders each page body inside the layout in both of its languages and reports errors.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from marketing_site import routes
from marketing_site.components.layout import site_layout
from marketing_site.page_table import page_module


def main(keys: list[str]) -> int:
    failures = 0
    for page in routes.PAGES:
        if keys and page.key not in keys:
            continue
        for lang, path in page.paths():
            try:
                site_layout(path, page_module(page.key).page(lang)).render()
            except Exception:  # noqa: BLE001 - report every page, then fail
                failures += 1
                print(f"FAIL {path}")
                traceback.print_exc()
            else:
                print(f"ok   {path}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
