"""Write the nginx maps that reproduce the app's exact-path rules from a production build.

    .venv/bin/python scripts/nginx_maps.py [--build .web/build/client] [--out deploy/nginx/generated]

From `exact-paths.json` (written by the build) it writes, for `deploy/nginx/nereo.conf`:

- `pages.map`      `$nereo_page`: decoded public path -> prerendered file;
- `redirects.map`  `$nereo_redirect`: permanent redirects and the trailing-slash forms;

  both keyed by case-sensitive regular expressions `~^/path$`: plain map keys would match
  without regard to case, and the spec's matching is exact;
- `csp.map`        `$nereo_csp`: prerendered file -> its Content-Security-Policy (the page's
                   inline-script hashes, the same policy the app sends);
- `headers.conf`   the other security headers and the default policy, as the app sends them;
- `document-headers.conf` (http level) leaves the headers only documents act on (policy,
                   X-Frame-Options, Permissions-Policy) off scripts and stylesheets, as the app does,
                   and keeps the app's own Referrer-Policy where it sends one.

Run it with the production settings in the environment (SITE_URL, BOOKING_URL,
CONSENT_SCRIPT_URL, ANALYTICS_SCRIPT_URL), after `make build`, and copy the build and the
generated folder to every proxy.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from marketing_site import routes
from marketing_site.security import (
    PERMISSIONS_POLICY,
    REFERRER_POLICY,
    SUBRESOURCE_CONTENT_TYPES,
    content_security_policy,
)
from marketing_site.settings import get_settings


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def exact_path_key(path: str) -> str:
    """A map key matching exactly this decoded path, case included."""
    return "~^" + re.sub(r"([\\.^$|?*+()\[\]{}])", r"\\\1", path) + "$"


def write_maps(build: Path, out: Path) -> None:
    manifest = json.loads((build / "exact-paths.json").read_text())
    out.mkdir(parents=True, exist_ok=True)
    pages = manifest["pages"]
    lines = [f"{_quoted(exact_path_key(path))} /{file};" for path, file in sorted(pages.items())]
    (out / "pages.map").write_text("\n".join(lines) + "\n")
    redirects = dict(manifest["redirects"])
    for path in pages:
        alternate = path[:-1] if path.endswith("/") else path + "/"
        if alternate not in pages and alternate != "":
            redirects.setdefault(alternate, path)
    lines = [
        f"{_quoted(exact_path_key(source))} {_quoted(quote(target, safe='/'))};"
        for source, target in sorted(redirects.items())
    ]
    (out / "redirects.map").write_text("\n".join(lines) + "\n")
    lines = [
        f"{_quoted('/' + file)} {_quoted(content_security_policy(hashes))};"
        for file, hashes in sorted(manifest.get("script_hashes", {}).items())
    ]
    (out / "csp.map").write_text("\n".join(lines) + "\n")
    # The not-found page in the requested path's language (routes.page_lang: /en/... is English).
    not_found = manifest["not_found"]
    lines = [
        f"~^{re.escape(prefix)}/ /{not_found[lang]};" if prefix else f"default /{not_found[lang]};"
        for lang, prefix in routes.LANGUAGES.items()
    ]
    (out / "not-found.map").write_text("\n".join(lines) + "\n")
    settings = get_settings()
    # An empty value means nginx does not send the header.
    subresource = _quoted("~*^(" + "|".join(re.escape(t) for t in SUBRESOURCE_CONTENT_TYPES) + r")\s*(;|$)")
    document_only = {
        "$nereo_document_csp": "$nereo_csp",
        "$nereo_frame_options": _quoted("DENY"),
        "$nereo_permissions_policy": _quoted(PERMISSIONS_POLICY),
    }
    # The app's own Referrer-Policy when it sends one (hidden from the proxied response, so that
    # each header is sent once), else the site-wide one: the login callback keeps `no-referrer`,
    # the booking cancel page `strict-origin`.
    referrer = (
        "map $upstream_http_referrer_policy $nereo_referrer_policy {\n"
        f'    "" {_quoted(REFERRER_POLICY)};\n'
        "    default $upstream_http_referrer_policy;\n}\n"
    )
    (out / "document-headers.conf").write_text(
        "".join(
            f'map $sent_http_content_type {variable} {{\n    {subresource} "";\n    default {value};\n}}\n'
            for variable, value in document_only.items()
        )
        + referrer
    )
    headers = [
        "add_header Content-Security-Policy $nereo_document_csp always;",
        'add_header X-Content-Type-Options "nosniff" always;',
        "add_header Referrer-Policy $nereo_referrer_policy always;",
        "add_header X-Frame-Options $nereo_frame_options always;",
        "add_header Permissions-Policy $nereo_permissions_policy always;",
        f'add_header Strict-Transport-Security "max-age={settings.hsts_max_age_seconds}; includeSubDomains" always;',
    ]
    (out / "headers.conf").write_text("\n".join(headers) + "\n")
    (out / "default-csp.conf").write_text(f"default {_quoted(content_security_policy())};\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", type=Path, default=ROOT / ".web" / "build" / "client")
    parser.add_argument("--out", type=Path, default=ROOT / "deploy" / "nginx" / "generated")
    args = parser.parse_args()
    write_maps(args.build, args.out)
    print(f"nginx maps written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
