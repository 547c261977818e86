#!/usr/bin/env python3
"""A real pretalx 2026.2.1 on a loopback port (API v2, and v1 on request),
inside a Debian 13 root, for sync tests and the differential suites.

    python3 scripts/upstream/pretalx2026_upstream.py [--dir DIR] [--port N]

pretalx 2026 needs Python 3.13; this machine's Debian 12 has 3.11. So it
runs in a Debian 13 (trixie) root made with debootstrap and a virtualenv
inside it (scripts/upstream/debian13.py: cached at
~/.cache/confapi/debian13-root, or $CONFAPI_DEBIAN13_ROOT, built into a
temporary directory and renamed when complete; the virtualenv
/opt/pretalx-2026.2.1 in it, stamped with its packages). Needs root
(debootstrap, chroot, mount namespaces). pretalx's static files are
collected once into the virtualenv (`collectstatic`, no npm): the API
needs none, but without them every HTML 404 (a non-public event's
schedule export, a path without its slash) is a 500. DIR is bound into the root at
the same path, so the data, DIR/token and the logs are plain host files,
and gunicorn inside on 127.0.0.1:PORT is reachable from the host (the
root shares the host's network).

The same interface as `Upstream` of scripts/upstream/pretalx_upstream.py
(`--dir`, `--port`, `.setup()`, `.start()`, `.stop()`, `.url`, `.token`):
a fresh data directory with SQLite, `migrate`, `create_test_event` (event
`democon`, fixed seeds and a frozen clock, so every run makes the same
data), then what issue 62 asks the fixture to hold:

- questions with options (public), a private one, an inactive public one
  with answers, a speaker question answered by profiles (2026: an
  answer names its SpeakerProfile, `speaker=`), and a reviewer question
  (target `reviewer`) answered inside reviews;
- a public tag; a public and a private resource on one talk;
- availabilities of a room and of three speakers;
- a hidden (non-public) second event `hiddencon` of the same organiser,
  which the organiser team covers;
- the reviewer team with a member, and a track-limited reviewer team (its
  member alone, limited to the first track);
- two released schedules (v1.0 by create_test_event; v1.1 after a slot
  was moved, a day later) plus the WIP schedule;
- three speakers with their own time zone (2026 keeps it on the User);
- every profile with its speaker's name (as real events have it; 2026's
  `q=` searches the profile's name);
- a scheduled talk with two speakers (a second SpeakerProfile added);
- a reviewer who is also a speaker under a profile code of their own
  (their user code in reviews, another in speakers: one person, two codes);
- two access codes, one limited to two tracks and a submission type (the
  one resource whose v2 answer differs from v1's);
- tokens (read permissions on every endpoint): the administrator's bound
  to democon (`limit_events`) in DIR/token; the administrator's covering
  all events of the organiser (`all_events`: 2026.2 answers organiser-level
  endpoints such as teams only to such a token) in DIR/token.all_events;
  the reviewer's and the track-limited reviewer's in DIR/token.roles.json
  (`{"reviewer": {"code", "token"}, "trackrev": {...}}`). Files mode 0600;
  tokens are never printed.

Ctrl-C (or SIGTERM) stops the server.
"""

import os
import re
import shutil
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import debian13  # noqa: E402
import pretalx_upstream  # noqa: E402
from pretalx_upstream import HIDDEN_SLUG, SLUG, Upstream, free_port  # noqa: E402

VERSION = "2026.2.1"
PACKAGES = [f"pretalx=={VERSION}", "Faker==40.63.0", "freezegun==1.5.5", "gunicorn==27.0.1"]
ORGANISER = f"{SLUG}org"
FROZEN_NOW = "2026-06-02 08:00:00"
# The second release, a day later.
FROZEN_LATER = "2026-06-03 08:00:00"
SEED = 2026

