"""The compiling process of the development loop.

It keeps the app imported. A change of words (YAML, Markdown) empties the word caches and
compiles the page groups that read the file; a change of a view module (pages, components,
words' code, route table, head tags) runs that module and the view modules importing it again,
then compiles the groups they feed. The groups of the pages open in a browser go first, so the
open tab updates before the rest is done. Only what changed is written: Vite then updates the
open tab itself. The backend keeps running (it reads the words again itself, `content.sources`).

What needs more (a module of the backend's, the configuration) makes this process ask the
supervisor for fresh processes. A mistake (a YAML error, a missing word, a page that raises)
leaves the last good files in place and is reported as one paragraph (`mistakes.py`); saving
the fix compiles again.

Messages to the supervisor are dicts on a `multiprocessing` connection (`send`); the
supervisor sends `{"changes": [[kind, path], ...], "open": [path, ...]}`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import sys
import time
from collections.abc import Callable, Iterable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from marketing_site import routes
from marketing_site.devloop import depmap, manifest, mistakes
from marketing_site.devloop.watched import Kind

REPOSITORY = depmap.REPOSITORY
# A fresh clone's first compile: the pages a maintainer opens first (the rest follow).
FIRST_GROUPS = (routes.HOME.key, routes.NOT_FOUND_KEY)


@dataclasses.dataclass
class GroupRecord:
    """What the loop knows of one group from its last compile: its routes, the content files
    each route read, the files each route's compile wrote."""

    routes: list[str]
    reads_by_route: dict[str, set[Path]]
    files_by_route: dict[str, set[Path]] = dataclasses.field(default_factory=dict)

    @property
    def reads(self) -> set[Path]:
        return set().union(*self.reads_by_route.values())

    @property
    def files(self) -> set[Path]:
        return set().union(*self.files_by_route.values())


