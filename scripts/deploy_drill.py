"""Deployment drill (not a test): two machines behind the shipped nginx while leads flow.

What deploy/README.md runs, on loopback: a release made from the test build (`make build` once),
unpacked and installed once, two `./serve` of it (each restarted a second after it exits, as the
systemd unit does), one PostgreSQL database (next to TEST_DATABASE_URL, default the CI's
127.0.0.1:5432), a private Redis, `deploy/nginx/nereo.conf` in front (tests/machines.py). Leads
are posted through nginx by `--clients` visitors, each request on a connection of its own and
never retried by the client, every other one with an Idempotency-Key. Each phase prints the
answers (status: count), the median and slowest answer, and the leads stored twice:

  rolling    deploy/rolling_restart.py (drain, wait, restart, health, one machine at a time)
  naive      the guide before it: restart one machine, wait until it answers, restart the next
  frozen     one machine SIGSTOPped for --freeze seconds, then SIGCONT
  killed     one machine SIGKILLed (a machine lost), started again a second later
  redis      Redis stopped for --freeze seconds (each machine's readiness printed), then started

    .venv/bin/python scripts/deploy_drill.py [--phases rolling naive frozen killed redis]
        [--clients 8] [--freeze 20]

Exit status 1 if a lead is stored twice or acknowledged and not stored, or if the rolling
restart or the Redis outage answers anything but 200. (Frozen and killed machines answer a POST
without a key that had reached them 504 or 502: nginx may not run it twice; the site's forms
always send a key.)
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from machines import READY, LeadFlow, Machine, free_ports, make_release, summary
from servers import BIN, NginxProxy, PrivateRedis, SiteServer, SmtpSink, ensure_nginx, free_port

os.environ.setdefault("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
os.environ.setdefault("TEST_PORT", "8976")  # names the drill's PostgreSQL database, mstest_8976_…
BUILD = ROOT / ".web" / "build" / "client"


def rolling(machines: list[Machine], proxy: NginxProxy, workdir: Path) -> int:
    restart = " ; ".join(f"if [ {{port}} = {m.port} ]; then {m.restart_command()}; fi" for m in machines)
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "deploy" / "rolling_restart.py"),
            "--conf",
            str(proxy.dir / "nereo.conf"),
            "--reload",
            proxy.reload_command(),
            "--restart",
            restart,
            "--drain",
            f"touch {workdir}/draining-{{port}}",
            "--undrain",
            f"rm {workdir}/draining-{{port}}",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    print("  " + done.stdout.strip().replace("\n", "\n  "))
    return done.returncode


def naive(machines: list[Machine]) -> None:
    for machine in machines:
        subprocess.run(machine.restart_command(), shell=True, check=True)
        machine.wait("/api/v1/health/live")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--phases", nargs="+", default=["rolling", "naive", "frozen", "killed", "redis"], help="in this order"
    )
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--freeze", type=float, default=20, help="seconds frozen, or Redis out (20)")
    args = parser.parse_args()
    if not (BUILD / "exact-paths.json").exists():
        print("no production build: run `make build` first", file=sys.stderr)
        return 1
    ensure_nginx()
    workdir = Path(tempfile.mkdtemp(prefix="deploy-drill-"))
    print(f"release in {workdir}: packing and installing")
    release = make_release(workdir)
    redis = PrivateRedis().start()
    smtp = SmtpSink().start()
    database = SiteServer(free_port(), workdir)
    database.migrate()
    proxy_port = free_port()
    origin = f"https://127.0.0.1:{proxy_port}"
    settings = {
        "SITE_URL": origin,
        "DATABASE_URL": database.database_url,
        "REFLEX_REDIS_URL": redis.url,
        "SESSION_SECRET": "deploy-drill-session-secret",
        "TRUSTED_PROXIES": "127.0.0.1",
        "RATE_LIMIT_PER_IP": "100000000",
        "RATE_LIMIT_PER_EMAIL": "100000000",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(smtp.port),
        "SMTP_STARTTLS": "false",
        "WORKERS": "2",
        "LOG_LEVEL": "WARNING",
    }
    maps = workdir / "maps"
    subprocess.run(
        [str(BIN / "python"), "scripts/nginx_maps.py", "--build", str(BUILD), "--out", str(maps)],
        cwd=ROOT,
        check=True,
        env={**os.environ, "SITE_URL": origin},
    )
    machines = [Machine(release, port, workdir, **settings) for port in free_ports(2)]
    proxy = NginxProxy(workdir, BUILD, maps, [m.address for m in machines], port=proxy_port)
    twice = 0
    refused = 0
    try:
        for machine in machines:
            machine.start()
        proxy.write_config()
        proxy.start()
        print(f"two machines x {settings['WORKERS']} workers behind nginx {origin}; {args.clients} clients")
        for phase in args.phases:
            flow = LeadFlow(origin, clients=args.clients, pause=0.02).start()
            time.sleep(3)
            began = time.monotonic()
            if phase == "rolling":
                if rolling(machines, proxy, workdir) != 0:
                    refused += 1
            elif phase == "naive":
                naive(machines)
            elif phase in ("frozen", "killed"):
                target = machines[0]
                if phase == "frozen":
                    target.signal(signal.SIGSTOP)
                    time.sleep(args.freeze)
                    target.signal(signal.SIGCONT)
                else:
                    target.kill()
                target.wait(READY)
            elif phase == "redis":
                redis.kill()
                time.sleep(2)
                said = [httpx2.get(m.url + READY, timeout=10) for m in machines]
                print("  readiness with Redis out: " + ", ".join(f"{r.status_code} {r.json()['status']}" for r in said))
                time.sleep(max(0, args.freeze - 2))
                redis.start()
            took = time.monotonic() - began
            time.sleep(3)
            answers = flow.stop()
            time.sleep(3)  # a frozen machine's late work lands
            stored = flow.stored(database.query)
            doubled = sum(1 for count in stored.values() if count > 1)
            missing = sum(1 for a in answers if a.status == 200 and flow.email(a.n) not in stored)
            twice += doubled + missing
            failed = Counter(
                ("keyed" if a.keyed else "unkeyed", a.status or a.error) for a in answers if a.status != 200
            )
            if phase in ("rolling", "redis") and failed:
                refused += 1
            print(
                f"{phase:<8} {took:5.1f} s: {summary(answers)}; stored twice {doubled}, acknowledged not stored {missing}"
            )
            if failed:
                print(f"         not 200: {dict(failed)}")
    finally:
        proxy.stop()
        for machine in machines:
            machine.stop()
        redis.kill()
        smtp.stop()
    ok = twice == 0 and refused == 0
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
