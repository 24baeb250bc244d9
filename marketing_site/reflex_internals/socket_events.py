"""Reflex's websocket: malformed frames refused before Reflex reads them, and each event in a
scope of the error reports of its own.

What Reflex 0.10.1 does with a frame it cannot handle (reflex/app.py, reflex_base/event/processor/):
one that is not an object raises `EventDeserializationError` in `EventNamespace.on_event`, which
python-engineio logs with a traceback; an unknown handler name makes Reflex's event queue log one,
with the payload; a payload that does not fit the handler reaches the backend exception handler
(a traceback and an error report each), after Reflex's warnings have repeated its values. A
packet python-socketio cannot decode is logged with a traceback by python-engineio. An anonymous
client sent 100 such frames in 3 seconds: 100 tracebacks and 100 reports.

`guard_frames(app)` checks every frame before Reflex does: the packet (python-socketio's
`AsyncServer.packet_class`, whose decoding `_handle_eio_message` runs, registered with
python-engineio as the "message" handler) and the event (the namespace instance's `on_event`,
which python-socketio looks up by name on each event, and Reflex's `on_connect` calls for the
event a connection carries). A frame that does not pass is dropped and goes to
`failures.malformed_frame` with its reason: counted, and one warning a minute per client; the page
that sent it, if any, is told as for a failing handler (`tell_the_page`: Reflex's `emit_update`
of a `StateUpdate` carrying the notice's `rx.set_value` event).

`isolate_events()` runs each event in an isolation scope of its own (error_reports.isolated).
Reflex runs an event in a task whose coroutine is `EventProcessor._process_event_queue_entry(
entry=, registered_handler=)`; the task inherits the context of Reflex's queue task, which the
first connection that sent an event started, so without this every visitor's events would write
their breadcrumbs into that one scope. A failing event's exception keeps its origin (the scope,
the client) for the backend exception handler, which Reflex calls from another task.

tests/test_socket_events.py holds the tripwires (docs/reflex-upgrade.md, rows 20 and 21).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import reflex as rx
from engineio import packet as engineio_packet
from engineio.async_socket import AsyncSocket
from reflex_base.constants import RouteVar
from reflex_base.event import Event
from reflex_base.event.processor.event_processor import EventProcessor
from reflex_base.registry import RegistrationContext
from socketio import packet as socketio_packet

from marketing_site import error_reports, failures
from marketing_site.reflex_internals.router_headers import PEER_ENTRY
from marketing_site.services.client_address import visitor_address
from marketing_site.settings import get_settings

# The packet types a client may send (a CONNECT_ERROR is the server's to send).
CLIENT_PACKET_TYPES = frozenset(
    {
        socketio_packet.CONNECT,
        socketio_packet.DISCONNECT,
        socketio_packet.EVENT,
        socketio_packet.ACK,
        socketio_packet.BINARY_EVENT,
        socketio_packet.BINARY_ACK,
    }
)
EVENT_PACKET_TYPES = frozenset({socketio_packet.EVENT, socketio_packet.BINARY_EVENT})


class MalformedPacket(ValueError):
    """A packet python-socketio cannot decode, or an event packet without an event name."""


def checked_packet_class(base: type) -> type:
    """python-socketio's packet class, refusing what it would fail on later with a traceback."""

    class CheckedPacket(base):  # a subclass of the server's own class
        def __init__(self, *args: Any, encoded_packet: Any = None, **kwargs: Any) -> None:
            if encoded_packet is not None and not encoded_packet:
                # python-socketio would not decode it, and take it for an event without data.
                raise MalformedPacket("undecodable")
            super().__init__(*args, encoded_packet=encoded_packet, **kwargs)

        def decode(self, encoded_packet: Any) -> Any:
            try:
                attachments = super().decode(encoded_packet)
            except Exception as error:  # whatever the decoding raises, the packet is the client's fault
                raise MalformedPacket("undecodable") from error
            if self.packet_type not in CLIENT_PACKET_TYPES:
                raise MalformedPacket("undecodable")
            if self.packet_type in EVENT_PACKET_TYPES and not (
                isinstance(self.data, list) and self.data and isinstance(self.data[0], str)
            ):
                raise MalformedPacket("undecodable")
            return attachments

    CheckedPacket.__name__ = CheckedPacket.__qualname__ = f"Checked{base.__name__}"
    return CheckedPacket


class CheckedEngineioPacket(engineio_packet.Packet):
    """python-engineio's packet, made a NOOP (which its socket ignores) when it cannot be decoded
    or names no packet type, and marked `malformed`: python-engineio would log a traceback for
    each (a type past its list of names) or end the connection with one (a packet it cannot
    decode)."""

    malformed = False
    packet_type: Any
    data: Any
    binary: bool

    def decode(self, encoded_packet: Any) -> Any:
        try:
            decoded = super().decode(encoded_packet)
        except Exception:  # noqa: BLE001 - whatever the decoding raises, the packet is the client's fault
            decoded, self.malformed = None, True
        else:
            self.malformed = self.packet_type not in range(len(engineio_packet.packet_names))
        if self.malformed:
            self.packet_type, self.data, self.binary = engineio_packet.NOOP, None, False
        return decoded


