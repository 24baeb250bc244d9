"""Serving every page at its exact path, accented paths included; 404 for everything else.

Reflex gets five things wrong for this site, and this module is the one place that fixes them:

1. Its route check accepts only ASCII route parts, while the spec has accented paths
   (`/portail-client-privée`). `install` widens the check to Unicode letters;
   react-router matches decoded paths, so client-side navigation just works. `ExactPathPlugin`
   (through Reflex's public modify task on `react-router.config.js`) has react-router
   prerender one path per language that no page matches, so the not-found
   page exists as HTML rendered by the catch-all routes themselves (the French one for
   `*`, the English one for `/en/*`), and hydrates cleanly at any unknown path.
   Its backend finds a page's on_load events by the browser's path, which the browser
   percent-encodes (`/portail-client-priv%C3%A9e`): `install` has the lookup decode it, or
   an accented page would run the not-found page's events instead of its own.
2. Its production static server answers `/x` with a redirect to `/x/`, and looks accented
   pages up under their decoded name while the prerenderer writes them percent-encoded.
   `ExactPathSite` (an ASGI wrapper installed with `api_transformer`) serves each page of
   the route table from a manifest written at build time, whether the client sends the
   path percent-encoded or raw, and answers 404 with the prerendered not-found page of the
   path's language for any other path. A trailing-slash form redirects permanently to the exact path.
3. `html_lang` is app-wide. `ExactPathPlugin.post_build` writes `lang="en"` into the
   prerendered English pages and the English not-found page (the layout keeps
   `<html lang>` right on client navigation).
4. React Router puts `<link rel="modulepreload">` hints for the whole framework bundle in
   the head of every prerendered page; they compete with the stylesheet and delay the first
   paint (~2 s on Lighthouse's mobile profile) of a page that needs no script to show.
   `post_build` removes them: the page's own module script (async, at the end of the body)
   still loads the bundle and hydrates, just after the first paint.
5. Its production server (Granian) stops the whole site when one worker dies.
   `respawn_failed_workers` (called from rxconfig.py) has Granian start a new one instead.

The manifest also lists the SHA-256 hashes of each page's inline scripts: `ExactPathSite`
sends every page with a Content-Security-Policy that allows exactly those (see `security`).

The same manifest is what a reverse proxy would need to reproduce these rules.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import unicodedata
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, unquote_to_bytes

from reflex_base.plugins import Plugin

from marketing_site import logs, routes

MANIFEST_NAME = "exact-paths.json"
# Paths no page matches, prerendered through the catch-all routes: the body of every 404,
# one per language of the route table (`routes.page_lang` of the requested path picks it).
NOT_FOUND_PROBES: dict[str, str] = {lang: f"{prefix}/__not-found" for lang, prefix in routes.LANGUAGES.items()}


def not_found_route(lang: str) -> str:
    """The catch-all route of a language's not-found page, in react-router as on the server:
    Reflex's own (`404`) for the language at the root, one under its prefix for every other
    (react-router prefers any exact route to it)."""
    prefix = routes.LANGUAGES[lang].strip("/")
    return f"{prefix}/[[...splat]]" if prefix else "404"


# Paths the Python backend answers (websocket, API); never treated as pages. Reflex's own
# `/ping` and `/_health` are left out on purpose: they are answered 404 here (api.health has
# the site's health check and liveness path).
BACKEND_PREFIXES = (
    "/_event",
    "/_upload",
    "/api/",
    "/auth/",
    "/files/",
    "/_all_routes",
)
# Backend paths answered at exactly this address (api.metrics: Prometheus' scrape).
BACKEND_PATHS = frozenset({"/metrics"})
# Files of the build that no page needs, never served: the widgets' JSX sources (compiled into
# /assets/), this manifest, their compressed copies, and hidden files but /.well-known/ (RFC 8615:
# security.txt lives there); deploy/nginx does the same.
NOT_PUBLIC = re.compile(r"(\.jsx|/exact-paths\.json)(\.gz|\.br)?$|/\.(?!well-known/)")
# Precompressed sidecars, in order of preference (the build writes both).
COMPRESSION = ("brotli", "gzip")
# Hashed build assets never change under the same name.
IMMUTABLE_PREFIX = "/assets/"
ASSET_HEADERS_DROPPED = ("etag", "last-modified", "accept-ranges")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def install() -> None:
    """Adapt Reflex before pages are added (idempotent)."""
    from reflex_base import constants

    constants.RouteRegex.SLUG = re.compile(r"[\w-]+")  # \w is Unicode-aware
    _decode_load_event_paths()


def _decode_load_event_paths() -> None:
    """`App.get_load_events` looks the browser's percent-encoded path up among decoded routes."""
    from reflex.app import App

    original = App.get_load_events
    if getattr(original, "decodes_paths", False):
        return

    def get_load_events(self: App, path: str) -> Any:
        return original(self, unquote(path))

    get_load_events.decodes_paths = True  # type: ignore[attr-defined]  # a marker: installed once
    App.get_load_events = get_load_events  # type: ignore[method-assign]  # replacing Reflex's method is the patch


