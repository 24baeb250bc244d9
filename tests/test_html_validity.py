"""The Nu Html Checker (vnu, the W3C's validator) on the HTML every route serves, the
not-found pages included: zero errors."""

from __future__ import annotations

import json
import shutil
import subprocess
from urllib.parse import quote

import httpx2
import pytest
from servers import ROOT

from marketing_site import routes

VNU = ROOT / ".tools" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def test_every_served_page_is_valid_html(site, tmp_path):
    assert VNU.exists(), "vnu-jar is missing: `make test` installs it"
    java = shutil.which("java")
    if java is None:
        pytest.fail("java is missing: `make test` installs Debian's default-jre-headless")
    files = {}
    for number, path in enumerate([*routes.all_paths(), "/page-absente", "/en/missing-page"]):
        response = httpx2.get(site + quote(path, safe="/"))
        assert response.status_code in (200, 404), path
        file = tmp_path / f"{number}.html"
        file.write_bytes(response.content)
        files[file.name] = path
    # One Java process for every page: the checker's start-up is most of its time.
    result = subprocess.run(
        [java, "-jar", str(VNU), "--errors-only", "--format", "json", *sorted(str(tmp_path / name) for name in files)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,  # its errors are read from its report below
    )
    messages = json.loads(result.stderr or result.stdout)["messages"]
    errors = [
        f"{files.get(str(m.get('url')).rsplit('/', 1)[-1], m.get('url'))}:{m.get('lastLine')}: {m['message']}"
        for m in messages
    ]
    assert errors == []
    assert result.returncode == 0
