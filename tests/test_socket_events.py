"""Reflex's websocket, through the site's whole ASGI app in-process (tests/site_app.py: Reflex's
lifespan and event processor, no compiled page), with error reports on towards a loopback
receiver (the real sentry-sdk):

- malformed frames of every kind, from an anonymous client, make one warning a minute per client
  without a traceback, no error report, and the connection stays usable; the page that sent one
  is told with the reference of that warning;
- two visitors' failing events, in flight at the same time, make two reports that each hold
  their own breadcrumbs only, and none of the values the visitors sent;
- the tripwires of what socket_events.py relies on in Reflex, python-socketio and
  python-engineio (docs/reflex-upgrade.md, rows 20 and 21).
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import logging
import time
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st
from site_app import site_with_lifespan, stub_build
from starlette.testclient import TestClient

from marketing_site import error_reports, failures, metrics
from marketing_site.reflex_internals import socket_events

ORIGIN = "http://127.0.0.1:8000"
probe_log = logging.getLogger("marketing_site.probe")


class PeerFromHeader:
    """The test client's connections come from the address its `x-test-peer` header names (the
    test client has one peer, "testclient")."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        peer = dict(scope.get("headers") or []).get(b"x-test-peer")
        if peer:
            scope = {**scope, "client": (peer.decode(), 50000)}
        await self.app(scope, receive, send)


class Socket:
    """One tab's websocket, speaking Engine.IO 4 and Socket.IO 5 as Reflex's client does."""

    def __init__(self, client: TestClient, token: str, peer: str):
        self._session = client.websocket_connect(
            f"/_event/?EIO=4&transport=websocket&token={token}",
            headers={"Origin": ORIGIN, "Upgrade": "websocket", "Connection": "Upgrade", "x-test-peer": peer},
        )
        self.ws = self._session.__enter__()
        assert self.ws.receive_text().startswith("0{")
        self.ws.send_text("40/_event,")
        assert self.ws.receive_text().startswith("40/_event,")

    def send(self, frame: str) -> None:
        self.ws.send_text(frame)

    def event(self, name: str, payload: dict) -> None:
        self.send("42/_event," + json.dumps(["event", {"name": name, "payload": payload, "router_data": {}}]))

    def ping(self) -> None:
        """Reflex answers a ping with a pong: the connection is alive and has read what came before."""
        self.send('42/_event,["ping"]')
        while (frame := self.ws.receive_text()) != '42/_event,["ping","pong"]':
            assert frame.startswith(("42/_event,", "2", "3")), frame

    def notices(self) -> list[str]:
        """The references of the site's notices received so far (after a ping)."""
        self.send('42/_event,["ping"]')
        references = []
        while (frame := self.ws.receive_text()) != '42/_event,["ping","pong"]':
            if frame.startswith('42/_event,["event"'):
                for event in json.loads(frame[len("42/_event,") :])[1].get("events", []):
                    if event["name"] == "_set_value":
                        references.append(event["payload"]["value"])
        return references

    def close(self) -> None:
        if self._session is not None:
            self._session.__exit__(None, None, None)
            self._session = None


@pytest.fixture
def site(service, tmp_path, monkeypatch, receiver, reports_to):
    """The site's app with its lifespan, error reports on, empty malformed-frame warnings."""
    from marketing_site.settings import get_settings

    stub_build(tmp_path / "web")
    monkeypatch.setenv("REFLEX_WEB_WORKDIR", str(tmp_path / "web"))
    monkeypatch.setenv("SITE_URL", ORIGIN)
    monkeypatch.setenv("OIDC_ISSUER", "http://127.0.0.1:9")  # down: the site says so and goes on
    monkeypatch.setenv("OIDC_CLIENT_ID", "site")
    get_settings.cache_clear()
    assert reports_to(receiver.dsn)
    per_client, overall = failures.frame_log_windows()
    monkeypatch.setattr(failures, "_frames_logged_per_client", per_client)
    monkeypatch.setattr(failures, "_frames_logged", overall)
    with TestClient(PeerFromHeader(site_with_lifespan()), base_url=ORIGIN) as client:
        opened: list[Socket] = []

        def connect(token: str, peer: str) -> Socket:
            opened.append(Socket(client, token, peer))
            return opened[-1]

        try:
            yield connect
        finally:
            for socket in opened:  # open sockets would hold the lifespan's end
                socket.close()


