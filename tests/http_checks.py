"""Helpers shared by the HTTP tests (a helper module, not a test module)."""

from __future__ import annotations

from urllib.parse import urlsplit

# The French not-found page's text, as the prerendered HTML spells it.
NOT_FOUND_TEXT = "Oops ! Nous sommes désolés, la page demandée n&#x27;existe pas"


def unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            break
        out, body = out + rest[:size], rest[size + 2 :]
    return out


class StateSocket:
    """Reflex's client protocol, spoken directly: Engine.IO over a websocket, Socket.IO on /_event.

    The browser would connect to the build's own backend; this site runs beside it with its
    own settings (a short state expiry), so the test talks to it as the client does.
    """

    def __init__(self, origin: str, cookie: str, token: str | None = None, headers: dict[str, str] | None = None):
        import socket as socket_module
        import uuid

        import wsproto
        import wsproto.events

        self.events = wsproto.events
        host, port = urlsplit(origin).hostname, urlsplit(origin).port
        self.sock = socket_module.create_connection((host, port), timeout=20)
        self.ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        target = f"/_event/?EIO=4&transport=websocket&token={token or uuid.uuid4()}"
        extra = [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()]
        headers_sent = [(b"origin", origin.encode()), (b"cookie", cookie.encode()), *extra]
        self.sock.sendall(
            self.ws.send(self.events.Request(host=f"{host}:{port}", target=target, extra_headers=headers_sent))
        )
        self.pending: list[str] = []

    def send(self, text: str) -> None:
        self.sock.sendall(self.ws.send(self.events.TextMessage(text)))

    def receive(self) -> str:
        while not self.pending:
            self.ws.receive_data(self.sock.recv(65536))
            for event in self.ws.events():
                if isinstance(event, self.events.TextMessage):
                    if event.data == "2":
                        self.send("3")  # Engine.IO ping
                    else:
                        self.pending.append(event.data)
                elif isinstance(event, self.events.CloseConnection | self.events.RejectConnection):
                    raise ConnectionError(f"websocket closed: {event}")
        return self.pending.pop(0)

    def until_hydrated(self) -> list[str]:
        """The state updates up to the one that marks the page hydrated (its on_load done)."""
        updates = []
        while True:
            text = self.receive()
            if text.startswith("42/_event,"):
                updates.append(text)
                if '"is_hydrated_rx_state_":true' in text:
                    return updates

    def close(self) -> None:
        self.sock.close()