def _guard_engineio_packets() -> None:
    """Engine.IO packets a client sends are decoded by CheckedEngineioPacket (idempotent)."""
    if getattr(AsyncSocket.receive, "_marketing_site", False):
        return
    engineio_receive = AsyncSocket.receive

    async def receive(self: AsyncSocket, pkt: Any) -> None:
        if getattr(pkt, "malformed", False):
            environs = getattr(self.server, ENVIRONS_ATTRIBUTE, {})
            failures.malformed_frame(client_of_environ(environs.get(self.sid)), "undecodable")
            return
        await engineio_receive(self, pkt)

    receive._marketing_site = True  # type: ignore[attr-defined]  # a marker: installed once
    engineio_packet.Packet = CheckedEngineioPacket  # the sockets build packets by this name
    AsyncSocket.receive = receive  # the patch


# Where the Engine.IO server finds the handshakes (python-socketio's `environ`, by Engine.IO sid).
ENVIRONS_ATTRIBUTE = "_marketing_site_environs"


def client_of_environ(environ: Any) -> str:
    """The client key of a socket (error_reports.client_of_scope of its handshake)."""
    scope = environ.get("asgi.scope") if isinstance(environ, dict) else None
    return error_reports.client_of_scope(scope or {})


def client_of_router_data(router_data: Any) -> str:
    """The client key of an event, from the router data Reflex gives it (the socket's peer,
    which Reflex keeps among the headers, and X-Forwarded-For)."""
    router_data = router_data if isinstance(router_data, dict) else {}
    headers = router_data.get(RouteVar.HEADERS) or {}
    peer = headers.get(PEER_ENTRY) or router_data.get(RouteVar.CLIENT_IP) or error_reports.UNKNOWN_CLIENT
    forwarded = headers.get("x-forwarded-for")
    return visitor_address(str(peer), [forwarded] if forwarded else [], get_settings().trusted_proxies)


@functools.lru_cache(maxsize=1024)
def _parameters(handler: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(handler)
    except (TypeError, ValueError):  # a callable Python cannot describe: Reflex will say
        return None


def frame_problem(namespace: Any, sid: str, args: tuple[Any, ...]) -> tuple[str, str] | None:
    """Why an event frame cannot be handled (a reason of metrics.MALFORMED_FRAME_REASONS, and
    the registered handler it named, if any), or None. `args` are what python-socketio passes
    after the socket's id."""
    if namespace.sid_to_token.get(sid) is None:
        return "no_token", ""
    if len(args) != 1 or not isinstance(args[0], dict):
        return "not_an_object", ""
    data = args[0]
    name = data.get("name")
    registered = RegistrationContext.get().event_handlers.get(name) if isinstance(name, str) else None
    if registered is None:
        return "unknown_handler", ""
    payload = data.get("payload", {})
    handler = str(name)
    if not isinstance(payload, dict):
        return "payload_not_an_object", handler
    if not isinstance(data.get("router_data", {}), dict):
        return "router_data_not_an_object", handler
    signature = _parameters(registered.handler.fn)
    if signature is not None:
        try:
            signature.bind(None, **payload)  # the state, then the payload's keywords
        except TypeError:
            return "payload_does_not_fit", handler
    return None


async def tell_the_page(namespace: Any, token: str, reference: str) -> None:
    """The site's notice on the page of `token`, with `reference`: what a failing handler's
    page shows (app_frame.handler_failure_notice), sent as Reflex sends a handler's events."""
    from reflex.state import StateUpdate

    events = Event.from_event_type(rx.set_value(failures.NOTICE_REF, reference))
    await namespace.emit_update(StateUpdate(events=events), token)


def guard_frames(app: Any) -> None:
    """Refuse malformed frames before Reflex reads them (idempotent)."""
    namespace, sio = app.event_namespace, app.sio
    if namespace is None or sio is None:
        raise RuntimeError("the Reflex app has no websocket to guard (no state?)")
    if getattr(namespace.on_event, "_marketing_site", False):
        return
    reflex_on_event = namespace.on_event

    async def on_event(sid: str, *args: Any) -> None:
        problem = frame_problem(namespace, sid, args)
        if problem is None:
            await reflex_on_event(sid, args[0])
            return
        reason, handler = problem
        client = client_of_environ(sio.get_environ(sid, namespace.namespace))
        reference = failures.malformed_frame(client, reason, handler)
        if (token := namespace.sid_to_token.get(sid)) is not None:
            await tell_the_page(namespace, token, reference)

    on_event._marketing_site = True  # type: ignore[attr-defined]  # a marker: installed once
    namespace.on_event = on_event

    sio.packet_class = checked_packet_class(sio.packet_class)
    decode_and_handle = sio._handle_eio_message

    async def handle_message(eio_sid: str, data: Any) -> None:
        try:
            await decode_and_handle(eio_sid, data)
        except MalformedPacket as problem:
            failures.malformed_frame(client_of_environ(sio.environ.get(eio_sid)), str(problem))

    sio.eio.on("message", handle_message)
    setattr(sio.eio, ENVIRONS_ATTRIBUTE, sio.environ)
    _guard_engineio_packets()


def isolate_events() -> None:
    """Each Reflex event in an isolation scope of its own (idempotent)."""
    reflex_process = EventProcessor._process_event_queue_entry
    if getattr(reflex_process, "_marketing_site", False):
        return

    async def process_in_own_scope(self: EventProcessor, *, entry: Any, registered_handler: Any) -> None:
        with error_reports.isolated(client_of_router_data(entry.ctx.router_data)):
            try:
                await reflex_process(self, entry=entry, registered_handler=registered_handler)
            except Exception as error:
                error_reports.remember_origin(error)
                raise

    process_in_own_scope._marketing_site = True  # type: ignore[attr-defined]  # a marker: installed once
    EventProcessor._process_event_queue_entry = process_in_own_scope  # type: ignore[method-assign]  # the patch
