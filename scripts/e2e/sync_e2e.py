#!/usr/bin/env python3
"""End-to-end tests of `confapi sync` against a legacy-API upstream.

The upstream is ../shared/conformance/oracle_server.py serving democon.json
(the API and the schedule exports), behind a small fault-injecting proxy.
The mirror is synced with an administrator token and an access file made of
democon's users and each event's slug, name, date_from, teams and
review_phase (plus what neither the legacy API nor the exports show: track
colours of unused tracks, submission types' default durations and the
inactive questions; never the optional export fields: user ids, track
descriptions), then served and checked with conformance.py and
compare_exports.py (100 %: pretalx's ids, guids, breaks, version and release
time came across from the exports).
Then: a second sync writes nothing and keeps every ETag; one changed
submission rewrites one record; an event the upstream refuses (403, as
pretalx does for a token not bound to it) is skipped with one line and
deleted from the mirror by a sync of every event, fails a sync that names
it with --event, and a sync where every event refuses fails and changes
nothing; and faults (connection dropped mid-sync,
500, 429 with Retry-After, truncated JSON, an export answering 500 or cut
off) each fail the sync and leave the mirror serving the previous data,
whole. An event gone upstream stays with `--event` and is deleted by a sync
of every event (the API then answers as for an unknown event, its exports
404, the other event is still served); an upstream listing no event at all
deletes nothing. Last, the real pretalx 2024.3.1
event of ../shared/exports/democon/dataset.json (ids, guids, a break, a talk
with two slots, a primary colour, track descriptions) is mirrored and must
pass both suites in full, with its ids and guids as pretalx has them.

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
from e2e import Checks, Server, free_port, fresh_postgres_database  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared")
DEMOCON = os.path.join(SHARED, "datasets", "democon.json")
# What a real pretalx 2024.3.1 holds for its democon event (with ids, guids, breaks).
PRETALX_DEMOCON = os.path.join(SHARED, "exports", "democon", "dataset.json")

check = Checks()


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
    answers, connections are closed without a reply), "export-500" (the
    frab JSON export answers 500), "export-truncate" (the widget data cut
    in half)."""

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
                # A token not bound to an event: pretalx refuses its API
                # and its exports, but still lists it.
                forbidden = mode.split(":", 1)[1].split(",") if mode and mode.startswith("forbid:") else []
                if any(self.path.startswith(f"/api/events/{slug}/") or self.path.startswith(f"/{slug}/")
                       for slug in forbidden):
                    return self.reply(403, b'{"detail": "You do not have permission to perform this action."}')
                if mode == "500" or (mode == "export-500" and "/schedule/export/" in self.path):
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
                if (mode == "truncate" and "/submissions" in self.path) or \
                        (mode == "export-truncate" and "/widgets/" in self.path):
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
    review_phase, plus what no upstream answer shows (review assignments,
    submission types' durations, colours of unused tracks). Not what the
    schedule exports show (user ids, track descriptions and positions), nor
    which questions are inactive (the public's questions list tells): those
    must come across from the upstream."""
    users = [{k: v for k, v in u.items() if k != "id"} for u in dataset["users"]]
    access = {"format": "cfp-dataset", "version": 1, "users": users, "events": []}
    for event in dataset["events"]:
        entry = {k: event[k] for k in ("slug", "name", "date_from", "teams", "review_phase") if k in event}
        entry["tracks"] = [{k: v for k, v in t.items() if k not in ("description", "position")}
                           for t in event.get("tracks", [])]
        entry["submission_types"] = event.get("submission_types", [])
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
                                                 "answers", "questions", "rooms", "tags")] + \
            [f"/democon/{export}" for export in ("schedule/export/schedule.json", "schedule.xml",
                                                  "schedule/widgets/schedule.json", "schedule/feed.xml")]:
        request = urllib.request.Request(url + path, headers={"Authorization": f"Token {token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            seen[path] = (response.headers.get("ETag"), response.read())
    return seen


def suite(script, server_url, dataset):
    """Runs a ../shared suite against the mirror: (passed in full, last line)."""
    result = subprocess.run(
        [sys.executable, os.path.join(SHARED, "conformance", script), "--against", server_url,
         "--dataset", dataset],
        capture_output=True, text=True, timeout=600)
    last = (result.stdout.strip().splitlines() or [""])[-1]
    m = re.match(r"(\d+) passed, (\d+) failed", last)
    ok = result.returncode == 0 and m and m.group(2) == "0" and int(m.group(1)) > 0
    fails = [line for line in result.stdout.splitlines() if line.startswith("FAIL")][:5]
    return ok, last, "\n".join(fails) + result.stderr[-2000:]


def get(url, token=None):
    """(status, body) of a GET."""
    headers = {"Authorization": f"Token {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def export_fields(document):
    """What the schedule exports carry across: per event the release, its
    breaks, the colour, track descriptions, and every visible slot's id and
    guid by submission (with the submission's id); user ids by code."""
    out = {"users": {u["code"]: u.get("id") for u in document["users"] if u.get("id")}}
    for event in document["events"]:
        schedule = event.get("schedule") or {}
        out[event["slug"]] = {
            "version": schedule.get("version"),
            "published": schedule.get("published"),
            "breaks": schedule.get("breaks", []),
            "primary_color": event.get("primary_color"),
            "tracks": {t["id"]: t.get("description") for t in event.get("tracks", [])},
            "talks": {s["code"]: (s.get("id"), [(sl.get("id"), sl.get("guid"), sl["start"])
                                                for sl in s.get("slots", []) if sl["is_visible"]])
                      for s in event.get("submissions", []) if any(sl["is_visible"] for sl in s.get("slots", []))},
        }
    return out


def pretalx_event(binary, work, db, env):
    """The real pretalx democon, mirrored: both suites in full, and its ids
    and guids as pretalx has them."""
    with open(PRETALX_DEMOCON) as fp:
        source = json.load(fp)
    token = admin_token(source)
    access = os.path.join(work, "pretalx-access.json")
    access_file(source, access)
    oracle = Oracle(PRETALX_DEMOCON)
    server = None
    try:
        result = subprocess.run(
            [binary, "sync", "--from", oracle.url, "--token", token, "--access", access, "--db", db],
            capture_output=True, text=True, env=env, timeout=120)
        check("pretalx democon: the sync succeeds", result.returncode == 0, result.stderr)
        again = subprocess.run(
            [binary, "sync", "--from", oracle.url, "--token", token, "--access", access, "--db", db],
            capture_output=True, text=True, env=env, timeout=120)
        check("pretalx democon: a second sync writes nothing (ids and guids are filled the same way)",
              again.returncode == 0 and "nothing changed" in again.stderr, again.stderr)
        server = Server(binary, db, work, "pretalx-mirror")
        for script in ("conformance.py", "compare_exports.py"):
            ok, last, detail = suite(script, server.url, PRETALX_DEMOCON)
            check(f"pretalx democon: every {script} check passes against the mirror", ok, last + detail)
            print(f"     {script}: {last}")
        exported = json.loads(subprocess.run([binary, "export", "--db", db], capture_output=True,
                                             check=True, timeout=60).stdout)
        mirrored, expected = export_fields(exported), export_fields(source)
        # A talk with two slots: pretalx gives both one guid; the contract
        # (exports.md) gives each slot its own, and that is what the upstream
        # shows. Only that talk's guids differ.
        for fields in (mirrored, expected):
            for talk in fields["democon"]["talks"].values():
                if len(talk[1]) > 1:
                    talk[1][:] = [(i, "one guid per slot", start) for i, _, start in talk[1]]
        check("pretalx democon: ids, guids, breaks, release, colour and track descriptions are pretalx's",
              mirrored["democon"] == expected["democon"],
              json.dumps({k: (mirrored["democon"][k], expected["democon"][k]) for k in expected["democon"]
                          if mirrored["democon"][k] != expected["democon"][k]})[:3000])
        wrong = {c: (i, expected["users"].get(c)) for c, i in mirrored["users"].items()
                 if expected["users"].get(c) != i}
        check("pretalx democon: speakers of scheduled talks carry pretalx's user ids",
              len(mirrored["users"]) > 0 and not wrong, wrong)
    finally:
        if server:
            server.stop()
        oracle.stop()


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
        ok, last, detail = suite("conformance.py", server.url, DEMOCON)
        check("every oracle case passes against the mirror", ok, last + detail)
        print(f"     conformance: {last}")
        ok, last, detail = suite("compare_exports.py", server.url, DEMOCON)
        check("every schedule export of the mirror matches the oracle (ids, guids, release)", ok, last + detail)
        print(f"     compare_exports: {last}")

        before = snapshot(server.url, token)
        status, out = sync()
        check("a second sync with nothing changed writes nothing", status == 0 and "nothing changed" in out, out)
        check("... and keeps every ETag and body", snapshot(server.url, token) == before)

        for mode, expect in [("drop-after-5", "GET http"), ("500", "500"), ("429", "429"),
                             ("truncate", "malformed JSON"),
                             ("export-500", "/schedule/export/schedule.json: answered 500"),
                             ("export-truncate", "/schedule/widgets/schedule.json: malformed JSON")]:
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
        feed_url = f"{server.url}/api/events/{changed['events'][0]['slug']}/changes/"
        feed_request = urllib.request.Request(feed_url, headers={"Authorization": f"Token {token}"})
        with urllib.request.urlopen(feed_request, timeout=10) as response:
            generation = json.load(response)["generation"]
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
        # One feed item, naming that submission only (as a submission and,
        # where it is one, a talk): a sync's feed is the difference of the
        # lists, as an import's is.
        feed_request = urllib.request.Request(f"{feed_url}?since={generation}",
                                              headers={"Authorization": f"Token {token}"})
        with urllib.request.urlopen(feed_request, timeout=10) as response:
            feed = json.load(response)
        changes = [change for item in feed["results"] for change in item["changes"]]
        check("... and the feed has one item, that submission updated",
              len(feed["results"]) == 1 and changes
              and all(change.get("code") == target["code"] and change["action"] == "updated"
                      and change["kind"] in ("submission", "talk") for change in changes),
              json.dumps(feed))

        # An event the token may not read (pretalx binds tokens to events,
        # but lists every event of the user's teams): skipped, and deleted
        # from the mirror by a sync of every event.
        before = snapshot(server.url, token)
        proxy.set("forbid:privcon,democon")
        status, out = sync()
        check("a sync where the token may read no listed event fails and names them",
              status == 1 and "the token may read none of the events the upstream lists: "
              "privcon (403), democon (403)" in out and "nothing changed" in out, out)
        check("... and the mirror serves the previous data, whole", snapshot(server.url, token) == before)
        proxy.set("forbid:privcon")
        result = subprocess.run(
            [binary, "sync", "--from", proxy.url, "--token", token, "--access", access, "--db", db,
             "--event", "privcon"],
            capture_output=True, text=True, env=env, timeout=120)
        check("--event of an event the token may not read fails with that message",
              result.returncode == 1 and "--event privcon: 403: the token may not read it" in result.stderr
              and "nothing changed" in result.stderr, result.stderr)
        check("... and changes nothing", snapshot(server.url, token) == before)
        status, out = sync()
        check("a sync of every event skips the one the token may not read, with one line naming it",
              status == 0 and out.count("skipped: privcon (403: the token may not read it)") == 1
              and "deleted: privcon" in out, out)
        deadline = time.monotonic() + 2.0
        while get(f"{server.url}/api/events/privcon/", token)[0] != 403 and time.monotonic() < deadline:
            time.sleep(0.05)
        check("... it is gone from the mirror (the API's 403, as for an unknown event)",
              get(f"{server.url}/api/events/privcon/", token)[0] == 403
              and get(f"{server.url}/api/events/democon/talks/")[0] == 200)
        proxy.set(None)
        status, out = sync()
        deadline = time.monotonic() + 2.0
        while get(f"{server.url}/api/events/privcon/", token)[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        check("... and mirrored again once the token may read it",
              status == 0 and "record(s) written" in out
              and get(f"{server.url}/api/events/privcon/", token)[0] == 200, out)

        # An event gone upstream: kept while --event restricts the sync,
        # deleted by a sync of every event.
        gone = copy.deepcopy(changed)
        gone["events"] = [e for e in gone["events"] if e["slug"] != "privcon"]
        gone_path = os.path.join(work, "without-privcon.json")
        with open(gone_path, "w") as fp:
            json.dump(gone, fp)
        oracle.stop()
        oracle = Oracle(gone_path)
        proxy.upstream = oracle.url
        result = subprocess.run(
            [binary, "sync", "--from", proxy.url, "--token", token, "--access", access, "--db", db,
             "--event", "democon"],
            capture_output=True, text=True, env=env, timeout=120)
        time.sleep(1.0)  # past the server's next poll
        check("with --event, an event gone upstream stays in the mirror",
              result.returncode == 0 and "nothing changed" in result.stderr
              and get(f"{server.url}/api/events/privcon/", token)[0] == 200, result.stderr)
        status, out = sync()
        check("a sync of every event deletes the event gone upstream and says so",
              status == 0 and "deleted: privcon" in out, out)
        unknown = get(f"{server.url}/api/events/nosuchevent/", token)
        deadline = time.monotonic() + 2.0
        while get(f"{server.url}/api/events/privcon/", token) != unknown and time.monotonic() < deadline:
            time.sleep(0.05)
        check("... the API then answers for it as for an unknown event (403)",
              unknown[0] == 403 and get(f"{server.url}/api/events/privcon/", token) == unknown,
              get(f"{server.url}/api/events/privcon/", token))
        check("... its exports answer 404",
              get(f"{server.url}/privcon/schedule.json", token)[0] == 404)
        listed = [e["slug"] for e in json.loads(get(f"{server.url}/api/events/", token)[1])["results"]]
        check("... and the other event is still served",
              listed == ["democon"] and get(f"{server.url}/api/events/democon/talks/")[0] == 200, listed)
        empty = dict(gone, events=[])
        empty_path = os.path.join(work, "no-events.json")
        with open(empty_path, "w") as fp:
            json.dump(empty, fp)
        oracle.stop()
        oracle = Oracle(empty_path)
        proxy.upstream = oracle.url
        status, out = sync()
        # (Users are upserted from the access file alone then: no speaker seen.)
        time.sleep(1.0)  # past the server's next poll
        check("an upstream that lists no event at all deletes no event",
              status == 0 and "deleted" not in out
              and get(f"{server.url}/api/events/democon/talks/")[0] == 200, out)
        problems = server.log_problems()
        check("the mirror logged no error or 5xx", not problems, problems[:5])
    finally:
        if server:
            server.stop()
        oracle.stop()
        proxy.server.shutdown()
    pretalx_db = (fresh_postgres_database(args.postgres, "confapi_sync_e2e_pretalx") if args.postgres
                  else f"sqlite://{work}/pretalx-mirror.db")
    pretalx_event(binary, work, pretalx_db, env)
    label = "postgres" if args.postgres else "sqlite"
    print(f"sync e2e ({label}): {check.passed} passed, {check.failed} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
