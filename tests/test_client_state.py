"""Client variables (reflex_internals/client_state.py, client_state.js): declared in Python, kept in
the browser's storage or read from its clock, set by compiled event specs, applied before the
first paint. Build-free: the JavaScript runs in Node with stand-ins for the browser
(tests/js/client_state_run.mjs), the components are compiled as Reflex compiles a page.
tests/test_client_state_browser.py shows the same in Chromium on the built site."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
import reflex as rx
from hypothesis import given, settings
from hypothesis import strategies as st
from reflex.compiler.compiler import compile_page
from reflex.experimental.client_state import ClientStateVar, _client_state_ref
from servers import ROOT

from marketing_site.reflex_internals import client_state, shared_assets
from marketing_site.reflex_internals.client_state import ClientVar, ClientVarError, hidden_when, script_only
from marketing_site.services import site_storage

CLIENT_STATE_JS = ROOT / "marketing_site" / "reflex_internals" / "client_state.js"
RUNNER = ROOT / "tests" / "js" / "client_state_run.mjs"


def run_js(steps: list[dict], **setup) -> dict:
    done = subprocess.run(
        ["node", str(RUNNER), str(CLIENT_STATE_JS), json.dumps(setup), json.dumps(steps)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,  # its error output is the failure's message
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def declared(name: str, default: bool | str = False, **options) -> ClientVar:
    """A variable of this test (each test's own name: the registry is the process's)."""
    return ClientVar(name, default, **options)


def compiled(component: rx.Component) -> str:
    return compile_page("x", component)[1]


# -- what the site builds on in Reflex (touch point 19) ------------------------------------------


def test_the_client_state_var_the_site_builds_on_has_what_it_uses():
    """Reflex's ClientStateVar: its setter's name, the global setter it assigns in the client's
    `refs` (which setClientVar and useClientVar call), its value accessor; the site's load hook
    runs after Reflex's hooks in the component."""
    csv = ClientStateVar.create("client_tripwire", default=False)
    setter = _client_state_ref(csv._setter_name)._js_expr
    assert setter == "refs['_client_state_setClient_tripwire']"
    hooks = list(csv._get_all_var_data().hooks)
    assert any(hook.startswith(f"{setter} = ") for hook in hooks), hooks
    assert str(csv.set) == setter
    var = declared("tripwire_var")
    code = compiled(rx.el.p(rx.cond(var.value, "yes", "no")))
    assignment = code.index("refs['_client_state_setClient_tripwire_var'] = ")
    load = code.index("useClientVar({")
    assert assignment < load
    assert re.search(r"const \[client_tripwire_var, setClient_tripwire_var\] = useState\(", code)
    assert 'from "$/public/external/marketing_site/reflex_internals/client_state/client_state.js"' in code


def test_the_shared_asset_paths_are_reflexs():
    """`rx.asset(name, shared=True)` called from each owning module links the file beside it and
    gives the import path the components use (computed without loading the app's configuration)."""
    code = """
import json
from pathlib import Path
from marketing_site.reflex_internals import client_state, site_notice
paths = {"client_state": client_state.link_shared_asset(), "site_notice": site_notice.link_shared_asset()}
links = {name: str(Path("assets" + path.removeprefix("$/public")).resolve()) for name, path in paths.items()}
print(json.dumps({"paths": paths, "links": links}))
"""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("TEST_", "REFLEX_"))}
    environment["REFLEX_TELEMETRY_ENABLED"] = "false"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    from marketing_site.reflex_internals import site_notice

    assert found["paths"] == {
        "client_state": client_state._MODULE,
        "site_notice": site_notice.SiteNotice.library,
    }
    internals = ROOT / "marketing_site" / "reflex_internals"
    assert found["links"] == {
        "client_state": str(internals / "client_state.js"),
        "site_notice": str(internals / "site_notice.jsx"),
    }
    assert shared_assets.import_path("a.b", "c.js") == "$/public/external/a/b/c.js"


# -- declaring a variable --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"name": "Closed", "default": False}, "name is lowercase"),
        ({"name": "x-y", "default": False}, "name is lowercase"),
        ({"name": "ok_default", "default": "open"}, "must be one of"),
        ({"name": "ok_storage", "default": False, "storage": "cookie"}, "storage is"),
        ({"name": "ok_choice", "default": "a", "choices": ("a", "B C")}, "short lowercase word"),
        ({"name": "ok_twins", "default": "true", "choices": ("true", True)}, "distinct choices"),
        ({"name": "ok_number", "default": 0}, "must be one of"),  # 0 == False, but not a choice
    ],
)
def test_a_variable_declared_wrong_is_refused_with_what_to_fix(arguments, message):
    with pytest.raises(ClientVarError, match=message):
        ClientVar(**arguments)


