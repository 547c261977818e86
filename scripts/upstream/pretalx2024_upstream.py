#!/usr/bin/env python3
"""A real pretalx 2024.3.1 on a loopback port (its legacy API), for sync tests.

    python3 scripts/upstream/pretalx2024_upstream.py [--dir DIR] [--port N]

The 2024 variant of scripts/upstream/pretalx_upstream.py (the same `Upstream`
machinery: cached virtualenv from PyPI, SQLite, `create_test_event` with
fixed seeds and a frozen clock, gunicorn): pretalx 2024.3.1 with every
dependency pinned, its static files built once per virtualenv (`python -m
pretalx rebuild`, which needs npm), and a setup script of its own. pretalx
2024 has per-user DRF tokens instead of 2025's scoped API tokens, so the
script makes one for each role the tests compare:

- `organiser`: an administrator who speaks in nothing (pretalx's
  create_test_event makes administrators its organisers; an organiser does
  not see reviews of submissions they speak in);
- `reviewer`: the member of the "DemoCon Reviewers" team who reviewed every
  submission;
- and the public (no token).

It adds what create_test_event leaves out (questions with answers, one not
public, one for speakers, an inactive one and one to reviewers, whose
answers pretalx shows only nested; a tag; resources; availabilities; a
public talk with two speakers; three speakers with a time zone of their
own; a second release, v1.1, with one slot moved; review texts;
notes; an empty abstract and biography, which pretalx sends as `null`;
an anonymised proposal; review assignments) and writes DIR/facts.json (mode 0600): the tokens and
what no API answer shows (users' codes and e-mail addresses, teams, the
review phase, submission types' default durations, track colours,
assigned reviewers), for an access file. The tokens are never printed.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pretalx_upstream  # noqa: E402
from pretalx_upstream import Upstream  # noqa: E402

VERSION = "2024.3.1"
SLUG = "democon"
ORGANISER = f"{SLUG}org"
# Every package pinned (what pip resolved for pretalx 2024.3.1 from its own
# requirements, Django 5.1, DRF 3.15, django-filter 24.3, ...), so that the
# data and the answers are the same on every run.
PACKAGES = [
    f"pretalx=={VERSION}", "Faker==40.63.0", "freezegun==1.5.5", "gunicorn==27.0.1",
    "Django==5.1.15", "djangorestframework==3.15.2", "django-filter==24.3",
    "django-i18nfield==1.9.5", "django-scopes==2.0.0", "rules==3.5", "urlman==2.0.3",
    "django-compressor==4.5.1", "django-libsass==0.9", "libsass==0.23.0", "django-csp==3.8",
    "django-hierarkey==1.2.1", "django-countries==7.6.1", "django-formtools==2.5.1",
    "django-formset-js-improved==0.5.0.3", "django-context-decorator==1.6.1",
    "django-appconf==1.2.0", "django-jquery-js==3.1.1", "asgiref==3.13.0", "sqlparse==0.6.1",
    "argon2-cffi==25.1.0", "argon2-cffi-bindings==26.2.0", "cffi==2.1.1", "pycparser==3.12",
    "beautifulsoup4==4.12.3", "soupsieve==4.1.3", "lxml==6.1.3", "bleach==6.1.0",
    "webencodings==0.6.1", "celery==5.4.0", "kombu==5.7.0", "amqp==5.4.2", "billiard==4.3.2",
    "vine==5.1.0", "click==8.5.1", "click-didyoumean==0.3.1", "click-plugins==1.1.1.2",
    "click-repl==0.4.1", "prompt_toolkit==3.0.53", "wcwidth==0.9.4", "css-inline==0.14.6",
    "csscompressor==0.9.5", "cssutils==2.11.1", "more-itertools==11.2.1", "defusedcsv==2.0.0",
    "defusedxml==0.7.1", "Markdown==3.7", "pillow==11.0.0", "publicsuffixlist==1.0.2.20261007",
    "python-dateutil==2.9.0.post0", "six==1.17.0", "pytz==2026.6", "tzdata==2026.6",
    "qrcode==8.2", "reportlab==4.2.5", "chardet==7.7.0", "requests==2.32.5",
    "charset-normalizer==3.5.3", "idna==3.20", "urllib3==2.8.0", "certifi==2026.10.19.post1",
    "rcssmin==1.1.2", "rjsmin==1.2.2", "vobject==0.9.9", "whitenoise==6.7.0", "zxcvbn==4.4.28",
    "typing_extensions==4.16.0",
]

# Run with pretalx's management shell (Django's `shell -c`; pretalx 2024
# has no --unsafe-disable-scopes, so the script disables scopes itself).
SETUP = """
{release_v1_1}
import datetime as dt
import json
import random
from freezegun import freeze_time
from django.core.management import call_command
from django_scopes import scopes_disabled
from rest_framework.authtoken.models import Token
from pretalx.event.models import Event
from pretalx.person.models import SpeakerProfile, User

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
# Only while the event is made: the API tokens below are drawn for real.
import django.utils.crypto as crypto
real_secrets, crypto.secrets = crypto.secrets, random.Random({seed})
with freeze_time("{now}"):
    call_command("create_test_event", slug="{slug}", seed="{seed}")
