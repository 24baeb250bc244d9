"""Every suppressed finding says why: a `# noqa: X` or `# type: ignore[x]` in a tracked Python file
is followed by its reason on the same line, and neither comes bare (all codes at once)."""

from __future__ import annotations

import io
import re
import subprocess
import tokenize

from servers import ROOT

# A suppression, what it names, and the text after it on its comment.
NOQA = re.compile(r"#\s*noqa(?P<codes>:\s*[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)?(?P<rest>.*)")
TYPE_IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[\w\-, ]+\])?(?P<rest>.*)")


def unexplained(source: str) -> list[tuple[int, str]]:
    """(line, comment) of each suppression in `source` without a reason after it. Comments only:
    a string that mentions `# noqa` is not one."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        comment = token.string
        # One comment may carry both kinds, one after the other, each with its reason or not.
        for pattern in (NOQA, TYPE_IGNORE):
            for match in pattern.finditer(comment):
                reason = re.sub(r"^[\s#(\-—:]+", "", match.group("rest"))
                reason = NOQA.sub("", TYPE_IGNORE.sub("", reason)).strip(" #()-—:")
                if not match.group("codes") or len(re.findall(r"[A-Za-z]", reason)) < 3:
                    found.append((token.start[0], comment))
    return found


def test_the_reader_tells_a_reason_from_none():
    source = (
        "import a  # noqa: F401  (registers the tables)\n"
        "import b  # noqa: F401\n"
        "import c  # noqa\n"
        "x = y  # type: ignore[attr-defined]  # a marker: installed once\n"
        "x = y  # type: ignore[attr-defined]\n"
        "x = y  # type: ignore\n"
        "x = y  # type: ignore[misc]  # noqa: B009\n"
        "except Exception:  # noqa: BLE001 — a malformed body is an invalid link\n"
        "text = '# noqa: F401'\n"
    )
    assert [line for line, _ in unexplained(source)] == [2, 3, 5, 6, 7]


def test_every_suppression_in_the_tracked_python_files_says_why():
    names = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    files = names.stdout.split()
    assert "marketing_site/services/booking.py" in files
    bare = [f"{name}:{line}: {comment}" for name in files for line, comment in unexplained((ROOT / name).read_text())]
    assert bare == []


# Tables whose every key turns a check off, and the keys that do in the others.
SUPPRESSION_TABLES = ("tool.ruff.lint.per-file-ignores", "tool.deptry.per_rule_ignores")
SUPPRESSION_KEYS = {
    "tool.ruff": ("ignore", "extend-ignore"),
    "tool.ruff.lint": ("ignore", "extend-ignore"),
    "tool.deptry": ("ignore",),
    "tool.mypy": ("ignore_missing_imports", "ignore_errors", "disable_error_code"),
    "tool.mypy.overrides": ("ignore_missing_imports", "ignore_errors", "disable_error_code"),
}


def unexplained_settings(toml: str) -> list[str]:
    """Suppressions in a pyproject.toml without a comment: above the key (other keys of its table
    between them allowed, another suppression not) or first inside its list."""
    found = []
    table, since_reason = "", False
    lines = toml.splitlines()
    for number, line in enumerate(lines):
        header = re.match(r"\[\[?([^\]]+)\]\]?\s*$", line)
        key = re.match(r'"?([^"=\s]+)"?\s*=', line)
        if header:
            table, since_reason = header.group(1), False
        elif line.startswith("#"):
            since_reason = True
        elif key and (table in SUPPRESSION_TABLES or key.group(1) in SUPPRESSION_KEYS.get(table, ())):
            inside = (
                number + 1 < len(lines) and line.rstrip().endswith("[") and lines[number + 1].lstrip().startswith("#")
            )
            if not (since_reason or inside):
                found.append(f"[{table}] {line.strip()}")
            since_reason = False
    return found


def test_the_settings_reader_tells_a_reason_from_none():
    toml = (
        '[tool.ruff.lint]\nextend-select = ["I"]\nignore = [\n    # why\n    "RUF001",\n]\n'
        '[tool.ruff.lint.per-file-ignores]\n# why\n"a/*.py" = ["RUF012"]\n"b/*.py" = ["B008"]\n'
        '[[tool.mypy.overrides]]\n# why\nmodule = ["x.*"]\nignore_missing_imports = true\n'
        '[[tool.mypy.overrides]]\nmodule = ["y.*"]\nignore_errors = true\n'
        '[tool.deptry.per_rule_ignores]\nDEP002 = ["psycopg"]\n'
    )
    assert unexplained_settings(toml) == [
        '[tool.ruff.lint.per-file-ignores] "b/*.py" = ["B008"]',
        "[tool.mypy.overrides] ignore_errors = true",
        '[tool.deptry.per_rule_ignores] DEP002 = ["psycopg"]',
    ]


def test_every_suppression_in_the_tool_settings_says_why():
    assert unexplained_settings((ROOT / "pyproject.toml").read_text()) == []
    # pytest's warning filters: each `ignore` entry with a comment above it.
    ini = (ROOT / "pytest.ini").read_text().splitlines()
    bare = [
        line for i, line in enumerate(ini) if re.match(r"\s+ignore:", line) and not ini[i - 1].lstrip().startswith("#")
    ]
    assert bare == []
