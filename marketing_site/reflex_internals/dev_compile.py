"""What the development loop (`marketing_site/devloop/`) takes from Reflex's compiler.

Reflex compiles every page of an app at once, on every change (reflex-dev/reflex#4922). The loop
compiles one route, or a few, at a time instead, through the same plugin pipeline
`compiler.compile_app` runs: `CompileContext` with `default_page_plugins`, then
`compile_memo_components` for the components Reflex memoised on those pages. Each route's
memoised components go to a JS module of its own (`page_table`'s `memo_module_per_route`), so a
route's output never depends on another's: compiled alone, a route writes exactly the files a
whole compile writes for it (`tests/test_dev_compile.py`).

Routes that need what only a whole compile writes (an npm package not installed yet, an app
wrapper no page had, a state created while its page is evaluated) is reported as such, and the
loop then runs Reflex's whole compile (`full_compile`), which also writes the app's frame: the
document head, the app root, the contexts, the theme and the root stylesheet.

Touch points (docs/reflex-upgrade.md, row 18): `App._prepare_page` / `App._commit_page`,
`compiler._resolve_radix_themes_plugin`, `compiler.compile_memo_components`,
`compiler.compile_app`, `CompileContext` and its fields, `App._get_frontend_package_name`,
`utils.resolve_path_of_web_dir`, `path_ops.update_directory_tree`, `reload_state_module`, the web directory's
`package.json`, and the frontend's start command (`js_runtimes.get_js_package_executor`,
`exec.frontend_env`, `exec._with_development_condition`).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import logging
import os
import sys
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any


@dataclasses.dataclass(frozen=True)
class CompiledGroup:
    """The files one group compiles to, and what only a whole compile could provide for it."""

    files: dict[Path, str]
    missing_packages: frozenset[str]
    app_wraps: frozenset[tuple[int, str]]
    creates_state: bool


def web_dir() -> Path:
    from reflex.utils.prerequisites import get_web_dir

    return Path(get_web_dir()).absolute()


def web_dir_ready() -> bool:
    """Whether the web directory exists, was made by this Reflex and has its packages."""
    from reflex.utils import prerequisites

    return not prerequisites.needs_reinit() and (web_dir() / "node_modules").is_dir()


def web_dir_without_reflex() -> Path:
    """The web directory as Reflex will find it (its REFLEX_WEB_WORKDIR), without importing Reflex."""
    return Path(os.environ.get("REFLEX_WEB_WORKDIR", ".web")).absolute()


def web_dir_looks_ready(path: Path) -> bool:
    """Whether a web directory can serve as it is, checked without importing Reflex (the dev
    server starts at once): its packages installed, made by this Reflex (its `reflex.json`),
    and compiled by the development loop before."""
    from importlib.metadata import version

    try:
        made_by = json.loads((path / "reflex.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return False
    return made_by == version("reflex") and (path / "node_modules").is_dir() and (path / ".devloop.json").is_file()


def initialize_web_dir() -> None:
    """What `reflex run` does on a fresh clone before it compiles: Reflex's user directory and
    the web directory's skeleton (its packages are installed by the whole compile)."""
    from reflex.utils import prerequisites

    prerequisites.initialize_reflex_user_directory()
    prerequisites.initialize_frontend_dependencies()


ROUTE_PLACEHOLDER = (
    "// Replaced by the first compile (make dev).\nexport default function Placeholder() {\n  return null;\n}\n"
)


def prepare_fresh_web_dir(first_routes: Iterable[str]) -> None:
    """A fresh clone's web directory, ready for the dev server to start before the app is
    imported (`make dev` on a fresh clone):

    - the skeleton, and every npm package the pages need (Reflex's own and those `reflex.lock`
      names, in one install: a package installed later would make Vite optimise its
      dependencies again and reload the open tab);
    - the vite.config.js a compile writes (written later, it would restart the dev server);
    - a placeholder for the root and for each route the first compile writes: the React Router
      plugin reads the route files when it starts, and takes in a new one only a moment after
      it appears (a request meanwhile fails), while a changed one is simply served anew.
    """
    from reflex.compiler.utils import get_page_path
    from reflex.utils import js_runtimes
    from reflex_base.config import get_config
    from reflex_base.utils.format import format_route

    initialize_web_dir()
    config = get_config()
    js_runtimes.install_frontend_packages({*config.frontend_packages, *locked_packages()}, config)
    from marketing_site.reflex_internals import frontend_build

    (web_dir() / frontend_build.VITE_CONFIG).write_text(compiled_vite_config(), encoding="utf-8")
    placeholders = [web_dir() / root_route_file(), *(Path(get_page_path(format_route(r))) for r in first_routes)]
    for route_file in placeholders:
        if not route_file.exists():
            route_file.parent.mkdir(parents=True, exist_ok=True)
            route_file.write_text(ROUTE_PLACEHOLDER, encoding="utf-8")


