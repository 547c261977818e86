#!/usr/bin/env python3
"""End-to-end tests of `confapi sync` against a legacy-API upstream.

The upstream is ../shared/conformance/oracle_server.py serving democon.json,
behind a small fault-injecting proxy. The mirror is synced with an
administrator token and an access file made of democon's users and each
event's slug, name, date_from, teams and review_phase (plus what the legacy
API cannot show: track colours, submission types' default durations and
the inactive questions), then served and checked with conformance.py.
Then: a second sync writes nothing and keeps every ETag; one changed
submission rewrites one record; and faults (connection dropped mid-sync,
500, 429 with Retry-After, truncated JSON) each fail the sync and leave the
mirror serving the previous data, whole.

Prints "N passed, N failed" last. Standard library only.
"""

import argparse
import copy
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Server, free_port, fresh_postgres_database  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared")
DEMOCON = os.path.join(SHARED, "datasets", "democon.json")

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def wait_for(url):
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer")


class Oracle:
    def __init__(self, dataset):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(SHARED, "conformance", "oracle_server.py"),
             "--dataset", dataset, "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self.url + "/api/events/")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


class FaultProxy:
    """Forwards GETs to the upstream; `mode` injects one fault:
    None, "500", "429" (always, Retry-After: 1), "429-twice" (then passes),
    "truncate" (submission lists cut in half), "drop-after-5" (after five
    answers, connections are closed without a reply)."""

    def __init__(self):
        self.upstream = None
        self.mode = None
        self.count = 0
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                with proxy.lock:
                    proxy.count += 1
                    n = proxy.count
                mode = proxy.mode
                if mode == "500":
                    return self.reply(500, b'{"detail": "boom"}')
                if mode == "429" or (mode == "429-twice" and n <= 2):
                    return self.reply(429, b'{"detail": "slow down"}', {"Retry-After": "1"})
                if mode == "drop-after-5" and n > 5:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() == "authorization"}
                request = urllib.request.Request(proxy.upstream + self.path, headers=headers)
                try:
                    with urllib.request.urlopen(request, timeout=30) as response:
                        status, body = response.status, response.read()
                except urllib.error.HTTPError as err:
                    status, body = err.code, err.read()
                if mode == "truncate" and "/submissions" in self.path:
                    body = body[: len(body) // 2]
                self.reply(status, body)

            def reply(self, status, body, extra=None):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for k, v in (extra or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # A failed sync drops its other requests: broken pipes are expected.
        self.server.handle_error = lambda request, address: None
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def set(self, mode):
        with self.lock:
            self.mode, self.count = mode, 0


def access_file(dataset, path):
    """democon's users and each event's slug, name, date_from, teams and
    review_phase, plus what the legacy API does not show."""
    access = {"format": "cfp-dataset", "version": 1, "users": dataset["users"], "events": []}
    for event in dataset["events"]:
        entry = {k: event[k] for k in ("slug", "name", "date_from", "teams", "review_phase") if k in event}
        entry["tracks"] = event.get("tracks", [])
        entry["submission_types"] = event.get("submission_types", [])
        inactive = [{"id": q["id"], "active": False} for q in event.get("questions", []) if q.get("active") is False]
        if inactive:
            entry["questions"] = inactive
        assigned = [{"code": s["code"], "assigned_reviewers": s["assigned_reviewers"]}
                    for s in event.get("submissions", []) if s.get("assigned_reviewers")]
        if assigned:
            entry["submissions"] = assigned
        access["events"].append(entry)
    with open(path, "w") as fp:
        json.dump(access, fp)


def admin_token(dataset):
    for user in dataset["users"]:
        if user.get("is_administrator") and user.get("tokens"):
            return user["tokens"][0]
    raise RuntimeError("democon has no administrator with a token")


def snapshot(url, token):
    """Bodies and ETags of every list of every event, as the organiser sees them."""
    seen = {}
    for path in ["/api/events/"] + [f"/api/events/{slug}/{what}/?limit=1000&questions=all"
                                    for slug in ("democon", "privcon")
                                    for what in ("submissions", "talks", "speakers", "reviews",
                                                 "answers", "questions", "rooms", "tags")]:
        request = urllib.request.Request(url + path, headers={"Authorization": f"Token {token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            seen[path] = (response.headers.get("ETag"), response.read())
    return seen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="target/debug/confapi")
    parser.add_argument("--postgres", help="admin URL; a fresh database is made from it")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="sync-e2e-")
    with open(DEMOCON) as fp:
        democon = json.load(fp)
    token = admin_token(democon)
    access = os.path.join(work, "access.json")
    access_file(democon, access)
    db = (fresh_postgres_database(args.postgres, "confapi_sync_e2e") if args.postgres
          else f"sqlite://{work}/mirror.db")

    oracle = Oracle(DEMOCON)
    proxy = FaultProxy()
    proxy.upstream = oracle.url
    env = dict(os.environ, CONFAPI_SYNC_BACKOFF_MS="50")

    def sync():
        result = subprocess.run(
            [binary, "sync", "--from", proxy.url, "--token", token, "--access", access, "--db", db,
             "--timeout", "5"],
            capture_output=True, text=True, env=env, timeout=120)
        return result.returncode, result.stdout + result.stderr

    server = None
    try:
        status, out = sync()
        check("first sync succeeds", status == 0 and "record(s) written" in out, out)
        check("the token is never printed", token not in out, out)
        server = Server(binary, db, work, "mirror")
        result = subprocess.run(
            [sys.executable, os.path.join(SHARED, "conformance", "conformance.py"),
             "--against", server.url, "--dataset", DEMOCON],
            capture_output=True, text=True, timeout=600)
        last = (result.stdout.strip().splitlines() or [""])[-1]
        m = re.match(r"(\d+) passed, (\d+) failed", last)
        check("every oracle case passes against the mirror",
              result.returncode == 0 and m and m.group(2) == "0" and int(m.group(1)) > 0,
              last + result.stderr[-2000:])
        print(f"     conformance: {last}")

        before = snapshot(server.url, token)
        status, out = sync()
        check("a second sync with nothing changed writes nothing", status == 0 and "nothing changed" in out, out)
        check("... and keeps every ETag and body", snapshot(server.url, token) == before)

        for mode, expect in [("drop-after-5", "GET http"), ("500", "500"), ("429", "429"),
                             ("truncate", "malformed JSON")]:
            proxy.set(mode)
            status, out = sync()
            print("     " + out.strip().splitlines()[-1][:300])
            check(f"fault {mode}: the sync fails and says why ({expect})",
                  status == 1 and expect in out and "nothing changed" in out, out)
            check(f"fault {mode}: the mirror serves the previous data, whole",
                  snapshot(server.url, token) == before)
        proxy.set(None)
        bad = "wrong-token-0123456789"
        result = subprocess.run(
            [binary, "sync", "--from", proxy.url, "--token", bad, "--access", access, "--db", db],
            capture_output=True, text=True, env=env, timeout=60)
        out = result.stdout + result.stderr
        check("a refused token fails the sync with the upstream's answer, token not shown",
              result.returncode == 1 and "401" in out and bad not in out, out)
        check("... and the mirror serves the previous data, whole", snapshot(server.url, token) == before)

        loop = subprocess.Popen(
            [binary, "sync", "--from", proxy.url, "--token", token, "--access", access, "--db", db,
             "--every", "1s"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        time.sleep(2.5)
        loop.terminate()
        rounds = [line for line in loop.communicate(timeout=10)[0].splitlines() if line.startswith("sync: ")]
        check("--every syncs again and logs one line per round",
              len(rounds) >= 2 and all("nothing changed" in line and " in " in line for line in rounds), rounds)

        proxy.set("429-twice")
        status, out = sync()
        check("429 with Retry-After is waited out, then the sync succeeds",
              status == 0 and "nothing changed" in out, out)
        proxy.set(None)

        changed = copy.deepcopy(democon)
        changed_path = os.path.join(work, "changed.json")
        target = changed["events"][0]["submissions"][0]
        target["title"] = target["title"] + " (revised)"
        with open(changed_path, "w") as fp:
            json.dump(changed, fp)
        oracle.stop()
        oracle = Oracle(changed_path)
        proxy.upstream = oracle.url
        status, out = sync()
        # The submission's record, plus the event's own row (its generation).
        written = re.search(r"(\d+) record\(s\) written", out)
        check("one changed submission rewrites only its record (and the event's generation row)",
              status == 0 and written and int(written.group(1)) <= 2, out)
        request = urllib.request.Request(
            f"{server.url}/api/events/{changed['events'][0]['slug']}/submissions/{target['code']}/",
            headers={"Authorization": f"Token {token}"})
        # The server picks the change up on its next poll: within a second.
        deadline = time.monotonic() + 1.0
        while True:
            with urllib.request.urlopen(request, timeout=10) as response:
                title = json.load(response)["title"]
            if title == target["title"] or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        check("... and the mirror serves the change within a second", title == target["title"], title)
        problems = server.log_problems()
        check("the mirror logged no error or 5xx", not problems, problems[:5])
    finally:
        if server:
            server.stop()
        oracle.stop()
        proxy.server.shutdown()
    label = "postgres" if args.postgres else "sqlite"
    print(f"sync e2e ({label}): {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
