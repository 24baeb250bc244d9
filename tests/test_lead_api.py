"""POST /api/v1/mail/send over HTTP against the production site (real SQLite, real SMTP)."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import httpx2
import pytest
from lead_corpus import ACCEPTED, BASE, REFUSED, variants
from lead_payloads import EBOOK_SUBJECT, lead_payload
from servers import SiteServer, free_port

from marketing_site.content.downloads import document_for
from marketing_site.content.lead_forms import DOWNLOAD_FORMS
from marketing_site.content.words import words

API = "/api/v1/mail/send"


def _lead_count(site_server) -> int:
    return site_server.query("SELECT COUNT(*) FROM lead")[0][0]


def test_valid_request_is_accepted_stored_and_mailed(site_server, smtp):
    email = f"api-ok-{time.time_ns()}@example.com"
    response = httpx2.post(site_server.url + API, json=lead_payload(email=email))
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
        ({"email": "ada@intranet"}, {}, 422),
        ({"subject": "Something else"}, {}, 422),
        ("name=Dupont", {"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ("{not json", {"Content-Type": "application/json"}, 422),
        ("[1, 2]", {"Content-Type": "application/json"}, 422),
        # Nested past the JSON parser's stack (a RecursionError, once a 500), within the size limit.
        ("[" * 5000, {"Content-Type": "application/json"}, 422),
        ('{"name":' + "[" * 5000 + "]" * 5000 + "}", {"Content-Type": "application/json"}, 422),
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
    response = httpx2.post(site_server.url + API, content=content, headers=headers)
    assert response.status_code == status
    if status == 422 and isinstance(body, dict):
        assert set(response.json()["errors"]) & (set(body) | {"subject"})
    time.sleep(0.6)
    assert _lead_count(site_server) == before_leads
    assert len(smtp.received()) == before_mails


def test_openapi_schema_describes_the_endpoint(site):
    schema = httpx2.get(site + "/api/v1/openapi.json").json()
    operation = schema["paths"][API]["post"]
    assert set(operation["responses"]) == {"200", "413", "415", "422", "429", "503"}
    assert EBOOK_SUBJECT in schema["components"]["schemas"]["Lead"]["properties"]["subject"]["enum"]


def test_every_plausible_variant_is_accepted_over_http(site_server, smtp):
    """The corpus through the real API: every plausible value accepted, stored and mailed."""
    client = httpx2.Client(base_url=site_server.url, timeout=30)
    run = time.time_ns()
    for index, (field, value) in enumerate(variants(ACCEPTED)):
        email = value if field == "email" else f"corpus-{run}-{index}@example.com"
        payload = lead_payload(**{**BASE, "email": email, field: value})
        response = client.post(API, json=payload)
        assert response.status_code == 200, (field, value, response.text)
    stored = site_server.query("SELECT COUNT(*) FROM lead WHERE email LIKE ?", f"corpus-{run}-%")[0][0]
    assert stored == len(variants(ACCEPTED)) - len(ACCEPTED["email"])


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_refused_variants_get_a_422_with_the_field_message_in_the_page_language(site_server, lang):
    messages = words(lang, "lead_forms.field_errors")
    for field, value in variants(REFUSED):
        payload = lead_payload(**{**BASE, "email": f"refused-{time.time_ns()}@example.com", field: value}, lang=lang)
        response = httpx2.post(site_server.url + API, json=payload)
        assert response.status_code == 422, (field, value)
        errors = response.json()["errors"]
        assert set(errors) == {field} and errors[field] in messages.values(), (field, value, errors)


def test_a_filled_trap_or_a_fast_form_is_accepted_and_flagged(site_server, smtp):
    email = f"flagged-{time.time_ns()}@example.com"
    response = httpx2.post(site_server.url + API, json=lead_payload(email=email, website="filled", elapsedMs=120))
    assert response.status_code == 200
    assert site_server.query("SELECT flags FROM lead WHERE email = ?", email) == [("fast,honeypot",)]
    [mail] = smtp.wait_for(1, subject=EBOOK_SUBJECT, reply_to=email)
    assert "À vérifier : champ piège rempli" in mail.get_payload(decode=True).decode()


@pytest.mark.parametrize(
    ("elapsed", "flags"),
    [("NaN", "fast"), ("Infinity", "fast"), ("-Infinity", "fast"), ("null", "fast"), (None, "fast"), ("9000", "")],
)
def test_a_lead_without_a_valid_fill_time_is_flagged_like_a_fast_one(site_server, elapsed, flags):
    """Omitting `elapsedMs`, or sending NaN (which Python's JSON parser reads), skips no check."""
    email = f"fill-time-{time.time_ns()}@example.com"
    payload = lead_payload(email=email)
    del payload["elapsedMs"]
    body = json.dumps(payload)
    if elapsed is not None:
        body = body[:-1] + f', "elapsedMs": {elapsed}}}'
    response = httpx2.post(site_server.url + API, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 200
    assert site_server.query("SELECT flags FROM lead WHERE email = ?", email) == [(flags,)]


BIDI_CONTROLS = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_bidi_controls_in_names_and_companies_get_the_field_message(site_server, lang):
    """U+202A-202E and U+2066-2069 would show a name reversed or shuffled in the mail and the console."""
    message = words(lang, "lead_forms.field_errors")["text"]
    before = _lead_count(site_server)
    for i, control in enumerate(BIDI_CONTROLS):
        field = ("name", "firstname", "company")[i % 3]
        value = f"Evil{control}Corp"
        payload = lead_payload(email=f"bidi-{time.time_ns()}@example.com", lang=lang, **{field: value})
        response = httpx2.post(site_server.url + API, json=payload)
        assert response.status_code == 422, (field, hex(ord(control)))
        assert response.json()["errors"] == {field: message}
    assert _lead_count(site_server) == before
    # The booking form applies the same rules, with the same message.
    response = httpx2.post(site_server.url + "/api/v1/booking", json={"company": "Banque\u202eAlpha", "lang": lang})
    assert response.status_code == 422 and response.json()["errors"]["company"] == message


def test_someone_elses_idempotency_key_never_returns_nor_swallows_their_lead(site_server):
    """The key is scoped to the client and the payload: the same key from another visitor, or with
    other details, is a lead of its own; the same request again from the same visitor is not."""
    key = {"Idempotency-Key": f"key-{time.time_ns()}"}
    alice = lead_payload(email=f"alice-{time.time_ns()}@example.com", firstname="Alice")
    mallory = lead_payload(email=f"mallory-{time.time_ns()}@example.com", firstname="Mallory")
    with _from("127.0.0.21") as first, _from("127.0.0.22") as second:
        assert first.post(site_server.url + API, json=alice, headers=key).status_code == 200
        assert first.post(site_server.url + API, json=alice, headers=key).status_code == 200  # a retry
        assert second.post(site_server.url + API, json=mallory, headers=key).status_code == 200
        assert second.post(site_server.url + API, json=alice, headers=key).status_code == 200
    count = "SELECT COUNT(*) FROM lead WHERE email = ?"
    assert site_server.query(count, alice["email"]) == [(2,)]  # Alice's retry was one lead; Mallory's copy another
    assert site_server.query(count, mallory["email"]) == [(1,)]


@pytest.fixture(scope="module")
def default_limits_site(workdir):
    """A site with the production rate limits (the session's site lifts the per-IP one)."""
    server = SiteServer(
        free_port(), workdir, RATE_LIMIT_PER_IP="", RATE_LIMIT_PER_EMAIL="", RATE_LIMIT_WINDOW_SECONDS=""
    )
    server.migrate()
    server.start()
    yield server
    server.stop()


def _from(address: str) -> httpx2.Client:
    """A client whose requests come from `address` (any 127.x.y.z reaches loopback on Linux):
    each test is its own office, with its own per-address budget."""
    return httpx2.Client(transport=httpx2.HTTPTransport(local_address=address), timeout=30)


def test_thirty_colleagues_behind_one_address_are_all_accepted(default_limits_site):
    with _from("127.0.0.2") as office:
        statuses = [
            office.post(
                default_limits_site.url + API, json=lead_payload(email=f"colleague{i}@bank.example.com")
            ).status_code
            for i in range(30)
        ]
    assert statuses == [200] * 30
    rows = default_limits_site.query("SELECT COUNT(*) FROM lead WHERE email LIKE 'colleague%@bank.example.com'")
    assert rows == [(30,)]


def test_one_person_may_download_all_five_documents_in_both_languages(default_limits_site, smtp):
    email = f"all-five-{time.time_ns()}@example.com"
    with _from("127.0.0.3") as office:
        for lang in ("fr", "en"):
            statuses = [
                office.post(
                    default_limits_site.url + API,
                    json=lead_payload(form, email=email, lang=lang),
                ).status_code
                for form in DOWNLOAD_FORMS
            ]
            assert statuses == [200] * 5, lang
    assert default_limits_site.query("SELECT COUNT(*) FROM lead WHERE email = ?", email) == [(10,)]


def test_a_burst_from_one_address_is_throttled_and_the_site_keeps_answering(default_limits_site):
    url = default_limits_site.url + API
    with _from("127.0.0.4") as attacker:

        def send(i):
            return attacker.post(url, json=lead_payload(email=f"burst{i}@example.com"))

        with ThreadPoolExecutor(16) as pool:
            responses = list(pool.map(send, range(1000)))
    statuses = [r.status_code for r in responses]
    assert statuses.count(200) == 100  # RATE_LIMIT_PER_IP's default, per 10 minutes
    assert statuses.count(429) == 900
    assert all(int(r.headers["Retry-After"]) >= 1 for r in responses if r.status_code == 429)
    assert default_limits_site.query("SELECT COUNT(*) FROM lead WHERE email LIKE 'burst%'") == [(100,)]
    for path in ("/", "/en/pricing", "/api/v1/health/live"):
        assert httpx2.get(default_limits_site.url + path).status_code == 200
    # Another office is not affected.
    with _from("127.0.0.5") as other:
        assert other.post(url, json=lead_payload(email="other-office@example.com")).status_code == 200


def test_english_documents_are_served_under_english_names(site):
    for key in DOWNLOAD_FORMS:
        document = document_for(DOWNLOAD_FORMS[key]["document"], "en")
        response = httpx2.get(site + "/files/" + document["file"])
        assert response.status_code == 200 and response.content.startswith(b"%PDF-")
        assert f'filename="{document["display_name"]}"' in response.headers["content-disposition"]
