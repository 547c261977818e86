#!/usr/bin/env python3
"""End-to-end suites against the real `confapi` binary.

1. The executable contract (shared/conformance/conformance.py) on democon.json,
   client-friendly.json, tests/data/edge.json and two `confapi demo` datasets.
   Every oracle case must pass.
2. Three real pretalx clients (shared/clients/run_real_clients.py) with an
   organiser and a reviewer token on democon.json and client-friendly.json,
   required to match shared/clients/expected/.
3. The schedule exports oracle (shared/conformance/compare_exports.py) on
   the same datasets and on shared/exports/democon/dataset.json (what a real
   pretalx answered), every check must pass; and six real consumers of the
   exports (shared/clients/export_clients.py) on the latter, required to match
   shared/clients/expected/exports-democon.json.
4. The server logs of every run: no ERROR line, no 5xx answer.

Usage: scripts/e2e/suites.py --binary target/debug/confapi [--postgres ADMIN_URL]
       [--clients-python VENV_PYTHON] [--export-clients-venvs DIR] [--label NAME]
The last line is "N passed, N failed" over all checks.
Standard library only; the clients run in the venv given by --clients-python.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Server, fresh_postgres_database, psql  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
CONFORMANCE = os.path.join(SHARED, "conformance", "conformance.py")
CLIENTS = os.path.join(SHARED, "clients", "run_real_clients.py")
VALIDATOR = os.path.join(SHARED, "conformance", "validate_dataset.py")
COMPARE_EXPORTS = os.path.join(SHARED, "conformance", "compare_exports.py")
EXPORT_CLIENTS = os.path.join(SHARED, "clients", "export_clients.py")
EXPORTS_DEMOCON = os.path.join(SHARED, "exports", "democon", "dataset.json")
EXPORTS_EXPECTED = os.path.join(SHARED, "clients", "expected", "exports-democon.json")

DEMOCON = os.path.join(SHARED, "datasets", "democon.json")
FRIENDLY = os.path.join(SHARED, "datasets", "client-friendly.json")
EDGE = os.path.join(ROOT, "tests", "data", "edge.json")


class Totals:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.problems = []

    def ok(self, n=1):
        self.passed += n

    def fail(self, message, n=1):
        self.failed += n
        self.problems.append(message)
        print(f"FAILED: {message}", flush=True)


def run_oracle_script(totals, label, script, server, name, dataset, contexts):
    """An oracle script of shared/conformance against the server: its
    summary line counts, each FAIL line is a problem."""
    cmd = [sys.executable, script, "--against", server.url, "--dataset", dataset]
    for context in contexts:
        cmd += ["--context", context]
    print(f"== {label}: {name}", flush=True)
    result = subprocess.run(cmd, capture_output=True, text=True)
    output = result.stdout + result.stderr
    summary = re.search(r"^(\d+) passed, (\d+) failed$", output, re.M)
    if not summary:
        totals.fail(f"{label} {name}: no summary line\n{output[-2000:]}")
        return
    print(f"   {summary.group(0)}", flush=True)
    totals.ok(int(summary.group(1)))
    for line in output.splitlines():
        if line.startswith("FAIL "):
            totals.fail(f"{label} {name}: {line}")
    if result.returncode != 0 and not int(summary.group(2)):
        totals.fail(f"{label} {name}: exit status {result.returncode}")


def run_conformance(totals, server, name, dataset, contexts):
    run_oracle_script(totals, "conformance", CONFORMANCE, server, name, dataset, contexts)


def run_exports_oracle(totals, server, name, dataset, contexts):
    """compare_exports.py: every export of every event, for every caller."""
    run_oracle_script(totals, "exports oracle", COMPARE_EXPORTS, server, name, dataset, contexts)


def run_export_clients(totals, server, event, expected, venvs):
    """export_clients.py: six real consumers of the exports (their venvs are
    made on first use, under `venvs`, since shared/ may be read-only)."""
    cmd = [sys.executable, EXPORT_CLIENTS, "--base", server.url, "--event", event, "--expect", expected,
           "--venv", os.path.join(venvs, ".venv-export-clients"),
           "--pyfahrplan-venv", os.path.join(venvs, ".venv-pyfahrplan")]
    print(f"== export clients: {event}", flush=True)
    result = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(EXPORT_CLIENTS))
    record_clients(totals, f"export clients {event}", result, r"^(\d+) ok, (\d+) failed$",
                   lambda line: line.startswith("FAIL"))


def record_clients(totals, label, result, summary_pattern, is_failure):
    """A client run's summary line counts; any failure names its lines."""
    output = result.stdout + result.stderr
    summary = re.search(summary_pattern, output, re.M)
    if not summary:
        totals.fail(f"{label}: no summary line\n{output[-2000:]}")
        return
    print(f"   {summary.group(0)}", flush=True)
    totals.ok(int(summary.group(1)))
    if result.returncode != 0 or int(summary.group(2)):
        failing = [line for line in output.splitlines() if is_failure(line)]
        totals.fail(f"{label}: " + "; ".join(failing[:10]), int(summary.group(2)) or 1)


def token_of(path, email):
    with open(path, encoding="utf-8") as fp:
        doc = json.load(fp)
    return next(u["tokens"][0] for u in doc["users"] if u["email"] == email)


