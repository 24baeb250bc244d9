"""What the development loop takes from Reflex's compiler (`reflex_internals/dev_compile.py`,
touch point 18 of docs/reflex-upgrade.md): the parts are still Reflex's, and a page group
compiled alone (a route) writes exactly what a compile of every page writes for it."""

from __future__ import annotations

import dataclasses
import inspect
import os
from pathlib import Path

import pytest

from marketing_site import page_table, routes
from marketing_site.reflex_internals import dev_compile

ROOT = Path(__file__).resolve().parent.parent


def test_the_compiler_parts_the_loop_uses_are_still_reflexs():
    from reflex.app import App
    from reflex.compiler import compiler
    from reflex.compiler import utils as compiler_utils
    from reflex.compiler.plugins import default_page_plugins
    from reflex.state import reload_state_module
    from reflex.utils import exec as reflex_exec
    from reflex.utils import js_runtimes, path_ops
    from reflex_base import constants
    from reflex_base.plugins import CompileContext, Plugin

    fields = {field.name for field in dataclasses.fields(CompileContext)}
    assert {
        "app",
        "pages",
        "hooks",
        "compiled_pages",
        "all_imports",
        "app_wrap_components",
        "stateful_routes",
    } <= fields
    assert "auto_memo_components" in fields
    assert (
        list(inspect.signature(App._prepare_page).parameters)[1:]
        == list(inspect.signature(App.add_page).parameters)[1:]
    )
    assert list(inspect.signature(App._commit_page).parameters)[:2] == ["self", "prepared"]
    assert {"prerender_routes", "use_rich"} <= set(inspect.signature(compiler.compile_app).parameters)
    assert callable(compiler._resolve_radix_themes_plugin) and callable(compiler.compile_memo_components)
    assert {"style", "plugins"} <= set(inspect.signature(default_page_plugins).parameters)
    assert "compile_page" in vars(Plugin)
    assert callable(compiler_utils.resolve_path_of_web_dir) and callable(path_ops.update_directory_tree)
    assert next(iter(inspect.signature(reload_state_module).parameters)) == "module"
    assert callable(reflex_exec.frontend_env) and callable(reflex_exec._with_development_condition)
    assert callable(js_runtimes.get_js_package_executor) and callable(js_runtimes.install_frontend_packages)
    assert {"EVENT", "PING", "UPLOAD", "HEALTH"} <= {endpoint.name for endpoint in constants.Endpoint}
    assert "/_event" in dev_compile.backend_endpoints()
    assert constants.Reflex.JSON == "reflex.json"


def test_a_fresh_clone_installs_the_locked_packages_of_every_page_in_its_first_install():
    """The packages the other pages need go with the first install (a later one makes Vite
    optimise again and reload the open tab): Reflex's install reads `frontend_packages`, and the
    project's lock names what a whole compile installs."""
    from reflex.app import App
    from reflex_base import constants

    source = inspect.getsource(App._get_frontend_packages)
    assert "get_config().frontend_packages" in source
    # Its advice to remove such a package, which the first compile keeps out of the terminal.
    assert "React packages and their dependencies are inferred" in source
    assert constants.Bun.ROOT_LOCKFILE_DIR == "reflex.lock"
    locked = dev_compile.locked_packages()
    assert any(spec.startswith("recharts@") for spec in locked)  # the console's chart, not on the home page
    assert not {spec.rpartition("@")[0] for spec in locked} & set(constants.PackageJson.DEPENDENCIES)


def test_the_web_directory_is_where_reflex_looks_for_it(monkeypatch, tmp_path):
    from reflex.utils.prerequisites import get_web_dir

    monkeypatch.setenv("REFLEX_WEB_WORKDIR", str(tmp_path / ".web-dev"))
    assert dev_compile.web_dir_without_reflex() == Path(get_web_dir()).absolute()


def test_a_web_directory_is_ready_when_this_reflex_made_it_and_the_loop_compiled_it(tmp_path):
    from importlib.metadata import version

    assert not dev_compile.web_dir_looks_ready(tmp_path)
    (tmp_path / "reflex.json").write_text('{{"version": "{}"}}'.format(version("reflex")))
    (tmp_path / "node_modules").mkdir()
    assert not dev_compile.web_dir_looks_ready(tmp_path)  # not compiled by the loop yet
    (tmp_path / ".devloop.json").write_text("{}")
    assert dev_compile.web_dir_looks_ready(tmp_path)
    (tmp_path / "reflex.json").write_text('{"version": "0.0.1"}')
    assert not dev_compile.web_dir_looks_ready(tmp_path)


