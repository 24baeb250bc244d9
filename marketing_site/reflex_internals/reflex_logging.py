"""Reflex's own logging and printing, through the root logger's one handler (`logs.configure`).

Under its CLI Reflex attaches its own console handler to the "reflex" logger again whenever it
reads its configuration (`reflex_base.utils.log.configure`), and it prints its banners
("Starting Reflex App", "App running at …") with Rich on standard output
(`reflex_base.utils.console.print`, `_print_stderr`, `rule`). All are replaced here (reflex-base
0.10.1): its handlers stay off, and what it prints becomes a record of the "reflex.console"
logger, redacted like any other. A Reflex upgrade that renames one of them stops the process at
start-up (`ReflexLoggingMoved`), and tests/test_logging.py fails first.
"""

from __future__ import annotations

import logging
from typing import Any


class ReflexLoggingMoved(RuntimeError):
    """A Reflex upgrade moved what `route_reflex_output` replaces."""


# What `route_reflex_output` replaces in reflex_base: module -> names.
REFLEX_REACHES = {
    "reflex_base.utils.log": ("configure", "strip_markup", "get_log_level"),
    "reflex_base.utils.console": ("print", "_print_stderr", "rule"),
}


def route_reflex_output() -> None:
    """Reflex's records and prints reach the root logger's handler, for good (idempotent)."""
    from reflex_base.utils import console
    from reflex_base.utils import log as reflex_log

    reached = {"reflex_base.utils.log": reflex_log, "reflex_base.utils.console": console}
    missing = [
        f"{name}.{attr}" for name, attrs in REFLEX_REACHES.items() for attr in attrs if not hasattr(reached[name], attr)
    ]
    if missing:
        raise ReflexLoggingMoved(
            f"Reflex no longer has {', '.join(missing)}: update reflex_internals/reflex_logging.py"
        )
    if getattr(reflex_log.configure, "_marketing_site", False):
        return
    strip_markup = reflex_log.strip_markup
    printed = logging.getLogger("reflex.console")
    printed_once: set[str] = set()  # what Reflex prints with dedupe=True, once a process

    def configure() -> None:
        # Reflex calls this on every configuration read in its CLI and workers: instead of
        # attaching its Rich (or JSON) handler, take any off. Its level (--loglevel) stays, and
        # so does the site's LOG_LEVEL (the root's, which records of a logger with a level of
        # its own would pass by): the stricter of the two.
        reflex = logging.getLogger("reflex")
        for handler in list(reflex.handlers):
            reflex.removeHandler(handler)
        reflex.propagate = True
        reflex.setLevel(max(reflex_log.get_log_level().to_logging_level(), logging.getLogger().level))

    def print_(msg: str, *, dedupe: bool = False, level: str = "info", **_rich: Any) -> None:
        if dedupe and msg in printed_once:
            return
        if dedupe:
            printed_once.add(msg)
        levelno = logging.getLevelName(level.upper())  # "success" is Reflex's level 25
        printed.log(levelno if isinstance(levelno, int) else logging.INFO, strip_markup(str(msg)))

    def print_stderr(msg: str, *, dedupe: bool = False, level: str = "error", **_rich: Any) -> None:
        print_(msg, dedupe=dedupe, level=level)

    def rule(title: str, **_rich: Any) -> None:
        printed.info(strip_markup(title))

    configure._marketing_site = True  # type: ignore[attr-defined]  # the marker of this replacement
    reflex_log.configure = configure
    console.print = print_
    console._print_stderr = print_stderr
    console.rule = rule
    configure()
