"""What the site changes in Reflex's frontend build, and why: less script work per page.

Every page is prerendered and paints without JavaScript; the scripts then hydrate it. On
Lighthouse's mobile profile what they cost shows as "total blocking time", so the build
trims what the site does not use (see `reflex_internals/hydration.py` for the markup side):

1. No runtime CSS. Reflex compiles every element through Emotion's `jsx`, which turns a `css`
   prop (Reflex's style props) into a class at run time. The site styles with its stylesheets
   and classes only (palette accents are classes: `theme.accent_class`), so `@emotion/react`
   resolves to `frontend/plain_jsx.js`, React's createElement: about 8 KB less compressed
   script on every page and no style serialisation during hydration. `SiteFrontendPlugin`
   refuses to build a page that still carries a `css` prop.
2. Reflex's speculative websocket warm-up runs in a task of its own instead of a microtask at
   the end of the module evaluation, so the two do not add up to one long task.
3. An anonymous reader opens no websocket (`connection_policy`). Reflex's client connects on
   every page view and the backend then builds and keeps a state per tab (about 27 KB, for
   the state expiry) and runs the page's on_load, even where nothing on the page needs it.
   Here a page view connects only when it needs the server's state: on a page whose content
   comes from it when it loads (`routes.Page.stateful`: login, password reset, trial,
   console), for a visitor with the login marker cookie (the logged-in navbar) or a login
   error to show, or on first use: the first event for a backend handler connects, and the
   connection's hydrate runs the page's on_load first, as on a page load. A client-side
   navigation runs the new page's on_load over an open socket (as Reflex does), and without
   one connects only when the new page needs state. Everything else of the public pages is
   prerendered from the states' defaults, which the build fixes (the pricing page's price set:
   `state.pricing`), and the client-only widgets (lead forms, scheduler, carousel, consent)
   talk to the JSON API, not to the state.

4. The site's JavaScript that reads Reflex's client lives in this package, beside the Python
   that loads it (Reflex's shared assets): `site_notice.jsx` (the site's own failure notice, since
   the CSP blocks Reflex's toast) registers a ref in `refs` (`$/utils/state`), where the server's
   `_set_value` event for the notice's ref lands, and reads `connectErrors`, the second item of
   `EventLoopContext`'s value (`$/utils/context`); `client_state.js` calls the setter that Reflex's
   `ClientStateVar` keeps in `refs`. `tests/test_static_readers.py` checks the notice's reads
   against the installed Reflex's templates (and that no other file of the site reads Reflex's
   client), and `tests/test_failure_notice.py` shows the notice in Chromium for both causes.

The first three live in one Vite plugin, `frontend/vite_plugin.js`, which `SiteFrontendPlugin`
adds to the `vite.config.js` Reflex generates. It rewrites literals of Reflex's
`utils/state.js` and stops the build when one is not found exactly once; the tests in
`tests/test_static_readers.py` run it on the installed Reflex's file and count the
websockets of real page views, so a Reflex upgrade that moves them fails there first.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from reflex_base.plugins import Plugin

from marketing_site import routes
from marketing_site.services import site_storage

FRONTEND_DIR = Path(__file__).resolve().parent / "frontend"
VITE_PLUGIN = FRONTEND_DIR / "vite_plugin.js"
VITE_CONFIG = "vite.config.js"
_PLUGIN_IMPORT = f"import siteFrontend from {json.dumps(str(VITE_PLUGIN))};\n"
_PLUGINS_LIST = "  plugins: [\n"
# Cookies (readable by scripts) whose presence means the page view needs the server's state:
# the login marker (the navbar of a logged-in visitor) and a login error to show.
STATE_COOKIES = (site_storage.MARKER.name, site_storage.LOGIN_ERROR.name)


def connection_policy() -> dict[str, list[str]]:
    """What the client reads to decide whether a page view opens the websocket (see 3. above)."""
    paths = [path for page in routes.PAGES if page.stateful for _, path in page.paths()]
    return {"stateRoutes": paths, "stateCookies": list(STATE_COOKIES)}


# A `css` prop in compiled JSX (`css:({ ... })`): Emotion would have made it a class.
_CSS_PROP = re.compile(r"\bcss:\(\{")


def add_site_plugin(vite_config: str) -> str:
    """Reflex's vite.config.js with the site's plugin first in its plugin list."""
    if _PLUGIN_IMPORT in vite_config:
        return vite_config
    if _PLUGINS_LIST not in vite_config:
        msg = f"Reflex's {VITE_CONFIG} changed: no plugin list to add the site's plugin to"
        raise RuntimeError(msg)
    call = f"    siteFrontend({json.dumps(connection_policy(), ensure_ascii=False)}),\n"
    return _PLUGIN_IMPORT + vite_config.replace(_PLUGINS_LIST, _PLUGINS_LIST + call, 1)


def runtime_css_props(web_dir: Path) -> list[str]:
    """The compiled modules (relative paths) that still pass a `css` prop."""
    found = []
    for folder in ("app", "app_components", "utils", "components"):
        for module in sorted((web_dir / folder).rglob("*.js*")):
            if _CSS_PROP.search(module.read_text(encoding="utf-8", errors="replace")):
                found.append(module.relative_to(web_dir).as_posix())
    return found


class SiteFrontendPlugin(Plugin):
    """Reflex plugin: the site's Vite plugin in every build; no page with runtime CSS."""

    def pre_compile(self, **context: Any) -> None:
        context["add_modify_task"](VITE_CONFIG, add_site_plugin)

    def post_build(self, **context: Any) -> None:
        from reflex.utils.prerequisites import get_web_dir

        offenders = runtime_css_props(get_web_dir())
        if offenders:
            msg = (
                f"A style prop compiles to runtime CSS, which this site does not ship (use a "
                f"class; marketing_site/reflex_internals/frontend_build.py): {offenders}"
            )
            raise RuntimeError(msg)
