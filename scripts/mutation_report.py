"""The mutation score of each module `make mutate` mutated, and every mutant that survived.

Reads what mutmut left in mutants/ (one `<module>.py.meta` JSON file per mutated module: the
exit code of the tests run against each mutant) and prints, per module, how many mutants the
fast tests killed out of those they could judge, then the diff of each survivor (`mutmut show`).
A mutant no fast test reaches ("no tests") counts as a survivor: only a slow lane could catch it.
Prints only; exits 0 whatever the score (a benchmark of the tests, not a gate).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

MUTANTS = Path("mutants")
# mutmut's exit codes (mutmut/stats.py): the tests failed (killed) or passed (survived).
KILLED = {1, 3, 36, -24, 24, 152, 255, 37}  # a timeout or a type-check failure kills it too
SURVIVED = {0, 5, 33}  # 5 and 33: no test reached the mutated function


def main() -> int:
    metas = sorted(MUTANTS.rglob("*.py.meta"))
    if not metas:
        print("no mutants: run `make mutate` first")
        return 0
    survivors: list[str] = []
    total_killed = total_judged = 0
    print(f"{'module':<48} {'killed':>7} {'judged':>7} {'score':>7}  not checked")
    for meta in metas:
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        killed = [name for name, code in codes.items() if code in KILLED]
        lived = [name for name, code in codes.items() if code in SURVIVED]
        unchecked = len(codes) - len(killed) - len(lived)
        judged = len(killed) + len(lived)
        module = meta.relative_to(MUTANTS).as_posix().removesuffix(".meta")
        score = f"{100 * len(killed) / judged:.1f}%" if judged else "-"
        print(f"{module:<48} {len(killed):>7} {judged:>7} {score:>7}  {unchecked}")
        total_killed += len(killed)
        total_judged += judged
        survivors += sorted(lived)
    if total_judged:
        print(f"{'all':<48} {total_killed:>7} {total_judged:>7} {100 * total_killed / total_judged:>6.1f}%")
    print(f"\n{len(survivors)} surviving mutant(s)")
    mutmut = Path(sys.executable).parent / "mutmut"
    for name in survivors:
        shown = subprocess.run([str(mutmut), "show", name], capture_output=True, text=True, check=False)
        print(shown.stdout.rstrip() or f"# {name}: {shown.stderr.strip()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
