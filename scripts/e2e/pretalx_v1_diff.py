#!/usr/bin/env python3
"""Differential test of the versioned API (v1): the same requests to a real
pretalx 2025.2.2 and to confapi serving its mirror, answers compared.

    python3 scripts/e2e/pretalx_v1_diff.py [--binary target/debug/confapi] [--postgres URL]
                                       [--pretalx-dir DIR] [--all] [--only ENDPOINT,...]
                                       [--verbose] [--keep] [--pretalx 2025|2026]
                                       [--api-version v1|v2]

Starts pretalx (scripts/upstream/pretalx_upstream.py; with --pretalx-dir, what an
earlier run set up there is reused), mirrors its event `democon` into a
fresh confapi database with `confapi sync --event democon --organiser
democonorg` (SQLite, or with --postgres a fresh PostgreSQL database made
from that admin URL), serves the mirror, and sends every request of the
table REQUESTS below to both, with `Pretalx-Version: v1`, as each of its
roles:

  A  anonymous;
  O  the organiser: the fixture's administrator token (the access file
     gives the mirrored administrator the same token string, so one token
     works on both servers);
  R  the reviewer (the reviewer team's member);
  T  the track-limited reviewer (alone in a reviewer team limited to the
     first track);
  B  a token neither server knows.

For each it compares the status, whether the body is JSON, and the body,
after the normalisations of `Normaliser` and `crash_or_gone` (numbered,
each with its reason: pretalx-v1.md
section 13, a documented confapi choice, or what a mirror cannot know).
Response headers other than the content type are not compared: confapi adds
`Vary: Pretalx-Version`, `ETag` and compression on purpose (section 13,
items 1 and 4), its `Allow` names only the read methods (item 5), and
pretalx's Django middleware adds its own (CSP, `Vary: Cookie`, ...).

By default every request of the endpoints confapi serves in v1 is sent,
each difference fixed or normalised: events, rooms, tracks,
submission-types, tags, questions and question-options, submissions,
speakers, answers, reviews, slots and schedules (older releases and the
WIP schedule), the organiser's teams, each with `expand`, the legacy
talks, and unknown paths and events; that run must pass. --all sends
every request of the table, also those of what confapi does not serve in
v1 (mail-templates, access-codes, speaker-information, slot iCal,
schedules/by-version, the schedule exporters), which answer 404.

How the endpoints got there: branch v1-subs fixed in confapi, for
submissions, speakers, answers and reviews: empty `notes`,
`internal_notes` and review `text` are null; `mean_score` rounded to a
tenth; reviewers see `pending_state` and `assigned_reviewers`; the
ModelChoiceFilter text of `track=`; ties of `o=state` and a speaker's
`submissions` by pretalx's id where the mirror has it; answers/{id}/ and
reviews/{id}/ 404 for the public; nested objects as pretalx's views give
them; `expand` on reviews. Branch v1-sched: older releases and the WIP
schedule for organisers, `expand` on slots, schedules, questions,
options and teams, a slot's submission as pretalx's public serializer,
the teams endpoint. What remains is normalised, each step numbered below
with its reason: the reviewers' field set and private resources (11, 16), pretalx's primary-key order
the mirror cannot know (12) (13 and 15, the track-limited reviewer's
public talks, are gone: confapi's v1 shows a reviewer only what they may
review, as pretalx does), pretalx's nested speaker submissions beyond its own public list
(14), favourites (9), releases other than the current one for everyone
but organisers (17), and slots?speaker= and ?schedule_version=, which
pretalx answers 400 for and confapi answers (18); and, as confapi follows
pretalx 2026.2, the fields 2026 added to every version (19) and the
versions 2026 accepts (20: `v2` compared with pretalx 2025's v1 answer,
`DEV_PREVIEW` a 400), 2026's reviewer field set (21), null avatars (22),
`anonymised_data` as an object (23);
the answers' `speaker=`
filter, 2026's name of 2025's `person=` (27), and a submission's
nested speakers' submissions, [] in 2026 (31). Against 2026.2.1:
the public's answer detail, where its 401 tells that an id exists (25),
its `expand=person` on answers, which drops the key (26), the order of a
submission's speakers outside the submissions view, which its prefetches
leave unordered (28), its 403 for the organiser's teams to a token bound
to the event (29), and its 500 for reviews?expand=submission.submission_type
(30); a speaker's empty biography, null or "" in pretalx, one string in
the dataset (32); a slot filter naming a proposal the public is not
shown, which pretalx takes as a choice (and so tells that it exists) and
confapi answers as an unknown code (33).
The track-limited
reviewer's lists are requested with page_size=250 and `o=state` for
organisers too, so that a page boundary cuts no run of what (12)
compares. What --all adds fails as 404 (not served; log/ on purpose).

--pretalx 2026 compares with a real pretalx 2026.2.1 instead
(scripts/upstream/pretalx2026_upstream.py, in a Debian 13 root; root
needed): the mirror is synced with its all-events token (2026.2 answers
the organiser's teams only to a token covering every event), role O is
its democon-bound token (E, the all-events one, reads the teams, 29). Then
`confapi sync --organiser` runs again with the democon-bound token, into a
second database: it must succeed, say in one line that the teams come
from the access file, and mirror the event as the first sync did
(`event_bound_sync`, counted as one check). --api-version v2 sends
`Pretalx-Version: v2` (2026's current version) instead of v1 on the lines
without `version=`. Both must pass (scripts/test runs 2026.2.1 with v2
and v1 and 2025.2.2 with v1, on SQLite and PostgreSQL).

Prints a line per failure (all with --verbose), a table of requests per
endpoint and role, and last "pretalx v1 diff (sqlite|postgres): N passed,
N failed" (one per request compared).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The pretalx upstreams and the mirror's set-up (scripts/upstream/).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "upstream"))
from e2e import tear_down  # noqa: E402
from pretalx_e2e import start_upstream  # noqa: E402
from pretalx_mirror import every, get_json, mirror, request  # noqa: E402
from pretalx_upstream import HIDDEN_SLUG, ORGANISER, SLUG  # noqa: E402

# The endpoints of the default run (src/http/v1/), whose differences are
# fixed or normalised. "paths" is the routing itself (unknown paths and
# events).
SERVED = {"sync", "events", "rooms", "tracks", "submission-types", "tags", "questions",
          "question-options", "paths", "submissions", "speakers", "answers", "reviews", "talks",
          "slots", "schedules", "teams"}
# Of those, the endpoints whose `expand` is in the default run too.
EXPAND_SERVED = {"submissions", "speakers", "answers", "reviews", "questions", "question-options",
                 "slots", "schedules", "teams"}
# Served in v1 on main since this suite was written (docs/api.md, "The
# versioned API"), with `expand` on the first three: in --all only, until
# their differences (see the docstring) are fixed or normalised.
SERVED_SINCE = set()
EXPAND_SERVED_SINCE = set()


def mark(endpoint):
    """"" in the default run, "+" served since (--all only), "*" not served."""
    name, expand = endpoint.split()[0], endpoint.endswith("(expand)")
    if name in SERVED and (not expand or name in EXPAND_SERVED):
        return ""
    if name in SERVED_SINCE and (not expand or name in EXPAND_SERVED_SINCE):
        return " +"
    return " *"

# A token neither server knows (role B).
BOGUS_TOKEN = "0123456789abcdef" * 4

# ---------------------------------------------------------------------------
# The requests: one per line, `endpoint roles path [query] [version=V] [since=R]`.
# `roles` are letters of AORTB (above); `since=R` (last) marks what pretalx
# release R added; `path` and `query` may name facts
# of the fixture in braces ({room}, {talk}, ...: FACTS below); `-` is no
# query; `version=V` sends `Pretalx-Version: V` instead of v1. Each line
# is one request per role.
REQUESTS = """
# --- events: a bare list (no paging), the detail
events            AORTB  /api/events/
events            AORT   /api/events/                       is_public=true
events            AO     /api/events/                       is_public=false
events            AO     /api/events/                       is_public=maybe
events            AO     /api/events/                       is_public=1
events            AO     /api/events/                       q=demo
events            A      /api/events/                       q=DEMOCON
events            A      /api/events/                       q=no-such-thing
events            AO     /api/events/                       o=name
events            AO     /api/events/                       o=-name
events            O      /api/events/                       o=slug
events            O      /api/events/                       o=-slug
events            O      /api/events/                       o=date_from
events            O      /api/events/                       o=-date_to
events            O      /api/events/                       o=bogus
events            AO     /api/events/                       fields=slug,name
events            AO     /api/events/                       omit=name,timezone
events            A      /api/events/                       fields=slug&fields=is_public
events            AO     /api/events/                       lang=en
events            A      /api/events/                       lang=de
events            AO     /api/events/                       page_size=1
events            A      /api/events/                       page=2
events            A      /api/events/                       limit=1&offset=1
events            A      /api/events/                       anon=1&questions=all
events            AO     /api/events/                       format=api
events            A      /api/events/{event}/               format=api
events            A      /api/events/                       format=json
events            A      /api/events/                       -                           version=DEV_PREVIEW
events            AO     /api/events/                       -                           version=v2
events            A      /api/events/                       -                           version=legacy
events            AORTB  /api/events/{event}/
events            AO     /api/events/{event}/               lang=en
events            A      /api/events/{event}/               lang=xx
events            AO     /api/events/{event}/               fields=slug,locales
events            AO     /api/events/{event}/               omit=email,logo,header_image
events            A      /api/events/{event}/               fields=nonexistent
events            A      /api/events/{event}/               -                           version=DEV_PREVIEW
events            A      /api/events/{event}/               -                           version=V1
events            AO     /api/events/DEMOCON/
events            A      /api/events/{event}
events            A      /api/events/{hidden}/

