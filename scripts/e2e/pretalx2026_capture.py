#!/usr/bin/env python3
"""Raw answers of a real pretalx 2026.2.1 to a corpus of read requests,
written as JSON files for reading (not a test: nothing is compared).

    python3 scripts/e2e/pretalx2026_capture.py --out DIR [--pretalx-dir DIR]

Starts pretalx 2026.2.1 (scripts/upstream/pretalx2026_upstream.py; with
--pretalx-dir, what an earlier run set up there is reused) and sends, as
each role (A anonymous, O the democon-bound organiser token, E the
all-events organiser token, R the reviewer, T the track-limited reviewer,
B a token pretalx does not know):

1. first, before any other request (a token without a stored version is
   pinned to the first version it is used with): `GET /api/` and
   `GET /api/events/` without `Pretalx-Version`, with it empty, and with
   `v2`, `v1`, `v-next`, `DEV_PREVIEW`, `LEGACY` and a garbage value;
2. every line of scripts/e2e/pretalx_v1_diff.py's REQUESTS table (also
   what confapi does not serve), for its roles and E, once with
   `Pretalx-Version: v2` and once with v1 (lines with their own
   `version=` once);
3. last, what each token's stored version became (pretalx's shell).

DIR/versions.json holds part 1, DIR/v2/ENDPOINT.json and DIR/v1/ENDPOINT.json
part 2 (a list of {role, path, version, status, content_type, location,
body}; JSON bodies parsed, others as text up to 4,000 characters),
DIR/token-versions.json part 3. Tokens are never written or printed.
"""

import argparse
import http.client
import json
import os
import sys
import urllib.parse
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "upstream"))
import pretalx_v1_diff as diff  # noqa: E402
from pretalx2026_upstream import start_upstream  # noqa: E402

ODD_VERSIONS = [None, "", "v2", "v1", "v-next", "DEV_PREVIEW", "LEGACY", "v0-bogus!"]


def send(origin, path, token, version):
    """One GET; `version` None sends no Pretalx-Version, "" an empty one."""
    parsed = urllib.parse.urlsplit(origin)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
    try:
        connection.putrequest("GET", path)
        connection.putheader("Accept", "application/json")
        if version is not None:
            connection.putheader("Pretalx-Version", version)
        if token:
            connection.putheader("Authorization", f"Token {token}")
        connection.endheaders()
        response = connection.getresponse()
        body = response.read()
        headers = {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()
    content_type = headers.get("content-type", "")
    if content_type.split(";")[0].strip() == "application/json":
        try:
            parsed_body = json.loads(body)
        except ValueError:
            parsed_body = body[:4000].decode(errors="replace")
    else:
        parsed_body = body[:4000].decode(errors="replace")
    return {"status": response.status, "content_type": content_type,
            "location": headers.get("location"), "body": parsed_body}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--pretalx-dir", help="set pretalx up here, or reuse what an earlier run set up here")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    pretalx_dir = os.path.abspath(args.pretalx_dir or os.path.join(out, "..", "p26-pretalx"))
    upstream = start_upstream(pretalx_dir)
    try:
        roles = json.loads((upstream.root / "token.roles.json").read_text())
        tokens = {"A": None, "O": upstream.token, "E": upstream.all_events_token,
                  "R": roles["reviewer"]["token"], "T": roles["trackrev"]["token"],
                  "B": diff.BOGUS_TOKEN}
        # 1. The versions, first.
        versions = []
        for role, token in tokens.items():
            for path in ("/api/", "/api/events/"):
                for version in ODD_VERSIONS:
                    versions.append({"role": role, "path": path, "version": version,
                                     **send(upstream.url, path, token, version)})
        with open(os.path.join(out, "versions.json"), "w") as fp:
            json.dump(versions, fp, indent=1)
        print(f"versions.json: {len(versions)} requests")
        # 2. The table, v2 and v1. Facts read with the all-events token.
        facts = diff.Facts(upstream.url, tokens["E"], roles)
        for api_version in ("v2", "v1"):
            by_endpoint = defaultdict(list)
            seen = set()
            for endpoint, role, path_t, query_t, version in diff.parse_table(diff.REQUESTS, api_version):
                if version not in ("v1", "v2") and api_version == "v1":
                    continue  # lines with their own version: once (in v2/)
                for who in (role, "E") if role == "O" else (role,):
                    try:
                        path = path_t.format_map(facts)
                        query = query_t.format_map(facts)
                    except Exception as err:  # noqa: BLE001 -- recorded, not fatal
                        by_endpoint[endpoint].append({"role": who, "path": path_t, "query": query_t,
                                                      "error": f"fixture fact missing: {err!r}"})
                        continue
                    target = path + ("?" + query if query else "")
                    if (who, target, version) in seen:
                        continue
                    seen.add((who, target, version))
                    by_endpoint[endpoint].append({"role": who, "path": target, "version": version,
                                                  **send(upstream.url, target, tokens[who], version)})
            os.makedirs(os.path.join(out, api_version), exist_ok=True)
            for endpoint, entries in by_endpoint.items():
                with open(os.path.join(out, api_version, f"{endpoint}.json"), "w") as fp:
                    json.dump(entries, fp, indent=1)
            print(f"{api_version}/: {sum(len(e) for e in by_endpoint.values())} requests "
                  f"in {len(by_endpoint)} files")
    finally:
        upstream.stop()
    # 3. The tokens' stored versions (names only).
    script = ("import json\nfrom pretalx.person.models.auth_token import UserApiToken\n"
              f"open({str(upstream.root / 'token-versions.json')!r}, 'w').write(json.dumps("
              "{t.name: t.version for t in UserApiToken.objects.order_by('pk')}))\n")
    upstream.manage("shell", "--unsafe-disable-scopes", "-c", script)
    stored = (upstream.root / "token-versions.json").read_text()
    with open(os.path.join(out, "token-versions.json"), "w") as fp:
        fp.write(stored)
    print(f"token-versions.json: {stored}")


if __name__ == "__main__":
    main()
