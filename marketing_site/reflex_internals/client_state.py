"""Client variables: values the browser keeps for the visitor, declared in Python, no websocket.

A `ClientVar` is declared once, at import, in a content or component module:

    banner_closed = ClientVar("banner_closed", default=False)             # localStorage
    paused = ClientVar("paused", default=False, storage="session")       # this tab only
    on_air = ClientVar.window("on_air", starts=…, ends=…)                # the visitor's clock

- `var.value` reads it in a component (a Reflex `ClientStateVar`: React state shared by every
  component that reads it). It is the default while the page is prerendered and hydrated, then
  what the browser holds.
- `var.set_value(v)` (or `var.set`, which takes the value from the event) is an event spec for
  any trigger: compiled JavaScript that keeps the value in the browser's storage, in React's state
  and on the page's <html>. No websocket opens and nothing is evaluated from a string, so the
  CSP without `unsafe-eval` holds; it mixes with other event specs in a list.
- `hidden_when((var, value), …)` gives an element the props that hide it while a variable holds
  that value, before hydration too: the page's head (`head_components`) carries a stylesheet
  with one rule per variable and value, and a script that, before the first paint, copies each
  variable from the browser's storage (or clock) into an attribute of <html> that those rules
  read. Nothing the browser holds shows late, and nothing flashes. With scripts blocked the
  script does not run: an element is hidden when the defaults hide it (for a window, the
  server's clock when the page was built), and `script_only()` hides what needs a script.

The head's script is the text of `applyClientVars` in `client_state.js` (the same function the
components run after hydration), with the variables as data: its text is fixed when the site is
built, so the page's content security policy carries its hash as for every inline script.

Stored values go into one JSON object per storage area, under the keys the privacy policy's
table lists (`services.site_storage.CLIENT_VARS`, `CLIENT_VARS_SESSION`).

What it relies on in Reflex (touch point 19 of docs/reflex-upgrade.md; tripwire:
tests/test_client_state.py): `reflex.experimental.client_state.ClientStateVar` (`rx._x.client_state`)
with its private `_setter_name` and `_client_state_ref`, the global setter it keeps in Reflex's
client `refs` (`refs['_client_state_set…']`), and `rx.asset(…, shared=True)`, which serves
`client_state.js` from beside this module (`shared_assets`).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import reflex as rx
from reflex.experimental.client_state import ClientStateVar, _client_state_ref
from reflex_base.event import EventChain
from reflex_base.utils.imports import ImportVar
from reflex_base.vars.base import LiteralVar, Var, VarData
from reflex_base.vars.function import FunctionVar

from marketing_site.reflex_internals import shared_assets
from marketing_site.services import site_storage

Storage = Literal["local", "session"]
Value = bool | str

CLIENT_STATE_JS = "client_state.js"
_MODULE = shared_assets.import_path(__name__, CLIENT_STATE_JS)
_SOURCE = Path(__file__).with_name(CLIENT_STATE_JS)
_STATE_MODULE = "$/utils/state"  # Reflex's client, where `refs` lives
_AREAS: dict[Storage, site_storage.StoredItem] = {
    "local": site_storage.CLIENT_VARS,
    "session": site_storage.CLIENT_VARS_SESSION,
}
_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
# A stored string value: an attribute value and a CSS string without escaping.
_CHOICE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
# Every variable declared in this process, by name: the page's head is built from them.
REGISTRY: dict[str, ClientVar] = {}


def link_shared_asset() -> str:
    """Link client_state.js into the app's assets (`rx.asset(…, shared=True)`): the app does it
    when it is built. Returns the import path Reflex gives it."""
    return rx.asset(CLIENT_STATE_JS, shared=True).importable_path


class ClientVarError(ValueError):
    """A client variable declared wrong (a typo in a name, a default outside its choices…)."""


def token(value: Value) -> str:
    """A value as <html>'s attribute and the stylesheet write it ("true", "false", "closed")."""
    return json.dumps(value) if isinstance(value, bool) else value


def is_choice(value: object, choices: Sequence[Value]) -> bool:
    """`value` is one of `choices`, of the same type (1 is not True, "true" is not True)."""
    return any(type(value) is type(choice) and value == choice for choice in choices)


