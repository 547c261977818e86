#!/usr/bin/env python3
"""Generate edge.json: a hand-made dataset that stresses the edge cases of the
API contract (spec/behaviour.md) in the format of spec/dataset.md.

    python3 make_edge.py          # writes edge.json next to this script

Standard library only, deterministic (no clock, no randomness).

Collision rules (the dataset is loaded next to democon.json and
client-friendly.json):
  * ids start at 9101 (client-friendly uses 9001-9083, democon 1-337), with a
    separate range per kind so they are easy to read;
  * user codes start with "EDG", submission codes with "EDGE"/"EDH"/"EDP"
    (plus "Q" and "ZEDGELONGCODE016"), e-mails use the domain edge.example,
    slugs start with "edge".
If the shared datasets are present, the script checks that nothing collides.

Callers (users with a token) are named by the local part of their e-mail:
  orga      organiser of edge.conf and edge-hidden, also a speaker (EDGE14)
            and the author of a review (EDGE09)
  admin     is_administrator, no team
  reviewer  reviewer with speaker names (edge.conf, edge-hidden, edge-private)
  blind     reviewer whose only reviewer team has force_hide_speaker_names
  limited   track-limited reviewer (limit_tracks = [Science]); assigned EDGE15
  twoteams  reviewer in two teams (one limited, one not), speaker of EDGE13
  assigned  reviewer of edge-hidden (proposal_visibility "assigned")
  speaker   speaker of several submissions, member of no team
  nobody    no role anywhere
  lazy      reviewer who never wrote a review
  helper    member of a team without any right (is no organiser/reviewer)
Plus "hashonly" (EDGHASH): only `token_hashes`; its clear token is
HASHONLY_TOKEN below (organiser of edge-private).
"""

import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "edge.json")


def token(name):
    """A deterministic 40-hex-digit token."""
    return hashlib.sha1(f"confapi-edge-dataset-{name}".encode()).hexdigest()


HASHONLY_TOKEN = token("hashonly")


# ---------------------------------------------------------------------------
# id sequences (one per kind, each in its own range)
# ---------------------------------------------------------------------------
class Seq:
    def __init__(self, start):
        self.n = start - 1

    def __call__(self):
        self.n += 1
        return self.n


TYPE_ID = Seq(9101)
TRACK_ID = Seq(9201)
ROOM_ID = Seq(9301)
AVAIL_ID = Seq(9401)
TAG_ID = Seq(9501)
QUESTION_ID = Seq(9601)
OPTION_ID = Seq(9701)
REVIEW_ID = Seq(9901)
ANSWER_ID = Seq(10001)


def ist(day, hh, mm=0, ss=0, frac=""):
    """A datetime in Asia/Kolkata (+05:30), December 2026."""
    return f"2026-12-{day:02d}T{hh:02d}:{mm:02d}:{ss:02d}{frac}+05:30"


# ---------------------------------------------------------------------------
# users
# ---------------------------------------------------------------------------
USERS = []


def user(code, name, local, tok=True, **extra):
    u = {"code": code, "name": name, "email": f"{local}@edge.example"}
    u.update(extra)
    if tok:
        u["tokens"] = [token(local)]
    USERS.append(u)
    return code


ORGA = user("EDGORGA", "Olga Örganiser-Øster", "orga", locale="de", timezone="Europe/Berlin",
            avatar="https://media.edge.example/avatars/olga.png")
ADMIN = user("EDGADMIN", "Ada Admin", "admin", is_administrator=True)
REV = user("EDGREV", "Ravi Reviewer", "reviewer", timezone="Asia/Kolkata")
BLIND = user("EDGBLIND", "Bea Blind", "blind")
LIMITED = user("EDGTRACK", "Tomás Track-Limité", "limited", locale="es")
DUO = user("EDGDUO", "Dorota Dwa-Zespoły", "twoteams", locale="pl")
ASSIGNED = user("EDGASSIGN", "Asha Assigned", "assigned")
SPEAKER = user("EDGSPK", "Søren Speaker 🎤", "speaker",
               avatar="https://media.edge.example/avatars/s%C3%B8ren.jpg")
NOBODY = user("EDGNOBODY", "Nobody Niemand", "nobody")
LAZY = user("EDGLAZY", "Lazy Läufer", "lazy")
HELPER = user("EDGHELP", "Helga Helper", "helper")
REV2 = user("EDGREV2", "Rosa Zweitgutachterin", "reviewer2", tok=False)
HASHONLY = user("EDGHASH", "Hashim Hashed", "hashonly", tok=False,
                token_hashes=["sha256:" + hashlib.sha256(HASHONLY_TOKEN.encode()).hexdigest()])

SPEAKER_NAMES = [
    "Zoë Ångström", "José Ñúñez", "山田 太郎", "Łukasz Żółkiewski", "Nguyễn Thị Minh",
    "Émilie Du Châtelet", "Ahmed Al-Farsi", "Priya Raghunathan", "Jürgen Groß", "Chloé Bérénice",
    "李 小龙", "Олег Петров", "Fatima Zahra", "Mateo Rossi", "Aroha Ngata",
    "Kwame Mensah", "Ingrid Bjørnstad", "O'Brien Seán", "Smiley 😀 Person", "Ana-María López",
    "Kim 민준", "Yusuf Demir", "Maya Cohen", "Élodie Renée", "Björk Guðmundsdóttir",
    "Hiroshi Tanaka", "Lena Müller", "Ömer Şahin", "Pat No-Submission", "Nia Okonkwo",
]
SPK = []
for i, name in enumerate(SPEAKER_NAMES, start=1):
    extra = {}
    if i % 4 == 1:
        extra["avatar"] = f"https://media.edge.example/avatars/s{i:02d}.png"
    if i % 5 == 0:
        extra["locale"] = "de"
    SPK.append(user(f"EDGS{i:02d}", name, f"speaker{i:02d}", tok=False, **extra))
S = {i + 1: code for i, code in enumerate(SPK)}  # S[1] .. S[30]
PROFILE_ONLY = S[29]  # a speaker profile without any submission


