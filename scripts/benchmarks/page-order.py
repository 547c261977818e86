#!/usr/bin/env python3
"""A dataset rewritten in the order a page of v1 submissions reads it.

    scripts/benchmarks/page-order.py big.json big-ordered.json

For measuring what the snapshot's lists in serving order would give
(docs/bench-log.md, the v1 sessions' logs): the first event's submissions
by code (v1's default order), each followed in the answers by its answers
and then by the answers of its speakers not yet placed; the reviews by
submission in the same order; the speaker profiles by their first
submission. Every list keeps its items' relative order otherwise, so a
page's bytes stay the same (checked with md5sum on pages 1, 777, 1,999).
Not used by any test.
"""
import json
import sys


def main(source, target):
    with open(source) as f:
        dataset = json.load(f)
    event = dataset["events"][0]
    subs = sorted(event["submissions"], key=lambda s: s["code"])
    event["submissions"] = subs

    profiles = {p["user"]: p for p in event["speakers"]}
    placed, speakers = set(), []
    for sub in subs:
        for code in sub.get("speakers", []):
            if code in profiles and code not in placed:
                placed.add(code)
                speakers.append(profiles[code])
    event["speakers"] = speakers + [p for p in event["speakers"] if p["user"] not in placed]

    of_sub, of_person, others = {}, {}, []
    for answer in event["answers"]:
        if answer.get("submission"):
            of_sub.setdefault(answer["submission"], []).append(answer)
        elif answer.get("person"):
            of_person.setdefault(answer["person"], []).append(answer)
        else:
            others.append(answer)
    answers = []
    for sub in subs:
        answers += of_sub.pop(sub["code"], [])
        for code in sub.get("speakers", []):
            answers += of_person.pop(code, [])
    for rest in list(of_sub.values()) + list(of_person.values()):
        answers += rest
    event["answers"] = answers + others

    of_review = {}
    for review in event["reviews"]:
        of_review.setdefault(review["submission"], []).append(review)
    reviews = []
    for sub in subs:
        reviews += of_review.pop(sub["code"], [])
    for rest in of_review.values():
        reviews += rest
    event["reviews"] = reviews

    with open(target, "w") as f:
        json.dump(dataset, f)


if __name__ == "__main__":
    main(*sys.argv[1:3])