def respawn_failed_workers() -> None:
    """Have Granian start a new worker when one dies, and log through the root logger (idempotent).

    Reflex builds its Granian server without `respawn_failed_workers`, so one killed worker
    (an out-of-memory kill) used to stop the whole site. `reflex run` constructs
    `granian.server.Server` when it starts the backend, after loading rxconfig.py, which calls
    this: the class it finds then respawns failed workers while the others keep answering.
    Granian itself still exits on a crash loop (a worker dying within 5.5 s of its respawn):
    the process supervisor (deploy/README.md, systemd) restarts the whole site then.
    """
    import granian.server

    base = granian.server.Server
    if getattr(base, "respawns_failed_workers", False):
        return

    class RespawningServer(base):  # type: ignore[misc,valid-type]  # base is chosen at import (GIL build or not)
        respawns_failed_workers = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("respawn_failed_workers", True)
            # Reflex passes None outside its own JSON mode: Granian's plain lines on stdout.
            kwargs["log_dictconfig"] = kwargs.get("log_dictconfig") or logs.granian_log_config()
            super().__init__(*args, **kwargs)

        def _respawn_workers(self, workers: Any, *args: Any, **kwargs: Any) -> None:
            # The replaced workers' live gauges leave the metrics' sums (metrics_storage).
            gone = [getattr(self.wrks[idx].inner, "pid", None) for idx in workers]  # None: a thread worker
            super()._respawn_workers(workers, *args, **kwargs)
            from marketing_site import metrics_storage

            for pid in filter(None, gone):
                metrics_storage.worker_exited(pid)

    granian.server.Server = RespawningServer  # the name reflex.utils.exec imports


def reflex_route(path: str) -> str:
    """The route string Reflex registers for a public path (`/` is its index)."""
    return path.strip("/") or "index"


def normalize_request_path(raw_path: bytes | str) -> str:
    """The path a visitor meant: percent-decoded, UTF-8, NFC (accents typed or encoded)."""
    if isinstance(raw_path, str):
        raw_path = raw_path.encode("utf-8")
    decoded = unquote_to_bytes(raw_path).decode("utf-8", errors="replace")
    return unicodedata.normalize("NFC", decoded)


# ---------------------------------------------------------------------------- build time


def _prerendered_file(static_dir: Path, route: str) -> Path | None:
    """Find the HTML the prerenderer wrote for a Reflex route (encoded or not)."""
    if route == "index":
        candidates = ["index.html"]
    else:
        candidates = [
            quote(route, safe="/") + ".html",
            route + ".html",
            quote(route, safe="/") + "/index.html",
            route + "/index.html",
        ]
    for name in candidates:
        file = static_dir / name
        if file.is_file():
            return file
    return None


_HTML_LANG = re.compile(rb'<html lang="[^"]*"')
_MODULE_PRELOAD = re.compile(rb'<link rel="modulepreload"[^>]*>')


