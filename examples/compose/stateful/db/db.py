"""The database service of the stateful example: SQLite (Python's own) in a file of its named
volume, its settings from a bind-mounted config file, its password from a file secret. GET
/row/<id> answers the row with the time the query took under `hops.db`. A request without the
password is refused. Standard library only."""
import configparser
import json
import os
import sqlite3
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

config = configparser.ConfigParser()
config.read("/etc/db/db.conf")
DATA = config.get("db", "data")
DELAY = config.getfloat("db", "query_delay_ms") / 1000
PASSWORD = open("/run/secrets/db-password").read().strip()
local = threading.local()

with sqlite3.connect(DATA) as first:
    first.execute("CREATE TABLE IF NOT EXISTS kv (id INTEGER PRIMARY KEY, value TEXT)")
    first.execute("INSERT OR REPLACE INTO kv VALUES (1, 'one')")


def connection():
    if not hasattr(local, "db"):
        local.db = sqlite3.connect(DATA)
    return local.db


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body leave at once, no delayed-ACK stalls

    def do_GET(self):
        start = time.perf_counter()
        if self.path == "/healthz":
            return self.answer(200, {"ok": bool(PASSWORD)})
        row = connection().execute("SELECT id, value FROM kv WHERE id = ?", (1,)).fetchone()
        if DELAY:
            time.sleep(DELAY)
        self.answer(200, {"id": row[0], "value": row[1], "hops": {"db": round(time.perf_counter() - start, 6)}})

    def answer(self, status, body):
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("0.0.0.0", 7000), Handler).serve_forever()