# --- rooms: limit/offset only (default 100)
rooms             AORTB  /api/events/{event}/rooms/
rooms             AO     /api/events/{event}/rooms/         limit=1
rooms             AO     /api/events/{event}/rooms/         limit=1&offset=1
rooms             A      /api/events/{event}/rooms/         offset=1
rooms             A      /api/events/{event}/rooms/         offset=5
rooms             A      /api/events/{event}/rooms/         limit=0
rooms             A      /api/events/{event}/rooms/         limit=abc
rooms             A      /api/events/{event}/rooms/         limit=1000
rooms             A      /api/events/{event}/rooms/         limit=1&offset=abc
rooms             A      /api/events/{event}/rooms/         page=2
rooms             A      /api/events/{event}/rooms/         page_size=1
rooms             AO     /api/events/{event}/rooms/         q=room
rooms             A      /api/events/{event}/rooms/         q={room_word}
rooms             A      /api/events/{event}/rooms/         q=zzz
rooms             AO     /api/events/{event}/rooms/         o=name
rooms             A      /api/events/{event}/rooms/         o=-name
rooms             A      /api/events/{event}/rooms/         o=-position
rooms             A      /api/events/{event}/rooms/         o=capacity
rooms             A      /api/events/{event}/rooms/         o=-id
rooms             A      /api/events/{event}/rooms/         o=bogus
rooms             AO     /api/events/{event}/rooms/         lang=en
rooms             AO     /api/events/{event}/rooms/         fields=id,name
rooms             AO     /api/events/{event}/rooms/         omit=uuid,guid
rooms             O      /api/events/{event}/rooms/         fields=id,availabilities
rooms             AORTB  /api/events/{event}/rooms/{room}/
rooms             AO     /api/events/{event}/rooms/{room}/  lang=en
rooms             A      /api/events/{event}/rooms/{room}/  fields=id,name
rooms             O      /api/events/{event}/rooms/{room}/  omit=availabilities
rooms             AO     /api/events/{event}/rooms/999999/
rooms             A      /api/events/{event}/rooms/abc/
rooms             AO     /api/events/DEMOCON/rooms/
rooms             A      /api/events/{event}/rooms
rooms             A      /api/events/{event}/rooms/         -                           version=v2

# --- tracks: page-number paging (50, at most 250), limit+offset together
tracks            AORTB  /api/events/{event}/tracks/
tracks            AO     /api/events/{event}/tracks/        page_size=1
tracks            AO     /api/events/{event}/tracks/        page=2&page_size=1
tracks            A      /api/events/{event}/tracks/        page=3&page_size=1
tracks            A      /api/events/{event}/tracks/        page=2
tracks            A      /api/events/{event}/tracks/        page=0
tracks            A      /api/events/{event}/tracks/        page=abc
tracks            A      /api/events/{event}/tracks/        page_size=0
tracks            A      /api/events/{event}/tracks/        page_size=1000
tracks            A      /api/events/{event}/tracks/        page_size=bogus
tracks            A      /api/events/{event}/tracks/        page_size=-1
tracks            AO     /api/events/{event}/tracks/        limit=1&offset=1
tracks            A      /api/events/{event}/tracks/        limit=1&offset=0
tracks            A      /api/events/{event}/tracks/        limit=1
tracks            A      /api/events/{event}/tracks/        offset=1
tracks            A      /api/events/{event}/tracks/        limit=1&offset=
tracks            A      /api/events/{event}/tracks/        q={track_word}
tracks            A      /api/events/{event}/tracks/        q=zzz
tracks            AO     /api/events/{event}/tracks/        o=name
tracks            A      /api/events/{event}/tracks/        o=-name
tracks            A      /api/events/{event}/tracks/        o=-id
tracks            A      /api/events/{event}/tracks/        o=bogus
tracks            AO     /api/events/{event}/tracks/        lang=en
tracks            A      /api/events/{event}/tracks/        fields=id,name
tracks            A      /api/events/{event}/tracks/        omit=description
tracks            A      /api/events/{event}/tracks/        page_size=1&q={track_word}&o=-id
tracks            AORTB  /api/events/{event}/tracks/{track}/
tracks            RT     /api/events/{event}/tracks/{track2}/
tracks            AO     /api/events/{event}/tracks/{track}/  lang=en
tracks            A      /api/events/{event}/tracks/999999/
tracks            A      /api/events/{event}/tracks/abc/

# --- submission types
submission-types  AORTB  /api/events/{event}/submission-types/
submission-types  AO     /api/events/{event}/submission-types/  page_size=1
submission-types  A      /api/events/{event}/submission-types/  page=2&page_size=1
submission-types  A      /api/events/{event}/submission-types/  page=3&page_size=1
submission-types  A      /api/events/{event}/submission-types/  limit=1&offset=1
submission-types  A      /api/events/{event}/submission-types/  q=work
submission-types  A      /api/events/{event}/submission-types/  q=TALK
submission-types  AO     /api/events/{event}/submission-types/  o=-default_duration
submission-types  A      /api/events/{event}/submission-types/  o=default_duration
submission-types  A      /api/events/{event}/submission-types/  o=-name
submission-types  A      /api/events/{event}/submission-types/  o=-id
submission-types  AO     /api/events/{event}/submission-types/  lang=en
submission-types  A      /api/events/{event}/submission-types/  fields=id,default_duration
submission-types  A      /api/events/{event}/submission-types/  omit=deadline,requires_access_code
submission-types  AORT   /api/events/{event}/submission-types/{type}/
submission-types  A      /api/events/{event}/submission-types/{type}/  lang=en
submission-types  A      /api/events/{event}/submission-types/999999/

# --- tags: organisers and reviewers, by id
tags              AORTB  /api/events/{event}/tags/
tags              O      /api/events/{event}/tags/          q=key
tags              O      /api/events/{event}/tags/          q=KEYNOTE
tags              O      /api/events/{event}/tags/          q=zzz
tags              O      /api/events/{event}/tags/          o=tag
tags              O      /api/events/{event}/tags/          o=-id
tags              O      /api/events/{event}/tags/          page_size=1
tags              O      /api/events/{event}/tags/          page=2&page_size=1
tags              O      /api/events/{event}/tags/          limit=1&offset=1
tags              O      /api/events/{event}/tags/          page_size=0
tags              O      /api/events/{event}/tags/          page_size=1000
tags              O      /api/events/{event}/tags/          page=abc
tags              OR     /api/events/{event}/tags/          lang=en
tags              O      /api/events/{event}/tags/          fields=id,tag
tags              O      /api/events/{event}/tags/          omit=description,color
tags              AORT   /api/events/{event}/tags/{tag}/
tags              O      /api/events/{event}/tags/{tag}/    lang=en
tags              O      /api/events/{event}/tags/keynote/
tags              O      /api/events/{event}/tags/999999/

# --- questions
questions         AORTB  /api/events/{event}/questions/
questions         AO     /api/events/{event}/questions/     target=submission
questions         A      /api/events/{event}/questions/     target=speaker
questions         OR     /api/events/{event}/questions/     target=reviewer
questions         AO     /api/events/{event}/questions/     target=review
questions         AO     /api/events/{event}/questions/     variant=choices
questions         O      /api/events/{event}/questions/     variant=text
questions         A      /api/events/{event}/questions/     variant=bogus
questions         A      /api/events/{event}/questions/     target=bogus
questions         O      /api/events/{event}/questions/     is_public=true
questions         OR     /api/events/{event}/questions/     is_public=false
questions         A      /api/events/{event}/questions/     is_public=maybe
questions         O      /api/events/{event}/questions/     is_visible_to_reviewers=true
questions         O      /api/events/{event}/questions/     is_visible_to_reviewers=false
questions         AO     /api/events/{event}/questions/     q=level
questions         A      /api/events/{event}/questions/     q=LEVEL
questions         O      /api/events/{event}/questions/     q=zzz
questions         O      /api/events/{event}/questions/     o=question
questions         O      /api/events/{event}/questions/     o=-question
questions         O      /api/events/{event}/questions/     o=-position
questions         O      /api/events/{event}/questions/     o=is_public
questions         O      /api/events/{event}/questions/     o=-is_visible_to_reviewers
questions         O      /api/events/{event}/questions/     o=-id
questions         O      /api/events/{event}/questions/     o=bogus
questions         O      /api/events/{event}/questions/     page_size=1
questions         O      /api/events/{event}/questions/     page=2&page_size=1
questions         O      /api/events/{event}/questions/     page=4&page_size=1
questions         O      /api/events/{event}/questions/     limit=1&offset=2
questions         O      /api/events/{event}/questions/     limit=2
questions         A      /api/events/{event}/questions/     page_size=bogus
questions         O      /api/events/{event}/questions/     target=submission&is_public=true&q=e&o=-id
questions         AO     /api/events/{event}/questions/     lang=en
questions         AO     /api/events/{event}/questions/     fields=id,question
questions         O      /api/events/{event}/questions/     omit=options
questions         AO     /api/events/{event}/questions/     expand=options
questions         O      /api/events/{event}/questions/     expand=tracks
questions         O      /api/events/{event}/questions/     expand=submission_types
questions         A      /api/events/{event}/questions/     expand=options,tracks,submission_types
questions         A      /api/events/{event}/questions/     expand=bogus
questions         A      /api/events/{event}/questions/     expand=options&lang=en
questions         AORTB  /api/events/{event}/questions/{q_public}/
questions         AORT   /api/events/{event}/questions/{q_private}/
questions         AORT   /api/events/{event}/questions/{q_inactive}/
questions         AO     /api/events/{event}/questions/{q_public}/  lang=en
questions         O      /api/events/{event}/questions/{q_public}/  fields=id,options
questions         A      /api/events/{event}/questions/{q_public}/  expand=options
questions         A      /api/events/{event}/questions/999999/
questions         A      /api/events/{event}/questions/abc/

