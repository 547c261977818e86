"""Shared pieces of the end-to-end scripts: a real `confapi serve` on a free
loopback port, and psql for PostgreSQL housekeeping. Standard library only."""

import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request


class Checks:
    """Counts checks and prints each: `ok   name`, or `FAIL name: detail`
    (the detail cut at `limit` characters)."""

    def __init__(self, limit=None):
        self.passed = self.failed = 0
        self.limit = limit

    def __call__(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}: {str(detail)[: self.limit]}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def psql(admin_url, *statements):
    args = ["psql", "-q", admin_url]
    for statement in statements:
        args += ["-c", statement]
    subprocess.run(args, check=True, capture_output=True)


def fresh_postgres_database(admin_url, name):
    """Creates an empty database and returns its URL."""
    psql(admin_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", f"CREATE DATABASE {name}")
    return admin_url.rsplit("/", 1)[0] + "/" + name


class Server:
    """`confapi serve` on a fresh port; `datasets` are imported first."""

    def __init__(self, binary, db_url, workdir, name, datasets=(), extra=(), log_level="info"):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db_url = db_url
        self.log_path = os.path.join(workdir, f"{name}.log")
        # No drain on stop: these servers sit behind no load balancer, and
        # every stop would otherwise take --drain-seconds (default 5).
        env = dict(os.environ, CONFAPI_LOG=log_level, CONFAPI_DRAIN_SECONDS="0")
        if datasets:
            subprocess.run([binary, "import", "--db", db_url, *datasets], check=True, env=env,
                           capture_output=True)
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [binary, "serve", "--db", db_url, "--listen", f"127.0.0.1:{self.port}", *extra],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        # Ready once the first catalog is loaded (it loads in the background).
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/readyz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"server {name} did not become ready; see {self.log_path}")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()

    def log_problems(self):
        """ERROR lines and 5xx answers in the server's log."""
        with open(self.log_path, encoding="utf-8", errors="replace") as fp:
            return [line.strip() for line in fp
                    if " ERROR " in line or re.search(r"status=5\d\d", line)]


def tear_down(server, upstream, work, keep):
    """Stops the mirror's server (if it started) and the upstream, and
    removes the work directory unless `keep` (then names it)."""
    if server:
        server.stop()
    upstream.stop()
    if keep:
        print(f"     kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


class HookReceiver:
    """A webhook receiver on a free loopback port, in a thread: records each
    POST's headers and JSON body, and whether its Standard Webhooks
    signature (`v1,` base64 HMAC-SHA256 of `id.timestamp.body`) verifies
    with `secret` (base64 after `whsec_`). scripts/e2e/webhooks_e2e.py verifies
    with the standardwebhooks package from PyPI instead."""

    def __init__(self, secret):
        import base64
        import hashlib
        import hmac
        import http.server
        import json
        import threading

        key = base64.b64decode(secret.removeprefix("whsec_"))
        self.received = []
        received = self.received

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["content-length"]))
                signed = f"{self.headers['webhook-id']}.{self.headers['webhook-timestamp']}.".encode() + body
                expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
                received.append({
                    "id": self.headers["webhook-id"],
                    "verified": hmac.compare_digest(expected, self.headers.get("webhook-signature", "")),
                    "body": json.loads(body),
                })
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


class EventStream:
    """A Server-Sent Events client in a thread: the JSON of every `data:`."""

    def __init__(self, url, token=None):
        import json
        import threading

        request = urllib.request.Request(url, headers={"Accept": "text/event-stream"})
        if token:
            request.add_header("Authorization", f"Token {token}")
        self.items = []
        self.response = urllib.request.urlopen(request, timeout=120)

        def read():
            try:
                for line in self.response:
                    line = line.decode().rstrip("\n")
                    if line.startswith("data: "):
                        self.items.append(json.loads(line[6:]))
            except Exception:
                pass

        threading.Thread(target=read, daemon=True).start()
