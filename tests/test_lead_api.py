"""POST /api/v1/mail/send over HTTP against the production site (real SQLite, real SMTP)."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from servers import SiteServer, free_port
from test_leads import EBOOK_SUBJECT, lead_payload

API = "/api/v1/mail/send"


def _lead_count(site_server) -> int:
    return site_server.query("SELECT COUNT(*) FROM lead")[0][0]


def test_valid_request_is_accepted_stored_and_mailed(site_server, smtp):
    email = f"api-ok-{time.time_ns()}@example.com"
    response = httpx.post(site_server.url + API, json=lead_payload(email=email))
    assert response.status_code == 200
    assert site_server.query("SELECT form FROM lead WHERE email = ?", email) == [("ebook",)]
    assert len(smtp.wait_for(1, subject=EBOOK_SUBJECT, reply_to=email)) == 1


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        ({"name": ""}, {}, 422),
        ({"email": "nope"}, {}, 422),
        ({"company": "x" * 201}, {}, 422),
        ({"name": "A\r\nB"}, {}, 422),
        ({"website": "filled"}, {}, 422),
        ({"subject": "Something else"}, {}, 422),
        ("name=Dupont", {"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ("{not json", {"Content-Type": "application/json"}, 422),
        ("[1, 2]", {"Content-Type": "application/json"}, 422),
        ("x" * (2 * 1024 * 1024), {"Content-Type": "application/json"}, 413),
    ],
)
def test_bad_input_gets_its_4xx_and_changes_nothing(site_server, smtp, body, headers, status):
    before_leads, before_mails = _lead_count(site_server), len(smtp.received())
    if isinstance(body, dict):
        content = json.dumps(lead_payload(**{"email": f"bad-{time.time_ns()}@example.com", **body}))
        headers = {"Content-Type": "application/json"}
    else:
        content = body
    response = httpx.post(site_server.url + API, content=content, headers=headers)
    assert response.status_code == status
    if status == 422 and isinstance(body, dict):
        assert set(response.json()["errors"]) & (set(body) | {"subject"})
    time.sleep(0.6)
    assert _lead_count(site_server) == before_leads
    assert len(smtp.received()) == before_mails


def test_openapi_schema_describes_the_endpoint(site):
    schema = httpx.get(site + "/api/v1/openapi.json").json()
    operation = schema["paths"][API]["post"]
    assert set(operation["responses"]) == {"200", "413", "415", "422", "429"}
    assert EBOOK_SUBJECT in schema["components"]["schemas"]["Lead"]["properties"]["subject"]["enum"]


@pytest.fixture(scope="module")
def burst_site(workdir):
    server = SiteServer(free_port(), workdir, RATE_LIMIT_PER_IP="5", RATE_LIMIT_WINDOW_SECONDS="60")
    server.migrate()
    server.start()
    yield server
    server.stop()


def test_a_burst_from_one_client_is_throttled_and_the_site_keeps_answering(burst_site):
    url = burst_site.url + API

    def send(i):
        return httpx.post(url, json=lead_payload(email=f"burst{i}@example.com"), timeout=30)

    with ThreadPoolExecutor(16) as pool:
        responses = list(pool.map(send, range(1000)))
    statuses = [r.status_code for r in responses]
    assert statuses.count(200) == 5
    assert statuses.count(429) == 995
    assert all(int(r.headers["Retry-After"]) >= 1 for r in responses if r.status_code == 429)
    assert burst_site.query("SELECT COUNT(*) FROM lead") == [(5,)]
    for path in ("/", "/en/pricing", "/ping"):
        assert httpx.get(burst_site.url + path).status_code == 200
