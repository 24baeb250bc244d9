"""The busy feed when it fails, over real sockets on loopback (no mock): a server that accepts
and never answers costs the offer at most the feed's timeout, an error answer is logged with what
failed, and the line never carries the feed's address (a private calendar address is a secret:
whoever has it reads the calendar). Build-free."""

from __future__ import annotations

import http.server
import logging
import socket
import threading
import time
from datetime import UTC, datetime

import pytest
from servers import free_port

NOW = datetime(2026, 12, 21, 7, 0, tzinfo=UTC)
# The secret part of a private calendar's address (as calendar services write them).
SECRET = "private-3f9c1d0b7a5e4c2d"


@pytest.fixture
def scheduler(store):
    from marketing_site.services import booking

    return booking


def _feed_at(monkeypatch, url: str) -> None:
    from marketing_site import settings

    monkeypatch.setenv("BOOKING_BUSY_ICS_URL", url)
    settings.get_settings.cache_clear()


class _Silent:
    """A TCP server on loopback that accepts every connection and never answers."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:  # closed
                return
            self.accepted.append(connection)

    def close(self) -> None:
        self.listener.close()
        for connection in self.accepted:
            connection.close()


def test_a_feed_that_accepts_and_never_answers_costs_the_offer_at_most_its_timeout(scheduler, monkeypatch, caplog):
    """Without a bound, one frozen calendar server would hold every visitor's slot list (and the
    feed's lock, every other request's) for as long as it stays silent. The bound is set short
    here; the client's own default (5 s) is beyond the wait allowed."""
    monkeypatch.setattr(scheduler, "BUSY_FEED_TIMEOUT_SECONDS", 0.5)
    silent = _Silent()
    _feed_at(monkeypatch, f"http://127.0.0.1:{silent.port}/{SECRET}/basic.ics")
    answers: list[list] = []
    try:
        with caplog.at_level(logging.WARNING, logger="marketing_site.booking"):
            reader = threading.Thread(target=lambda: answers.append(scheduler.busy_periods(NOW)), daemon=True)
            started = time.monotonic()
            reader.start()
            reader.join(timeout=3.5)
            waited = time.monotonic() - started
            assert not reader.is_alive(), "the feed's read outlived its timeout"
    finally:
        silent.close()
        reader.join(timeout=10)
    assert silent.accepted, "the feed was never asked"
    assert answers == [[]] and waited < 3.5
    [line] = [r.getMessage() for r in caplog.records if r.name == "marketing_site.booking"]
    assert line.startswith("busy-times feed unreachable, slots offered without it: ")
    assert "timed out" in line.lower() and SECRET not in line


class _Unavailable(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(503)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):  # quiet test output
        pass


def _logged_failure(scheduler, monkeypatch, caplog) -> str:
    """The warning logged when the feed answers 503 at an address that carries its secret."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), _Unavailable)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _feed_at(monkeypatch, f"http://127.0.0.1:{server.server_port}/{SECRET}/basic.ics?token={SECRET}")
    try:
        with caplog.at_level(logging.WARNING, logger="marketing_site.booking"):
            assert scheduler.busy_periods(NOW) == []
    finally:
        server.shutdown()
        server.server_close()
    [line] = [r.getMessage() for r in caplog.records if r.name == "marketing_site.booking"]
    return line


def test_an_error_answer_is_logged_with_its_status(scheduler, monkeypatch, caplog):
    line = _logged_failure(scheduler, monkeypatch, caplog)
    assert line.startswith("busy-times feed unreachable, slots offered without it: ")
    assert "503" in line


def test_the_feeds_address_is_never_logged(scheduler, monkeypatch, caplog):
    """httpx names the URL in a status error's text: the line says the status alone."""
    line = _logged_failure(scheduler, monkeypatch, caplog)
    assert SECRET not in line and "127.0.0.1" not in line
    assert line == "busy-times feed unreachable, slots offered without it: HTTPStatusError: HTTP 503"
