"""Issue 39, finding 1: everything `json.loads` accepts, in every field of every JSON door, is
refused with a clear 422 or cleaned at intake, and never reaches a buffer, the database, the
mail, the console or the export.

One beacon whose utm_source held a lone surrogate (`"a\\ud800b"`, valid JSON) stopped a worker's
page views until it restarted; the same surrogate in a lead's or a booking's attribution answered
500, and the booking spent the budget without booking. Hypothesis' `st.text()` leaves surrogates
out (category Cs): these properties draw from every code point JSON can carry, lone surrogates,
NUL, noncharacters, C0 and C1 controls, bidirectional controls and line separators included,
write them with JSON's `\\uXXXX` escapes (`json.dumps`), and follow them from the HTTP route
through the database (real SQLite) to the mail (a real SMTP server), the console's rows and the
CSV export. In-process: the API app with a test client.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import logging
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from lead_payloads import UNBOUNDED_INTAKE, booking_payload, lead_payload, stored_rows
from servers import SmtpSink
from starlette.testclient import TestClient

from marketing_site.services.contact_patterns import is_text
from marketing_site.services.leads import fields_of

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
# What a visitor's text may not bring anywhere: controls (C0 but the line breaks a free text may
# hold, DEL, C1), the bidirectional embeddings, overrides and isolates, the line separators.
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069]")
HOSTILE = (
    "\ud800\udbff\udc00\udfff"  # lone surrogates, high and low
    "\x00\x01\x08\x0b\x1b\x7f\x85\x9b\x9f"  # C0, DEL, C1 (NEL, CSI)
    "\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029"  # bidi controls and marks, separators
    "\ufdd0\ufdef\ufffe\uffff\U0001fffe\U0010ffff"  # noncharacters
    "\t\n\r \u00a0\ufeff"
)
# Every code point, lone surrogates included (exclude_categories=(): st.characters leaves Cs out
# otherwise), and plain text with the hostile ones dropped in.
any_character = st.characters(exclude_categories=())
json_strings = st.one_of(
    st.text(alphabet=any_character, max_size=24),
    st.builds(
        lambda before, hostile, after: before + hostile + after,
        st.text(max_size=12),
        st.text(alphabet=HOSTILE, min_size=1, max_size=3),
        st.text(max_size=12),
    ),
)
# A lone surrogate written as JSON writes it: `json.dumps` escapes it as \ud800.
assert json.loads(json.dumps("a\ud800b")) == "a\ud800b"

_number = itertools.count()


def _run(coro):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def _clean(text: object, breaks: bool = False) -> bool:
    """Text that went through intake: text at all, no forbidden character, and no line break
    unless the place holds several lines (a mail's body, a CSV file)."""
    if not isinstance(text, str):
        return True
    rest = text.replace("\r", "").replace("\n", "") if breaks else text
    return is_text(text) and not FORBIDDEN.search(rest) and (breaks or not re.search("[\r\n]", text))


def _poisoned(payload: dict, where: str, value: str) -> dict:
    """The payload with `value` at `where`: a field (`name`), a field of an object
    (`attribution.utm_source`), a key of its own (`<key>`), or inside a list (`extra[]`)."""
    payload = json.loads(json.dumps(payload))
    if where == "<key>":
        payload[value] = "x"
    elif where.endswith("[]"):
        payload[where[:-2]] = [value]
    elif "." in where:
        outer, inner = where.split(".")
        payload.setdefault(outer, {})[inner] = value
    else:
        payload[where] = value
    return payload


@pytest.fixture
def pipeline(service, monkeypatch):
    """The API app over a fresh SQLite database, mailing through a real SMTP server, writing
    page views at once; each booking budget is one."""
    from marketing_site import settings as site_settings
    from marketing_site.api import api_app
    from marketing_site.services import audience, booking

    sink = SmtpSink().start()
    for name, value in {
        **UNBOUNDED_INTAKE,
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(sink.port),
        "SMTP_STARTTLS": "false",
        "AUDIENCE_FLUSH_SECONDS": "0",
        "AUDIENCE_RATE_LIMIT_PER_MINUTE": "1000000",
        "AUDIENCE_COMBINATIONS_PER_ADDRESS": "1000000",
        "BOOKING_BUDGET_PER_EMAIL": "1",
        "BOOKING_BUDGET_PER_IP": "1",
    }.items():
        monkeypatch.setenv(name, value)
    site_settings.get_settings.cache_clear()
    for cached in (service._limiters, booking._limiter, audience._limiter, audience._quotas):
        cached.cache_clear()
    booking._busy_feed.clear()
    try:
        yield SimpleNamespace(app=api_app(), sink=sink, slots=iter(booking.available_slots()))
    finally:
        sink.stop()
        for cached in (booking._limiter, audience._limiter, audience._quotas):
            cached.cache_clear()


def _client(app, number: int) -> TestClient:
    """A visitor of its own address (every example its own budgets and limits)."""
    return TestClient(app, client=(f"10.{number // 62500 % 250}.{number // 250 % 250}.{number % 250}", 50000))


def _post_json(client: TestClient, path: str, payload: dict, **headers: str):
    # json.dumps writes every character JSON cannot carry raw as its \uXXXX escape.
    return client.post(path, content=json.dumps(payload), headers={"Content-Type": "application/json", **headers})


# Where a visit came from, and what no door reads: the fields every JSON door may be sent.
ATTRIBUTION_AND_UNKNOWN = [
    "attribution.landing_page",
    "attribution.referrer",
    "attribution.utm_source",
    "note",
    "<key>",
]
# The fields each form asks (services.leads.FormFields), from their declaration.
LEAD_FIELDS = [
    *fields_of("ebook"),
    *ATTRIBUTION_AND_UNKNOWN,
    *("text", "subject", "lang", "website", "attribution.utm_campaign", "attribution.utm_term", "extra[]"),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(LEAD_FIELDS), value=json_strings)
def test_a_lead_carrying_any_json_text_is_refused_or_goes_clean_through_mail_console_and_export(pipeline, where, value):
    from marketing_site.db.leads import Lead
    from marketing_site.services import console, mail
    from marketing_site.services.lead_export import write_leads_csv

    number = next(_number)
    base = lead_payload(email=f"stranger{number}@example.com", company=f"Banque {number}")
    before = {lead.id for lead in stored_rows(Lead)}
    answer = _post_json(_client(pipeline.app, number), "/api/v1/mail/send", _poisoned(base, where, value))
    assert answer.status_code in (200, 422), answer.text
    event(f"{where}: {answer.status_code}")
    new = [lead for lead in stored_rows(Lead) if lead.id not in before]
    if answer.status_code == 422:
        assert answer.json()["errors"] and new == []
        return
    [lead] = new
    for column, stored in lead.model_dump().items():
        assert _clean(stored), (column, stored)
    assert all(_clean(cell) for cell in console._row(lead, None).values())
    export = io.StringIO()
    write_leads_csv(export, [lead])
    assert _clean(export.getvalue().removeprefix("\ufeff"), breaks=True)
    received = len(pipeline.sink.received())
    assert _run(mail.process_due()) == 1
    [sent] = pipeline.sink.received()[received:]
    assert _clean(sent.get_payload(decode=True).decode(), breaks=True)
    assert all(_clean(str(header)) for header in sent.values())


BOOKING_FIELDS = [*fields_of("demo"), *ATTRIBUTION_AND_UNKNOWN, "slot", "timezone", "lang"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(BOOKING_FIELDS), value=json_strings)
def test_a_booking_carrying_any_json_text_is_refused_without_spending_the_budget_or_stored_clean(
    pipeline, where, value
):
    """Each example: a visitor with a budget of one booking (per email and per address). A
    refused attempt leaves it whole: the same visitor's clean booking goes through after it."""
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead
    from marketing_site.services import booking

    number = next(_number)
    clean = booking_payload(
        booking.slot_id(next(pipeline.slots)),
        email=f"booker{number}@example.com",
        company=f"Banque {number}",
        attribution={"utm_source": "newsletter"},
    )
    client = _client(pipeline.app, number)
    before = {row.id for row in stored_rows(Booking)}
    answer = _post_json(client, "/api/v1/booking", _poisoned(clean, where, value))
    assert answer.status_code in (201, 409, 422), answer.text
    if answer.status_code == 201:
        [made] = [row for row in stored_rows(Booking) if row.id not in before]
        [lead] = [row for row in stored_rows(Lead) if row.id == made.lead_id]
        for row in (made, lead):
            assert all(_clean(stored) for stored in row.model_dump().values()), row
        return
    assert {row.id for row in stored_rows(Booking)} == before
    again = _post_json(client, "/api/v1/booking", {**clean, "slot": booking.slot_id(next(pipeline.slots))})
    assert again.status_code == 201, again.text  # the refused attempt spent nothing


BEACON_FIELDS = ["path", "lang", "device", "referrer", "utm_source", "utm_medium", "utm_campaign", "utm_term", "<key>"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(BEACON_FIELDS), value=json_strings)
def test_a_beacon_carrying_any_json_text_never_stops_the_page_views(pipeline, where, value):
    from marketing_site.db.audience import PageViewDay
    from marketing_site.services import audience

    client = _client(pipeline.app, next(_number))
    headers = {"User-Agent": BROWSER, "Content-Type": "text/plain;charset=UTF-8"}
    beacon = {"path": "/", "lang": "fr", "device": "desktop", "utm_source": "newsletter"}
    answer = client.post("/api/v1/audience", content=json.dumps(_poisoned(beacon, where, value)), headers=headers)
    assert answer.status_code == 204
    assert audience.BUFFER.pending() == 0  # written, or never taken: nothing held back
    rows = stored_rows(PageViewDay)
    assert all(_clean(stored) for row in rows for stored in row.model_dump().values())
    counted = sum(row.views for row in rows)
    assert client.post("/api/v1/audience", content=json.dumps(beacon), headers=headers).status_code == 204
    assert sum(row.views for row in stored_rows(PageViewDay)) == counted + 1  # the next view still counts


def test_a_combination_the_database_refuses_is_dropped_alone_and_the_batch_is_written(pipeline):
    """The last guard, behind intake: a view no database can store (a lone surrogate, as a
    beacon once brought) in a batch of good ones. The good ones are written, the bad one is
    dropped, logged and counted, and the buffer is empty: nothing is retried for ever."""
    from prometheus_client import REGISTRY

    from marketing_site.services import audience

    lost = REGISTRY.get_sample_value("site_audience_views_lost_total", {"reason": "refused"}) or 0
    good = [audience.parse_beacon({"path": "/", "lang": "fr", "device": device}) for device in audience.DEVICES]
    poisoned = audience.View("/", "fr", "", "a\ud800b", "", "", "", "", "mobile")
    buffer = audience.ViewBuffer()
    today = date.today()
    for view in (*good[:2], poisoned, good[2]):
        buffer._counts[(today, view)] += 2
    assert buffer.flush() == 6
    assert buffer.pending() == 0
    assert REGISTRY.get_sample_value("site_audience_views_lost_total", {"reason": "refused"}) == lost + 2
    assert audience.traffic("page", today, today)[0].views == 6


REPORT_FIELDS = ["ref", "kind", "seconds", "path", "<key>"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(REPORT_FIELDS), value=json_strings)
def test_a_connection_report_carrying_any_json_text_is_refused_or_logged_on_one_clean_line(
    pipeline, caplog, where, value
):
    from marketing_site.logs import RedactingFormatter

    report = {"ref": "A1B2C3D4", "kind": "connection", "seconds": 3, "path": "/compare"}
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="marketing_site.failures"):
        answer = _post_json(
            _client(pipeline.app, next(_number)), "/api/v1/client-report", _poisoned(report, where, value)
        )
    assert answer.status_code in (204, 422)
    logged = [record for record in caplog.records if "lost its connection" in record.getMessage()]
    assert len(logged) == (answer.status_code == 204)
    for record in logged:
        line = RedactingFormatter(as_json=True).format(record)
        assert line.splitlines() == [line] and _clean(line) and isinstance(json.loads(line), dict)


