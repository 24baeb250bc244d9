"""The Makefile's targets are there: a name in `.PHONY`, or a `make <target>` the documentation or
CI names, without a rule is a command that does nothing and exits 0 (`make release` and
`make audit` were once deleted that way, and `.ci/run`'s audit ran nothing).

The Makefile is read as text: `make -n` still runs recipe lines that contain $(MAKE), and
`release` calls `$(MAKE) build` (a real frontend build).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

from servers import BIN, ROOT

MAKEFILE = ROOT / "Makefile"


def logical_lines(text: str) -> list[str]:
    """The Makefile's lines with backslash continuations joined."""
    return re.sub(r"[ \t]*\\\n\s*", " ", text).splitlines()


def rules(text: str) -> dict[str, list[str]]:
    """Each explicit target, with its recipe lines (the tab-led lines after it)."""
    found: dict[str, list[str]] = {}
    current: list[str] = []  # the targets of the rule being read
    for line in logical_lines(text):
        if line.startswith("\t"):
            for target in current:
                found[target].append(line.strip())
            continue
        # "target another: prerequisites", not "NAME := value" or "NAME = a:b".
        rule = re.match(r"([^\s#:=][^:=#]*?)\s*:(?![=:])", line)
        if rule is None:
            # Blank and comment lines may sit among a recipe's lines; anything else ends it.
            if line.strip() and not line.lstrip().startswith("#"):
                current = []
            continue
        # Special targets (.PHONY, .SUFFIXES, ...) are not rules of their own.
        current = [name for name in rule.group(1).split() if not re.fullmatch(r"\.[A-Z_]+", name)]
        for target in current:
            found.setdefault(target, [])
    return found


def phony(text: str) -> list[str]:
    return [
        name for line in logical_lines(text) if line.startswith(".PHONY:") for name in line.split(":", 1)[1].split()
    ]


