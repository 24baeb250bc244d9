#!/usr/bin/env python3
"""Restarts the site's machines one at a time behind nginx, so that no visitor gets a 502 and
no lead is lost (deploy/README.md, "Deploying a release"). Run it on the proxy, as root (it
edits the nginx configuration and reloads nginx). Python 3.11's standard library only.

    python3 deploy/rolling_restart.py --conf /etc/nginx/sites-enabled/nereo.conf \\
        --restart 'ssh {host} sudo systemctl restart nereo-site'

For each `server` line of the `upstream nereo_app` block, in order:

1. check: every other machine answers ready (GET /api/v1/health: 200), else stop here;
2. drain: mark the machine `down` in the configuration and reload nginx (graceful: requests in
   flight finish, new ones go to the others), then `--drain` if given (for a load balancer that
   checks readiness: `ops drain` on the machine);
3. wait `--drain-seconds` for the requests the machine still holds (more than the proxy's read
   timeout, 10 s);
4. restart: run `--restart` ({host} and {port} are the machine's) and wait until the machine is
   alive (GET /api/v1/health/live); then `--undrain` if given;
5. health: wait until it answers ready (200: ok or degraded), then remove `down` and reload nginx
   (which also forgets the failures nginx counted while the machine was away).

A machine that does not come back stops the run with status 1 and stays drained: the others keep
serving. The configuration is written back as it was (only ` down` added and removed).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

READY = "/api/v1/health"
LIVE = "/api/v1/health/live"
UPSTREAM = "nereo_app"


def say(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", flush=True)


def upstream_servers(conf: str) -> list[str]:
    """The host:port of each `server` line of the upstream block, in order."""
    block = re.search(r"upstream\s+" + UPSTREAM + r"\s*\{(.*?)\n\}", conf, re.DOTALL)
    if block is None:
        raise SystemExit(f"no `upstream {UPSTREAM}` block in the configuration")
    return re.findall(r"(?m)^\s*server\s+(\S+?)(?:\s[^;]*)?;", block.group(1))


def set_down(conf: str, server: str, down: bool) -> str:
    """The configuration with ` down` added to (or removed from) `server`'s line."""
    line = re.compile(r"(?m)^(\s*server\s+" + re.escape(server) + r"\b)([^;]*?)(\s+down)?;")
    found = line.search(conf)
    if found is None:
        raise SystemExit(f"no server line for {server}")
    params = found.group(2) + (" down" if down else "")
    return conf[: found.start()] + found.group(1) + params + ";" + conf[found.end() :]


def status(server: str, path: str, timeout: float = 3) -> tuple[int, str]:
    """(HTTP status, health status) of the machine, or (0, error) when it does not answer."""
    try:
        with urllib.request.urlopen(f"http://{server}{path}", timeout=timeout) as response:
            return response.status, json.loads(response.read()).get("status", "")
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.loads(error.read()).get("status", "")
        except ValueError:
            return error.code, ""
    except (OSError, ValueError) as error:
        return 0, type(error).__name__


def wait_for(server: str, path: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if status(server, path)[0] == 200:
            return True
        time.sleep(0.5)
    return False


def run(command: str, server: str) -> None:
    host, _, port = server.rpartition(":")
    filled = command.format(host=host, port=port, server=server)
    say(f"  $ {filled}")
    subprocess.run(filled, shell=True, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conf", type=Path, required=True, help="the nginx file holding `upstream nereo_app`")
    parser.add_argument("--reload", default="nginx -s reload", help="reloads nginx (default: %(default)s)")
    parser.add_argument("--restart", required=True, help="restarts one machine; {host}, {port}, {server} filled in")
    parser.add_argument("--drain", default="", help="also run before the wait (e.g. `ops drain` on {host})")
    parser.add_argument("--undrain", default="", help="run once the restarted machine is alive")
    parser.add_argument("--drain-seconds", type=float, default=15, help="wait for requests in flight (15)")
    parser.add_argument("--ready-timeout", type=float, default=120, help="seconds a machine has to be ready (120)")
    parser.add_argument("--only", nargs="*", default=None, help="these host:port only (default: every server)")
    args = parser.parse_args(argv)

    def write(conf: str) -> None:
        args.conf.write_text(conf)
        say(f"  $ {args.reload}")
        subprocess.run(args.reload, shell=True, check=True)

    servers = upstream_servers(args.conf.read_text())
    chosen = [s for s in servers if args.only is None or s in args.only]
    if len(servers) < 2:
        say("one machine only: a restart would leave nginx nothing to send visitors to")
        return 2
    for server in chosen:
        others = [s for s in servers if s != server]
        not_ready = [s for s in others if status(s, READY)[0] != 200]
        if len(not_ready) == len(others):
            say(f"stop: no other machine is ready ({', '.join(not_ready)}); {server} is left alone")
            return 1
        say(f"{server}: drain")
        write(set_down(args.conf.read_text(), server, down=True))
        if args.drain:
            run(args.drain, server)
        time.sleep(args.drain_seconds)
        say(f"{server}: restart")
        run(args.restart, server)
        if not wait_for(server, LIVE, args.ready_timeout):
            say(f"stop: {server} is not alive after {args.ready_timeout:.0f} s; it stays drained")
            return 1
        if args.undrain:
            run(args.undrain, server)
        if not wait_for(server, READY, args.ready_timeout):
            code, said = status(server, READY)
            say(f"stop: {server} is not ready after {args.ready_timeout:.0f} s ({code} {said}); it stays drained")
            return 1
        write(set_down(args.conf.read_text(), server, down=False))
        say(f"{server}: back ({status(server, READY)[1]})")
    say("done: " + ", ".join(chosen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
