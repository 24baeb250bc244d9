"""Known vulnerabilities in the locked packages, with a count of what was really checked (`make audit`).

    .venv/bin/python scripts/audit.py REQUIREMENTS_FILE

pip-audit skips a package whose advisory data it cannot fetch (PyPI's per-version JSON answering
404, as it does through a registry proxy) and still prints "No known vulnerabilities found" and
exits 0, even when it skipped every package. This runs it with `--format json` and prints one
line: packages audited, not audited, known vulnerabilities. It exits 1 on any vulnerability, and 2
when a package could not be audited, unless AUDIT_UNREACHABLE_OK=1 (a machine with no route to
the advisory data), which turns that into a WARNING naming how many were not audited and why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Audit:
    """What one pip-audit JSON report says."""

    audited: list[str] = field(default_factory=list)  # "name version"
    # name -> pip-audit's skip reason ("Dependency not found on PyPI and could not be audited: name (1.2)")
    skipped: dict[str, str] = field(default_factory=dict)
    vulnerabilities: list[str] = field(default_factory=list)  # "name version: ID (aliases), fixed in …"


def read_report(report: dict) -> Audit:
    """pip-audit's JSON format (pip_audit/_format/json.py): {"dependencies": [{"name", "version",
    "vulns": [{"id", "fix_versions", "aliases"?, "description"?}]} or {"name", "skip_reason"}],
    "fixes": [...]}."""
    audit = Audit()
    for dependency in report["dependencies"]:
        name = dependency["name"]
        if "skip_reason" in dependency:
            audit.skipped[name] = dependency["skip_reason"]
            continue
        audit.audited.append(f"{name} {dependency['version']}")
        for vulnerability in dependency["vulns"]:
            aliases = vulnerability.get("aliases") or []
            fixed = ", ".join(vulnerability["fix_versions"]) or "no fixed version"
            also = f" ({', '.join(aliases)})" if aliases else ""
            audit.vulnerabilities.append(
                f"{name} {dependency['version']}: {vulnerability['id']}{also}, fixed in {fixed}"
            )
    return audit


def reasons(audit: Audit) -> str:
    """Why packages were not audited, the same reason counted once: pip-audit's reason up to the
    package it names ("Dependency not found on PyPI and could not be audited (130)")."""
    counted = Counter(reason.split(":")[0].strip() for reason in audit.skipped.values())
    return "; ".join(f"{reason} ({count})" for reason, count in counted.most_common())


def verdict(audit: Audit, unreachable_ok: bool) -> tuple[int, list[str]]:
    """The exit status and the lines to print."""
    total = len(audit.audited) + len(audit.skipped)
    counts = f"{len(audit.skipped)} not audited, {len(audit.vulnerabilities)} known vulnerabilities"
    lines = [f"audit: {len(audit.audited)} of {total} packages audited, {counts}"]
    lines += [f"  vulnerable: {line}" for line in audit.vulnerabilities]
    status = 1 if audit.vulnerabilities else 0
    if audit.skipped:
        if unreachable_ok:
            lines.append(
                f"WARNING: {len(audit.skipped)} of {total} packages were NOT audited for known vulnerabilities "
                f"(AUDIT_UNREACHABLE_OK=1: no route to the advisory data here): {reasons(audit)}"
            )
        else:
            lines.append(f"not audited: {', '.join(sorted(audit.skipped))}")
            lines.append(
                f"audit: {len(audit.skipped)} of {total} packages could not be audited: {reasons(audit)}. "
                "Run it where PyPI's JSON API (https://pypi.org/pypi/<name>/<version>/json) answers, or set "
                "AUDIT_UNREACHABLE_OK=1 to accept that on this machine."
            )
            status = status or 2
    return status, lines


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    command = [sys.executable, "-m", "pip_audit", "--requirement", sys.argv[1], "--no-deps", "--disable-pip"]
    command += ["--progress-spinner", "off", "--format", "json", "--desc", "off", "--aliases", "on"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        # pip-audit failed before it could report (a bad requirement, no connection at all).
        print(done.stdout + done.stderr, file=sys.stderr)
        print(f"audit: pip-audit exited {done.returncode} without a report", file=sys.stderr)
        return done.returncode or 2
    status, lines = verdict(read_report(report), os.environ.get("AUDIT_UNREACHABLE_OK") == "1")
    print("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
