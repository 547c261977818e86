#!/usr/bin/env python3
"""confapi sync against a real pretalx 2025.2.2 (its versioned API, v1).

    python3 scripts/e2e/pretalx_e2e.py [--binary target/debug/confapi] [--postgres URL]
                                   [--pretalx-dir DIR] [--keep]

Starts pretalx (scripts/upstream/pretalx_upstream.py: cached virtualenv from PyPI,
SQLite, create_test_event, an administrator's read token bound to democon,
a second non-public event the token is not bound to, a public and a private
resource, an inactive question with answers, a reviewer), runs `confapi
sync --event democon` into a fresh database (SQLite, or with --postgres a
fresh PostgreSQL database made from that admin URL), serves the mirror with
an organiser and a reviewer token (access file), and checks:

- the sync detects the versioned API, writes the event, never prints the token;
- a sync without --event skips the event the token may not read (logging
  `skipped: hiddencon (403: ...)`), mirrors democon as --event does, and the
  mirror answers for hiddencon as for an unknown event, to everyone;
- the public: confapi's anonymous talks, speakers and rooms are what pretalx
  shows the public (talks and rooms: pretalx's own legacy-format answers, the
  format confapi serves; speakers and resources: pretalx's v1 public answers,
  since its legacy speakers endpoint refuses the legacy version and its
  legacy format shows private resources to anyone), apart from the
  documented differences (docs/sync.md, "Mirroring a pretalx");
- the private resource and the inactive question (and its answers) are
  never shown to the public or the reviewer: API lists and details, `?questions=all`,
  the frab XML and JSON and the widget data; organisers see both resources
  and the question with its answers;
- the organisers: submissions (pretalx's legacy-format organiser answer),
  speakers with e-mail, reviews, questions and answers (pretalx v1) match;
- a second sync writes nothing and keeps the generation, every body and ETag;
- the schedule exports (frab JSON) carry pretalx's talk ids and guids;
- one submission changed upstream rewrites its record and is served.

With --pretalx-dir, pretalx is set up in DIR unless an earlier run did so,
and reused (so scripts/test sets it up once for SQLite and PostgreSQL); one
title is changed there on each run (appended or taken off again).
Prints "pretalx e2e (sqlite|postgres): N passed, N failed".
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from xml.etree import ElementTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The pretalx upstreams and the mirror's set-up (scripts/upstream/).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "upstream"))
from e2e import Checks, EventStream, HookReceiver, Server, fresh_postgres_database  # noqa: E402
from pretalx_upstream import HIDDEN_SLUG, ORGANISER, SLUG, VERSION, Upstream  # noqa: E402

check = Checks(limit=3000)
# confapi's own administrator on the mirror (from the access file).
MIRROR_TOKEN = "pretalx-e2e-mirror-admin-0123456789abcdef"
# The fixture's reviewer on the mirror (the access file gives the token).
REVIEWER_TOKEN = "pretalx-e2e-mirror-reviewer-0123456789ab"
# The fixture's resources (pretalx_upstream.py SETUP), as (URL, description).
HOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
SLIDES = ("https://example.org/slides", "Slides")
NOTES = ("https://example.org/notes", "Notes")


def get(url, token=None, version=None):
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    if version:
        headers["Pretalx-Version"] = version
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=60) as r:
        return json.load(r), r.headers.get("ETag")


def fetch(url, token=None):
    """(status, body) of a GET, error answers included."""
    headers = {"Authorization": f"Token {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def every(url, token=None, version=None):
    """Every result of a paginated list (any pagination), or a plain list."""
    out = []
    while url:
        page, _ = get(url, token, version)
        if isinstance(page, list):
            return page
        out.extend(page["results"])
        url = page["next"]
    return out


def en(value):
    """confapi gives i18n texts as objects; pretalx's legacy format, as strings."""
    if isinstance(value, dict):
        return value.get("en", next(iter(value.values()), "")) if value else None
    return value


def pairs(resources):
    """Resources as sorted (URL, description) pairs, whatever else they carry."""
    return sorted((r["resource"], r["description"]) for r in resources)


def instant(text):
    return datetime.datetime.fromisoformat(text).timestamp()


