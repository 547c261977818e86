#!/usr/bin/env python3
"""PostgreSQL end to end: replicas and faults (standard library only).

1. Replicas: two `confapi serve` processes on one PostgreSQL database serve
   democon.json under load from several client threads while `confapi import`
   replaces the event with a changed version. Every answer must be 200 and
   whole: all of the old version or all of the new one, never a mix; every
   request sent after the import committed (the import command exited) must
   see the new version, on both replicas, with no restart.
2. Faults: with the cluster stopped, the server keeps running and answers
   503 {"detail": ...} quickly instead of hanging (/healthz stays 200); when
   the cluster is started again it recovers by itself.

Usage: scripts/e2e/postgres_e2e.py --binary target/debug/confapi
           --postgres postgres://postgres@127.0.0.1:5432/test [--skip-faults]
The last line is "N passed, N failed".
"""

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Server, fresh_postgres_database, psql  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMOCON = os.path.join(ROOT, "tests", "data", "democon.json")
ORGA_EMAIL = "orga@example.org"

passed = 0
failed = 0


def check(ok, message):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok: {message}", flush=True)
    else:
        failed += 1
        print(f"FAILED: {message}", flush=True)


def get(url, token=None, timeout=10):
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def new_version(doc):
    """democon changed everywhere a reader could notice a mix."""
    doc = copy.deepcopy(doc)
    event = next(e for e in doc["events"] if e["slug"] == "democon")
    event["name"] = {"en": "DemoCon v2"}
    removed = event["submissions"].pop()["code"]
    event["answers"] = [a for a in event["answers"] if a.get("submission") != removed]
    kept_reviews = [r for r in event["reviews"] if r["submission"] != removed]
    kept_ids = {r["id"] for r in kept_reviews}
    event["answers"] = [a for a in event["answers"] if a.get("review") is None or a["review"] in kept_ids]
    event["reviews"] = kept_reviews
    for sub in event["submissions"]:
        sub["title"] += " (v2)"
    return doc


def replicas(binary, admin, workdir):
    with open(DEMOCON, encoding="utf-8") as fp:
        old = json.load(fp)
    token = next(u["tokens"][0] for u in old["users"] if u["email"] == ORGA_EMAIL)
    new = new_version(old)
    new_path = os.path.join(workdir, "democon-v2.json")
    with open(new_path, "w", encoding="utf-8") as fp:
        json.dump(new, fp)
    old_count = len(next(e for e in old["events"] if e["slug"] == "democon")["submissions"])
    new_count = old_count - 1

    database = f"confapi_replicas_{os.getpid()}"
    db_url = fresh_postgres_database(admin, database)
    subprocess.run([binary, "import", "--db", db_url, DEMOCON], check=True, capture_output=True)
    servers = [Server(binary, db_url, workdir, f"replica-{i}", log_level="warn") for i in range(2)]

    committed_at = [None]
    stop = threading.Event()
    problems = []
    seen = {"old": 0, "new": 0, "after": 0}
    lock = threading.Lock()

    def classify(body):
        results = json.loads(body)["results"]
        suffixed = sum(1 for s in results if s["title"].endswith(" (v2)"))
        if suffixed == 0 and len(results) == old_count:
            return "old"
        if suffixed == len(results) == new_count:
            return "new"
        return f"MIXED ({suffixed} of {len(results)} titles changed)"

    def worker(server):
        while not stop.is_set():
            sent = time.monotonic()
            status, body = get(server.url + "/api/events/democon/submissions/?limit=1000", token)
            if status != 200:
                with lock:
                    problems.append(f"{server.url}: status {status}: {body[:200]!r}")
                continue
            version = classify(body)
            with lock:
                if version not in ("old", "new"):
                    problems.append(f"{server.url}: {version}")
                else:
                    seen[version] += 1
                # A committed import is served by every replica within a second
                # (the poll interval plus the time to load what changed).
                if committed_at[0] is not None and sent > committed_at[0] + 1.0:
                    seen["after"] += 1
                    if version != "new":
                        problems.append(f"{server.url}: old data {sent - committed_at[0]:.3f}s after the import committed")

    threads = [threading.Thread(target=worker, args=(s,)) for s in servers for _ in range(3)]
    for t in threads:
        t.start()
    time.sleep(2)
    result = subprocess.run([binary, "import", "--db", db_url, new_path], capture_output=True, text=True)
    committed_at[0] = time.monotonic()
    time.sleep(2)
    stop.set()
    for t in threads:
        t.join()
    for s in servers:
        s.stop()
    psql(admin, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")

    check(result.returncode == 0, f"import under load succeeded ({result.stderr.strip()})")
    check(not problems, f"replicas: every answer 200 and whole, new data right after the commit "
                        f"(old {seen['old']}, new {seen['new']}, after commit {seen['after']}); "
                        f"problems: {problems[:5]}")
    check(seen["old"] > 0 and seen["after"] > 0, "replicas: load ran before and after the import")


def faults(binary, admin, workdir):
    cluster = sorted(os.listdir("/etc/postgresql"))[-1]
    ctl = ["pg_ctlcluster", "--skip-systemctl-redirect", cluster, "main"]
    database = f"confapi_faults_{os.getpid()}"
    db_url = fresh_postgres_database(admin, database)
    server = Server(binary, db_url, workdir, "faults", datasets=[DEMOCON],
                    extra=["--db-connect-timeout-ms", "2000"], log_level="warn")
    try:
        status, _ = get(server.url + "/api/events/democon/talks/")
        check(status == 200, "faults: 200 while the database is up")

        subprocess.run(ctl + ["stop", "-m", "fast"], check=True, capture_output=True)
        # The next storage poll notices; until then the last snapshot serves.
        started = time.monotonic()
        slowest = 0.0
        while True:
            sent = time.monotonic()
            status, body = get(server.url + "/api/events/democon/talks/", timeout=15)
            slowest = max(slowest, time.monotonic() - sent)
            if status != 200 or time.monotonic() - started > 10:
                break
            time.sleep(0.05)
        elapsed = time.monotonic() - started
        detail = json.loads(body or b"{}").get("detail") if body else None
        check(status == 503 and isinstance(detail, str), f"faults: 503 with a detail when the database is gone (got {status} {body[:120]!r})")
        check(elapsed < 5 and slowest < 1, f"faults: 503 after {elapsed:.2f}s, slowest answer {slowest:.2f}s, no hang")
        status, _ = get(server.url + "/readyz")
        check(status == 503, "faults: /readyz 503 while the database is gone")
        status, _ = get(server.url + "/healthz")
        check(status == 200, "faults: /healthz still 200, the process keeps running")
        check(server.proc.poll() is None, "faults: the server process is alive")
    finally:
        subprocess.run(ctl + ["start"], check=True, capture_output=True)
    deadline = time.time() + 30
    status = None
    while time.time() < deadline:
        status, _ = get(server.url + "/api/events/democon/talks/")
        if status == 200:
            break
        time.sleep(0.5)
    check(status == 200, "faults: recovered by itself after the database returned")
    server.stop()
    psql(admin, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--postgres", required=True, metavar="ADMIN_URL")
    parser.add_argument("--skip-faults", action="store_true")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    workdir = tempfile.mkdtemp(prefix="confapi-pg-")
    replicas(binary, args.postgres, workdir)
    if not args.skip_faults:
        faults(binary, args.postgres, workdir)
    print(f"postgres e2e: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