def _files_under(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())


def test_a_compiled_file_replaces_the_old_one_whole_never_written_in_place(monkeypatch, tmp_path):
    """Vite reads a changed file at once: what it reads is the old content or the new one. A
    reader that opened the old file still reads it whole (an in-place write truncates it under
    the reader), and nothing but the file itself appears, in or beside the web directory."""
    web = tmp_path / ".web-dev"
    monkeypatch.setattr(dev_compile, "web_dir", lambda: web)
    route = web / "app" / "routes" / "[a-propos]._index.jsx"
    route.parent.mkdir(parents=True)
    route.write_text("export default function Old() {}\n", encoding="utf-8")
    with route.open(encoding="utf-8") as opened_before:
        assert dev_compile.write({route: "export default function New() {}\n"}) == [route]
        assert opened_before.read() == "export default function Old() {}\n"
    assert route.read_text(encoding="utf-8") == "export default function New() {}\n"
    assert route.stat().st_mode & 0o777 == 0o644  # readable by all, as Reflex's writer leaves it
    assert dev_compile.write({route: "export default function New() {}\n"}) == []  # the same: not written
    assert _files_under(tmp_path) == [".web-dev/app/routes/[a-propos]._index.jsx"]


def test_a_copied_asset_and_stylesheet_replace_the_old_ones_whole(monkeypatch, tmp_path):
    """A saved style or widget reaches the web directory as a whole file too (`copy_assets`)."""
    import types

    web = tmp_path / ".web-dev"
    monkeypatch.setattr(dev_compile, "web_dir", lambda: web)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "assets" / "styles").mkdir(parents=True)
    style, widget = tmp_path / "assets" / "styles" / "site.css", tmp_path / "assets" / "widget.jsx"
    style.write_text("a { color: red }\n")
    widget.write_text("export const W = 2;\n")
    copies = [
        web / "public" / "styles" / "site.css",
        web / "styles" / "styles" / "site.css",
        web / "public" / "widget.jsx",
    ]
    for copy, old in zip(copies, ["a {}\n", "a {}\n", "export const W = 1;\n"], strict=True):
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(old)
    opened = [copy.open() for copy in copies]
    app = types.SimpleNamespace(stylesheets=["/styles/site.css"])
    assert dev_compile.copy_assets(app, [style, widget]) is False  # both swapped in place by Vite
    assert [file.read() for file in opened] == ["a {}\n", "a {}\n", "export const W = 1;\n"]
    for file in opened:
        file.close()
    assert [copy.read_text() for copy in copies] == [
        "a { color: red }\n",
        "a { color: red }\n",
        "export const W = 2;\n",
    ]
    assert _files_under(web) == sorted(str(copy.relative_to(web)) for copy in copies)
    assert not any(dev_compile.staging_dir(web).iterdir())


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    # The web directory and the development mode are the process's environment: given back
    # afterwards (left set, the later tests of the process read a build that is not theirs).
    kept = {name: os.environ.get(name) for name in ("REFLEX_WEB_WORKDIR", "REFLEX_ENV_MODE")}
    os.environ["REFLEX_WEB_WORKDIR"] = str(tmp_path_factory.mktemp("web"))
    dev_compile.set_dev_mode()
    app, _ = dev_compile.load_app()
    yield app
    for name, value in kept.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


GROUPS = ("about", "home", routes.NOT_FOUND_KEY)


def test_a_route_compiled_alone_writes_what_a_compile_of_several_writes_for_it(app):
    compiler = dev_compile.GroupCompiler(app)
    definitions = [d for group in GROUPS for d in page_table.group_definitions(group, memo_module_per_route=True)]
    dev_compile.commit_pages(app, definitions)
    together = compiler.compile([d.route for d in definitions]).files
    alone: dict[Path, str] = {}
    for definition in definitions:
        files = compiler.compile([definition.route]).files
        assert not set(files) & set(alone), "two routes wrote the same file"
        alone.update(files)
    assert alone == together
    # Each route's memoised components are in a module of its own, beside the route's file.
    memo_modules = [path for path in alone if "app_components" in path.parts]
    assert len(memo_modules) == len(definitions)


