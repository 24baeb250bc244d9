"""The release archive: unpacked in a temporary folder, installed, migrated, served within
seconds, and a lead posted to it (issue 23 item 4); all it logs is JSON lines (item 5). It packs
the test build (`make test` made it), as `make release` packs the production one; nothing here
builds the frontend again.
"""

from __future__ import annotations

import configparser
import importlib.util
import json
import os
import shlex
import signal
import sqlite3
import subprocess
import tarfile
import time
from pathlib import Path

import httpx2
from lead_payloads import lead_payload
from servers import BIN, ROOT, PrivateRedis, free_port

# What a server's environment holds: no project settings of the developer's shell, no .venv or
# .tools on PATH (no bun: a build would fail), only the machine's certificates for PyPI.
MACHINE = ("HOME", "LANG", "SSL_CERT_FILE", "SSL_CERT_DIR", "PIP_CERT", "PIP_FIND_LINKS", "REQUESTS_CA_BUNDLE")


def _is_json_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def server_environment(**settings: str) -> dict[str, str]:
    env = {name: os.environ[name] for name in MACHINE if name in os.environ}
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    env.update(settings)
    return env


def snapshot(folder: Path) -> dict[str, tuple[int, float]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime) for p in folder.rglob("*") if p.is_file()}


def test_release_unpacks_installs_migrates_serves_and_takes_a_lead(tmp_path, production_build):
    made = subprocess.run(
        [str(BIN / "python"), "scripts/release.py", "--out", str(tmp_path / "dist")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    [archive] = (tmp_path / "dist").glob("nereo-marketing-site-*.tar.gz")
    with tarfile.open(archive) as tar:
        members = {m.name: m for m in tar.getmembers()}
        release = tmp_path / "release"
        tar.extractall(release, filter="tar")
    assert not [n for n in members if n.startswith("tests/") or n in ("Makefile", "pytest.ini")]
    assert [n for n in members if n.startswith("scripts/")] == ["scripts/nginx_maps.py"]
    for executable in ("install", "migrate", "serve"):
        assert members[executable].mode & 0o111, executable
    assert "deploy/README.md" in members
    site_url = (release / "RELEASE").read_text().split("site_url ")[1].strip()

    installed = subprocess.run(
        ["./install"], cwd=release, env=server_environment(), capture_output=True, text=True, check=False
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    python = release / ".venv" / "bin" / "python"
    for absent in ("pytest", "playwright", "oidc_provider_mock", "schemathesis"):
        found = subprocess.run([str(python), "-c", f"import {absent}"], capture_output=True, check=False)
        assert found.returncode != 0, f"{absent} is installed by ./install"

    port = free_port()
    database = tmp_path / "site.db"
    settings = server_environment(
        DATABASE_URL=f"sqlite:///{database}",
        MAIL_SINK_DIR=str(tmp_path / "mail"),
        PORT=str(port),
        SITE_URL=site_url,
        WORKERS="2",
        # INFO: Reflex's start and stop lines are in the log, as JSON (checked at the end).
        LOG_LEVEL="INFO",
    )
    migrated = subprocess.run(["./migrate"], cwd=release, env=settings, capture_output=True, text=True, check=False)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr

    # Two workers without Redis would each count the rate limits alone: refused before serving.
    refused = subprocess.run(
        ["./serve"], cwd=release, env=settings, capture_output=True, text=True, timeout=120, check=False
    )
    assert refused.returncode != 0
    assert "WORKERS: 2 workers need REFLEX_REDIS_URL" in refused.stderr, refused.stderr[-2000:]
    redis = PrivateRedis().start()
    settings.update(REFLEX_REDIS_URL=redis.url)

    build = snapshot(release / ".web")
    log = (tmp_path / "serve.log").open("wb")
    began = time.monotonic()
    serving = subprocess.Popen(["./serve"], cwd=release, env=settings, stdout=log, stderr=subprocess.STDOUT)
    log.close()
    url = f"http://127.0.0.1:{port}"
    try:
        answered_after = None
        while time.monotonic() - began < 120 and serving.poll() is None:
            try:
                if httpx2.get(url + "/api/v1/health/live", timeout=2).status_code == 200:
                    answered_after = time.monotonic() - began
                    break
            except httpx2.HTTPError:
                time.sleep(0.2)
        assert answered_after is not None, (tmp_path / "serve.log").read_text()[-3000:]
        # A figure, not a bound (a loaded CI machine took 30 s; 4-10 s on two cores otherwise):
        # the test asks that it serves, within the 120 s above.
        print(f"./serve answered after {answered_after:.1f} s")

        children = Path(f"/proc/{serving.pid}/task/{serving.pid}/children").read_text().split()
        assert len(children) == 2, "WORKERS=2 gives two backend workers"
        assert httpx2.get(url + "/").status_code == 200
        email = f"release-{time.time_ns()}@example.com"
        response = httpx2.post(url + "/api/v1/mail/send", json=lead_payload(email=email), timeout=30)
        assert response.status_code == 200, response.text
        with sqlite3.connect(database) as db:
            assert db.execute("SELECT COUNT(*) FROM lead WHERE email = ?", (email,)).fetchone() == (1,)
        # It built nothing: the prebuilt frontend is as unpacked.
        assert snapshot(release / ".web" / "build") == {
            k.removeprefix("build/"): v for k, v in build.items() if k.startswith("build/")
        }
    finally:
        serving.send_signal(signal.SIGTERM)
        try:
            serving.wait(timeout=30)
        except subprocess.TimeoutExpired:
            serving.kill()
        redis.kill()
    # Every line it wrote, from Reflex's start-up banner to its last words, is one JSON record.
    lines = [line for line in (tmp_path / "serve.log").read_text().splitlines() if line.strip()]
    not_json = [line for line in lines if not _is_json_object(line)]
    assert not_json == []
    assert "Starting Reflex App" in [json.loads(line)["msg"] for line in lines], lines


def test_the_systemd_unit_restarts_the_release_serve_command_without_limit():
    """deploy/nereo-site.service, read as systemd reads it (issue 21 item 8): a process that dies
    is started again a second later, however often; what it starts is the release's ./serve."""
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # systemd's keys are case-sensitive
    unit.read(ROOT / "deploy" / "nereo-site.service", encoding="utf-8")
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"  # no give-up after a burst of restarts
    service = unit["Service"]
    assert service["Restart"] == "always"
    assert service["RestartSec"] == "1"
    assert "StartLimitIntervalSec" not in service and "StartLimitBurst" not in service
    # The unpacked release's serve (at the archive's top, scripts/release.py), no arguments.
    assert shlex.split(service["ExecStart"]) == [service["WorkingDirectory"] + "/serve"]
    spec = importlib.util.spec_from_file_location("release", ROOT / "scripts" / "release.py")
    assert spec is not None and spec.loader is not None
    release = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(release)
    assert "serve" in release.EXECUTABLES
    # What Environment= sets is what ./serve reads.
    serve = (ROOT / "deploy" / "release" / "serve").read_text()
    environment = dict(assignment.split("=", 1) for assignment in shlex.split(service["Environment"]))
    for name in environment:
        assert "${" + name + ":-" in serve, name
    # One worker unless site.env (read after Environment=, so it wins) sets REFLEX_REDIS_URL with
    # WORKERS: several workers without Redis are refused at start (issue 30, must-hold 5).
    assert environment["WORKERS"] == "1"
    assert "REFLEX_REDIS_URL" not in environment