# Run by `python -m pretalx shell --unsafe-disable-scopes -c`; @NAME@ are
# filled in by `setup` (no str.format: the script is full of braces).
SETUP = r"""
import datetime as dt
import json
import os
import random
from freezegun import freeze_time
from django.core.management import call_command
from django_scopes import scope, scopes_disabled
from pretalx.event.domain.event import create_event
from pretalx.event.models import Event, Team
from pretalx.person.models import SpeakerProfile, User
from pretalx.person.models.auth_token import ENDPOINTS, READ_PERMISSIONS, UserApiToken
from pretalx.schedule.domain.release import freeze_schedule
from pretalx.schedule.domain.slot import move_slot
from pretalx.schedule.models import Availability
from pretalx.submission.domain.submission import add_speaker
from pretalx.submission.models import Answer, AnswerOption, Question, Resource, Tag

random.seed(@SEED@)
# Codes (submissions, profiles, users, the administrator's too, question
# identifiers) come from Django's get_random_string, which draws from
# `secrets`: a seeded generator makes them the same every run. Only while
# the data is made: the API tokens below are drawn for real.
import django.utils.crypto as crypto
real_secrets, crypto.secrets = crypto.secrets, random.Random(@SEED@)
with scopes_disabled():
    admin = User.objects.create_user(
        email="admin@pretalx.invalid", password="not-used-admin-1234", name="Sync Admin"
    )
    admin.is_administrator = True
    admin.is_staff = True
    admin.save()
with freeze_time("@NOW@"):
    call_command("create_test_event", slug="@SLUG@", seed="@SEED@")
with scopes_disabled(), freeze_time("@NOW@"):
    event = Event.objects.get(slug="@SLUG@")
    subs = list(event.submissions.order_by("code"))
    # Profiles carry their speaker's name, as on real events (migration
    # person 0035 copied it into every profile, the CfP's profile form
    # writes it); create_test_event leaves it empty, and 2026's `q=` of
    # submissions and slots searches the profile's name, not the user's.
    for profile in SpeakerProfile.objects.filter(event=event).select_related("user"):
        if not profile.name and profile.user:
            profile.name = profile.user.name
            profile.save(update_fields=["name"])
    # Questions with answers: one with options (public), one only
    # organisers see.
    level = Question.objects.create(
        event=event, question="Audience level", variant="choices", target="submission",
        question_required="optional", is_public=True, position=1,
    )
    options = [AnswerOption.objects.create(question=level, answer=a, position=i)
               for i, a in enumerate(["Beginner", "Expert"])]
    note = Question.objects.create(
        event=event, question="Anything else?", variant="text", target="submission",
        question_required="optional", is_public=False, position=2,
    )
    for i, sub in enumerate(subs[:6]):
        answer = Answer.objects.create(question=level, submission=sub, answer=options[i % 2].answer)
        answer.options.add(options[i % 2])
        Answer.objects.create(question=note, submission=sub, answer=f"Note {i}")
    # "" beside null (issue 62): a tag, a track and a room described as ""
    # (a cleared form field), where create_test_event's leave it null, and
    # a question whose help text is "".
    from pretalx.schedule.models import Room
    from pretalx.submission.models import Track
    Tag.objects.create(event=event, tag="cleared", color="#334455", is_public=True, description="")
    Track.objects.create(event=event, name="Cleared", color="#445566", description="")
    Room.objects.create(event=event, name="Annex", description="", capacity=20, position=50)
    note.help_text = ""
    note.save()
    tag = Tag.objects.create(event=event, tag="keynote", color="#aa3300", is_public=True)
    for sub in subs[::10]:
        sub.tags.add(tag)
    # The talks of the released schedule, by code.
    talk_codes = sorted({slot.submission.code for slot in event.current_schedule.talks.filter(
        is_visible=True, submission__isnull=False).select_related("submission")})
    # On the second (the e2e's title change takes the first), a public and
    # a private link resource.
    talk = event.submissions.get(code=talk_codes[1])
    Resource.objects.create(submission=talk, link="https://example.org/slides",
                            description="Slides", is_public=True)
    Resource.objects.create(submission=talk, link="https://example.org/notes",
                            description="Notes", is_public=False)
    # A public question no longer asked (inactive), answered on three talks.
    retired = Question.objects.create(
        event=event, question="Previous talk", variant="string", target="submission",
        question_required="optional", is_public=True, active=False, position=3,
    )
    for i, code in enumerate(talk_codes[1:4]):
        Answer.objects.create(question=retired, submission=event.submissions.get(code=code),
                              answer=f"Retired answer {i}")
    # A speaker question (public), answered by the profiles of four
    # speakers of scheduled talks: 2026 answers name the SpeakerProfile.
    shirt = Question.objects.create(
        event=event, question="T-shirt size", variant="string", target="speaker",
        question_required="optional", is_public=True, position=4,
    )
    scheduled_profiles = list(SpeakerProfile.objects.filter(
        event=event, submissions__code__in=talk_codes).distinct().order_by("code"))
    for i, profile in enumerate(scheduled_profiles[:4]):
        Answer.objects.create(question=shirt, speaker=profile, answer=["S", "M", "L", "XL"][i])
    # Availabilities: of a room, and of speakers (once the CfP asks for them).
    event.cfp.fields["availabilities"] = {"visibility": "optional"}
    event.cfp.save()
    start = event.datetime_from + dt.timedelta(hours=8)
    Availability.objects.create(event=event, room=event.rooms.order_by("pk").first(),
                                start=start, end=start + dt.timedelta(hours=10))
    for i, profile in enumerate(SpeakerProfile.objects.filter(event=event).order_by("pk")[:3]):
        Availability.objects.create(event=event, person=profile,
                                    start=start + dt.timedelta(days=i),
                                    end=start + dt.timedelta(days=i, hours=4))
    # Speakers with their own time zone (create_test_event gives every user
    # the event's, Europe/Berlin): three speakers of scheduled talks.
    for profile, zone in zip(scheduled_profiles[1:4],
                             ["America/New_York", "Asia/Tokyo", "Australia/Adelaide"]):
        profile.user.timezone = zone
        profile.user.save()
    # A scheduled talk with two speakers: the third talk gets a second
    # speaker, a speaker of another scheduled talk (a SpeakerProfile).
    duo = event.submissions.get(code=talk_codes[2])
    other = next(p for p in reversed(scheduled_profiles) if p not in duo.speakers.all())
    add_speaker(duo, speaker=other)
    # A reviewer question (target `reviewer`, answered inside reviews).
    confidence = Question.objects.create(
        event=event, question="Reviewer confidence", variant="choices", target="reviewer",
        question_required="optional", is_public=False, is_visible_to_reviewers=True, position=5,
    )
    conf_options = [AnswerOption.objects.create(question=confidence, answer=a, position=i)
                    for i, a in enumerate(["Low", "High"])]
    for i, review in enumerate(event.reviews.order_by("pk")[:8]):
        answer = Answer.objects.create(question=confidence, review=review,
                                       answer=conf_options[i % 2].answer)
        answer.options.add(conf_options[i % 2])
    # A second, non-public event of the same organiser, which the organiser
    # team covers; later than democon.
    hidden = create_event(
        organiser=event.organiser, locales=["en"], name="HiddenCon", slug="@HIDDEN@",
        is_public=False, date_from=event.date_from + dt.timedelta(days=60),
        date_to=event.date_to + dt.timedelta(days=60), timezone="Europe/Berlin",
        email="hidden@example.org", locale="en",
    )
    event.organiser.teams.get(name="Team DemoCon Org").limit_events.add(hidden)
    # create_test_event's reviewer team has no members: its first reviewer
    # (by code) joins it.
    reviewers = list(User.objects.filter(reviews__submission__event=event).distinct().order_by("code"))
    reviewer = reviewers[0]
    event.organiser.teams.get(name="DemoCon Reviewers").members.add(reviewer)
    # A track-limited reviewer: the second reviewer by code, alone in a
    # reviewer team limited to the first track.
    track_team = Team.objects.create(organiser=event.organiser, name="DemoCon Track Reviewers",
                                     is_reviewer=True)
    track_team.limit_events.add(event)
    track_team.limit_tracks.add(event.tracks.order_by("pk").first())
    trackrev = reviewers[1]
    track_team.members.add(trackrev)
    # One person, two codes: the third reviewer (a review author, user
    # code in reviews) becomes a co-speaker of the first proposal not on
    # the schedule, which gives them a new SpeakerProfile with a code of
    # its own (pretalx 2026's per-event speaker codes).
    if len(reviewers) > 2:
        proposal = next(sub for sub in subs if sub.code not in talk_codes)
        add_speaker(proposal, user=reviewers[2])
    # Access codes: the one place v2 differs from v1 (`tracks` and
    # `submission_types` lists in v2; v1 shows the first entry).
    from pretalx.submission.models import SubmitterAccessCode
    both = SubmitterAccessCode.objects.create(event=event, maximum_uses=3)
    both.tracks.add(*event.tracks.order_by("pk")[:2])
    both.submission_types.add(event.submission_types.order_by("pk").first())
    SubmitterAccessCode.objects.create(event=event)

# The second release: a day later, the last slot of the first day moved an
# hour later (past the day's other talks), released as v1.1.
with scopes_disabled(), freeze_time("@LATER@"):
    event = Event.objects.get(slug="@SLUG@")
    wip = event.wip_schedule
    first_day = [s for s in wip.talks.filter(submission__isnull=False, start__isnull=False)
                 .select_related("submission", "room").order_by("start", "room__pk")
                 if s.start < event.datetime_from + dt.timedelta(days=1)]
    moved = first_day[-1]
    move_slot(moved, moved.start + dt.timedelta(hours=1), room=moved.room)
    freeze_schedule(wip, "v1.1", notify_speakers=False, comment="Moved one talk")

crypto.secrets = real_secrets
with scopes_disabled():
    event = Event.objects.get(slug="@SLUG@")
    read = {name: list(READ_PERMISSIONS) for name in ENDPOINTS}

    def write_secret(path, text):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)

    bound = UserApiToken.objects.create(name="confapi sync (democon)", user=admin, endpoints=read)
    bound.limit_events.add(event)
    write_secret("@TOKEN_FILE@", bound.token)
    everything = UserApiToken.objects.create(name="confapi sync (all events)", user=admin,
                                             endpoints=read, all_events=True)
    write_secret("@TOKEN_FILE@.all_events", everything.token)
    reviewers = list(User.objects.filter(reviews__submission__event=event).distinct().order_by("code"))
    roles = {}
    for role, user in (("reviewer", reviewers[0]), ("trackrev", reviewers[1])):
        role_token = UserApiToken.objects.create(name=f"confapi {role}", user=user, endpoints=read)
        role_token.limit_events.add(event)
        roles[role] = {"code": user.code, "token": role_token.token}
    write_secret("@TOKEN_FILE@.roles.json", json.dumps(roles))
"""


