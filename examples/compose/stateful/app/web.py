"""The web service of the stateful example: GET / asks the database service for a row and
answers with JSON whose `hops` holds each service's own time (the database's as it reports it),
and a Server-Timing header with the same figures. Standard library only."""
import json
import os
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DB = os.environ["DB_URL"]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body leave at once, no delayed-ACK stalls

    def do_GET(self):
        start = time.perf_counter()
        if self.path == "/healthz":
            return self.answer(200, {"ok": True}, {})
        asked = time.perf_counter()
        with urllib.request.urlopen(DB + "row/1", timeout=5) as r:
            row = json.loads(r.read())
        waited = time.perf_counter() - asked
        hops = {"web": round(time.perf_counter() - start - waited, 6), **row.pop("hops")}
        self.answer(200, {"row": row, "hops": hops}, hops)

    def answer(self, status, body, hops):
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        timing = ", ".join(f"{k};dur={v * 1000:.3f}" for k, v in hops.items())
        if timing:
            self.send_header("server-timing", timing)
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("0.0.0.0", 8080), Handler).serve_forever()
