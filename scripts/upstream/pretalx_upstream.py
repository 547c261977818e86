#!/usr/bin/env python3
"""A real pretalx 2025.2.2 on a loopback port, for sync tests and benchmarks.

    python3 scripts/upstream/pretalx_upstream.py [--dir DIR] [--port N]

builds (or reuses) a virtualenv with pretalx from PyPI, makes a fresh data
directory with a SQLite database, runs `create_test_event` (event
`democon`, fixed seeds and a frozen clock, so every run makes the same
data), makes an administrator with an organiser team and an API token
through pretalx's management shell, serves it with gunicorn and prints the
URL. The token is written only to DIR/token (mode 0600), never printed.
Ctrl-C stops the server.

The virtualenv is cached under ~/.cache/confapi/pretalx-VERSION (or
$CONFAPI_PRETALX_VENV), keyed by the version and the packages; a broken or
partial one is rebuilt from nothing. Used as a module by
scripts/e2e/pretalx_e2e.py and scripts/benchmarks/bench-sync (`Upstream`), and by
scripts/upstream/pretalx2024_upstream.py (pretalx 2024.3.1, a subclass).
"""

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

VERSION = "2025.2.2"
# Faker and freezegun are what create_test_event needs; the pins keep the
# generated data the same from run to run.
PACKAGES = [f"pretalx=={VERSION}", "Faker==40.63.0", "freezegun==1.5.5", "gunicorn==27.0.1"]
SLUG = "democon"
ORGANISER = f"{SLUG}org"  # what create_test_event names the organiser
# create_test_event schedules its talks relative to "now"; a frozen clock
# makes the dates (and so the whole event) the same on every run.
FROZEN_NOW = "2025-06-02 08:00:00"
# The second release, a day later.
FROZEN_LATER = "2025-06-03 08:00:00"
SEED = 2025
# A second, non-public event of the same organiser that the token is not bound to.
HIDDEN_SLUG = "hiddencon"

# The second release of every fixture (2024.3.1 and 2025.2.2; a function
# the setup scripts define through {release_v1_1} and call at FROZEN_LATER):
# the last slot of the first day moved an hour later (past the day's other
# talks), released as v1.1; the WIP schedule stays.
RELEASE_V1_1 = """
def release_v1_1(event):
    import datetime as dt
    wip = event.wip_schedule
    first_day = [s for s in wip.talks.filter(submission__isnull=False, start__isnull=False)
                 .select_related("submission", "room").order_by("start", "room__pk")
                 if s.start < event.datetime_from + dt.timedelta(days=1)]
    moved = first_day[-1]
    duration = moved.end - moved.start
    moved.start = moved.start + dt.timedelta(hours=1)
    moved.end = moved.start + duration
    moved.save()
    wip.freeze("v1.1", notify_speakers=False, comment="Moved one talk")
"""

