"""What the development loop watches, and what a change to each kind of file asks for.

Watched: what a maintainer edits. The site's Python (`marketing_site/**/*.py`), its words
(`marketing_site/content/**/*.yaml` and `*.md`), its assets (`assets/**`: styles, widgets,
images; and scripts or styles that live beside a Python module), the app's configuration
(`rxconfig.py`, `.env`), the migrations, the dependencies.

Not watched: whatever the running site, the tests or the tools write. The database and its
`-wal`/`-shm` (`var/`), metrics files, logs, the web directories (`.web*`), `reflex.lock`, the
generated documents (`files/`) and social images (`assets/og/`), the links Reflex makes to
shared assets (`assets/external/`), caches, the tests, the docs and the scripts. Editors' swap
and backup files are not changes either.
"""

from __future__ import annotations

import enum
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent.parent
PACKAGE_DIR = REPOSITORY / "marketing_site"
CONTENT_DIR = PACKAGE_DIR / "content"
ASSETS_DIR = REPOSITORY / "assets"
DEVLOOP_DIR = PACKAGE_DIR / "devloop"
# Written by tools or by Reflex, inside watched folders.
GENERATED = (ASSETS_DIR / "og", ASSETS_DIR / "external")
WATCHED_DIRS = (PACKAGE_DIR, ASSETS_DIR, REPOSITORY / "alembic" / "versions")
CONFIG_FILES = ("rxconfig.py", ".env")
DEPENDENCY_FILES = ("pyproject.toml", "uv.lock")
CONTENT_SUFFIXES = (".yaml", ".yml", ".md")
# Scripts and styles that live beside a Python module (Reflex's shared assets).
MODULE_ASSET_SUFFIXES = (".js", ".jsx", ".css")


class Kind(enum.Enum):
    """What a change asks the loop to do."""

    CONTENT = "content"  # words: recompile the pages that read the file
    PYTHON = "python"  # a module of the site: run it again, recompile the pages it feeds
    ASSET = "asset"  # a file the browser loads as it is: copy it into the web directory
    STYLE = "style"  # a stylesheet of the app's frame
    CONFIG = "config"  # the app's configuration: start again
    MIGRATION = "migration"  # a new migration: apply it, restart the backend
    DEPENDENCIES = "dependencies"  # the lock changed: `make install`, then start again
    LOOP = "loop"  # the development loop's own code: start `make dev` again


def watched_paths() -> list[Path]:
    """The folders and files to watch (those that exist)."""
    candidates = [*WATCHED_DIRS, *(REPOSITORY / name for name in (*CONFIG_FILES, *DEPENDENCY_FILES))]
    return [path for path in candidates if path.exists()]


def _is_editor_file(name: str) -> bool:
    return (
        name.startswith((".#", "#", "~$", ".~"))
        or name.endswith(("~", ".swp", ".swo", ".swx", ".tmp", ".bak", ".orig"))
        or name.isdigit()  # vim's write test file ("4913")
    )


def kind_of(path: Path) -> Kind | None:
    """What a change to `path` asks for; None when the loop does not watch it."""
    path = Path(path).absolute()
    try:
        relative = path.relative_to(REPOSITORY)
    except ValueError:
        return None
    name = path.name
    if _is_editor_file(name) or any(part.startswith(".") or part == "__pycache__" for part in relative.parts[:-1]):
        return None
    if len(relative.parts) == 1:
        if name in CONFIG_FILES:
            return Kind.CONFIG
        return Kind.DEPENDENCIES if name in DEPENDENCY_FILES else None
    if name.startswith("."):
        return None
    if any(path.is_relative_to(folder) for folder in GENERATED):
        return None
    if path.is_relative_to(ASSETS_DIR):
        return Kind.STYLE if path.is_relative_to(ASSETS_DIR / "styles") or name == "site.css" else Kind.ASSET
    if path.is_relative_to(REPOSITORY / "alembic" / "versions"):
        return Kind.MIGRATION if path.suffix == ".py" else None
    if not path.is_relative_to(PACKAGE_DIR):
        return None
    if path.is_relative_to(DEVLOOP_DIR):
        return Kind.LOOP if path.suffix in (".py", ".js") else None
    if path.suffix == ".py":
        return Kind.PYTHON
    if path.is_relative_to(CONTENT_DIR) and path.suffix in CONTENT_SUFFIXES:
        return Kind.CONTENT
    if path.suffix in MODULE_ASSET_SUFFIXES:
        return Kind.ASSET
    return None
