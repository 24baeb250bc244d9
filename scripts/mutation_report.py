"""The mutation score of each module `make mutate` mutated, and every mutant that survived.

Reads what mutmut left in mutants/ (one `<module>.py.meta` JSON file per mutated module: the
exit code of the tests run against each mutant) and prints, per module, how many mutants the
fast tests killed out of those they could judge, then the changed lines of each survivor (from the
mutated module and mutmut's index of its functions, `<module>.py.spans`; `mutmut show` where there
is none, which takes seconds a mutant).
A mutant no fast test reaches ("no tests") counts as a survivor: only a slow lane could catch it.
Prints only; exits 0 whatever the score (a benchmark of the tests, not a gate).
"""

from __future__ import annotations

import difflib
import json
import re
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
    kinds: dict[str, int] = {}
    for name in survivors:
        changed = changed_lines(name)
        kind = observability(changed)
        kinds[kind or "other"] = kinds.get(kind or "other", 0) + 1
        print(f"{name}: {'[' + kind + '] ' if kind else ''}{changed}")
    if survivors:
        # A log line's text or a metric's label is what operators read, not a protection of anyone:
        # counted apart so that the survivors left to judge stand out.
        print("survivors by kind: " + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items())))
    return 0


def observability(changed: str) -> str:
    """`log` or `metric` when every changed line of a mutant is a log call or a metric's label."""
    lines = [line[2:] for line in changed.split(" | ") if line[:2] in ("- ", "+ ")]
    if lines and all(re.match(r"(log|logger)\.(debug|info|warning|error|exception)\(", line) for line in lines):
        return "log"
    if lines and all(line.startswith("metrics.") for line in lines):
        return "metric"
    return ""


def changed_lines(name: str) -> str:
    """`- original | + mutated` lines of one mutant."""
    module, _, function = name.rpartition(".")
    mutated = MUTANTS / (module.replace(".", "/") + ".py")
    spans_file = Path(str(mutated) + ".spans")
    original = function.split("__mutmut_")[0] + "__mutmut_orig"
    spans = json.loads(spans_file.read_text())["spans"] if spans_file.is_file() else {}
    if function not in spans or original not in spans:
        mutmut = Path(sys.executable).parent / "mutmut"
        shown = subprocess.run([str(mutmut), "show", name], capture_output=True, text=True, check=False)
        return shown.stdout.strip() or shown.stderr.strip()
    lines = mutated.read_text().splitlines()

    def body(key: str) -> list[str]:
        start, end = spans[key]
        return [line.replace(key, original) for line in lines[start - 1 : end]]

    diff = difflib.unified_diff(body(original), body(function), lineterm="", n=0)
    return " | ".join(
        line[0] + " " + line[1:].strip() for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")
    )


if __name__ == "__main__":
    raise SystemExit(main())
