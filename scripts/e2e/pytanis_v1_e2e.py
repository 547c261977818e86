#!/usr/bin/env python3
"""pytanis 0.9.0 (a real client of pretalx's v1 API) against a real pretalx
2025.2.2 and against confapi serving its mirror: the same outcome for every
method.

    python3 scripts/e2e/pytanis_v1_e2e.py --python VENV_PYTHON [--binary target/debug/confapi]
                                      [--postgres URL] [--pretalx-dir DIR] [--keep]
    python3 scripts/e2e/pytanis_v1_e2e.py --pytanis 0.10 --pretalx 2026 [...]

VENV_PYTHON is the python of a venv with `pytanis==0.9.0` and `requests`
(scripts/test makes it). Starts pretalx (scripts/upstream/pretalx_upstream.py; with
--pretalx-dir, what an earlier run set up there is reused), mirrors its
event into confapi (scripts/upstream/pretalx_mirror.py, SQLite or with --postgres a
fresh PostgreSQL database), then runs ../shared/clients/run_pytanis_v1.py,
every public read method of pytanis through its own pydantic models, as the
organiser against each server, and its `--compare` of the two: a method
passes when both servers give it the same outcome, the same models or the
same failure (where pretalx's own answers do not fit pytanis's models, as
its reviews do not). The mirror's log must hold no error and no 5xx.

--pytanis VERSION runs that pytanis instead (0.10 needs Python 3.12):
from a virtualenv /opt/pytanis-VERSION inside the Debian 13 root of
scripts/upstream/debian13.py (made once, cached with the root), the
runner bound in read-only and the work directory read-write (root
needed). pytanis 0.10 still sends `Pretalx-Version: v1` (its config's
`api_version` default). --pretalx 2026 compares with a real pretalx
2026.2.1 (scripts/upstream/pretalx2026_upstream.py; the mirror synced
with its all-events token, pytanis run with its democon-bound organiser
token) instead of 2025.2.2. The defaults are unchanged.

Four normalisations, applied to both answers before the comparison (each
also in docs/api.md, "Where confapi differs"):

  (1) `events`: the mirror holds the one event it was asked to mirror
      (`sync --event democon`); pretalx's list also has the fixture's
      non-public `hiddencon`. Only democon is compared.
  (2) `talks`, `talk detail`: pretalx 2025.2.2 answers 500 to `/talks/`
      in v1 (pretalx-v1.md section 10); confapi answers the list 404 and a
      talk 301 (section 13, item 3: never a 500, and pretalx 2026.3 has no
      /talks/ at all), after which pytanis falls back to `submissions/`.
      Where pretalx's outcome is that 500, confapi's must be an outcome
      without an HTTP error; it is shown, not compared.
  (3) `answers`, `answer detail`: pretalx 2026.2.1 answers pytanis 0.10's
      answers request 500 (its expansion crashes); confapi's outcome must
      be the answers pretalx lists without it (their ids).
  (4) pretalx 2026 shows organisers a submission's `created` and
      `updated` (confapi too); 2025.2.2's v1 has neither, so where pytanis
      reads null from 2025, confapi's values are null too; the other
      fields 2026 added (events' `og_image`, `identifier`s, the attendee
      sign-up fields, `invitations`, `slot_type`), which pytanis keeps,
      leave confapi's outcome where pretalx's has no such key.

Prints each method's outcome on both servers, and last "pytanis v1 e2e
(sqlite|postgres): N passed, N failed" (one per method compared, plus one
failure for a mirror that logged errors).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The pretalx upstreams and the mirror's set-up (scripts/upstream/).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "upstream"))
from e2e import tear_down  # noqa: E402
from pretalx_e2e import start_upstream  # noqa: E402
from pretalx_mirror import mirror  # noqa: E402
from pretalx_upstream import SLUG  # noqa: E402
# What pretalx 2026 added to every version (normalisation 19 there).
from pretalx_v1_diff import FIELDS_2026, every_object as dicts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(ROOT, "..", "shared", "clients", "run_pytanis_v1.py")


def host_python(python):
    """A runner of the host's `python` (a virtualenv's)."""
    def run(argv, timeout):
        return subprocess.run([python, *argv], capture_output=True, text=True, timeout=timeout)
    return run


def chroot_python(version, work):
    """A runner of pytanis VERSION's python inside the Debian 13 root: the
    runner's directory bound read-only, `work` read-write."""
    import debian13  # noqa: PLC0415 -- only with --pytanis
    root, python = debian13.ensure_venv(f"pytanis-{version}", [f"pytanis=={version}", "requests"])
    runner_dir = os.path.dirname(os.path.realpath(RUNNER))

    def run(argv, timeout):
        argv = [os.path.realpath(a) if a == RUNNER else a for a in argv]
        return debian13.run(root, [python, *argv], binds=[work], read_only=[runner_dir],
                            capture_output=True, text=True, timeout=timeout)
    return run


