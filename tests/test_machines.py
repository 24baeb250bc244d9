"""Two machines behind the shipped nginx, as deploy/README.md runs them (issue 33: deploys,
stalls, crashes and outages lose nothing).

Two `./serve` of a release made from the test build (tests/machines.py), one PostgreSQL
database, a private Redis, `deploy/nginx/nereo.conf` in front (the session's proxy build,
shared with tests/test_nginx.py). It needs PostgreSQL and Redis: it runs in the second lane.

- a rolling restart by `deploy/rolling_restart.py` while leads flow: every lead answered 200
  (no 502), stored once;
- a machine frozen (SIGSTOP): requests through the proxy still succeed, the figure is printed;
- a machine killed (SIGKILL): an open tab reconnects to the other one with its server state;
- Redis out: every machine stays ready (200 degraded) and takes leads.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx2
import pytest
from machines import READY, LeadFlow, Machine, free_ports, make_release, summary
from servers import ROOT, NginxProxy, PrivateRedis, SiteServer, engines

from marketing_site import routes

pytestmark = pytest.mark.skipif(
    "TEST_DATABASE_URL" not in engines(), reason="two machines share a PostgreSQL database (TEST_DATABASE_URL)"
)
ROLLING = ROOT / "deploy" / "rolling_restart.py"


@dataclass
class Site:
    machines: list[Machine]
    proxy: NginxProxy
    database: SiteServer  # holds the shared database (never started): its URL and `query`
    redis: PrivateRedis
    workdir: Path

    @property
    def origin(self) -> str:
        return self.proxy.origin


@pytest.fixture(scope="module")
def site(workdir, smtp, proxy_build):
    folder = workdir / "machines"
    folder.mkdir()
    release = make_release(folder)
    redis = PrivateRedis().start()
    database = SiteServer(free_ports(1)[0], folder)
    database.migrate()
    settings = {
        "SITE_URL": proxy_build.origin,
        "DATABASE_URL": database.database_url,
        "REFLEX_REDIS_URL": redis.url,
        "REDIS_KEY_PREFIX": f"mstest:machines:{time.time_ns()}:",
        "SESSION_SECRET": "machines-test-session-secret",
        "TRUSTED_PROXIES": "127.0.0.1",
        "RATE_LIMIT_PER_IP": "1000000",
        "RATE_LIMIT_PER_EMAIL": "1000000",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(smtp.port),
        "SMTP_STARTTLS": "false",
        "OUTBOX_POLL_SECONDS": "0.5",
        "WORKERS": "1",
        "LOG_LEVEL": "INFO",
    }
    machines = [Machine(release, port, folder, **settings) for port in free_ports(2)]
    proxy = NginxProxy(
        folder, proxy_build.build, proxy_build.maps, [m.address for m in machines], port=proxy_build.port
    )
    try:
        for machine in machines:
            machine.start()
        proxy.write_config()
        proxy.start()
        yield Site(machines, proxy, database, redis, folder)
    finally:
        proxy.stop()
        for machine in machines:
            machine.stop()
        redis.kill()


def _rolling_restart(site: Site, drain_seconds: float = 3) -> subprocess.CompletedProcess:
    """deploy/rolling_restart.py as an operator runs it on the proxy, with our machines'
    commands: SIGTERM and wait (what `systemctl restart` does), and the machine's drain file
    (what `ops drain` and `ops undrain` write, tests/test_health.py)."""
    restart = " ; ".join(f"if [ {{port}} = {m.port} ]; then {m.restart_command()}; fi" for m in site.machines)
    drain_file = f"{site.workdir}/draining-{{port}}"
    return subprocess.run(
        [
            sys.executable,
            str(ROLLING),
            "--conf",
            str(site.proxy.dir / "nereo.conf"),
            "--reload",
            site.proxy.reload_command(),
            "--restart",
            restart,
            "--drain",
            f"touch {drain_file}",
            "--undrain",
            f"rm {drain_file}",
            "--drain-seconds",
            str(drain_seconds),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def test_a_rolling_restart_answers_every_lead_and_stores_each_once(site):
    starts = [m.starts for m in site.machines]
    flow = LeadFlow(site.origin).start()
    time.sleep(2)
    rolled = _rolling_restart(site)
    time.sleep(2)
    answers = flow.stop()
    print(rolled.stdout)
    print("rolling restart:", summary(answers))
    assert rolled.returncode == 0, rolled.stdout + rolled.stderr
    assert [m.starts for m in site.machines] == [s + 1 for s in starts]  # each restarted once
    assert len(answers) >= 100  # leads flowed during the whole restart
    assert [a for a in answers if a.status != 200] == []
    stored = flow.stored(site.database.query)
    assert sorted(stored) == sorted(flow.email(a.n) for a in answers)
    assert set(stored.values()) == {1}
    # Each stored lead has its one mail queued.
    [(mails,)] = site.database.query(
        "SELECT COUNT(*) FROM outbox_message o JOIN lead l ON l.id = o.lead_id WHERE l.email LIKE ?",
        f"flow-{flow.run}-%",
    )
    assert mails == len(answers)


def test_a_frozen_machine_costs_seconds_not_a_failure(site):
    """SIGSTOP one machine (a VM paused, a stalled process): requests through the proxy still
    succeed (a read or a keyed lead that reached it goes on to the other machine after the read
    timeout, and passive health keeps the next ones away); the cost is printed, not asserted."""
    frozen, other = site.machines
    flow = LeadFlow(site.origin)
    answers = []
    reads = []
    frozen.signal(signal.SIGSTOP)
    try:
        began = time.monotonic()
        for n in range(20):
            answers.append(flow.post(n, keyed=True))
            start = time.monotonic()
            with httpx2.Client(verify=False, timeout=60) as client:
                reads.append((client.get(site.origin + READY).status_code, time.monotonic() - start))
        total = time.monotonic() - began
    finally:
        frozen.signal(signal.SIGCONT)
    print(
        f"frozen machine: {summary(answers)}; reads {[r[0] for r in reads].count(200)}/{len(reads)} 200, "
        f"slowest read {max(r[1] for r in reads):.2f} s; 40 requests in {total:.1f} s"
    )
    assert [a.status for a in answers] == [200] * 20
    assert [r[0] for r in reads] == [200] * 20
    # Woken up, the frozen machine runs what it held: a keyed lead it had taken is not stored twice.
    frozen.wait(READY)
    time.sleep(2)
    stored = flow.stored(site.database.query)
    assert sorted(stored) == sorted(flow.email(n) for n in range(20))
    assert set(stored.values()) == {1}
    other.wait(READY)


def _price(page) -> str:
    return page.locator("[data-testid=price-engage]").inner_text().strip()


def _connects(frames: list[str]) -> int:
    """Socket.IO CONNECT packets the page sent (one per websocket it opened)."""
    return sum(1 for f in frames if str(f).startswith("40/_event,"))


@pytest.mark.browser
def test_an_open_tab_keeps_its_state_when_its_machine_is_killed(site, new_page):
    """The tab's websocket is on machine A (B is out of the proxy while it connects); the tab
    switches the prices (server state); A is killed (SIGKILL: nothing of it runs) and held down.
    The tab reconnects through the proxy to B, which takes its state over: the same token, no
    new one sent, the alternate prices still on the page after the full rehydration of a
    reconnect. (Before, B gave the tab a new token: a fresh state, the default prices.)"""
    from marketing_site.state.pricing import PricingState

    sys.path.insert(0, str(ROOT / "deploy"))
    from rolling_restart import set_down

    killed, survivor = site.machines
    conf = site.proxy.dir / "nereo.conf"
    original = conf.read_text()
    conf.write_text(set_down(original, survivor.address, down=True))
    subprocess.run(site.proxy.reload_command(), shell=True, check=True)
    sent: list[str] = []  # page -> server, every socket
    received: list[str] = []  # server -> page
    sockets: list = []

    def relay(ws):
        server = ws.connect_to_server()
        sockets.append(server)

        def to_server(message):
            sent.append(message)
            server.send(message)

        def to_page(message):
            received.append(message)
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    page = new_page(ignore_https_errors=True)
    page.route_web_socket(re.compile(r".*/_event/.*"), relay)
    token = "() => window.sessionStorage.getItem('token')"
    try:
        # The login page connects; the pricing page, reached client-side, keeps that socket.
        page.goto(site.origin + quote(routes.LOGIN.fr, safe="/"))
        page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
        for _ in range(300):
            if _connects(sent):
                break
            page.wait_for_timeout(100)
        first = next(f for f in sent if str(f).startswith("40/_event,"))
        page.evaluate("(p) => window.__reactRouterDataRouter.navigate(p)", routes.PRICING.fr)
        page.wait_for_function("() => document.querySelector('[data-testid=price-engage]')")
        default_price = _price(page)
        # The switch, sent on the tab's socket as the Reflex client sends an event (the spec
        # shows no control for it: browser_checks.switch_to_alternate_prices_over_websocket).
        event = json.loads(first.removeprefix("40/_event,"))["event"]
        event["name"] = f"{PricingState.get_full_name()}.use_alternate_prices"
        event["payload"] = {}
        sockets[-1].send("42/_event," + json.dumps(["event", event]))
        page.wait_for_function(
            "(d) => document.querySelector('[data-testid=price-engage]').innerText.trim() !== d", arg=default_price
        )
        switched, token_before = _price(page), page.evaluate(token)
        # Both machines in again; then A, which holds the tab, is lost.
        conf.write_text(original)
        subprocess.run(site.proxy.reload_command(), shell=True, check=True)
        killed.held = True
        connects = _connects(sent)
        lost_at = time.monotonic()
        killed.kill()
        for _ in range(600):
            if _connects(sent) > connects:
                break
            page.wait_for_timeout(100)
        reconnected = time.monotonic() - lost_at
        assert _connects(sent) > connects, "the tab did not reconnect"
        # B answers the reconnect once A's heartbeat has lapsed, with the full state.
        answered = len(received)
        for _ in range(300):
            if any('"delta"' in str(f) for f in received[answered - 1 :]) and _price(page) != "":
                break
            page.wait_for_timeout(100)
        page.wait_for_timeout(1000)
        print(
            f"killed machine: the tab reconnected after {reconnected:.1f} s and shows {_price(page)!r} "
            f"(was {switched!r}, default {default_price!r})"
        )
        assert not any("new_token" in str(f) for f in received), "the tab got a new token: its state was reset"
        assert page.evaluate(token) == token_before
        assert _price(page) == switched != default_price
    finally:
        conf.write_text(original)
        subprocess.run(site.proxy.reload_command(), shell=True, check=True)
        killed.held = False
        killed.wait(READY)


def test_redis_out_leaves_every_machine_ready_and_taking_leads(site):
    """A shared dependency's outage that leaves lead capture working is `degraded` with 200 on
    every machine, not a 503 that would make a load balancer take them all out."""
    site.redis.kill()
    try:
        for machine in site.machines:
            ready = httpx2.get(machine.url + READY, timeout=10)
            assert (ready.status_code, ready.json()) == (200, {"status": "degraded"}), machine.address
        flow = LeadFlow(site.origin)
        answers = [flow.post(n, keyed=True) for n in range(10)]
        assert [a.status for a in answers] == [200] * 10
        assert sum(flow.stored(site.database.query).values()) == 10
    finally:
        site.redis.start()