@pytest.mark.parametrize(
    ("report", "status"),
    [
        ({"ref": "A1B2C3D4\n"}, 422),  # `$` matched before a final newline
        ({"ref": "A1B2C3D4"}, 204),
        ({"path": "/compare\u202e"}, 422),
        ({"path": "/compare\x85"}, 422),
        ({"path": "/compare\x00"}, 422),
    ],
)
def test_the_connection_report_matches_each_field_whole(pipeline, report, status):
    body = {"ref": "A1B2C3D4", "kind": "connection", "seconds": 3, "path": "/compare", **report}
    assert _post_json(_client(pipeline.app, next(_number)), "/api/v1/client-report", body).status_code == status


@pytest.mark.parametrize("path", ["/api/v1/mail/send", "/api/v1/booking", "/api/v1/client-report"])
@pytest.mark.parametrize("where", ["note", "<key>", "extra[]", "attribution.utm_source"])
def test_a_json_door_refuses_a_body_holding_a_string_that_is_no_text_wherever_it_is(pipeline, path, where):
    """Whatever field holds it, known or not: 422 naming where, before anything is read."""
    body = _poisoned(lead_payload(email="door@example.com"), where, "a\ud800b")
    answer = _post_json(_client(pipeline.app, next(_number)), path, body)
    assert answer.status_code == 422
    assert answer.json()["errors"]["body"].startswith("body.") and "not text" in answer.json()["errors"]["body"]
    noncharacter = _poisoned(lead_payload(email="door@example.com"), where, "a\U0001fffeb")
    assert _post_json(_client(pipeline.app, next(_number)), path, noncharacter).status_code == 422


