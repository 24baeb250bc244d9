"""The site's Prometheus metrics without a build: labels, the HTTP middleware, the process group's
files summed over real worker processes, the scrape's token, the outbox figures, and the events
counted where they happen (leads, rate limits) on a real SQLite database.

The production site, its workers and a real Prometheus: tests/test_prometheus.py.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lead_corpus import ACCEPTED
from lead_payloads import lead_payload
from prometheus_client.parser import text_string_to_metric_families
from servers import ROOT
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient

from marketing_site import metrics, metrics_storage, routes

# Every label value the site may export, per label name: bounded whatever the traffic.
API_TEMPLATES = {
    route.path
    for module in ("audience", "auth", "booking", "client_report", "console", "files", "health", "mail", "metrics")
    for route in __import__(f"marketing_site.api.{module}", fromlist=["ROUTES"]).ROUTES
}
ROUTE_LABELS = (
    set(routes.all_paths())
    | API_TEMPLATES
    | {metrics.NOT_FOUND, metrics.REDIRECT, metrics.OTHER, metrics.ASSETS, "/_event", "/_upload"}
)


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """{(sample name, sorted labels): value} of an exposition."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(text: str, name: str, **labels: str) -> float:
    return samples(text).get((name, tuple(sorted(labels.items()))), 0.0)


def exposition() -> str:
    return metrics.exposition().decode()


# ----------------------------------------------------------------------------- labels


@given(
    path=st.one_of(st.text(), st.sampled_from(sorted(ROUTE_LABELS)), st.builds(lambda s: "/assets/" + s, st.text())),
    status=st.integers(min_value=100, max_value=599),
    method=st.one_of(st.text(max_size=12), st.sampled_from(sorted(metrics.METHODS))),
)
def test_a_request_is_labelled_from_a_fixed_set_whatever_its_path_and_method(path, status, method):
    label = metrics.route_label({"type": "http", "path": path}, status)
    assert label in ROUTE_LABELS
    assert metrics.method_label(method) in metrics.METHODS | {"OTHER"}


def test_every_rate_limiter_key_family_in_the_code_has_a_name():
    """A new limiter's refusals must not all fall under "other": each key family the code hits
    (`.hit(f"family:…")`) is named in metrics.RATE_LIMITS."""
    families = set()
    for source in (ROOT / "marketing_site").rglob("*.py"):
        families |= set(re.findall(r"""\.hit\(\s*f?["']([\w-]+):""", source.read_text()))
        families |= set(re.findall(r"""\.hit,\s*f?["']([\w-]+):""", source.read_text()))
    assert len(families) >= 7, families
    assert families <= set(metrics.RATE_LIMITS), families - set(metrics.RATE_LIMITS)
    assert metrics.rate_limit_name("email:ada@example.com") == "lead_per_email"
    assert metrics.rate_limit_name("ada@example.com") == "other"


# ----------------------------------------------------------------------------- HTTP middleware


def _app() -> TestClient:
    async def thing(request):
        return PlainTextResponse(request.path_params["thing_id"])

    async def broken(_request):
        raise RuntimeError("broken on purpose")

    async def socket(websocket):
        await websocket.accept()
        await websocket.send_text(str(value(exposition(), "site_websocket_connections")))
        await websocket.close()

    inner = Starlette(
        routes=[
            Route("/api/v1/things/{thing_id}", thing),
            Route("/api/v1/broken", broken),
            WebSocketRoute("/_event/", socket),
        ]
    )
    return TestClient(metrics.HttpMetrics(inner), raise_server_exceptions=False)