def run_clients(totals, python, server, dataset, event, who, email, expected):
    env = dict(os.environ, PRETALX_BASE=server.url, PRETALX_EVENT=event,
               PRETALX_TOKEN=token_of(dataset, email))
    print(f"== real clients: {event} as {who}", flush=True)
    result = subprocess.run([python, CLIENTS, "--expect", expected], capture_output=True,
                            text=True, env=env, cwd=os.path.dirname(CLIENTS))
    record_clients(totals, f"clients {event}/{who}", result, r"^(\d+) passed, (\d+) failed$",
                   lambda line: "FAIL" in line or "differs" in line or "expected" in line)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--postgres", default=None, metavar="ADMIN_URL",
                        help="run on PostgreSQL: an admin URL (postgres://postgres@127.0.0.1:5432/test) "
                             "used to create a fresh database per server (default: SQLite files)")
    parser.add_argument("--clients-python", default=None,
                        help="python of a venv with the pinned pretalx clients")
    parser.add_argument("--export-clients-venvs", default=ROOT, metavar="DIR",
                        help="where export_clients.py keeps its two venvs (default: the repository)")
    parser.add_argument("--label", default="sqlite")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    if args.clients_python:
        args.clients_python = os.path.abspath(args.clients_python)

    totals = Totals()
    workdir = tempfile.mkdtemp(prefix="confapi-suites-")

    run_id = f"{os.getpid()}_{int(time.time())}"

    def db(name):
        if not args.postgres:
            return f"sqlite://{workdir}/{name}.db"
        database = f"confapi_suite_{run_id}_{name}"
        created.append(database)
        return fresh_postgres_database(args.postgres, database)

    created = []

    # The reference validator accepts what `confapi demo --portable` generates
    # (the published format, without confapi's extensions such as private
    # resources, which the reference tools do not know).
    for events, submissions, seed in [(2, 120, 2026), (3, 40, 7), (2, 0, 1), (2, 1, 1), (2, 3, 1)]:
        path = os.path.join(workdir, f"validate-{events}-{submissions}-{seed}.json")
        subprocess.run([args.binary, "demo", "--portable", "--events", str(events), "--submissions",
                        str(submissions), "--seed", str(seed), "-o", path], check=True, capture_output=True)
        result = subprocess.run([sys.executable, VALIDATOR, path], capture_output=True, text=True)
        if result.returncode == 0:
            totals.ok()
        else:
            totals.fail(f"validate_dataset.py rejects confapi demo --events {events} --submissions "
                        f"{submissions} --seed {seed}: {(result.stdout + result.stderr)[-1500:]}")

    servers = []
    try:
        # One server holding the three hand-made/real datasets (they share no ids).
        main_server = Server(args.binary, db("main"), workdir, "main", datasets=[DEMOCON, EDGE, FRIENDLY])
        servers.append(main_server)
        run_conformance(totals, main_server, "democon", DEMOCON, [EDGE, FRIENDLY])
        run_conformance(totals, main_server, "edge", EDGE, [DEMOCON, FRIENDLY])
        run_conformance(totals, main_server, "client-friendly", FRIENDLY, [DEMOCON, EDGE])
        run_exports_oracle(totals, main_server, "democon", DEMOCON, [EDGE, FRIENDLY])
        run_exports_oracle(totals, main_server, "edge", EDGE, [DEMOCON, FRIENDLY])
        run_exports_oracle(totals, main_server, "client-friendly", FRIENDLY, [DEMOCON, EDGE])

        # What a real pretalx answered, as a dataset (its slug is democon too).
        exports_server = Server(args.binary, db("exports"), workdir, "exports", datasets=[EXPORTS_DEMOCON])
        servers.append(exports_server)
        run_exports_oracle(totals, exports_server, "pretalx democon", EXPORTS_DEMOCON, [])
        run_export_clients(totals, exports_server, "democon", EXPORTS_EXPECTED, args.export_clients_venvs)

        # Generated datasets: different seeds and sizes, each on its own server.
        for seed, events, submissions in [(7, 3, 40), (2026, 1, 140)]:
            path = os.path.join(workdir, f"demo-{seed}.json")
            subprocess.run([args.binary, "demo", "--portable", "--events", str(events), "--submissions",
                            str(submissions), "--seed", str(seed), "-o", path],
                           check=True, capture_output=True)
            server = Server(args.binary, db(f"demo{seed}"), workdir, f"demo-{seed}", datasets=[path])
            servers.append(server)
            run_conformance(totals, server, f"demo seed {seed}", path, [])
            run_exports_oracle(totals, server, f"demo seed {seed}", path, [])

        if args.clients_python:
            for dataset, event, name in [(DEMOCON, "democon", "democon"), (FRIENDLY, "clientcon", "client-friendly")]:
                domain = "example.org" if event == "democon" else "clients.example"
                for who in ("orga", "reviewer"):
                    expected = os.path.join(SHARED, "clients", "expected", f"{name}-{who}.json")
                    run_clients(totals, args.clients_python, main_server, dataset, event, who,
                                f"{who}@{domain}", expected)
    finally:
        for server in servers:
            server.stop()

    for database in created:
        psql(args.postgres, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")

    for server in servers:
        problems = server.log_problems()
        if problems:
            totals.fail(f"server log {server.log_path}: {len(problems)} error line(s): " + " | ".join(problems[:5]))
        else:
            totals.ok()

    print(f"suites ({args.label}): {totals.passed} passed, {totals.failed} failed")
    return 1 if totals.failed else 0


if __name__ == "__main__":
    sys.exit(main())
