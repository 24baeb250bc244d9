"""A real Prometheus (Debian's) scrapes the real site, two backend workers, through the token.

The scrape configuration is deploy/prometheus/prometheus.yml as shipped, with only the machine's
values replaced (the target, the token file, a one-second interval), and it loads the shipped
alert rules. The test does things to the site and reads what Prometheus stored through its HTTP
API: leads sent across both workers move the lead counter by as many; a SIGKILLed worker's counts
stay in the sums once Granian has replaced it; a restart of the whole site is one counter reset,
which Prometheus sees as such. With TEST_DATABASE_URL and TEST_REDIS_URL set (make test's second
lane), the site runs on PostgreSQL and Redis.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2
import pytest
from lead_payloads import lead_payload
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from servers import ARTIFACTS, METRICS_TOKEN, ROOT, SiteServer, SmtpSink, free_port, wait_until_answering

CONFIG = ROOT / "deploy" / "prometheus" / "prometheus.yml"
DASHBOARD = ROOT / "deploy" / "grafana" / "site-dashboard.json"
RULES = ROOT / "deploy" / "prometheus" / "site-alerts.yml"
LEADS_API = "/api/v1/mail/send"


class Prometheus:
    """Debian's prometheus on a loopback port, scraping one site every second."""

    def __init__(self, workdir: Path, target: str):
        self.binary = shutil.which("prometheus") or pytest.fail("prometheus is missing: `make prometheus`")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.dir = workdir / f"prometheus-{self.port}"
        self.dir.mkdir(parents=True)
        token_file = self.dir / "token"
        token_file.write_text(METRICS_TOKEN)
        shutil.copy(RULES, self.dir / RULES.name)
        text = CONFIG.read_text()
        replacements = {
            "scrape_interval: 30s": "scrape_interval: 1s",
            "evaluation_interval: 30s": "evaluation_interval: 1s",
            "/etc/prometheus/nereo-metrics-token": str(token_file),
            '["10.0.0.11:8000", "10.0.0.12:8000"]': f'["{target}"]',
        }
        for old, new in replacements.items():
            if old not in text:
                raise AssertionError(f"{CONFIG.name} no longer contains {old!r}: update tests/test_prometheus.py")
            text = text.replace(old, new)
        (self.dir / "prometheus.yml").write_text(text)
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> Prometheus:
        ARTIFACTS.mkdir(exist_ok=True)
        log = (ARTIFACTS / f"prometheus-{self.port}.log").open("ab")
        self.proc = subprocess.Popen(
            [
                self.binary,
                f"--config.file={self.dir / 'prometheus.yml'}",
                f"--storage.tsdb.path={self.dir / 'data'}",
                f"--web.listen-address=127.0.0.1:{self.port}",
            ],
            cwd=self.dir,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        wait_until_answering(self.proc, self.url + "/-/ready", "prometheus", log.name, timeout)
        return self

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def query(self, expression: str) -> list[dict]:
        answer = httpx2.get(self.url + "/api/v1/query", params={"query": expression}, timeout=10).json()
        assert answer["status"] == "success", (expression, answer)
        return answer["data"]["result"]

    def scalar(self, expression: str) -> float | None:
        result = self.query(expression)
        return float(result[0]["value"][1]) if result else None

    def wait_for(self, expression: str, expected: float, timeout: float = 30) -> float | None:
        """Poll until the expression is `expected` (scrapes are a second apart); the last value."""
        deadline = time.monotonic() + timeout
        found = None
        while time.monotonic() < deadline:
            found = self.scalar(expression)
            if found == expected:
                return found
            time.sleep(0.5)
        return found


def workers(site: SiteServer) -> set[int]:
    assert site.proc is not None
    pid = site.proc.pid
    return {int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}


def group_folder(site: SiteServer) -> Path:
    assert site.proc is not None
    return Path(site.env["METRICS_DIR"]) / str(site.proc.pid)


def leads_counted_by(site: SiteServer, pid: int) -> float:
    """What one worker counted, from its own file alone (copied aside, summed alone)."""
    folder = group_folder(site)
    single = folder.parent / f"single-{pid}"
    shutil.rmtree(single, ignore_errors=True)
    single.mkdir()
    source = folder / f"counter_{pid}.db"
    if source.exists():
        shutil.copy(source, single)
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(single))
    return registry.get_sample_value("site_leads_accepted_total") or 0.0


def send_leads(site: SiteServer, count: int, tag: str) -> None:
    """`count` leads, eight at a time on fresh connections (so both workers take some)."""

    def one(index: int) -> int:
        payload = lead_payload(email=f"prom.{tag}.{index}@example.com", firstname=f"Prom{tag}{index}")
        with httpx2.Client(timeout=30) as client:
            return client.post(site.url + LEADS_API, json=payload, headers={"Connection": "close"}).status_code

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(one, range(count)))
    assert statuses == [200] * count, statuses