class Upstream2026(Upstream):
    """pretalx 2026.2.1 in the Debian 13 root; `all_events_token` is the
    token covering every event of the organiser (DIR/token.all_events)."""

    version = VERSION
    packages = PACKAGES
    slug = SLUG
    setup_script = SETUP
    venv_name = f"pretalx-{VERSION}"

    def __init__(self, root, port=None, log=print):
        self.root = Path(root).absolute()
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.chroot, self.python = debian13.ensure_venv(
            self.venv_name, self.packages, log, self.prepare_venv, "collectstatic")
        self.process = None
        self.token_file = self.root / "token"
        self.config = self.root / "pretalx.cfg"
        self.server_log = self.root / "gunicorn.log"

    def prepare_venv(self, chroot, python):
        """pretalx's static files, collected once per virtualenv (into the
        package's static.dist; no npm: the API needs none of them). Without
        them pretalx cannot render its HTML error pages: every 404 outside
        the API (an exporter of a non-public event, a path without its
        slash) becomes a 500, and `confapi sync` of every event the
        all-events token sees fails on hiddencon's schedule exports."""
        scratch = Path(tempfile.mkdtemp(prefix="pretalx-collectstatic-"))
        try:
            config = scratch / "pretalx.cfg"
            config.write_text(f"[filesystem]\ndata = {scratch}/data\n[site]\ndebug = False\n")
            log = scratch / "collectstatic.log"
            with open(log, "wb") as out:
                result = debian13.run(chroot, ["nice", "-n", "10", python, "-m", "pretalx",
                                               "collectstatic", "--noinput"],
                                      binds=[scratch], env=self.env(config), stdout=out, stderr=out)
            if result.returncode != 0:
                tail = log.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"pretalx collectstatic failed (exit {result.returncode}):\n{tail}")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def env(self, config=None):
        return {"PRETALX_CONFIG_FILE": str(config or self.config)}

    def manage(self, *args):
        """A pretalx management command inside the root; its chatter goes
        to DIR/manage.log."""
        log = self.root / "manage.log"
        with open(log, "ab") as out:
            result = debian13.run(self.chroot, ["sh", "-c", f'cd "$1" && shift && exec "$@"', "sh",
                                                str(self.root), self.python, "-m", "pretalx", *args],
                                  binds=[self.root], env=self.env(), stdout=out, stderr=out)
        if result.returncode != 0:
            tail = log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"pretalx {args[0]} failed (exit {result.returncode}):\n{tail}")

    def setup(self):
        """A fresh database with the test event, its additions and the tokens."""
        self.root.mkdir(parents=True, exist_ok=True)
        data = self.root / "data"
        self.config.write_text(
            "[filesystem]\n"
            f"data = {data}\n"
            "[database]\n"
            "backend = sqlite3\n"
            f"name = {data / 'db.sqlite3'}\n"
            "[site]\n"
            "debug = False\n"
            f"url = {self.url}\n"
            "[celery]\n"
        )
        started = time.monotonic()
        self.manage("migrate", "--noinput")
        script = self.setup_script
        for name, value in (("SEED", SEED), ("NOW", FROZEN_NOW), ("LATER", FROZEN_LATER),
                            ("SLUG", self.slug), ("HIDDEN", HIDDEN_SLUG),
                            ("TOKEN_FILE", self.token_file)):
            script = script.replace(f"@{name}@", str(value))
        self.manage("shell", "--unsafe-disable-scopes", "-c", script)
        self.log(f"== pretalx {self.version} set up with event {self.slug} in "
                 f"{time.monotonic() - started:.0f}s")

    @property
    def all_events_token(self):
        return (self.root / "token.all_events").read_text().strip()

    def start(self):
        with open(self.server_log, "ab") as out:
            self.process = debian13.popen(
                self.chroot,
                ["sh", "-c", 'cd "$1" && shift && exec "$@"', "sh", str(self.root),
                 self.python, "-m", "gunicorn", "pretalx.wsgi",
                 "--bind", f"127.0.0.1:{self.port}", "--workers", "2", "--timeout", "120"],
                binds=[self.root], env=self.env(), stdout=out, stderr=out,
                start_new_session=True,
            )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {self.server_log}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/events/", timeout=5) as r:
                    if r.status == 200:
                        return self
            except OSError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"pretalx did not answer within 120 s; see {self.server_log}")


def start_upstream(root, log=print):
    """pretalx 2026.2.1 set up in `root`, or what an earlier run set up
    there, started (the 2026 twin of pretalx_e2e.start_upstream)."""
    upstream = Upstream2026(root, log=log)
    if upstream.token_file.exists() and (upstream.root / "token.roles.json").exists():
        # Served on a new port: pretalx writes its URL into links and exports.
        config = upstream.config.read_text()
        upstream.config.write_text(re.sub(r"(?m)^url = .*$", f"url = {upstream.url}", config))
        log(f"     reusing the pretalx {VERSION} set up in {root}")
    else:
        if upstream.config.exists():  # a set-up that failed half-way
            shutil.rmtree(root)
        elif os.path.isdir(root) and os.listdir(root):
            sys.exit(f"{root} holds something else than a pretalx set up by this script")
        upstream.setup()
    return upstream.start()


if __name__ == "__main__":
    pretalx_upstream.main(Upstream2026, __doc__)