SETUP = """
{release_v1_1}
import random
from freezegun import freeze_time
from django.core.management import call_command
from django_scopes import scopes_disabled
from pretalx.event.models import Event, Team
from pretalx.person.models import User
from pretalx.person.models.auth_token import ENDPOINTS, READ_PERMISSIONS, UserApiToken

with scopes_disabled():
    admin = User.objects.create_user(
        email="admin@pretalx.invalid", password="not-used-admin-1234", name="Sync Admin"
    )
    admin.is_administrator = True
    admin.is_staff = True
    admin.save()
random.seed({seed})
# Codes (submissions, users) come from Django's get_random_string, which
# draws from `secrets`: a seeded generator makes them the same every run.
# Only while the event is made: the API token below is drawn for real.
import django.utils.crypto as crypto
real_secrets, crypto.secrets = crypto.secrets, random.Random({seed})
with freeze_time("{now}"):
    call_command("create_test_event", slug="{slug}", seed="{seed}")
with scopes_disabled():
    event = Event.objects.get(slug="{slug}")
    # What create_test_event leaves out: questions with answers (one with
    # options, one only organisers see) and a public tag.
    from pretalx.submission.models import Answer, AnswerOption, Question, Tag
    subs = list(event.submissions.order_by("code"))
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
        Answer.objects.create(question=note, submission=sub, answer=f"Note {{i}}")
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
    # On one talk of the released schedule (the second by code: the e2e's
    # title change takes the first), a public and a private link resource:
    # the public sees only the public one, organisers both.
    from pretalx.submission.models import Resource
    talk_codes = sorted({{slot.submission.code for slot in event.current_schedule.talks.filter(
        is_visible=True, submission__isnull=False).select_related("submission")}})
    talk = event.submissions.get(code=talk_codes[1])
    Resource.objects.create(submission=talk, link="https://example.org/slides",
                            description="Slides", is_public=True)
    Resource.objects.create(submission=talk, link="https://example.org/notes",
                            description="Notes", is_public=False)
    # A public question no longer asked (inactive), with answers on three
    # talks: pretalx shows it and its answers only to organisers.
    retired = Question.objects.create(
        event=event, question="Previous talk", variant="string", target="submission",
        question_required="optional", is_public=True, active=False, position=3,
    )
    for i, code in enumerate(talk_codes[1:4]):
        Answer.objects.create(question=retired, submission=event.submissions.get(code=code),
                              answer=f"Retired answer {{i}}")
    # Availabilities: of a room, and of speakers (once the CfP asks for them).
    import datetime as dt
    from pretalx.person.models import SpeakerProfile
    from pretalx.schedule.models import Availability
    event.cfp.fields["availabilities"] = {{"visibility": "optional"}}
    event.cfp.save()
    start = event.datetime_from + dt.timedelta(hours=8)
    Availability.objects.create(event=event, room=event.rooms.order_by("pk").first(),
                                start=start, end=start + dt.timedelta(hours=10))
    for i, profile in enumerate(SpeakerProfile.objects.filter(event=event).order_by("pk")[:3]):
        Availability.objects.create(event=event, person=profile,
                                    start=start + dt.timedelta(days=i), end=start + dt.timedelta(days=i, hours=4))
    # What issue 62 asks the fixture to hold, as the 2026.2.1 fixture
    # does: a speaker question (public) answered by four speakers of
    # scheduled talks; three of them with a time zone of their own
    # (create_test_event gives every user the event's); a scheduled talk
    # with two speakers; a reviewer question answered inside reviews.
    shirt = Question.objects.create(
        event=event, question="T-shirt size", variant="string", target="speaker",
        question_required="optional", is_public=True, position=4,
    )
    scheduled = list(User.objects.filter(submissions__code__in=talk_codes).distinct().order_by("code"))
    for i, user in enumerate(scheduled[:4]):
        Answer.objects.create(question=shirt, person=user, answer=["S", "M", "L", "XL"][i])
    for user, zone in zip(scheduled[1:4], ["America/New_York", "Asia/Tokyo", "Australia/Adelaide"]):
        user.timezone = zone
        user.save()
    duo = event.submissions.get(code=talk_codes[2])
    duo.speakers.add(next(u for u in reversed(scheduled) if u not in duo.speakers.all()))
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
    # A second event of the same organiser, not public, that the organiser
    # team covers (so /api/events/ lists it to the token) but the token is
    # not bound to (so its lists answer 403). Later than democon, so
    # /api/events/ (newest first) lists it first.
    from django_scopes import scope
    hidden = Event.objects.create(
        name="HiddenCon", slug="{hidden_slug}", organiser=event.organiser, is_public=False,
        date_from=event.date_from + dt.timedelta(days=60), date_to=event.date_to + dt.timedelta(days=60),
        timezone="Europe/Berlin", email="hidden@example.org", locale_array="en", locale="en",
    )
    with scope(event=hidden):
        hidden.build_initial_data()
    event.organiser.teams.get(name="Team DemoCon Org").limit_events.add(hidden)
    # create_test_event's reviewer team has no members: its first reviewer
    # (by code) joins it, so that the mirror has a reviewer too.
    reviewer = User.objects.filter(reviews__submission__event=event).distinct().order_by("code").first()
    event.organiser.teams.get(name="DemoCon Reviewers").members.add(reviewer)
# The second release, a day later (as in the 2026.2.1 fixture).
with scopes_disabled(), freeze_time("{later}"):
    release_v1_1(Event.objects.get(slug="{slug}"))
with scopes_disabled():
    event = Event.objects.get(slug="{slug}")
    reviewer = User.objects.filter(reviews__submission__event=event).distinct().order_by("code").first()
    # An organiser team of one administrator who speaks in nothing, so
    # the token sees every review (pretalx hides a speaker's own reviews).
    crypto.secrets = real_secrets
    token = UserApiToken.objects.create(
        name="confapi sync",
        user=admin,
        endpoints={{name: list(READ_PERMISSIONS) for name in ENDPOINTS}},
    )
    token.events.add(event)
    with open("{token_file}", "w") as f:
        f.write(token.token)
    # For scripts/e2e/pretalx_v1_diff.py: read tokens of the reviewer above and
    # of a track-limited reviewer (the second reviewer by code, alone in a
    # reviewer team limited to the first track), in DIR/token.roles.json.
    import json, os
    track_team = Team.objects.create(organiser=event.organiser, name="DemoCon Track Reviewers",
                                     is_reviewer=True)
    track_team.limit_events.add(event)
    track_team.limit_tracks.add(event.tracks.order_by("pk").first())
    trackrev = User.objects.filter(reviews__submission__event=event).distinct().order_by("code")[1]
    track_team.members.add(trackrev)
    roles = {{}}
    for role, user in (("reviewer", reviewer), ("trackrev", trackrev)):
        role_token = UserApiToken.objects.create(
            name=f"confapi {{role}}", user=user,
            endpoints={{name: list(READ_PERMISSIONS) for name in ENDPOINTS}},
        )
        role_token.events.add(event)
        roles[role] = {{"code": user.code, "token": role_token.token}}
    fd = os.open("{token_file}.roles.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(roles, f)
"""


