"""JavaScript that lives beside its Python module: Reflex's shared assets.

`rx.asset(name, shared=True)`, called from a module, links the file `name` beside that module
into the app's `assets/external/<module path>/` (a symlink), from where the frontend build takes
it, and gives its import path (`$/public/external/<module path>/<name>`).

Two things are kept apart on purpose:
- the import path, which components need when they are created, is computed here without
  calling `rx.asset`: `rx.asset` loads the app's configuration (rxconfig.py, which configures
  logging and checks the deployment's settings) and writes into the current folder, which a
  test or a script importing a component must not do;
- the link itself, made by each owning module's `link_shared_asset()` (it must call `rx.asset`
  itself: Reflex finds the file beside its caller), which the app module calls once, when the
  app is built (`marketing_site.py`).

tests/test_client_state.py checks that both give the same path (touch point 19).
"""

from __future__ import annotations

from reflex_base import constants


def import_path(module: str, name: str) -> str:
    """Where a component imports the shared asset `name` of the module named `module` from."""
    return f"$/public/{constants.Dirs.EXTERNAL_APP_ASSETS}/{module.replace('.', '/')}/{name}"
