"""Error reports are limited per failure and per client, each HTTP request keeps its breadcrumbs
to itself, and a malformed websocket frame is logged once a minute per client; the tables behind
the limits never hold more than their bound.

Reports go through the real sentry-sdk to a loopback receiver (conftest.py's `receiver`). Reflex's
side (frames over a real socket, events) is tests/test_socket_events.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re

import pytest
from servers import run_in_own_loop
from starlette.applications import Starlette
from starlette.routing import Route

from marketing_site import error_reports, failures, metrics
from marketing_site.services.rate_limit import FixedWindows

probe = logging.getLogger("marketing_site.probe")


def _failure(kind: type[Exception] = RuntimeError) -> Exception:
    try:
        raise kind("the probe failed")
    except Exception as error:  # noqa: BLE001 - any: the report is what is checked
        return error


def _report_from(peer: str, error: Exception, reference: str) -> bool:
    with error_reports.isolated(error_reports.client_of_scope({"client": (peer, 50000)})):
        return error_reports.report(error, reference, "event_handler")


def _suppressed(limit: str) -> float:
    return metrics.ERROR_REPORTS_SUPPRESSED.labels(limit=limit)._value.get()


def test_one_failure_is_reported_as_many_times_a_minute_as_its_limit_says(receiver, reports_to):
    """Ten clients hit the same failure: the limit's number of reports, the rest counted."""
    assert reports_to(receiver.dsn, SENTRY_REPORTS_PER_FINGERPRINT="3", SENTRY_REPORTS_PER_CLIENT="100")
    error = _failure()
    before = _suppressed("per_fingerprint")
    sent = [_report_from(f"198.51.100.{n}", error, f"REF{n}") for n in range(10)]
    assert sent == [True] * 3 + [False] * 7
    assert _suppressed("per_fingerprint") == before + 7
    # Another failure (another type raised at the same place) has its own budget.
    assert _report_from("198.51.100.99", _failure(ValueError), "OTHER")
    error_reports.flush()
    events = receiver.wait_for_events(4)
    assert sorted(event["tags"]["reference"] for event in events) == ["OTHER", "REF0", "REF1", "REF2"]


def test_one_client_is_reported_as_many_times_a_minute_as_its_limit_says(receiver, reports_to):
    """One client makes four different failures: two reports; another client still gets its own."""
    assert reports_to(receiver.dsn, SENTRY_REPORTS_PER_FINGERPRINT="100", SENTRY_REPORTS_PER_CLIENT="2")
    kinds = [type(f"Failure{n}", (RuntimeError,), {}) for n in range(4)]
    before = _suppressed("per_client")
    sent = [_report_from("2001:db8:1:2::7", _failure(kind), f"A{n}") for n, kind in enumerate(kinds)]
    assert sent == [True, True, False, False]
    assert _suppressed("per_client") == before + 2
    # The same /64 is the same client; another /64 is another.
    assert not _report_from("2001:db8:1:2:ffff::1", _failure(kinds[3]), "A-again")
    assert _report_from("2001:db8:1:3::7", _failure(kinds[3]), "B0")
    error_reports.flush()
    events = receiver.wait_for_events(3)
    assert sorted(event["tags"]["reference"] for event in events) == ["A0", "A1", "B0"]


def test_a_limit_opens_again_exactly_a_minute_after_its_window_began(reports_to, receiver):
    assert reports_to(receiver.dsn, SENTRY_REPORTS_PER_FINGERPRINT="1", SENTRY_REPORTS_PER_CLIENT="1")
    error = _failure()
    assert error_reports.admitted(error, "request", "203.0.113.1", now=1000.0)
    assert not error_reports.admitted(error, "request", "203.0.113.1", now=1059.999)
    assert not error_reports.admitted(error, "request", "203.0.113.2", now=1059.999)  # its fingerprint's
    assert error_reports.admitted(error, "request", "203.0.113.1", now=1060.0)


