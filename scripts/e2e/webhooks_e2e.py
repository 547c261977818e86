#!/usr/bin/env python3
"""Webhooks and the change stream end to end, against the real binary: a
receiver that verifies every signature with the `standardwebhooks` package
from PyPI (a third-party verifier, run with --python), `serve --webhooks`,
imports by `confapi import`, an SSE client, a receiver that is down, a
`kill -9` of the sender mid-delivery, and (with --postgres) two replicas:
each delivery made once, and the other replica taking over within 10 s
when the sender is killed.

    scripts/e2e/webhooks_e2e.py --binary target/debug/confapi --python VENV/bin/python [--postgres ADMIN_URL]

Prints `ok`/`FAIL` per check and `webhooks e2e (LABEL): N passed, M failed`.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import datetime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Checks, Server, fresh_postgres_database  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATASET = os.path.join(ROOT, "tests", "data", "democon.json")
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

RECEIVER = r'''
import http.server, json, sys, time
import standardwebhooks
secret, port_file, out, mode_file = sys.argv[1:5]
verifier = standardwebhooks.Webhook(secret)

class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["content-length"]))
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            verifier.verify(body, headers)
            verified = True
        except Exception as err:  # any failure is a failed check
            verified = repr(err)
        mode = open(mode_file).read().strip()
        if mode == "slow":
            time.sleep(3)
        record = {"path": self.path, "id": headers.get("webhook-id"), "verified": verified,
                  "body": json.loads(body), "mode": mode, "t": time.time()}
        with open(out, "a") as fp:
            fp.write(json.dumps(record) + "\n")
        if mode == "down":
            self.send_response(503)
            self.send_header("Retry-After", "1")
        else:
            self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
open(port_file, "w").write(str(server.server_address[1]))
server.serve_forever()
'''


class Receiver:
    def __init__(self, python, work):
        self.out = os.path.join(work, "received.jsonl")
        self.mode_file = os.path.join(work, "mode")
        port_file = os.path.join(work, "receiver.port")
        script = os.path.join(work, "receiver.py")
        open(script, "w").write(RECEIVER)
        self.mode("ok")
        open(self.out, "w").close()
        self.proc = subprocess.Popen([python, script, SECRET, port_file, self.out, self.mode_file])
        deadline = time.time() + 30
        while not (os.path.exists(port_file) and open(port_file).read()):
            if time.time() > deadline:
                raise RuntimeError("the receiver did not start")
            time.sleep(0.05)
        self.base = f"http://127.0.0.1:{open(port_file).read()}"

    def mode(self, mode):
        open(self.mode_file, "w").write(mode)

    def records(self, path=None):
        with open(self.out) as fp:
            rows = [json.loads(line) for line in fp if line.strip()]
        return [r for r in rows if path is None or r["path"] == path]

    def delivered(self, path):
        """Accepted deliveries (not while down), in arrival order."""
        return [r for r in self.records(path) if r["mode"] != "down"]

    def wait(self, path, count, within):
        deadline = time.time() + within
        while time.time() < deadline:
            got = self.delivered(path)
            if len(got) >= count:
                return got
            time.sleep(0.05)
        return self.delivered(path)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def get(url, token=None):
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


class Stream:
    """An SSE client in a thread: every `data:` item it reads."""

    def __init__(self, url):
        self.items = []
        request = urllib.request.Request(url, headers={"Accept": "text/event-stream"})
        self.response = urllib.request.urlopen(request, timeout=60)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for line in self.response:
                line = line.decode().rstrip("\n")
                if line.startswith("data: "):
                    self.items.append((time.time(), json.loads(line[6:])))
        except Exception:
            pass


def retitle(data, dataset_path, title):
    talk = next(s for s in data["events"][0]["submissions"]
                if s["state"] in ("confirmed", "accepted") and s.get("slots"))
    talk["title"] = title
    json.dump(data, open(dataset_path, "w"))


def run_import(binary, db_url, dataset_path):
    subprocess.run([binary, "import", "--db", db_url, dataset_path], check=True, capture_output=True,
                   env=dict(os.environ, CONFAPI_LOG="warn"))


def generation_after(server_url, previous):
    """The server's generation once it serves one newer than `previous`."""
    deadline = time.time() + 10
    while time.time() < deadline:
        generation = get(f"{server_url}/api/events/democon/changes/")["generation"]
        if generation > previous:
            return generation
        time.sleep(0.05)
    raise RuntimeError(f"{server_url} did not load the import")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--python", required=True, help="a Python with standardwebhooks installed")
    parser.add_argument("--postgres", help="an admin URL: run on PostgreSQL, with two replicas")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    label = "postgres" if args.postgres else "sqlite"
    check = Checks(limit=400)
    work = tempfile.mkdtemp(prefix="webhooks-e2e-")
    data = json.load(open(DATASET))
    orga = next(u for u in data["users"] if u["email"] == "orga@example.org")
    dataset_path = os.path.join(work, "democon.json")
    json.dump(data, open(dataset_path, "w"))
    if args.postgres:
        db_url = fresh_postgres_database(args.postgres, "confapi_webhooks_e2e")
    else:
        db_url = f"sqlite://{work}/confapi.db"
    run_import(args.binary, db_url, dataset_path)
    receiver = Receiver(args.python, work)
    hooks = os.path.join(work, "webhooks.json")
    json.dump([
        {"event": "democon", "url": f"{receiver.base}/public", "secret": SECRET},
        {"event": "democon", "url": f"{receiver.base}/orga", "secret": SECRET, "as": orga["code"]},
    ], open(hooks, "w"))
    extra = ["--webhooks", hooks, "--webhooks-allow-private", "--poll-interval-ms", "100"]
    servers = []

    def serve(name):
        server = Server(args.binary, db_url, work, name, extra=extra)
        servers.append(server)
        return server

    try:
        first = serve("first")
        time.sleep(1.5)  # the subscriptions start from the generation they first see
        stream = Stream(f"{first.url}/api/events/democon/changes/")
        before = get(f"{first.url}/api/events/democon/changes/")["generation"]

        # 1. A retitled public talk reaches both views, signed, within 2 s.
        retitle(data, dataset_path, "Retitled once")
        run_import(args.binary, db_url, dataset_path)
        public = receiver.wait("/public", 1, 10)
        organiser = receiver.wait("/orga", 1, 10)
        check("the public view is delivered", len(public) == 1, public)
        check("the organiser view is delivered", len(organiser) == 1, organiser)
        every = receiver.records()
        check("every signature verifies with the standardwebhooks package from PyPI",
              every and all(r["verified"] is True for r in every), every)
        if public:
            item = public[0]["body"]
            at = datetime.fromisoformat(item["at"].replace("Z", "+00:00")).timestamp()
            latency = public[0]["t"] - at
            check("delivered within 2 s of the import", latency < 2, f"{latency:.2f} s")
            feed = get(f"{first.url}/api/events/democon/changes/?since={before}")
            check("the payload is the public feed's item", feed["results"] == [item], (feed, item))
            check("webhook-id is the subscription and the generation",
                  public[0]["id"].endswith(f"_{item['generation']}"), public[0]["id"])
        if organiser:
            feed = get(f"{first.url}/api/events/democon/changes/?since={before}", orga["tokens"][0])
            check("the organiser payload is the organiser feed's item",
                  feed["results"] == [organiser[0]["body"]], (feed, organiser))
        deadline = time.time() + 5
        while not stream.items and time.time() < deadline:
            time.sleep(0.05)
        check("an SSE client gets the same item", [i for _, i in stream.items][:1] == [public[0]["body"]] if public else False,
              stream.items)

        # 2. Down, then up: everything, in order, with stable ids.
        receiver.mode("down")
        generations = []
        latest = get(f"{first.url}/api/events/democon/changes/")["generation"]
        for i in range(3):
            retitle(data, dataset_path, f"Retitled while down {i}")
            run_import(args.binary, db_url, dataset_path)
            latest = generation_after(first.url, latest)
            generations.append(latest)
        time.sleep(2)
        tried = [r["id"] for r in receiver.records("/public") if r["mode"] == "down"]
        check("the sender retries while the receiver is down", len(tried) >= 2, tried)
        check("only the oldest is retried while it fails",
              tried and all(t.endswith(f"_{generations[0]}") for t in tried), tried)
        receiver.mode("ok")
        got = receiver.wait("/public", 4, 20)[1:]
        check("after the receiver is back, every generation arrives in order",
              [r["body"]["generation"] for r in got] == generations, [r["body"]["generation"] for r in got])
        check("a retried delivery keeps its webhook-id", got and tried and got[0]["id"] == tried[0],
              (tried, [r["id"] for r in got]))

        # 3. kill -9 of the sender mid-delivery: delivered after the restart.
        receiver.mode("slow")
        retitle(data, dataset_path, "Retitled before the kill")
        run_import(args.binary, db_url, dataset_path)
        killed_generation = generation_after(first.url, generations[-1])
        time.sleep(1)  # the delivery is in flight (the receiver takes 3 s)
        first.proc.send_signal(signal.SIGKILL)
        first.proc.wait()
        receiver.mode("ok")
        if args.postgres:
            time.sleep(5)  # the dead sender's lease expires
        second = serve("second")
        deadline = time.time() + 20
        while time.time() < deadline:
            mine = [r for r in receiver.records("/public") if r["body"]["generation"] == killed_generation]
            if any(r["mode"] == "ok" for r in mine):
                break
            time.sleep(0.1)
        mine = [r for r in receiver.records("/public") if r["body"]["generation"] == killed_generation]
        check("a delivery cut by kill -9 is made after the restart", any(r["mode"] == "ok" for r in mine), mine)
        check("... with the same webhook-id each time", len({r["id"] for r in mine}) == 1, mine)
        first.log.close()

        if args.postgres:
            # 4. Two replicas: each delivery once; the sender killed, the other takes over.
            third = serve("third")
            time.sleep(1)
            start = len(receiver.records("/public"))
            latest = get(f"{second.url}/api/events/democon/changes/")["generation"]
            for i in range(4):
                retitle(data, dataset_path, f"Retitled with two replicas {i}")
                run_import(args.binary, db_url, dataset_path)
                latest = generation_after(second.url, latest)
            receiver.wait("/public", start + 4, 15)
            time.sleep(1)
            ids = [r["id"] for r in receiver.records("/public")[start:]]
            check("two replicas make each delivery once", len(ids) == 4 and len(set(ids)) == 4, ids)
            holder = None
            for server in (second, third):
                with open(server.log_path) as fp:
                    if "this process sends" in fp.read():
                        holder = server
            check("one replica holds the sender's lease", holder is not None)
            if holder is not None:
                other = third if holder is second else second
                holder.proc.send_signal(signal.SIGKILL)
                holder.proc.wait()
                servers.remove(holder)
                holder.log.close()
                retitle(data, dataset_path, "Retitled after the sender died")
                killed_at = time.time()
                run_import(args.binary, db_url, dataset_path)
                generation = generation_after(other.url, latest)
                deadline = killed_at + 15
                arrived = None
                while time.time() < deadline:
                    if any(r["body"]["generation"] == generation for r in receiver.delivered("/public")):
                        arrived = time.time()
                        break
                    time.sleep(0.1)
                check("the other replica takes over within 10 s",
                      arrived is not None and arrived - killed_at < 10,
                      None if arrived is None else f"{arrived - killed_at:.1f} s")
        for server in servers:
            problems = [p for p in server.log_problems() if "webhooks" not in p]
            check(f"no errors or 5xx in the {os.path.basename(server.log_path)}", not problems, problems[:5])
    finally:
        for server in servers:
            try:
                server.stop()
            except Exception:
                pass
        receiver.stop()
        if args.keep:
            print(f"     kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"webhooks e2e ({label}): {check.passed} passed, {check.failed} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