# --- question options
question-options  AORTB  /api/events/{event}/question-options/
question-options  AO     /api/events/{event}/question-options/  question={q_public}
question-options  A      /api/events/{event}/question-options/  question={q_private}
question-options  A      /api/events/{event}/question-options/  question=999999
question-options  A      /api/events/{event}/question-options/  question=abc
question-options  O      /api/events/{event}/question-options/  question={q_inactive}
question-options  AO     /api/events/{event}/question-options/  q=begin
question-options  A      /api/events/{event}/question-options/  q=zzz
question-options  O      /api/events/{event}/question-options/  o=answer
question-options  O      /api/events/{event}/question-options/  o=-answer
question-options  O      /api/events/{event}/question-options/  o=-id
question-options  A      /api/events/{event}/question-options/  page_size=1
question-options  A      /api/events/{event}/question-options/  page=2&page_size=1
question-options  A      /api/events/{event}/question-options/  page=3&page_size=1
question-options  A      /api/events/{event}/question-options/  limit=1&offset=1
question-options  A      /api/events/{event}/question-options/  lang=en
question-options  A      /api/events/{event}/question-options/  fields=id,answer
question-options  A      /api/events/{event}/question-options/  omit=question
question-options  AO     /api/events/{event}/question-options/  expand=question
question-options  O      /api/events/{event}/question-options/  expand=question.tracks
question-options  A      /api/events/{event}/question-options/  expand=question.submission_types
question-options  AORT   /api/events/{event}/question-options/{option}/
question-options  A      /api/events/{event}/question-options/{option}/  lang=en
question-options  A      /api/events/{event}/question-options/999999/

# --- slots: the current release without a filter; organisers every schedule
#     with any filter (slot-ical: not served yet)
slots             AORT   /api/events/{event}/slots/
slots             AO     /api/events/{event}/slots/         room={room}&page_size=250
slots             A      /api/events/{event}/slots/         submission={talk}
slots             AO     /api/events/{event}/slots/         schedule={schedule}
slots             O      /api/events/{event}/slots/         is_visible=false
slots             A      /api/events/{event}/slots/         is_visible=maybe&page_size=250
slots             AR     /api/events/{event}/slots/         speaker={speaker}
slots             AO     /api/events/{event}/slots/         schedule_version=v1.0
slots             O      /api/events/{event}/slots/         schedule_version=V1.0
slots             O      /api/events/{event}/slots/         speaker={speaker}
slots             AO     /api/events/{event}/slots/         schedule={wip_schedule}
slots             A      /api/events/{event}/slots/         schedule=999999
slots             AO     /api/events/{event}/slots/         room=999999
slots             A      /api/events/{event}/slots/         room=abc
slots             AO     /api/events/{event}/slots/         submission=NOSUCH
slots             AO     /api/events/{event}/slots/         speaker=NOSUCH
slots             AO     /api/events/{event}/slots/         schedule_version=nosuch
slots             A      /api/events/{event}/slots/         schedule=abc
slots             A      /api/events/{event}/slots/         submission={proposal}
slots             O      /api/events/{event}/slots/         is_visible=true&o=-start
slots             O      /api/events/{event}/slots/         submission={talk}&expand=schedule
slots             A      /api/events/{event}/slots/         q={talk_word}
slots             A      /api/events/{event}/slots/         o=-start
slots             A      /api/events/{event}/slots/         o=room__name
slots             A      /api/events/{event}/slots/         page_size=5&page=2
slots             A      /api/events/{event}/slots/         expand=room,submission
slots             A      /api/events/{event}/slots/         expand=submission.speakers
slots             AO     /api/events/{event}/slots/         expand=schedule
slots             O      /api/events/{event}/slots/         expand=submission.track,submission.submission_type
slots             O      /api/events/{event}/slots/         expand=submission.answers.question,submission.resources
slots             AO     /api/events/{event}/slots/{slot}/
slots             A      /api/events/{event}/slots/999999/
slot-ical         A      /api/events/{event}/slots/{slot}/ical/

# --- schedules: organisers every release and the WIP schedule
#     (schedule-actions: by-version and the exporters, not served yet)
schedules         AORT   /api/events/{event}/schedules/
schedules         O      /api/events/{event}/schedules/     o=version
schedules         O      /api/events/{event}/schedules/     q=1.1
schedules         AO     /api/events/{event}/schedules/{schedule}/
schedules         AO     /api/events/{event}/schedules/latest/
schedules         AO     /api/events/{event}/schedules/wip/
schedules         AO     /api/events/{event}/schedules/{wip_schedule}/
schedules         O      /api/events/{event}/schedules/wip/  expand=slots
schedules         O      /api/events/{event}/schedules/     o=published
schedules         O      /api/events/{event}/schedules/     o=-id
schedules         A      /api/events/{event}/schedules/     q=wip
schedules         A      /api/events/{event}/schedules/latest/  expand=slots.room
schedules         O      /api/events/{event}/schedules/latest/  expand=slots.submission.speakers,slots.submission.track
schedule-actions  AO     /api/events/{event}/schedules/by-version/  latest=1
schedule-actions  O      /api/events/{event}/schedules/{schedule}/exporters/schedule.json/

# --- teams: the organiser's, for members of a team that may change teams
teams             AORTB  /api/organisers/{organiser}/teams/
teams             O      /api/organisers/{organiser}/teams/  expand=members,invites,limit_tracks
teams             O      /api/organisers/{organiser}/teams/  expand=limit_tracks
teams             O      /api/organisers/{organiser}/teams/  q=review
teams             O      /api/organisers/{organiser}/teams/  o=name
teams             O      /api/organisers/{organiser}/teams/  o=-id
teams             O      /api/organisers/{organiser}/teams/  page_size=1&page=2
teams             AORT   /api/organisers/{organiser}/teams/{team}/
teams             O      /api/organisers/{organiser}/teams/{team}/  expand=members
teams             O      /api/organisers/{organiser}/teams/999999/
teams             O      /api/organisers/{organiser}/teams/abc/

# --- unknown paths and events
paths             AO     /api/events/nosuchcon/
paths             AO     /api/events/nosuchcon/rooms/
paths             A      /api/events/nosuchcon/tracks/1/
paths             AO     /api/events/{event}/nothing/
paths             A      /api/events/{event}/rooms/{room}/nothing/
paths             A      /api/nothing/

