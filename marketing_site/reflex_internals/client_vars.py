"""A Var whose value a React hook of the site's own JavaScript computes in the browser.

Reflex builds such Vars from a JavaScript name and `VarData` (the hook to call in the component
and the module to import it from): `rx.Var(name, _var_data=VarData(hooks=…, imports=…))`, the way
Reflex's own components do it; `_var_data` is a private keyword (reflex 0.10.1). Built once, at
import: a Reflex that changes the keyword fails every page's compile, and tests/test_i18n.py's
render of a single-language page fails first.
"""

from __future__ import annotations

import reflex as rx
from reflex.vars.base import VarData


def hook_var(name: str, hook: str, module: str) -> rx.Var:
    """`const {name} = {hook}()` in the component, `{hook}` imported from `module`."""
    return rx.Var(name, _var_data=VarData(hooks={f"const {name} = {hook}()": None}, imports={module: [hook]}))