def diff(name, mine, theirs):
    """A check that two {key: record} maps are equal, naming the first differences."""
    problems = []
    for key in sorted(set(mine) | set(theirs)):
        if mine.get(key) != theirs.get(key):
            problems.append(f"{key}: confapi {mine.get(key)!r} != pretalx {theirs.get(key)!r}")
    check(f"{name} ({len(theirs)} compared)", not problems and theirs, "\n".join(problems[:5]))


def public_talk(t):
    """A talk in the legacy format, with the contract's differences evened out."""
    slot = t["slot"] or {}
    return {
        "title": t["title"], "abstract": t["abstract"], "description": t["description"],
        "state": t["state"], "duration": t["duration"], "slot_count": t["slot_count"],
        "do_not_record": t["do_not_record"], "is_featured": t["is_featured"],
        "content_locale": t["content_locale"], "image": t["image"],
        "submission_type": en(t["submission_type"]), "submission_type_id": t["submission_type_id"],
        "track": en(t["track"]), "track_id": t["track_id"],
        "speakers": sorted((s["code"], s["name"], s["biography"], s["avatar"]) for s in t["speakers"]),
        "slot": (slot.get("start"), slot.get("end"), slot.get("room_id"), en(slot.get("room"))),
        "resources": pairs(t["resources"]),
        "answers": sorted(a["id"] for a in t.get("answers", [])),
    }