class Worker:
    def __init__(self, connection: Connection, origin: str, fresh: bool = False) -> None:
        self.connection = connection
        self.origin = origin
        # The supervisor found no web directory to serve: it prepares one while this process
        # imports the app, and says `prepared` before the first compile may write into it.
        self.fresh = fresh
        self.go_received = False
        self.app: Any = None
        self.compiler: Any = None
        # Read at the first change (parsing every module is off the first page's way).
        self.graph = depmap.ImportGraph(modules={})
        self.records: dict[str, GroupRecord] = {}
        self.manifest: manifest.Manifest | None = None
        self.pending_modules: set[str] = set()
        self.failing = False  # the last outcome was a mistake (the next success says "fixed")
        self.open_paths: list[str] = []
        # (group, route) to compile; route None: every route of a group not compiled yet.
        self.queue: set[tuple[str, str | None]] = set()
        self.whole_after = ""
        self.reason = ""
        self.started: float | None = None
        self.known_wraps: set[tuple[int, str]] = set()  # the app wrappers the frame on disk has

    # -- messages -------------------------------------------------------------------------

    def send(self, kind: str, **fields: Any) -> None:
        self.connection.send({"type": kind, **fields})

    def _changes_waiting(self) -> list[dict]:
        received = []
        while self.connection.poll():
            message = self.connection.recv()
            if message.get("type") == "stop":
                raise SystemExit(0)
            received.append(message)
        return received

    # -- start ----------------------------------------------------------------------------

    def start(self) -> None:
        """Compile what changed while the loop was stopped. The app is imported at once when
        the pages on disk cannot be served as they are; otherwise once the supervisor says the
        first page is out (`go`), so that the dev server has the processor first."""
        from marketing_site.content import sources
        from marketing_site.reflex_internals import dev_compile

        quiet_reflex_routine()
        web = dev_compile.web_dir_without_reflex()
        ready = not self.fresh and dev_compile.web_dir_looks_ready(web)
        self.manifest = manifest.Manifest.load(web) if ready else None
        stale = manifest.staleness(
            self.manifest, reflex=_reflex_version(), origin=self.origin, groups=routes.page_keys()
        )
        if self.manifest is not None:
            self.known_wraps = {(int(priority), name) for priority, name in self.manifest.app_wraps}
            self.records = {
                group: GroupRecord(
                    list(record["routes"]), {route: {Path(p) for p in record["reads"]} for route in record["routes"]}
                )
                for group, record in self.manifest.groups.items()
            }
        self.send("state", state="starting", stale=stale.whole or sorted(stale.groups))
        early: list[dict] = []
        if ready:
            # The first page is served from the web directory as it is, also when its frame is
            # stale (the route table or the settings changed while the loop was stopped): a whole
            # compile meanwhile took the processor from it, and rewrote the frame under its
            # server render (which then started again).
            early = self._wait_for_go()
        # A fresh clone: the supervisor prepares the web directory and starts the dev server
        # (holding its requests until the first pages are compiled) while the app is imported
        # here, on the other processor.
        started = time.monotonic()
        sources.track_import_reads()
        try:
            dev_compile.set_dev_mode()
            self.app, _ = dev_compile.load_app()
        except BaseException as error:  # noqa: BLE001 - reported, then the supervisor waits for a fix
            self.send("mistake", mistake=mistakes.describe(error, "importing the app").as_dict(), fatal=True)
            raise SystemExit(3) from None
        self.compiler = dev_compile.GroupCompiler(self.app)
        self.send("state", state="imported", seconds=round(time.monotonic() - started, 2))
        if not ready:
            # A fresh clone: the frame and the first pages, which the dev server waits for; the
            # rest after the first page.
            early = self._wait_for_prepared()
            self.full_compile(stale.whole, only=list(FIRST_GROUPS))
            self.send("pages-ready")
            early += self._wait_for_go()  # the first page goes first
            # The first pages failed: the fix's save compiles every page, and the frame (no wrapper is known yet).
            if not self.failing:
                self.compile_groups(set(self._groups()) - set(self.records), reason="the other pages of a fresh clone")
        elif stale.whole:
            self.full_compile(stale.whole)
        elif stale.groups:
            self.compile_groups(stale.groups, reason="changed since the last start")
        self.send("state", state="idle")
        if early:
            self.queue_changes(early)
            self.compile_queue()

    def _wait_for_go(self) -> list[dict]:
        """Wait for the supervisor's `go`; changes saved meanwhile are returned, and end the wait."""
        waiting: list[dict] = []
        while not self.go_received:
            message = self.connection.recv()
            if message.get("type") == "stop":
                raise SystemExit(0)
            if message.get("type") == "go":
                self.go_received = True
                return waiting
            waiting.append(message)
            return waiting
        return waiting

    def _wait_for_prepared(self) -> list[dict]:
        """Wait until the supervisor has prepared a fresh web directory; what it sent meanwhile
        (saved changes) is returned, a `go` kept for `_wait_for_go`."""
        waiting: list[dict] = []
        while True:
            message = self.connection.recv()
            kind = message.get("type")
            if kind == "stop":
                raise SystemExit(0)
            if kind == "prepared":
                return waiting
            if kind == "go":
                self.go_received = True
            else:
                waiting.append(message)

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> None:
        self.start()
        while True:
            message = self.connection.recv()
            if message.get("type") == "stop":
                return
            self.queue_changes([message, *self._changes_waiting()])
            self.compile_queue()

    def queue_changes(self, batch: list[dict]) -> None:
        """Run the changed view modules again, and queue the groups the changes feed."""
        changes: dict[Path, Kind] = {}
        for message in batch:
            self.open_paths = message.get("open", self.open_paths)
            for kind, path in message.get("changes", []):
                changes[Path(path)] = Kind(kind)
        if not changes:
            return
        self.started = self.started or time.monotonic()
        self.reason = _describe(changes)
        from marketing_site.content import sources
        from marketing_site.reflex_internals import dev_compile

        content = {path for path, kind in changes.items() if kind is Kind.CONTENT}
        python = {name for path, kind in changes.items() if kind is Kind.PYTHON if (name := depmap.module_name(path))}
        assets = [path for path, kind in changes.items() if kind in (Kind.ASSET, Kind.STYLE)]
        if assets:
            self.copy_assets(assets)
        if not content and not python and not self.pending_modules:
            return
        self.graph = depmap.ImportGraph()
        read_at_import = {m for m, paths in sources.import_reads().items() if paths & content}
        changed_modules = python | read_at_import | self.pending_modules
        backend_modules = sorted(m for m in changed_modules if not depmap.is_reloadable(m))
        if backend_modules:
            self.send("restart", reason=f"{backend_modules[0]} changed", backend=True)
            raise SystemExit(0)
        if any(not m.startswith(("marketing_site.pages", "marketing_site.components")) for m in changed_modules):
            # The backend holds these values too: it starts again, in the background.
            self.send("backend", reason=", ".join(sorted(changed_modules)))
        if changed_modules:  # code runs again: every cached value may be made differently now
            sources.clear_caches()
        else:
            sources.forget(content)
        for name in [m for m in changed_modules if not depmap.module_path(m).exists()]:
            sys.modules.pop(name, None)  # a module that was deleted: its importers run again without it
        to_reload = {m for m in self.graph.importers(changed_modules) if depmap.is_reloadable(m) and m in sys.modules}
        self.pending_modules = set(changed_modules)
        for name in self.graph.reload_order(to_reload):
            try:
                dev_compile.reload_module(sys.modules[name])
            except BaseException as error:  # noqa: BLE001 - the mistake is the maintainer's; wait for the fix
                self.report(error, f"running {depmap.module_path(name).relative_to(REPOSITORY)}")
                return
        self.pending_modules = set()
        for group, record in self.records.items():
            self.queue |= {(group, route) for route, reads in record.reads_by_route.items() if reads & content}
            if self.graph.group_modules(group) & changed_modules:
                self.queue |= {(group, route) for route in record.routes}
        self.queue |= {(group, None) for group in set(self._groups()) - set(self.records)}  # a page just added
        if changed_modules & self.graph.frame_reach():
            self.whole_after = "the frame of every page may have changed"

    # -- compiling ------------------------------------------------------------------------

    def _groups(self) -> list[str]:
        from marketing_site import page_table

        return page_table.groups()

    def _next(self) -> tuple[str, str | None]:
        """An open page first, then a page just added to the route table (the maintainer is
        about to open it), then the rest in the route table's order."""
        open_routes = {_route_of(path) for path in self.open_paths}
        order = self._groups()

        def rank(item: tuple[str, str | None]) -> tuple[bool, bool, int, str]:
            group, route = item
            is_open = route is not None and _route_of(route) in open_routes
            return (
                not is_open,
                group in self.records,
                order.index(group) if group in order else len(order),
                route or "",
            )

        item = min(self.queue, key=rank)
        self.queue.discard(item)
        return item

    def _definitions(self, group: str) -> tuple[list[Any], dict[str, set[Path]], list[tuple[str, str, str]]]:
        """The group's page definitions, each render recording what it reads, by route (the
        head's words, read while the definitions are made, count for every route)."""
        from marketing_site import page_table
        from marketing_site.content import sources

        fallbacks: list[tuple[str, str, str]] = []
        with sources.recording() as made, sources.recording_fallbacks() as fell:
            definitions = page_table.group_definitions(group, memo_module_per_route=True)
        fallbacks += fell
        reads = {d.route: set(made) for d in definitions}
        wrapped = [dataclasses.replace(d, render=_recorded(d.render, reads[d.route], fallbacks)) for d in definitions]
        return wrapped, reads, fallbacks

    def compile_groups(self, groups: Iterable[str], reason: str) -> None:
        for group in groups:
            record = self.records.get(group)
            self.queue |= {(group, route) for route in record.routes} if record else {(group, None)}
        self.reason = reason
        self.started = time.monotonic()
        self.compile_queue()

    def compile_queue(self) -> None:
        """Compile the queued groups, open pages first, taking in what is saved meanwhile."""
        from marketing_site.reflex_internals import dev_compile

        if self.pending_modules:  # a module did not run: nothing is compiled until it is fixed
            self.started = None
            return
        known_groups = set(self._groups())
        for group in [g for g in self.records if g not in known_groups]:  # a page left the route table
            record = self.records.pop(group)
            dev_compile.forget_routes(self.app, record.routes)
            for path in record.files:
                path.unlink(missing_ok=True)
            if not record.files:  # compiled by a whole compile: the next one deletes its files
                self.whole_after = f"the page {group!r} left the route table"
        warnings: list[str] = []
        failed: set[tuple[str, str | None]] = set()
        compiled_routes = 0
        pass_started = time.monotonic()
        while self.queue:
            group, route = item = self._next()
            timings = {"waited": time.monotonic() - (self.started or time.monotonic())}
            try:
                clock = time.monotonic()
                definitions, reads, fallbacks = self._definitions(group)
                dev_compile.commit_pages(self.app, definitions)
                chosen = [d.route for d in definitions if route is None or d.route == route]
                compiled = self.compiler.compile(chosen)
                timings["compile"] = time.monotonic() - clock
            except BaseException as error:  # noqa: BLE001 - reported; the last good files stay
                self.report(error, f"compiling {route or 'the page ' + repr(group)}")
                failed.add(item)
                continue
            failed.discard(item)  # its fix was saved during this pass and taken in
            if needs_whole := self._needs_whole(compiled):
                self.queue.clear()
                self.whole_after = needs_whole
                break
            clock = time.monotonic()
            written = dev_compile.write(compiled.files)
            timings["write"] = time.monotonic() - clock
            compiled_routes += len(chosen)
            self._record(group, definitions, chosen, reads, compiled.files)
            warnings += [mistakes.missing_translation(*fallback) for fallback in dict.fromkeys(fallbacks)]
            if self.started is not None:  # the first page since the last save: visible now
                self.send(
                    "compiled",
                    routes=chosen,
                    seconds=round(time.monotonic() - self.started, 3),
                    written=len(written),
                    reason=self.reason,
                    timings={name: round(value, 3) for name, value in timings.items()},
                )
                self.started = None
            # Saved meanwhile: in the same pass, a page that failed earlier in it included (its
            # fix may be among the saves). Only a module that did not run stops the pass.
            self.queue_changes(self._changes_waiting())
            if self.pending_modules:
                break
        if compiled_routes > 1 and not self.queue:
            self.send("compiled-rest", groups=compiled_routes, seconds=round(time.monotonic() - pass_started, 3))
        self.queue |= failed
        self.started = None
        if failed:
            return
        if self.whole_after:
            reason, self.whole_after = self.whole_after, ""
            self.full_compile(reason)
            return
        self._saved()
        self._recovered(warnings)

    def _record(self, group: str, definitions: list[Any], chosen: list[str], reads: dict, files: dict) -> None:
        """What a compile of some routes of a group read and wrote."""
        routes = [d.route for d in definitions]
        record = self.records.get(group) or GroupRecord(routes, {})
        record.routes = routes
        route_files = _files_by_route(chosen, files)
        for route in chosen:
            record.reads_by_route[route] = reads[route]
            record.files_by_route[route] = route_files[route]
        for gone in set(record.reads_by_route) - set(routes):
            record.reads_by_route.pop(gone, None)
            record.files_by_route.pop(gone, None)
        self.records[group] = record

    def _needs_whole(self, compiled: Any) -> str:
        from marketing_site.reflex_internals import dev_compile

        if compiled.missing_packages:  # installed beside the others; the dev server picks them up
            packages = ", ".join(sorted(compiled.missing_packages))
            self.send("state", state="installing", packages=packages)
            try:
                dev_compile.install_packages(compiled.missing_packages)
            except BaseException as error:  # noqa: BLE001 - said; a whole compile installs them again
                self.report(error, f"installing the npm packages {packages}")
                return f"the npm packages {packages}"
        if compiled.creates_state:
            return "a page creates state when it is evaluated"
        if not compiled.app_wraps <= self.known_wraps | dev_compile.app_wrap_keys(self.app):
            return "a page needs an app wrapper the frame does not have yet"
        return ""

    def full_compile(self, reason: str, only: list[str] | None = None) -> None:
        """Reflex's whole compile (the frame of every page, the packages): of every group, or,
        on a fresh clone, of the groups `only` names (the others follow one by one)."""
        from marketing_site.reflex_internals import dev_compile

        started = time.monotonic()
        self.send("state", state="compiling-all", reason=reason)
        records: dict[str, GroupRecord] = {}
        warnings: list[str] = []
        try:
            for group in only or self._groups():
                definitions, reads, fallbacks = self._definitions(group)
                dev_compile.commit_pages(self.app, definitions)
                records[group] = GroupRecord([d.route for d in definitions], reads)
                warnings += [mistakes.missing_translation(*f) for f in dict.fromkeys(fallbacks)]
            routes = [route for record in records.values() for route in record.routes] if only else None
            self.known_wraps = set(dev_compile.full_compile(self.app, only_routes=routes))
        except BaseException as error:  # noqa: BLE001 - reported; the last good files stay
            self.report(error, "compiling every page")
            return
        self.records = records
        self.send(
            "compiled",
            routes=[route for record in records.values() for route in record.routes] if only else [],
            seconds=round(time.monotonic() - started, 3),
            reason=reason,
        )
        self._saved()
        self._recovered(warnings)

    def copy_assets(self, paths: list[Path]) -> None:
        from marketing_site.reflex_internals import dev_compile

        try:
            reload_page = dev_compile.copy_assets(self.app, paths)
        except BaseException as error:  # noqa: BLE001 - said; the next save copies again
            self.report(error, "copying assets")
            return
        self.send("assets", paths=[str(p) for p in paths], reload=reload_page)

    # -- outcome --------------------------------------------------------------------------

    def report(self, error: BaseException, doing: str) -> None:
        self.failing = True
        mistake = mistakes.describe(error, doing)
        self.send("mistake", mistake=mistake.as_dict(), traceback=mistake.details)

    def _recovered(self, warnings: list[str]) -> None:
        if self.failing:
            self.failing = False
            self.send("ok")
        if warnings:
            self.send("warnings", items=list(dict.fromkeys(warnings)))

    def _saved(self) -> None:
        from marketing_site.content import sources
        from marketing_site.reflex_internals import dev_compile

        record = manifest.Manifest(
            reflex=_reflex_version(),
            origin=self.origin,
            modules=manifest.module_hashes(),
            app_wraps=sorted([list(wrap) for wrap in self.known_wraps]),
        )
        for group, known in self.records.items():
            record.record_group(group, known.routes, known.reads)
        record.import_reads = {
            module: {str(p): manifest.file_hash(p) for p in sorted(paths)}
            for module, paths in sources.import_reads().items()
        }
        with contextlib.suppress(OSError):
            record.save(dev_compile.web_dir())
        self.manifest = record