def root_route_file() -> str:
    """The root route module, relative to the web directory (the React Router plugin reads it
    when the dev server starts)."""
    from reflex_base import constants

    return f"{constants.Dirs.PAGES}/{constants.PageNames.APP_ROOT}"


def compiled_vite_config() -> str:
    """The vite.config.js a compile writes (`compiler.compile_app`: Reflex's, then the site's
    plugin's change, `SiteFrontendPlugin.pre_compile`)."""
    from reflex.utils import frontend_skeleton
    from reflex_base.config import get_config

    from marketing_site.reflex_internals import frontend_build

    return frontend_build.add_site_plugin(frontend_skeleton._compile_vite_config(get_config()))


def set_dev_mode() -> None:
    """Compile as `reflex run` does in development (no production-only steps)."""
    from reflex_base import constants
    from reflex_base.environment import environment

    environment.REFLEX_ENV_MODE.set(constants.Env.DEV)


def load_app() -> tuple[Any, ModuleType]:
    """The app and its module, imported as Reflex imports them."""
    from reflex.utils import prerequisites

    info = prerequisites.get_and_validate_app()
    return info.app, info.module


def commit_pages(app: Any, definitions: Iterable[Any]) -> None:
    """Register (or replace) routes on `app` as `app.add_page` would, without its refusal of a
    route registered twice (the loop replaces a page's definition after a change)."""
    for definition in definitions:
        app._commit_page(app._prepare_page(**definition.add_page_arguments()))


def forget_routes(app: Any, routes: Iterable[str]) -> None:
    """Drop routes from `app` (a page that was removed from the route table)."""
    from reflex_base.utils.format import format_route

    for route in routes:
        key = format_route(route)
        app._unevaluated_pages.pop(key, None)
        app._load_events.pop(key, None)
    app.__dict__.pop("router", None)


class GroupCompiler:
    """Compiles groups of routes of one app, each alone, through Reflex's page pipeline."""

    def __init__(self, app: Any) -> None:
        from reflex.compiler import compiler
        from reflex_base.components.component import evaluate_style_namespaces
        from reflex_base.config import get_config

        self.app = app
        app.style = evaluate_style_namespaces(app.style)
        self.plugins, _ = compiler._resolve_radix_themes_plugin(app, get_config().plugins)

    def compile(self, routes: Sequence[str]) -> CompiledGroup:
        from reflex.compiler import compiler
        from reflex.compiler import utils as compiler_utils
        from reflex.compiler.plugins import default_page_plugins
        from reflex_base.plugins import CompileContext, CompilerHooks
        from reflex_base.utils.format import format_route

        pages = [self.app._unevaluated_pages[format_route(route)] for route in routes]
        context = CompileContext(
            app=self.app,
            pages=pages,
            hooks=CompilerHooks(plugins=default_page_plugins(style=self.app.style, plugins=self.plugins)),
        )
        with context:
            context.compile()
        memo_files, memo_imports = compiler.compile_memo_components(context.auto_memo_components.values())
        outputs = [(page.output_path, page.output_code) for page in context.compiled_pages.values()]
        files = {
            compiler_utils.resolve_path_of_web_dir(path): code
            for path, code in [*outputs, *memo_files]
            if path is not None and code is not None
        }
        needed = self._packages({**context.all_imports, **memo_imports})
        installed = installed_packages()
        return CompiledGroup(
            files=files,
            missing_packages=frozenset(spec for name, spec in needed.items() if name not in installed),
            app_wraps=frozenset(context.app_wrap_components),
            creates_state=bool(context.stateful_routes),
        )

    def _packages(self, imports: Mapping[str, Any]) -> dict[str, str]:
        """The npm packages these imports need: name → what to install (`name@version` when the
        component pins it), as `App._get_frontend_packages` picks them."""
        from reflex_base import constants

        found = {}
        for import_name, tags in imports.items():
            package = self.app._get_frontend_package_name(import_name)
            if not package or not any(tag.install for tag in tags):
                continue
            name = package.rpartition("@")[0] if package.rfind("@") > 0 else package
            if name not in constants.PackageJson.DEPENDENCIES and name not in constants.PackageJson.DEV_DEPENDENCIES:
                found[name] = package
        return found