def start_upstream(root):
    """pretalx set up in `root`, or what an earlier run set up there, started."""
    upstream = Upstream(root)
    if upstream.token_file.exists():
        # Served on a new port: pretalx writes its URL into links and exports.
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
    parser.add_argument("--postgres", help="admin URL; the mirrors go into fresh databases made from it")
    parser.add_argument("--pretalx-dir", help="set pretalx up here, or reuse what an earlier run set up here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    label = "postgres" if args.postgres else "sqlite"
    work = tempfile.mkdtemp(prefix="pretalx-e2e-")
    upstream = start_upstream(os.path.abspath(args.pretalx_dir or os.path.join(work, "pretalx")))
    token = upstream.token
    # The fixture's reviewer (a member of the reviewer team, mirrored with
    # --organiser) gets a token on the mirror through the access file.
    upstream_teams = every(f"{upstream.url}/api/organisers/{ORGANISER}/teams/?expand=members", token, "v1")
    # (The track-limited reviewer team is scripts/e2e/pretalx_v1_diff.py's.)
    reviewers = sorted(m["code"] for t in upstream_teams if t["name"] == "DemoCon Reviewers"
                       for m in t["members"])
    check("the fixture has one reviewer, in the reviewer team", len(reviewers) == 1, upstream_teams)
    access = os.path.join(work, "access.json")
    with open(access, "w") as fp:
        json.dump({"users": [{"code": "MIRRORADM", "name": "Mirror Admin",
                              "email": "mirror-admin@example.org", "is_administrator": True,
                              "tokens": [MIRROR_TOKEN]}]
                   # name and e-mail address come from upstream
                   + [{"code": code, "name": "Reviewer", "email": "reviewer@example.invalid",
                       "tokens": [REVIEWER_TOKEN]} for code in reviewers[:1]]}, fp)

    def database(name):
        if args.postgres:
            return fresh_postgres_database(args.postgres, name)
        return f"sqlite://{work}/{name}.db"
    db = database("confapi_pretalx_e2e")

    def sync(*extra, backoff_ms="500", organiser=True, event=SLUG, into=None):
        """`confapi sync` of `event` (None: of every event the token sees)."""
        started = time.monotonic()
        teams = ["--organiser", ORGANISER] if organiser else []
        events = ["--event", event] if event else []
        result = subprocess.run(
            [binary, "sync", "--from", upstream.url, "--access", access, "--db", into or db,
             *events, *teams, *extra],
            capture_output=True, text=True, timeout=300,
            env=dict(os.environ, CONFAPI_SYNC_TOKEN=token, CONFAPI_SYNC_BACKOFF_MS=backoff_ms))
        out = result.stdout + result.stderr
        print(f"     {out.strip().splitlines()[-1][:300] if out.strip() else '(no output)'}"
              f" [{time.monotonic() - started:.1f}s]")
        return result.returncode, out

    server = server_all = None
    try:
        status, out = sync()
        check(f"a sync of {SLUG} from pretalx {VERSION} succeeds", status == 0 and "record(s) written" in out, out)
        check("the token is never printed", token not in out, "token in the output")
        # The mirror sends its public change feed to a webhook receiver.
        receiver = HookReceiver(HOOK_SECRET)
        hooks = os.path.join(work, "webhooks.json")
        with open(hooks, "w") as fp:
            json.dump([{"event": SLUG, "url": receiver.url, "secret": HOOK_SECRET}], fp)
        server = Server(binary, db, work, "mirror",
                        extra=["--webhooks", hooks, "--webhooks-allow-private"])
        mine = f"{server.url}/api/events/{SLUG}"
        theirs = f"{upstream.url}/api/events/{SLUG}"

        # --- what the public sees
        talks = {t["code"]: public_talk(t) for t in every(f"{mine}/talks/?limit=1000")}
        legacy = {t["code"]: public_talk(t)
                  for t in every(f"{theirs}/submissions/?limit=250&offset=0", version="LEGACY")}
        v1_public = every(f"{theirs}/submissions/?page_size=250&expand=resources", version="v1")
        check("the public sees talks", len(talks) > 0, talks)
        check("pretalx's legacy and v1 answers show the public the same talks",
              set(legacy) == {s["code"] for s in v1_public})

        def without_resources(records):
            return {code: {k: v for k, v in r.items() if k != "resources"} for code, r in records.items()}
        # pretalx's legacy format shows the public private resources too
        # (checked below): resources are compared with its v1 answer.
        diff("anonymous talks = pretalx's public talks (legacy format; resources apart)",
             without_resources(talks), without_resources(legacy))

        speakers = {s["code"]: (s["name"], s["biography"], sorted(s["submissions"]), s["avatar"])
                    for s in every(f"{mine}/speakers/?limit=1000")}
        upstream_speakers = {s["code"]: (s["name"], s["biography"], sorted(s["submissions"]),
                                         s.get("avatar_url") or None)
                             for s in every(f"{theirs}/speakers/?page_size=250", version="v1")}
        diff("anonymous speakers = pretalx's public speakers (v1)", speakers, upstream_speakers)

        def room(r):
            return (r["guid"], en(r["name"]), en(r["description"]) or None, r["capacity"], r["position"])
        rooms = {r["id"]: room(r) for r in every(f"{mine}/rooms/?limit=1000")}
        upstream_rooms = {r["id"]: room(r) for r in every(f"{theirs}/rooms/?limit=1000", version="LEGACY")}
        diff("anonymous rooms = pretalx's public rooms (legacy format)", rooms, upstream_rooms)

        # --- what organisers see
        def orga_submission(s):
            record = public_talk(s)
            record.update({k: s[k] for k in ("pending_state", "tag_ids")})
            # pretalx shows unset notes as null, confapi as "" (the contract's strings).
            record["notes"] = s["notes"] or ""
            record["internal_notes"] = s["internal_notes"] or ""
            record["created"] = instant(s["created"])
            record["speakers"] = sorted((x["code"], x["name"], x["biography"], x["avatar"], x.get("email"))
                                        for x in s["speakers"])
            return record
        orga = {s["code"]: orga_submission(s)
                for s in every(f"{mine}/submissions/?limit=1000", MIRROR_TOKEN)}
        upstream_orga = {s["code"]: orga_submission(s)
                         for s in every(f"{theirs}/submissions/?limit=250&offset=0", token, "LEGACY")}
        check("organisers see submissions in every state",
              {s["state"] for s in orga.values()} >= {"confirmed", "rejected"}, orga)
        diff("organiser submissions = pretalx's organiser submissions (legacy format)",
             orga, upstream_orga)

        def times(record):
            """Availabilities as UTC instants (confapi and pretalx write offsets differently)."""
            return sorted((instant(a["start"]), instant(a["end"])) for a in record.get("availabilities", []))
        orga_speakers = {s["code"]: (s["name"], s["email"], sorted(s["submissions"]), times(s))
                         for s in every(f"{mine}/speakers/?limit=1000", MIRROR_TOKEN)}
        upstream_orga_speakers = {s["code"]: (s["name"], s["email"], sorted(s["submissions"]), times(s))
                                  for s in every(f"{theirs}/speakers/?page_size=250", token, "v1")}
        check("some speakers have availabilities", sum(bool(s[3]) for s in orga_speakers.values()) == 3,
              orga_speakers)
        diff("organiser speakers with e-mail and availabilities = pretalx's (v1)",
             orga_speakers, upstream_orga_speakers)
        orga_rooms = {r["id"]: times(r) for r in every(f"{mine}/rooms/?limit=1000", MIRROR_TOKEN)}
        upstream_orga_rooms = {r["id"]: times(r) for r in every(f"{theirs}/rooms/?limit=1000", token, "v1")}
        check("a room has availabilities", any(orga_rooms.values()), orga_rooms)
        diff("room availabilities = pretalx's (v1)", orga_rooms, upstream_orga_rooms)

        reviews = {r["id"]: (r["submission"], r["user"], r["text"] or "", r["score"])
                   for r in every(f"{mine}/reviews/?limit=1000", MIRROR_TOKEN)}
        upstream_reviews = {r["id"]: (r["submission"], r["user"]["name"], r["text"] or "",
                                      None if r["score"] is None else float(r["score"]))
                            for r in every(f"{theirs}/reviews/?page_size=250&expand=user", token, "v1")}
        diff("reviews = pretalx's (v1; the reviewer by name, as the legacy format has it)",
             reviews, upstream_reviews)
        review_times = {r["id"]: (instant(r["created"]), instant(r["updated"]))
                        for r in every(f"{mine}/reviews/?limit=1000", MIRROR_TOKEN)}
        upstream_review_times = {r["id"]: (instant(r["created"]), instant(r["updated"]))
                                 for r in every(f"{theirs}/reviews/?limit=250&offset=0", token, "LEGACY")}
        diff("review times = pretalx's (its legacy format, the only one that shows them)",
             review_times, upstream_review_times)

        questions = {q["id"]: (en(q["question"]), q["variant"], q["target"], q["is_public"],
                               sorted((o["id"], en(o["answer"])) for o in q["options"]))
                     for q in every(f"{mine}/questions/?limit=1000", MIRROR_TOKEN)}
        upstream_questions = {q["id"]: (en(q["question"]), q["variant"], q["target"], q["is_public"],
                                        sorted((o["id"], en(o["answer"])) for o in q["options"]))
                              for q in every(f"{theirs}/questions/?page_size=250&expand=options", token, "v1")}
        diff("questions with options = pretalx's (v1)", questions, upstream_questions)

        answers = {a["id"]: (a["question"]["id"], a["answer"], a["submission"], sorted(o["id"] for o in a["options"]))
                   for a in every(f"{mine}/answers/?limit=1000", MIRROR_TOKEN)}
        upstream_answers = {a["id"]: (a["question"], a["answer"], a["submission"], sorted(a["options"]))
                            for a in every(f"{theirs}/answers/?page_size=250", token, "v1")}
        diff("answers = pretalx's (v1)", answers, upstream_answers)

        tags = {t["id"]: (t["tag"], t["color"], t["is_public"]) for t in every(f"{mine}/tags/?limit=1000", MIRROR_TOKEN)}
        upstream_tags = {t["id"]: (t["tag"], t["color"], t["is_public"])
                         for t in every(f"{theirs}/tags/?page_size=250", token, "v1")}
        diff("tags = pretalx's (v1)", tags, upstream_tags)

        # Teams are not in confapi's API; the mirror's export shows them.
        exported = os.path.join(work, "export.json")
        subprocess.run([binary, "export", "--db", db, "-o", exported], check=True, capture_output=True)
        with open(exported) as fp:
            dataset = json.load(fp)
        team_keys = ("can_change_submissions", "is_reviewer", "force_hide_speaker_names", "limit_tracks")
        teams = {t["name"]: (sorted(t["members"]), *(t[k] for k in team_keys))
                 for t in dataset["events"][0].get("teams", [])}
        upstream_teams = {t["name"]: (sorted(m["code"] for m in t["members"]), *(t[k] for k in team_keys))
                          for t in every(f"{upstream.url}/api/organisers/{ORGANISER}/teams/?expand=members",
                                         token, "v1")
                          if t["all_events"] or SLUG in t["limit_events"]}
        diff(f"teams = pretalx's (v1, --organiser {ORGANISER})", teams, upstream_teams)
        emails = {u["code"]: u["email"] for u in dataset["users"]}
        check("team members are users with their e-mail addresses",
              all(emails.get(code) for team in teams.values() for code in team[0]) and teams, teams)

        # --- the schedule exports carry pretalx's ids and guids, so apps keep
        # their favourites when they move to the mirror
        def frab_talks(base):
            doc, _ = get(f"{base}/{SLUG}/schedule/export/schedule.json")
            return {t["id"]: (t["guid"], t["date"])
                    for day in doc["schedule"]["conference"]["days"]
                    for talks in day["rooms"].values() for t in talks}
        mirrored, upstream_talks = frab_talks(server.url), frab_talks(upstream.url)
        check("the frab JSON export has talks", len(upstream_talks) > 0, upstream_talks)
        diff("frab JSON talk ids and guids = pretalx's", {i: g for i, (g, _) in mirrored.items()},
             {i: g for i, (g, _) in upstream_talks.items()})

        # --- every event the token sees: /api/events/ lists hiddencon to the
        # token (its user's team covers it), whose lists answer 403 (the token
        # is bound to democon only); it is skipped, democon is mirrored.
        upstream_slugs = [e["slug"] for e in get(f"{upstream.url}/api/events/", token, "v1")[0]]
        status, body = fetch(f"{upstream.url}/api/events/{HIDDEN_SLUG}/submissions/", token)
        check(f"pretalx lists {HIDDEN_SLUG} to the token, and answers 403 to its lists",
              upstream_slugs == [HIDDEN_SLUG, SLUG] and status == 403, (upstream_slugs, status, body))
        db_all = database("confapi_pretalx_e2e_all")
        status, out_all = sync(event=None, into=db_all)
        check(f"a sync without --event succeeds and writes {SLUG} only",
              status == 0 and f"event(s) changed: {SLUG} (generation 1)" in out_all, out_all)
        check(f"... logs `skipped: {HIDDEN_SLUG} (403: ...)`",
              re.search(rf"skipped: {HIDDEN_SLUG} \(403: [^\n]+\)", out_all), out_all)
        check("... and never prints the token", token not in out_all, "token in the output")
        if status == 0:
            server_all = Server(binary, db_all, work, "mirror-all")
            for who, key in (("anonymous callers", None), ("the organiser", MIRROR_TOKEN)):
                slugs = [e["slug"] for e in every(f"{server_all.url}/api/events/", key)]
                answers = {}
                for path, expected in (("/api/events/{}/", 403), ("/api/events/{}/submissions/", 403),
                                       ("/api/events/{}/talks/", 403), ("/{}/schedule.xml", 404),
                                       ("/{}/schedule.json", 404)):
                    hidden = fetch(server_all.url + path.format(HIDDEN_SLUG), key)
                    unknown = fetch(server_all.url + path.format("nosuchcon"), key)
                    if hidden != unknown or hidden[0] != expected:
                        answers[path] = (hidden, unknown, expected)
                check(f"the mirror of every event lists {SLUG} only and answers {who} for {HIDDEN_SLUG} "
                      "as for an unknown event (API 403, exports 404)", slugs == [SLUG] and not answers,
                      (slugs, answers))

            def organiser_view(url):
                return {what: get(f"{url}/api/events/{SLUG}/{what}/?limit=1000&questions=all", MIRROR_TOKEN)[0]
                        for what in ("submissions", "speakers", "questions", "answers", "reviews", "rooms")}
            check(f"... and serves {SLUG} as the sync with --event does",
                  organiser_view(server_all.url) == organiser_view(server.url))
        else:
            check("the mirror of every event (not checked: the sync without --event failed)", False)

        # --- resources: a public and a private one on one talk
        upstream_resources = {s["code"]: pairs(s["resources"])
                              for s in every(f"{theirs}/submissions/?page_size=250&expand=resources", token, "v1")
                              if s["resources"]}
        both = sorted([SLIDES, NOTES])
        check("pretalx: one talk has a public and a private resource (organiser view, v1)",
              list(upstream_resources.values()) == [both] and set(upstream_resources) <= set(talks),
              upstream_resources)
        code_r = next(iter(upstream_resources), "")
        public_resources = {s["code"]: pairs(s["resources"]) for s in v1_public}
        check("pretalx shows the public only the public one (v1)", public_resources.get(code_r) == [SLIDES],
              public_resources.get(code_r))
        check("pretalx's legacy format shows the public both (so talks are compared with v1's resources)",
              legacy.get(code_r, {}).get("resources") == both, legacy.get(code_r))
        diff("anonymous talks' resources = pretalx's public resources (v1)",
             {code: t["resources"] for code, t in talks.items()}, public_resources)
        public_entry = [{"resource": SLIDES[0], "description": SLIDES[1]}]
        for who, key in (("anonymous", None), ("the reviewer", REVIEWER_TOKEN)):
            seen, leaks = {}, []
            for what in ("talks", "submissions"):
                for url in (f"{mine}/{what}/?limit=1000&questions=all", f"{mine}/{what}/{code_r}/"):
                    status, body = fetch(url, key)
                    if NOTES[0].encode() in body:
                        leaks.append(url)
                    if status != 200:
                        seen[url] = status
                        continue
                    doc = json.loads(body)
                    items = [x for x in doc.get("results", [doc]) if x["code"] == code_r]
                    seen[url] = items[0]["resources"] if len(items) == 1 else items
            check(f"{who} sees only the public resource of {code_r} (talks and submissions, lists and details)",
                  all(v == public_entry for v in seen.values()) and not leaks, (seen, leaks))
            exports = {path: fetch(f"{server.url}/{SLUG}/{path}", key)
                       for path in ("schedule.xml", "schedule.json", "schedule/widgets/schedule.json")}
            found = {path: status for path, (status, _) in exports.items() if status != 200}
            if not found:
                found["schedule.xml"] = [
                    (link.get("href"), link.text)
                    for event in ElementTree.fromstring(exports["schedule.xml"][1]).iter("event")
                    if event.findtext("url", "").endswith(f"/talk/{code_r}/")
                    for link in event.find("links")]
                found["schedule.json"] = [
                    talk["links"]
                    for day in json.loads(exports["schedule.json"][1])["schedule"]["conference"]["days"]
                    for room in day["rooms"].values() for talk in room
                    if talk["url"].endswith(f"/talk/{code_r}/")]
            # ... nor any answer to the inactive question (pretalx_upstream.py SETUP)
            leaks = [(path, secret) for path, (_, body) in exports.items()
                     for secret in (NOTES[0].encode(), b"Retired answer") if secret in body]
            check(f"{who}'s frab XML and JSON link only the public resource, the widget data neither; "
                  "no export shows an answer to the inactive question",
                  found == {"schedule.xml": [SLIDES],
                            "schedule.json": [[{"url": SLIDES[0], "title": SLIDES[1]}]]} and not leaks,
                  (found, leaks))
        orga_seen = {}
        for what in ("talks", "submissions"):
            for url in (f"{mine}/{what}/?limit=1000", f"{mine}/{what}/{code_r}/"):
                doc = get(url, MIRROR_TOKEN)[0]
                items = [x for x in doc.get("results", [doc]) if x["code"] == code_r]
                orga_seen[url] = pairs(items[0]["resources"]) if len(items) == 1 else items
        check(f"organisers see both resources of {code_r} (talks and submissions, lists and details)",
              all(v == both for v in orga_seen.values()), orga_seen)

        # --- an inactive public question with answers
        upstream_questions_v1 = every(f"{theirs}/questions/?page_size=250", token, "v1")
        inactive = [q for q in upstream_questions_v1 if not q["active"]]
        check("pretalx: one inactive public question (organiser view, v1)",
              [(en(q["question"]), q["is_public"]) for q in inactive] == [("Previous talk", True)], inactive)
        qi = inactive[0]["id"] if inactive else 0
        public_qids = [q["id"] for q in every(f"{theirs}/questions/?page_size=250", version="v1")]
        check("pretalx shows the public only the active public questions (v1)",
              public_qids == [q["id"] for q in upstream_questions_v1 if q["active"] and q["is_public"]]
              and qi not in public_qids, public_qids)
        upstream_answer_list = every(f"{theirs}/answers/?page_size=250", token, "v1")
        qi_answers = sorted(a["id"] for a in upstream_answer_list if a["question"] == qi)
        check("pretalx: three answers to it, on talks", len(qi_answers) == 3 and all(
            a["submission"] in talks for a in upstream_answer_list if a["question"] == qi), qi_answers)
        # What pretalx's legacy format shows the public with questions=all:
        # answers to active public questions on its talks.
        upstream_public_answers = {
            t["code"]: sorted(a["id"] for a in t["answers"])
            for t in every(f"{theirs}/submissions/?limit=250&offset=0&questions=all", version="LEGACY")}
        public_answer_ids = sorted(i for ids in upstream_public_answers.values() for i in ids)
        check("pretalx's public answers leave out the inactive question's",
              public_answer_ids and not set(public_answer_ids) & set(qi_answers), upstream_public_answers)

        def answer_ids(url, key):
            return {s["code"]: sorted(a["id"] for a in s["answers"]) for s in every(url, key)}
        reviewer_qids = [q["id"] for q in upstream_questions_v1
                         if q["active"] and (q["is_visible_to_reviewers"] or q["target"] == "reviewer")]
        for who, key, qids in (("anonymous", None, public_qids), ("the reviewer", REVIEWER_TOKEN, reviewer_qids)):
            mirror_qids = [q["id"] for q in every(f"{mine}/questions/?limit=1000", key)]
            check(f"{who}: questions = pretalx's rule ({'public' if key is None else 'for reviewers'}, "
                  "active), without the inactive one", mirror_qids == qids, (mirror_qids, qids))
            unknown = fetch(f"{mine}/questions/999999/", key)
            check(f"{who}: the inactive question answers as an unknown one (404)",
                  fetch(f"{mine}/questions/{qi}/", key) == unknown and unknown[0] == 404,
                  fetch(f"{mine}/questions/{qi}/", key))
            if key is None:
                expected = {what: upstream_public_answers for what in ("talks", "submissions")}
            else:
                # pretalx's answers to the reviewers' questions, on what the reviewer sees
                seen_codes = [s["code"] for s in every(f"{mine}/submissions/?limit=1000", key)]
                per_code = {code: sorted(a["id"] for a in upstream_answer_list
                                         if a["submission"] == code and a["question"] in qids)
                            for code in seen_codes}
                expected = {"submissions": per_code,
                            "talks": {code: per_code[code] for code in talks if code in per_code}}
            for what in ("talks", "submissions"):
                diff(f"{who}: answers in {what} (questions=all), none to the inactive question",
                     answer_ids(f"{mine}/{what}/?limit=1000&questions=all", key), expected[what])
            mirror_answers = sorted(a["id"] for a in every(f"{mine}/answers/?limit=1000", key))
            # The answers list holds what the caller sees nested (behaviour.md):
            # in submissions, and speakers' and reviews' own answers (the
            # fixture's speaker question and reviewers' question).
            nested = {i for ids in expected["submissions"].values() for i in ids}
            for what in ("speakers", "reviews"):
                status, _ = fetch(f"{mine}/{what}/?limit=1", key)
                if status != 200:
                    continue
                for item in every(f"{mine}/{what}/?limit=1000&questions=all", key):
                    nested |= {a["id"] for a in item.get("answers") or [] if isinstance(a, dict)}
            wanted = sorted(nested - set(qi_answers))
            check(f"{who}: answers = the answers shown nested (submissions, speakers, reviews), "
                  "none to the inactive question", mirror_answers == wanted, (mirror_answers, wanted))
            unknown = fetch(f"{mine}/answers/999999/", key)
            check(f"{who}: an answer to the inactive question answers as an unknown one (404)",
                  fetch(f"{mine}/answers/{qi_answers[0] if qi_answers else 0}/", key) == unknown
                  and unknown[0] == 404, unknown)
        orga_qids = [q["id"] for q in every(f"{mine}/questions/?limit=1000", MIRROR_TOKEN)]
        status, body = fetch(f"{mine}/questions/{qi}/", MIRROR_TOKEN)
        check("organisers see every question, the inactive one too (list and detail)",
              orga_qids == [q["id"] for q in upstream_questions_v1] and status == 200
              and json.loads(body)["question"] == {"en": "Previous talk"}, (orga_qids, status, body[:300]))
        orga_qi_answers = sorted(a["id"] for a in every(f"{mine}/answers/?limit=1000", MIRROR_TOKEN)
                                 if a["question"]["id"] == qi)
        check("... and its answers", orga_qi_answers == qi_answers, (orga_qi_answers, qi_answers))
        orga_codes = [s["code"] for s in every(f"{mine}/submissions/?limit=1000", MIRROR_TOKEN)]
        diff("organisers: answers in submissions (questions=all) = pretalx's answers (v1)",
             answer_ids(f"{mine}/submissions/?limit=1000&questions=all", MIRROR_TOKEN),
             {code: sorted(a["id"] for a in upstream_answer_list if a["submission"] == code)
              for code in orga_codes})

        # --- a second sync: nothing changed upstream
        def snapshot():
            seen = {}
            for what in ("submissions", "talks", "speakers", "reviews", "answers", "questions", "rooms", "tags"):
                body, etag = get(f"{mine}/{what}/?limit=1000&questions=all", MIRROR_TOKEN)
                seen[what] = (etag, body)
            return seen
        before = snapshot()
        generation = re.search(r"generation (\d+)", out)
        status, out = sync()
        check("a second sync with nothing changed writes nothing and keeps the generation",
              status == 0 and "nothing changed" in out and generation
              and f"generation {generation.group(1)}" in out, out)
        check("... and keeps every body and ETag", snapshot() == before)

        status, out = sync("--api", "v1")
        check("--api v1 reads the same", status == 0 and "nothing changed" in out, out)
        status, out = sync("--api", "legacy", backoff_ms="50")
        check("--organiser with the legacy API is refused, nothing changed",
              status == 1 and "--organiser needs" in out and "nothing changed" in out, out)
        status, out = sync("--api", "legacy", backoff_ms="50", organiser=False)
        check("--api legacy against pretalx 2025 fails with the URL, and changes nothing",
              status == 1 and "GET http" in out and "nothing changed" in out and token not in out, out)

        # --- one change upstream: a title gets " (revised)", or loses it
        # again where an earlier run (--pretalx-dir) appended it
        code = sorted(talks)[0]
        stream = EventStream(f"{mine}/changes/")
        before_title = get(f"{theirs}/submissions/{code}/", version="v1")[0]["title"]
        upstream.manage(
            "shell", "--unsafe-disable-scopes", "-c",
            "from pretalx.submission.models import Submission\n"
            f"s = Submission.objects.get(code='{code}')\n"
            "s.title = s.title[:-10] if s.title.endswith(' (revised)') else s.title + ' (revised)'\n"
            "s.save()\n")
        new_title = get(f"{theirs}/submissions/{code}/", version="v1")[0]["title"]
        status, out = sync()
        written = re.search(r"(\d+) record\(s\) written", out)
        check("one submission changed upstream rewrites only its record (and the event's row)",
              status == 0 and written and int(written.group(1)) <= 2 and new_title != before_title, out)
        deadline = time.monotonic() + 2
        while True:
            title = get(f"{mine}/talks/{code}/")[0]["title"]
            if title == new_title or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        check("... and the mirror serves it", title == new_title, (title, new_title))
        renamed = {"kind": "talk", "code": code, "action": "updated"}
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not (
                any(renamed in r["body"]["changes"] for r in receiver.received)
                and any(renamed in item["changes"] for item in stream.items)):
            time.sleep(0.05)
        check("... and the change reaches a webhook receiver, signed",
              any(renamed in r["body"]["changes"] and r["verified"] for r in receiver.received),
              receiver.received)
        check("... and an SSE client", any(renamed in item["changes"] for item in stream.items), stream.items)
        receiver.stop()
        problems = server.log_problems() + (server_all.log_problems() if server_all else [])
        check("the mirrors logged no error or 5xx", not problems, problems[:5])
    finally:
        for running in (server, server_all):
            if running:
                running.stop()
        upstream.stop()
        if args.keep:
            print(f"     kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"pretalx e2e ({label}): {check.passed} passed, {check.failed} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
