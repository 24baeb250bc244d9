"""Packs the current production build into one release archive (`make release` builds first).

    .venv/bin/python scripts/release.py [--out dist]

The archive holds, at its top, `install`, `migrate` and `serve` (deploy/release/), the site's
runtime sources as git tracks them (no tests/, no Makefile, of scripts/ only nginx_maps.py), the lock, and the
prebuilt frontend (`.web/build/client`): a server unpacks it, runs ./install, ./migrate once,
and ./serve. `RELEASE` names the version, the commit and the SITE_URL the pages were built for
(SITE_URL is read at build time: build a release per public address).
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What a server needs, as tracked by git.
INCLUDED = (
    "marketing_site/",
    "assets/",
    "files/",
    "alembic/",
    "deploy/",
    "docs/",
    "alembic.ini",
    "rxconfig.py",
    "pyproject.toml",
    "uv.lock",
    ".python-version",
    ".env.example",
    "README.md",
    # The proxy's exact-path maps are generated from the release's build (deploy/README.md).
    "scripts/nginx_maps.py",
)
EXECUTABLES = ("install", "migrate", "serve")
BUILD = Path(".web") / "build" / "client"


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    names = [n for n in out.decode().split("\0") if n]
    return sorted(n for n in names if n.startswith(INCLUDED) and not n.startswith("deploy/release/"))


def build_site_url() -> str:
    """The SITE_URL the current build was made for (the first address of its sitemap)."""
    found = re.search(r"<loc>(https?://[^/<]+)", (ROOT / BUILD / "sitemap.xml").read_text())
    return found.group(1) if found else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    if not (ROOT / BUILD / "exact-paths.json").exists():
        print("no production build: run `make release` (or `make build`) first", file=sys.stderr)
        return 1
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    commit = subprocess.run(
        ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=True)
    name = f"nereo-marketing-site-{version}-{commit}{'-dirty' if dirty.stdout.strip() else ''}"
    args.out.mkdir(parents=True, exist_ok=True)
    archive = args.out / f"{name}.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for executable in EXECUTABLES:
            info = tar.gettarinfo(ROOT / "deploy" / "release" / executable, arcname=executable)
            info.mode = 0o755
            with (ROOT / "deploy" / "release" / executable).open("rb") as data:
                tar.addfile(info, data)
        for file in tracked_files():
            tar.add(ROOT / file, arcname=file, recursive=False)
        tar.add(ROOT / BUILD, arcname=str(BUILD))
        about = f"version {version}\ncommit {commit}\nsite_url {build_site_url()}\n".encode()
        info = tarfile.TarInfo("RELEASE")
        info.size = len(about)
        info.mode = 0o644
        tar.addfile(info, io.BytesIO(about))
    size = archive.stat().st_size / 1e6
    print(f"{archive.relative_to(ROOT) if archive.is_relative_to(ROOT) else archive} ({size:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