# --- not served in v1 yet (--all) ---------------------------------------
# submissions
submissions       AORB   /api/events/{event}/submissions/
submissions       T      /api/events/{event}/submissions/   page_size=250
submissions       AO     /api/events/{event}/submissions/   state=confirmed
submissions       AO     /api/events/{event}/submissions/   state=rejected
submissions       O      /api/events/{event}/submissions/   state=confirmed&state=rejected
submissions       O      /api/events/{event}/submissions/   state=bogus
submissions       O      /api/events/{event}/submissions/   pending_state=confirmed
submissions       O      /api/events/{event}/submissions/   content_locale=en
submissions       AO     /api/events/{event}/submissions/   submission_type={type}
submissions       AT     /api/events/{event}/submissions/   track={track}
submissions       A      /api/events/{event}/submissions/   track=999999
submissions       A      /api/events/{event}/submissions/   track=abc
submissions       AO     /api/events/{event}/submissions/   submission_type=999999
submissions       A      /api/events/{event}/submissions/   submission_type=abc
submissions       O      /api/events/{event}/submissions/   pending_state=bogus
submissions       O      /api/events/{event}/submissions/   content_locale=xx
submissions       O      /api/events/{event}/submissions/   state=
submissions       A      /api/events/{event}/submissions/   format=api
submissions       A      /api/events/{event}/submissions/{talk}/  format=api
submissions       A      /api/events/{event}/submissions/   format=json
submissions       O      /api/events/{event}/submissions/   is_featured=true
submissions       O      /api/events/{event}/submissions/   is_featured=maybe
submissions       AO     /api/events/{event}/submissions/   q={talk_word}
submissions       O      /api/events/{event}/submissions/   q={speaker_word}
submissions       AO     /api/events/{event}/submissions/   o=title
submissions       O      /api/events/{event}/submissions/   o=-code
submissions       A      /api/events/{event}/submissions/   o=state
submissions       O      /api/events/{event}/submissions/   o=state&page_size=250
submissions       A      /api/events/{event}/submissions/   o=bogus
submissions       AO     /api/events/{event}/submissions/   page=2
submissions       A      /api/events/{event}/submissions/   page=9
submissions       A      /api/events/{event}/submissions/   page_size=0
submissions       AO     /api/events/{event}/submissions/   page_size=1000
submissions       A      /api/events/{event}/submissions/   page_size=bogus
submissions       AO     /api/events/{event}/submissions/   page_size=5&page=3
submissions       AO     /api/events/{event}/submissions/   limit=5&offset=10
submissions       A      /api/events/{event}/submissions/   limit=5
submissions       A      /api/events/{event}/submissions/   lang=en
submissions       AO     /api/events/{event}/submissions/   fields=code,title
submissions       A      /api/events/{event}/submissions/   omit=abstract,description
submissions       A      /api/events/{event}/submissions/   questions=all&anon=1
submissions       AOR    /api/events/{event}/submissions/   expand=speakers
submissions       T      /api/events/{event}/submissions/   expand=speakers&page_size=250
submissions       AO     /api/events/{event}/submissions/   expand=track,submission_type,tags
submissions       AO     /api/events/{event}/submissions/   expand=slots.room
submissions       AO     /api/events/{event}/submissions/   expand=answers.question,answers.options
submissions       AO     /api/events/{event}/submissions/   expand=resources
submissions       AO     /api/events/{event}/submissions/   expand=track
submissions       A      /api/events/{event}/submissions/   expand=submission_type
submissions       AO     /api/events/{event}/submissions/   expand=tags
submissions       A      /api/events/{event}/submissions/   expand=slots
submissions       A      /api/events/{event}/submissions/   expand=answers
submissions       O      /api/events/{event}/submissions/   expand=speakers.answers
submissions       O      /api/events/{event}/submissions/   expand=speakers.submissions
submissions       A      /api/events/{event}/submissions/   expand=bogus
submissions       A      /api/events/{event}/submissions/   expand=speakers&expand=track
submissions       A      /api/events/{event}/submissions/   expand=speakers&fields=code,speakers
submissions       AORTB  /api/events/{event}/submissions/{talk}/
submissions       AORT   /api/events/{event}/submissions/{proposal}/
submissions       T      /api/events/{event}/submissions/{talk_track2}/
submissions       A      /api/events/{event}/submissions/{talk_lower}/
submissions       AO     /api/events/{event}/submissions/{talk}/  expand=speakers,slots,resources
submissions       A      /api/events/{event}/submissions/{talk}/  lang=en
submissions       A      /api/events/{event}/submissions/NOSUCH/
submissions       A      /api/events/{event}/submissions/favourites/
# the legacy talks: gone in v1
talks             AO     /api/events/{event}/talks/
talks             A      /api/events/{event}/talks/{talk}/
# speakers
speakers          AORTB  /api/events/{event}/speakers/
speakers          AO     /api/events/{event}/speakers/      q={speaker_word}
speakers          O      /api/events/{event}/speakers/      q=example.org
speakers          A      /api/events/{event}/speakers/      o=-name
speakers          AO     /api/events/{event}/speakers/      page=2&page_size=10
speakers          A      /api/events/{event}/speakers/      limit=5&offset=5
speakers          A      /api/events/{event}/speakers/      fields=code,name
speakers          AO     /api/events/{event}/speakers/      expand=submissions
speakers          O      /api/events/{event}/speakers/      expand=answers.question
speakers          A      /api/events/{event}/speakers/      expand=answers
speakers          A      /api/events/{event}/speakers/      expand=submissions.track,submissions.submission_type
speakers          O      /api/events/{event}/speakers/      expand=submissions.speakers
speakers          AO     /api/events/{event}/speakers/{speaker}/  expand=submissions,answers
speakers          AORT   /api/events/{event}/speakers/{speaker}/
speakers          AO     /api/events/{event}/speakers/{speaker_private}/
speakers          A      /api/events/{event}/speakers/{speaker_lower}/
speakers          A      /api/events/{event}/speakers/NOSUCH/
# answers: organisers only
answers           AORT   /api/events/{event}/answers/
answers           O      /api/events/{event}/answers/       question={q_public}
answers           O      /api/events/{event}/answers/       submission={talk}
answers           O      /api/events/{event}/answers/       q=note
answers           O      /api/events/{event}/answers/       o=-id
answers           O      /api/events/{event}/answers/       person={speaker}
answers           O      /api/events/{event}/answers/       speaker={speaker}
answers           O      /api/events/{event}/answers/       speaker={speaker_lower}
answers           O      /api/events/{event}/answers/       review=999999
answers           O      /api/events/{event}/answers/       review=abc
answers           O      /api/events/{event}/answers/       question=999999
answers           O      /api/events/{event}/answers/       question=abc
answers           O      /api/events/{event}/answers/       submission=NOSUCH
answers           O      /api/events/{event}/answers/       speaker=NOSUCH
answers           O      /api/events/{event}/answers/       expand=question,options
answers           O      /api/events/{event}/answers/       expand=question.tracks,question.submission_types
answers           O      /api/events/{event}/answers/       expand=person
answers           AO     /api/events/{event}/answers/{answer}/
# reviews
reviews           AORT   /api/events/{event}/reviews/
reviews           O      /api/events/{event}/reviews/       submission={talk}
reviews           O      /api/events/{event}/reviews/       user={reviewer_code}
reviews           O      /api/events/{event}/reviews/       speaker={busy_speaker}
reviews           O      /api/events/{event}/reviews/       q={talk_word}
reviews           O      /api/events/{event}/reviews/       o=-id
reviews           O      /api/events/{event}/reviews/       page=2&page_size=50
reviews           O      /api/events/{event}/reviews/       expand=user,scores.category
reviews           O      /api/events/{event}/reviews/       expand=submission.speakers,submission.track
reviews           O      /api/events/{event}/reviews/       expand=submission.submission_type,submission.tags
reviews           O      /api/events/{event}/reviews/       submission__code={talk}
# filter validation: an unknown code or id is django's 400 "Select a valid choice"
reviews           O      /api/events/{event}/reviews/       submission=NOSUCH
reviews           O      /api/events/{event}/reviews/       user=NOSUCH
reviews           O      /api/events/{event}/reviews/       speaker=NOSUCH
reviews           O      /api/events/{event}/reviews/       submission__state=submitted  since=2026
reviews           O      /api/events/{event}/reviews/       submission__state=bogus  since=2026
reviews           O      /api/events/{event}/reviews/       submission__pending_state=confirmed  since=2026
reviews           O      /api/events/{event}/reviews/       submission__track={track}  since=2026
reviews           O      /api/events/{event}/reviews/       submission__track=999999  since=2026
reviews           O      /api/events/{event}/reviews/       submission__submission_type={type}  since=2026
reviews           O      /api/events/{event}/reviews/       submission__submission_type=abc  since=2026
reviews           O      /api/events/{event}/reviews/       submission__content_locale=en  since=2026
reviews           O      /api/events/{event}/reviews/       submission__content_locale=xx  since=2026
reviews           AO     /api/events/{event}/reviews/{review}/
# organiser-level and organiser-only resources
mail-templates    AO     /api/events/{event}/mail-templates/
access-codes      AO     /api/events/{event}/access-codes/
access-codes      O      /api/events/{event}/access-codes/  expand=track,submission_type
speaker-information  AO  /api/events/{event}/speaker-information/
speaker-information  O   /api/events/{event}/speaker-information/  expand=limit_tracks,limit_types
# changelogs (confapi does not serve log/: section 13, item 2)
log               AO     /api/events/{event}/submissions/{talk}/log/
log               O      /api/events/{event}/rooms/{room}/log/
# question icons
icon              A      /api/events/{event}/questions/{q_public}/icon/
"""


def parse_table(text, default_version="v1", release="2026"):
    """The requests of REQUESTS: (endpoint, role, path, query, version);
    `default_version` for the lines without `version=`. A line ending in
    `since=R` asks what pretalx release R added (2026's review filters):
    left out against an older `release`, which ignores it."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if parts[-1].startswith("since="):
            if release < parts.pop()[len("since="):]:
                continue
        version = default_version
        if parts[-1].startswith("version="):
            version = parts.pop()[len("version="):]
        if len(parts) not in (3, 4):
            sys.exit(f"REQUESTS line {number}: {line!r}")
        endpoint, roles, path = parts[:3]
        query = parts[3] if len(parts) == 4 and parts[3] != "-" else ""
        for role in roles:
            if role not in "AORTB":
                sys.exit(f"REQUESTS line {number}: unknown role {role}")
            rows.append((endpoint, role, path, query, version))
    return rows


def is_served(endpoint, query):
    return endpoint in SERVED and ("expand=" not in query or endpoint in EXPAND_SERVED)


# ---------------------------------------------------------------------------
# HTTP


# ---------------------------------------------------------------------------
# Facts of the fixture, read from pretalx as the organiser (only those the
# selected requests name).


class Facts:
    def __init__(self, origin, token, roles, teams_token=None):
        """`teams_token`: the token that may read the organiser's teams, when
        not `token` (pretalx 2026.2 shows them only to a token covering every
        event of the organiser)."""
        self.origin, self.token, self.roles = origin, token, roles
        self.teams_token = teams_token or token
        self.cache = {"event": SLUG, "hidden": HIDDEN_SLUG, "organiser": ORGANISER}

    def list(self, what):
        key = f"list:{what}"
        if key not in self.cache:
            page = "limit=1000" if what == "rooms" else "page_size=250"
            sep = "&" if "?" in what else "?"
            self.cache[key] = every(self.origin, f"/api/events/{SLUG}/{what}{sep}{page}", self.token)
        return self.cache[key]

    def public(self, what):
        key = f"public:{what}"
        if key not in self.cache:
            self.cache[key] = every(self.origin, f"/api/events/{SLUG}/{what}?page_size=250", None)
        return self.cache[key]

    def __getitem__(self, name):
        if name not in self.cache:
            self.cache[name] = str(self.compute(name))
        return self.cache[name]

    def compute(self, name):
        def question(text):
            return next(q["id"] for q in self.list("questions/") if q["question"]["en"] == text)
        talks = [s["code"] for s in self.public("submissions/")]
        track_ids = sorted(t["id"] for t in self.list("tracks/"))
        if name == "room":
            return sorted(r["id"] for r in self.list("rooms/"))[0]
        if name == "room_word":
            return self.list("rooms/")[0]["name"]["en"].split()[0].lower()
        if name == "track":
            return track_ids[0]
        if name == "track2":
            return track_ids[1]
        if name == "track_word":
            return self.list("tracks/")[0]["name"]["en"][:4].upper()
        if name == "type":
            return sorted(t["id"] for t in self.list("submission-types/"))[0]
        if name == "tag":
            return self.list("tags/")[0]["id"]
        if name == "q_public":
            return question("Audience level")
        if name == "q_private":
            return question("Anything else?")
        if name == "q_inactive":
            return question("Previous talk")
        if name == "option":
            return sorted(o["id"] for o in self.list("question-options/"))[0]
        if name == "talk":  # a public talk of the first track: every role sees it
            return sorted(s["code"] for s in self.list("submissions/")
                          if s["code"] in talks and s["track"] == track_ids[0])[0]
        if name == "talk_lower":
            return self["talk"].lower()
        if name == "talk_word":
            title = next(s["title"] for s in self.public("submissions/") if s["code"] == self["talk"])
            return title.split()[-1].lower()
        if name == "talk_track2":  # one the track-limited reviewer does not see
            return sorted(s["code"] for s in self.list("submissions/")
                          if s["code"] in talks and s["track"] == track_ids[1])[0]
        if name == "proposal":
            return sorted(s["code"] for s in self.list("submissions/") if s["code"] not in talks)[0]
        if name == "speaker":
            return sorted(s["code"] for s in self.public("speakers/"))[0]
        if name == "speaker_lower":
            return self["speaker"].lower()
        if name == "speaker_word":
            return next(s["name"] for s in self.public("speakers/")
                        if s["code"] == self["speaker"]).split()[-1].upper()
        if name == "speaker_private":
            public = {s["code"] for s in self.public("speakers/")}
            return sorted(s["code"] for s in self.list("speakers/") if s["code"] not in public)[0]
        if name == "busy_speaker":
            counts = Counter(code for s in self.list("submissions/") for code in s["speakers"])
            return sorted(code for code, n in counts.items() if n > 1)[0]
        if name == "slot":
            return sorted(s["id"] for s in self.public("slots/") if s["submission"])[0]
        if name == "schedule":
            return self.public("schedules/")[0]["id"]
        if name == "wip_schedule":
            return next(s["id"] for s in self.list("schedules/") if s["published"] is None)
        if name == "team":
            teams = every(self.origin, f"/api/organisers/{ORGANISER}/teams/", self.teams_token)
            return sorted(t["id"] for t in teams)[0]
        if name == "answer":
            return sorted(a["id"] for a in self.list("answers/"))[0]
        if name == "review":
            return sorted(r["id"] for r in self.list("reviews/"))[0]
        if name == "reviewer_code":
            return self.roles["reviewer"]["code"]
        raise KeyError(f"no fact {name!r}")


# ---------------------------------------------------------------------------
# Normalisation. Each step says why the two answers may differ there.

# i18n fields of the served objects that may be unset (rooms' description
# and speaker_info, tracks', types' and tags' description, questions'
# help_text).
MAYBE_UNSET_I18N = {"description", "speaker_info", "help_text"}

# Fields organisers (pretalx also reviewers) see that confapi never shows
# a reviewer (section 13, item 2). (--all only: submissions.)
# (19) The fields pretalx 2026.1 and 2026.2 added to every API version
# (pretalx-2026.md); confapi shows them as 2026.2 does, pretalx 2025.2.2 has
# none of them. `created`/`updated` only on submissions (2025's v1 dropped
# them there; other objects keep theirs).
FIELDS_2026 = {"og_image", "identifier", "attendee_signup_required", "attendee_signup_capacity",
               "signup_status", "invitations", "slot_type"}
SUBMISSION_FIELDS_2026 = {"created", "updated"}
REVIEWER_SECRETS = {"invitation_token", "review_code", "access_code", "anonymised_data"}
# What confapi shows organisers only, not reviewers (docs/api.md, "Where
# confapi differs"): a submission's notes and scores, a speaker's e-mail
# address, availabilities, notes, locale, time zone and arrival.
# (21) And, as pretalx 2026.2's reviewer serializer, neither a submission's
# reviews, assignments nor `is_anonymised` (pretalx 2025.2.2 gives reviewers
# the organiser's serializer).
REVIEWER_HIDDEN_SUBMISSION = {"notes", "internal_notes", "median_score", "mean_score",
                              "reviews", "assigned_reviewers", "is_anonymised"}
REVIEWER_HIDDEN_SPEAKER = {"email", "timezone", "locale", "has_arrived", "availabilities",
                           "internal_notes"}


def is_speaker(obj):
    return isinstance(obj, dict) and "biography" in obj and "avatar_url" in obj


def is_submission(obj):
    return isinstance(obj, dict) and "slot_count" in obj and "abstract" in obj


def code_of(item):
    return item.get("code") if isinstance(item, dict) else item


def nested_speakers(value, inside=False):
    """Every speaker object in `value` that is nested in a submission."""
    if isinstance(value, dict):
        if inside and is_speaker(value):
            yield value
        inside = inside or is_submission(value)
        for v in value.values():
            yield from nested_speakers(v, inside)
    elif isinstance(value, list):
        for v in value:
            yield from nested_speakers(v, inside)


def every_object(value):
    """Every JSON object in `value`, nested ones included."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from every_object(v)
    elif isinstance(value, list):
        for v in value:
            yield from every_object(v)

class Normaliser:
    def __init__(self, theirs_origin, mine_origin, facts=None, release="2025"):
        self.origins = [theirs_origin, mine_origin]
        self.facts = facts
        self.release = release

    def without_2026_fields(self, t_body, m_body):
        """(19) Against pretalx 2025.2.2: the fields 2026 added to every
        version (FIELDS_2026) leave confapi's answer wherever pretalx's
        answer has no such key at all, so what 2025 does show is still
        compared."""
        if self.release != "2025":
            return
        theirs = set()
        for obj in every_object(t_body):
            theirs.update(obj)
            # (22) A speaker without avatar: 2025 writes "", 2026.2 (and
            # confapi) null.
            if obj.get("avatar_url") == "":
                obj["avatar_url"] = None
            # (23) `anonymised_data`: 2025 writes the object as a string
            # ("{}" when none), 2026.2 (and confapi) the object, or null.
            if isinstance(obj.get("anonymised_data"), str):
                data = json.loads(obj["anonymised_data"] or "{}")
                obj["anonymised_data"] = data or None
        for obj in every_object(m_body):
            extra = FIELDS_2026 | (SUBMISSION_FIELDS_2026 if is_submission(obj) else set())
            if "resource" in obj:  # an expanded resource: 2026 added is_public
                obj.pop("is_public", None)
            for key in extra - theirs:
                obj.pop(key, None)

    def public_codes(self, what):
        """Codes of pretalx's public submissions or speakers: those the
        mirror has pretalx's ids for (the submissions on the schedule), and
        what confapi shows every reviewer too."""
        return {item["code"] for item in self.facts.public(f"{what}/")}

    def unordered(self, t_body, m_body, o, endpoint):
        """(12) Orders the mirror cannot know. pretalx lists a speaker's
        submissions, and ties of `o=`, in its database's order (by primary
        key; in reviews' nested speakers, an unordered query's). Its API
        shows no primary key; the mirror has those of the scheduled
        submissions (from the schedule exports) and confapi orders by them,
        then by code. Where a list holds a submission the mirror has no id
        for, or pretalx's query has no order (the nested speakers of
        reviews?expand=submission.speakers: its reviews view's submissions),
        both are compared in code order: a speaker's `submissions`,
        and the runs of equal `o=state` (requested with page_size=250, so
        that no run is cut by a page)."""
        known = self.public_codes("submissions")
        for body in (t_body, m_body):
            for obj in every_object(body):
                # (28) A submission's speakers nested outside the
                # submissions view (in a slot, a review, a speaker's
                # submissions): pretalx's `sorted_speakers` returns the
                # view's prefetch as it comes, and those prefetches have no
                # order (2026.2.1 gives some two-speaker talks the other
                # way round there; its submissions view orders them by
                # position, as confapi does everywhere): compared in code
                # order.
                speakers = obj.get("speakers") if is_submission(obj) else None
                if isinstance(speakers, list) and not (
                        endpoint.startswith("submissions") and obj in self.objects(body)):
                    speakers.sort(key=code_of)
                subs = obj.get("submissions") if is_speaker(obj) else None
                # pretalx 2026 (and confapi) list a speaker's submissions
                # by code, 2025 by its primary key: 2025's are put in code
                # order.
                by_pk = self.release == "2025" and body is t_body
                if isinstance(subs, list) and (by_pk or endpoint.startswith("reviews")
                                               or any(code_of(x) not in known for x in subs)):
                    subs.sort(key=code_of)
            if o == "state" and isinstance(body, dict) and isinstance(body.get("results"), list):
                runs = defaultdict(list)
                for item in body["results"]:
                    runs[item["state"]].append(item)
                ordered = []
                for state in dict.fromkeys(item["state"] for item in body["results"]):
                    run = runs[state]
                    if any(item["code"] not in known for item in run):
                        run = sorted(run, key=lambda item: item["code"])
                    ordered.extend(run)
                body["results"] = ordered

    def current_release_only(self, role, body):
        """(17) Schedules are confapi's (docs/api.md, "Where confapi
        differs": visibility is confapi's, section 13 item 2): only
        organisers see older releases and the WIP schedule, and reviewers
        get the public slot fields (no `is_visible`). pretalx gives
        reviewers the organiser view (every release, the WIP schedule,
        `is_visible`), and the public the older releases' slots once any
        slot filter is given (pretalx-v1.md 10.2). So for everyone but
        the organiser, pretalx's schedules and slots of another schedule
        than the current release are dropped (and `count` lowered), and
        reviewers' slots lose `is_visible`."""
        current = int(self.facts["schedule"])

        def schedule_of(obj):
            if "version" in obj:  # a schedule
                return obj.get("id")
            ref = obj.get("schedule", current)
            return ref.get("id") if isinstance(ref, dict) else ref

        objects = self.objects(body)
        kept = [o for o in objects if schedule_of(o) == current]
        if isinstance(body, dict) and isinstance(body.get("results"), list):
            body["count"] -= len(objects) - len(kept)
            body["results"] = kept
        if role in "RT":
            for obj in kept:
                if "version" not in obj:
                    obj.pop("is_visible", None)
                    obj.pop("slot_type", None)  # pretalx 2026's organiser field
        return body

    def url(self, value):
        """(1) Hosts: each server names its own origin in `next` and
        `previous`. (2) Parameter order: pretalx (DRF's replace_query_param)
        sorts a link's parameters, confapi keeps the request's order; the
        same URL either way. Compared as path plus sorted decoded pairs."""
        for origin in self.origins:
            if value.startswith(origin):
                parsed = urllib.parse.urlsplit(value)
                pairs = sorted(urllib.parse.parse_qsl(parsed.query, keep_blank_values=True))
                return ["{origin}" + parsed.path, pairs]
        return value

    def walk(self, value):
        if isinstance(value, dict):
            return {k: self.walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.walk(v) for v in value]
        if isinstance(value, str):
            return self.url(value)
        return value

    def i18n(self, value):
        """(3) Unset translated texts: pretalx writes null, {} or
        {"en": ""} depending on how the row was written (pretalx-v1.md
        5.4). The mirror keeps null and the object as pretalx sends them
        for the nullable texts (rooms' description and speaker_info,
        tracks' and tags' description, questions' help_text: dataset.md),
        but other texts (a break's description, a release's comment) it
        stores as {}. All three are {}; with `lang` both write ""."""
        def fix(obj):
            if isinstance(obj, dict):
                out = {}
                for k, v in obj.items():
                    if k in MAYBE_UNSET_I18N and (v is None or (isinstance(v, dict) and not any(v.values()))):
                        v = {}
                    out[k] = fix(v)
                return out
            if isinstance(obj, list):
                return [fix(v) for v in obj]
            return obj
        return fix(value)

    def objects(self, body):
        """The objects of a body: the items of a list or page, or itself."""
        if isinstance(body, list):
            return body
        if isinstance(body, dict) and isinstance(body.get("results"), list):
            return body["results"]
        return [body] if isinstance(body, dict) else []

    def __call__(self, endpoint, role, path, theirs, mine):
        """theirs, mine: (status, is_json, body) -> the two, comparable."""
        (t_status, t_json, t_body), (m_status, m_json, m_body) = theirs, mine

        # (4) Errors are JSON (section 13, item 3): pretalx answers unknown
        # paths and events with Django's HTML page, 404, or 500 as this
        # fixture has no static files built (pretalx-v1.md 10.7); confapi
        # with 404 and a JSON `detail`. Both become "404 not found". (So does
        # the empty 404 of a question without icon, `questions/{id}/icon/`.)
        if not t_json and t_status in (404, 500) and (
                t_body == "" or str(t_body).lstrip().startswith("<")):
            t_status, t_json, t_body = 404, True, {"detail": "Not found."}
        # (5) 404 texts: pretalx's Http404 names the model ("No Room matches
        # the given query."), confapi says "Not found." (docs/api.md,
        # Errors). "Invalid page." stays.
        for body, status in ((t_body, t_status), (m_body, m_status)):
            if status == 404 and isinstance(body, dict) and body.get("detail", "").endswith(
                    "matches the given query."):
                body["detail"] = "Not found."

        if t_status == 200 and m_status == 200:
            # (6) The events list: pretalx lists hiddencon to the
            # administrator (their team covers it), but the token is not
            # bound to it, so a mirror cannot read it (docs/sync.md, "Events the
            # token may not read"): it is not in the mirror.
            if path.split("?")[0] == "/api/events/" and isinstance(t_body, list):
                t_body = [e for e in t_body if e.get("slug") != HIDDEN_SLUG]
            t_body, m_body = self.i18n(t_body), self.i18n(m_body)
            # (32) A speaker's empty biography: pretalx stores it as NULL
            # and shows null, but one written as "" (through its API) shows
            # "", and the dataset keeps one string for both (dataset.md),
            # which confapi shows as null when empty: null and "" are one.
            for body in (t_body, m_body):
                for obj in every_object(body):
                    if is_speaker(obj) and obj.get("biography") is None:
                        obj["biography"] = ""
            self.without_2026_fields(t_body, m_body)
            # (31) A speaker nested in a submission: pretalx 2025.2.2 gives
            # their submissions (expanded with speakers.submissions),
            # 2026.2.1 [] (its speaker serializer gives them only in the
            # speakers and reviews views); confapi answers as 2026.2 does.
            if self.release == "2025" and endpoint.startswith("submissions"):
                for speaker in nested_speakers(t_body):
                    if isinstance(speaker.get("submissions"), list):
                        speaker["submissions"] = []
            # (7) Reviewers never get secrets (section 13, item 2).
            if role in "RT" and endpoint.split()[0] == "submissions":
                for obj in self.objects(t_body):
                    for key in REVIEWER_SECRETS:
                        obj.pop(key, None)
            # (11) What confapi shows organisers only (docs/api.md, "Where
            # confapi differs"): reviewers get neither a submission's notes
            # nor its scores, nor a speaker's e-mail address, availabilities,
            # notes, locale, time zone or arrival (pretalx gives them the
            # organiser's serializers).
            for obj in every_object(t_body):
                hidden = set()
                if role in "RT" and is_submission(obj):
                    hidden = REVIEWER_HIDDEN_SUBMISSION
                elif role in "RT" and is_speaker(obj):
                    hidden = REVIEWER_HIDDEN_SPEAKER
                for key in hidden:
                    obj.pop(key, None)
            # (14) A speaker's submissions nested with `expand`: pretalx
            # nests for the public also submissions its own public
            # submissions list does not show (a rejected one with a slot);
            # confapi nests what the caller's submission list shows
            # (docs/api.md, "Roles and visibility": the public's
            # submissions are the public talks).
            if role == "A" and "expand=" in path:
                known = self.public_codes("submissions")
                for obj in every_object(t_body):
                    if is_speaker(obj) and isinstance(obj.get("submissions"), list):
                        obj["submissions"] = [x for x in obj["submissions"] if code_of(x) in known]
            params = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(path).query))
            self.unordered(t_body, m_body, params.get("o"), endpoint)
            # (16) Private resources are for organisers only (section 13,
            # item 2); pretalx shows reviewers every resource. The public
            # resources are those pretalx shows the public.
            if role in "RT":
                public = {r for s in self.facts.public("submissions/") for r in s["resources"]}
                for obj in every_object(t_body):
                    if is_submission(obj) and isinstance(obj.get("resources"), list):
                        obj["resources"] = [r for r in obj["resources"]
                                            if (r["id"] if isinstance(r, dict) else r) in public]
            if role != "O" and endpoint.split()[0] in ("slots", "schedules"):
                t_body = self.current_release_only(role, t_body)
        return (t_status, t_json, self.walk(t_body)), (m_status, m_json, self.walk(m_body))