def test_a_beacon_holding_a_string_that_is_no_text_is_not_counted_even_where_it_is_read_nowhere(pipeline):
    from marketing_site.db.audience import PageViewDay

    headers = {"User-Agent": BROWSER, "Content-Type": "text/plain;charset=UTF-8"}
    beacon = {"path": "/", "lang": "fr", "device": "desktop", "note": "\udc00"}
    assert (
        _client(pipeline.app, 1).post("/api/v1/audience", content=json.dumps(beacon), headers=headers).status_code
        == 204
    )
    assert stored_rows(PageViewDay) == []


@settings(max_examples=300, deadline=None)
@given(value=json_strings)
def test_what_the_field_rules_accept_is_clean_whatever_the_text(value):
    """Behind the doors, the rules themselves (a service called without them: a websocket
    event, a script): a UTM tag or a contact field accepts nothing but clean text, and the free
    text of a lead refuses what a field would."""
    from marketing_site.services import audience, leads

    tag = audience.clean_tag(value)
    assert tag == "" or _clean(tag)
    for field in leads.fields_of("ebook"):
        check = leads.validate_fields("ebook", {**lead_payload(), field: value})
        assert check.ok is (field not in check.errors)
        assert all(_clean(kept) for kept in check.values.values())
    _lead, errors = leads.validate({**lead_payload(), "text": value})
    assert "text" in errors or _clean(value, breaks=True)


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_the_log_writes_c1_bidi_and_non_text_characters_as_escapes(as_json):
    """What a visitor's text brings into a log line (a refused value quoted, a path) is written
    escaped: a terminal acts on no C1 control (CSI), a reader sees no line reordered by a bidi
    override, and a lone surrogate neither breaks the stream nor is lost (JSON: the same text
    back)."""
    from marketing_site.logs import RedactingFormatter

    text = "a\x9b31mb\u202ec\u2066d\x85e\ud800f\U0001fffeg\u200fh"
    record = logging.LogRecord("marketing_site.test", logging.WARNING, __file__, 1, "value %s", (text,), None)
    line = RedactingFormatter(as_json=as_json).format(record)
    assert is_text(line) and not FORBIDDEN.search(line) and "\u200f" not in line
    for escape in ("\\u009b", "\\u202e", "\\u2066", "\\u0085", "\\ud800", "\\ud83f\\udffe", "\\u200f"):
        assert escape in line
    if as_json:
        assert json.loads(line)["msg"] == f"value {text}"
