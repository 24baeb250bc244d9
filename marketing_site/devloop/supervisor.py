"""`make dev`: the site on the Vite dev server, a saved change in the open tab about a second later.

Four processes, started at once (the first page needs none of the Python ones):
- Vite, Reflex's frontend dev server, on REFLEX_FRONTEND_PORT (3000): it serves the pages from
  the web directory (`.web-dev`, apart from the production builds in `.web`) and proxies the
  backend's paths to it (`reflex_internals/frontend/dev_plugin.js`), so the site has one address;
- the backend, Reflex's development backend on REFLEX_BACKEND_PORT (8000), after the database
  migrations; it restarts only when a module it runs changed, never for words or a page's
  layout (it reads changed words again itself);
- the compiling worker (`worker.py`), which keeps the app imported and compiles the page
  groups a change feeds, open pages first;
- this supervisor: it watches what a maintainer edits (`watched.py`), hands each change to the
  worker, prints what happened in a line (a mistake in one paragraph: `mistakes.py`) and shows
  the same in the open tab.

Without OIDC_ISSUER the development identity provider and manager stand-in of `make run` start
too (on free ports). `Ctrl-C` stops everything.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from marketing_site import routes
from marketing_site.devloop import watched
from marketing_site.devloop.watched import Kind

REPOSITORY = watched.REPOSITORY
WEB_DIR_NAME = ".web-dev"
RELOAD_DIR = REPOSITORY / "var" / "dev" / "backend-reload"
DEFAULT_FRONTEND_PORT = 3000
DEFAULT_BACKEND_PORT = 8000
# Seconds after the dev server answers before the backend and the worker's import start anyway
# (when no tab opened a page by then).
FIRST_PAGE_GRACE = 15
# How long a fresh clone's dev server may take to render the home page once it is compiled,
# before the requests it holds go through anyway.
HOME_PROBE_SECONDS = 30
# How long the processes of the loop have to stop, together, before they are killed.
SHUTDOWN_SECONDS = 8
# The dev server is started again when it stops by itself, up to this many times in the window.
VITE_EXITS_ALLOWED = 3
VITE_EXITS_WINDOW = 60
# A step killed by a signal while the loop stops is not reported: how long the loop's own handler
# has to say it is stopping.
STOP_NOTICE_SECONDS = 2
COLOURS = {"error": "\033[31m", "warning": "\033[33m", "ok": "\033[32m", "info": "\033[2m"}


def say(text: str, level: str = "info") -> None:
    """One line (or paragraph) for the maintainer, coloured when the terminal shows colours."""
    if sys.stdout.isatty() and level in COLOURS:
        text = f"{COLOURS[level]}{text}\033[0m"
    print(text, flush=True)


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def choose_ports(environ: dict[str, str]) -> tuple[int, int]:
    """The frontend's and the backend's ports: as set, or the first free pair from 3000/8000."""
    frontend = environ.get("REFLEX_FRONTEND_PORT")
    backend = environ.get("REFLEX_BACKEND_PORT")
    if frontend or backend:
        ports = (int(frontend or DEFAULT_FRONTEND_PORT), int(backend or DEFAULT_BACKEND_PORT))
        busy = [str(port) for port in ports if not port_is_free(port)]
        if busy:
            raise SystemExit(
                f"make dev: port {', '.join(busy)} is in use (another make dev, make run or test?). "
                "Stop it, or choose others: make dev REFLEX_FRONTEND_PORT=3001 REFLEX_BACKEND_PORT=8001"
            )
        return ports
    for offset in range(20):
        ports = (DEFAULT_FRONTEND_PORT + offset, DEFAULT_BACKEND_PORT + offset)
        if all(port_is_free(port) for port in ports):
            return ports
    raise SystemExit(
        "make dev: no free ports from 3000/8000 to 3019/8019; set REFLEX_FRONTEND_PORT and REFLEX_BACKEND_PORT"
    )


def backend_paths() -> list[str]:
    """What the dev server proxies to the backend: the site's routes and Reflex's endpoints."""
    from marketing_site.reflex_internals import dev_compile

    return [*routes.BACKEND_PREFIXES, *dev_compile.backend_endpoints()]


def run_worker(connection: Any, origin: str, fresh: bool) -> None:
    """The worker process's entry point. Named here, so that this process does not import the
    worker's modules only to start it (they cost it a tenth of a second on a fresh clone's way)."""
    from marketing_site.devloop import worker

    worker.main(connection, origin, fresh)


class Supervisor:
    def __init__(self, environ: dict[str, str]) -> None:
        self.started = time.monotonic()
        self.frontend_port, self.backend_port = choose_ports(environ)
        self.origin = f"http://127.0.0.1:{self.frontend_port}"
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.stop = threading.Event()
        self.worker: Any = None
        self.connection: Any = None
        self.vite: subprocess.Popen | None = None
        self.vite_exits: list[float] = []  # when the dev server stopped by itself, lately
        self.backend: subprocess.Popen | None = None
        self.dev_services: list[Any] = []
        self.worker_failed = False
        self.status: dict[str, str] = {"level": "ok", "text": ""}
        self.last_warnings: list[str] = []
        self.announced = False
        self.vite_answers = False
        self.pages_ready = True  # False until a fresh clone's first pages are compiled
        self.holding = False  # the dev server holds requests until it is told the pages are ready
        self._after_refusal = False
        self.frontend_up = threading.Event()
        self.released = False
        self.verbose = bool(environ.get("DEV_TIMINGS"))
        self._dev_services_ports: tuple | None = None
        self.web_prepared = False  # a fresh clone's web directory, prepared by this process
        self.preparing = False
        self.import_failed = False  # the current worker could not import the app
        self.settings_check_started = False
        self.exit_code = 0
        self.settings_checked = threading.Event()
        self.environment = self._environment(environ)

    # -- environment ----------------------------------------------------------------------

    def _environment(self, environ: dict[str, str]) -> dict[str, str]:
        """What every process of the loop runs with (the settings are read later, off the way
        of the first page: `check_settings`)."""
        env = {
            **environ,
            "SITE_URL": self.origin,
            "PORT": str(self.backend_port),
            "REFLEX_FRONTEND_PORT": str(self.frontend_port),
            "REFLEX_BACKEND_PORT": str(self.backend_port),
            "REFLEX_WEB_WORKDIR": str(REPOSITORY / WEB_DIR_NAME),
            "REFLEX_HOT_RELOAD_OVERRIDE_PATHS": str(RELOAD_DIR),
            "SITE_DEV_LOOP": "1",
            "SITE_DEV_BACKEND": f"http://127.0.0.1:{self.backend_port}",
            # The loop's process: the dev server (in a session of its own) stops when it is gone.
            "SITE_DEV_LOOP_PID": str(os.getpid()),
            "SITE_DEV_BACKEND_PATHS": json.dumps(backend_paths()),
            "LOG_FORMAT": environ.get("LOG_FORMAT", "text"),
            "REFLEX_TELEMETRY_ENABLED": "false",
            "REFLEX_CHECK_LATEST_VERSION": "false",
        }
        os.environ.update(env)
        return env

    def check_settings(self) -> None:
        """The settings, checked (a bad one stops `make dev` with its message); without
        OIDC_ISSUER, the development identity provider's addresses for the backend."""
        from marketing_site.settings import SettingsError, get_settings

        get_settings.cache_clear()
        try:
            settings = get_settings()
        except SettingsError as error:
            say(f"make dev: {error}", "error")
            self.exit_code = 2
            self.stop.set()
            return
        if not settings.oidc_issuer:
            from marketing_site import dev_services

            provider, manager = free_port(), free_port()
            self.environment.update(dev_services.site_environment(provider, manager, settings.oidc_roles_claim))
            self._dev_services_ports = (provider, manager, settings)
        self.settings_checked.set()

    # -- processes ------------------------------------------------------------------------

    def start_worker(self) -> bool:
        """The compiling worker; whether the web directory is a fresh one, prepared meanwhile."""
        from marketing_site.reflex_internals import dev_compile

        fresh = not dev_compile.web_dir_looks_ready(REPOSITORY / WEB_DIR_NAME)
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        self.connection = ours
        self.worker = context.Process(
            target=run_worker, args=(theirs, self.origin, fresh), name="devloop-worker", daemon=True
        )
        self.worker.start()
        self.worker_failed = self.import_failed = False
        if fresh and self.web_prepared:  # prepared for a worker before this one
            ours.send({"type": "prepared"})
        elif fresh and not self.preparing:  # (when preparing, this worker is told once it is done)
            # The web directory is prepared here, beside the new worker's import of the app: the
            # dev server starts as early as it can, and the import has the other processor.
            self.preparing = True
            threading.Thread(target=self.prepare_web_dir, daemon=True).start()
        if self.released:  # a worker started again: the first page is long out
            ours.send({"type": "go"})
        threading.Thread(target=self._read_worker, args=(ours,), daemon=True).start()
        return fresh

    def prepare_web_dir(self) -> None:
        """A fresh clone's web directory, ready for the dev server (`dev_compile.prepare_fresh_web_dir`)."""
        from marketing_site.devloop import mistakes, worker
        from marketing_site.reflex_internals import dev_compile

        worker.quiet_reflex_routine()
        try:
            dev_compile.prepare_fresh_web_dir(worker.first_routes())
        except BaseException as error:  # noqa: BLE001 - Reflex stops with SystemExit; reported, a save tries again
            mistake = mistakes.step_failed(error, "preparing the web directory")
            self.events.put(("prepare-failed", {**mistake.as_dict(), "traceback": mistake.details}))
            return
        self.events.put(("web-prepared", None))

    def _check_settings_once(self) -> None:
        if not self.settings_check_started:
            self.settings_check_started = True
            threading.Thread(target=self.check_settings, daemon=True).start()

    def _read_worker(self, connection: Any) -> None:
        while not self.stop.is_set():
            try:
                message = connection.recv()
            except (EOFError, OSError):
                self.events.put(("worker-exit", connection))
                return
            self.events.put(("worker", message))

    def start_vite(self, hold: bool = False) -> None:
        """The dev server; with `hold`, it keeps requests waiting until `/__site_dev/ready`."""
        if self.vite is not None:
            return
        from marketing_site.devloop.worker import quiet_reflex_routine
        from marketing_site.reflex_internals import dev_compile

        quiet_reflex_routine()
        # The home page is the address the loop gives to open: its modules are ready first.
        command, env, cwd = dev_compile.frontend_command(
            self.frontend_port, warm_routes=[path for _, path in routes.HOME.paths()]
        )
        self.pages_ready = self.pages_ready and not hold
        self.holding = hold
        env["SITE_DEV_HOLD"] = "1" if hold else "0"
        self.vite = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            text=True,
        )
        threading.Thread(target=self._read_vite, args=(self.vite,), daemon=True).start()
        threading.Thread(target=self._wait_for_frontend, daemon=True).start()
        threading.Thread(target=self._wait_for_vite_exit, args=(self.vite,), daemon=True).start()

    def _wait_for_vite_exit(self, process: subprocess.Popen) -> None:
        process.wait()
        if not self.stop.is_set():
            self.events.put(("vite-exit", process))

    def on_vite_exit(self, process: subprocess.Popen) -> None:
        """The dev server stopped by itself: said, and started again, unless it keeps stopping."""
        if process is not self.vite or self.stop.is_set():
            return
        now = time.monotonic()
        self.vite_exits = [moment for moment in self.vite_exits if now - moment < VITE_EXITS_WINDOW] + [now]
        self.vite, self.vite_answers = None, False
        code = process.returncode
        how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
        if len(self.vite_exits) > VITE_EXITS_ALLOWED:
            say(
                f"make dev: the dev server stopped again ({how}), "
                f"{len(self.vite_exits)} times in {VITE_EXITS_WINDOW} s: its lines above say why. "
                "Correct that, then stop make dev (Ctrl-C) and start it again.",
                "error",
            )
            return
        say(
            f"make dev: the dev server stopped ({how}; its lines above say why); starting it again.",
            "error",
        )
        self.start_vite(hold=self.holding)

    def _read_vite(self, process: subprocess.Popen) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            stripped = line.strip()
            if not stripped or (not self.verbose and any(routine in stripped for routine in VITE_ROUTINE)):
                continue
            if PROXY_REFUSED.search(stripped) or (stripped.startswith("at ") and self._after_refusal):
                # The backend is starting (or starting again): the tab says so itself.
                self._after_refusal = True
                continue
            self._after_refusal = False
            say(f"[vite] {stripped}", "info")

    def _wait_for_frontend(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.frontend_port), timeout=0.5):
                self.events.put(("frontend-up", None))
                return
            time.sleep(0.1)

    def migrate(self) -> bool:
        """`alembic upgrade head`, as `make migrate`; a failure is said with alembic's words."""
        migrate = subprocess.run(
            [str(Path(sys.executable).parent / "alembic"), "upgrade", "head"],
            cwd=REPOSITORY,
            env=self.environment,
            capture_output=True,
            text=True,
            check=False,
        )
        if migrate.returncode < 0 and self.stop.wait(STOP_NOTICE_SECONDS):
            # Ctrl-C (or the terminal closing) reaches alembic too, often before the loop's own
            # handler has run: not a failure to report.
            return False
        if migrate.returncode < 0:
            say(
                f"make dev: the database migrations were stopped by {signal.Signals(-migrate.returncode).name}.",
                "error",
            )
        elif migrate.returncode != 0 and not self.stop.is_set():
            say(f"make dev: the database migrations failed:\n{migrate.stdout}{migrate.stderr}", "error")
        return migrate.returncode == 0

    def start_backend(self) -> None:
        RELOAD_DIR.mkdir(parents=True, exist_ok=True)
        (RELOAD_DIR / "trigger.py").write_text("# make dev restarts the backend by writing here\n")
        if not self.migrate():
            return
        # `reflex run --backend-only` refuses a frontend port (REFLEX_FRONTEND_PORT is its option).
        env = {name: value for name, value in self.environment.items() if name != "REFLEX_FRONTEND_PORT"}
        self.backend = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "reflex"),
                "run",
                "--env",
                "dev",
                "--backend-only",
                "--backend-port",
                str(self.backend_port),
                "--backend-host",
                "127.0.0.1",
            ],
            cwd=REPOSITORY,
            env=env,
            start_new_session=True,
        )

    def restart_backend(self, reason: str) -> None:
        """Reflex's development backend starts its worker again when its trigger file changes."""
        if not self.released:  # not started yet: it will start with the change
            return
        if self.backend is None or self.backend.poll() is not None:
            threading.Thread(target=self.start_backend, daemon=True).start()
            return
        say(f"backend: starting again ({reason})")
        (RELOAD_DIR / "trigger.py").write_text(f"# make dev restarts the backend by writing here: {time.time()}\n")

    def start_dev_services(self) -> None:
        if self._dev_services_ports is None:
            return
        from marketing_site import dev_services

        provider_port, manager_port, settings = self._dev_services_ports
        provider = dev_services.launch_provider(
            provider_port,
            [
                {**dev_services.DEV_USER, settings.oidc_roles_claim: ["ADVISOR"]},
                {**dev_services.DEV_ADMIN, settings.oidc_roles_claim: [settings.console_role]},
            ],
        )
        # Known to the shutdown before it answers: a loop stopped while the provider starts
        # stops it too (seen: providers left running after a loop stopped seconds after its
        # first page).
        self.dev_services.append(provider)
        try:
            dev_services.wait_for_provider(provider, provider_port)
        except RuntimeError as error:
            say(f"make dev: the development identity provider did not start ({error}); login is unavailable", "warning")
            return
        self.dev_services.append(dev_services.ManagerStub(manager_port).start())

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> int:
        say(f"make dev: starting; the site will be at {self.origin}/ (backend on port {self.backend_port})")
        # First: on a fresh clone the app's import is the longest step (the dev server then
        # starts once the web directory is prepared).
        if not self.start_worker():
            self.start_vite()
            # (A fresh clone's once the dev server answers, `_release_after_first_page`: until
            # then the processors have the app's import and the dev server's start, and the
            # settings have been read already, by rxconfig.py, as the web directory was prepared.)
            self._check_settings_once()
        threading.Thread(target=self._watch, daemon=True).start()
        threading.Thread(target=self._release_after_first_page, daemon=True).start()
        while not self.stop.is_set():
            try:
                event, payload = self.events.get(timeout=0.5)
            except queue.Empty:
                continue
            self.dispatch(event, payload)
        return self.exit_code

    def _release_after_first_page(self) -> None:
        """The first page needs neither the backend nor the compiling worker's app: they start
        once a tab shows it (or a while after the dev server answers), leaving it the processor."""
        self.frontend_up.wait()
        self._check_settings_once()
        self.settings_checked.wait()
        deadline = time.monotonic() + FIRST_PAGE_GRACE
        while not self.stop.is_set() and time.monotonic() < deadline and not self.open_pages():
            time.sleep(0.25)
        self.events.put(("release", None))

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        with contextlib.suppress(OSError):
            self.connection.send({"type": "go"})
        threading.Thread(target=self.start_dev_services, daemon=True).start()
        threading.Thread(target=self.start_backend, daemon=True).start()

    def _watch(self) -> None:
        import logging

        from watchfiles import watch

        logging.getLogger("watchfiles").setLevel(logging.WARNING)  # the loop says what changed

        for batch in watch(
            *watched.watched_paths(),
            watch_filter=lambda _change, path: watched.kind_of(Path(path)) is not None,
            step=30,
            debounce=400,
            stop_event=self.stop,
            raise_interrupt=False,
        ):
            self.events.put(("changes", [(watched.kind_of(Path(path)), Path(path)) for _, path in batch]))

    def dispatch(self, event: str, payload: Any) -> None:
        if event == "changes":
            self.on_changes(payload)
        elif event == "worker":
            self.on_worker(payload)
        elif event == "worker-exit" and payload is self.connection:
            if self.worker is not None:
                self.worker.join(timeout=5)
                if self.worker.exitcode not in (0, None):
                    self.worker_failed = True
        elif event == "frontend-up":
            self.vite_answers = True
            if self.status.get("text"):  # a dev server started again knows no mistake yet
                self.post("/status", self.status)
            self.release_held_requests()
            self.announce()
        elif event == "release":
            self.release()
        elif event == "web-prepared":
            self.web_prepared, self.preparing = True, False
            # Held until the first pages are compiled, unless the app failed to import first
            # (no page comes until the fix is saved: the tab shows the mistake meanwhile).
            self.start_vite(hold=not self.import_failed)
            with contextlib.suppress(OSError):
                self.connection.send({"type": "prepared"})
        elif event == "prepare-failed":
            # Nothing to compile into: the worker stops, and a saved file starts both again.
            self.preparing = False
            self.show({"level": "error", "text": payload["text"]})
            if os.environ.get("TRACEBACK"):
                say(payload["traceback"], "info")
            self.pages_ready = True
            self.restart_worker_on_save()
            self._check_settings_once()  # a wrong setting stops make dev, as on any start
        elif event == "vite-exit":
            self.on_vite_exit(payload)

    def announce(self) -> None:
        """The address to open, once the dev server answers with pages to show."""
        if self.announced or not (self.vite_answers and self.pages_ready):
            return
        self.announced = True
        self.frontend_up.set()
        say(f"make dev: open {self.origin}/ (ready in {time.monotonic() - self.started:.1f} s)", "ok")

    def release_held_requests(self) -> None:
        """Tell a holding dev server that the pages are ready, once it answers and renders the
        home page (in the background: a probe until then)."""
        if self.holding and self.pages_ready and self.vite_answers:
            self.holding = False
            threading.Thread(target=self._release_when_home_renders, daemon=True).start()

    def _release_when_home_renders(self) -> None:
        import urllib.request

        started = time.monotonic()
        deadline = started + HOME_PROBE_SECONDS
        probe = urllib.request.Request(f"http://127.0.0.1:{self.frontend_port}/", headers={"X-Site-Dev-Probe": "1"})
        probes, rendered = 0, False
        while not self.stop.is_set() and time.monotonic() < deadline:
            probes += 1
            try:
                with urllib.request.urlopen(probe, timeout=HOME_PROBE_SECONDS) as answer:
                    if rendered := answer.status == 200:
                        break
            except OSError:  # a 500 while React Router takes in the new route files
                time.sleep(0.1)
        self.post("/ready", {})
        if not rendered and not self.stop.is_set():
            say(
                f"make dev: the dev server did not render the home page within {HOME_PROBE_SECONDS} s; "
                "the pages are served anyway: Vite's lines above say why",
                "warning",
            )
        if self.verbose:
            say(f"make dev: the home page renders ({probes} probes, {time.monotonic() - started:.2f} s)")

    def on_changes(self, changes: list[tuple[Kind, Path]]) -> None:
        kinds = {kind for kind, _ in changes}
        if Kind.LOOP in kinds:
            say(
                "make dev: the development loop's own code changed; stop it (Ctrl-C) and run make dev again.", "warning"
            )
        if Kind.DEPENDENCIES in kinds:
            say("make dev: the dependencies changed; stop it (Ctrl-C), run make install, then make dev.", "warning")
        if Kind.MIGRATION in kinds and self.released and self.migrate():
            self.restart_backend("a migration changed")
        if Kind.CONFIG in kinds:
            self.restart_worker("the configuration changed", backend=True)
            return
        forwarded = [(kind.value, str(path)) for kind, path in changes if kind in FORWARDED]
        if not forwarded:
            return
        if self.worker_failed or self.worker is None or not self.worker.is_alive():
            self.restart_worker("a file was saved after the app failed to import", backend=False)
            return
        self.connection.send({"type": "changes", "changes": forwarded, "open": self.open_pages()})

    def restart_worker(self, reason: str, backend: bool) -> None:
        say(f"make dev: starting the compiling process again ({reason})")
        if self.worker is not None and self.worker.is_alive():
            with contextlib.suppress(OSError):
                self.connection.send({"type": "stop"})
            self.worker.join(timeout=5)
            if self.worker.is_alive():
                self.worker.kill()
        self.start_worker()
        if backend:
            self.restart_backend(reason)

    def restart_worker_on_save(self) -> None:
        """Stop the worker; the next saved file starts it again (`on_changes`)."""
        self.worker_failed = True
        if self.worker is not None and self.worker.is_alive():
            with contextlib.suppress(OSError):
                self.connection.send({"type": "stop"})

    def on_worker(self, message: dict) -> None:
        kind = message["type"]
        if kind == "pages-ready":
            self.pages_ready = True
            self.release_held_requests()
            self.announce()
        elif kind == "state":
            self.on_state(message)
        elif kind == "compiled":
            self.on_compiled(message)
        elif kind == "compiled-rest":
            say(f"{message['groups']} pages up to date ({message['seconds']:.2f} s)", "info")  # routes
        elif kind == "mistake":
            if message.get("fatal"):  # no page comes: a tab waiting for one gets an answer
                self.pages_ready = True
                self.import_failed = True
                self.release_held_requests()
            self.show({"level": "error", "text": message["mistake"]["text"]})
            if os.environ.get("TRACEBACK") and message.get("traceback"):
                say(message["traceback"], "info")
        elif kind == "ok":
            say("make dev: fixed; the pages are up to date.", "ok")
            self.show({"level": "ok", "text": ""})
            if self.released and not self.backend_answers():  # it started while the file was broken
                self.restart_backend("it could not start while a file was broken")
        elif kind == "warnings":
            items = message["items"]
            if items != self.last_warnings:
                self.last_warnings = items
                for item in items:
                    say(item, "warning")
        elif kind == "backend":
            self.restart_backend(f"{message['reason']} changed")
        elif kind == "restart":
            self.restart_worker(message["reason"], backend=message.get("backend", False))
        elif kind == "assets" and message.get("reload"):
            self.post("/reload", {})

    def on_state(self, message: dict) -> None:
        state = message["state"]
        if self.verbose and "seconds" in message:
            say(f"make dev: {state} in {message['seconds']:.2f} s")
        if state == "importing" and message.get("stale"):
            stale = message["stale"]
            say(f"make dev: to compile: {stale if isinstance(stale, str) else ', '.join(stale)}")
        elif state == "compiling-all":
            say(f"make dev: compiling every page ({message['reason']})…")
        elif state == "installing":
            say(f"make dev: installing the npm packages {message['packages']}…")

    def on_compiled(self, message: dict) -> None:
        routes = ", ".join(message.get("routes", [])) or "every page"
        timings = message.get("timings")
        detail = f" [{', '.join(f'{k} {v:.2f} s' for k, v in timings.items())}]" if timings and self.verbose else ""
        say(f"{routes} updated in {message['seconds']:.2f} s ({message.get('reason', '')}){detail}", "ok")

    def show(self, status: dict[str, str]) -> None:
        if status["level"] != "ok":
            say(f"make dev: {status['text']}", status["level"])
        self.status = status
        self.post("/status", status)

    def post(self, path: str, body: dict) -> bool:
        """A message to the dev server's side of the loop (dev_plugin.js); whether it arrived."""
        if self.vite is None:
            return False
        import urllib.request

        request = urllib.request.Request(
            f"http://127.0.0.1:{self.frontend_port}/__site_dev{path}",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        try:
            urllib.request.urlopen(request, timeout=2).close()
        except OSError:
            return False
        return True

    def backend_answers(self) -> bool:
        import urllib.request

        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.backend_port}/ping", timeout=2) as answer:
                return answer.status == 200
        except OSError:
            return False

    def open_pages(self) -> list[str]:
        if self.vite is None:
            return []
        import urllib.request

        try:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{self.frontend_port}/__site_dev/pages", timeout=0.3
            ) as answer:
                return json.loads(answer.read())
        except (OSError, ValueError):
            return []

    # -- stopping -------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Everything asked to stop at once, then waited for together (at most
        SHUTDOWN_SECONDS, then killed): the dev server and the identity provider run in sessions
        of their own, and outlive a loop killed while it waited for them one by one."""
        self.stop.set()
        for service in self.dev_services:
            with contextlib.suppress(Exception):
                service.stop() if hasattr(service, "stop") else service.terminate()
        if self.worker is not None and self.worker.is_alive():
            with contextlib.suppress(OSError):
                self.connection.send({"type": "stop"})
        processes = [process for process in (self.vite, self.backend) if process is not None]
        for process in processes:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + SHUTDOWN_SECONDS
        for process in processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
        if self.worker is not None:
            self.worker.join(timeout=max(0.1, deadline - time.monotonic()))
            if self.worker.is_alive():
                self.worker.kill()


FORWARDED = (Kind.CONTENT, Kind.PYTHON, Kind.ASSET, Kind.STYLE)
# Vite's lines for a request the backend refused (it is starting): said by the tab's own notice.
PROXY_REFUSED = re.compile(r"(http|ws) proxy error|ECONNREFUSED|ECONNRESET")
# What Vite says on every start and update, which the loop's own lines already say (the address
# to open, what was updated); its warnings and errors are shown. DEV_TIMINGS=1 shows these too
# (a tab Vite reloaded says why: "page reload", "new dependencies optimized").
VITE_ROUTINE = (
    "Local:",
    "Network:",
    "VITE_CONFIG_NATIVE",
    "configLoader",
    "ESM syntax",
    "$ react-router",
    "Relaunching with",
    "hmr update",
    "hmr invalidate",
    "page reload",
    "program reload",
    "(ssr) connected",
    "Config changed",
    "Config saved",
    "[optimizer]",
    "optimized dependencies changed",
    "new dependencies optimized",
    "Files in the public directory are served at the root path",
    "Instead of /public/",
)


def main() -> int:
    supervisor = Supervisor(dict(os.environ))
    # A closed terminal (SIGHUP) stops it as Ctrl-C does: what it started in sessions of their
    # own (the dev server, the development identity provider) would otherwise keep running.
    for stopping in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(stopping, lambda *_: supervisor.stop.set())
    try:
        return supervisor.run()
    except KeyboardInterrupt:
        return 130
    finally:
        supervisor.shutdown()