@pytest.fixture(scope="module")
def scraped(workdir):
    smtp = SmtpSink().start()  # its own: a hundred lead mails stay out of the session's sink
    site = SiteServer(free_port(), workdir, smtp, workers=2)
    site.migrate()
    site.start()
    prometheus = Prometheus(workdir, f"127.0.0.1:{site.port}").start()
    try:
        assert prometheus.wait_for('up{job="nereo-site"}', 1) == 1
        yield site, prometheus
    finally:
        prometheus.stop()
        site.stop()
        smtp.stop()


def test_what_prometheus_stores_is_what_the_site_did_through_a_respawn_and_a_restart(scraped):
    site, prometheus = scraped
    deadline = time.monotonic() + 60
    while len(workers(site)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    pids = workers(site)
    assert len(pids) == 2

    # Leads until both workers have taken some (the kernel picks the worker of a connection).
    sent, batch = 0, 0
    while batch < 10 and (sent == 0 or not all(leads_counted_by(site, pid) for pid in pids)):
        send_leads(site, 20, f"a{batch}")
        sent, batch = sent + 20, batch + 1
    per_worker = {pid: leads_counted_by(site, pid) for pid in pids}
    assert all(per_worker.values()) and sum(per_worker.values()) == sent, per_worker
    assert prometheus.wait_for("site_leads_accepted_total", sent) == sent
    assert (
        prometheus.wait_for(f'sum(site_http_requests_total{{route="{LEADS_API}",method="POST",status="200"}})', sent)
        == sent
    )
    # The outbox figures come from the database: every lead's mail is sent.
    assert prometheus.wait_for('site_outbox_messages{status="sent"}', sent) == sent

    # A worker is killed (as by the out-of-memory killer); Granian replaces it.
    victim = max(per_worker, key=per_worker.__getitem__)
    os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while (len(now := workers(site)) < 2 or victim in now) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert victim not in workers(site) and len(workers(site)) == 2
    folder = group_folder(site)
    deadline = time.monotonic() + 10
    while (folder / f"gauge_livesum_{victim}.db").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not (folder / f"gauge_livesum_{victim}.db").exists(), "the dead worker's live gauges stay in the sums"
    assert (folder / f"counter_{victim}.db").exists(), "the dead worker's counts must stay in the sums"
    send_leads(site, 10, "b")
    assert prometheus.wait_for("site_leads_accepted_total", sent + 10) == sent + 10
    assert prometheus.scalar("resets(site_leads_accepted_total[5m])") == 0
    before_restart = sent + 10

    # A restart of the whole site: a new process group, counters from zero (a reset to Prometheus).
    old_folder = folder
    site.stop()
    site.start()
    assert prometheus.wait_for('up{job="nereo-site"}', 1) == 1
    assert not old_folder.exists(), "the folder of the stopped group is removed at start"
    send_leads(site, 5, "c")
    assert prometheus.wait_for("site_leads_accepted_total", 5) == 5
    assert prometheus.scalar("resets(site_leads_accepted_total[10m])") == 1
    assert prometheus.scalar("max_over_time(site_leads_accepted_total[10m])") == before_restart
    assert prometheus.wait_for('site_outbox_messages{status="sent"}', before_restart + 5) == before_restart + 5


def test_the_dashboard_and_the_alerts_evaluate_on_what_the_site_exports(scraped):
    site, prometheus = scraped
    before = prometheus.scalar("site_leads_accepted_total") or 0
    send_leads(site, 3, "d")
    assert prometheus.wait_for("site_leads_accepted_total", before + 3) == before + 3
    time.sleep(3)  # a few more scrapes: rate() needs two samples in its window
    empty = []
    panels = json.loads(DASHBOARD.read_text())["panels"]
    for expression in [target["expr"] for panel in panels for target in panel.get("targets", [])]:
        # Grafana's variables would be replaced before the query; the dashboard has none.
        assert "$" not in expression, expression
        if not prometheus.query(expression):
            empty.append(expression)
    # Every panel has data once the site has served a few requests (counters start at 0), but
    # the 5xx per route: no route has answered one.
    assert empty == ['sum by (route) (rate(site_http_requests_total{status=~"5.."}[5m]))'], empty
    rules = httpx2.get(prometheus.url + "/api/v1/rules", timeout=10).json()["data"]["groups"]
    evaluated = {rule["name"]: rule for group in rules for rule in group["rules"]}
    shipped = set(re.findall(r"(?m)^\s*- alert: (\w+)", RULES.read_text()))
    assert set(evaluated) == shipped
    assert {name: rule["health"] for name, rule in evaluated.items()} == dict.fromkeys(shipped, "ok")
    firing = {rule["name"] for rule in evaluated.values() if rule["state"] == "firing"}
    assert firing == set(), firing


def test_a_scrape_without_the_token_gets_nothing(scraped):
    site, _ = scraped
    assert httpx2.get(site.url + "/metrics", timeout=10).status_code == 401
    wrong = httpx2.get(site.url + "/metrics", headers={"Authorization": "Bearer nope"}, timeout=10)
    assert wrong.status_code == 401 and "site_" not in wrong.text