def _counted(reason: str) -> float:
    return metrics.WEBSOCKET_MALFORMED_FRAMES.labels(reason=reason)._value.get()


def _pricing_handler(name: str) -> str:
    from marketing_site.state.pricing import PricingState

    return f"{PricingState.get_full_name()}.{name}"


def test_malformed_frames_make_one_warning_a_minute_per_client_and_no_report(site, receiver, caplog):
    """100 malformed frames of ten kinds from one anonymous client: one warning, no traceback,
    no report; the connection still answers; a second client gets its own warning."""
    unknown = "reflex___state____state.no_such_state.no_such_handler"
    malformed = {
        "undecodable": ["zz", "", "4", "9zz", "4garbage", "42/_event,{}", '42/_event,["event"'],
        "not_an_object": ['42/_event,["event","not json"]', '42/_event,["event",[1,2]]', '42/_event,["event"]'],
        "unknown_handler": [
            '42/_event,["event",' + json.dumps({"name": unknown, "payload": {"company": "Analytical"}}) + "]"
        ],
        "payload_not_an_object": [
            '42/_event,["event",' + json.dumps({"name": _pricing_handler("setvar"), "payload": [1]}) + "]"
        ],
        "payload_does_not_fit": [
            '42/_event,["event",'
            + json.dumps(
                {"name": _pricing_handler("use_alternate_prices"), "payload": {"address": "12 rue de la Paix"}}
            )
            + "]"
        ],
    }
    frames = [frame for kind in malformed.values() for frame in kind]
    before = {reason: _counted(reason) for reason in malformed}
    anonymous = site("tok-anonymous-1", "203.0.113.50")
    with caplog.at_level(logging.INFO):
        caplog.clear()
        for n in range(100):
            anonymous.send(frames[n % len(frames)])
        anonymous.ping()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and sum(_counted(r) - before[r] for r in malformed) < 100:
            time.sleep(0.05)
        assert sum(_counted(reason) - before[reason] for reason in malformed) == 100
        assert all(_counted(reason) > before[reason] for reason in malformed)
        second = site("tok-anonymous-2", "198.51.100.60")
        second.send(frames[0])
        second.ping()
    loud = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert [record.name for record in loud] == ["marketing_site.websocket"] * 2, [r.getMessage() for r in loud]
    assert not [record for record in caplog.records if record.exc_info or record.stack_info]
    assert "Analytical" not in caplog.text and "rue de la Paix" not in caplog.text
    error_reports.flush()
    time.sleep(0.3)
    assert receiver.events() == []
    anonymous.close()
    second.close()


def test_a_page_that_sent_an_unfit_event_is_told_with_the_reference_of_the_warning(site, caplog):
    """A page older than a deployment that changed a handler: its events do not fit; the page
    shows the site's notice, whose reference is in the log."""
    page = site("tok-stale-page", "203.0.113.70")
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            page.event(_pricing_handler("use_alternate_prices"), {"unexpected": 1})
        references = page.notices()
    assert len(references) == 3 and len(set(references)) == 1
    [warning] = [record.getMessage() for record in caplog.records if record.name == "marketing_site.websocket"]
    assert f"ref={references[0]} (payload_does_not_fit: {_pricing_handler('use_alternate_prices')})" in warning
    page.close()


@pytest.fixture
def probe_handler(monkeypatch):
    """A handler of the site (PricingState.use_alternate_prices) made a probe for the test: it
    logs its visitor, waits until the other visitor's event has logged too, and fails."""
    from reflex_base.registry import RegistrationContext

    both_in: set[str] = set()

    async def probe(self, visitor: str, floor: int = 0, company: int = 0):
        probe_log.warning("event step for %s", visitor, extra={"visitor_company": f"{visitor} Holdings"})
        both_in.add(visitor)
        for _ in range(500):
            if len(both_in) == 2:
                break
            await asyncio.sleep(0.01)
        raise RuntimeError(f"event of {visitor} failed")

    name = _pricing_handler("use_alternate_prices")
    handlers = RegistrationContext.get().event_handlers
    registered = handlers[name]
    handler = dataclasses.replace(registered.handler, fn=probe, _type_hints=None)
    monkeypatch.setitem(handlers, name, dataclasses.replace(registered, handler=handler))
    return name, both_in