def run_pytanis(python, base, token, out):
    """run_pytanis_v1.py against one server; its PASS/FAIL lines and
    summary (pytanis logs every object its models reject: left out).
    `python`: a runner from host_python or chroot_python."""
    result = python([RUNNER, "--base", base, "--token", token, "--event", SLUG, "--out", out],
                    timeout=900)
    lines = (result.stdout + result.stderr).strip().splitlines()
    if not os.path.exists(out):
        raise RuntimeError("run_pytanis_v1.py wrote no answers:\n" + "\n".join(lines[-30:]))
    return [line for line in lines if line.startswith(("PASS ", "FAIL ")) or " passed, " in line]


def plain_answer_ids(base, token):
    """The ids of pretalx's answers/ list, every page, without expand."""
    import urllib.request
    ids, url = [], f"{base}/api/events/{SLUG}/answers/?page_size=250"
    while url:
        request = urllib.request.Request(url, headers={"Authorization": f"Token {token}",
                                                       "Pretalx-Version": "v1"})
        with urllib.request.urlopen(request, timeout=60) as reply:
            page = json.load(reply)
        ids += [a["id"] for a in page["results"]]
        url = page.get("next")
    return ids


def normalise(theirs, mine, upstream=None, token=None, release="2025"):
    """The normalisations of the docstring, on the runner's dumps.
    Returns the notes to print."""
    notes = []
    # (4) pretalx 2026 shows organisers a submission's `created` and
    # `updated` again (confapi as 2026 does); 2025.2.2's v1 has neither, so
    # pytanis reads null there.
    # The other fields 2026 added to every version, which pytanis keeps as
    # extra fields, leave confapi's dump where pretalx's has no such key.
    if release == "2025":
        missing = {(d.get("code"), key) for d in dicts(theirs) if "code" in d
                   for key in ("created", "updated") if key in d and d[key] is None}
        theirs_keys = {key for d in dicts(theirs) for key in d}
        for d in dicts(mine):
            for key in ("created", "updated"):
                if (d.get("code"), key) in missing and d.get(key) is not None:
                    d[key] = None
            for key in FIELDS_2026 - theirs_keys:
                d.pop(key, None)
    # (3) pretalx 2026.2.1 answers pytanis 0.10's answers request with 500;
    # confapi's outcome must be no error and the answers pretalx lists
    # without that request's expansion.
    for method in ("answers", "answer detail"):
        outcome = theirs.get(method)
        error = outcome.get("error", "") if isinstance(outcome, dict) else ""
        if not error.startswith("HTTPStatusError 500") or upstream is None:
            continue
        got = mine.get(method)
        if isinstance(got, dict) and "error" in got:
            continue
        items = got if isinstance(got, list) else [got]
        ids = [item.get("id") for item in items if isinstance(item, dict)]
        listed = plain_answer_ids(upstream, token)
        # (the order is that of pytanis's own request, which pretalx does
        # not answer: compared as sets)
        if ids and (sorted(ids) == sorted(listed) if method == "answers" else set(ids) <= set(listed)):
            notes.append(f"{method}: pretalx {error}; confapi answered its {len(ids)} "
                         "answer(s) as pretalx lists them unexpanded (normalisation 3)")
            theirs[method] = got
        else:
            notes.append(f"{method}: pretalx {error}; confapi's {len(ids)} answer ids "
                         f"{ids[:8]} are not pretalx's {len(listed)} {listed[:8]}")
    if isinstance(theirs.get("events"), list):
        theirs["events"] = [e for e in theirs["events"] if e.get("slug") == SLUG]
    for method in ("talks", "talk detail"):
        error = (theirs.get(method) or {}).get("error", "") if isinstance(theirs.get(method), dict) else ""
        if error.startswith("HTTPStatusError 500"):
            outcome = mine.get(method)
            mine_error = outcome.get("error", "") if isinstance(outcome, dict) else ""
            if not mine_error.startswith("HTTPStatusError"):
                notes.append(f"{method}: pretalx {error}; confapi "
                             f"{mine_error or 'answered'} (normalisation 2)")
                theirs[method] = mine[method]
    return notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--python", help="python of a venv with pytanis 0.9.0")
    which.add_argument("--pytanis", metavar="VERSION",
                       help="this pytanis (e.g. 0.10), from a virtualenv in the Debian 13 root")
    parser.add_argument("--pretalx", choices=("2025", "2026"), default="2025",
                        help="the upstream: pretalx 2025.2.2 (default) or 2026.2.1")
    parser.add_argument("--binary", default="target/debug/confapi")
    parser.add_argument("--postgres", help="admin URL; the mirror goes into a fresh database made from it")
    parser.add_argument("--pretalx-dir", help="set pretalx up here, or reuse what an earlier run set up here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    label = "postgres" if args.postgres else "sqlite"
    pytanis = args.pytanis or "0.9.0"
    if args.pytanis or args.pretalx != "2025":
        label = f"pytanis {pytanis}, pretalx {args.pretalx}, {label}"
    passed = failed = 0
    work = tempfile.mkdtemp(prefix="pytanis-v1-")
    python = chroot_python(args.pytanis, work) if args.pytanis else host_python(args.python)
    pretalx_dir = os.path.abspath(args.pretalx_dir or os.path.join(work, "pretalx"))
    sync_token = None
    if args.pretalx == "2026":
        from pretalx2026_upstream import start_upstream as start_upstream_2026
        upstream = start_upstream_2026(pretalx_dir)
        sync_token = upstream.all_events_token
    else:
        upstream = start_upstream(pretalx_dir)
    server = None
    try:
        server, tokens, _ = mirror(os.path.abspath(args.binary), upstream, work, args.postgres,
                                   "confapi_pytanis_v1", sync_token)
        theirs, mine = os.path.join(work, "pretalx.json"), os.path.join(work, "confapi.json")
        for name, base, out in (("pretalx", upstream.url, theirs), ("confapi", server.url, mine)):
            print(f"== pytanis {pytanis} against {name}")
            for line in run_pytanis(python, base, tokens["O"], out):
                print(f"     {line}")
        answers = {path: json.load(open(path)) for path in (theirs, mine)}
        for note in normalise(answers[theirs], answers[mine], upstream.url, tokens["O"], args.pretalx):
            print(f"     {note}")
        for path, dumped in answers.items():
            with open(path + ".normalised", "w") as fp:
                json.dump(dumped, fp, sort_keys=True)
        compared = python([RUNNER, "--compare", theirs + ".normalised", mine + ".normalised"],
                          timeout=300)
        for line in compared.stdout.strip().splitlines():
            if line.startswith("SAME "):
                passed += 1
                print(f"ok   {line[5:]}")
            elif line.startswith("DIFF "):
                failed += 1
                print(f"FAIL {line[5:]}")
        if compared.returncode not in (0, 1) or passed + failed == 0:
            raise RuntimeError(f"run_pytanis_v1.py --compare failed:\n{compared.stderr[-2000:]}")
        problems = server.log_problems()
        if problems:
            failed += 1
            print(f"FAIL the mirror logged errors or 5xx: {problems[:5]}")
    except Exception as err:  # a set-up failure counts as one failure
        failed += 1
        print(f"FAIL set-up: {err}")
    finally:
        tear_down(server, upstream, work, args.keep)
    print(f"pytanis v1 e2e ({label}): {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