with scopes_disabled(), freeze_time("{now}"):
    event = Event.objects.get(slug="{slug}")
    from pretalx.schedule.models import Availability
    from pretalx.submission.models import Answer, AnswerOption, Question, Resource, Tag
    subs = list(event.submissions.order_by("code"))
    talks = [s for s in subs if s.state == "confirmed"]
    others = [s for s in subs if s.state != "confirmed"]
    # Questions with answers: one with options (public), one only organisers
    # and reviewers see, one for speakers (public).
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
    shirt = Question.objects.create(
        event=event, question="T-shirt size", variant="string", target="speaker",
        question_required="optional", is_public=True, position=3,
    )
    # Answers on public talks and on submissions the public does not see.
    for i, sub in enumerate(talks[:4] + others[:4]):
        answer = Answer.objects.create(question=level, submission=sub, answer=options[i % 2].answer)
        answer.options.add(options[i % 2])
        Answer.objects.create(question=note, submission=sub, answer=f"Note {{i}}")
    for i, sub in enumerate(talks[:2] + others[:2]):
        speaker = sub.speakers.order_by("pk").first()
        Answer.objects.create(question=shirt, person=speaker, answer=["S", "M", "L", "XL"][i])
    # A public talk with two speakers (a speaker of another talk added
    # second), and three speakers with a time zone of their own, as the
    # 2025.2.2 and 2026.2.1 fixtures have them.
    duo = talks[2]
    duo.speakers.add(next(u for s in reversed(talks) for u in s.speakers.order_by("pk")
                          if u not in duo.speakers.all()))
    for sub, zone in zip(talks[:3], ["America/New_York", "Asia/Tokyo", "Australia/Adelaide"]):
        person = sub.speakers.order_by("pk").first()
        person.timezone = zone
        person.save()
    # Answers pretalx 2024 shows only nested (its questions/ and answers/
    # leave their questions out): to an inactive question, in the
    # organisers' submissions with ?questions=all; to a reviewers'
    # question, in each review (written after the reviews below).
    retired = Question.objects.create(
        event=event, question="Retired question", variant="string", target="submission",
        question_required="optional", is_public=False, active=False, position=4,
    )
    for i, sub in enumerate(talks[:2] + others[:1]):
        Answer.objects.create(question=retired, submission=sub, answer=f"Old answer {{i}}")
    confidence = Question.objects.create(
        event=event, question="Reviewer confidence", variant="choices", target="reviewer",
        question_required="optional", is_public=False, position=5,
    )
    levels = [AnswerOption.objects.create(question=confidence, answer=a, position=i)
              for i, a in enumerate(["Low", "High"])]
    tag = Tag.objects.create(event=event, tag="keynote", color="#aa3300")
    for sub in subs[::10]:
        sub.tags.add(tag)
    Resource.objects.create(submission=talks[0], link="https://example.org/slides.pdf",
                            description="Slides")
    Resource.objects.create(submission=talks[0], link="https://example.org/video")  # no description: null
    # Texts pretalx keeps as NULL (and sends as null) beside set ones.
    talks[1].notes = "Please schedule me in the morning."
    talks[1].internal_notes = "Called the speaker."
    talks[1].save()
    others[0].abstract = None
    others[0].save()
    # An anonymised proposal (as the organisers' "anonymise" form stores it).
    others[2].anonymised_data = json.dumps(
        {{"_anonymised": True, "title": "An anonymous proposal", "abstract": "Without names."}})
    others[2].save()
    profile = SpeakerProfile.objects.filter(event=event, user__in=others[1].speakers.all()).first()
    profile.biography = None
    profile.save()
    # Availabilities: of a room, and of speakers.
    start = event.datetime_from + dt.timedelta(hours=8)
    Availability.objects.create(event=event, room=event.rooms.order_by("pk").first(),
                                start=start, end=start + dt.timedelta(hours=10))
    for i, profile in enumerate(SpeakerProfile.objects.filter(event=event).order_by("pk")[:3]):
        Availability.objects.create(event=event, person=profile,
                                    start=start + dt.timedelta(days=i),
                                    end=start + dt.timedelta(days=i, hours=4))
    # Reviews with a text (create_test_event writes none: pretalx sends null).
    for review in event.reviews.order_by("pk")[:5]:
        review.text = f"Review {{review.pk}}: solid."
        review.save()
    for i, review in enumerate(event.reviews.order_by("pk")[:3]):
        answer = Answer.objects.create(question=confidence, review=review,
                                       answer=levels[i % 2].answer)
        answer.options.add(levels[i % 2])
    # create_test_event's three reviewers wrote reviews but are in no team:
    # they join its reviewer team. The token is the one who reviewed all.
    reviewers = list(User.objects.filter(reviews__submission__event=event).distinct().order_by("pk"))
    event.teams.get(is_reviewer=True).members.add(*reviewers)
    reviewer = max(reviewers, key=lambda user: (user.reviews.count(), -user.pk))
    for sub in others[:2]:
        sub.assigned_reviewers.add(reviewer)
    # The second release, as the 2025.2.2 and 2026.2.1 fixtures have it
    # (pretalx_upstream.RELEASE_V1_1); the legacy API shows the current
    # release only, which the mirror must take.
    with freeze_time("{later}"):
        release_v1_1(event)
    # The review phase is left as create_test_event made it, but fixed:
    # nothing activates another phase later (no periodic task runs).
    phase = event.active_review_phase
    crypto.secrets = real_secrets
    tokens = {{"organiser": Token.objects.create(user=admin).key,
              "reviewer": Token.objects.create(user=reviewer).key}}
    users = {{}}
    for team in event.teams.all():
        for user in team.members.all():
            users[user.code] = user
    users[admin.code] = admin
    facts = {{
        "tokens": tokens,
        "users": [
            {{"code": u.code, "name": u.name, "email": u.email,
              "is_administrator": u.is_administrator,
              "tokens": [t for role, t in tokens.items()
                         if (role == "organiser" and u == admin) or (role == "reviewer" and u == reviewer)]}}
            for u in sorted(users.values(), key=lambda u: u.pk)
        ],
        "teams": [
            {{"name": str(team.name), "members": sorted(m.code for m in team.members.all()),
              "can_change_submissions": team.can_change_submissions,
              "is_reviewer": team.is_reviewer,
              "force_hide_speaker_names": team.force_hide_speaker_names,
              "limit_tracks": sorted(t.pk for t in team.limit_tracks.all())}}
            for team in event.teams.order_by("pk")
        ],
        "review_phase": phase and {{
            "name": str(phase.name),
            "can_see_speaker_names": phase.can_see_speaker_names,
            "can_see_reviewer_names": phase.can_see_reviewer_names,
            "can_see_other_reviews": phase.can_see_other_reviews,
            "proposal_visibility": phase.proposal_visibility,
        }},
        "submission_types": [{{"id": t.pk, "default_duration": t.default_duration}}
                             for t in event.submission_types.order_by("pk")],
        "tracks": [{{"id": t.pk, "color": t.color}} for t in event.tracks.order_by("pk")],
        "assigned_reviewers": {{s.code: sorted(u.code for u in s.assigned_reviewers.all())
                               for s in subs if s.assigned_reviewers.exists()}},
    }}
    with open("{token_file}", "w") as f:
        f.write(tokens["organiser"])
    import os.path
    with open(os.path.join(os.path.dirname("{token_file}"), "facts.json"), "w") as f:
        json.dump(facts, f, indent=1)