def test_two_visitors_failing_events_at_once_each_report_only_their_own(site, receiver, probe_handler):
    """Two tabs from two addresses send an event whose handler fails, both in flight at once.
    Each report holds its own visitor's breadcrumb and not the other's; the values they sent
    (which Reflex's warnings repeat) and a record's extra data reach no report."""
    name, both_in = probe_handler
    alice = site("tok-alice", "203.0.113.80")
    bob = site("tok-bob", "198.51.100.81")
    # A value Reflex cannot make the handler's int of: its warning repeats it (a breadcrumb).
    alice.event(name, {"visitor": "alice", "floor": "12 rue de la Paix", "company": "Analytical Engines"})
    bob.event(name, {"visitor": "bob", "floor": "7 avenue Foch", "company": "Difference Works"})
    events = receiver.wait_for_events(2)
    assert both_in == {"alice", "bob"}
    assert len(events) == 2
    for event in events:
        [value] = [exception["value"] for exception in event["exception"]["values"]]
        mine, theirs = ("alice", "bob") if "alice" in value else ("bob", "alice")
        crumbs = event["breadcrumbs"]["values"]
        messages = [crumb.get("message", "") for crumb in crumbs]
        assert f"event step for {mine}" in messages
        assert not any(theirs in message for message in messages), messages
        assert f"ref={event['tags']['reference']}" in messages[-1]
        assert error_reports.WITHHELD in messages  # Reflex's warning, which named the value
    everything = receiver.everything()
    for sent in ("rue de la Paix", "avenue Foch", "Analytical", "Difference Works", "Holdings"):
        assert sent not in everything, sent
    alice.close()
    bob.close()


# ----------------------------------------------------------------------------- any frame

# Everything json.loads accepts: every code point (lone surrogates included: st.characters leaves
# the Cs category out unless told), numbers of any size, nesting.
json_text = st.text(alphabet=st.characters(exclude_categories=()), max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | json_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(json_text, inner, max_size=4),
    max_leaves=12,
)


class Linked:
    """What frame_problem reads of Reflex's namespace: the socket "sid" has a tab's token."""

    sid_to_token: ClassVar[dict[str, str]] = {"sid": "token"}


def _known_names() -> list[str]:
    from reflex_base.registry import RegistrationContext

    import marketing_site.marketing_site  # noqa: F401 - registers the site's handlers

    return sorted(RegistrationContext.get().event_handlers)


@given(
    name=st.one_of(json_values, st.sampled_from(_known_names())),
    payload=st.one_of(json_values, st.dictionaries(json_text, json_values, max_size=3)),
    router_data=json_values,
    shape=st.sampled_from(["event", "bare", "extra argument", "none"]),
)
def test_any_json_an_event_frame_carries_is_judged_without_raising(name, payload, router_data, shape):
    """Whatever JSON a client writes as an event, the guard says why it cannot be handled (a
    reason the metric knows, the handler a registered name) or lets through only an object that
    names a handler of the site with an object payload that fits it."""
    from reflex_base.registry import RegistrationContext

    data = {"name": name, "payload": payload, "router_data": router_data}
    args = {"event": (data,), "bare": (payload,), "extra argument": (data, 1), "none": ()}[shape]
    problem = socket_events.frame_problem(Linked, "sid", args)
    if problem is None:
        assert shape == "event" and isinstance(payload, dict) and isinstance(router_data, dict)
        handler = RegistrationContext.get().event_handlers[name].handler.fn
        inspect.signature(handler).bind(None, **payload)
    else:
        reason, handler = problem
        assert reason in metrics.MALFORMED_FRAME_REASONS
        assert handler == "" or handler in RegistrationContext.get().event_handlers
    assert socket_events.frame_problem(type("Unlinked", (), {"sid_to_token": {}}), "sid", args) == ("no_token", "")