def drop_module_preloads(html: bytes) -> bytes:
    """The page without React Router's `modulepreload` hints (see point 4 above)."""
    return _MODULE_PRELOAD.sub(b"", html)


def _finish_prerendered_page(file: Path, lang: str) -> None:
    """Post-process one prerendered page in place: its language, no first-paint blockers."""
    html = drop_module_preloads(file.read_bytes())
    file.write_bytes(_HTML_LANG.sub(f'<html lang="{lang}"'.encode(), html, count=1))


def write_manifest(static_dir: Path) -> dict[str, Any]:
    """Map each public path to its prerendered file; fix `lang`; fail on a missing page."""
    pages: dict[str, str] = {}
    missing = []
    for path in routes.all_paths():
        file = _prerendered_file(static_dir, reflex_route(path))
        if file is None:
            missing.append(path)
            continue
        _finish_prerendered_page(file, routes.page_lang(path))
        pages[unicodedata.normalize("NFC", path)] = file.relative_to(static_dir).as_posix()
    not_found: dict[str, str] = {}
    for lang, probe in NOT_FOUND_PROBES.items():
        file = _prerendered_file(static_dir, reflex_route(probe))
        if file is None:
            missing.append(probe)
            continue
        _finish_prerendered_page(file, lang)
        not_found[lang] = file.relative_to(static_dir).as_posix()
    if missing:
        msg = f"Pages missing from the prerendered build: {missing}"
        raise RuntimeError(msg)
    from marketing_site.security import inline_script_hashes

    html_files = sorted({*pages.values(), *not_found.values()})
    manifest = {
        "pages": pages,
        "not_found": not_found,
        "redirects": dict(routes.PERMANENT_REDIRECTS),
        "script_hashes": {name: inline_script_hashes((static_dir / name).read_bytes()) for name in html_files},
    }
    (static_dir / MANIFEST_NAME).write_text(json.dumps(manifest, ensure_ascii=False, indent=1))
    return manifest


def prerender_not_found_pages(config_js: str) -> str:
    """React Router's config as Reflex writes it (`export default {…};`), made to prerender the
    not-found probes too when it prerenders the routes (a production export)."""
    body = config_js.strip().removeprefix("export default ").removesuffix(";")
    if not config_js.lstrip().startswith("export default ") or not body.startswith("{"):
        raise ValueError(f"Reflex's {ROUTER_CONFIG} changed shape: {config_js[:80]!r}")
    if not json.loads(body).get("prerender"):
        return config_js
    return (
        f"const config = {body};\n"
        "config.prerender = async ({ getStaticPaths }) =>\n"
        f"  [...getStaticPaths(), ...{json.dumps(list(NOT_FOUND_PROBES.values()))}];\n"
        "export default config;"
    )


# Reflex writes it before it runs the plugins' modify tasks (reflex/compiler/compiler.py).
ROUTER_CONFIG = "react-router.config.js"


class ExactPathPlugin(Plugin):
    """Reflex plugin: the not-found pages prerendered, and after the frontend build, the
    exact-path manifest and the files written beside the pages."""

    def pre_compile(self, **context: Any) -> None:
        context["add_modify_task"](ROUTER_CONFIG, prerender_not_found_pages)

    def post_build(self, **context: Any) -> None:
        from marketing_site.seo import write_seo_files
        from marketing_site.well_known import write_well_known_files

        static_dir = Path(context["static_dir"])
        write_manifest(static_dir)
        write_seo_files(static_dir)
        write_well_known_files(static_dir)


# ---------------------------------------------------------------------------- serve time


def static_dir_of_build() -> Path:
    """Where `reflex export` leaves the production frontend."""
    from reflex.utils.prerequisites import get_web_dir
    from reflex_base import constants

    return (get_web_dir() / constants.Dirs.STATIC).resolve()


