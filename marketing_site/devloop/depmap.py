"""Which modules feed which pages: the site's import graph, read from the sources.

The graph is static (every `import` statement of every module of the package, those inside
functions included), so it needs no import and holds whatever the code last executed. A page
group (a page key in all its languages, `page_table`) is fed by its page package and everything
that package imports, plus what every page shares: the layout, the head tags and the route
table (`page_table`'s own imports, but the page packages).

Modules are *view* modules (pages, components, the words and their loaders, the route table,
the head tags) or the rest (state, services, API, database, settings, Reflex's internals). The
loop executes a changed view module again in the compiling process; any other change needs
fresh processes, since their values are held by the running backend.
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Iterable
from pathlib import Path

PACKAGE = "marketing_site"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
REPOSITORY = PACKAGE_DIR.parent
PAGE_TABLE = f"{PACKAGE}.page_table"
APP_MODULE = f"{PACKAGE}.{PACKAGE}"
# Executed again in the compiling process after a change (what they hold only renders pages).
VIEW_PACKAGES = (f"{PACKAGE}.pages", f"{PACKAGE}.components", f"{PACKAGE}.content", f"{PACKAGE}.i18n")
VIEW_MODULES = frozenset(
    {
        PAGE_TABLE,
        f"{PACKAGE}.routes",
        f"{PACKAGE}.seo",
        f"{PACKAGE}.structured_data",
        f"{PACKAGE}.theme",
        f"{PACKAGE}.brand",
    }
)
# View-layer modules that hold the registries the loop itself relies on: a change needs a restart.
NOT_RELOADABLE = frozenset({f"{PACKAGE}.content.sources"})
# What the app module takes for the frame of every page (head tags, app wrappers): a change in
# their reach is followed by a whole compile, which writes the frame.
# The page head's client-variable rules are built from the variables components.client_variables
# declares (reflex_internals/client_state.py).
FRAME_PROVIDERS = (
    f"{PACKAGE}.theme",
    f"{PACKAGE}.components.consent",
    f"{PACKAGE}.components.error_boundary",
    f"{PACKAGE}.components.client_variables",
)
# Parsed imports by (file, modification time, size, the package's modules): a graph made again
# after a change parses the changed files only.
_PARSED: dict[tuple, tuple[set[str], set[str]]] = {}


def module_name(path: Path) -> str | None:
    """The dotted name of a module of the package from its file, or None."""
    try:
        relative = path.resolve().relative_to(REPOSITORY)
    except ValueError:
        return None
    if relative.suffix != ".py" or relative.parts[0] != PACKAGE:
        return None
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_path(name: str) -> Path:
    base = REPOSITORY.joinpath(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def is_view(module: str) -> bool:
    return module in VIEW_MODULES or any(module == p or module.startswith(p + ".") for p in VIEW_PACKAGES)


def is_reloadable(module: str) -> bool:
    return is_view(module) and module not in NOT_RELOADABLE


def site_modules() -> dict[str, Path]:
    """Every module of the package, by name."""
    found = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        name = module_name(path)
        if name is not None:
            found[name] = path
    return found


class ImportGraph:
    """`imports[m]`: the site modules `m` imports anywhere; `top_level[m]`: at its top level."""

    def __init__(self, modules: dict[str, Path] | None = None) -> None:
        self.paths = modules if modules is not None else site_modules()
        self.imports: dict[str, set[str]] = {}
        self.top_level: dict[str, set[str]] = {}
        for name, path in self.paths.items():
            self.imports[name], self.top_level[name] = self._imports_of(name, path)

    def _imports_of(self, name: str, path: Path) -> tuple[set[str], set[str]]:
        try:
            stat = path.stat()
        except OSError:
            return set(), set()
        key = (path, stat.st_mtime_ns, stat.st_size, frozenset(self.paths))
        if key not in _PARSED:
            _PARSED[key] = self._parse(name, path)
        anywhere, top = _PARSED[key]
        return set(anywhere), set(top)

    def _parse(self, name: str, path: Path) -> tuple[set[str], set[str]]:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (OSError, SyntaxError, ValueError):
            return set(), set()  # a module that does not parse imports nothing the loop can know of
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        anywhere: set[str] = set()
        top: set[str] = set()
        top_nodes = {id(node) for node in _top_level_statements(tree)}
        for node in ast.walk(tree):
            targets = self._targets(node, package)
            anywhere |= targets
            if id(node) in top_nodes:
                top |= targets
        anywhere.discard(name)
        top.discard(name)
        return anywhere, top

    def _targets(self, node: ast.AST, package: str) -> set[str]:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            return set()
        found = set()
        for candidate in names:
            # `import a.b.c` runs a, a.b and a.b.c; `from a import b` may name a module or a value.
            parts = candidate.split(".")
            for end in range(1, len(parts) + 1):
                prefix = ".".join(parts[:end])
                if prefix in self.paths:
                    found.add(prefix)
        return found

    def closure(self, roots: Iterable[str]) -> set[str]:
        """The roots and every site module they import, directly or not."""
        seen: set[str] = set()
        stack = [r for r in roots if r in self.imports]
        while stack:
            module = stack.pop()
            if module in seen:
                continue
            seen.add(module)
            stack.extend(self.imports.get(module, ()))
        return seen

    def importers(self, modules: Iterable[str]) -> set[str]:
        """The modules and every site module that imports one of them, directly or not."""
        reverse: dict[str, set[str]] = {}
        for module, targets in self.imports.items():
            for target in targets:
                reverse.setdefault(target, set()).add(module)
        seen: set[str] = set()
        stack = list(modules)
        while stack:
            module = stack.pop()
            if module in seen:
                continue
            seen.add(module)
            stack.extend(reverse.get(module, ()))
        return seen

    def reload_order(self, modules: Iterable[str]) -> list[str]:
        """`modules` in an order where each comes after the ones it imports at its top level."""
        chosen = set(modules)
        sorter = graphlib.TopologicalSorter({m: self.top_level.get(m, set()) & chosen for m in chosen})
        try:
            return list(sorter.static_order())
        except graphlib.CycleError:
            return sorted(chosen, key=lambda m: len(self.closure([m]) & chosen))

    def shared_by_pages(self) -> set[str]:
        """What every page group is fed by: the page table and what it imports, but the page packages."""
        roots = {m for m in self.imports.get(PAGE_TABLE, set()) if not _is_page_package_module(m)}
        return {PAGE_TABLE} | self.closure(roots)

    def group_modules(self, group: str) -> set[str]:
        """The modules that feed one page group."""
        return self.shared_by_pages() | self.closure([f"{PACKAGE}.pages.{group}"])

    def frame_reach(self) -> set[str]:
        """The modules the frame of every page (head tags, app wrappers) depends on."""
        return self.closure(FRAME_PROVIDERS)


def _is_page_package_module(module: str) -> bool:
    return module.startswith(f"{PACKAGE}.pages.")


def _top_level_statements(tree: ast.Module) -> list[ast.AST]:
    """The statements that run when the module is imported (under `if`/`try` at the top too)."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, ast.If | ast.Try | ast.With):
            for field in ("body", "orelse", "finalbody", "handlers"):
                stack.extend(getattr(node, field, []))
        elif isinstance(node, ast.ExceptHandler):
            stack.extend(node.body)
    return found
