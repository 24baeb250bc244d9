"""`make audit` (scripts/audit.py) says how many packages it really checked: pip-audit alone prints
"No known vulnerabilities found" and exits 0 when it could audit none of them.

The reports are pip-audit's own JSON, made by its formatter from its own result types (and one as
this machine's registry proxy gets it), so a change of the format on a pip-audit upgrade fails here.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest
from packaging.version import Version
from pip_audit._format.json import JsonFormat
from pip_audit._service.interface import ResolvedDependency, SkippedDependency, VulnerabilityResult
from servers import BIN, ROOT

SCRIPT = ROOT / "scripts" / "audit.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("audit_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


audit = _load_script()

NOT_FOUND = "Dependency not found on PyPI and could not be audited: {} ({})"


def report(result: dict) -> dict:
    """pip-audit's JSON report of `result` (dependency -> vulnerabilities), as `--format json` prints it."""
    return json.loads(JsonFormat(output_desc=False, output_aliases=True).format(result, []))


def resolved(name: str, version: str) -> ResolvedDependency:
    return ResolvedDependency(name=name, version=Version(version))


def skipped(name: str, version: str) -> SkippedDependency:
    return SkippedDependency(name=name, skip_reason=NOT_FOUND.format(name, version))


REQUESTS_CVE = VulnerabilityResult(
    id="PYSEC-2018-28",
    description="",
    fix_versions=[Version("2.20.0")],
    aliases={"CVE-2018-18074"},
)
# What this machine's registry proxy gives pip-audit: a 404 for every per-version JSON document.
PROXY_REPORT = {
    "dependencies": [
        {"name": "aiosmtpd", "skip_reason": NOT_FOUND.format("aiosmtpd", "1.4.6")},
        {"name": "alembic", "skip_reason": NOT_FOUND.format("alembic", "1.20.1")},
        {"name": "anyio", "skip_reason": NOT_FOUND.format("anyio", "4.16.0")},
    ],
    "fixes": [],
}


def test_every_package_audited_and_clean_passes_quietly():
    status, lines = audit.verdict(
        audit.read_report(report({resolved("alembic", "1.20.1"): [], resolved("anyio", "4.16.0"): []})), False
    )
    assert status == 0
    assert lines == ["audit: 2 of 2 packages audited, 0 not audited, 0 known vulnerabilities"]


@pytest.mark.parametrize("unreachable_ok", [False, True])
def test_a_vulnerability_fails_whatever_the_machine(unreachable_ok):
    result = {resolved("requests", "2.19.0"): [REQUESTS_CVE], resolved("anyio", "4.16.0"): []}
    status, lines = audit.verdict(audit.read_report(report(result)), unreachable_ok)
    assert status == 1
    assert lines == [
        "audit: 2 of 2 packages audited, 0 not audited, 1 known vulnerabilities",
        "  vulnerable: requests 2.19.0: PYSEC-2018-28 (CVE-2018-18074), fixed in 2.20.0",
    ]


def test_packages_not_audited_fail_by_default():
    status, lines = audit.verdict(audit.read_report(PROXY_REPORT), False)
    assert status == 2
    assert lines[0] == "audit: 0 of 3 packages audited, 3 not audited, 0 known vulnerabilities"
    assert lines[1] == "not audited: aiosmtpd, alembic, anyio"
    assert "3 of 3 packages could not be audited: Dependency not found on PyPI and could not be audited (3)" in lines[2]


def test_packages_not_audited_pass_with_a_warning_where_allowed():
    result = {skipped("alembic", "1.20.1"): [], resolved("anyio", "4.16.0"): []}
    status, lines = audit.verdict(audit.read_report(report(result)), True)
    assert status == 0
    assert lines == [
        "audit: 1 of 2 packages audited, 1 not audited, 0 known vulnerabilities",
        (
            "WARNING: 1 of 2 packages were NOT audited for known vulnerabilities (AUDIT_UNREACHABLE_OK=1: no route "
            "to the advisory data here): Dependency not found on PyPI and could not be audited (1)"
        ),
    ]


def test_the_proxy_report_is_what_pip_audit_writes_for_skipped_packages():
    assert report(
        {skipped("aiosmtpd", "1.4.6"): [], skipped("alembic", "1.20.1"): [], skipped("anyio", "4.16.0"): []}
    ) == (PROXY_REPORT)


def test_a_vulnerable_package_never_passes_in_silence(tmp_path):
    """The real pip-audit on a package with known vulnerabilities: where PyPI's advisory data
    answers, they fail the audit; where it does not (this machine), the package is not audited,
    and that fails it too (AUDIT_UNREACHABLE_OK unset)."""
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("requests==2.19.0\n")  # PYSEC-2018-28, CVE-2023-32681
    env = {k: v for k, v in os.environ.items() if k != "AUDIT_UNREACHABLE_OK"}
    done = subprocess.run(
        [str(BIN / "python"), str(SCRIPT), str(requirements)], env=env, capture_output=True, text=True, check=False
    )
    said = done.stdout + done.stderr
    if "1 not audited" in done.stdout:
        assert done.returncode == 2, said
        assert "1 of 1 packages could not be audited" in done.stdout
    else:
        assert done.stdout.startswith("audit: 1 of 1 packages audited, 0 not audited"), said
        assert done.returncode == 1, said