# ===========================================================================
# Event 1: edge.conf (public, released schedule, Asia/Kolkata, review "always")
# ===========================================================================
def event_edge_conf():
    T_TALK, T_WORK, T_LIGHT, T_PANEL = TYPE_ID(), TYPE_ID(), TYPE_ID(), TYPE_ID()
    types = [
        {"id": T_TALK, "name": {"en": "Talk", "de": "Vortrag", "ja": "講演"}, "default_duration": 30},
        {"id": T_WORK, "name": "Workshop", "default_duration": 90},  # plain string i18n
        {"id": T_LIGHT, "name": {"en": "Lightning ⚡"}, "default_duration": 5},
        {"id": T_PANEL, "name": {"en": "Panel", "fr": "Table ronde"}},  # default duration 30
    ]
    SCI, CJK, OPS = TRACK_ID(), TRACK_ID(), TRACK_ID()
    tracks = [
        {"id": SCI, "name": {"en": "Science & Research", "de": "Wissenschaft & Förderung"},
         "color": "#1f77b4"},
        {"id": CJK, "name": "日本語トラック 🎌", "color": "#d62728"},  # plain string
        {"id": OPS, "name": {"en": "Ops"}},  # no colour
    ]
    R_HALL, R_101, R_CJK, R_WS, R_EMOJI = ROOM_ID(), ROOM_ID(), ROOM_ID(), ROOM_ID(), ROOM_ID()
    a = [AVAIL_ID() for _ in range(8)]
    rooms = [
        {"id": R_HALL, "guid": "2b8e6d0c-8f3a-4c1e-9b7d-5e0a1c2d3e41",
         "name": {"en": "Great Hall", "de": "Großer Saal", "hi": "बड़ा हॉल"},
         "description": {"en": "Ground floor.", "de": "Erdgeschoss."},
         "speaker_info": {"en": "Clip-on mic only."},
         "capacity": 500, "position": 2,
         "availabilities": [
             # all-day, several days (midnight to midnight in Asia/Kolkata)
             {"id": a[1], "start": ist(4, 0), "end": ist(6, 0)},
             # all-day, written in UTC: 2026-12-03T00:00+05:30 .. 2026-12-04T00:00+05:30
             {"id": a[0], "start": "2026-12-02T18:30:00Z", "end": "2026-12-03T18:30:00Z"},
         ]},
        # no guid, no capacity, no position; plain-string name
        {"id": R_101, "name": "Room 101 – Café",
         "availabilities": [
             {"id": a[2], "start": ist(3, 9, 0, 0, ".250000"), "end": ist(3, 17, 30)},
         ]},
        {"id": R_CJK, "guid": "2b8e6d0c-8f3a-4c1e-9b7d-5e0a1c2d3e43",
         "name": {"en": "Meeting room A", "ja": "会議室 A"}, "capacity": 0, "position": 1,
         "speaker_info": "Bring your own adapter.",
         "availabilities": [
             {"id": a[3], "start": ist(3, 9), "end": ist(3, 17, 30)},  # not all-day
             {"id": a[4], "start": ist(4, 0), "end": ist(4, 12)},  # starts at midnight only
             # midnight in UTC but 05:30 in Kolkata: not all-day
             {"id": a[5], "start": "2026-12-05T00:00:00Z", "end": "2026-12-06T00:00:00Z"},
         ]},
        {"id": R_WS, "guid": "2b8e6d0c-8f3a-4c1e-9b7d-5e0a1c2d3e44",
         "name": {"en": "Workshop room", "de": "Werkstatt"}, "capacity": 30, "position": 2},
        {"id": R_EMOJI, "guid": "2b8e6d0c-8f3a-4c1e-9b7d-5e0a1c2d3e45",
         "name": {"en": "Emoji Lounge 🎈"}, "capacity": 12},
    ]
    TG_CAFE, TG_V12, TG_AV, TG_BEG, TG_CJK = TAG_ID(), TAG_ID(), TAG_ID(), TAG_ID(), TAG_ID()
    tags = [
        {"id": TG_CAFE, "tag": "café", "description": {"en": "Coffee talk", "fr": "Causerie"},
         "color": "#6f4e37", "is_public": True},
        {"id": TG_V12, "tag": "v1.2", "description": "Released in v1.2", "is_public": True},
        {"id": TG_AV, "tag": "needs.av", "description": {"en": "Needs A/V"}, "color": "#ff0000"},
        {"id": TG_BEG, "tag": "Beginner", "color": "#00ff00"},
        {"id": TG_CJK, "tag": "日本.語", "description": {"ja": "日本語"}},
    ]

    teams = [
        {"name": "Organisers", "members": [ORGA], "can_change_submissions": True},
        {"name": "Reviewers", "members": [REV, REV2, LAZY, DUO], "is_reviewer": True},
        {"name": "Blind reviewers", "members": [BLIND], "is_reviewer": True,
         "force_hide_speaker_names": True},
        {"name": "Science reviewers", "members": [LIMITED, DUO], "is_reviewer": True,
         "limit_tracks": [SCI]},
        {"name": "Helpers", "members": [HELPER]},  # no rights at all
    ]

    # ---- questions ---------------------------------------------------------
    Q = {}
    questions = []

    def question(key, **q):
        q = {"id": QUESTION_ID(), **q}
        Q[key] = q
        questions.append(q)
        return q

    o = [OPTION_ID() for _ in range(12)]
    question("audience", variant="choices", target="submission",
             question={"en": "Audience level", "de": "Zielgruppe"},
             help_text={"en": "Who is this for?", "de": "Für wen?"},
             question_required="required", is_public=True, contains_personal_data=False,
             position=1,
             # options listed out of id order on purpose (shown by id)
             options=[{"id": o[2], "answer": {"en": "Expert", "de": "Fortgeschritten"}},
                      {"id": o[0], "answer": {"en": "Beginner", "de": "Anfänger"}},
                      {"id": o[1], "answer": "Intermediate"}])
    question("tech", variant="multiple_choice", target="submission",
             question={"en": "Technical requirements"}, question_required="optional",
             position=2, tracks=[CJK, SCI], submission_types=[T_WORK, T_TALK],
             options=[{"id": o[3], "answer": {"en": "Projector"}},
                      {"id": o[4], "answer": {"en": "Microphone 🎤", "de": "Mikrofon 🎤"}},
                      {"id": o[5], "answer": {"en": "Internet"}}])
    question("revnotes", variant="text", target="submission",
             question="Notes for the reviewers", question_required="after_deadline",
             deadline="2020-01-01T00:00:00Z", position=3, min_length=10, max_length=2000)
    question("slides", variant="url", target="submission",
             question={"en": "Slides URL", "de": "Folien-URL"}, question_required="after_deadline",
             deadline="2035-06-30T18:29:59.500000+05:30", is_public=True,
             is_visible_to_reviewers=False, position=3, contains_personal_data=False)
    question("paper", variant="file", target="submission",
             question={"en": "Upload your paper"}, question_required="required",
             freeze_after="2020-06-01T12:00:00+02:00", is_visible_to_reviewers=False,
             position=4)
    question("recording", variant="boolean", target="submission",
             question={"en": "May we record your talk?", "de": "Dürfen wir aufzeichnen?"},
             question_required="required", freeze_after="2035-01-01T00:00:00Z",
             default_answer="True", is_public=True, position=0)
    question("attendees", variant="number", target="submission",
             question={"en": "Expected attendees"}, is_public=True, active=False, position=5)
    question("date", variant="date", target="submission",
             question={"en": "Preferred workshop date"}, question_required="after_deadline",
             deadline="2035-12-31T23:59:59Z", submission_types=[T_WORK], position=6,
             default_answer="2026-12-04")
    question("arrival", variant="datetime", target="submission",
             question={"en": "Earliest arrival"}, active=False, is_visible_to_reviewers=False,
             position=7)
    question("social", variant="string", target="speaker",
             question={"en": "Social media handle", "ja": "ソーシャルメディア"},
             help_text="e.g. @name@example.social", is_public=True, position=1,
             min_length=2, max_length=100, contains_personal_data=False)
    question("diet", variant="text", target="speaker",
             question={"en": "Dietary requirements 🍲"}, question_required="required",
             is_visible_to_reviewers=False, position=2)
    question("shirt", variant="choices", target="speaker",
             question={"en": "T-shirt size"}, position=3, tracks=[OPS],
             options=[{"id": o[6], "answer": "S"}, {"id": o[7], "answer": "M"},
                      {"id": o[8], "answer": "L"}])
    question("firsttime", variant="boolean", target="speaker",
             question={"en": "First time speaking?"}, is_public=True, position=4)
    question("homepage", variant="url", target="speaker",
             question={"en": "Homepage"}, is_public=True, active=False, position=5)
    question("depth", variant="number", target="reviewer",
             question={"en": "Technical depth (1–5)"}, question_required="required", position=1)
    question("concerns", variant="multiple_choice", target="reviewer",
             question={"en": "Concerns", "de": "Bedenken"}, position=2,
             options=[{"id": o[11], "answer": {"en": "Overlap", "de": "Überschneidung"}},
                      {"id": o[9], "answer": {"en": "Too long"}},
                      {"id": o[10], "answer": {"en": "Off-topic"}}])
    question("orgnote", variant="string", target="reviewer",
             question={"en": "Private note to the organisers"}, is_visible_to_reviewers=False,
             position=3)
    question("attend", variant="boolean", target="reviewer",
             question={"en": "Would you attend this?"}, is_public=True, position=4)

    # ---- speaker profiles --------------------------------------------------
    av = [AVAIL_ID() for _ in range(6)]
    speakers = [
        {"user": SPEAKER, "biography": "Speaks about time zones. 🕰️",
         "availabilities": [
             {"id": av[1], "start": ist(4, 9), "end": ist(4, 13, 30)},
             {"id": av[0], "start": ist(3, 0), "end": ist(4, 0)},  # all-day
         ]},
        {"user": ORGA, "biography": "Organiser who also speaks."},
        {"user": DUO, "biography": "Reviewer who also speaks."},
    ]
    for i in range(1, 31):
        p = {"user": S[i]}
        if i % 3:
            p["biography"] = f"Biography of {SPEAKER_NAMES[i - 1]}.\nSecond line – with ünïcödé."
        if i == 1:
            p["availabilities"] = [
                {"id": av[2], "start": "2026-12-02T18:30:00Z", "end": "2026-12-05T18:30:00Z"},
                {"id": av[3], "start": ist(5, 10, 15, 30, ".123456"), "end": ist(5, 11)},
            ]
        if i == 2:
            p["availabilities"] = [{"id": av[4], "start": ist(3, 14), "end": ist(3, 18)}]
        if i == PROFILE_ONLY_INDEX:
            p["biography"] = "Has a profile but no submission."
            p["availabilities"] = [{"id": av[5], "start": ist(5, 0), "end": ist(6, 0)}]
        speakers.append(p)

    # ---- submissions -------------------------------------------------------
    subs = []

    def sub(code, title, spk, stype, track, state, created, **kw):
        s = {"code": code, "title": title, "speakers": spk, "submission_type": stype,
             "track": track, "state": state, "created": created}
        s.update(kw)
        if not s["track"]:
            del s["track"]  # default null
        subs.append(s)
        return s

    def slot(room, start, end, visible=True):
        return {"room": room, "start": start, "end": end, "is_visible": visible}

    # a public talk that is also anonymised; two slots, the later one listed first
    sub("EDGE01", "Zeitzonen überall: Halbstündige Offsets in Kolkata 🕰️", [S[1], SPEAKER],
        T_TALK, CJK, "confirmed", "2026-09-01T10:00:00.123456Z",
        abstract="Why +05:30 breaks naive code.", description="Long description.\n\nWith paragraphs.",
        notes="Needs a clock on stage.", internal_notes="Keynote candidate.",
        slot_count=2, is_featured=True, content_locale="de",
        image="https://media.edge.example/images/edge01.png",
        tags=[TG_V12, TG_CAFE],
        resources=[{"resource": "https://slides.edge.example/edge01.pdf", "description": "Slides"},
                   {"resource": "https://video.edge.example/edge01", "description": ""}],
        anonymised={"title": "An anonymised public talk", "abstract": "",
                    "description": "Hidden description."},
        slots=[slot(R_HALL, ist(4, 10), ist(4, 10, 30)),
               slot(R_HALL, "2026-12-03T08:30:00Z", "2026-12-03T09:00:00Z")])
    # not public, anonymised with some keys empty; pending state
    sub("EDGE02", "Halbstündige Geheimnisse (noch nicht öffentlich)", [SPEAKER, S[2]],
        T_TALK, SCI, "submitted", "2026-09-02T11:30:00.5+05:30",
        abstract="Secret abstract.", description="Secret description.", pending_state="accepted",
        notes="Speaker note.", internal_notes="Orga note.", content_locale="en",
        tags=[TG_AV, TG_BEG],
        anonymised={"title": "", "abstract": "Redacted abstract", "description": ""})
    # withdrawn after the release: still has a visible slot
    sub("EDGE03", "Withdrawn after release", [S[3]], T_TALK, SCI, "withdrawn",
        "2026-09-03T09:00:00Z", slots=[slot(R_CJK, ist(3, 11), ist(3, 11, 30))],
        pending_state="withdrawn")
    # canceled after the release; no track; slot with start but no end (end = start + 90)
    sub("EDGE04", "Canceled workshop without a track", [S[4]], T_WORK, None, "canceled",
        "2026-09-04T09:00:00Z", slots=[slot(R_WS, ist(4, 14), None)])
    # public talk in no room, no end: end falls back to start + own duration (7)
    sub("EDGE05", "Lightning without a room", [S[5]], T_LIGHT, None, "confirmed",
        "2026-09-05T09:00:00Z", duration=7, content_locale="pt-BR",
        slots=[slot(None, ist(5, 9, 0, 0, ".250000"), None)])
    # public talk whose only slot has no start (and no end)
    sub("EDGE06", "Unscheduled but visible", [S[6]], T_PANEL, OPS, "confirmed",
        "2026-09-06T09:00:00Z", slots=[slot(R_HALL, None, None)])
    # confirmed, only an invisible slot: not a talk
    sub("EDGE07", "Confirmed with an invisible slot", [S[7]], T_TALK, OPS, "confirmed",
        "2026-09-07T09:00:00Z", slots=[slot(R_101, ist(3, 15), ist(3, 15, 30), visible=False)])
    # three slots: one visible without start, one invisible early, one visible later
    sub("EDGE08", "Three slots, one hidden", [S[8]], T_TALK, SCI, "confirmed",
        "2026-09-08T09:00:00Z", slot_count=3,
        slots=[slot(R_101, None, None),
               slot(R_101, ist(3, 10), ist(3, 10, 30), visible=False),
               slot(R_CJK, ist(5, 16), ist(5, 16, 45))])
    sub("EDGE09", "Rejected: Tabs vs. Spaces & \"Quotes\"", [S[9]], T_TALK, OPS, "rejected",
        "2026-09-09T09:00:00Z", abstract="<b>not html</b>")
    sub("EDGE10", "Accepted, pending confirmation", [S[10]], T_TALK, SCI, "accepted",
        "2026-09-10T09:00:00Z", pending_state="confirmed")
    sub("EDGE11", "分散システムの未来 🚀", [S[11], S[12], S[13]], T_TALK, CJK, "confirmed",
        "2026-09-11T09:00:00Z", content_locale="ja", abstract="日本語の要旨。",
        resources=[{"resource": "https://slides.edge.example/%E6%9C%AA%E6%9D%A5.pdf",
                    "description": "スライド"}],
        slots=[slot(R_CJK, ist(3, 14), ist(3, 14, 30))], tags=[TG_CJK])
    sub("EDGE12", "Featured ops talk with a long slot", [S[14]], T_TALK, OPS, "confirmed",
        "2026-09-12T09:00:00Z", is_featured=True, duration=45, do_not_record=True,
        slots=[slot(R_HALL, ist(3, 16), ist(3, 17, 15))])
    # a reviewer (twoteams) speaks here
    sub("EDGE13", "Reviewer's own proposal", [DUO], T_TALK, CJK, "submitted",
        "2026-09-13T09:00:00Z")
    # the organiser speaks here
    sub("EDGE14", "Organiser's own proposal", [ORGA, S[15]], T_TALK, OPS, "submitted",
        "2026-09-14T09:00:00Z", internal_notes="Careful: orga speaks.")
    # outside the limited reviewer's track, but assigned to them
    sub("EDGE15", "Assigned outside the track", [S[16]], T_WORK, OPS, "submitted",
        "2026-09-15T09:00:00Z", assigned_reviewers=[LIMITED], duration=120)
    # more public talks and proposals, so that lists have more than 25 items
    bulk = [
        # code, title, speakers, type, track, state, slot (room, day, hh, mm) or None, extras
        ("EDGE16", "Rust für Einsteiger", [S[17]], T_TALK, SCI, "confirmed",
         (R_HALL, 3, 11, 0), {"content_locale": "de", "tags": [TG_BEG]}),
        ("EDGE17", "Observability at scale", [S[18]], T_TALK, OPS, "confirmed",
         (R_WS, 3, 9, 30), {}),
        ("EDGE18", "Emoji in identifiers 😀", [S[19]], T_LIGHT, CJK, "confirmed",
         (R_EMOJI, 3, 12, 0), {"is_featured": True}),
        ("EDGE19", "Accessibility für alle", [S[20], S[21]], T_PANEL, None, "confirmed",
         (R_HALL, 4, 15, 0), {"content_locale": "de"}),
        ("EDGE20", "한국어 세션", [S[21]], T_TALK, CJK, "confirmed",
         (R_CJK, 4, 11, 0), {"content_locale": "ko"}),
        ("EDGE21", "Scheduling algorithms", [S[22]], T_WORK, SCI, "confirmed",
         (R_WS, 4, 9, 0), {"image": "https://media.edge.example/images/edge21.jpg"}),
        ("EDGE22", "Accepted with a visible slot", [S[23]], T_TALK, OPS, "accepted",
         (R_101, 4, 16, 0), {}),
        ("EDGE23", "Confirmed but not scheduled", [S[24]], T_TALK, SCI, "confirmed", None, {}),
        ("EDGE24", "Submitted in French", [S[25]], T_TALK, None, "submitted", None,
         {"content_locale": "fr", "is_featured": True}),
        ("EDGE25", "Rejected with pending accept", [S[26]], T_PANEL, CJK, "rejected", None,
         {"pending_state": "accepted"}),
        ("EDGE26", "Withdrawn before the release", [S[27]], T_TALK, SCI, "withdrawn", None, {}),
        ("EDGE27", "Canceled, never scheduled", [S[28]], T_TALK, OPS, "canceled", None, {}),
        ("EDGE28", "Another submitted one", [S[30], S[3]], T_TALK, SCI, "submitted", None,
         {"anonymised": {"title": "Halbstündige anonymised title", "abstract": "",
                         "description": ""}}),
        ("EDGE29", "A proposal without speakers", [], T_TALK, OPS, "submitted", None, {}),
        ("EDGE30", "Second talk by the speaker", [SPEAKER], T_LIGHT, OPS, "confirmed",
         (R_EMOJI, 5, 10, 0), {"duration": 10}),
        ("EDGE31", "Late-night talk across midnight", [S[22], S[5]], T_TALK, SCI, "confirmed",
         (R_HALL, 5, 23, 45), {"duration": 30}),
        ("EDGE32", "Submitted workshop", [S[10]], T_WORK, CJK, "submitted", None, {}),
    ]
    for i, (code, title, spk, stype, track, state, sl, extra) in enumerate(bulk):
        kw = dict(extra)
        if sl:
            room, day, hh, mm = sl
            kw["slots"] = [slot(room, ist(day, hh, mm), None if code == "EDGE31" else
                                ist(day, hh, mm + 30) if mm < 30 else ist(day, hh + 1, mm - 30))]
        sub(code, title, spk, stype, track, state,
            f"2026-{9 + (16 + i) // 31:02d}-{(16 + i) % 31 + (16 + i) // 31:02d}T{8 + i % 10:02d}:{(i * 7) % 60:02d}:{(i * 13) % 60:02d}Z", **kw)
    # unusual codes: mixed case, one character, sixteen characters
    sub("EdgeMix9", "Mixed-case code", [S[12]], T_TALK, None, "submitted",
        "2026-10-01T00:00:00+05:30", anonymised={"title": "Mixed anonymised"})
    sub("Q", "One-character code, public", [S[26]], T_TALK, OPS, "confirmed",
        "2026-10-02T00:00:00Z", slots=[slot(R_101, ist(5, 14), ist(5, 14, 30))])
    sub("ZEDGELONGCODE016", "Sixteen-character code", [S[27]], T_PANEL, SCI, "accepted",
        "2026-10-03T12:00:00.000001Z")

    # ---- reviews -----------------------------------------------------------
    reviews = []
    RV = {}

    def review(key, code, who, score, created, text="", **kw):
        r = {"id": REVIEW_ID(), "submission": code, "user": who, "text": text, "score": score,
             "created": created}
        r.update(kw)
        reviews.append(r)
        RV[key] = r["id"]
        return r

    # the first review: on a submission the organiser speaks in
    review("orga-speaks-1", "EDGE14", REV, 4, "2026-11-10T08:15:30.123456Z", "Solid.")
    review("orga-speaks-2", "EDGE14", BLIND, 2.5, "2026-11-10T14:45:30.5+05:30", "Hm.",
           updated="2026-11-11T10:00:00.000001Z")
    review("duo-speaks-1", "EDGE13", REV, None, "2026-11-09T10:00:00Z")
    # the limited reviewer reviewed outside their track: only their own review shows it
    review("duo-speaks-2", "EDGE13", LIMITED, 1, "2026-11-09T10:00:00Z", "Out of my track.")
    review("e02-rev", "EDGE02", REV, 3.5, "2026-11-01T06:00:00.654321Z", "Good, needs focus.")
    review("e02-blind", "EDGE02", BLIND, 0, "2026-11-01T07:00:00Z", "Zero. Ünicode review.")
    review("e02-limited", "EDGE02", LIMITED, 5, "2026-11-01T08:00:00Z", "Great!")
    review("e02-duo", "EDGE02", DUO, 2.25, "2026-11-01T09:00:00+05:30", "Quarter points.")
    review("orga-review", "EDGE09", ORGA, 1, "2026-11-02T09:00:00Z", "Organiser's own review.")
    review("e10-rev2", "EDGE10", REV2, 4.5, "2026-11-03T09:00:00Z", "Nice.")
    review("e03-rev", "EDGE03", REV, 2, "2026-11-03T10:00:00Z", "Withdrawn anyway.")
    review("e01-blind", "EDGE01", BLIND, 5, "2026-11-04T09:00:00Z", "A public talk, reviewed.")
    review("e15-limited", "EDGE15", LIMITED, 3, "2026-11-05T09:00:00Z", "Assigned to me.")
    review("e15-duo", "EDGE15", DUO, None, "2026-11-05T09:30:00Z", "")
    # two reviews with the same `created` (ordered by id)
    review("tie-1", "EDGE24", REV2, 3, "2026-11-06T12:00:00Z", "Tie one.")
    review("tie-2", "EDGE24", REV, 3, "2026-11-06T12:00:00Z", "Tie two.")
    more = [("EDGE25", REV, 1.5), ("EDGE26", REV2, 2), ("EDGE27", BLIND, 3),
            ("EDGE28", REV, 4), ("EDGE28", LIMITED, 4.75), ("EDGE29", DUO, 2),
            ("EDGE32", REV2, None), ("EdgeMix9", REV, 3.25), ("ZEDGELONGCODE016", BLIND, 1),
            ("EDGE16", REV, 5), ("EDGE10", LIMITED, 2.5), ("EDGE22", REV2, 4)]
    for i, (code, who, score) in enumerate(more):
        review(f"more{i}", code, who, score,
               f"2026-11-{12 + i % 6:02d}T{(5 + i) % 24:02d}:{(i * 11) % 60:02d}:00.{100000 + i * 37:06d}Z",
               f"Review {i + 1} of {code}." if i % 3 else "")
    # the last review with text: by the blind reviewer
    review("last", "EDGE12", BLIND, 3.5, "2026-11-20T23:59:59.999999Z", "Last review with text.")

    # ---- answers -----------------------------------------------------------
    answers = []

    def answer(qkey, owner_kind, owner, text="", options=None, answer_file=None):
        ans = {"id": ANSWER_ID(), "question": Q[qkey]["id"], "answer": text, owner_kind: owner}
        if options:
            ans["options"] = options
        if answer_file is not None:
            ans["answer_file"] = answer_file
        answers.append(ans)
        return ans

    # the first answer: a public question hidden from reviewers, on a non-public submission
    answer("slides", "submission", "EDGE02", "https://slides.edge.example/edge02-draft.pdf")
    answer("slides", "submission", "EDGE01", "https://slides.edge.example/edge01.pdf")
    # person answers
    answer("social", "person", S[1], "@zoe@edge.social")
    answer("social", "person", SPEAKER, "@soeren@edge.social")
    answer("social", "person", S[2], "@jose@edge.social")  # speaker of non-public EDGE02 only
    answer("diet", "person", SPEAKER, "Vegetarisch, keine Nüsse 🥜")
    answer("diet", "person", S[1], "None")
    answer("shirt", "person", S[1], "M", [o[7]])
    answer("shirt", "person", S[4], "L", [o[8]])
    answer("firsttime", "person", S[11], "True")
    answer("firsttime", "person", S[9], "False")  # speaker of a rejected submission
    answer("homepage", "person", S[14], "https://s14.edge.example/")  # inactive question
    answer("social", "person", PROFILE_ONLY, "@noshow@edge.social")  # profile without submission
    answer("social", "person", ORGA, "@olga@edge.social")
    # submission answers: audience on most submissions
    levels = {0: (o[0], "Beginner"), 1: (o[1], "Intermediate"), 2: (o[2], "Expert")}
    for i, s in enumerate(subs):
        if i % 4 == 3:
            continue
        oid, label = levels[i % 3]
        answer("audience", "submission", s["code"], label, [oid])
    answer("tech", "submission", "EDGE01", "Projector, Microphone 🎤", [o[4], o[3]])
    answer("tech", "submission", "EDGE02", "Internet", [o[5]])
    answer("tech", "submission", "EDGE11", "", [o[3], o[4], o[5]])
    answer("revnotes", "submission", "EDGE01", "Please review kindly.")
    answer("revnotes", "submission", "EDGE02", "Can be shortened to 20 minutes.")
    answer("revnotes", "submission", "EDGE13", "My own proposal — be fair.")
    answer("paper", "submission", "EDGE01", "",
           answer_file="https://files.edge.example/answers/edge01-paper.pdf")
    answer("paper", "submission", "EDGE02", "paper.pdf",
           answer_file="https://files.edge.example/answers/edge02%20paper.pdf")
    answer("recording", "submission", "EDGE01", "True")
    answer("recording", "submission", "EDGE12", "False")
    answer("recording", "submission", "EDGE09", "True")
    answer("attendees", "submission", "EDGE01", "250")  # inactive public question
    answer("attendees", "submission", "EDGE02", "12.5")
    answer("date", "submission", "EDGE04", "2026-12-04")
    answer("date", "submission", "EDGE21", "2026-12-05")
    answer("arrival", "submission", "EDGE01", "2026-12-03T09:00:00+05:30")
    answer("slides", "submission", "EDGE11", "https://slides.edge.example/%E6%9C%AA%E6%9D%A5")
    # review answers
    answer("depth", "review", RV["orga-speaks-1"], "4")  # on a review the organiser cannot see
    answer("depth", "review", RV["e02-rev"], "3")
    answer("depth", "review", RV["orga-review"], "1")
    answer("concerns", "review", RV["e02-blind"], "Overlap, Too long", [o[11], o[9]])
    answer("concerns", "review", RV["e01-blind"], "Off-topic", [o[10]])
    answer("orgnote", "review", RV["e02-limited"], "Do not tell the others.")
    answer("attend", "review", RV["e01-blind"], "True")  # public question, but on a review
    answer("depth", "review", RV["duo-speaks-2"], "2")

    return {
        "slug": "edge.conf",
        "name": {"en": "Edge.Conf 2026 – Grenzfälle", "de": "Edge.Konf 2026 – Grenzfälle",
                 "hi": "एज कॉन्फ़"},
        "is_public": True,
        "date_from": "2026-12-03",
        "date_to": "2026-12-05",
        "timezone": "Asia/Kolkata",
        "locale": "en",
        "show_schedule": True,
        "schedule": {"version": "v0.9-β", "published": "2026-11-01T06:30:00.123456Z"},
        "review_phase": {"name": "Grenzfall-Review", "can_see_speaker_names": True,
                         "can_see_reviewer_names": False, "can_see_other_reviews": "always",
                         "proposal_visibility": "all"},
        "teams": teams,
        "submission_types": types,
        "tracks": tracks,
        "rooms": rooms,
        "tags": tags,
        "questions": questions,
        "speakers": speakers,
        "submissions": subs,
        "answers": answers,
        "reviews": reviews,
    }