def _no_progress_line(record: logging.LogRecord) -> bool:
    return not record.getMessage().startswith("Progress:")


def _no_node_version_warning(record: logging.LogRecord) -> bool:
    return "of Node.js is out of date" not in record.getMessage()


def quiet_reflex_routine() -> None:
    """Reflex logs a line per compile step (it has no terminal of its own here), and warns that
    Node.js is older than it would like (the loop runs the dev server on bun): the loop says less.
    Called at each start of the dev server: a filter already there is not added again."""
    logging.getLogger("reflex.console").addFilter(_no_progress_line)
    logging.getLogger("reflex.utils.js_runtimes").addFilter(_no_node_version_warning)


def _recorded(render: Callable[[], Any], reads: set[Path], fallbacks: list) -> Callable[[], Any]:
    """`render`, recording into `reads` the content files it reads (and words that fell back)."""
    from marketing_site.content import sources

    def recording_render() -> Any:
        with sources.recording() as made, sources.recording_fallbacks() as fell:
            component = render()
        reads.update(made)
        fallbacks.extend(fell)
        return component

    recording_render.__module__ = render.__module__  # where Reflex writes the page's memoised components
    recording_render.__name__ = render.__name__
    return recording_render


def _files_by_route(routes: list[str], files: dict) -> dict[str, set[Path]]:
    """A compile's files, by the route they belong to (with one route, all of them)."""
    if len(routes) == 1:
        return {routes[0]: set(files)}
    return {route: set(files) for route in routes}  # several at once: each is said to own them all