def _not_the_inferred_package_advice(record: logging.LogRecord) -> bool:
    """Reflex advises removing from `frontend_packages` a package the compiled pages import too:
    the locked packages are added there on purpose (the pages not compiled yet import them)."""
    return not str(record.msg).startswith("React packages and their dependencies are inferred")


def locked_packages() -> list[str]:
    """The npm packages (`name@version`) the project's `reflex.lock/package.json` adds to
    Reflex's own: what a whole compile of every page installs."""
    from reflex_base import constants

    try:
        package = json.loads((Path(constants.Bun.ROOT_LOCKFILE_DIR) / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [
        f"{name}@{version}"
        for name, version in package.get("dependencies", {}).items()
        if name not in constants.PackageJson.DEPENDENCIES
    ]


def installed_packages() -> set[str]:
    """The npm packages the web directory's package.json names."""
    try:
        package = json.loads((web_dir() / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return {*package.get("dependencies", {}), *package.get("devDependencies", {})}


def install_packages(specs: Iterable[str]) -> None:
    """Add npm packages to the web directory's, keeping those it has (Reflex's installer drops
    the packages it is not given: it is given them all)."""
    from reflex.utils import js_runtimes
    from reflex_base import constants
    from reflex_base.config import get_config

    package = json.loads((web_dir() / "package.json").read_text(encoding="utf-8"))
    kept = {
        f"{name}@{version}"
        for name, version in package.get("dependencies", {}).items()
        if name not in constants.PackageJson.DEPENDENCIES
    }
    js_runtimes.install_frontend_packages(kept | set(specs), get_config())


def app_wrap_keys(app: Any) -> frozenset[tuple[int, str]]:
    """The app wrappers the app itself sets."""
    return frozenset(app.app_wraps)


def _wrap_recorder() -> Any:
    """A compiler plugin that keeps the app wrappers the pages of a compile ask for (Reflex calls
    `compile_page` on every plugin of the config, for every page it compiles)."""
    from reflex_base.plugins import Plugin

    class WrapRecorder(Plugin):
        def __init__(self) -> None:
            self.wraps: set[tuple[int, str]] = set()

        def compile_page(self, page_ctx: Any, /, **kwargs: Any) -> None:
            context = kwargs.get("compile_context")
            if context is not None:
                self.wraps |= set(context.app_wrap_components)

    return WrapRecorder()


def staging_dir(web: Path) -> Path:
    """Where files for the web directory are written before they take their place: beside it
    (the same file system, for the rename), hidden (the loop watches no hidden folder) and
    outside it (Vite and React Router's route scan never see a half-named file)."""
    return web.with_name("." + web.name.lstrip(".") + "-writing")


def write_atomically(path: Path, data: str | bytes) -> None:
    """`path` holds its old content or the new one, never a part of it. Vite reads a file the
    moment it changes: a route module written in place, read between the truncation and the
    write, is an empty module, and React Router then reloads the open tab (CI's loaded machine
    did, in `tests/test_dev_loop.py`; a route module left empty for half a second reloaded the
    tab every time, tried by hand on a running loop)."""
    import errno
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    staging = staging_dir(web_dir())
    staging.mkdir(exist_ok=True)
    descriptor, name = tempfile.mkstemp(dir=staging, prefix=path.name + ".")
    try:
        # mkstemp's file is its owner's only (0600); the web directory's files are read by all, as
        # Reflex's own writer leaves them.
        os.fchmod(descriptor, 0o644)
        with os.fdopen(descriptor, "wb") as file:
            file.write(data.encode("utf-8") if isinstance(data, str) else data)
        try:
            os.replace(name, path)
        except OSError as error:
            if error.errno != errno.EXDEV:
                raise
            # The web directory is a mount of its own: the rename cannot cross it.
            path.write_bytes(Path(name).read_bytes())
    finally:
        Path(name).unlink(missing_ok=True)


def write(files: Mapping[Path, str]) -> list[Path]:
    """Write what changed, each file whole at once (`write_atomically`); the paths written."""
    changed = []
    for path, code in files.items():
        try:
            same = path.read_text(encoding="utf-8") == code
        except OSError:
            same = False
        if not same:
            write_atomically(path, code)
            changed.append(path)
    return changed


def full_compile(app: Any, only_routes: Collection[str] | None = None) -> frozenset[tuple[int, str]]:
    """Reflex's whole compile of `app` into the web directory (packages installed as needed),
    and the frontend's `env.json`, as `reflex run` writes them. Returns the app wrappers the
    frame now has (the app's own and those its pages asked for).

    With `only_routes`, the other routes are left out of this compile (a fresh web directory,
    whose other pages the loop compiles one by one afterwards: Reflex's development compile
    deletes the route files of every page it does not compile)."""
    from reflex.compiler import compiler
    from reflex.utils import build
    from reflex_base.config import get_config
    from reflex_base.utils.format import format_route

    recorder = _wrap_recorder()
    config = get_config()
    config.plugins.append(recorder)
    every_page = app._unevaluated_pages
    asked_packages = list(config.frontend_packages)
    if only_routes is not None:
        kept = {format_route(route) for route in only_routes}
        app._unevaluated_pages = {route: page for route, page in every_page.items() if route in kept}
        # The packages the other pages need, as the project's lock names them, in the same
        # install: installed later, each would make Vite optimise its dependencies again and
        # reload the open tab.
        config.frontend_packages = [*asked_packages, *locked_packages()]
    reflex_app_log = logging.getLogger("reflex.app")
    reflex_app_log.addFilter(_not_the_inferred_package_advice)
    try:
        compiler.compile_app(app, prerender_routes=False, use_rich=False)
    finally:
        config.plugins.remove(recorder)
        config.frontend_packages = asked_packages
        app._unevaluated_pages = every_page
        reflex_app_log.removeFilter(_not_the_inferred_package_advice)
    build.set_env_json()
    return frozenset(app.app_wraps) | frozenset(recorder.wraps)


def reload_module(module: ModuleType) -> ModuleType:
    """Execute a module's (changed) source again in place. The state classes it defines are
    dropped from Reflex's registry first, as Reflex does when it reloads an app module."""
    from reflex.state import reload_state_module

    reload_state_module(module=module.__name__)
    return importlib.reload(module)


def frontend_command(port: int, warm_routes: Iterable[str] = ()) -> tuple[list[str], dict[str, str], Path]:
    """How `reflex run` starts the Vite development server: the command, its environment, its
    directory; the files of `warm_routes` transformed as it starts (`SITE_DEV_WARMUP`, read by
    `frontend/dev_plugin.js`)."""
    from reflex.utils import exec as reflex_exec
    from reflex.utils import js_runtimes

    executor = [str(part) for part in js_runtimes.get_js_package_executor(raise_on_none=True)[0]]
    env = reflex_exec._with_development_condition(reflex_exec.frontend_env(os.environ))
    env["PORT"] = str(port)
    env["SITE_DEV_WARMUP"] = json.dumps(warmup_files(warm_routes))
    env["SITE_DEV_OPTIMIZE"] = json.dumps(FRAME_PACKAGES)
    return [*executor, *dev_script_arguments(executor)], env, web_dir()


def dev_script_arguments(executor: Sequence[str]) -> list[str]:
    """What `executor` is given to start the dev server: `run dev`, the script Reflex writes into
    the web directory's package.json (`PackageJson.Commands.DEV`), but for one thing. Under bun,
    that script starts React Router's CLI without the `development` export condition (bun passes
    NODE_OPTIONS to no script: `exec._with_development_condition`), and the CLI then starts
    itself again with it, a second start of the runtime and of the CLI on every start of
    `make dev`. Under bun, the script's command is run with the condition at once."""
    from reflex.utils.exec import _DEV_CONDITION_FLAG

    try:
        script = json.loads((web_dir() / "package.json").read_text(encoding="utf-8"))["scripts"]["dev"]
    except (OSError, ValueError, KeyError, TypeError):
        script = None
    words = script.split() if isinstance(script, str) else []
    if Path(executor[0]).name.startswith("bun") and words[:2] == ["react-router", "dev"]:
        return [_DEV_CONDITION_FLAG, f"node_modules/.bin/{words[0]}", *words[1:]]
    return ["run", "dev"]


# The npm packages the frame of every page imports in the browser (Reflex's `utils/state.js`
# and its error boundary), beyond React and React Router, which Vite finds from the entry.
FRAME_PACKAGES = ["mergician", "react-error-boundary", "socket.io-client", "universal-cookie"]


def warmup_files(routes: Iterable[str]) -> dict[str, list[str]]:
    """What the dev server transforms as it starts, before a tab asks (Vite's `server.warmup`):
    the client's entry, the root and the route modules of `routes`, for the browser and for the
    server's render of the page shell and of its critical CSS. A page's modules are otherwise
    transformed as the browser discovers them, import after import, and twice (the server's
    render first, then the browser's); the imports of these files are transformed with them."""
    from reflex.compiler.utils import get_page_path
    from reflex_base import constants
    from reflex_base.utils.format import format_route

    pages = [Path(get_page_path(format_route(route))).relative_to(web_dir()).as_posix() for route in routes]
    root = root_route_file()
    return {"clientFiles": [f"{constants.Dirs.PAGES}/entry.client.js", root, *pages], "ssrFiles": [root, *pages]}


def backend_endpoints() -> list[str]:
    """The paths of Reflex's own backend endpoints (websocket, ping, health, upload...)."""
    from reflex_base import constants

    return sorted({"/" + str(endpoint).strip("/") for endpoint in constants.Endpoint})


def python_executable() -> str:
    return sys.executable


def stylesheet_target(stylesheet: Path) -> Path:
    """Where Reflex's compile puts a stylesheet of the app (`compile_root_stylesheet`)."""
    from reflex_base import constants

    assets = Path.cwd() / constants.Dirs.APP_ASSETS
    return web_dir() / constants.Dirs.STYLES / stylesheet.absolute().relative_to(assets).with_suffix(".css")


def is_app_stylesheet(app: Any, path: Path) -> bool:
    """Whether `path` (under assets/) is one of the app's stylesheets."""
    from reflex_base import constants

    assets = Path.cwd() / constants.Dirs.APP_ASSETS
    relative = "/" + path.absolute().relative_to(assets).as_posix()
    return relative in app.stylesheets


def copy_assets(app: Any, paths: Iterable[Path]) -> bool:
    """Bring changed assets into the web directory as Reflex's compile does: the app's
    stylesheets where the root stylesheet imports them (Vite swaps them in the open tab), every
    asset into `public/` (scripts beside a module through Reflex's `assets/external/` links).
    Returns whether the open tab must load again to show them (an image, a file the page links)."""
    from reflex.utils import path_ops
    from reflex_base import constants

    assets = (Path.cwd() / constants.Dirs.APP_ASSETS).absolute()
    public = web_dir() / constants.Dirs.PUBLIC
    reload_page = False
    for changed in paths:
        path = changed.absolute()
        if not path.is_relative_to(assets):  # a script or style beside a Python module
            path_ops.update_directory_tree(src=assets, dest=public)
            continue
        target = public / path.relative_to(assets)
        if path.is_file():
            write_atomically(target, path.read_bytes())
        else:
            target.unlink(missing_ok=True)
        if is_app_stylesheet(app, path) and path.is_file():
            write_atomically(stylesheet_target(path), path.read_bytes())
        elif path.suffix not in (".js", ".jsx"):  # not a module Vite swaps in place
            reload_page = True
    return reload_page