@given(
    frame=st.one_of(
        json_text,
        st.binary(max_size=12),
        # Bytes that start as a packet type would (a binary message outside a binary packet).
        st.builds(lambda kind, rest: bytes([kind]) + rest, st.integers(0x30, 0x39), st.binary(min_size=1, max_size=8)),
        st.builds(lambda kind, value: f"{kind}/_event," + json.dumps(value), st.integers(0, 9), json_values),
        st.builds(lambda value: "42/_event," + json.dumps(["event", value]), json_values),
    )
)
def test_any_text_frame_is_a_packet_or_refused_as_undecodable(frame):
    """python-socketio's packet, checked: an event packet it accepts names its event; anything
    else it cannot take is MalformedPacket, never another error."""
    from socketio import packet

    from marketing_site.marketing_site import app

    try:
        decoded = app.sio.packet_class(encoded_packet=frame)
    except socket_events.MalformedPacket as refused:
        assert str(refused) == "undecodable"
        return
    assert decoded.packet_type in socket_events.CLIENT_PACKET_TYPES
    if decoded.packet_type in (packet.EVENT, packet.BINARY_EVENT):
        assert isinstance(decoded.data, list) and isinstance(decoded.data[0], str)


@given(frame=st.one_of(json_text, st.binary(max_size=12)))
def test_any_engineio_frame_is_a_packet_or_a_marked_noop(frame):
    import engineio.packet

    import marketing_site.marketing_site  # noqa: F401 - installs the checked packet

    decoded = engineio.packet.Packet(encoded_packet=frame)
    assert decoded.packet_type in range(len(engineio.packet.packet_names))
    if decoded.malformed:
        assert decoded.packet_type == engineio.packet.NOOP and decoded.data is None


# ----------------------------------------------------------------------------- tripwires


def test_what_the_frame_guard_relies_on_is_still_there():
    """Row 20 of docs/reflex-upgrade.md: python-socketio calls the namespace instance's
    `on_event(sid, data)`, decodes packets with the server's `packet_class` in
    `_handle_eio_message`, which python-engineio calls as the "message" handler; python-engineio
    decodes with `packet.Packet` and hands packets to `AsyncSocket.receive`; Reflex's handlers
    are registered by name with their function."""
    from reflex.app import EventNamespace
    from reflex_base.registry import RegisteredEventHandler, RegistrationContext
    from socketio import AsyncNamespace, AsyncServer

    from marketing_site.marketing_site import app

    assert list(inspect.signature(EventNamespace.on_event).parameters) == ["self", "sid", "data"]
    assert "getattr(self, handler_name)" in inspect.getsource(AsyncNamespace.trigger_event).replace(" ", "").replace(
        "getattr(self,handler_name)", "getattr(self, handler_name)"
    )
    assert "self.packet_class(encoded_packet=data)" in inspect.getsource(AsyncServer._handle_eio_message)
    assert app.sio.eio.handlers["message"].__name__ == "handle_message"
    assert app.sio.packet_class.__name__ == "CheckedPacket"
    assert app.event_namespace.on_event._marketing_site
    import engineio.async_socket
    import engineio.packet

    assert engineio.packet.Packet is socket_events.CheckedEngineioPacket
    assert "packet.Packet(encoded_packet=p)" in inspect.getsource(engineio.async_socket.AsyncSocket._websocket_handler)
    assert {field.name for field in dataclasses.fields(RegisteredEventHandler)} >= {"handler"}
    registered = RegistrationContext.get().event_handlers[_pricing_handler("use_alternate_prices")]
    assert callable(registered.handler.fn)


def test_what_the_event_scopes_rely_on_is_still_there():
    """Row 21 of docs/reflex-upgrade.md: each event runs in a task whose coroutine is
    `EventProcessor._process_event_queue_entry(entry=, registered_handler=)` (no subclass of
    Reflex's replaces it), and an entry's context carries the event's router data."""
    from reflex_base.event.processor.base_state_processor import BaseStateEventProcessor
    from reflex_base.event.processor.event_processor import EventProcessor, EventQueueEntry

    import marketing_site.marketing_site  # noqa: F401 - installs the scopes

    method = EventProcessor._process_event_queue_entry
    assert method._marketing_site
    assert "_process_event_queue_entry" not in vars(BaseStateEventProcessor)
    assert "self._process_event_queue_entry(" in inspect.getsource(EventProcessor._create_event_task)
    assert {field.name for field in dataclasses.fields(EventQueueEntry)} >= {"event", "ctx"}
    from reflex_base.event.context import EventContext

    assert "router_data" in {field.name for field in dataclasses.fields(EventContext)}