def mentioned_targets() -> dict[str, set[str]]:
    """`make <target>` in the code of the documentation (inline code and fenced blocks) and in
    `.ci/run`, by file."""
    mentions: dict[str, set[str]] = {}
    documents = [ROOT / "README.md", ROOT / "deploy" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for path in [*documents, ROOT / ".ci" / "run"]:
        text = path.read_text()
        if path.suffix == ".md":
            fenced = re.findall(r"(?ms)^```[^\n]*\n(.*?)^```", text)
            inline = re.findall(r"`([^`\n]+)`", re.sub(r"(?ms)^```.*?^```", "", text))
            text = "\n".join(fenced + inline)
        targets = set(re.findall(r"(?<![\w$(-])make ([a-z][\w-]*)", text))
        if targets:
            mentions[str(path.relative_to(ROOT))] = targets
    return mentions


def test_the_rule_reader_reads_targets_and_recipes():
    text = (
        "PORT ?= 8000\nURL = http://127.0.0.1:8000/x\nexport PATH := a:b\n.PHONY: one two\n"
        "one: two\n\techo one \\\n\t  continued\n# a comment\n\ttwo-still\n$(VENV)/.installed two: x\n\techo two\n"
    )
    found = rules(text)
    assert sorted(found) == ["$(VENV)/.installed", "one", "two"]
    assert found["one"] == ["echo one continued", "two-still"]
    assert found["two"] == ["echo two"]
    assert phony(text) == ["one", "two"]


def test_every_phony_name_has_a_rule():
    text = MAKEFILE.read_text()
    names = phony(text)
    assert {"run", "test", "release", "audit", "lint"} <= set(names)
    assert [name for name in names if name not in rules(text)] == []


def test_every_make_target_the_documentation_and_ci_name_exists():
    defined = rules(MAKEFILE.read_text())
    mentions = mentioned_targets()
    # The reader finds them where they are: the two commands, CI's gate and the release.
    assert {"run", "test"} <= mentions["README.md"]
    assert {"audit", "lint", "test"} <= mentions[".ci/run"]
    assert "release" in mentions["deploy/README.md"]
    missing = {path: sorted(t for t in targets if t not in defined) for path, targets in mentions.items()}
    assert {path: targets for path, targets in missing.items() if targets} == {}


def test_release_builds_then_packs_with_the_release_script():
    recipe = rules(MAKEFILE.read_text())["release"]
    build = next(i for i, line in enumerate(recipe) if re.search(r"\$\(MAKE\).* build\b", line))
    pack = next(i for i, line in enumerate(recipe) if "scripts/release.py" in line)
    assert build < pack


def test_audit_runs_the_loud_audit_script():
    recipe = rules(MAKEFILE.read_text())["audit"]
    assert any("scripts/audit.py" in line for line in recipe)


def test_lint_fails_a_dev_package_imported_by_the_code_a_server_runs(tmp_path):
    """`make lint`'s deptry lines on a small tree with this pyproject.toml: a dev package imported
    by the site, a migration or the release's nginx_maps.py is reported; by tests/ or a
    development script it is not."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    files = {
        "marketing_site/__init__.py": "",
        "marketing_site/leak.py": "import playwright\n",
        "alembic/env.py": "import pytest\n",
        "scripts/nginx_maps.py": "import pypdf\n",
        "scripts/make_cards.py": "import fpdf\n",
        "tests/test_pages.py": "import hypothesis\nimport pytest\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    lines = [line for line in rules(MAKEFILE.read_text())["lint"] if "/deptry " in line]
    assert len(lines) == 2

    def deptry(line: str) -> subprocess.CompletedProcess:
        command = line.replace("$(BIN)", str(BIN)) + " --no-ansi"
        return subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, check=False)

    said = "".join(done.stdout + done.stderr for done in map(deptry, lines))
    misplaced = sorted(re.findall(r"^(\S+?):\d+:\d+: DEP004 '(\w+)'", said, re.MULTILINE))
    assert misplaced == [
        ("alembic/env.py", "pytest"),
        ("marketing_site/leak.py", "playwright"),
        ("scripts/nginx_maps.py", "pypdf"),
    ], said
    # tests/ is read too (deptry's default leaves it out): an undeclared import there is reported.
    (tmp_path / "tests" / "test_pages.py").write_text("import not_a_declared_package\n")
    done = deptry(lines[0])
    said = done.stdout + done.stderr
    assert done.returncode != 0
    assert "tests/test_pages.py:1:8: DEP001 'not_a_declared_package'" in said, said


def test_lint_fails_a_lock_out_of_step_with_pyproject(tmp_path):
    [line] = [line for line in rules(MAKEFILE.read_text())["lint"] if line.startswith("$(UV) lock")]
    command = line.replace("$(UV)", str(ROOT / ".tools" / "uv" / "bin" / "uv"))
    for name in ("pyproject.toml", "uv.lock", ".python-version", "README.md"):
        shutil.copy(ROOT / name, tmp_path)

    def check() -> subprocess.CompletedProcess:
        return subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, text=True, check=False)

    assert check().returncode == 0
    pyproject = tmp_path / "pyproject.toml"
    # A looser bound, which the locked pytest still meets: the lock records the bounds too.
    loosened = re.sub(r'"pytest>=[^"]+"', '"pytest>=1.0"', pyproject.read_text(), count=1)
    assert loosened != pyproject.read_text()
    pyproject.write_text(loosened)
    done = check()
    assert done.returncode != 0
    assert "needs to be updated" in done.stderr


# Calls Reflex's own check of its latest version with the network replaced by a recorder: prints
# whether it would have asked PyPI.
VERSION_PROBE = """
import reflex.utils.net as net
import reflex.utils.prerequisites as prerequisites
asked = []
def recorded(url, **kwargs):
    asked.append(url)
    raise OSError("offline")
net.get = recorded
prerequisites.check_latest_package_version("reflex")
print("asked PyPI" if asked else "did not ask")
"""


def test_make_build_does_not_look_up_the_latest_reflex_on_the_internet(tmp_path):
    """`make build` (reflex export, which initialises a fresh web folder) and `make run` would ask
    PyPI for Reflex's latest version. The probe runs Reflex's check in a recipe of this Makefile,
    with the environment every recipe (build's included) gets, and on a fresh web folder, where
    nothing recent is recorded: it must not ask. Without the Makefile's environment it does."""
    env = {k: v for k, v in os.environ.items() if k != "REFLEX_CHECK_LATEST_VERSION"}
    env.update(REFLEX_WEB_WORKDIR=str(tmp_path / "web"), VERSION_PROBE=VERSION_PROBE)
    (tmp_path / "web").mkdir()
    probe = 'version-probe: ; @$(BIN)/python -c "$$VERSION_PROBE"'
    through_make = subprocess.run(
        ["make", "--no-print-directory", "-s", "--eval", probe, "version-probe"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert through_make.stdout.strip() == "did not ask", through_make.stdout + through_make.stderr
    alone = subprocess.run(
        [str(BIN / "python"), "-c", VERSION_PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert alone.stdout.strip() == "asked PyPI", alone.stdout + alone.stderr