def test_requests_are_counted_by_route_template_method_and_status_with_their_duration():
    client = _app()
    before = exposition()
    secret_path = "/ada.lovelace@example.com/06 12 34 56 78"
    assert client.get("/api/v1/things/7f3a-private-id").status_code == 200
    assert client.get("/api/v1/things/another").status_code == 200
    assert client.get(secret_path).status_code == 404
    assert client.post("/api/v1/things/x").status_code == 405
    assert client.get("/api/v1/broken").status_code == 500
    assert client.request("BREW", "/api/v1/things/x").status_code == 405
    after = exposition()

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    template = "/api/v1/things/{thing_id}"
    assert moved("site_http_requests_total", route=template, method="GET", status="200") == 2
    assert moved("site_http_requests_total", route=metrics.NOT_FOUND, method="GET", status="404") == 1
    assert moved("site_http_requests_total", route=template, method="POST", status="405") == 1
    assert moved("site_http_requests_total", route="/api/v1/broken", method="GET", status="500") == 1
    assert moved("site_http_requests_total", route=template, method="OTHER", status="405") == 1
    assert moved("site_http_request_duration_seconds_count", route=template, method="GET") == 2
    assert moved("site_http_request_duration_seconds_bucket", route=template, method="GET", le="+Inf") == 2
    assert moved("site_http_request_duration_seconds_sum", route=template, method="GET") > 0
    for raw in ("7f3a-private-id", "another", "ada.lovelace", "example.com", "06 12", "BREW"):
        assert raw not in after


def test_a_state_websocket_is_counted_while_it_is_open():
    client = _app()
    before = value(exposition(), "site_websocket_connections")
    with client.websocket_connect("/_event/") as websocket:
        during = float(websocket.receive_text())
    assert during == before + 1
    assert value(exposition(), "site_websocket_connections") == before


# ----------------------------------------------------------------------------- process group

WORKER = """
import os, sys, time
from marketing_site import metrics
metrics.LEADS_ACCEPTED.inc(int(sys.argv[1]))
metrics.WEBSOCKETS_OPEN.inc()
print("ready", flush=True)
sys.stdin.readline()
"""


def _worker(env: dict[str, str], leads: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(leads)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


def test_the_scrape_sums_every_worker_of_the_group_through_a_respawn(tmp_path, monkeypatch):
    """Three real processes write to the group's folder; the scrape (here, from this process: any
    process of the group) sees the sums. A worker that dies keeps its counts in the totals; its live
    gauges go when it is marked gone, as Granian's respawn does (exact_paths.respawn_failed_workers)."""
    env = {
        **os.environ,
        "METRICS_TOKEN": "test-metrics-token-4c7b",
        "ENV_FILE": "",
        metrics_storage.ENVIRONMENT_VARIABLE: str(tmp_path),
    }
    first, second = _worker(env, 30), _worker(env, 10)
    monkeypatch.setenv(metrics_storage.ENVIRONMENT_VARIABLE, str(tmp_path))
    try:
        text = exposition()
        assert value(text, "site_leads_accepted_total") == 40
        assert value(text, "site_websocket_connections") == 2
        second.kill()  # as an out-of-memory kill: no goodbye
        second.wait()
        assert value(exposition(), "site_websocket_connections") == 2  # until the respawn says so
        metrics_storage.worker_exited(second.pid)
        third = _worker(env, 5)
        try:
            text = exposition()
            assert value(text, "site_leads_accepted_total") == 45
            assert value(text, "site_websocket_connections") == 2  # the first and the third
        finally:
            third.stdin.close()
            third.wait()
    finally:
        first.stdin.close()
        first.wait()
        second.kill()


def test_each_process_group_gets_its_own_empty_folder_and_the_gone_ones_are_removed(tmp_path, monkeypatch):
    from marketing_site.settings import get_settings

    monkeypatch.delenv(metrics_storage.ENVIRONMENT_VARIABLE, raising=False)
    monkeypatch.setenv("METRICS_DIR", str(tmp_path))
    monkeypatch.setenv("METRICS_TOKEN", "")
    get_settings.cache_clear()
    try:
        assert metrics_storage.prepare_process_group() is None  # metrics off: no files
        assert list(tmp_path.iterdir()) == []
        monkeypatch.setenv("METRICS_TOKEN", "test-metrics-token-4c7b")
        get_settings.cache_clear()
        dead = subprocess.Popen(["true"])
        dead.wait()
        (tmp_path / str(dead.pid)).mkdir()
        (tmp_path / str(dead.pid) / "counter_1.db").write_bytes(b"old")
        alive = tmp_path / "1"  # pid 1 runs: another group's folder stays
        alive.mkdir()
        own = tmp_path / str(os.getpid())
        own.mkdir()
        (own / "counter_99.db").write_bytes(b"from a group long gone with this pid")
        folder = metrics_storage.prepare_process_group()
        assert folder == own and list(own.iterdir()) == []
        assert os.environ[metrics_storage.ENVIRONMENT_VARIABLE] == str(own)
        assert not (tmp_path / str(dead.pid)).exists() and alive.exists()
        # A worker started from this process keeps its parent's folder and what is in it.
        (own / "counter_7.db").write_bytes(b"a sibling worker's")
        code = "from marketing_site import metrics_storage; print(metrics_storage.prepare_process_group())"
        printed = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**os.environ, "ENV_FILE": ""},
            capture_output=True,
            text=True,
            check=False,
        )
        assert printed.stdout.strip() == str(own), printed.stderr
        assert (own / "counter_7.db").exists()
    finally:
        get_settings.cache_clear()
        os.environ.pop(metrics_storage.ENVIRONMENT_VARIABLE, None)