def test_two_modules_cannot_share_a_name_but_a_module_may_declare_its_own_again():
    declared("twice", False)
    again = declared("twice", True)  # the module imported again after an edit (the dev loop)
    assert client_state.REGISTRY["twice"] is again and again.default is True
    elsewhere: dict = {"__name__": "marketing_site.elsewhere", "ClientVar": ClientVar}
    with pytest.raises(ClientVarError, match="two client variables are named 'twice'"):
        exec("ClientVar('twice', False)", elsewhere)  # noqa: S102 - a module of its own, in a line


def test_a_window_is_read_only_and_its_bounds_are_instants():
    now = datetime.now(UTC)
    with pytest.raises(ClientVarError, match="no time zone"):
        ClientVar.window("naive_window", datetime(2026, 1, 1), None)
    with pytest.raises(ClientVarError, match="not after"):
        ClientVar.window("backwards_window", now, now - timedelta(seconds=1))
    window = ClientVar.window("read_only_window", now - timedelta(days=1), None)
    assert window.default is True
    with pytest.raises(ClientVarError, match="cannot be set"):
        window.set_value(False)


def test_every_storage_area_a_declared_variable_uses_is_in_the_privacy_policy():
    """The layout's variables (the announcements', the carousel's) keep their values under a key
    the privacy policy's table lists (services/site_storage.ITEMS renders it)."""
    import marketing_site.components.layout  # noqa: F401 - declares the site's variables

    listed = {(item.store, item.name) for item in site_storage.ITEMS}
    site = [var for var in client_state.REGISTRY.values() if var.name.startswith(("announcement_", "carousel_"))]
    assert site
    for var in site:
        spec = var.spec()
        assert spec["window"] is not None or (spec["area"], spec["key"]) in listed, var


# -- the page's head: the stylesheet and the gate ------------------------------------------------


def test_the_head_hides_an_element_by_the_value_html_carries_and_by_the_defaults_without_scripts():
    closed = declared("sheet_closed")
    mode = declared("sheet_mode", "list", choices=("list", "grid"))
    sheet = client_state.stylesheet([closed, mode])
    assert "html:not([data-client]) [data-client-hidden-at-build]" in sheet
    assert "html:not([data-client]) [data-client-script-only]" in sheet
    for var, value in ((closed, "true"), (closed, "false"), (mode, "list"), (mode, "grid")):
        assert f'html[data-client-{var.attribute}="{value}"] [data-client-hide~="{var.name}={value}"]' in sheet
    assert hidden_when((closed, True)) == {"data_client_hide": "sheet_closed=true"}
    assert hidden_when((closed, False), (mode, "grid")) == {
        "data_client_hide": "sheet_closed=false sheet_mode=grid",
        "data_client_hidden_at_build": "",  # the default (closed=False) hides it: without scripts too
    }
    assert script_only() == {"data_client_script_only": ""}
    with pytest.raises(ClientVarError, match="not one of"):
        hidden_when((mode, "table"))


def test_the_app_head_carries_every_variable_the_site_declares():
    from marketing_site.components import client_variables
    from marketing_site.marketing_site import app

    head = "".join(str(part) for part in app.head_components)
    # What the site declares (other tests of the process declare variables of their own, e.g. an
    # announcement a recipe adds, which no head of this app carries).
    site = [
        client_variables.CAROUSEL_PAUSED,
        *client_variables.ANNOUNCEMENT_ON.values(),
        *client_variables.ANNOUNCEMENT_CLOSED.values(),
    ]
    assert len(site) > 1
    for var in site:
        assert json.dumps(f"data-client-{var.attribute}")[1:-1] in head
        assert var.name in head


