"""What the site changes in Reflex's frontend build, and why: less script work per page.

Every page is prerendered and paints without JavaScript; the scripts then hydrate it. On
Lighthouse's mobile profile what they cost shows as "total blocking time", so the build
trims what the site does not use (see `components/hydration.py` for the markup side):

1. No runtime CSS. Reflex compiles every element through Emotion's `jsx`, which turns a `css`
   prop (Reflex's style props) into a class at run time. The site styles with its stylesheets
   and classes only (palette accents are classes: `theme.accent_class`), so `@emotion/react`
   resolves to `frontend/plain_jsx.js`, React's createElement: about 8 KB less compressed
   script on every page and no style serialisation during hydration. `SiteFrontendPlugin`
   refuses to build a page that still carries a `css` prop.
2. Reflex's speculative websocket warm-up runs in a task of its own instead of a microtask at
   the end of the module evaluation, so the two do not add up to one long task.

Both live in one Vite plugin, `frontend/vite_plugin.js`, which `SiteFrontendPlugin` adds to
the `vite.config.js` Reflex generates.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from reflex_base.plugins import Plugin

FRONTEND_DIR = Path(__file__).resolve().parent / "frontend"
VITE_PLUGIN = FRONTEND_DIR / "vite_plugin.js"
VITE_CONFIG = "vite.config.js"
_PLUGIN_IMPORT = f"import siteFrontend from {json.dumps(str(VITE_PLUGIN))};\n"
_PLUGINS_LIST = "  plugins: [\n"
# A `css` prop in compiled JSX (`css:({ ... })`): Emotion would have made it a class.
_CSS_PROP = re.compile(r"\bcss:\(\{")


def add_site_plugin(vite_config: str) -> str:
    """Reflex's vite.config.js with the site's plugin first in its plugin list."""
    if _PLUGIN_IMPORT in vite_config:
        return vite_config
    if _PLUGINS_LIST not in vite_config:
        msg = f"Reflex's {VITE_CONFIG} changed: no plugin list to add the site's plugin to"
        raise RuntimeError(msg)
    return _PLUGIN_IMPORT + vite_config.replace(_PLUGINS_LIST, _PLUGINS_LIST + "    siteFrontend(),\n", 1)


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
                f"class; marketing_site/frontend_build.py): {offenders}"
            )
            raise RuntimeError(msg)