# ----------------------------------------------------------------------------- the scrape


@pytest.fixture
def scrape_client(monkeypatch):
    from marketing_site.api import metrics as metrics_api
    from marketing_site.settings import get_settings

    def client(token: str) -> TestClient:
        monkeypatch.setenv("METRICS_TOKEN", token)
        get_settings.cache_clear()
        monkeypatch.setattr(metrics_api, "OUTBOX", metrics_api.OutboxCollector())
        return TestClient(Starlette(routes=metrics_api.ROUTES))

    yield client
    get_settings.cache_clear()


def test_without_a_token_configured_there_are_no_metrics(scrape_client):
    client = scrape_client("")
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 404


TOKEN = "metrics-token-5d1e"


HEADER_TEXT = st.characters(min_codepoint=32, max_codepoint=255)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    header=st.one_of(
        st.text(alphabet=HEADER_TEXT),
        st.sampled_from([f"Bearer {TOKEN}", f"bearer {TOKEN}", f"BEARER {TOKEN}", f"Basic {TOKEN}", TOKEN]),
        st.builds(lambda credentials: f"Bearer {credentials}", st.text(alphabet=HEADER_TEXT, max_size=30)),
        st.builds(lambda cut: f"Bearer {TOKEN[:cut]}", st.integers(0, len(TOKEN) - 1)),
    )
)
def test_only_the_bearer_token_opens_the_metrics(scrape_client, header):
    client = scrape_client(TOKEN)
    scheme, _, credentials = header.partition(" ")
    expected = 200 if scheme.lower() == "bearer" and credentials == TOKEN else 401
    answer = client.get("/metrics", headers={"Authorization": header.encode("latin-1")})
    assert answer.status_code == expected
    if expected == 401:
        assert answer.headers["www-authenticate"].startswith("Bearer")
        assert "site_" not in answer.text


def test_the_scrape_is_the_exposition_format_with_the_outbox_figures(scrape_client, service):
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage, utcnow

    client = scrape_client(TOKEN)
    for index, (status, age_minutes) in enumerate((("pending", 42), ("sending", 3), ("failed", 60), ("sent", 90))):
        with new_session() as session, session.begin():
            session.add(
                OutboxMessage(
                    message_id=f"<m{index}@example.test>",
                    mail_from="a@example.test",
                    mail_to="b@example.test",
                    reply_to="c@example.test",
                    subject="s",
                    body="b",
                    status=status,
                    failed_at=utcnow() if status == "failed" else None,
                    created_at=utcnow() - timedelta(minutes=age_minutes),
                )
            )
    answer = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert answer.headers["cache-control"] == "no-store"
    text = answer.text
    assert value(text, "site_database_up") == 1
    assert value(text, "site_outbox_messages", status="pending") == 2  # one waiting, one being sent
    assert value(text, "site_outbox_messages", status="failed") == 1
    assert value(text, "site_outbox_messages", status="sent") == 1
    assert value(text, "site_outbox_failed_recently") == 1
    assert 42 * 60 <= value(text, "site_outbox_oldest_pending_seconds") < 43 * 60
    # Every counter of the site is there from the start (at 0 when nothing happened).
    for family in ("site_leads_refused", "site_outbox_send_attempts", "site_oidc_logins", "site_rate_limit_refusals"):
        assert f"# TYPE {family}_total counter" in text


def test_the_outbox_figures_are_read_at_most_once_per_cache_period(service, monkeypatch):
    from marketing_site.api.metrics import OutboxCollector
    from marketing_site.services import health

    reads = []
    real = health.check_database
    monkeypatch.setattr(health, "check_database", lambda: reads.append(1) or real())
    cached = OutboxCollector(cache_seconds=3600)
    for _ in range(5):
        list(cached.collect())
    assert len(reads) == 1
    fresh = OutboxCollector(cache_seconds=0)
    for _ in range(3):
        list(fresh.collect())
    assert len(reads) == 4