def test_the_gate_text_is_the_module_function_and_behaves_the_same(tmp_path):
    """The head's inline script is `applyClientVars` of client_state.js, run on the variables: the
    same attributes as the module's function for the same browser."""
    closed = declared("gate_closed")
    now = datetime.now(UTC)
    window = ClientVar.window("gate_window", now, now + timedelta(hours=1))
    specs = [closed.spec(), window.spec()]
    script = client_state.gate_script([closed, window])
    assert "</" not in script  # it cannot end its <script> element
    assert client_state.gate_script([closed, window]) == script  # the same build, the same CSP hash
    stored = json.dumps({"gate_closed": True})
    runner = tmp_path / "gate.mjs"
    runner.write_text(
        "const attributes = {};\n"
        "globalThis.document = { documentElement: { setAttribute: (n, v) => { attributes[n] = v; }, "
        "getAttribute: (n) => attributes[n] ?? null } };\n"
        "globalThis.window = { localStorage: { getItem: () => process.argv[2] }, sessionStorage: { getItem: () => null } };\n"
        f"Date.now = () => {window.spec()['window'][0]};\n"
        f"{script}\n"
        "process.stdout.write(JSON.stringify(attributes));\n"
    )
    done = subprocess.run(["node", str(runner), stored], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    inlined = json.loads(done.stdout)
    module = run_js(
        [{"op": "gate", "specs": specs, "now": window.spec()["window"][0]}],
        stores={"localStorage": {"nereo_client": stored}},
    )["attributes"]
    assert (
        inlined == module == {"data-client-gate-closed": "true", "data-client-gate-window": "true", "data-client": ""}
    )


# Whatever a browser's storage holds (another version's, a hand edit, garbage): never more than
# the variable's choices, and the stored choice when it is one.
STORED = st.one_of(
    st.text(),  # not JSON, mostly
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(st.characters()),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=6,
    ).map(json.dumps),
    st.sampled_from(["A", "B"]).map(lambda v: json.dumps({"gate_mode": v.lower(), "gate_flag": v == "A"})),
    st.just('{"gate_mode": "\\ud800", "gate_flag": "true"}'),  # a lone surrogate; a string "true"
)


@settings(max_examples=10)
@given(contents=st.lists(STORED, min_size=1, max_size=15))
def test_the_gate_shows_only_a_choice_of_each_variable_whatever_the_storage_holds(contents):
    flag = declared("gate_flag")
    mode = declared("gate_mode", "a", choices=("a", "b"))
    specs = [flag.spec(), mode.spec()]
    steps = [{"op": "gate", "specs": specs, "now": 0, "localStorage": {"nereo_client": stored}} for stored in contents]
    snapshots = run_js(steps)["snapshots"]
    for stored, attributes in zip(contents, snapshots, strict=True):
        try:
            parsed = json.loads(stored)
        except ValueError:
            parsed = None
        held = parsed if isinstance(parsed, dict) else {}
        assert attributes["data-client-gate-flag"] == ("true" if held.get("gate_flag") is True else "false"), stored
        expected_mode = held["gate_mode"] if held.get("gate_mode") in ("a", "b") else "a"
        assert attributes["data-client-gate-mode"] == expected_mode, stored
        assert attributes["data-client"] == ""


def test_the_gate_falls_back_to_the_defaults_when_storage_is_refused():
    flag = declared("refused_flag", True)
    attributes = run_js([{"op": "gate", "specs": [flag.spec()], "now": 0}], refuse=True)["attributes"]
    assert attributes == {"data-client-refused-flag": "true", "data-client": ""}


@settings(max_examples=8)
@given(offsets=st.lists(st.integers(min_value=-3 * 86_400_000, max_value=3 * 86_400_000), min_size=1, max_size=30))
def test_a_window_agrees_with_the_server_to_the_millisecond(offsets):
    """The visitor's clock and the server's give the same answer at every instant, bounds included."""
    starts = datetime(2026, 9, 24, tzinfo=UTC)
    ends = datetime(2026, 9, 25, 22, tzinfo=UTC)
    window = ClientVar.window("agreeing_window", starts, ends)
    start_ms, end_ms = window.spec()["window"]
    instants = [start_ms + offset for offset in offsets] + [end_ms + offset for offset in offsets]
    instants += [start_ms - 1, start_ms, end_ms - 1, end_ms]
    snapshots = run_js([{"op": "gate", "specs": [window.spec()], "now": ms} for ms in instants])["snapshots"]
    for ms, attributes in zip(instants, snapshots, strict=True):
        moment = datetime.fromtimestamp(ms / 1000, UTC)
        assert attributes["data-client-agreeing-window"] == json.dumps(starts <= moment < ends), ms