# The parameters pretalx answers 500 for (pretalx-v1.md 10.1), by endpoint;
# and (30) 2026.2.1's 500 for reviews?expand=submission.submission_type,
# submission.tags.
CRASHES = {"reviews": ("speaker", "expand"), "answers": ("expand",)}
# The slot filters pretalx answers 400 for, whatever the value
# (pretalx-v1.md 10.2).
BROKEN_SLOT_FILTERS = ("speaker", "schedule_version")


def broken_slot_filter(path, theirs, mine, facts, token):
    """(18) slots?speaker= and ?schedule_version=: pretalx answers 400 for
    every value (its filters compare a user and a version with the wrong
    model, pretalx-v1.md 10.2); confapi gives the correct answer (section
    13, item 3; docs/api.md). True when confapi's answer is pretalx's
    under a working filter: `schedule=` with the id of that version, or
    another slot filter that filters nothing (`is_visible=any`, ignored by
    django-filter but a filter, so that the list covers every schedule as
    with `speaker=`) keeping the slots of that speaker's submissions; for
    everyone but the organiser only the current release's (17)."""
    t_status, _, t_body = theirs
    m_status, m_json, _ = mine
    parsed = urllib.parse.urlsplit(path)
    params = urllib.parse.parse_qsl(parsed.query, keep_blank_values=True)
    asked = {k: v for k, v in params if k in BROKEN_SLOT_FILTERS}
    if t_status != 400 or not isinstance(t_body, dict) or not asked or set(t_body) - set(asked):
        return False
    if m_status != 200 or not m_json:
        return False
    rest = [(k, v) for k, v in params if k not in BROKEN_SLOT_FILTERS]
    if "schedule_version" in asked:
        schedules = every(facts.origin, f"/api/events/{SLUG}/schedules/?page_size=250", facts.token)
        wanted = asked["schedule_version"].lower()
        ids = [s["id"] for s in schedules if (s["version"] or "").lower() == wanted]
        if not ids:
            return False
        rest.append(("schedule", str(ids[0])))
    else:
        rest.append(("is_visible", "any"))
    rest.append(("page_size", "250"))
    upstream = every(facts.origin, f"{parsed.path}?{urllib.parse.urlencode(rest)}", token)
    if "speaker" in asked:
        codes = {s["code"] for s in facts.list("submissions/") if asked["speaker"] in s["speakers"]}
        upstream = [s for s in upstream if s["submission"] in codes]
    if token != facts.token:
        current = int(facts["schedule"])
        upstream = [s for s in upstream if s["schedule"] == current]
    return [s["id"] for s in every(facts.mine, path, token)] == [s["id"] for s in upstream]