"""


class Upstream2024(Upstream):
    """pretalx 2024.3.1; `facts` is DIR/facts.json (tokens, users, teams, ...)."""

    version = VERSION
    packages = PACKAGES
    venv_variable = "CONFAPI_PRETALX2024_VENV"
    slug = SLUG
    setup_script = SETUP
    shell = ("shell",)

    def __init__(self, root, port=None, log=print):
        super().__init__(root, port, log)
        self.facts_file = self.root / "facts.json"

    def prepare_venv(self, python):
        """pretalx 2024 serves pages only with its static files built (into
        the package's static.dist: once per virtualenv)."""
        with tempfile.TemporaryDirectory(prefix="pretalx-rebuild-") as scratch:
            config = Path(scratch) / "pretalx.cfg"
            config.write_text(f"[filesystem]\ndata = {scratch}/data\n[site]\ndebug = False\n")
            log = Path(scratch) / "rebuild.log"
            with open(log, "wb") as out:
                result = subprocess.run(
                    [str(python), "-m", "pretalx", "rebuild", "--silent"],
                    env=self.env(config), cwd=scratch, stdout=out, stderr=out)
            if result.returncode != 0:
                tail = log.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"pretalx rebuild failed (exit {result.returncode}):\n{tail}")

    def setup(self):
        super().setup()
        os.chmod(self.facts_file, 0o600)

    @property
    def facts(self):
        return json.loads(self.facts_file.read_text())


if __name__ == "__main__":
    pretalx_upstream.main(Upstream2024, __doc__)
