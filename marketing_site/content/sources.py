"""The content files on disk, the caches that hold them once read, and what a computation read.

Every loader of `content/` caches with `content_cache` and notes each file it looks at (read,
or found missing) with `note_read`. That lets the development loop (`marketing_site/devloop/`)
map each page to the files it feeds on: `recording()` around a page's compile collects them,
cache hits included (a cached value replays the reads that made it), and `clear_caches()`
drops every cached value when a file changes. A read made while a module is being imported
(a module-level value) is kept apart, by module (`import_reads()`): such a value only changes
when the module is loaded again.

A file that cannot be used as it is raises `ContentError`, which names the file, the line and
what to do; the loop prints it and shows it in the open tab.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Collection, Iterator
from contextvars import ContextVar
from pathlib import Path
from types import FrameType
from typing import Any, ParamSpec, TypeVar

import yaml

CONTENT_DIR = Path(__file__).resolve().parent
REPOSITORY = CONTENT_DIR.parent.parent

_reads: ContextVar[set[Path] | None] = ContextVar("content_reads", default=None)
_fallbacks: ContextVar[list[tuple[str, str, str]] | None] = ContextVar("content_fallbacks", default=None)
_import_reads: dict[str, set[Path]] = {}
# Whether reads made while a site module is being imported are kept (the loop's worker only).
_tracking = {"imports": False}
_caches: list[Any] = []
# The app module adds the pages at its top level; their titles are not module-level values
# anyone else reads (the loop builds the pages again itself).
_APP_MODULE = "marketing_site.marketing_site"

_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

P = ParamSpec("P")
R = TypeVar("R")


class ContentError(ValueError):
    """A content file the site cannot use as it is: the file, the line, and what to do."""

    def __init__(self, path: Path, problem: str, *, line: int | None = None, hint: str = "") -> None:
        self.path = path
        self.problem = problem
        self.line = line
        self.hint = hint
        super().__init__(str(self))

    def __str__(self) -> str:
        where = display_path(self.path) + (f", line {self.line}" if self.line else "")
        return f"{where}: {self.problem}" + (f". {self.hint}" if self.hint else "")


def display_path(path: Path) -> str:
    """`path` relative to the repository when it is inside it (as a maintainer opens it)."""
    try:
        return Path(path).resolve().relative_to(REPOSITORY).as_posix()
    except ValueError:
        return str(path)


def line_of(text: str, needle: str) -> int | None:
    """The 1-based line of the first `needle` in `text`."""
    index = text.find(needle)
    return None if index < 0 else text.count("\n", 0, index) + 1


def note_read(path: Path) -> None:
    """A loader looked at `path`: it read it, or found it missing (creating it changes the result)."""
    reads = _reads.get()
    if reads is not None:
        reads.add(path)
    elif _tracking["imports"] and (module := _importing_module()) is not None:
        _import_reads.setdefault(module, set()).add(path)


def note_fallback(lang: str, key: str, used: str) -> None:
    """Words asked for in `lang` came from `used` (the key is missing in `lang`'s file)."""
    fallbacks = _fallbacks.get()
    if fallbacks is not None:
        fallbacks.append((lang, key, used))


@contextlib.contextmanager
def recording() -> Iterator[set[Path]]:
    """Collect the files read inside the block (and, outside any, keep reporting them upwards)."""
    reads: set[Path] = set()
    token = _reads.set(reads)
    try:
        yield reads
    finally:
        _reads.reset(token)


@contextlib.contextmanager
def recording_fallbacks() -> Iterator[list[tuple[str, str, str]]]:
    """Collect (language asked, key, language used) for every word that fell back inside the block."""
    found: list[tuple[str, str, str]] = []
    token = _fallbacks.set(found)
    try:
        yield found
    finally:
        _fallbacks.reset(token)


def track_import_reads() -> None:
    """From now on, reads made while a site module is being imported are kept by module."""
    _tracking["imports"] = True


def import_reads() -> dict[str, set[Path]]:
    """The files read while each module was being imported, by module name."""
    return {module: set(paths) for module, paths in _import_reads.items()}


def content_cache(load: Callable[P, R]) -> Callable[P, R]:
    """`functools.cache` for a loader of content files that the development loop can follow:
    a cached value replays the reads that made it, and `clear_caches()` drops it."""
    values: dict[Any, tuple[R, frozenset[Path]]] = {}

    @functools.wraps(load)
    def cached(*args: P.args, **kwargs: P.kwargs) -> R:
        key = (args, tuple(sorted(kwargs.items())))
        hit = values.get(key)
        if hit is None:
            with recording() as reads:
                value = load(*args, **kwargs)
            hit = values[key] = (value, frozenset(reads))
        for path in hit[1]:  # to the recording around this call, or to the importing module
            note_read(path)
        return hit[0]

    def forget(paths: Collection[Path]) -> None:
        for key in [key for key, (_, reads) in values.items() if not reads.isdisjoint(paths)]:
            values.pop(key, None)

    # The same handles as functools.cache's, on the function itself.
    cached.cache_clear = values.clear  # type: ignore[attr-defined]  # as functools.cache sets it
    cached.forget = forget  # type: ignore[attr-defined]  # likewise
    _caches.append(cached)
    return cached


def clear_caches() -> None:
    """Forget every cached content value: the next use reads the files again."""
    for cache in _caches:
        cache.cache_clear()


def forget(paths: Collection[Path]) -> None:
    """Forget the cached values made from any of `paths` (the others stay)."""
    for cache in _caches:
        cache.forget(set(paths))


def load_yaml(text: str) -> Any:
    """YAML as `yaml.safe_load` reads it, with LibYAML's parser when PyYAML has it (ten times
    faster: the development loop parses a saved file in a few milliseconds)."""
    return yaml.load(text, Loader=_SAFE_LOADER)


def _importing_module() -> str | None:
    """The site module whose top level is running (it is being imported), if any."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if frame.f_code.co_name == "<module>" and name.startswith("marketing_site"):
            return None if name == _APP_MODULE else name
        frame = frame.f_back
    return None


async def refresh_in_development() -> None:
    """In the development loop's backend (SITE_DEV_LOOP=1): a saved content file is read again.

    The backend keeps running when only words change (the loop restarts it when a module-level
    value read a changed file); its mails and messages then use the new words.
    """
    import logging
    import os

    if os.environ.get("SITE_DEV_LOOP") != "1":
        return
    from watchfiles import awatch

    logging.getLogger("watchfiles").setLevel(logging.WARNING)  # the loop says what changed

    async for _ in awatch(CONTENT_DIR, recursive=True):
        clear_caches()