def crash_or_gone(endpoint, role, path, theirs, mine, facts, release="2025"):
    """What pretalx answers that confapi answers otherwise on purpose and
    cannot be normalised to one body: True when `mine` is that answer.

    (8) pretalx's 500 for a parameter it crashes on (reviews?speaker= of a
    speaker with several submissions, answers?expand=person; pretalx-v1.md
    10.1): confapi answers 400 with a JSON body naming the parameter, or
    the correct answer (section 13, item 3), which is checked against
    pretalx's answer without that parameter: the reviews of the speaker's
    submissions; the answers with `person` as an object of that code.
    (9) log/: not served by confapi (section 13, item 2): 404; nor
    submissions/favourites/ (docs/api.md: not served, pretalx's session-only
    endpoint), where pretalx answers the public 403."""
    t_status, t_json, t_body = theirs
    m_status, m_json, m_body = mine
    parsed = urllib.parse.urlsplit(path)
    params = urllib.parse.parse_qsl(parsed.query)
    crash = next((c for c in CRASHES.get(endpoint.split()[0], ()) if c in dict(params)), None)
    if t_status == 500 and not t_json and crash:
        if m_status == 400 and isinstance(m_body, dict):
            return set(m_body) <= set(dict(params))
        if m_status != 200 or not m_json:
            return False
        rest = urllib.parse.urlencode([(k, v) for k, v in params if k != crash] + [("page_size", "250")])
        upstream = every(facts.origin, f"{parsed.path}?{rest}", facts.token)
        mine_items = every(facts.mine, path, facts.token) if isinstance(m_body, dict) else m_body
        if crash == "speaker":
            speaker = dict(params)["speaker"]
            codes = {s["code"] for s in facts.list("submissions/") if speaker in s["speakers"]}
            return sorted(r["id"] for r in mine_items) == sorted(
                r["id"] for r in upstream if r["submission"] in codes)
        if endpoint.startswith("reviews"):  # (30): the reviews and their submissions
            return [(r["id"], code_of(r["submission"])) for r in mine_items] == [
                (r["id"], r["submission"]) for r in upstream]
        # (code_of: a person not expanded, as confapi answers 2026's
        # expand=question.tracks, is its code)
        return [(a["id"], code_of(a["person"])) for a in mine_items] == [
            (a["id"], a["person"]) for a in upstream]
    # (25) The public's answer detail: pretalx 2026.2.1 finds an answer to
    # a question the public sees, then asks for credentials (401), and
    # answers 404 for any other id, so its 401 tells that the id exists;
    # confapi answers every id as one of no answer, 404 (as pretalx 2025.2.2
    # did; docs/api.md).
    if (release == "2026" and role == "A" and endpoint == "answers" and t_status == 401
            and parsed.path.rstrip("/").split("/")[-1].isdigit()):
        return (m_status, m_body) == (404, {"detail": "Not found."})
    if release == "2026" and endpoint.startswith("answers") and t_status == 200 and m_status == 200:
        expand = ",".join(v for k, v in params if k == "expand").split(",")
        # (26) answers?expand=person: pretalx 2026.2.1 drops `person`
        # (the expanded serializer reads `answer.person`, which 2026
        # renamed `speaker`, and skips the field; 2025.2.2 answered 500,
        # see 8); confapi keeps the person's code (docs/api.md). True when
        # confapi's answers are pretalx's unexpanded ones.
        if "person" in expand and all("person" not in a for a in t_body.get("results", [])):
            rest = urllib.parse.urlencode([(k, v) for k, v in params if k != "expand"]
                                          + [("page_size", "250")])
            upstream = every(facts.origin, f"{parsed.path}?{rest}", facts.token)
            mine_items = every(facts.mine, path, facts.token)
            return all(a["person"] is None or isinstance(a["person"], str) or is_speaker(a["person"])
                       for a in mine_items) and [
                dict(a, person=code_of(a["person"])) for a in mine_items] == upstream
        # (27) The answers' speaker filter: 2026 renamed `person=` to
        # `speaker=` and ignores `person=`; confapi takes both (docs/api.md),
        # so its answer to person= is pretalx's to speaker=.
        if "person" in dict(params) and "speaker" not in dict(params):
            renamed = [("speaker" if k == "person" else k, v) for k, v in params]
            upstream = every(facts.origin, f"{parsed.path}?{urllib.parse.urlencode(renamed)}",
                             facts.token)
            return every(facts.mine, path, facts.token) == upstream
    # (27) And pretalx 2025.2.2, which knows only `person=`, ignores
    # `speaker=`: confapi's answer to it is 2025's to person=.
    if (release == "2025" and endpoint == "answers" and "speaker" in dict(params)
            and "person" not in dict(params) and t_status == 200 and m_status == 200):
        renamed = [("person" if k == "speaker" else k, v) for k, v in params]
        upstream = every(facts.origin, f"{parsed.path}?{urllib.parse.urlencode(renamed)}", facts.token)
        return every(facts.mine, path, facts.token) == upstream
    # (33) A code filter's choices: pretalx's are every submission of the
    # event, so its 200 with no slots for a proposal's code tells the
    # public that the code exists; confapi's are the submissions the
    # caller is shown, and it answers a code outside them as an unknown
    # one (docs/api.md). Accepted when the public's submissions list (from
    # pretalx) lacks the code.
    code_filters = [(k, v) for k, v in params if k == "submission"]
    if (endpoint == "slots" and role == "A" and t_status == 200 and code_filters and m_status == 400
            and t_body.get("count") == 0
            and m_body == {"submission": [INVALID_CHOICE]}):
        shown = every(facts.origin, f"{parsed.path.rsplit('/slots/', 1)[0]}/submissions/",
                      None)
        return all(c["code"].lower() != code_filters[0][1].lower() for c in shown)
    if parsed.path.endswith("/log/") or parsed.path.endswith("/submissions/favourites/"):
        return m_status == 404 and m_json
    return False


