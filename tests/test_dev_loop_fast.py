"""The development loop's decisions, without starting it (docs/development.md).

What it watches (everything a maintainer edits, nothing the site, the tests or the tools
write), which pages a file feeds, what is compiled again after a restart, and how a mistake is
said. `tests/test_dev_loop.py` starts `make dev` in a copy and drives Chromium.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marketing_site import routes
from marketing_site.content import sources, words
from marketing_site.devloop import depmap, manifest, mistakes, watched
from marketing_site.devloop.watched import Kind

ROOT = Path(__file__).resolve().parent.parent
segment = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-.", min_size=1, max_size=12).filter(
    lambda s: s not in (".", "..")
)


# -- what is watched ----------------------------------------------------------------------


# What the running site, the tests and the tools write (the Makefile, .gitignore, the scripts).
WRITTEN = [
    "var/marketing_site.db",
    "var/marketing_site.db-wal",
    "var/marketing_site.db-shm",
    "var/metrics/counter_1234.db",
    "var/dev/backend-reload/trigger.py",
    "var/site.log",
    ".web/app/routes/_index.jsx",
    ".web-dev/app/routes/_index.jsx",
    ".web-dev/.devloop.json",
    ".web-engines/build/client/index.html",
    ".states/abc",
    "reflex.lock/bun.lock",
    "files/ebook-nereo.pdf",
    "assets/og/home-fr.png",
    "assets/external/marketing_site/components/notice.jsx",
    "test-artifacts/engines.log",
    "tests/test_x.py",
    "docs/development.md",
    "scripts/bench_dev.py",
    "dist/site.tar.gz",
    "bench-results/x.json",
    "mutants/marketing_site/routes.py",
    ".hypothesis/examples/x",
    ".venv/lib/python3.11/site-packages/reflex/app.py",
    ".tools/node_modules/bun/package.json",
    "marketing_site/__pycache__/routes.cpython-311.pyc",
    "marketing_site/content/fr/.home.yaml.swp",
    "marketing_site/content/fr/home.yaml~",
    "marketing_site/content/fr/4913",
    "marketing_site/content/fr/.#home.yaml",
    ".pytest_cache/v/cache/nodeids",
]


@pytest.mark.parametrize("path", WRITTEN)
def test_what_the_site_the_tests_and_the_tools_write_is_not_watched(path):
    assert watched.kind_of(ROOT / path) is None


def test_every_ignored_folder_of_the_repository_is_outside_the_watch():
    # .gitignore lists what runs and tools leave behind; only .env, the maintainer's own
    # configuration, is ignored by git and watched.
    for line in (ROOT / ".gitignore").read_text().splitlines():
        entry = line.strip().strip("/")
        if not entry or entry.startswith("#") or "*" in entry or entry == ".env":
            continue
        assert watched.kind_of(ROOT / entry / "file.py") is None, entry
        assert watched.kind_of(ROOT / entry) is None, entry


@settings(max_examples=200)
@given(
    top=st.sampled_from(
        ["var", ".web", ".web-dev", ".web-engines", "test-artifacts", "files", "dist", "mutants", "tests"]
    ),
    parts=st.lists(segment, min_size=1, max_size=4),
)
def test_nothing_under_a_written_folder_is_watched_whatever_its_name(top, parts):
    assert watched.kind_of(ROOT.joinpath(top, *parts)) is None


def _maintained_files() -> list[Path]:
    return [
        *sorted((ROOT / "marketing_site").rglob("*.py")),
        *sorted((ROOT / "marketing_site" / "content").rglob("*.yaml")),
        *sorted((ROOT / "marketing_site" / "content").rglob("*.md")),
        *sorted(p for p in (ROOT / "assets").rglob("*") if p.is_file()),
    ]


def test_everything_a_maintainer_edits_is_watched_with_what_it_asks_for():
    for path in _maintained_files():
        relative = path.relative_to(ROOT).as_posix()
        if (
            "__pycache__" in relative
            or path.name.startswith(".")
            or relative.startswith(("assets/og/", "assets/external/"))
        ):
            continue
        kind = watched.kind_of(path)
        if relative.startswith("marketing_site/devloop/"):
            assert kind is Kind.LOOP, relative
        elif path.suffix == ".py":
            assert kind is Kind.PYTHON, relative
        elif relative.startswith("marketing_site/content/"):
            assert kind is Kind.CONTENT, relative
        elif relative.startswith("assets/styles/") or relative == "assets/site.css":
            assert kind is Kind.STYLE, relative
        else:
            assert kind is Kind.ASSET, relative
    for name, kind in (("rxconfig.py", Kind.CONFIG), (".env", Kind.CONFIG), ("uv.lock", Kind.DEPENDENCIES)):
        assert watched.kind_of(ROOT / name) is kind
    assert watched.kind_of(ROOT / "alembic/versions/0099_new.py") is Kind.MIGRATION


def test_a_new_content_file_or_module_is_watched_before_it_exists():
    assert watched.kind_of(ROOT / "marketing_site/content/de/home.yaml") is Kind.CONTENT
    assert watched.kind_of(ROOT / "marketing_site/pages/partners/__init__.py") is Kind.PYTHON
    assert watched.kind_of(ROOT / "marketing_site/components/notice.jsx") is Kind.ASSET


def test_every_file_the_recipes_touch_is_watched():
    # docs/recipes.md is tests/test_recipes.py: every file a recipe edits or writes.
    source = (ROOT / "tests" / "test_recipes.py").read_text()
    touched = set(re.findall(r'(?:edit|add_yaml|write)\(\s*repo,\s*"([^"]+)"', source))
    touched |= set(re.findall(r'repo\s*/\s*"([^"]+\.(?:py|yaml|md|css|jsx))"', source))
    assert touched, "the recipes' files were not found in tests/test_recipes.py"
    for path in touched:
        assert watched.kind_of(ROOT / path) is not None, path


def test_the_folders_the_loop_watches_hold_nothing_the_running_site_writes():
    # The loop's own writes (the web directory, the backend's restart trigger) are outside them.
    from marketing_site.devloop import supervisor

    for folder in watched.watched_paths():
        assert not (ROOT / supervisor.WEB_DIR_NAME).is_relative_to(folder)
        assert not supervisor.RELOAD_DIR.is_relative_to(folder)


# -- which pages a file feeds -------------------------------------------------------------


@pytest.fixture(scope="module")
def graph() -> depmap.ImportGraph:
    return depmap.ImportGraph()


def test_a_page_group_is_fed_by_its_package_and_the_shared_layout_only(graph):
    about = graph.group_modules("about")
    assert {"marketing_site.pages.about", "marketing_site.pages.about.hero"} <= about
    assert {"marketing_site.components.layout", "marketing_site.components.footer", "marketing_site.routes"} <= about
    assert "marketing_site.pages.home" not in about
    assert not any(m.startswith("marketing_site.pages.demo") for m in about)
    assert (
        "marketing_site.pages.home.hero" in graph.group_modules("home")
        if "marketing_site.pages.home.hero" in graph.paths
        else True
    )


def test_the_import_graph_holds_every_import_statement_of_the_package(graph):
    for name, path in graph.paths.items():
        source = path.read_text()
        for imported in re.findall(r"^\s*from (marketing_site[\w.]*) import", source, re.MULTILINE):
            if imported in graph.paths and imported != name:
                assert imported in graph.imports[name], (name, imported)


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_a_module_is_run_again_after_everything_it_imports_at_its_top(graph, data):
    modules = data.draw(st.lists(st.sampled_from(sorted(graph.paths)), min_size=2, max_size=12, unique=True))
    order = graph.reload_order(modules)
    assert sorted(order) == sorted(modules)
    position = {module: index for index, module in enumerate(order)}
    cyclic = {m for m in modules if m in graph.closure(graph.top_level[m] & set(modules) - {m}) & set(modules)}
    for module in set(modules) - cyclic:
        for dependency in graph.top_level[module] & set(modules) - cyclic:
            assert position[dependency] < position[module], (dependency, module)


def test_a_changed_module_reaches_every_module_that_imports_it(graph):
    importers = graph.importers(["marketing_site.components.footer"])
    assert {"marketing_site.components.layout", depmap.PAGE_TABLE, depmap.APP_MODULE} <= importers
    assert "marketing_site.pages.about.hero" not in importers


def test_only_view_modules_are_run_again_in_the_compiling_process():
    assert depmap.is_reloadable("marketing_site.pages.about.hero")
    assert depmap.is_reloadable("marketing_site.content.words")
    assert depmap.is_reloadable("marketing_site.routes")
    for module in (
        "marketing_site.state.auth",
        "marketing_site.services.leads",
        "marketing_site.db.leads",
        "marketing_site.settings",
        "marketing_site.reflex_internals.tab_handover",
        "marketing_site.content.sources",
        depmap.APP_MODULE,
    ):
        assert not depmap.is_reloadable(module), module


def test_every_backend_route_is_behind_a_prefix_the_dev_server_proxies():
    from marketing_site.api import api_app

    for route in api_app().routes:
        assert route.path.startswith(routes.BACKEND_PREFIXES), route.path


# -- what a page reads --------------------------------------------------------------------


def _render_recorded(group: str) -> set[Path]:
    from marketing_site import page_table

    sources.clear_caches()
    with sources.recording() as reads:
        for definition in page_table.group_definitions(group, memo_module_per_route=True):
            definition.render()
    return reads


def test_a_page_records_the_words_files_it_reads_cache_or_not():
    cold = _render_recorded("about")
    content = sources.CONTENT_DIR
    assert {content / "fr/about.yaml", content / "fr/layout.yaml", content / "fr/meta.yaml"} <= cold
    assert not any(path.name == "home.yaml" for path in cold)
    # A second page served from the caches reports the same files.
    from marketing_site import page_table

    with sources.recording() as warm:
        for definition in page_table.group_definitions("about", memo_module_per_route=True):
            definition.render()
    assert warm == cold


def test_every_content_file_a_page_opens_is_among_the_reads_it_reports():
    # The loaders note what they read (content/sources.py); an audit hook sees every open().
    opened: set[Path] = set()
    watching = {"on": False}

    def hook(event, args):
        if watching["on"] and event == "open" and isinstance(args[0], str | Path):
            path = Path(args[0]).resolve()
            if path.is_relative_to(sources.CONTENT_DIR):
                opened.add(path)

    sys.addaudithook(hook)
    for group in ("home", "about", "accessibility", "ebook", "pricing", routes.NOT_FOUND_KEY):
        opened.clear()
        sources.clear_caches()
        watching["on"] = True
        try:
            reads = _render_recorded(group)
        finally:
            watching["on"] = False
        assert opened <= {path.resolve() for path in reads}, (group, opened - reads)


def test_a_word_missing_in_english_is_reported_with_the_file_to_complete():
    with sources.recording_fallbacks() as fell:
        words.words("en", "booking_sales") if (sources.CONTENT_DIR / "fr/booking_sales.yaml").exists() else None
    if fell:
        message = mistakes.missing_translation(*fell[0])
        assert message.startswith("content/en/booking_sales.yaml: no words under")
        assert "content/fr/booking_sales.yaml" in message


# -- what a restart compiles again --------------------------------------------------------


def test_after_a_restart_only_what_changed_since_is_compiled(tmp_path, monkeypatch):
    groups = routes.page_keys()
    about = sources.CONTENT_DIR / "fr/about.yaml"
    record = manifest.Manifest(reflex="1", origin="http://o", modules=manifest.module_hashes())
    for group in groups:
        record.record_group(group, [f"/{group}"], {about} if group == "about" else set())
    record.save(tmp_path)
    loaded = manifest.Manifest.load(tmp_path)
    assert manifest.staleness(loaded, reflex="1", origin="http://o", groups=groups).nothing
    # A word changed while the loop was stopped: its pages only.
    loaded.groups["about"]["reads"][str(about)] = "old"
    assert manifest.staleness(loaded, reflex="1", origin="http://o", groups=groups).groups == {"about"}
    # A page's module: its group; a shared component: every group; a backend module: everything.
    for module, expected in (
        ("marketing_site.pages.about.hero", {"about"}),
        ("marketing_site.components.footer", set(groups)),
    ):
        changed = manifest.Manifest.load(tmp_path)
        changed.modules[module] = "old"
        assert manifest.staleness(changed, reflex="1", origin="http://o", groups=groups).groups == expected, module
    changed = manifest.Manifest.load(tmp_path)
    changed.modules["marketing_site.services.leads"] = "old"
    assert "services.leads" in manifest.staleness(changed, reflex="1", origin="http://o", groups=groups).whole
    for reflex, origin in (("2", "http://o"), ("1", "http://other")):
        assert manifest.staleness(manifest.Manifest.load(tmp_path), reflex=reflex, origin=origin, groups=groups).whole
    assert manifest.staleness(None, reflex="1", origin="http://o", groups=groups).whole
    assert manifest.staleness(
        manifest.Manifest.load(tmp_path), reflex="1", origin="http://o", groups=[*groups, "new"]
    ).whole


# -- how a mistake is said ----------------------------------------------------------------


@pytest.fixture
def content(tmp_path, monkeypatch) -> Path:
    """A content folder of our own, read by the real loader."""
    for lang in ("fr", "en"):
        (tmp_path / lang).mkdir()
    monkeypatch.setattr(words, "CONTENT_DIR", tmp_path)
    monkeypatch.setattr(sources, "REPOSITORY", tmp_path.parent)
    sources.clear_caches()
    yield tmp_path
    sources.clear_caches()


def _said(error: BaseException) -> mistakes.Mistake:
    return mistakes.describe(error, "compiling the page 'home'")


def test_a_yaml_syntax_error_is_said_with_its_file_and_line(content):
    (content / "fr/home.yaml").write_text("hero:\n  title: Bonjour\n  lead: Nous: sommes\n")
    with pytest.raises(sources.ContentError) as raised:
        words.words("fr", "home.hero.title")
    said = _said(raised.value)
    assert said.where == f"{content.name}/fr/home.yaml, line 3"
    assert "not valid YAML" in said.what and "quotes" in said.todo and "last good version" in said.todo
    assert "Traceback" not in said.paragraph()


def test_an_unknown_placeholder_is_said_with_its_line_and_the_known_ones(content):
    (content / "fr/home.yaml").write_text("hero:\n  title: Bonjour\n  lead: Chez {{brnad}}\n")
    with pytest.raises(sources.ContentError) as raised:
        words.words("fr", "home.hero.lead")
    said = _said(raised.value)
    assert said.where.endswith("fr/home.yaml, line 3")
    assert "{{brnad}}" in said.what and "{{brand}}" in said.todo


def test_a_markdown_document_without_an_anchor_is_said_with_its_line(content):
    (content / "fr/legal.md").write_text(
        "---\ntitle: Mentions\n---\n\n## Éditeur {#editeur}\n\nTexte.\n\n## Hébergeur\n\nTexte.\n"
    )
    with pytest.raises(sources.ContentError) as raised:
        words.document("fr", "legal")
    assert _said(raised.value).where.endswith("fr/legal.md, line 9")


def test_words_missing_in_every_language_are_said_with_the_file_they_belong_in(content):
    (content / "fr/home.yaml").write_text("hero:\n  title: Bonjour\n")
    namespace: dict = {"words": words.words}
    code = compile(
        "def page(lang):\n    return words(lang, 'home.hero.lede')\n",
        str(ROOT / "marketing_site/pages/home/hero.py"),
        "exec",
    )
    exec(code, namespace)  # noqa: S102 - a page module's code, with its file name
    with pytest.raises(words.MissingWords) as raised:
        namespace["page"]("en")
    said = _said(raised.value)
    assert said.where == "content/en/home.yaml"
    assert "`hero.lede`" in said.what and "marketing_site/pages/home/hero.py, line 2" in said.what


def test_a_page_module_that_raises_is_said_with_its_own_line():
    namespace: dict = {}
    code = compile(
        "def page(lang):\n    return {}['missing']\n", str(ROOT / "marketing_site/pages/about/hero.py"), "exec"
    )
    exec(code, namespace)  # noqa: S102 - a page module's code, with its file name
    with pytest.raises(KeyError) as raised:
        namespace["page"]("fr")
    said = _said(raised.value)
    assert said.where == "marketing_site/pages/about/hero.py, line 2"
    assert said.what.startswith("KeyError")


def test_a_python_syntax_error_is_said_with_its_line():
    try:
        compile("def page(lang):\n    return (\n", str(ROOT / "marketing_site/pages/about/hero.py"), "exec")
    except SyntaxError as error:
        said = _said(error)
    assert said.where.startswith("marketing_site/pages/about/hero.py, line ")
    assert "Python cannot read this line" in said.what


# -- a save taken in while the pages compile ------------------------------------------------


@pytest.fixture(scope="module")
def dev_app(tmp_path_factory):
    """The app as the compiling process imports it, writing into a web directory of its own whose
    package.json names the project's locked packages (a compile finds nothing to install)."""
    import json
    import os

    from marketing_site.reflex_internals import dev_compile

    # The web directory and the development mode are the process's environment: given back.
    kept = {name: os.environ.get(name) for name in ("REFLEX_WEB_WORKDIR", "REFLEX_ENV_MODE")}
    web = tmp_path_factory.mktemp("web-dev")
    os.environ["REFLEX_WEB_WORKDIR"] = str(web)
    locked = dict(spec.rpartition("@")[::2] for spec in dev_compile.locked_packages())
    (web / "package.json").write_text(json.dumps({"dependencies": locked}))
    dev_compile.set_dev_mode()
    app, _ = dev_compile.load_app()
    yield app, web
    for name, value in kept.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def test_a_fix_saved_while_the_pages_compile_after_its_mistake_is_compiled_and_said(dev_app, tmp_path, monkeypatch):
    # In one CI run the fixed file's save never reached the tab: taken in after the compile
    # that followed the page's mistake in the same pass, it was left queued until another save.
    import multiprocessing
    import shutil

    from marketing_site import page_table
    from marketing_site.devloop import worker
    from marketing_site.reflex_internals import dev_compile

    app, web = dev_app
    content = tmp_path / "content"
    shutil.copytree(sources.CONTENT_DIR, content, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    monkeypatch.setattr(words, "CONTENT_DIR", content)
    sources.clear_caches()
    supervisor_end, worker_end = multiprocessing.Pipe()
    loop = worker.Worker(worker_end, "http://127.0.0.1:3000")
    loop.app, loop.compiler = app, dev_compile.GroupCompiler(app)
    compiled = ("about", "home")
    # The frame on disk has the wrappers these pages ask for; the other pages were compiled before.
    definitions = [d for group in compiled for d in page_table.group_definitions(group, memo_module_per_route=True)]
    dev_compile.commit_pages(app, definitions)
    loop.known_wraps = set(loop.compiler.compile([d.route for d in definitions]).app_wraps)
    for group in set(page_table.groups()) - set(compiled):
        loop.records[group] = worker.GroupRecord([d.route for d in page_table.group_definitions(group)], {})
    loop.compile_groups(compiled, reason="started")
    assert not loop.queue and not loop.failing

    # about.yaml saved with a word of common.yaml's that the loop has not read yet (its words are
    # cached): the open page fails first. common.yaml's save, its fix, is waiting on the pipe: the
    # loop takes it in after the next compile (home's), as it would a save made during that compile.
    about, common, home = (content / "fr" / f"{name}.yaml" for name in ("about", "common", "home"))
    about.write_text(
        about.read_text(encoding="utf-8").replace(
            "  title: Qui sommes-nous ?", "  title: Qui sommes-nous, {{common.zz_later}} ?"
        ),
        encoding="utf-8",
    )
    common.write_text(common.read_text(encoding="utf-8") + "zz_later: dit plus tard\n", encoding="utf-8")
    loop.queue_changes(
        [{"type": "changes", "changes": [["content", str(about)], ["content", str(home)]], "open": ["/a-propos"]}]
    )
    supervisor_end.send({"type": "changes", "changes": [["content", str(common)]], "open": ["/a-propos"]})
    said = []
    while supervisor_end.poll():
        said.append(supervisor_end.recv()["type"])
    loop.compile_queue()
    while supervisor_end.poll():
        said.append(supervisor_end.recv()["type"])
    sources.clear_caches()

    assert said.count("mistake") == 1 and "ok" in said[said.index("mistake") :], said
    assert "dit plus tard" in (web / "app" / "routes" / "[a-propos]._index.jsx").read_text(encoding="utf-8")
    assert not loop.queue and not loop.failing


def _children_running(pid: int, name: str) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and name.encode() in command:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.parametrize("loop_stopping", [True, False])
def test_migrations_killed_by_a_signal_are_said_unless_the_loop_is_stopping(
    loop_stopping, tmp_path, monkeypatch, capsys
):
    """Ctrl-C reaches alembic with the loop (one process group), often before the loop's own
    handler runs: that is no failure to report. Killed otherwise, the migrations are said
    stopped, by which signal: never the empty "failed:" a killed alembic printed before."""
    import os
    import signal
    import threading
    import time

    from marketing_site.devloop import supervisor

    monkeypatch.setattr(os, "environ", dict(os.environ))  # the supervisor exports its settings
    loop = supervisor.Supervisor({**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}"})
    answer: list[bool] = []
    migrating = threading.Thread(target=lambda: answer.append(loop.migrate()))
    migrating.start()
    deadline = time.monotonic() + 60
    while not (children := _children_running(os.getpid(), "alembic")) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert children, "alembic never started"
    os.kill(children[0], signal.SIGTERM)
    if loop_stopping:
        time.sleep(0.2)  # the loop's handler, a moment after alembic's death
        loop.stop.set()
    migrating.join(30)
    said = capsys.readouterr().out
    assert answer == [False]
    if loop_stopping:
        assert "migrations" not in said
    else:
        assert "make dev: the database migrations were stopped by SIGTERM." in said
        assert "failed" not in said


# The Vite process of `make dev` runs under bun (Reflex's runtime for the frontend).
BUN = Path(__file__).resolve().parent.parent / ".tools" / "node_modules" / ".bin" / "bun"
DEV_PLUGIN = Path(__file__).resolve().parent.parent / "marketing_site/reflex_internals/frontend/dev_plugin.js"
TYPEGEN_RACE = """
import siteDevLoop from "./dev_plugin.mjs";
siteDevLoop({ SITE_DEV_BACKEND: "http://127.0.0.1:9" });
const enoent = (path) => Object.assign(new Error("ENOENT: no such file or directory, open '" + path + "'"), { code: "ENOENT", path });
Promise.reject(enoent("/w/.web-dev/.react-router/types/app/routes/+types/[a-propos]._index.ts"));
setTimeout(() => {
  console.log("still serving");
  if (process.argv[2]) Promise.reject(process.argv[2] === "enoent" ? enoent("/w/.web-dev/app/routes/x.jsx") : new Error(process.argv[2]));
}, 50);
setTimeout(() => console.log("served on"), 400);
"""


@pytest.mark.parametrize("then", ["", "a bug of its own", "enoent"])
def test_the_dev_server_outlives_react_routers_typegen_race_and_only_it(then, tmp_path):
    """The rejection React Router's type generation leaves unhandled when two rewrites of
    `.react-router/types` overlap no longer stops the dev server; any other rejection still
    does (the loop then says so and starts it again), an ENOENT elsewhere too."""
    import subprocess

    if not BUN.exists():
        pytest.fail(f"{BUN} is missing: `make install` installs bun")
    (tmp_path / "dev_plugin.mjs").write_text(DEV_PLUGIN.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "race.mjs").write_text(TYPEGEN_RACE, encoding="utf-8")
    ran = subprocess.run(
        [str(BUN), "race.mjs", *([then] if then else [])],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "still serving" in ran.stdout, ran.stderr
    if not then:
        assert ran.returncode == 0 and "served on" in ran.stdout, ran.stderr
    else:
        assert ran.returncode == 1 and "served on" not in ran.stdout
        assert ("a bug of its own" if then != "enoent" else "app/routes/x.jsx") in ran.stderr


def test_a_dev_server_that_stops_by_itself_is_said_and_started_again_until_it_keeps_stopping(
    tmp_path, monkeypatch, capsys
):
    """Each stop is said with its exit code; the loop starts it again up to VITE_EXITS_ALLOWED
    times a minute, then says to correct what its lines say. A stop the loop asked for, or of a
    server already replaced, is not one."""
    import os
    import subprocess

    from marketing_site.devloop import supervisor

    monkeypatch.setattr(os, "environ", dict(os.environ))
    loop = supervisor.Supervisor({**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}"})
    starts: list[subprocess.Popen] = []

    def start_failing_server(hold: bool = False) -> None:  # a real process that stops at once
        loop.vite = subprocess.Popen(["sh", "-c", "exit 3"])
        loop.vite.wait()
        starts.append(loop.vite)

    monkeypatch.setattr(loop, "start_vite", start_failing_server)
    loop.start_vite()
    replaced = loop.vite
    for _ in range(supervisor.VITE_EXITS_ALLOWED + 2):
        loop.on_vite_exit(starts[-1])
    loop.on_vite_exit(replaced)  # an earlier server's exit, reported late
    said = capsys.readouterr().out
    assert len(starts) == 1 + supervisor.VITE_EXITS_ALLOWED
    assert (
        said.count("make dev: the dev server stopped (exit code 3; its lines above say why); starting it again.") == 3
    )
    assert f"stopped again (exit code 3), {supervisor.VITE_EXITS_ALLOWED + 1} times in" in said
    assert loop.vite is None
    loop.stop.set()
    loop.on_vite_exit(starts[-1])
    assert capsys.readouterr().out == ""


LOOP_GONE = """
import siteDevLoop from "./dev_plugin.mjs";
siteDevLoop({ SITE_DEV_BACKEND: "http://127.0.0.1:9", SITE_DEV_LOOP_PID: process.argv[2] });
setInterval(() => {}, 1000);  // a server: it runs until something stops it
setTimeout(() => { console.log("still running after 5 s"); process.exit(3); }, 5000);
"""


@pytest.mark.parametrize("loop_alive", [True, False])
def test_the_dev_server_stops_once_the_loops_process_is_gone(loop_alive, tmp_path):
    """Killed, the loop cannot stop the dev server it started in a session of its own: the
    server stops by itself once the loop's process is gone, and runs on while it is there."""
    import subprocess

    (tmp_path / "dev_plugin.mjs").write_text(DEV_PLUGIN.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "server.mjs").write_text(LOOP_GONE, encoding="utf-8")
    import threading

    loop = subprocess.Popen(["sleep", "30" if loop_alive else "0.5"])
    threading.Thread(target=loop.wait, daemon=True).start()  # reaped as make reaps the loop
    try:
        ran = subprocess.run(
            [str(BUN), "server.mjs", str(loop.pid)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        loop.kill()
        loop.wait()
    if loop_alive:
        assert ran.returncode == 3 and "still running after 5 s" in ran.stdout
    else:
        assert ran.returncode == 0 and f"make dev (process {loop.pid}) is gone" in ran.stderr


# -- a fresh clone's start ----------------------------------------------------------------


def test_a_fresh_worker_imports_at_once_and_compiles_only_once_the_web_directory_is_prepared():
    """On a fresh clone the supervisor prepares the web directory while the worker imports the
    app: the worker writes nothing before `prepared`. Saves sent meanwhile are kept for after the
    first compile, and a `go` that came first (a worker started again after the first page) is
    not waited for a second time."""
    import multiprocessing

    from marketing_site.devloop import worker

    supervisor_end, worker_end = multiprocessing.Pipe()
    loop = worker.Worker(worker_end, "http://127.0.0.1:3000", fresh=True)
    change = {"type": "changes", "changes": [["content", "/x/content/fr/home.yaml"]], "open": ["/"]}
    for message in (change, {"type": "go"}, change, {"type": "prepared"}, {"type": "after"}):
        supervisor_end.send(message)
    assert loop._wait_for_prepared() == [change, change]
    assert loop.go_received
    assert loop._wait_for_go() == []
    assert worker_end.recv() == {"type": "after"}  # nothing read past `prepared`

    supervisor_end.send({"type": "stop"})
    with pytest.raises(SystemExit) as stopped:
        loop._wait_for_prepared()
    assert stopped.value.code == 0


def test_a_web_directory_that_cannot_be_prepared_is_said_and_a_save_tries_again(tmp_path, monkeypatch, capsys):
    """The supervisor prepares a fresh clone's web directory. When it cannot (here a file where
    the directory should be), the maintainer reads why, the held tab is not kept waiting, the
    worker is told to stop, and the next save starts a worker that prepares it again; once
    prepared, the dev server starts holding its requests and the worker is told."""
    import os

    from marketing_site.devloop import supervisor

    monkeypatch.setattr(os, "environ", dict(os.environ))
    loop = supervisor.Supervisor({**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}"})
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    os.environ["REFLEX_WEB_WORKDIR"] = str(blocked / ".web-dev")
    sent: list[dict] = []

    class Connection:
        def send(self, message: dict) -> None:
            sent.append(message)

    class Alive:
        def is_alive(self) -> bool:
            return True

    loop.connection, loop.worker = Connection(), Alive()
    vite_starts: list[bool] = []
    monkeypatch.setattr(loop, "start_vite", lambda hold=False: vite_starts.append(hold))
    monkeypatch.setattr(loop, "post", lambda path, body: False)
    loop.pages_ready = False

    loop.preparing = True  # as start_worker leaves it
    loop.prepare_web_dir()
    event, payload = loop.events.get_nowait()
    assert event == "prepare-failed"
    loop.dispatch(event, payload)
    said = capsys.readouterr().out
    assert "preparing the web directory" in said and str(blocked) in said
    assert loop.pages_ready and loop.worker_failed and sent == [{"type": "stop"}]
    assert not loop.web_prepared and not loop.preparing and vite_starts == []

    restarts: list[str] = []
    monkeypatch.setattr(loop, "restart_worker", lambda reason, backend: restarts.append(reason))
    loop.on_changes([(Kind.CONTENT, tmp_path / "home.yaml")])
    assert restarts == ["a file was saved after the app failed to import"]

    loop.dispatch("web-prepared", None)
    assert loop.web_prepared and vite_starts == [True] and sent[-1] == {"type": "prepared"}

    # The app failed to import before the directory was ready: the dev server does not hold the
    # tab for pages that will not come (it shows the mistake).
    loop.web_prepared, loop.vite = False, None
    mistake = mistakes.step_failed(ValueError("x"), "importing the app").as_dict()
    loop.on_worker({"type": "mistake", "mistake": mistake, "fatal": True})
    loop.dispatch("web-prepared", None)
    assert vite_starts[-1] is False and loop.pages_ready


def test_a_step_of_the_loops_own_that_failed_is_said_with_its_reason():
    """Reflex stops with SystemExit: its reason is said when it carries one (rxconfig.py stops so
    on a wrong setting), else the lines it logged are pointed to; other errors by type and text."""
    said = mistakes.step_failed(SystemExit("DATABASE_URL: not a database address"), "preparing the web directory")
    assert said.paragraph().startswith(
        "make dev: DATABASE_URL: not a database address (while preparing the web directory). The lines above"
    )
    assert mistakes.step_failed(SystemExit(1), "preparing").what == "Reflex stopped (while preparing)"
    assert mistakes.step_failed(OSError(28, "No space left"), "x").what == "OSError: [Errno 28] No space left (while x)"
    assert "save any file to try again" in said.todo


def test_quieting_reflex_again_at_each_dev_server_start_adds_no_filter_twice():
    import logging

    from marketing_site.devloop import worker

    loggers = [logging.getLogger("reflex.console"), logging.getLogger("reflex.utils.js_runtimes")]
    worker.quiet_reflex_routine()
    before = [len(logger.filters) for logger in loggers]
    for _ in range(3):  # the dev server started again three times
        worker.quiet_reflex_routine()
    assert [len(logger.filters) for logger in loggers] == before
    said = logging.LogRecord("reflex.console", logging.INFO, __file__, 1, "Progress: 3/9", None, None)
    assert not all(f(said) for f in loggers[0].filters)
