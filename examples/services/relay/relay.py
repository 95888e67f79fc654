"""One hop of an HTTP chain or tree: a relay, or a leaf when NEXT is empty.

Env: PORT (listen port, default 8080), HOP (this hop's name, default "relay"), NEXT (URL of the
next hop; empty = leaf, answer at once), WORK_MS (optional busy work per request, in CPU
milliseconds, so a CPU-limited container takes longer in wall time, as real work would).

Every request except GET /healthz is forwarded to NEXT with its method and body over a
persistent HTTP/1.1 connection (one per incoming connection, reconnected on failure), and
answered with
    {"hop": HOP, "instance": "<hostname>:<PORT>", "hops": {HOP: seconds, <downstream's hops>}}
and the same figures, in milliseconds, as `Server-Timing: relay1;dur=0.310, relay2;dur=...`.

Why self-reported: the load generator sees only the end-to-end time. What one hop costs (from
reading its request to composing its answer, less the wait for the hops after it) is known only
inside the hop, so each hop measures itself and the figures travel back with the answer, as an RPC
mesh reports its per-hop latency. Standard library only: the image is Debian's python3, no more.
"""

import http.client
import json
import os
import signal
import socket
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(os.environ.get("PORT") or 8080)
HOP = os.environ.get("HOP") or "relay"
NEXT = urllib.parse.urlsplit(os.environ.get("NEXT") or "")
WORK_SEC = float(os.environ.get("WORK_MS") or 0) / 1000
INSTANCE = f"{socket.gethostname()}:{PORT}"  # tells replicas apart (container name or port)


def busy(seconds):
    """Spins for `seconds` of this thread's CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


class Hop(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive; every answer sets Content-Length
    disable_nagle_algorithm = True  # headers and body leave at once, no delayed-ACK stalls
    downstream = None  # this connection's http.client connection to NEXT

    def log_message(self, *args):  # no line per request
        pass

    def parse_request(self):  # the request line is in: the hop's time starts here
        self.start = time.perf_counter()
        return super().parse_request()

    def finish(self):
        super().finish()
        if self.downstream:
            self.downstream.close()

    def do_GET(self):
        if self.path == "/healthz":
            self.answer(200, b"ok\n", "text/plain")
        else:
            self.handle_request()

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", ""):
            body = b""
            while size := int(self.rfile.readline().split(b";")[0], 16):
                body += self.rfile.read(size)
                self.rfile.readline()
            while self.rfile.readline() not in (b"\r\n", b"\n", b""):  # trailers
                pass
            return body
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def outgoing_headers(self):
        """Headers of the request to NEXT (relay_otel.py adds the trace context)."""
        return {"Content-Type": self.headers.get("Content-Type", "application/octet-stream")}

    def forward(self, body):
        """Sends the request to NEXT; returns (status, parsed JSON answer)."""
        path = NEXT.path or "/"
        headers = self.outgoing_headers()
        for attempt in (1, 2):  # a kept-alive connection may have been closed: retry once
            if self.downstream is None:
                self.downstream = http.client.HTTPConnection(NEXT.netloc, timeout=30)
            try:
                self.downstream.request(self.command, path, body, headers)
                resp = self.downstream.getresponse()
                return resp.status, json.loads(resp.read() or b"{}")
            except (OSError, http.client.HTTPException):
                self.downstream.close()
                self.downstream = None
                if attempt == 2:
                    raise

    def handle_request(self):
        body = self.read_body()
        if WORK_SEC:
            busy(WORK_SEC)
        status, hops, waited = 200, {}, 0.0
        if NEXT.netloc:
            t = time.perf_counter()
            try:
                status, answer = self.forward(body)
                hops = answer.get("hops") or {}
                status = 200 if status == 200 else 502
            except (OSError, http.client.HTTPException, ValueError) as err:
                status, hops = 502, {}
                print(f"{HOP}: {NEXT.netloc}: {err!r}", file=sys.stderr, flush=True)
            waited = time.perf_counter() - t
        self.done = time.perf_counter()  # the hop's time ends here (relay_otel.py ends its span here)
        hops = {HOP: round(self.done - self.start - waited, 6), **hops}
        timing = ", ".join(f"{name};dur={sec * 1000:.3f}" for name, sec in hops.items())
        payload = json.dumps({"hop": HOP, "instance": INSTANCE, "hops": hops}).encode() + b"\n"
        self.answer(status, payload, "application/json", {"Server-Timing": timing})

    def answer(self, status, payload, content_type, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    do_POST = do_PUT = do_PATCH = do_DELETE = handle_request


class Server(ThreadingHTTPServer):
    request_queue_size = 1024  # the default backlog of 5 drops connections under open-loop load


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # as PID 1 in a container, too
    server = Server(("", PORT), Hop)
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()
