"""The layers read straight: the services, the tables, the words, the settings, the logging, the
metrics and the error reports never import the layers above them (state, API, pages, components), not even inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

from servers import ROOT

PACKAGE = ROOT / "marketing_site"
LOWER = [
    PACKAGE / "services",
    PACKAGE / "db",
    PACKAGE / "content",
    PACKAGE / "settings.py",
    PACKAGE / "logs.py",
    PACKAGE / "metrics.py",
    PACKAGE / "metrics_storage.py",
    PACKAGE / "error_reports.py",
]
UPPER = ("marketing_site.state", "marketing_site.api", "marketing_site.pages", "marketing_site.components")


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, module) of every import in `path` (a module under `root`), relative ones made
    absolute; `from a import b` gives a.b too (b may be a module)."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def upward_imports(path: Path) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for line, module in imported_modules(path)
        if any(module == upper or module.startswith(upper + ".") for upper in UPPER)
    ]


def test_the_scan_finds_every_form_of_import(tmp_path):
    services = tmp_path / "marketing_site" / "services"
    services.mkdir(parents=True)
    sample = services / "sample.py"
    sample.write_text(
        "import marketing_site.state.auth\n"
        "from marketing_site import api\n"
        "from ..pages import home\n"
        "from . import leads\n"
        "def later():\n"
        "    from marketing_site.components.layout import page\n"
    )
    assert imported_modules(sample, tmp_path) == [
        (1, "marketing_site.state.auth"),
        (2, "marketing_site"),
        (2, "marketing_site.api"),
        (3, "marketing_site.pages"),
        (3, "marketing_site.pages.home"),
        (4, "marketing_site.services"),
        (4, "marketing_site.services.leads"),
        (6, "marketing_site.components.layout"),
        (6, "marketing_site.components.layout.page"),
    ]


def test_the_lower_layers_never_import_the_upper_ones():
    files = [f for item in LOWER for f in ([item] if item.is_file() else sorted(item.rglob("*.py")))]
    assert len(files) > 20
    assert [line for path in files for line in upward_imports(path)] == []


# Reflex's public face: `reflex` itself (rx), its component packages, and the plugin the config
# disables. Everything else of Reflex is internals, reached from marketing_site/reflex_internals/
# only (docs/reflex-upgrade.md lists each touch point).
REFLEX_PUBLIC_MODULES = ("reflex.plugins.sitemap",)
REFLEX_PACKAGES = ("reflex", "reflex_base")


def _public(module: str) -> bool:
    import reflex

    if module == "reflex" or any(module == name or module.startswith(f"{name}.") for name in REFLEX_PUBLIC_MODULES):
        return True
    # `from reflex import x`: a name rx offers
    return module.count(".") == 1 and module.startswith("reflex.") and hasattr(reflex, module.removeprefix("reflex."))


def reflex_internal_imports(path: Path) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for line, module in imported_modules(path)
        if module.split(".")[0] in REFLEX_PACKAGES and not _public(module)
    ]


def test_only_the_internals_package_reaches_into_reflex():
    outside = [
        path
        for path in [*(ROOT / "marketing_site").rglob("*.py"), ROOT / "rxconfig.py"]
        if "reflex_internals" not in path.parts
    ]
    assert len(outside) > 100
    assert [found for path in outside for found in reflex_internal_imports(path)] == []
    # The scan sees them where they are.
    assert reflex_internal_imports(ROOT / "marketing_site" / "reflex_internals" / "router_headers.py") == []
    assert reflex_internal_imports(ROOT / "marketing_site" / "reflex_internals" / "tab_handover.py")