def _declaring_module() -> str:
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    return frame.f_globals.get("__name__", "") if frame is not None else ""


def _epoch_ms(moment: datetime) -> int:
    if moment.tzinfo is None:
        raise ClientVarError(f"{moment!r} has no time zone: a window's bounds are instants")
    return round(moment.timestamp() * 1000)


class ClientVar:
    """A value the browser keeps for the visitor (see the module's description)."""

    def __init__(
        self,
        name: str,
        default: Value,
        *,
        storage: Storage = "local",
        choices: Sequence[Value] = (False, True),
        _window: tuple[datetime, datetime | None] | None = None,
    ) -> None:
        if not _NAME.fullmatch(name):
            raise ClientVarError(f"a client variable's name is lowercase letters, digits and _: {name!r}")
        if storage not in _AREAS:
            raise ClientVarError(f"{name}: storage is 'local' or 'session', not {storage!r}")
        choices = tuple(choices)
        for choice in choices:
            if not isinstance(choice, bool) and not (isinstance(choice, str) and _CHOICE.fullmatch(choice)):
                raise ClientVarError(f"{name}: a value is a bool or a short lowercase word, not {choice!r}")
        if not is_choice(default, choices) or len(set(map(token, choices))) != len(choices):
            raise ClientVarError(f"{name}: the default {default!r} must be one of distinct choices {choices!r}")
        self.name = name
        self._default = default
        self.storage = storage
        self.choices = choices
        self._window = _window
        self.module = _declaring_module()
        known = REGISTRY.get(name)
        # The same module declaring it again is that module imported again (the dev loop, after
        # an edit): the new declaration holds. Another module's is a second variable.
        if known is not None and known.module != self.module:
            raise ClientVarError(f"two client variables are named {name!r} ({known.module}, {self.module})")
        REGISTRY[name] = self

    @classmethod
    def window(cls, name: str, starts: datetime, ends: datetime | None) -> ClientVar:
        """True from `starts` until just before `ends` (None: no end) by the clock: the server's
        when the page is built, the visitor's once it is read. Read-only."""
        _epoch_ms(starts)  # both instants, in a time zone
        if ends is not None and _epoch_ms(ends) <= _epoch_ms(starts):
            raise ClientVarError(f"{name}: ends {ends} is not after starts {starts}")
        return cls(name, False, _window=(starts, ends))

    @property
    def attribute(self) -> str:
        """The attribute of <html> that shows the value: `data-client-<attribute>`."""
        return self.name.replace("_", "-")

    @property
    def default(self) -> Value:
        """The value before the browser says otherwise; a window's is its answer now (at build)."""
        if self._window is None:
            return self._default
        starts, ends = self._window
        now = datetime.now(UTC)
        return starts <= now and (ends is None or now < ends)

    def spec(self) -> dict[str, Any]:
        """What `client_state.js` reads of the variable."""
        area = _AREAS[self.storage]
        window = None
        if self._window is not None:
            starts, ends = self._window
            window = [_epoch_ms(starts), None if ends is None else _epoch_ms(ends)]
        return {
            "name": self.name,
            "attribute": self.attribute,
            "area": area.store,
            "key": area.name,
            "choices": list(self.choices),
            "fallback": self._default,
            "window": window,
        }

    @cached_property
    def _client_state(self) -> ClientStateVar:
        # Built on first use, when a page is compiled: a window's default is the build's clock.
        return ClientStateVar.create(f"client_{self.name}", default=self.default)

    def _global_setter(self) -> str:
        """Reflex's setter of the shared value (updates every component that reads it), in JS."""
        return _client_state_ref(self._client_state._setter_name)._js_expr

    @property
    def value(self) -> Var:
        """The value, for a component: the default until the page has hydrated, then the browser's."""
        load = f"useClientVar({json.dumps(self.spec())}, {self._global_setter()})"
        return self._client_state.value._replace(
            merge_var_data=VarData(
                hooks={load: None},
                imports={_MODULE: [ImportVar(tag="useClientVar")], _STATE_MODULE: [ImportVar(tag="refs")]},
            )
        )

    def _setter_call(self, argument: str, *var_datas: VarData | None) -> Var:
        if self._window is not None:
            raise ClientVarError(f"{self.name} follows the clock: it cannot be set")
        setter = self._client_state.set  # carries the hooks that define the shared setter
        body = f"setClientVar({json.dumps(self.spec())}, {argument}, {self._global_setter()})"
        return Var(
            _js_expr=body,
            _var_data=VarData.merge(
                setter._get_all_var_data(),
                *var_datas,
                VarData(imports={_MODULE: [ImportVar(tag="setClientVar")], _STATE_MODULE: [ImportVar(tag="refs")]}),
            ),
        )

    def set_value(self, value: Value | Var) -> Var:
        """An event spec that sets the variable to `value` (a value, or a Var such as `~var.value`)."""
        if not isinstance(value, Var) and not is_choice(value, self.choices):
            raise ClientVarError(f"{self.name}: {value!r} is not one of {self.choices!r}")
        literal = LiteralVar.create(value)
        call = self._setter_call(str(literal), literal._get_all_var_data())
        return Var(_js_expr=f"(() => {call})", _var_data=call._get_all_var_data()).to(FunctionVar, EventChain)

    @property
    def set(self) -> Var:
        """An event spec that sets the variable to the value its trigger passes (a bool, a choice)."""
        call = self._setter_call("value")
        return Var(_js_expr=f"((value) => {call})", _var_data=call._get_all_var_data()).to(FunctionVar, EventChain)

    def __repr__(self) -> str:
        return f"ClientVar({self.name!r})"