def venv_dir(version=VERSION, variable="CONFAPI_PRETALX_VENV"):
    given = os.environ.get(variable)
    if given:
        return Path(given)
    return Path.home() / ".cache" / "confapi" / f"pretalx-{version}"


def ensure_venv(log=print, version=VERSION, packages=PACKAGES, variable="CONFAPI_PRETALX_VENV",
                prepare=None):
    """The cached virtualenv, built from nothing when missing or different;
    `prepare(python)` runs once after the install (before the stamp)."""
    venv = venv_dir(version, variable)
    python = venv / "bin" / "python"
    stamp = venv / "confapi-packages.txt"
    wanted = "\n".join(packages) + "\n"
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    log(f"== building the pretalx {version} virtualenv in {venv}")
    started = time.monotonic()
    shutil.rmtree(venv, ignore_errors=True)
    venv.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *packages], check=True)
    if prepare:
        prepare(python)
    stamp.write_text(wanted)  # last: a half-built venv has no stamp
    log(f"== pretalx virtualenv built in {time.monotonic() - started:.0f}s")
    return python


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Upstream:
    """A set-up pretalx in `root`; `start()` serves it, `stop()` ends it.

    A subclass is another pretalx (scripts/upstream/pretalx2024_upstream.py): its
    version, packages, virtualenv variable, setup script and the shell
    command that runs it."""

    version = VERSION
    packages = PACKAGES
    venv_variable = "CONFAPI_PRETALX_VENV"
    slug = SLUG
    setup_script = SETUP
    # The management command that runs the setup script, scopes off.
    shell = ("shell", "--unsafe-disable-scopes")

    def __init__(self, root, port=None, log=print):
        self.root = Path(root)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.python = ensure_venv(log, self.version, self.packages, self.venv_variable,
                                  self.prepare_venv)
        self.process = None
        self.token_file = self.root / "token"
        self.config = self.root / "pretalx.cfg"
        self.server_log = self.root / "gunicorn.log"

    def prepare_venv(self, python):
        """What a new virtualenv needs once after pip (pretalx 2025: nothing)."""

    def env(self, config=None):
        env = dict(os.environ)
        env["PRETALX_CONFIG_FILE"] = str(config or self.config)
        env.pop("DJANGO_SETTINGS_MODULE", None)
        return env

    def manage(self, *args):
        """A pretalx management command; its chatter goes to DIR/manage.log."""
        log = self.root / "manage.log"
        with open(log, "ab") as out:
            result = subprocess.run(
                [str(self.python), "-m", "pretalx", *args],
                env=self.env(), cwd=self.root, stdout=out, stderr=out,
            )
        if result.returncode != 0:
            tail = log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"pretalx {args[0]} failed (exit {result.returncode}):\n{tail}")

    def setup(self):
        """A fresh database with the test event and a token."""
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
        # (A subclass's setup script need not use every value.)
        script = self.setup_script.format(
            seed=SEED, now=FROZEN_NOW, later=FROZEN_LATER, slug=self.slug, token_file=self.token_file,
            hidden_slug=HIDDEN_SLUG, release_v1_1=RELEASE_V1_1,
        )
        self.manage(*self.shell, "-c", script)
        os.chmod(self.token_file, 0o600)
        self.log(f"== pretalx {self.version} set up with event {self.slug} in {time.monotonic() - started:.0f}s")

    @property
    def token(self):
        return self.token_file.read_text().strip()

    def start(self):
        with open(self.server_log, "ab") as out:
            self.process = subprocess.Popen(
                [
                    str(self.python), "-m", "gunicorn", "pretalx.wsgi",
                    "--bind", f"127.0.0.1:{self.port}", "--workers", "2",
                    "--timeout", "120",
                ],
                env=self.env(),
                cwd=self.root,
                stdout=out,
                stderr=out,
                start_new_session=True,
            )
        deadline = time.monotonic() + 90
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
        raise RuntimeError(f"pretalx did not answer within 90 s; see {self.server_log}")

    def stop(self):
        if self.process and self.process.poll() is None:
            # gunicorn's own process group: the master and its workers.
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process = None


def main(upstream_class=Upstream, doc=__doc__):
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--dir", help="where the data goes (default: a fresh temporary directory)")
    parser.add_argument("--port", type=int)
    args = parser.parse_args()
    root = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="pretalx-"))
    upstream = upstream_class(root, args.port)
    if not upstream.token_file.exists():
        upstream.setup()
    upstream.start()
    print(f"pretalx {upstream.version} serves {upstream.url} (event {upstream.slug}); "
          f"token in {upstream.token_file}")
    print("Ctrl-C (or SIGTERM) stops it.", flush=True)
    # SIGTERM too ends gunicorn (its own process group) on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        upstream.stop()


if __name__ == "__main__":
    main()
