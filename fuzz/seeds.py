#!/usr/bin/env python3
"""Writes the fuzz targets' seed inputs into fuzz/corpus/ (once; the corpus
then grows by fuzzing and is minimised with `cargo fuzz cmin`).

- dataset: the small datasets of tests/data;
- sync_event: what confapi's own legacy and versioned APIs answer for
  tests/data/client-friendly.json, in the shape `confapi::fuzz::sync_event`
  reads (the event, then each list as pages of items);
- request: a request line per endpoint and dialect, with filters, `expand`,
  tokens of each role and conditional headers.

Usage: fuzz/seeds.py --binary target/debug/confapi
"""

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "e2e"))
from e2e import Server  # noqa: E402

DATASET = os.path.join(ROOT, "tests", "data", "client-friendly.json")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def write(target, data):
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(CORPUS, target, name), "wb") as fp:
        fp.write(data)


def get(url, path, token=None, version=None):
    headers = {}
    if token:
        headers["Authorization"] = f"Token {token}"
    if version:
        headers["Pretalx-Version"] = version
    with urllib.request.urlopen(urllib.request.Request(url + path, headers=headers), timeout=10) as r:
        return json.load(r)


def pages(url, path, token, version, size):
    """Every page of a list, as lists of items (small pages, so that a
    seed has several)."""
    out = []
    sep = "&" if "?" in path else "?"
    link = f"{path}{sep}{'page_size' if version else 'limit'}={size}"
    while link:
        page = get(url, link, token, version)
        if isinstance(page, list):
            return [page]
        out.append(page["results"])
        link = page["next"] and page["next"][len(url):]
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    for name in ["client-friendly.json", "leak_sweep.json"]:
        shutil.copy(os.path.join(ROOT, "tests", "data", name), os.path.join(CORPUS, "dataset", name))
    doc = json.load(open(DATASET))
    tokens = {u["email"]: u["tokens"][0] for u in doc["users"] if u.get("tokens")}
    orga = tokens["orga@clients.example"]
    reviewer = tokens["reviewer@clients.example"]
    slug = doc["events"][0]["slug"]
    workdir = tempfile.mkdtemp(prefix="confapi-seeds-")
    server = Server(os.path.abspath(args.binary), f"sqlite://{workdir}/seeds.db", workdir, "seeds",
                    datasets=[DATASET])
    try:
        base = f"/api/events/{slug}"
        url = server.url
        legacy = {"event": get(url, base + "/", orga)}
        for key, path, token in [("submissions", "submissions/?questions=all", orga),
                                 ("anonymised", "submissions/?anon=1", orga),
                                 ("talks", "talks/", orga), ("public_talks", "talks/", None),
                                 ("public_questions", "questions/", None), ("speakers", "speakers/", orga),
                                 ("questions", "questions/", orga), ("answers", "answers/", orga),
                                 ("reviews", "reviews/", orga), ("rooms", "rooms/", orga), ("tags", "tags/", orga)]:
            legacy[key] = pages(url, f"{base}/{path}", token, None, 3)
        write("sync_event", json.dumps(legacy).encode())
        v1 = {"event": get(url, base + "/", orga, "v1")}
        for key, path, token in [("submissions", "submissions/", orga), ("public_submissions", "submissions/", None),
                                 ("schedules", "schedules/", orga), ("slots", "slots/", orga),
                                 ("speakers", "speakers/", orga), ("questions", "questions/", orga),
                                 ("answers", "answers/", orga), ("reviews", "reviews/", orga),
                                 ("rooms", "rooms/", orga), ("tags", "tags/", orga), ("tracks", "tracks/", orga),
                                 ("submission_types", "submission-types/", orga)]:
            v1[key] = pages(url, f"{base}/{path}", token, "v1", 3)
        write("sync_event", json.dumps(v1).encode())
        endpoint_paths = [e["path"] for e in get(url, "/api/")["endpoints"]]
        for path in endpoint_paths:
            path = (path.replace("{event}", slug).replace("{code}", "XXXX").replace("{id}", "1")
                    .replace("{tag}", "1").replace("{organiser}", "org"))
            for query in ["", "?expand=speakers,track,submission_type,slots.room&limit=2",
                          "?q=a&o=-title&state=confirmed&page=2&page_size=1", "?questions=all&anon=1&lang=de",
                          "?fields=code,title&omit=abstract&since=0"]:
                for headers in ["", "\nPretalx-Version: v1", f"\nAuthorization: Token {orga}",
                                f"\nAuthorization: Token {reviewer}\nPretalx-Version: v2",
                                "\nPretalx-Version: LEGACY\nIf-None-Match: \"x\"\nAccept-Encoding: br"]:
                    write("request", f"{path}{query}{headers}".encode())
        for export in ["schedule.xml", "schedule.json", "schedule.xcal", "schedule.ics", "feed.xml",
                       "widgets/schedule.json", "widget/v2.json"]:
            write("request", f"/{slug}/schedule/export/{export}".encode())
            write("request", f"/{slug}/schedule/{export}\nAuthorization: Token {orga}".encode())
    finally:
        server.stop()
    for target in ["dataset", "sync_event", "request"]:
        print(f"{target}: {len(os.listdir(os.path.join(CORPUS, target)))} seed(s)")


if __name__ == "__main__":
    main()