def test_an_unreadable_database_is_a_figure_not_a_failed_scrape(monkeypatch, tmp_path):
    from marketing_site import db
    from marketing_site.api.metrics import OutboxCollector
    from marketing_site.settings import get_settings

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'missing' / 'nowhere.db'}")
    get_settings.cache_clear()
    db.engine_for.cache_clear()
    try:
        families = {family.name: family for family in OutboxCollector(cache_seconds=0).collect()}
    finally:
        get_settings.cache_clear()
        db.engine_for.cache_clear()
    assert families["site_database_up"].samples[0].value == 0
    assert "site_outbox_messages" not in families


# ----------------------------------------------------------------------------- events where they happen


def test_leads_are_counted_as_accepted_duplicate_or_refused_by_reason(service):
    before = exposition()
    assert service.submit_lead(lead_payload(), "10.0.0.1").status == "accepted"
    assert service.submit_lead(lead_payload(), "10.0.0.1").duplicate
    assert service.submit_lead(lead_payload(email="not an address"), "10.0.0.1").status == "invalid"
    # RATE_LIMIT_PER_EMAIL=3 in the fixture: the first lead counted one.
    statuses = [service.submit_lead(lead_payload(firstname=f"Ada{n}"), f"10.0.1.{n}").status for n in range(3)]
    assert statuses == ["accepted", "accepted", "rate_limited"]
    # RATE_LIMIT_PER_IP=5.
    statuses = [service.submit_lead(lead_payload(email="nope"), "10.0.2.1").status for _ in range(7)]
    assert statuses == ["invalid"] * 5 + ["rate_limited"] * 2
    after = exposition()

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("site_leads_accepted_total") == 3
    assert moved("site_leads_duplicate_total") == 1
    assert moved("site_leads_refused_total", reason="invalid") == 6
    assert moved("site_leads_refused_total", reason="rate_limited_email") == 1
    assert moved("site_leads_refused_total", reason="rate_limited_ip") == 2
    assert moved("site_rate_limit_refusals_total", limit="lead_per_ip") == 2
    assert moved("site_rate_limit_refusals_total", limit="lead_per_email") == 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    fields=st.fixed_dictionaries({field: st.sampled_from(values) for field, values in ACCEPTED.items()}),
    address=st.ip_addresses(v=4).map(str),
)
def test_no_label_carries_what_a_visitor_sent(service, fields, address):
    """Whatever a lead says, the exposition holds none of it: labels come from fixed sets."""
    result = service.submit_lead(lead_payload(**fields), address)
    assert result.status in ("accepted", "rate_limited")
    text = exposition()
    label_values = {v for (_, labels) in samples(text) for _, v in labels}
    for field, sent in fields.items():
        if len(sent.strip()) > 3:
            assert sent not in label_values, field
    assert address not in text


# ----------------------------------------------------------------------------- dashboard and rules

DASHBOARD = ROOT / "deploy" / "grafana" / "site-dashboard.json"
RULES = ROOT / "deploy" / "prometheus" / "site-alerts.yml"
PROMQL_WORDS = {
    "sum", "rate", "irate", "increase", "by", "without", "histogram_quantile", "max", "min", "avg", "count",
    "topk", "bottomk", "clamp_min", "clamp_max", "max_over_time", "min_over_time", "avg_over_time", "absent",
    "and", "or", "unless", "on", "ignoring", "group_left", "group_right", "offset", "bool", "time", "vector",
    "scalar", "delta", "deriv", "resets", "le", "inf", "nan", "m", "s", "h", "d",
}  # fmt: skip


def exported_metric_names() -> set[str]:
    """Every sample name /metrics can carry, plus Prometheus' own `up`."""
    from marketing_site.api.metrics import OutboxCollector

    names = {sample.name for family in metrics.REGISTRY.collect() for sample in family.samples}
    names |= {family.name for family in metrics.REGISTRY.collect()}
    names |= {family.name for family in OutboxCollector(cache_seconds=3600).collect()}
    names |= {"site_outbox_messages", "site_outbox_failed_recently", "site_outbox_oldest_pending_seconds"}
    return {name for name in names if name.startswith("site_")} | {"up"}