def test_the_fingerprint_is_the_failure_not_its_message():
    first, second = (_failure() for _ in range(2))
    first.args, second.args = ("for Ada",), ("for Grace",)
    assert error_reports.fingerprint(first, "request") == error_reports.fingerprint(second, "request")
    assert error_reports.fingerprint(first, "request") != error_reports.fingerprint(first, "event_handler")
    assert error_reports.fingerprint(first, "request") != error_reports.fingerprint(_failure(ValueError), "request")
    elsewhere = RuntimeError("the probe failed")  # never raised: no place
    assert error_reports.fingerprint(elsewhere, "request") != error_reports.fingerprint(first, "request")


def test_the_windows_forget_the_oldest_key_at_exactly_their_bound():
    windows = FixedWindows(limit=1, window=60, max_keys=3)
    assert [windows.admit(key, now=0) for key in "abc"] == [True, True, True]
    assert [windows.admit(key, now=1) for key in "abc"] == [False, False, False]
    assert len(windows) == 3
    assert windows.admit("d", now=2)  # the fourth key: the oldest window ("a") is forgotten
    assert len(windows) == 3
    assert windows.admit("a", now=3)  # forgotten: it starts again, as a new key would
    assert len(windows) == 3
    assert not windows.admit("c", now=4)  # "b" went for "a"; "c" is still counted
    assert windows.admit("b", now=5)
    # A key whose window ended starts a new one at the end of the order.
    assert windows.admit("d", now=62) and not windows.admit("d", now=63)


@pytest.mark.parametrize(
    ("windows", "bound"),
    [
        (lambda: error_reports._budgets(10, 5)[0], error_reports.MAX_KEYS),
        (lambda: error_reports._budgets(10, 5)[1], error_reports.MAX_KEYS),
        (lambda: failures._frames_logged_per_client, failures.MALFORMED_FRAME_CLIENTS),
    ],
    ids=["reports per fingerprint", "reports per client", "frame warnings per client"],
)
def test_a_client_rotating_addresses_cannot_grow_the_limits(windows, bound):
    """The tables the site keeps: at their bound, one more client is one more forgotten."""
    error_reports._budgets.cache_clear()
    table = windows()
    table._windows.clear()
    assert error_reports.MAX_KEYS == failures.MALFORMED_FRAME_CLIENTS == 10_000
    for n in range(bound):
        table.admit(f"2001:db8:{n:x}::/64", now=0)
    assert len(table) == bound
    table.admit("2001:db8:ffff:1::/64", now=0)
    assert len(table) == bound
    assert "2001:db8:0::/64" not in table._windows
    table._windows.clear()
    error_reports._budgets.cache_clear()


@pytest.fixture
def frame_logs(monkeypatch):
    """The malformed-frame warnings' limits, empty."""
    per_client, overall = failures.frame_log_windows()
    monkeypatch.setattr(failures, "_frames_logged_per_client", per_client)
    monkeypatch.setattr(failures, "_frames_logged", overall)


def test_a_malformed_frame_is_one_warning_a_minute_per_client_without_a_traceback(frame_logs, caplog):
    counted = metrics.WEBSOCKET_MALFORMED_FRAMES.labels(reason="not_an_object")
    before = counted._value.get()
    with caplog.at_level(logging.DEBUG, logger="marketing_site.websocket"):
        minute = [failures.malformed_frame("203.0.113.5", "not_an_object", now=t) for t in (0, 1, 59.999)]
        other = failures.malformed_frame("203.0.113.6", "not_an_object", now=59.999)
        later = failures.malformed_frame("203.0.113.5", "not_an_object", "state.handler", now=60)
    assert counted._value.get() == before + 5  # every frame is counted, logged or not
    # One reference for a client's minute: the one its page is shown, and its warning carries.
    assert minute[0] == minute[1] == minute[2]
    assert len({minute[0], other, later}) == 3
    assert all(re.fullmatch(r"[A-F][0-9A-F]{7}", reference) for reference in (*minute, other, later))
    records = [record for record in caplog.records if record.name == "marketing_site.websocket"]
    assert [record.levelno for record in records] == [logging.WARNING] * 3
    assert all(record.exc_info is None and record.stack_info is None for record in records)
    messages = [record.getMessage() for record in records]
    assert [
        f"ref={reference} (not_an_object" in message
        for message, reference in zip(messages, (minute[0], other, later), strict=True)
    ] == [True] * 3
    assert "(not_an_object: state.handler)" in messages[2]