def test_a_compiled_group_says_what_only_a_whole_compile_would_give_it(app):
    compiler = dev_compile.GroupCompiler(app)
    definitions = page_table.group_definitions("about", memo_module_per_route=True)
    dev_compile.commit_pages(app, definitions)
    compiled = compiler.compile([d.route for d in definitions])
    assert not compiled.creates_state
    assert compiled.app_wraps  # the state provider and event loop every page asks for
    assert {path.name for path in compiled.files if "routes" in path.parts} == {"[a-propos]._index.jsx"}


def test_a_fresh_clones_placeholders_are_the_files_its_first_compile_writes(app, tmp_path):
    """On a fresh clone the dev server starts before the app is imported, on placeholders of
    the root and of the first compile's routes: the same files, so that the compile changes
    them without adding a route (React Router takes in a new route file only a moment after it
    appears, and a request meanwhile fails). The home page's files are what the dev server
    transforms as it starts."""
    from reflex_base import constants

    from marketing_site.devloop import worker

    first_routes = worker.first_routes()
    definitions = [d for group in worker.FIRST_GROUPS for d in page_table.group_definitions(group)]
    assert sorted(first_routes) == sorted(d.route for d in definitions)
    dev_compile.commit_pages(app, definitions)
    files = dev_compile.GroupCompiler(app).compile(first_routes).files
    web = dev_compile.web_dir()
    written = {path.relative_to(web).as_posix() for path in files if "routes" in path.parts}
    placeholders = {Path(_page_path(route)).relative_to(web).as_posix() for route in first_routes}
    assert written == placeholders
    assert dev_compile.root_route_file() == "app/" + constants.PageNames.APP_ROOT
    warm = dev_compile.warmup_files([path for _, path in routes.HOME.paths()])
    home_files = {p for p in written if p.startswith("app/routes/") and "404" not in p and "$" not in p}
    assert set(warm["ssrFiles"]) == {dev_compile.root_route_file(), *home_files}
    assert "app/entry.client.js" in warm["clientFiles"]


def _page_path(route: str) -> str:
    from reflex.compiler.utils import get_page_path
    from reflex_base.utils.format import format_route

    return get_page_path(format_route(route))


def test_a_fresh_clones_vite_config_is_the_one_its_compile_writes(app):
    """Written before the first compile, it must be what the compile writes, or the dev server
    restarts when the compile rewrites it: Reflex's, changed by every plugin's modify task."""
    from reflex.compiler import compiler
    from reflex.utils import frontend_skeleton
    from reflex_base.config import get_config

    config = get_config()
    tasks = []
    radix, _ = compiler._resolve_radix_themes_plugin(app, config.plugins)
    for plugin in config.plugins:
        plugin.pre_compile(
            add_save_task=lambda *args, **kwargs: None,
            add_modify_task=lambda *args: tasks.append(args),
            radix_themes_plugin=radix,
            unevaluated_pages=[],
        )
    expected = frontend_skeleton._compile_vite_config(config)
    for path, modify in tasks:
        if path == "vite.config.js":
            expected = modify(expected)
    assert dev_compile.compiled_vite_config() == expected
    assert "siteFrontend(" in expected


def test_the_dev_server_is_started_with_the_condition_react_routers_cli_would_restart_for(tmp_path, monkeypatch):
    """Under bun, `run dev` starts React Router's CLI without the `development` condition, and it
    starts itself again with it; the loop runs the script's command with the condition at once.
    Anything else (npm, a script Reflex changed) runs the script as Reflex does."""
    import json

    from reflex.utils.exec import _DEV_CONDITION_FLAG
    from reflex_base.constants.installer import PackageJson

    monkeypatch.setenv("REFLEX_WEB_WORKDIR", str(tmp_path))
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"dev": PackageJson.Commands.DEV}}))
    bun = ["/x/.tools/node_modules/.bin/bun", "--bun"]
    assert PackageJson.Commands.DEV.split()[:2] == ["react-router", "dev"]  # what Reflex writes
    assert dev_compile.dev_script_arguments(bun) == [
        _DEV_CONDITION_FLAG,
        "node_modules/.bin/react-router",
        *PackageJson.Commands.DEV.split()[1:],
    ]
    assert _DEV_CONDITION_FLAG == "--conditions=development"
    assert dev_compile.dev_script_arguments(["/usr/bin/npm"]) == ["run", "dev"]
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"dev": "vite --host"}}))
    assert dev_compile.dev_script_arguments(bun) == ["run", "dev"]
    (tmp_path / "package.json").unlink()
    assert dev_compile.dev_script_arguments(bun) == ["run", "dev"]
