"""`/.well-known/security.txt` (RFC 9116): where to report a vulnerability.

Written into the production build beside robots.txt (`exact_paths.ExactPathPlugin`), so the
app and a reverse proxy serve the same file. `Contact` comes from SECURITY_CONTACT; the
policy is the legal notice's "report a vulnerability" section in each language.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from marketing_site import routes
from marketing_site.settings import get_settings

PATH = "/.well-known/security.txt"
# RFC 9116 asks for an expiry less than a year ahead; a fixed date, not one computed at build
# time, so that tests/test_well_known.py starts failing a month before it passes: renew it then
# (and the statement's policy, if it changed).
EXPIRES = datetime.datetime(2027, 9, 30, tzinfo=datetime.UTC)
# The legal notice's section on reporting a vulnerability, by language (content/<lang>/legal_notice.md).
POLICY_ANCHORS = {"fr": "securite", "en": "security"}


def security_txt() -> str:
    from marketing_site.seo import url

    settings = get_settings()
    fields = [
        ("Contact", settings.security_contact),
        ("Expires", EXPIRES.strftime("%Y-%m-%dT%H:%M:%SZ")),
        ("Preferred-Languages", ", ".join(routes.LANGS)),
        ("Canonical", url(PATH)),
        *[("Policy", url(routes.LEGAL_NOTICE.path(lang)) + f"#{anchor}") for lang, anchor in POLICY_ANCHORS.items()],
    ]
    return "".join(f"{name}: {value}\n" for name, value in fields)


def write_well_known_files(static_dir: Path) -> None:
    target = static_dir / PATH.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(security_txt(), encoding="utf-8")