def metric_names_in(expression: str) -> set[str]:
    """The metric names a PromQL expression reads (label names, values and functions left out)."""
    without_strings = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expression)
    without_matchers = re.sub(r"\{[^}]*\}", "", without_strings)
    without_ranges = re.sub(r"\[[^\]]*\]", "", without_matchers)
    without_groupings = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", without_ranges)
    words = set(re.findall(r"(?<![\w.])([a-zA-Z_:][\w:]*)(?![\w(])", without_groupings))
    return {word for word in words if word not in PROMQL_WORDS and not re.fullmatch(r"\d+[smhd]?", word)}


def dashboard_expressions() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]


def test_every_dashboard_expression_reads_metrics_the_site_exports():
    exported = exported_metric_names()
    expressions = dashboard_expressions()
    assert len(expressions) >= 15
    read = set()
    for expression in expressions:
        names = metric_names_in(expression)
        assert names, expression
        assert names <= exported, (expression, names - exported)
        read |= names
    # The dashboard shows every family the issue asks for.
    for family in (
        "site_http_requests_total",
        "site_http_request_duration_seconds_bucket",
        "site_websocket_connections",
        "site_hydrations_total",
        "site_event_handler_failures_total",
        "site_leads_accepted_total",
        "site_leads_refused_total",
        "site_bookings_total",
        "site_booking_cancellations_total",
        "site_outbox_messages",
        "site_outbox_oldest_pending_seconds",
        "site_outbox_send_attempts_total",
        "site_audience_beacons_total",
        "site_rate_limit_refusals_total",
        "site_oidc_logins_total",
        "site_oidc_refreshes_total",
        "site_db_pool_connections_in_use",
    ):
        assert family in read, family


def test_the_expression_reader_finds_metric_names_only():
    assert metric_names_in(
        'sum by (route) (rate(site_http_requests_total{status=~"5..", route!="x"}[5m])) / ignoring(a) up'
    ) == {"site_http_requests_total", "up"}
    assert metric_names_in("histogram_quantile(0.95, sum by (le) (rate(x_bucket[5m])))") == {"x_bucket"}


def test_every_alert_reads_exported_metrics_and_has_a_runbook_line_in_the_docs():
    import yaml

    groups = yaml.safe_load(RULES.read_text())["groups"]
    alerts = [rule for group in groups for rule in group["rules"] if "alert" in rule]
    operations = (ROOT / "docs" / "operations.md").read_text()
    exported = exported_metric_names()
    assert {a["alert"] for a in alerts} >= {
        "SiteDown",
        "MailStalled",
        "MailFailing",
        "ServerErrors",
        "EventHandlerFailures",
        "LeadRefusalsSpike",
        "LoginFailuresAtProvider",
    }
    for alert in alerts:
        assert metric_names_in(alert["expr"]) <= exported, alert["alert"]
        runbook = alert["annotations"]["runbook"]
        assert runbook.strip() and "\n" not in runbook.strip(), alert["alert"]
        assert f"`{alert['alert']}`" in operations, f"docs/operations.md does not explain {alert['alert']}"


def _promtool() -> str:
    found = shutil.which("promtool")
    if not found:
        pytest.fail("promtool is missing: `make prometheus` installs Debian's package")
    return found


def test_promtool_checks_the_rules():
    checked = subprocess.run([_promtool(), "check", "rules", str(RULES)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "SUCCESS" in checked.stdout


def test_promtool_unit_tests_show_each_alert_firing_and_quiet():
    tests = ROOT / "deploy" / "prometheus" / "site-alerts.test.yml"
    ran = subprocess.run(
        [_promtool(), "test", "rules", str(tests)], capture_output=True, text=True, cwd=tests.parent, check=False
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "SUCCESS" in ran.stdout
    import yaml

    tested = {
        alert["alertname"]
        for case in yaml.safe_load(tests.read_text())["tests"]
        for alert in case.get("alert_rule_test", [])
        if alert["exp_alerts"]
    }
    rules = yaml.safe_load(RULES.read_text())["groups"]
    every = {rule["alert"] for group in rules for rule in group["rules"] if "alert" in rule}
    # Each alert has a case where it fires.
    assert every <= tested, every - tested