PROFILE_ONLY_INDEX = 29


# ===========================================================================
# Event 2: edge-hidden (public, schedule released but hidden, UTC,
# review "never" / "assigned" / no speaker names)
# ===========================================================================
def event_edge_hidden():
    T_TALK, T_SHORT = TYPE_ID(), TYPE_ID()
    MAIN, SIDE = TRACK_ID(), TRACK_ID()
    ROOM = ROOM_ID()
    a1, a2 = AVAIL_ID(), AVAIL_ID()
    TG_V12, TG_BETA = TAG_ID(), TAG_ID()
    q_pub, q_rev, q_spk, q_inactive = QUESTION_ID(), QUESTION_ID(), QUESTION_ID(), QUESTION_ID()
    op1, op2 = OPTION_ID(), OPTION_ID()

    def slot(start, end, visible=True, room=ROOM):
        return {"room": room, "start": start, "end": end, "is_visible": visible}

    subs = [
        {"code": "EDH01", "title": "Hidden schedule: confirmed talk", "speakers": [SPEAKER],
         "submission_type": T_TALK, "track": MAIN, "state": "confirmed",
         "created": "2026-10-01T10:00:00Z", "assigned_reviewers": [ASSIGNED],
         "slots": [slot("2026-11-21T10:00:00Z", "2026-11-21T10:30:00Z")]},
        {"code": "EDH02", "title": "Assigned to two reviewers", "speakers": [S[1], S[2]],
         "submission_type": T_TALK, "track": MAIN, "state": "submitted",
         "created": "2026-10-02T10:00:00.250000Z", "assigned_reviewers": [ASSIGNED, REV],
         "anonymised": {"title": "Anonymised EDH02", "abstract": "", "description": ""},
         "abstract": "Real abstract of EDH02."},
        {"code": "EDH03", "title": "Assigned to the other reviewer", "speakers": [S[3]],
         "submission_type": T_SHORT, "track": SIDE, "state": "accepted",
         "created": "2026-10-03T10:00:00Z", "assigned_reviewers": [REV]},
        {"code": "EDH04", "title": "Nobody is assigned", "speakers": [S[4]],
         "submission_type": T_TALK, "state": "rejected", "created": "2026-10-04T10:00:00Z"},
        {"code": "EDH05", "title": "Confirmed, nobody assigned", "speakers": [S[5]],
         "submission_type": T_SHORT, "track": SIDE, "state": "confirmed",
         "created": "2026-10-05T10:00:00Z",
         "slots": [slot("2026-11-21T11:00:00Z", None), slot(None, None, room=None)]},
        {"code": "EDH06", "title": "Withdrawn, assigned to the limited reviewer",
         "speakers": [S[6]], "submission_type": T_TALK, "track": SIDE, "state": "withdrawn",
         "created": "2026-10-06T10:00:00Z", "assigned_reviewers": [LIMITED],
         "slots": [slot("2026-11-22T09:00:00Z", "2026-11-22T09:30:00Z")]},
        {"code": "EDH07", "title": "Anonymised and assigned", "speakers": [SPEAKER, S[7]],
         "submission_type": T_TALK, "track": MAIN, "state": "submitted",
         "created": "2026-10-07T10:00:00Z", "assigned_reviewers": [ASSIGNED],
         "anonymised": {"title": "Anonymous title", "abstract": "Anonymous abstract"}},
        {"code": "EDH08", "title": "Canceled after the release", "speakers": [S[8]],
         "submission_type": T_TALK, "track": MAIN, "state": "canceled",
         "created": "2026-10-08T10:00:00Z",
         "slots": [slot("2026-11-21T15:00:00Z", "2026-11-21T15:30:00Z"),
                   slot("2026-11-21T09:00:00Z", "2026-11-21T09:30:00Z", visible=False)]},
    ]
    reviews = []
    rid = {}
    for key, code, who, score, created, text in [
        ("a1", "EDH01", ASSIGNED, 4, "2026-11-01T10:00:00.000100Z", "Assigned review."),
        ("a2", "EDH02", ASSIGNED, 3.5, "2026-11-01T11:00:00Z", ""),
        ("r1", "EDH02", REV, 2, "2026-11-01T12:00:00Z", "Other reviewer on a shared one."),
        ("r2", "EDH03", REV, None, "2026-11-01T13:00:00Z", "No score."),
        ("o1", "EDH04", ORGA, 1, "2026-11-01T14:00:00Z", "Organiser-reviewer review."),
        ("l1", "EDH06", LIMITED, 4.5, "2026-11-01T15:00:00Z", "Limited reviewer, assigned."),
    ]:
        rid[key] = REVIEW_ID()
        reviews.append({"id": rid[key], "submission": code, "user": who, "text": text,
                        "score": score, "created": created})
    answers = [
        {"id": ANSWER_ID(), "question": q_pub, "answer": "Yes", "submission": "EDH01",
         "options": [op1]},
        {"id": ANSWER_ID(), "question": q_pub, "answer": "No", "submission": "EDH02",
         "options": [op2]},
        {"id": ANSWER_ID(), "question": q_pub, "answer": "Yes", "submission": "EDH05",
         "options": [op1]},
        {"id": ANSWER_ID(), "question": q_spk, "answer": "Hidden from reviewers",
         "person": SPEAKER},
        {"id": ANSWER_ID(), "question": q_spk, "answer": "Also hidden", "person": S[1]},
        {"id": ANSWER_ID(), "question": q_rev, "answer": "4", "review": rid["a1"]},
        {"id": ANSWER_ID(), "question": q_rev, "answer": "2", "review": rid["r1"]},
        {"id": ANSWER_ID(), "question": q_inactive, "answer": "inactive", "submission": "EDH07"},
    ]
    return {
        "slug": "edge-hidden",
        "name": {"en": "Hidden Schedule Fest", "de": "Verstecktes Fest"},
        "is_public": True,
        "date_from": "2026-11-21",
        "date_to": "2026-11-22",
        "timezone": "UTC",
        "locale": "de",
        "show_schedule": False,
        "schedule": {"version": "1", "published": "2026-11-10T00:00:00Z"},
        "review_phase": {"name": "Blind assigned review", "can_see_speaker_names": False,
                         "can_see_reviewer_names": True, "can_see_other_reviews": "never",
                         "proposal_visibility": "assigned"},
        "teams": [
            # one team that is both organiser and reviewer: its members are organisers
            {"name": "Orga and review", "members": [ORGA], "can_change_submissions": True,
             "is_reviewer": True},
            {"name": "Assigned reviewers", "members": [ASSIGNED, REV], "is_reviewer": True},
            {"name": "Side-track reviewers", "members": [LIMITED], "is_reviewer": True,
             "limit_tracks": [MAIN]},
        ],
        "submission_types": [
            {"id": T_TALK, "name": {"en": "Talk", "de": "Vortrag"}, "default_duration": 25},
            {"id": T_SHORT, "name": "Kurzvortrag", "default_duration": 0},
        ],
        "tracks": [
            {"id": MAIN, "name": {"en": "Main", "de": "Haupt"}, "color": "#000000"},
            {"id": SIDE, "name": "Nebenbühne – Ümlaut"},
        ],
        "rooms": [
            {"id": ROOM, "guid": "9c2f1e7a-3b4d-4e5f-8a6b-7c8d9e0f1a2b",
             "name": {"en": "Only room", "de": "Einziger Raum"}, "capacity": 80, "position": 0,
             "availabilities": [
                 {"id": a2, "start": "2026-11-22T00:00:00Z", "end": "2026-11-23T00:00:00Z"},
                 {"id": a1, "start": "2026-11-21T08:00:00Z", "end": "2026-11-21T18:00:00Z"},
             ]},
        ],
        "tags": [
            {"id": TG_V12, "tag": "v1.2", "description": {"en": "Same name as in edge.conf"}},
            {"id": TG_BETA, "tag": "beta.test", "is_public": True},
        ],
        "questions": [
            {"id": q_pub, "variant": "choices", "question": {"en": "Public choice question"},
             "is_public": True, "position": 1,
             "options": [{"id": op1, "answer": {"en": "Yes", "de": "Ja"}},
                         {"id": op2, "answer": {"en": "No", "de": "Nein"}}]},
            {"id": q_rev, "variant": "number", "target": "reviewer",
             "question": {"en": "Score detail"}, "question_required": "required",
             "position": 2},
            {"id": q_spk, "variant": "text", "target": "speaker",
             "question": {"en": "Hidden speaker question"}, "is_visible_to_reviewers": False,
             "is_public": True, "position": 3, "freeze_after": "2035-01-01T00:00:00Z"},
            {"id": q_inactive, "variant": "string", "question": "Inactive question",
             "active": False, "position": 3, "deadline": "2020-02-02T02:02:02Z",
             "question_required": "after_deadline"},
        ],
        "speakers": [
            {"user": SPEAKER, "biography": "Another biography in another event."},
            {"user": S[1], "biography": "Zoë in the hidden event.",
             "availabilities": [{"id": AVAIL_ID(), "start": "2026-11-21T00:00:00Z",
                                 "end": "2026-11-22T00:00:00Z"}]},
        ] + [{"user": S[i]} for i in range(2, 9)],
        "submissions": subs,
        "answers": answers,
        "reviews": reviews,
    }


