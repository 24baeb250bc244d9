"""A maintainer's mistake, said in one short paragraph: the file, the line, and what to do.

The loop prints it in the terminal and shows it in the open tab; a traceback only when asked
(`make dev TRACEBACK=1`). Whatever raised, the paragraph names the place in the repository the
maintainer can open: the content file and line for the words, otherwise the innermost line of
the site's own code that the error went through.
"""

from __future__ import annotations

import dataclasses
import traceback
from pathlib import Path

from marketing_site.content.sources import ContentError, display_path
from marketing_site.content.words import MissingWords

REPOSITORY = Path(__file__).resolve().parent.parent.parent
# Frames in these files are the loaders and the loop themselves: the place to fix is their caller.
_NOT_THE_PLACE = (
    "marketing_site/content/words.py",
    "marketing_site/content/sources.py",
    "marketing_site/devloop/",
    "marketing_site/reflex_internals/dev_compile.py",
)
FIX_AND_SAVE = "The pages keep showing the last good version; save the file once fixed."


@dataclasses.dataclass(frozen=True)
class Mistake:
    """What went wrong, where, and what to do (one paragraph), with the traceback kept aside."""

    where: str
    what: str
    todo: str
    details: str = ""

    def paragraph(self) -> str:
        return f"{self.where}: {self.what}. {self.todo}"

    def as_dict(self) -> dict[str, str]:
        return {"where": self.where, "what": self.what, "todo": self.todo, "text": self.paragraph()}


def describe(error: BaseException, doing: str = "") -> Mistake:
    """The paragraph for `error`, raised while `doing` (e.g. "compiling /a-propos")."""
    details = "".join(traceback.format_exception(error))
    context = f" (while {doing})" if doing else ""
    if isinstance(error, ContentError):
        return Mistake(
            where=_place(error.path, error.line),
            what=error.problem + context,
            todo=(f"{error.hint}. " if error.hint else "") + FIX_AND_SAVE,
            details=details,
        )
    if isinstance(error, SyntaxError) and error.filename:
        return Mistake(
            where=_place(Path(error.filename), error.lineno),
            what=f"Python cannot read this line ({error.msg}){context}",
            todo=FIX_AND_SAVE,
            details=details,
        )
    where = _innermost_site_line(error)
    if isinstance(error, MissingWords) and error.file:
        missing = f"no words under `{error.key}`" if error.key else "no such document"
        return Mistake(
            where=f"content/{error.lang}/{error.file}",
            what=f"{missing} (asked for by {where}){context}",
            todo=f"Add them to content/{error.lang}/{error.file}, or correct the key in {where.partition(',')[0]}. "
            + FIX_AND_SAVE,
            details=details,
        )
    return Mistake(
        where=where,
        what=f"{type(error).__name__}: {error}{context}",
        todo="Correct the code there (make dev TRACEBACK=1 prints the whole traceback). " + FIX_AND_SAVE,
        details=details,
    )


def step_failed(error: BaseException, doing: str) -> Mistake:
    """The paragraph for a step of the loop's own that failed, where no file of the site's is at
    fault (Reflex stops with SystemExit after logging why)."""
    if isinstance(error, SystemExit):  # with the reason as its code (rxconfig.py's settings), or after logging it
        what = error.code if isinstance(error.code, str) else "Reflex stopped"
    else:
        what = f"{type(error).__name__}: {error}"
    return Mistake(
        where="make dev",
        what=f"{what} (while {doing})",
        todo="The lines above say why; correct that, then save any file to try again "
        "(make dev TRACEBACK=1 prints the whole traceback).",
        details="".join(traceback.format_exception(error)),
    )


def missing_translation(lang: str, key: str, used: str) -> str:
    """The warning for words that fell back to another language."""
    file, _, rest = key.partition(".")
    where = f"content/{lang}/{file}.yaml"
    return (
        f"{where}: no words under `{rest or file}`, so the {lang} page shows the {used} words. "
        f"Add them to {where} (the same key as in content/{used}/{file}.yaml)."
    )


def _place(path: Path, line: int | None) -> str:
    return display_path(path) + (f", line {line}" if line else "")


def _innermost_site_line(error: BaseException) -> str:
    """The last frame of the traceback in the site's own files (not the word loaders)."""
    frames = traceback.extract_tb(error.__traceback__)
    for frame in reversed(frames):
        path = Path(frame.filename)
        try:
            relative = path.resolve().relative_to(REPOSITORY).as_posix()
        except ValueError:
            continue
        if relative.startswith(("marketing_site/", "assets/")) and not relative.startswith(_NOT_THE_PLACE):
            return f"{relative}, line {frame.lineno}"
    return "the site's code"