class ExactPathSite:
    """ASGI wrapper that serves the prerendered site at exact paths in front of Reflex.

    Backend paths and every non-GET request go to the wrapped app unchanged. Without a
    production build (development server), everything goes to the wrapped app.
    """

    def __init__(self, app: ASGIApp, static_dir: Path | None = None):
        self.app = app
        self._static_dir = static_dir
        self._loaded = False
        self._pages: dict[str, str] = {}
        self._redirects: dict[str, str] = {}
        self._not_found: dict[str, str] = {}
        self._files: Any = None
        self._policies: dict[str, str] = {}

    def _load(self) -> None:
        self._loaded = True
        static_dir = self._static_dir or static_dir_of_build()
        manifest_file = static_dir / MANIFEST_NAME
        if not manifest_file.is_file():
            return
        from reflex.utils.precompressed_staticfiles import PrecompressedStaticFiles

        manifest = json.loads(manifest_file.read_text())
        self._pages = manifest["pages"]
        self._redirects = manifest["redirects"]
        self._not_found = manifest["not_found"]
        from marketing_site.security import content_security_policy

        self._policies = {
            name: content_security_policy(hashes) for name, hashes in manifest.get("script_hashes", {}).items()
        }
        self._files = PrecompressedStaticFiles(directory=static_dir, html=False, encodings=COMPRESSION, check_dir=True)
        self._static_dir = static_dir

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._loaded:
            self._load()
        if self._files is None or scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path = normalize_request_path(scope.get("raw_path") or scope["path"])
        if path.startswith(BACKEND_PREFIXES) or path in BACKEND_PATHS:
            await self.app(scope, receive, send)
            return
        await self._serve(path, scope, receive, send)

    def resolve(self, path: str) -> tuple[int, str]:
        """What to answer for a decoded path: (200, file), (308, target) or (404, file).

        A page's trailing-slash form redirects to it. A file answers at its exact path only: any
        other spelling (`/favicon.ico/`, `//favicon.ico`, `/x/../favicon.ico`) is a 404, as
        behind nginx, and a file that is not public (NOT_PUBLIC) is a 404 however it is spelt."""
        if path in self._pages:
            return 200, self._pages[path]
        if path in self._redirects:
            return 308, self._redirects[path]
        alternate = path[:-1] if path.endswith("/") else path + "/"
        if alternate in self._pages:
            return 308, alternate
        if self._is_public_file(path):
            return 200, path.lstrip("/")
        return 404, self._not_found[routes.page_lang(path)]

    def _is_public_file(self, path: str) -> bool:
        """A file of the build, public, named by its exact path (normalised, nothing around it)."""
        if "\x00" in path or "\\" in path or path != "/" + posixpath.normpath("/" + path.lstrip("/")).lstrip("/"):
            return False  # another spelling of a path: a trailing slash, `//`, `/./`, `/../`
        relative = path.lstrip("/")
        if not relative or relative.endswith(".html") or NOT_PUBLIC.search(path):
            return False
        static_dir = self._static_dir
        assert static_dir is not None  # set by _load, before any file is served
        full = (static_dir / relative).resolve()
        return full.is_file() and full.is_relative_to(static_dir)

    async def _serve(self, path: str, scope: Scope, receive: Receive, send: Send) -> None:
        status, target = self.resolve(path)
        if status == 308:
            query = scope.get("query_string", b"").decode("latin-1")
            location = quote(target, safe="/") + (f"?{query}" if query else "")
            await _send_redirect(send, location)
            return
        assert self._static_dir is not None  # set by _load, before any file is served
        full = self._static_dir / target
        response = self._files.file_response(full, os.stat(full), scope, status_code=status)
        is_asset = path.startswith(IMMUTABLE_PREFIX)
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable" if is_asset else "no-cache"
        if is_asset:
            # Never revalidated, never fetched in ranges: validators would only add bytes
            # to each of the page's dozen script and stylesheet responses.
            for header in ASSET_HEADERS_DROPPED:
                del response.headers[header]
        if target in self._policies:  # a page: its own inline scripts are allowed
            response.headers["Content-Security-Policy"] = self._policies[target]
        await response(scope, receive, send)


async def _send_redirect(send: Send, location: str) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 308,
            "headers": [
                (b"location", location.encode("latin-1")),
                (b"content-length", b"0"),
                (b"cache-control", b"public, max-age=3600"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})
