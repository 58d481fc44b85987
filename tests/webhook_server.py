"""A small HTTP server on 127.0.0.1 for the webhook tests: it answers each POST with the next
status of its list (the last one for every POST after) and keeps what it was sent."""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


@dataclass
class Receiver:
    statuses: list[int]
    url: str = ""
    received: list[Received] = field(default_factory=list)

    def answer(self) -> int:
        index = min(len(self.received), len(self.statuses)) - 1
        return self.statuses[index]


def _handler(receiver: Receiver):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            receiver.received.append(Received(self.path, dict(self.headers.items()), body))
            status = receiver.answer()
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", receiver.url + "elsewhere")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):  # quiet
            pass

    return Handler


@contextlib.contextmanager
def webhook_receiver(*statuses: int):
    """A running server answering ``statuses`` in turn; its ``url`` ends with ``/hook/``."""
    receiver = Receiver(statuses=list(statuses or (200,)))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(receiver))
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook/"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
