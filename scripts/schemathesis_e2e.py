#!/usr/bin/env python3
"""Schemathesis 4 against the real `confapi` binary and its own OpenAPI document.

Serves tests/data/democon.json (SQLite) and runs `schemathesis run` on
/api/openapi.json with `--checks all`, once per caller: anonymous, organiser
and reviewer (tokens from the dataset). scripts/schemathesis.toml points
the path parameters at that data. Every run must find nothing: no server
error, no response that breaks the document, no undocumented status code,
no valid request refused and no invalid one accepted. The server log must
hold no ERROR line and no 5xx.

Usage: scripts/schemathesis_e2e.py --binary target/debug/confapi
       --schemathesis .venv-schemathesis/bin/schemathesis
       [--max-examples N] [--seed S]
The last line is "schemathesis: N passed, N failed" (one check per run, plus
the server log).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Server  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATASET = os.path.join(ROOT, "tests", "data", "democon.json")
CONFIG = os.path.join(ROOT, "scripts", "schemathesis.toml")


def token_of(email):
    with open(DATASET, encoding="utf-8") as fp:
        doc = json.load(fp)
    return next(u["tokens"][0] for u in doc["users"] if u["email"] == email)


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
    server = Server(os.path.abspath(args.binary), f"sqlite://{workdir}/democon.db", workdir, "schemathesis",
                    datasets=[DATASET])
    callers = [
        ("anonymous", None),
        ("organiser", token_of("orga@example.org")),
        ("reviewer", token_of("reviewer@example.org")),
    ]
    try:
        for who, token in callers:
            cmd = [args.schemathesis, "--config-file", CONFIG, "run", f"{server.url}/api/openapi.json",
                   "--checks", "all", "--max-examples", str(args.max_examples), "--seed", str(args.seed),
                   "--no-color", "--report", "junit",
                   "--report-junit-path", os.path.join(workdir, f"junit-{who}.xml")]
            if token:
                cmd += ["--header", f"Authorization: Token {token}"]
            print(f"== schemathesis as {who}: {args.max_examples} examples per operation, seed {args.seed}",
                  flush=True)
            result = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir)
            output = result.stdout + result.stderr
            log = os.path.join(workdir, f"schemathesis-{who}.log")
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
                print(f"FAILED: schemathesis as {who} (exit status {result.returncode}); full output in {log}",
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