# ===========================================================================
# Event 3: edge-private (not public, no review phase, no schedule, no rooms)
# ===========================================================================
def event_edge_private():
    T = TYPE_ID()
    q_sub, q_rev = QUESTION_ID(), QUESTION_ID()
    subs = [
        {"code": "EDP01", "title": "Private retreat proposal", "speakers": [SPEAKER],
         "submission_type": T, "state": "submitted", "created": "2026-08-01T10:00:00-03:30"},
        {"code": "EDP02", "title": "Accepted at the retreat", "speakers": [S[3]],
         "submission_type": T, "state": "accepted", "created": "2026-08-02T10:00:00Z"},
        {"code": "EDP03", "title": "Confirmed but no schedule", "speakers": [S[3], SPEAKER],
         "submission_type": T, "state": "confirmed", "created": "2026-08-03T10:00:00Z",
         "is_featured": True},
        {"code": "EDP04", "title": "Rejected at the retreat", "speakers": [S[4]],
         "submission_type": T, "state": "rejected", "created": "2026-08-04T10:00:00Z",
         "anonymised": {"title": "Anonymised retreat proposal"}},
    ]
    r1, r2, r3 = REVIEW_ID(), REVIEW_ID(), REVIEW_ID()
    return {
        "slug": "edge-private",
        "name": "Edge Private Retreat",  # plain string i18n
        "is_public": False,
        "date_from": "2026-11-20",  # same day as democon: ordered by slug
        "timezone": "America/St_Johns",  # -03:30
        "schedule": None,
        "review_phase": None,
        "teams": [
            {"name": "Retreat orga", "members": [HASHONLY], "can_change_submissions": True},
            {"name": "Retreat reviewers", "members": [REV, LAZY], "is_reviewer": True},
            {"name": "Retreat blind", "members": [BLIND], "is_reviewer": True,
             "force_hide_speaker_names": True},
        ],
        "submission_types": [{"id": T, "name": {"en": "Session"}}],
        "questions": [
            {"id": q_sub, "variant": "text", "question": {"en": "Why the retreat?"},
             "position": 1},
            {"id": q_rev, "variant": "string", "target": "reviewer",
             "question": {"en": "Retreat reviewer remark"}, "position": 2},
        ],
        "speakers": [
            {"user": SPEAKER, "biography": "Private biography."},
            {"user": S[3]},
            {"user": S[4], "availabilities": [
                {"id": AVAIL_ID(), "start": "2026-11-20T00:00:00-03:30",
                 "end": "2026-11-21T00:00:00-03:30"},
                {"id": AVAIL_ID(), "start": "2026-11-20T00:00:00Z",
                 "end": "2026-11-21T00:00:00Z"}]},
        ],
        "submissions": subs,
        "answers": [
            {"id": ANSWER_ID(), "question": q_sub, "answer": "Quiet.", "submission": "EDP01"},
            {"id": ANSWER_ID(), "question": q_sub, "answer": "Because.", "submission": "EDP04"},
            {"id": ANSWER_ID(), "question": q_rev, "answer": "Remark.", "review": r1},
        ],
        "reviews": [
            {"id": r1, "submission": "EDP01", "user": REV, "text": "Private review.",
             "score": 3, "created": "2026-09-01T10:00:00Z"},
            {"id": r2, "submission": "EDP02", "user": REV, "score": 1.5,
             "created": "2026-09-02T10:00:00.000001Z", "updated": "2026-09-03T10:00:00Z"},
            {"id": r3, "submission": "EDP01", "user": BLIND, "text": "Blind private review.",
             "score": None, "created": "2026-09-03T10:00:00Z"},
        ],
    }


