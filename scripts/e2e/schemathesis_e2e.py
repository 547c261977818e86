#!/usr/bin/env python3
"""Schemathesis 4 against the real `confapi` binary and its own OpenAPI documents.

Serves tests/data/democon.json (SQLite) twice: once with the server's
default dialect (legacy), once with `--api-version v2`. Each server's own
document (`/api/openapi.json`, the dialect a caller gets without a
`Pretalx-Version` header) is run with `--checks all`, once per caller
(anonymous, organiser and reviewer; tokens from the dataset), with the
header values schemathesis generates from the document (it declares only
its own dialect's, and none). The other dialect's document
(`?version=v2` on the first server, `?version=LEGACY` on the second)
declares the header as required, since without it the caller gets the
other dialect; it is run anonymous and as organiser with `--checks all` on
positive cases only: a negative case would drop that header, and the other
dialect's answer to that is what the other server's default-document runs
check. scripts/e2e/schemathesis.toml points the path parameters at that
data; the ids confapi derives (the released schedule's, a slot's) are read
from the server and added to a copy of it. Every run must find nothing: no
server error, no response that breaks the document, no undocumented status
code, no valid request refused and no invalid one accepted. The servers'
logs must hold no ERROR line and no 5xx.

Usage: scripts/e2e/schemathesis_e2e.py --binary target/debug/confapi
       --schemathesis .venv-schemathesis/bin/schemathesis
       [--max-examples N] [--seed S]
The last line is "schemathesis: N passed, N failed" (one check per
document and caller, plus each server's log).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Server  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATASET = os.path.join(ROOT, "tests", "data", "democon.json")
CONFIG = os.path.join(ROOT, "scripts", "e2e", "schemathesis.toml")


def token_of(email):
    with open(DATASET, encoding="utf-8") as fp:
        doc = json.load(fp)
    return next(u["tokens"][0] for u in doc["users"] if u["email"] == email)


def v1_get(url, path):
    request = urllib.request.Request(url + path, headers={"Pretalx-Version": "v1"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def config_with_derived_ids(url, workdir):
    """scripts/e2e/schemathesis.toml plus the ids confapi derives (democon has no
    schedule id upstream): the released schedule's, for `schedule=` of v1's
    slots (400 for any other), its version for `schedule_version=` (400
    for a version the event has not), and one slot's, for `/slots/{id}/`."""
    schedule = v1_get(url, "/api/events/democon/schedules/latest/")
    slot = schedule["slots"][0]
    with open(CONFIG, encoding="utf-8") as fp:
        text = fp.read()
    text = text.replace("[parameters]\n", f"[parameters]\n\"query.schedule\" = {schedule['id']}\n"
                        f"\"query.schedule_version\" = {json.dumps(schedule['version'])}\n", 1)
    text += ("\n[[operations]]\ninclude-path = \"/api/events/{event}/slots/{id}/\"\n"
             f"parameters = {{ \"path.id\" = {slot} }}\n")
    path = os.path.join(workdir, "schemathesis.toml")
    with open(path, "w", encoding="utf-8") as fp:
        fp.write(text)
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--schemathesis", required=True, help="the schemathesis executable")
    parser.add_argument("--max-examples", type=int, default=int(os.environ.get("CONFAPI_SCHEMATHESIS_EXAMPLES", "40")),
                        help="test cases per operation and phase (default 40, or CONFAPI_SCHEMATHESIS_EXAMPLES)")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("CONFAPI_SCHEMATHESIS_SEED", "2026")),
                        help="fixed, so that a run can be repeated (CONFAPI_SCHEMATHESIS_SEED)")
    args = parser.parse_args()
    args.schemathesis = os.path.abspath(args.schemathesis)

    passed = failed = 0
    workdir = tempfile.mkdtemp(prefix="confapi-schemathesis-")
    callers = [
        ("anonymous", None),
        ("organiser", token_of("orga@example.org")),
        ("reviewer", token_of("reviewer@example.org")),
    ]
    # (server default, document asked for, callers, negative cases too)
    servers = [
        ("legacy", [("legacy", "", callers, True), ("v2", "?version=v2", callers[:2], False)]),
        ("v2", [("v2", "", callers, True), ("legacy", "?version=LEGACY", callers[:2], False)]),
    ]
    for default, documents in servers:
        server = Server(os.path.abspath(args.binary), f"sqlite://{workdir}/democon-{default}.db", workdir,
                        f"schemathesis-{default}", datasets=[DATASET], extra=["--api-version", default])
        try:
            config = config_with_derived_ids(server.url, workdir)
            for dialect, query, who_all, negative in documents:
                kind = "default document" if not query else "other dialect's document, positive cases"
                for who, token in who_all:
                    run = f"{dialect} ({kind}, server default {default}) as {who}"
                    tag = f"{default}-{dialect}-{who}"
                    cmd = [args.schemathesis, "--config-file", config, "run",
                           f"{server.url}/api/openapi.json{query}",
                           "--checks", "all", "--max-examples", str(args.max_examples), "--seed", str(args.seed),
                           "--no-color", "--report", "junit",
                           "--report-junit-path", os.path.join(workdir, f"junit-{tag}.xml")]
                    if not negative:
                        cmd += ["--mode", "positive"]
                    if token:
                        cmd += ["--header", f"Authorization: Token {token}"]
                    print(f"== schemathesis, {run}: {args.max_examples} examples per operation, seed {args.seed}",
                          flush=True)
                    result = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir)
                    output = result.stdout + result.stderr
                    log = os.path.join(workdir, f"schemathesis-{tag}.log")
                    with open(log, "w", encoding="utf-8") as fp:
                        fp.write(output)
                    cases = re.search(r"^\s*(\d+) generated, .*$", output, re.M)
                    print(f"   {cases.group(0).strip() if cases else 'no test case count'}", flush=True)
                    if result.returncode == 0 and cases:
                        passed += 1
                    else:
                        failed += 1
                        # The failures section: each failing operation with its check and a curl line.
                        start = output.find("FAILURES")
                        print(output[start if start >= 0 else -6000:][-6000:], flush=True)
                        print(f"FAILED: schemathesis, {run} (exit status {result.returncode}); full output in {log}",
                              flush=True)
        finally:
            server.stop()
        problems = server.log_problems()
        if problems:
            failed += 1
            print(f"FAILED: server log {server.log_path}: {len(problems)} error line(s): " + " | ".join(problems[:5]))
        else:
            passed += 1
    print(f"schemathesis: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
