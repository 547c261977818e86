"""A confapi mirror of the pretalx 2025.2.2 fixture's event, served: the
set-up that scripts/e2e/pretalx_v1_diff.py and scripts/e2e/pytanis_v1_e2e.py share.
Standard library only.

`mirror(binary, upstream, work, postgres)` writes an access file that gives
the mirrored administrator and the fixture's two reviewers pretalx's own
token strings (so that one token works on both servers), syncs the event
`democon` into a fresh database (SQLite in `work`, or a fresh PostgreSQL
database made from the admin URL `postgres`) with `confapi sync --event
democon --organiser democonorg`, and serves it. Returns the `Server` and
the tokens by role: "O" the organiser (the fixture's administrator), "R"
the reviewer, "T" the track-limited reviewer, and the roles file's data."""

import http.client
import json
import os
import subprocess
import time
import urllib.parse

from e2e import Server, fresh_postgres_database
from pretalx_upstream import ORGANISER, SLUG


def request(origin, path, token=None, version="v1"):
    """(status, headers, body bytes) of a GET; redirects are not followed."""
    parsed = urllib.parse.urlsplit(origin)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
    headers = {"Accept": "application/json"}
    if version:
        headers["Pretalx-Version"] = version
    if token:
        headers["Authorization"] = f"Token {token}"
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def get_json(origin, path, token=None):
    status, _, body = request(origin, path, token)
    if status != 200:
        raise RuntimeError(f"GET {origin}{path}: {status} {body[:300]!r}")
    return json.loads(body)


def every(origin, path, token):
    """Every item of a v1 list (following `next`)."""
    items = []
    while path:
        page = get_json(origin, path, token)
        if isinstance(page, list):
            return page
        items.extend(page["results"])
        path = page["next"] and urllib.parse.urlsplit(page["next"])._replace(scheme="", netloc="").geturl()
    return items


def mirror(binary, upstream, work, postgres=None, database="confapi_pretalx_mirror",
           sync_token=None):
    """`sync_token`: the token that reads the teams and syncs, when not the
    organiser's (pretalx 2026.2 answers organiser-level endpoints such as
    teams only to a token covering every event of the organiser: the 2026
    fixture's DIR/token.all_events); the mirrored administrator holds it
    too."""
    roles_file = upstream.token_file.with_name("token.roles.json")
    if not roles_file.exists():
        raise RuntimeError(f"{roles_file} is missing: that pretalx was set up by an older "
                           "scripts/upstream/pretalx_upstream.py; remove its directory")
    roles = json.loads(roles_file.read_text())
    token = upstream.token
    sync_token = sync_token or token
    tokens = {"O": token, "R": roles["reviewer"]["token"], "T": roles["trackrev"]["token"]}
    # The administrator (by code, from the teams) and the two reviewers with
    # pretalx's token strings; the event's review phase as pretalx's active
    # one ("Review", pretalx's defaults, which are the dataset's).
    teams = every(upstream.url, f"/api/organisers/{ORGANISER}/teams/?expand=members", sync_token)
    admin = next(m for t in teams for m in t["members"] if m["email"] == "admin@pretalx.invalid")
    event = get_json(upstream.url, f"/api/events/{SLUG}/", token)
    access = os.path.join(work, "access.json")
    with open(access, "w") as fp:
        json.dump({
            "users": [{"code": admin["code"], "name": admin["name"], "email": admin["email"],
                       "is_administrator": True,
                        "tokens": list(dict.fromkeys([token, sync_token]))}]
            + [{"code": roles[r]["code"], "name": r, "email": f"{r}@example.invalid",
                "tokens": [roles[r]["token"]]} for r in ("reviewer", "trackrev")],
            "events": [{"slug": SLUG, "name": event["name"], "date_from": event["date_from"],
                        "review_phase": {"name": "Review"}}],
        }, fp)
    label = "postgres" if postgres else "sqlite"
    db = (fresh_postgres_database(postgres, database) if postgres
          else f"sqlite://{work}/mirror.db")
    started = time.monotonic()
    result = subprocess.run(
        [binary, "sync", "--from", upstream.url, "--access", access, "--db", db,
         "--event", SLUG, "--organiser", ORGANISER],
        capture_output=True, text=True, timeout=300, env=dict(os.environ, CONFAPI_SYNC_TOKEN=sync_token))
    out = (result.stdout + result.stderr).strip()
    print(f"     {out.splitlines()[-1][:300] if out else '(no output)'} "
          f"[{label}, {time.monotonic() - started:.1f}s]")
    if result.returncode != 0:
        raise RuntimeError(f"confapi sync failed:\n{out[-2000:]}")
    return Server(binary, db, work, "mirror"), tokens, roles