def hidden_when(*conditions: tuple[ClientVar, Value]) -> dict[str, str]:
    """Props that hide an element while any `(variable, value)` holds, from the first paint.

    The element itself stays plain HTML (no hook, no state): the head's stylesheet hides it by
    the attribute <html> carries. With scripts blocked, it is hidden when the defaults say so.
    """
    tokens = []
    at_build = False
    for var, value in conditions:
        if not is_choice(value, var.choices):
            raise ClientVarError(f"{var.name}: {value!r} is not one of {var.choices!r}")
        tokens.append(f"{var.name}={token(value)}")
        at_build = at_build or var.default == value
    props = {"data_client_hide": " ".join(tokens)}
    if at_build:
        props["data_client_hidden_at_build"] = ""
    return props


def script_only() -> dict[str, str]:
    """Props that hide an element when scripts are blocked (a button that needs one)."""
    return {"data_client_script_only": ""}


def stylesheet(variables: Sequence[ClientVar]) -> str:
    """The head's rules: one per variable and value, and the two used without scripts."""
    without_scripts = (
        "html:not([data-client]) [data-client-hidden-at-build],"
        "html:not([data-client]) [data-client-script-only]{display:none!important}"
    )
    rules = [without_scripts]
    for var in variables:
        selectors = [
            f'html[data-client-{var.attribute}="{token(choice)}"] [data-client-hide~="{var.name}={token(choice)}"]'
            for choice in var.choices
        ]
        rules.append(",".join(selectors) + "{display:none!important}")
    return "\n".join(rules)


def gate_script(variables: Sequence[ClientVar]) -> str:
    """The head's script: `applyClientVars` of client_state.js, run on the variables."""
    source = _SOURCE.read_text(encoding="utf-8")
    found = re.search(r"^export (function applyClientVars\(.*?^\})$", source, re.MULTILINE | re.DOTALL)
    if found is None:
        raise RuntimeError(f"{_SOURCE}: applyClientVars is not found where the head's script is taken from")
    body = "\n".join(line.strip() for line in found.group(1).splitlines() if line.strip())
    specs = json.dumps([var.spec() for var in variables], separators=(",", ":"))
    return f"({body})({specs},Date.now(),false);"


def _inline(tag: str, text: str) -> rx.Component:
    # React escapes the text children of a <script> or <style>: the text goes in as HTML.
    element = {"script": rx.el.script, "style": rx.el.style}[tag]
    return element(custom_attrs={"dangerouslySetInnerHTML": {"__html": text}})


def head_components() -> list[rx.Component]:
    """The page head's stylesheet and script for every variable declared so far (all of them
    once the site's modules are imported: the app builds its head after)."""
    variables = list(REGISTRY.values())
    return [_inline("style", stylesheet(variables)), _inline("script", gate_script(variables))]
