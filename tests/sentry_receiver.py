"""A Sentry receiver for the tests: an HTTP server on loopback that takes the envelopes sentry-sdk's
own HTTP transport sends, and keeps their items parsed (conftest.py's `receiver` fixture; its
`reports_to` turns error reports on in the test's process, and off again after the test)."""

from __future__ import annotations

import gzip
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from servers import free_port


class SentryReceiver:
    """An HTTP server on loopback that takes Sentry envelopes and keeps their items, parsed."""

    def __init__(self):
        self.envelopes: list[bytes] = []
        self.items: list[tuple[dict, bytes]] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                encoding = self.headers.get("Content-Encoding", "")
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding:
                    raise AssertionError(f"unexpected Content-Encoding {encoding}")
                receiver.take(self.path, body)
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *_args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.port = self.server.server_address[1]
        self.dsn = f"http://publickey@127.0.0.1:{self.port}/42"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def take(self, path: str, envelope: bytes) -> None:
        assert path == "/api/42/envelope/", path
        header, _, rest = envelope.partition(b"\n")
        json.loads(header)
        items = []
        while rest.strip():
            item_header_line, _, rest = rest.partition(b"\n")
            item_header = json.loads(item_header_line)
            if "length" in item_header:
                payload, rest = rest[: item_header["length"]], rest[item_header["length"] + 1 :]
            else:
                payload, _, rest = rest.partition(b"\n")
            items.append((item_header, payload))
        with self._lock:
            self.envelopes.append(envelope)
            self.items += items

    def events(self) -> list[dict]:
        with self._lock:
            return [json.loads(payload) for header, payload in self.items if header.get("type") == "event"]

    def wait_for_events(self, count: int, timeout: float = 20) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and len(self.events()) < count:
            time.sleep(0.1)
        return self.events()

    def everything(self) -> str:
        with self._lock:
            return b"\n".join(self.envelopes).decode("utf-8", "replace")

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
