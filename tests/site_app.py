"""The site's ASGI app in-process, without a frontend build: for tests that send requests through
every layer the server runs (security headers, exact-path serving, the API, Reflex's own routes)
with a test client, in the time of a unit test.

`site_app()` is what `reflex run` serves: Reflex's backend with the app's `api_transformer` list
applied in order, as `rx.App.__call__` applies it, but without compiling the pages. The
prerendered pages come from `stub_build`, a build folder of a few files made here (pages with an
inline script, a not-found page per language, a script, a stylesheet, an image), which the app
finds through REFLEX_WEB_WORKDIR as it finds the real one.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

HOME_SCRIPT = b"window.__theme = 'light';"
HOME = (
    b'<!doctype html><html lang="fr"><head><script>' + HOME_SCRIPT + b"</script>"
    b'<script type="application/ld+json">{"@type": "Organization"}</script>'
    b'<link rel="stylesheet" href="/assets/site-1a2b.css"></head><body><h1>Accueil</h1>'
    b'<script type="module" src="/assets/app-1a2b.js"></script></body></html>'
)


def stub_build(web_dir: Path) -> Path:
    """A production build of a few files in `web_dir` (a REFLEX_WEB_WORKDIR); returns its
    static folder. The manifest is the one `exact_paths.write_manifest` writes."""
    from marketing_site.reflex_internals import exact_paths
    from marketing_site.security import inline_script_hashes

    static = web_dir / "build" / "client"
    files = {
        "index.html": HOME,
        "portail-client-priv%C3%A9e.html": b'<!doctype html><html lang="fr"><body>Portail</body></html>',
        "404.html": b'<!doctype html><html lang="fr"><body>Page introuvable</body></html>',
        "en/404.html": b'<!doctype html><html lang="en"><body>Page not found</body></html>',
        "assets/app-1a2b.js": b"export const app = 1;",
        "assets/site-1a2b.css": b"body { margin: 0 }",
        "favicon.svg": b'<svg xmlns="http://www.w3.org/2000/svg"/>',
    }
    for name, content in files.items():
        (static / name).parent.mkdir(parents=True, exist_ok=True)
        (static / name).write_bytes(content)
    manifest = {
        "pages": {"/": "index.html", "/portail-client-privée": "portail-client-priv%C3%A9e.html"},
        "not_found": {"fr": "404.html", "en": "en/404.html"},
        "redirects": {"/ancienne-page": "/"},
        "script_hashes": {
            name: inline_script_hashes(content) for name, content in files.items() if name.endswith(".html")
        },
    }
    (static / exact_paths.MANIFEST_NAME).write_text(json.dumps(manifest, ensure_ascii=False))
    return static


@functools.cache
def _backend() -> Any:
    """Reflex's backend with the app's Starlette transformers mounted over it (once a process:
    mounting changes the transformer)."""
    from starlette.applications import Starlette

    from marketing_site.marketing_site import app

    backend = app._api
    assert backend is not None, "the Reflex app has no backend"
    for transformer in app.api_transformer:
        if isinstance(transformer, Starlette):
            transformer.mount("", backend)
            backend = transformer
    return backend


def site_app() -> Any:
    """The ASGI app the server runs, with the settings of the environment as it is now."""
    from starlette.applications import Starlette

    from marketing_site.marketing_site import app

    transformers = list(app.api_transformer)
    starlettes = [isinstance(t, Starlette) for t in transformers]
    assert starlettes == sorted(starlettes, reverse=True), "Starlette transformers first, as this helper assumes"
    asgi = _backend()
    for transformer in transformers:
        if not isinstance(transformer, Starlette):
            asgi = transformer(asgi)
    return asgi


def site_with_lifespan() -> Any:
    """`site_app()` under the app `rx.App.__call__` builds around it: Reflex's lifespan (its event
    processor, the site's lifespan tasks) and its context middleware, so that websocket events
    are handled as the server handles them; still without compiling a page."""
    from reflex.app import _ContextMiddleware
    from starlette.applications import Starlette

    from marketing_site.marketing_site import app

    top = Starlette(lifespan=app._run_lifespan_tasks)
    top.add_middleware(_ContextMiddleware, reflex_app=app)
    top.mount("", site_app())
    return top
