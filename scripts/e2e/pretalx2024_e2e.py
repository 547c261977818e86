#!/usr/bin/env python3
"""confapi sync against a real pretalx 2024.3.1 (its legacy API), compared
with pretalx's own answers for every role.

    python3 scripts/e2e/pretalx2024_e2e.py [--binary target/debug/confapi] [--postgres URL]
                                       [--pretalx-dir DIR] [--keep]

Starts pretalx 2024.3.1 (scripts/upstream/pretalx2024_upstream.py: cached virtualenv
from PyPI, SQLite, create_test_event plus questions, answers, a tag, ...,
a DRF token for an administrator and one for a reviewer), runs `confapi
sync --api legacy` into a fresh database (SQLite, or PostgreSQL with
--postgres, made from that admin URL) with an access file that holds only
what no upstream answer shows: the users with their tokens (the same token
strings as on the pretalx side, so one client token works against both
servers), the teams, the review phase, review assignments, submission
types' default durations and colours of unused tracks (no question
overrides). Then it serves the mirror and asks both servers the same
questions as the public (no token), the organiser and the reviewer: every
legacy endpoint (events, submissions, talks, speakers, questions, answers,
reviews, rooms, tags), each list (with `questions=all` where it applies)
and a detail, and compares them field by field. Last: `--api auto`
detects the legacy API and a second sync writes nothing. With --pretalx-dir,
pretalx is set up in DIR unless an earlier run did so, and reused (it is
only read), so scripts/test sets it up once for SQLite and PostgreSQL.

Where pretalx 2024.3.1 and the contract (shared/spec/behaviour.md) differ
on purpose, pretalx's answer is normalised to the contract, each where it
is done with a comment numbered as here (docs/testing.md, "Tests", lists them too):

 1. i18n names: pretalx sends the names of types, tracks and rooms as it
    stored them (create_test_event: plain strings), confapi always as
    objects (`{"en": ...}`); i18n fields pretalx sends as null are `{}`
    (behaviour.md 4).
 2. null texts (notes, internal notes, abstract, biography, review text,
    resource description) are "" in confapi (behaviour.md 4).
 3. review scores: pretalx's decimal strings ("1.00") are numbers in
    confapi (behaviour.md 4).
 4. a speaker without avatar: pretalx's speakers endpoint says "", confapi
    null (behaviour.md 4).
 5. question `read_only`: pretalx null without `freeze_after`, confapi
    false; confapi adds the questions' `tracks` and `submission_types`
    (checked to be [] in the mirror: pretalx 2024 does not show them)
    (behaviour.md 6, Questions).
 6. fields pretalx sends that the contract does not have: submissions'
    `favourite_count`, rooms' `url`; and fields the contract adds: tags'
    `is_public` (not shown by pretalx 2024: the mirror says false), rooms'
    `speaker_info` for every role (pretalx: organisers only), the nested
    question of an answer in a submission with `required`, `target` and
    `options` (behaviour.md 6).
 7. the events list: pretalx's is a bare list, confapi's a page
    (behaviour.md 5); event `urls` name each server's own origin.
 8. reviewers: pretalx gives them the organisers' fields (`created`,
    `pending_state`, `notes`, `internal_notes`, speakers' `email` and
    `availabilities`); the contract does not (behaviour.md 6; a leak in
    reference-behaviour.md 6.6).
 9. the public's answers: pretalx lists the answers to public questions on
    every submission and every speaker; the contract only those of public
    talks and their speakers (behaviour.md 6, Answers; reference 6.5).
10. order: where pretalx has none (nested answers, a speaker's
    `submissions`) pretalx's is sorted as the contract orders
    (behaviour.md 8); pretalx repeats a public speaker's submission once
    per slot, the contract names it once. Lists are compared by id/code.
11. a speaker's nested answers: pretalx adds the answers on the speaker's
    submissions to the person's own; the contract nests the answers of
    this person (behaviour.md 6, Speakers; shared/conformance/oracle.py).
12. the talk detail of a submission that is no talk: pretalx serves it to
    organisers (reference 3.6.1), the contract answers 404 (behaviour.md
    6): checked as such.
13. answers pretalx shows only nested (to an inactive question, in the
    organisers' submissions with `questions=all`; to a reviewers' question,
    in each review): the mirror keeps them (docs/sync.md), and the contract
    lists every answer a role may see in `answers/`: confapi's organiser
    and reviewer lists are compared without them, after checking that they
    are exactly those pretalx nests for that role. pretalx's reviewers also
    get the answers to inactive questions nested in submissions; the
    contract shows them only active questions' answers (behaviour.md 6).

Prints "pretalx2024 e2e (sqlite|postgres): N passed, N failed".
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The pretalx upstreams and the mirror's set-up (scripts/upstream/).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "upstream"))
from e2e import Checks, Server, fresh_postgres_database, tear_down  # noqa: E402
from pretalx2024_upstream import SLUG, VERSION, Upstream2024  # noqa: E402

check = Checks(limit=3000)
ROLES = ("anonymous", "organiser", "reviewer")


def get(url, token=None):
    """(status, JSON body or None)."""
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, None


def every(url, token=None):
    """Every result of a list (following `next`), or a bare list as it is."""
    out = []
    while url:
        status, page = get(url, token)
        if status != 200:
            raise RuntimeError(f"GET {url}: {status}")
        if isinstance(page, list):
            return page
        out.extend(page["results"])
        url = page["next"]
    return out


# --- normalisation of pretalx's answers to the contract's forms

def i18n(value):
    """(1) A name as stored (a plain string) is an object; null is {}."""
    if value is None:
        return {}
    if isinstance(value, str):
        return {"en": value}
    return value


def text(value):
    """(2) A null text is ""."""
    return "" if value is None else value


def score(value):
    """(3) A decimal string is a number."""
    return None if value is None else float(value)


def answer(a):
    return dict(a, question=dict(a["question"], question=i18n(a["question"]["question"])),
                options=[dict(o, answer=i18n(o["answer"])) for o in a["options"]])


def answers(list_):
    # (10) pretalx has no order here; the contract orders by id.
    return sorted((answer(a) for a in list_), key=lambda a: a["id"])


# (13) The inactive questions: those with an answer pretalx shows only
# nested in submissions (filled by compare_everything).
INACTIVE_QUESTIONS = set()


def submission(s, role):
    s = dict(s)
    s["submission_type"] = i18n(s["submission_type"])
    s["track"] = None if s["track"] is None else i18n(s["track"])
    for key in ("abstract", "description", "notes", "internal_notes"):
        if key in s:
            s[key] = text(s[key])
    if s["slot"]:
        s["slot"] = dict(s["slot"], room=None if s["slot"]["room"] is None else i18n(s["slot"]["room"]))
    s["speakers"] = [dict(x, biography=text(x["biography"])) for x in s["speakers"]]
    s["resources"] = [dict(r, description=text(r["description"])) for r in s["resources"]]
    s["answers"] = answers(s["answers"])
    # (6) not in the contract.
    s.pop("favourite_count", None)
    if role == "reviewer":
        # (8) pretalx gives reviewers the organisers' fields; the contract does not.
        for key in ("created", "pending_state", "notes", "internal_notes"):
            s.pop(key, None)
        s["speakers"] = [{k: v for k, v in x.items() if k != "email"} for x in s["speakers"]]
        # (13) pretalx nests the answers to inactive questions for reviewers
        # too; the contract shows reviewers only active questions' answers.
        s["answers"] = [a for a in s["answers"] if a["question"]["id"] not in INACTIVE_QUESTIONS]
    return s


def speaker(s, role):
    s = dict(s, biography=text(s["biography"]))
    # (4) no avatar: "" at pretalx's speakers endpoint, null in the contract.
    s["avatar"] = s["avatar"] or None
    # (10) by code, each once (pretalx: DB order, a code once per slot).
    s["submissions"] = sorted(set(s["submissions"]))
    # (11) a speaker's answers are the person's own; pretalx adds those on
    # their submissions.
    s["answers"] = answers(a for a in s["answers"] if a["person"] == s["code"])
    if role == "reviewer":
        # (8) organisers' fields.
        s.pop("email", None)
        s.pop("availabilities", None)
    return s


def question(q):
    q = dict(q, question=i18n(q["question"]), help_text=i18n(q["help_text"]),
             options=[dict(o, answer=i18n(o["answer"])) for o in q["options"]])
    # (5) unset freeze_after: pretalx null, the contract false.
    if q["read_only"] is None:
        q["read_only"] = False
    return q


def review(r):
    return dict(r, text=text(r["text"]), score=score(r["score"]),
                answers=answers(r.get("answers", [])))


def room(r):
    r = dict(r, name=i18n(r["name"]), description=i18n(r["description"]))
    r.pop("url")  # (6) not in the contract
    if "speaker_info" in r:
        r["speaker_info"] = i18n(r["speaker_info"])
    return r


def tag(t):
    return dict(t, description=i18n(t["description"]))


def event(e):
    # (7) each server's own origin.
    return dict(e, urls={k: re.sub(r"^https?://[^/]+", "", v) for k, v in e["urls"].items()})


def mine_submission(s):
    """(6) confapi's nested question in a submission's answers adds
    required, target and options (behaviour.md 6, Answers)."""
    s = dict(s)
    s["answers"] = [dict(a, question={k: a["question"][k] for k in ("id", "question")})
                    for a in s["answers"]]
    return s


def mine_question(q):
    """(5) confapi adds tracks and submission_types (checked apart)."""
    return {k: v for k, v in q.items() if k not in ("tracks", "submission_types")}


def mine_room(r, role):
    r = dict(r)
    if role != "organiser":
        r.pop("speaker_info")  # (6) the contract shows it to everyone
    return r


def mine_tag(t):
    """(6) confapi adds is_public (checked apart)."""
    return {k: v for k, v in t.items() if k != "is_public"}


def start_upstream(root):
    """pretalx set up in `root`, or what an earlier run set up there, started."""
    upstream = Upstream2024(root)
    if upstream.facts_file.exists():  # written last by the setup
        # Served on a new port: pretalx writes its URL into links.
        config = upstream.config.read_text()
        upstream.config.write_text(re.sub(r"(?m)^url = .*$", f"url = {upstream.url}", config))
        print(f"     reusing the pretalx set up in {root}")
    else:
        if upstream.config.exists():  # a set-up that failed half-way
            shutil.rmtree(root)
        elif os.path.isdir(root) and os.listdir(root):
            sys.exit(f"{root} holds something else than a pretalx set up by this script")
        upstream.setup()
    return upstream.start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="target/debug/confapi")
    parser.add_argument("--postgres", help="admin URL; a fresh database is made from it")
    parser.add_argument("--pretalx-dir", help="set pretalx up here, or reuse what an earlier run set up here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    started = time.monotonic()
    binary = os.path.abspath(args.binary)
    label = "postgres" if args.postgres else "sqlite"
    print(f"== pretalx {VERSION} against confapi sync --api legacy ({label})")
    work = tempfile.mkdtemp(prefix="pretalx2024-e2e-")
    upstream = start_upstream(os.path.abspath(args.pretalx_dir or os.path.join(work, "pretalx")))
    facts = upstream.facts
    tokens = dict(facts["tokens"], anonymous=None)
    theirs = f"{upstream.url}/api/events/{SLUG}"

    # --- the access file: only what no upstream answer shows
    _, upstream_event = get(f"{theirs}/", tokens["organiser"])
    scheduled_tracks = {t["track_id"] for t in every(f"{theirs}/talks/?limit=1000")}
    access = {
        "users": [{k: u[k] for k in ("code", "name", "email", "is_administrator", "tokens")}
                  for u in facts["users"]],
        "events": [{
            # Required by the dataset format; the mirror's come from upstream.
            "slug": SLUG, "name": upstream_event["name"], "date_from": upstream_event["date_from"],
            "teams": facts["teams"],
            "review_phase": facts["review_phase"],
            "submission_types": facts["submission_types"],
            "tracks": [t for t in facts["tracks"] if t["id"] not in scheduled_tracks],
            "submissions": [{"code": code, "assigned_reviewers": codes}
                            for code, codes in facts["assigned_reviewers"].items()],
        }],
    }
    access_path = os.path.join(work, "access.json")
    with open(access_path, "w") as fp:
        json.dump(access, fp)
    os.chmod(access_path, 0o600)
    db = (fresh_postgres_database(args.postgres, "confapi_pretalx2024_e2e") if args.postgres
          else f"sqlite://{work}/mirror.db")

    def sync(*extra):
        began = time.monotonic()
        result = subprocess.run(
            [binary, "sync", "--from", upstream.url, "--access", access_path, "--db", db, *extra],
            capture_output=True, text=True, timeout=300,
            env=dict(os.environ, CONFAPI_SYNC_TOKEN=tokens["organiser"]))
        out = result.stdout + result.stderr
        print(f"     {out.strip().splitlines()[-1][:300] if out.strip() else '(no output)'}"
              f" [{time.monotonic() - began:.1f}s]")
        return result.returncode, out

    server = None
    try:
        status, out = sync("--api", "legacy")
        check(f"confapi sync --api legacy from pretalx {VERSION} succeeds",
              status == 0 and "record(s) written" in out, out)
        check("no token is ever printed", not any(t and t in out for t in tokens.values()), out)
        server = Server(binary, db, work, "mirror")
        mine = f"{server.url}/api/events/{SLUG}"
        try:
            compare_everything(mine, theirs, server.url, upstream.url, tokens)
        except Exception:  # a failed request: one failure, and the summary still
            check("the comparison ran to its end", False, traceback.format_exc())

        status, out = sync()
        check("a second sync (--api auto: pretalx 2024 has no v1, so legacy) writes nothing",
              status == 0 and "nothing changed" in out, out)
        problems = server.log_problems()
        check("the mirror logged no error or 5xx", not problems, problems[:5])
    finally:
        tear_down(server, upstream, work, args.keep)
    print(f"     {label}, {time.monotonic() - started:.0f}s")
    print(f"pretalx2024 e2e ({label}): {check.passed} passed, {check.failed} failed")
    sys.exit(1 if check.failed else 0)


def diff(name, mine, theirs):
    """A check that two {key: record} maps are equal, naming the first differences field by field."""
    problems = []
    for key in sorted(set(mine) | set(theirs), key=str):
        a, b = mine.get(key), theirs.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            for field in sorted(set(a) | set(b)):
                if a.get(field, "<absent>") != b.get(field, "<absent>"):
                    problems.append(f"{key}.{field}: confapi {a.get(field, '<absent>')!r} "
                                    f"!= pretalx {b.get(field, '<absent>')!r}")
        else:
            problems.append(f"{key}: confapi {a!r} != pretalx {b!r}")
    check(f"{name} ({len(theirs)} compared)", not problems, "\n".join(problems[:8]))


def compare_everything(mine, theirs, mine_root, theirs_root, tokens):
    public_talks = {t["code"]: t for t in every(f"{theirs}/talks/?limit=1000")}
    public_speakers = {s["code"] for t in public_talks.values() for s in t["speakers"]}
    check("the public sees talks", len(public_talks) > 0)

    # label, path, key, query, confapi's item -> compared form, pretalx's (per role)
    endpoints = [
        ("submissions", "submissions", "code", "questions=all", mine_submission, submission),
        # The anonymised view (anon=1): pretalx's anonymised texts, no speakers.
        ("submissions (anon=1)", "submissions", "code", "anon=1", mine_submission, submission),
        ("talks", "talks", "code", "questions=all", mine_submission, submission),
        ("speakers", "speakers", "code", "questions=all", lambda s: s, speaker),
        ("questions", "questions", "id", "", mine_question, lambda q, role: question(q)),
        ("answers", "answers", "id", "", lambda a: a, lambda a, role: answer(a)),
        ("reviews", "reviews", "id", "", lambda r: r, lambda r, role: review(r)),
        ("rooms", "rooms", "id", "", None, lambda r, role: room(r)),
        ("tags", "tags", "tag", "", mine_tag, lambda t, role: tag(t)),
    ]
    # A detail each: the first item the public sees and the first it does
    # not (talks: only talks, see below), by pretalx's answers.
    probes = {}
    for name, path, key, *_ in endpoints:
        public = {item[key] for item in every(f"{theirs}/{path}/?limit=1000")}
        hidden = {item[key] for item in every(f"{theirs}/{path}/?limit=1000", tokens["organiser"])} - public
        probes[name] = [min(p) for p in (public, hidden) if p]
    probes["talks"] = probes["talks"][:1]
    # (13) Answers pretalx 2024 shows only nested: its answers/ leaves out
    # the answers to inactive questions and to reviewers' questions (its
    # default question manager); they are in the organisers' submissions
    # (questions=all) and in each review. The mirror keeps them (and marks
    # such a question inactive unless it asks reviewers: docs/sync.md), and
    # the contract lists every answer a role may see (behaviour.md 6):
    # confapi's answers lists hold them beside pretalx's, exactly those
    # pretalx nests (for the reviewer: in the reviews pretalx shows them).
    listed = {a["id"] for a in every(f"{theirs}/answers/?limit=1000", tokens["organiser"])}

    def nested_answers(token):
        found = {}
        for s in every(f"{theirs}/submissions/?limit=1000&questions=all", token):
            found.update((a["id"], a) for a in s["answers"] if a["id"] not in listed)
        for r in every(f"{theirs}/reviews/?limit=1000", token):
            found.update((a["id"], a) for a in r.get("answers", []) if a["id"] not in listed)
        return found
    nested = {"organiser": nested_answers(tokens["organiser"])}
    nested["reviewer"] = {i: a for i, a in nested_answers(tokens["reviewer"]).items() if a["review"]}
    INACTIVE_QUESTIONS.update(a["question"]["id"] for a in nested["organiser"].values()
                              if a["submission"])
    check("pretalx shows answers only nested, to an inactive question and on reviews",
          any(a["submission"] for a in nested["organiser"].values())
          and any(a["review"] for a in nested["organiser"].values()), sorted(nested["organiser"]))
    # anon=1: the anonymised proposal.
    real = {s["code"]: s["title"] for s in every(f"{theirs}/submissions/?limit=1000", tokens["organiser"])}
    probes["submissions (anon=1)"] = sorted(
        s["code"] for s in every(f"{theirs}/submissions/?limit=1000&anon=1", tokens["organiser"])
        if s["title"] != real[s["code"]])
    check("pretalx shows an anonymised proposal with anon=1", probes["submissions (anon=1)"])

    for role in ROLES:
        token = tokens[role]
        # events: a bare list at pretalx, a page at confapi (7)
        _, page = get(f"{mine_root}/api/events/", token)
        diff(f"{role}: events list", {e["slug"]: event(e) for e in page["results"]},
             {e["slug"]: event(e) for e in get(f"{theirs_root}/api/events/", token)[1]})
        diff(f"{role}: event detail", {SLUG: event(get(f"{mine}/", token)[1])},
             {SLUG: event(get(f"{theirs}/", token)[1])})

        for name, path, key, params, mine_form, their_form in endpoints:
            if name == "rooms":
                mine_form = lambda r, role=role: mine_room(r, role)  # noqa: E731
            query = "?limit=1000" + (f"&{params}" if params else "")
            mine_list = every(f"{mine}/{path}/{query}", token)
            their_list = every(f"{theirs}/{path}/{query}", token)
            label = f"{role}: {name} list"
            if name == "answers" and role == "anonymous":
                # (9) the contract shows the public only answers on public
                # talks and their speakers; pretalx every public one.
                shown = [a for a in their_list if a["submission"] in public_talks
                         or a["person"] in public_speakers]
                label += f" (pretalx's {len(their_list) - len(shown)} on others left out)"
                check("anonymous: pretalx shows the public answers on submissions that are no "
                      "public talks (the contract does not)", len(shown) < len(their_list))
                their_list = shown
            if role in nested and name == "answers":
                # (13) what pretalx shows only nested
                theirs_ids = {item[key] for item in their_list}
                extra = {item[key]: answer(item) for item in mine_list if item[key] not in theirs_ids}
                diff(f"{role}: the mirror's answers beyond pretalx's list are those pretalx shows "
                     "only nested", extra, {i: answer(a) for i, a in nested[role].items()})
                mine_list = [item for item in mine_list if item[key] in theirs_ids]
            if name == "questions":
                limits = {q["id"]: (q["tracks"], q["submission_types"]) for q in mine_list}
                check(f"{role}: the mirror's questions are limited to no track or type "
                      "(pretalx 2024 does not show them)",
                      all(v == ([], []) for v in limits.values()), limits)
            if name == "tags":
                check(f"{role}: the mirror's tags are not public (pretalx 2024 does not show it)",
                      all(t["is_public"] is False for t in mine_list), mine_list)
            diff(label, {item[key]: mine_form(item) for item in mine_list},
                 {item[key]: their_form(item, role) for item in their_list})
            for probe in probes[name]:
                url = f"{{}}/{path}/{probe}/" + (f"?{params}" if params else "")
                status_mine, body_mine = get(url.format(mine), token)
                status_theirs, body_theirs = get(url.format(theirs), token)
                if status_mine == status_theirs == 200:
                    diff(f"{role}: {name} detail {probe}", {probe: mine_form(body_mine)},
                         {probe: their_form(body_theirs, role)})
                else:
                    check(f"{role}: {name} detail {probe}: the same status ({status_theirs})",
                          status_mine == status_theirs, f"confapi {status_mine}")

    # (12) pretalx's talk detail serves any submission to organisers (its
    # path test misses `/talks/{code}/`, reference 3.6.1); the contract
    # restricts it like the list (behaviour.md 6).
    not_talk = probes["submissions"][1]
    status_mine, _ = get(f"{mine}/talks/{not_talk}/", tokens["organiser"])
    status_theirs, _ = get(f"{theirs}/talks/{not_talk}/", tokens["organiser"])
    check(f"organiser: talks detail of a submission that is no talk ({not_talk}): "
          "pretalx 200, confapi 404", (status_theirs, status_mine) == (200, 404),
          (status_theirs, status_mine))


if __name__ == "__main__":
    main()