def build():
    return {
        "format": "cfp-dataset",
        "version": 1,
        "users": USERS,
        "events": [event_edge_conf(), event_edge_hidden(), event_edge_private()],
    }


def check_collisions(doc):
    """Compare ids, codes, e-mails and slugs with the shared datasets, if present."""
    shared = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "datasets"))
    candidates = [os.path.join(shared, n) for n in ("democon.json", "client-friendly.json")]
    candidates += [os.path.join("/work/shared/datasets", n)
                   for n in ("democon.json", "client-friendly.json")]

    def keys(d):
        out = set()
        for u in d.get("users", []):
            out.add(("user", u["code"]))
            out.add(("email", u["email"].lower()))
        for e in d.get("events", []):
            out.add(("slug", e["slug"].lower()))
            for kind in ("submission_types", "tracks", "rooms", "tags", "questions",
                         "answers", "reviews"):
                for x in e.get(kind, []):
                    out.add((kind, x["id"]))
                    if kind == "questions":
                        for o in x.get("options", []):
                            out.add(("option", o["id"]))
                    for av in x.get("availabilities", []):
                        out.add(("availability", av["id"]))
            for p in e.get("speakers", []):
                for av in p.get("availabilities", []):
                    out.add(("availability", av["id"]))
            for s in e.get("submissions", []):
                out.add(("submission", s["code"]))
        return out

    mine = keys(doc)
    for path in dict.fromkeys(candidates):
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fp:
                clash = mine & keys(json.load(fp))
            if clash:
                raise SystemExit(f"collision with {path}: {sorted(clash, key=str)[:10]}")


def main():
    doc = build()
    check_collisions(doc)
    with open(OUT, "w", encoding="utf-8") as fp:
        json.dump(doc, fp, ensure_ascii=False, indent=1)
        fp.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