# ---------------------------------------------------------------------------


def answer(origin, path, token, version, upstream=False):
    """(status, is_json, body) of one request. (10) Trailing slashes:
    pretalx redirects a path without its slash (301) to the slashed path;
    confapi answers every path with and without it (docs/api.md, "Endpoints"):
    pretalx's redirect is followed when it leads there. This fixture has no
    static files built, so instead of the redirect pretalx answers an HTML
    500 (Django decides on the redirect after rendering the 404 page, which
    fails without them; pretalx-v1.md 10.7): then pretalx is asked for the
    slashed path, where the redirect leads."""
    status, headers, body = request(origin, path, token, version)
    wanted = urllib.parse.urlsplit(path)
    slashed = wanted._replace(path=wanted.path + "/").geturl()
    is_html = headers.get("content-type", "").startswith("text/html")
    if status == 301 and urllib.parse.urlsplit(headers.get("location", "")).path == wanted.path + "/":
        status, headers, body = request(origin, slashed, token, version)
    elif upstream and status == 500 and is_html and not wanted.path.endswith("/"):
        status, headers, body = request(origin, slashed, token, version)
    is_json = headers.get("content-type", "").split(";")[0].strip() == "application/json"
    if is_json:
        try:
            return status, True, json.loads(body)
        except ValueError:
            return status, False, body[:200].decode(errors="replace")
    return status, False, body[:200].decode(errors="replace")