def first_routes() -> list[str]:
    """The routes a fresh clone's first compile writes (`FIRST_GROUPS`)."""
    return _routes_of_groups(FIRST_GROUPS)


def _routes_of_groups(groups: Iterable[str]) -> list[str]:
    """The routes of page groups, from the route table (without importing the pages)."""
    from marketing_site.reflex_internals import exact_paths

    found = []
    for group in groups:
        if group == routes.NOT_FOUND_KEY:
            found += [exact_paths.not_found_route(lang) for lang in routes.LANGUAGES]
        else:
            found += [path for page in routes.PAGES if page.key == group for _, path in page.paths()]
    return found


def _route_of(path: str) -> str:
    return path if path == "/" else path.rstrip("/")


def _reflex_version() -> str:
    from importlib.metadata import version

    return version("reflex")


def _describe(changes: dict[Path, Kind]) -> str:
    names = sorted(str(p.relative_to(REPOSITORY)) if p.is_relative_to(REPOSITORY) else str(p) for p in changes)
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def main(connection: Connection, origin: str, fresh: bool = False) -> None:
    """The worker process's entry point (started by the supervisor)."""
    worker = Worker(connection, origin, fresh)
    with contextlib.suppress(KeyboardInterrupt, EOFError, BrokenPipeError):
        worker.run()
