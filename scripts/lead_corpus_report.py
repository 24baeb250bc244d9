"""Print how the lead form's rules treat the plausible-value corpus (tests/lead_corpus.py).

Usage: .venv/bin/python scripts/lead_corpus_report.py

Counts per field: plausible values accepted by the server's rules, and values refused (each
with the message the visitor sees next to the field, in French). The same corpus runs through
the real API and Chromium in tests/test_lead_api.py and tests/test_browser_leads.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from lead_corpus import ACCEPTED, BASE, REFUSED

from marketing_site.services.leads import validate_fields


def main() -> int:
    print(f"{'field':<10} {'plausible':>9} {'accepted':>8}   {'refused set':>11} {'refused':>7}")
    totals = [0, 0, 0, 0]
    wrong = []
    for field in BASE:
        good = ACCEPTED.get(field, [])
        bad = REFUSED.get(field, [])
        accepted = sum(validate_fields("ebook", {**BASE, field: v}).ok for v in good)
        refused = sum(field in validate_fields("ebook", {**BASE, field: v}).errors for v in bad)
        wrong += [(field, v) for v in good if not validate_fields("ebook", {**BASE, field: v}).ok]
        print(f"{field:<10} {len(good):>9} {accepted:>8}   {len(bad):>11} {refused:>7}")
        for i, n in enumerate((len(good), accepted, len(bad), refused)):
            totals[i] += n
    print(f"{'total':<10} {totals[0]:>9} {totals[1]:>8}   {totals[2]:>11} {totals[3]:>7}")
    print("\nrefused, with the message shown next to the field:")
    for field, values in REFUSED.items():
        for value in values:
            print(
                f"  {field:<9} {value!r:<45} {validate_fields('ebook', {**BASE, field: value}).errors.get(field, 'ACCEPTED')}"
            )
    if wrong:
        print("\nplausible values refused:", wrong)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
