"""Health: the public answer is a status alone; the figures stay with operators; "degraded" means
mail failed recently or Redis is out (lead capture still works: the machine stays in); a draining
machine is not ready; a liveness path that needs no database; Reflex's own probes and the
application server's name are not shown to visitors."""

from __future__ import annotations

import json
import re
import socket
from datetime import datetime, timedelta

import httpx2
from lead_payloads import lead_payload
from servers import ROOT, SiteServer, SmtpSink, free_port, run_in_own_loop

HEALTH = "/api/v1/health"
LIVE = "/api/v1/health/live"


def test_the_public_health_answer_is_the_status_alone(site):
    response = httpx2.get(site + HEALTH)
    assert response.status_code == 200
    assert response.json() in ({"status": "ok"}, {"status": "degraded"})
    assert not re.search(r"\d", response.text)  # no count, no age
    assert response.headers["cache-control"] == "no-store"
    assert httpx2.head(site + HEALTH).status_code == 200


def test_reflex_probes_are_not_public(site):
    """Reflex's `/ping` and `/_health` (database and Redis booleans) answer the not-found page."""
    for path in ("/ping", "/_health"):
        response = httpx2.get(site + path)
        assert response.status_code == 404, path
        assert "pong" not in response.text and '"db"' not in response.text
        assert httpx2.post(site + path).status_code in (404, 405), path


def test_no_response_names_the_application_server(site):
    with httpx2.Client(base_url=site) as client:
        home = client.get("/")
        script = re.search(r'import "(/assets/[^"]+\.js)"', home.text).group(1)
        responses = [
            home,
            client.get(script),
            client.get("/favicon.svg"),
            client.get("/nope"),
            client.get("/compare/"),
            client.get(HEALTH),
            client.get(LIVE),
            client.post("/api/v1/mail/send", json={}),
            client.post("/auth/logout", headers={"Sec-Fetch-Site": "cross-site"}),
        ]
    for response in responses:
        assert "granian" not in str(response.headers).lower(), response.url
        assert response.headers.get("server") == "nereo", response.url


def test_liveness_needs_no_database_while_readiness_says_down(workdir):
    """An orchestrator restarts a stuck process (liveness), not one whose database is down;
    a load balancer takes that one out (readiness: 503)."""
    server = SiteServer(
        free_port(), workdir, DATABASE_URL="postgresql+psycopg://nobody@127.0.0.1:1/nowhere", OUTBOX_POLL_SECONDS="60"
    )
    server.start()
    try:
        live = httpx2.get(server.url + LIVE)
        assert (live.status_code, live.json()) == (200, {"status": "alive"})
        ready = httpx2.get(server.url + HEALTH)
        assert (ready.status_code, ready.json()) == (503, {"status": "down"})
    finally:
        server.stop()


def test_a_draining_machine_is_not_ready_yet_alive(site, monkeypatch, capsys):
    """`ops drain` takes the machine out of a load balancer that checks readiness (503 draining)
    while liveness says it is fine (a supervisor must not restart it); `ops undrain` ends it.
    The session's site reads the default DRAIN_FILE, var/draining of the project."""
    from marketing_site import ops, settings

    monkeypatch.setenv("DRAIN_FILE", str(ROOT / "var" / "draining"))
    settings.get_settings.cache_clear()
    try:
        assert ops.main(["drain"]) == 0
        assert "draining" in capsys.readouterr().out
        ready = httpx2.get(site + HEALTH)
        assert (ready.status_code, ready.json()) == (503, {"status": "draining"})
        assert httpx2.get(site + LIVE).status_code == 200
    finally:
        ops.main(["undrain"])
        settings.get_settings.cache_clear()
    ready = httpx2.get(site + HEALTH)
    assert ready.status_code == 200 and ready.json()["status"] in ("ok", "degraded")


def test_redis_out_is_degraded_not_down(service, monkeypatch):
    """Redis unreachable leaves lead capture working (rate limits counted in the process), on every
    machine alike: a load balancer that took out every machine for it would make it an outage."""
    from marketing_site import settings
    from marketing_site.services.health import health_report

    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        monkeypatch.setenv("REFLEX_REDIS_URL", f"redis://127.0.0.1:{closed.getsockname()[1]}/0")
        settings.get_settings.cache_clear()
        report = health_report()
    assert (report["status"], report["redis"], report["database"]) == ("degraded", "error", "ok")
    assert service.submit_lead(lead_payload(email="no-redis@example.com"), "10.4.0.3").status == "accepted"
    settings.get_settings.cache_clear()


# ----------------------------------------------------------------------------- operators' figures


def test_degraded_means_mail_failed_in_the_last_hours_not_ever(service, monkeypatch):
    from marketing_site import settings
    from marketing_site.db.leads import utcnow
    from marketing_site.services import mail
    from marketing_site.services.health import RECENT_FAILURE_HOURS, health_report

    sink = SmtpSink().start()
    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("SMTP_PORT", str(sink.port))
    monkeypatch.setenv("SMTP_STARTTLS", "false")
    monkeypatch.setenv("OUTBOX_MAX_ATTEMPTS", "1")
    settings.get_settings.cache_clear()
    try:
        service.submit_lead(lead_payload(email="sent@example.com"), "10.4.0.1")
        run_in_own_loop(mail.process_due())
        assert health_report()["status"] == "ok"
        # A permanent refusal, then a temporary one on the last attempt: both failed for good.
        sink.reply = "550 5.1.1 Mailbox unavailable"
        service.submit_lead(lead_payload(email="refused@example.com"), "10.4.0.1")
        run_in_own_loop(mail.process_due())
        sink.reply = "451 4.3.0 Try again later"
        service.submit_lead(lead_payload(email="late@example.com"), "10.4.0.1")
        run_in_own_loop(mail.process_due())
    finally:
        sink.stop()
    now = utcnow()
    report = health_report(now)
    assert report["status"] == "degraded"
    last_failure = report["outbox"]["last_failure_at"]
    assert now - timedelta(minutes=5) < datetime.fromisoformat(last_failure) <= now
    assert report["outbox"] | {"oldest_pending_seconds": 0} == {
        "pending": 0,
        "stuck": 0,
        "retrying": 0,
        "failed": 2,
        "failed_recently": 2,
        "sent": 1,
        "oldest_pending_seconds": 0,
        "last_failure_at": last_failure,
        "status": "failing",
    }
    # Hours later, with nothing new failing, the site is healthy again; the figures stay.
    later = health_report(now + timedelta(hours=RECENT_FAILURE_HOURS, minutes=1))
    assert later["status"] == "ok" and later["outbox"]["failed"] == 2 and later["outbox"]["failed_recently"] == 0


def test_operators_get_the_figures_from_the_command_and_the_console(service, capsys):
    from marketing_site import ops
    from marketing_site.services.console import mail_overview

    service.submit_lead(lead_payload(email="figures@example.com"), "10.4.0.2")
    assert ops.main(["health"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "ok" and report["outbox"]["pending"] == 1 and report["database"] == "ok"
    overview, _failed = mail_overview()
    assert overview["outbox"]["pending"] == 1