def test_warnings_of_all_clients_together_are_bounded_too(frame_logs, caplog):
    clients = [f"198.51.100.{n}" for n in range(failures.MALFORMED_FRAMES_LOGGED + 5)]
    with caplog.at_level(logging.DEBUG, logger="marketing_site.websocket"):
        for client in clients:
            failures.malformed_frame(client, "undecodable", now=0)
    assert len([r for r in caplog.records if r.name == "marketing_site.websocket"]) == failures.MALFORMED_FRAMES_LOGGED


# --------------------------------------------------------------------------- per request


def _probe_app(both_in: set[str]) -> Starlette:
    """An app whose one route logs its visitor, waits until the other visitor's request has
    logged too, and fails; wrapped in the site's middleware as the site is."""

    async def visit(request):
        visitor = request.query_params["visitor"]
        probe.warning("request step for %s", visitor, extra={"visitor_company": f"{visitor} Holdings"})
        both_in.add(visitor)
        for _ in range(200):
            if len(both_in) == 2:
                break
            await asyncio.sleep(0.01)
        raise RuntimeError(f"request of {visitor} failed")

    app = Starlette(
        routes=[Route("/visit", visit)],
        exception_handlers={Exception: failures.report_request_exception},
    )
    return error_reports.IsolatedReports(app)


async def _get(app, path: str, query: str, peer: str) -> int:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1")],
        "client": (peer, 50000),
        "server": ("127.0.0.1", 8000),
    }
    answer: dict = {}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]

    # Starlette raises the error again after answering, for the server's log.
    with contextlib.suppress(RuntimeError):
        await app(scope, receive, send)
    return answer["status"]


def test_two_concurrent_requests_each_report_only_their_own_breadcrumbs(receiver, reports_to):
    assert reports_to(receiver.dsn)
    probe.warning("before any request: outside-marker")  # in the process's scope: in no report
    app = _probe_app(set())

    async def both():
        return await asyncio.gather(
            _get(app, "/visit", "visitor=alice", "203.0.113.10"), _get(app, "/visit", "visitor=bob", "203.0.113.11")
        )

    assert run_in_own_loop(both()) == [500, 500]
    error_reports.flush()
    events = receiver.wait_for_events(2)
    assert len(events) == 2
    for event in events:
        [value] = [exception["value"] for exception in event["exception"]["values"]]
        mine, theirs = ("alice", "bob") if "alice" in value else ("bob", "alice")
        messages = [crumb.get("message", "") for crumb in event["breadcrumbs"]["values"]]
        assert f"request step for {mine}" in messages
        assert not any(theirs in message for message in messages), messages
        assert not any("outside-marker" in message for message in messages), messages
    everything = receiver.everything()
    assert "Holdings" not in everything  # a record's extra data never becomes a breadcrumb


def test_the_site_isolates_every_request_and_connection_outermost():
    from marketing_site.marketing_site import app

    assert app.api_transformer[-1] is error_reports.IsolatedReports


def test_a_librarys_message_is_withheld_and_no_extra_data_is_kept():
    own = error_reports.breadcrumb_kept(
        {"type": "log", "category": "marketing_site.leads", "message": "lead 12 stored", "data": {"company": "X"}}
    )
    assert own == {"type": "log", "category": "marketing_site.leads", "message": "lead 12 stored"}
    for category in ("reflex_base.event.processor.base_state_processor", "marketing_sitex", "", None):
        kept = error_reports.breadcrumb_kept({"category": category, "message": "value '12 rue de la Paix'"})
        assert kept["message"] == error_reports.WITHHELD