def differences(a, b, where="", out=None, limit=6):
    """Where two JSON values differ, as a few `path: theirs != mine` lines."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in b:
                out.append(f"{where}.{key}: only pretalx has it ({json.dumps(a[key])[:80]})")
            elif key not in a:
                out.append(f"{where}.{key}: only confapi has it ({json.dumps(b[key])[:80]})")
            else:
                differences(a[key], b[key], f"{where}.{key}", out, limit)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            differences(x, y, f"{where}[{i}]", out, limit)
    elif a != b:
        out.append(f"{where or '.'}: pretalx {json.dumps(a)[:150]} != confapi {json.dumps(b)[:150]}")
    return out[:limit]


UNSUPPORTED_VERSION = (400, True, {"detail": "API version not supported."})
INVALID_CHOICE = "Select a valid choice. That choice is not one of the available choices."


def run_requests(rows, theirs_origin, mine_origin, tokens, facts, verbose, release="2025"):
    normalise = Normaliser(theirs_origin, mine_origin, facts, release)
    results = defaultdict(Counter)  # endpoint -> Counter of (role, passed/failed)
    failures = []
    timing = Counter()
    for endpoint, role, path_template, query_template, version in rows:
        try:
            path = path_template.format_map(facts)
            query = query_template.format_map(facts)
        except (KeyError, StopIteration, IndexError, RuntimeError) as err:
            failures.append((endpoint, role, path_template, f"fixture fact missing: {err!r}"))
            results[endpoint][role, "failed"] += 1
            print(f"FAIL {endpoint}: {role} {path_template}: fixture fact missing: {err!r}")
            continue
        target = path + ("?" + query if query else "")
        token = tokens[role]
        started = time.monotonic()
        theirs = answer(theirs_origin, target, token, version, upstream=True)
        timing["pretalx"] += time.monotonic() - started
        started = time.monotonic()
        mine = answer(mine_origin, target, token, version)
        timing["confapi"] += time.monotonic() - started
        # (20) Versions: confapi accepts what pretalx 2026.2 accepts
        # (docs/api.md): `v2` and `v-next`, whose shapes for confapi's
        # endpoints are v1's, so against 2025.2.2 (which answers them 400)
        # confapi's answer is compared with pretalx's v1 answer; and
        # `DEV_PREVIEW`, which 2026 renamed, is a 400 as in 2026.2.
        if release == "2025" and version.lower() in ("v2", "v-next") and theirs[0] == 400:
            theirs = answer(theirs_origin, target, token, "v1", upstream=True)
        # (29) pretalx 2026.2 answers organiser-level endpoints (teams)
        # 403 unless the token covers every event of the organiser; confapi's
        # tokens are its users' (docs/api.md, "Where confapi differs"): its
        # organiser's answer is compared with pretalx's to the all-events
        # token.
        if (release == "2026" and role == "O" and endpoint.split()[0] == "teams"
                and theirs[0] == 403 and tokens.get("E")):
            theirs = answer(theirs_origin, target, tokens["E"], version, upstream=True)
        if release == "2025" and version.upper() == "DEV_PREVIEW":
            ok = mine == UNSUPPORTED_VERSION
            detail = "" if ok else f"confapi {mine[0]} {json.dumps(mine[2])[:200]}, not 2026.2's 400"
        elif crash_or_gone(endpoint, role, target, theirs, mine, facts, release):
            ok, detail = True, "(pretalx's 500 or log/: confapi's answer accepted)"
        elif endpoint.split()[0] == "slots" and broken_slot_filter(target, theirs, mine, facts, token):
            ok, detail = True, "(pretalx's 400 for a broken slot filter: confapi's answer accepted)"
        else:
            n_theirs, n_mine = normalise(endpoint, role, target, theirs, mine)
            ok = n_theirs == n_mine
            detail = ""
            if not ok:
                if n_theirs[:2] != n_mine[:2]:
                    detail = (f"status pretalx {theirs[0]}{'' if theirs[1] else ' (not JSON)'} != "
                              f"confapi {mine[0]}{'' if mine[1] else ' (not JSON)'}; pretalx "
                              f"{json.dumps(theirs[2])[:200]}; confapi {json.dumps(mine[2])[:200]}")
                else:
                    detail = "; ".join(differences(n_theirs[2], n_mine[2]))
        results[endpoint][role, "passed" if ok else "failed"] += 1
        label = f"{role} {target}" + ("" if version == "v1" else f" [Pretalx-Version: {version}]")
        if ok:
            if verbose:
                print(f"ok   {endpoint}: {label}")
        else:
            failures.append((endpoint, role, label, detail))
            print(f"FAIL {endpoint}: {label}: {detail}")
    return results, failures, timing


def event_bound_sync(binary, upstream, work, first_db):
    """pretalx 2026: `confapi sync --organiser` with the organiser's token
    bound to democon (DIR/token), which 2026.2 refuses the organiser's teams
    (403): the sync must succeed, say in one line that the teams come from
    the access file, and mirror the event as the all-events token's sync
    did (`confapi export` of both, the event without its teams, which come
    from the access file). The problems, or [] when it holds."""
    db = f"sqlite://{work}/event-bound.db"
    result = subprocess.run(
        [binary, "sync", "--from", upstream.url, "--access", os.path.join(work, "access.json"),
         "--db", db, "--event", SLUG, "--organiser", ORGANISER],
        capture_output=True, text=True, timeout=300,
        env=dict(os.environ, CONFAPI_SYNC_TOKEN=upstream.token))
    out = (result.stdout + result.stderr).strip()
    if result.returncode != 0:
        return [f"exit {result.returncode}: {out[-1500:]}"]
    problems = []
    teams_lines = [line for line in out.splitlines() if "teams come from the access file" in line]
    if len(teams_lines) != 1 or "403" not in teams_lines[0]:
        problems.append(f"expected one line saying the teams (403) come from the access file: {out[-800:]}")

    def event_of(url):
        exported = subprocess.run([binary, "export", "--db", url, "--event", SLUG],
                                  capture_output=True, text=True, timeout=120)
        if exported.returncode != 0:
            raise RuntimeError(f"confapi export --db {url} failed: {exported.stderr[-800:]}")
        event = json.loads(exported.stdout)["events"][0]
        event.pop("teams", None)
        return event
    first, bound = event_of(first_db), event_of(db)
    if first != bound:
        problems.append("the event differs from the all-events sync's: " + "; ".join(
            differences(first, bound)))
    return problems


def report(results, served_only):
    roles = "AORTB"
    print(f"\n{'endpoint':<30}" + "".join(f"{r:>9}" for r in roles) + f"{'passed':>9}{'failed':>9}")
    total = Counter()
    for endpoint in sorted(results, key=lambda e: (mark(e), e)):
        counts = results[endpoint]
        cells = ""
        for role in roles:
            n = counts[role, "passed"] + counts[role, "failed"]
            cells += f"{n:>9}" if n else f"{'-':>9}"
        passed = sum(v for (r, s), v in counts.items() if s == "passed")
        failed = sum(v for (r, s), v in counts.items() if s == "failed")
        total["passed"] += passed
        total["failed"] += failed
        print(f"{endpoint + mark(endpoint):<30}{cells}{passed:>9}{failed:>9}")
    if not served_only:
        print("(+ served by confapi in v1, not in the default run yet; * not served in v1; "
              "rows with expand= are counted under their endpoint + ' (expand)')")
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default="target/debug/confapi")
    parser.add_argument("--postgres", help="admin URL; the mirror goes into a fresh database made from it")
    parser.add_argument("--pretalx-dir", help="set pretalx up here, or reuse what an earlier run set up here")
    parser.add_argument("--all", action="store_true",
                        help="every request: also those of the endpoints served since, and of what "
                             "confapi does not serve in v1")
    parser.add_argument("--only", help="only these endpoints (comma list)")
    parser.add_argument("--verbose", action="store_true", help="print every request, not only failures")
    parser.add_argument("--pretalx", choices=("2025", "2026"), default="2025",
                        help="the upstream: pretalx 2025.2.2 (default) or 2026.2.1 "
                             "(scripts/upstream/pretalx2026_upstream.py, in a Debian 13 root; "
                             "synced with its all-events token, compared with its event-bound one, "
                             "and synced again with the event-bound one)")
    parser.add_argument("--api-version", choices=("v1", "v2"), default="v1",
                        help="the Pretalx-Version header of the table's lines without version= "
                             "(sent to both servers; default v1)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    label = "postgres" if args.postgres else "sqlite"
    if args.pretalx != "2025" or args.api_version != "v1":
        label = f"pretalx {args.pretalx}, {args.api_version}, {label}"
    started = time.monotonic()

    rows = parse_table(REQUESTS, args.api_version, args.pretalx)
    if not args.all:
        rows = [r for r in rows if is_served(r[0], r[3])]
    if args.only:
        wanted = set(args.only.split(","))
        rows = [r for r in rows if r[0] in wanted]
    # pretalx 2025.2.2 keeps a nested expansion for later requests (its
    # PretalxSerializer.get_extra_flex_field writes the nested `expand`
    # into the serializer class's Meta.extra_expandable_fields, per
    # process): after `expand=slots.room`, `expand=slots` also expands the
    # rooms. So requests with a dotted expand go last; each run starts a
    # fresh pretalx process, and the answers do not depend on the order.
    def dotted(row):
        return any("." in v for k, v in urllib.parse.parse_qsl(row[3]) if k == "expand")
    rows.sort(key=dotted)
    # Requests with expand= are reported apart from their endpoint's others.
    rows = [(f"{e} (expand)" if "expand=" in q else e, role, p, q, v)
            for e, role, p, q, v in rows]

    work = tempfile.mkdtemp(prefix="pretalx-v1-diff-")
    pretalx_dir = os.path.abspath(args.pretalx_dir or os.path.join(work, "pretalx"))
    sync_token = None
    if args.pretalx == "2026":
        from pretalx2026_upstream import start_upstream as start_upstream_2026
        upstream = start_upstream_2026(pretalx_dir)
        sync_token = upstream.all_events_token
    else:
        upstream = start_upstream(pretalx_dir)
    server = None
    failed_setup = None
    try:
        server, role_tokens, roles = mirror(binary, upstream, work, args.postgres,
                                            "confapi_pretalx_v1_diff", sync_token)
        token = role_tokens["O"]
        tokens = dict(role_tokens, A=None, B=BOGUS_TOKEN, E=sync_token)
        facts = Facts(upstream.url, token, roles, sync_token)
        facts.mine = server.url
        results, failures, timing = run_requests(
            rows, upstream.url, server.url, tokens, facts, args.verbose, args.pretalx)
        if args.pretalx == "2026":
            problems = event_bound_sync(binary, upstream, work, server.db_url)
            results["sync (event-bound token)"]["O", "failed" if problems else "passed"] += 1
            for problem in problems:
                failures.append(("sync (event-bound token)", "O", "sync", problem))
                print(f"FAIL sync with the event-bound token: {problem}")
        total = report(results, not args.all)
        problems = server.log_problems()
        if problems:
            failures.append(("server", "-", "log", problems[:5]))
            total["failed"] += 1
            print(f"FAIL the mirror logged errors or 5xx: {problems[:5]}")
        print(f"     {len(rows)} requests in {time.monotonic() - started:.0f}s (time waiting for "
              f"pretalx {timing['pretalx']:.1f}s, for confapi {timing['confapi']:.1f}s)")
    except Exception as err:  # set-up failures count as one failure, with the summary line
        failed_setup = err
        total = Counter(failed=1)
        print(f"FAIL set-up: {err}")
        traceback.print_exc()
    finally:
        tear_down(server, upstream, work, args.keep)
    print(f"pretalx v1 diff ({label}): {total['passed']} passed, {total['failed']} failed")
    sys.exit(1 if total["failed"] or failed_setup else 0)


if __name__ == "__main__":
    main()