# -- setting and loading after hydration ---------------------------------------------------------


def test_setting_keeps_the_value_beside_the_others_shows_it_and_tells_react():
    closed = declared("set_closed")
    spec = closed.spec()
    stores = {"localStorage": {"nereo_client": json.dumps({"carousel_paused": True})}}
    found = run_js([{"op": "set", "spec": spec, "value": True}], stores=stores)
    assert json.loads(found["stores"]["localStorage"]["nereo_client"]) == {"carousel_paused": True, "set_closed": True}
    assert found["attributes"]["data-client-set-closed"] == "true"
    assert found["calls"] == [True]
    # A value outside the choices changes nothing; a session variable goes to sessionStorage.
    assert run_js([{"op": "set", "spec": spec, "value": "yes"}])["calls"] == []
    tab = declared("set_tab", storage="session")
    found = run_js([{"op": "set", "spec": tab.spec(), "value": True}])
    assert (
        found["stores"]["sessionStorage"] == {"nereo_client": '{"set_tab":true}'}
        and found["stores"]["localStorage"] == {}
    )


def test_setting_with_storage_refused_or_corrupt_still_changes_the_page():
    spec = declared("set_refused").spec()
    refused = run_js([{"op": "set", "spec": spec, "value": True}], refuse=True)
    assert refused["attributes"]["data-client-set-refused"] == "true" and refused["calls"] == [True]
    corrupt = run_js([{"op": "set", "spec": spec, "value": True}], stores={"localStorage": {"nereo_client": "[1,"}})
    assert corrupt["stores"]["localStorage"]["nereo_client"] == '{"set_refused":true}'


def test_after_hydration_react_takes_what_html_shows_and_a_window_reads_the_clock_again():
    closed = declared("load_closed")
    # Set earlier in this document (a client-side navigation since): <html> wins over storage.
    found = run_js(
        [{"op": "load", "spec": closed.spec()}],
        attributes={"data-client-load-closed": "true"},
        stores={"localStorage": {"nereo_client": json.dumps({"load_closed": False})}},
    )
    assert found["calls"] == [True]
    # Nothing on <html> yet: the storage's value.
    stored = run_js(
        [{"op": "load", "spec": closed.spec()}], stores={"localStorage": {"nereo_client": '{"load_closed":true}'}}
    )
    assert stored["calls"] == [True] and stored["attributes"]["data-client-load-closed"] == "true"
    now = datetime.now(UTC)
    window = ClientVar.window("load_window", now, now + timedelta(hours=1))
    start_ms = window.spec()["window"][0]
    late = run_js(
        [{"op": "load", "spec": window.spec()}], attributes={"data-client-load-window": "true"}, now=start_ms - 1
    )
    assert late["calls"] == [False] and late["attributes"]["data-client-load-window"] == "false"


# -- event specs: compiled, no websocket, nothing evaluated from a string -------------------------


def test_a_dismissible_remembered_widget_in_ten_lines_compiles_to_client_only_events():
    """The example of docs/architecture.md, compiled: its button sets the variable and moves the
    focus in the browser; no event goes to the server (no socket), nothing is evaluated."""
    tip_closed = declared("tip_closed")

    def pricing_tip(text: dict) -> rx.Component:
        return rx.el.aside(
            rx.el.p(text["tip"]),
            rx.el.button(text["close"], type="button", on_click=tip_closed.set_value(True), **script_only()),
            aria_label=text["label"],
            **hidden_when((tip_closed, True)),
        )

    code = compiled(pricing_tip({"tip": "Annual billing saves 10%.", "close": "Close", "label": "Tip"}))
    assert '"data-client-hide":"tip_closed=true"' in code and '"data-client-script-only":""' in code
    assert "setClientVar({" in code and '"key": "nereo_client"' in code
    assert "reflex___state" not in code and "_call_script" not in code and "eval(" not in code
    # Read and set in one event spec (a toggle), and the value a trigger passes.
    toggle = compiled(
        rx.el.button("x", on_click=tip_closed.set_value(~tip_closed.value), aria_pressed=tip_closed.value)
    )
    assert "!(refs['_client_state_dict_client_tip_closed']" in toggle
    assert "useClientVar({" in toggle
    assert str(tip_closed.set).startswith("((value) => setClientVar(")
    for wrong in ("maybe", 1):
        with pytest.raises(ClientVarError, match="not one of"):
            tip_closed.set_value(wrong)
