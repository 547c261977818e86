-- The dataset format (shared/spec/dataset.md), normalised. Every per-event
-- table is keyed by the internal event id first, so loading or replacing one
-- event is an index range scan; ids from the dataset are unique per event.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT INTO meta (key, value) VALUES ('generation', 0);

CREATE TABLE users (
    code             TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    email            TEXT NOT NULL,
    avatar           TEXT,
    locale           TEXT NOT NULL,
    timezone         TEXT NOT NULL,
    is_administrator INTEGER NOT NULL
);
CREATE UNIQUE INDEX users_email ON users (lower(email));

-- SHA-256 hex digests only; clear tokens are never stored.
CREATE TABLE user_tokens (
    token_hash TEXT PRIMARY KEY,
    user_code  TEXT NOT NULL REFERENCES users (code),
    position   INTEGER NOT NULL
);
CREATE INDEX user_tokens_user ON user_tokens (user_code);

CREATE TABLE events (
    id                           INTEGER PRIMARY KEY AUTOINCREMENT,
    slug                         TEXT NOT NULL,
    generation                   INTEGER NOT NULL,
    name                         TEXT NOT NULL,
    is_public                    INTEGER NOT NULL,
    date_from                    TEXT NOT NULL,
    date_to                      TEXT,
    timezone                     TEXT NOT NULL,
    locale                       TEXT NOT NULL,
    show_schedule                INTEGER NOT NULL,
    schedule_version             TEXT,      -- NULL: no released schedule
    schedule_published           INTEGER,   -- microseconds since the epoch
    phase_name                   TEXT,      -- NULL: no active review phase
    phase_can_see_speaker_names  INTEGER,
    phase_can_see_reviewer_names INTEGER,
    phase_can_see_other_reviews  TEXT,
    phase_proposal_visibility    TEXT
);
CREATE UNIQUE INDEX events_slug ON events (lower(slug));

CREATE TABLE teams (
    event_id                 INTEGER NOT NULL REFERENCES events (id),
    position                 INTEGER NOT NULL,
    name                     TEXT NOT NULL,
    can_change_submissions   INTEGER NOT NULL,
    is_reviewer              INTEGER NOT NULL,
    force_hide_speaker_names INTEGER NOT NULL,
    PRIMARY KEY (event_id, position)
);
CREATE TABLE team_members (
    event_id      INTEGER NOT NULL,
    team_position INTEGER NOT NULL,
    position      INTEGER NOT NULL,
    user_code     TEXT NOT NULL,
    PRIMARY KEY (event_id, team_position, position)
);
CREATE TABLE team_tracks (
    event_id      INTEGER NOT NULL,
    team_position INTEGER NOT NULL,
    position      INTEGER NOT NULL,
    track_id      INTEGER NOT NULL,
    PRIMARY KEY (event_id, team_position, position)
);

CREATE TABLE submission_types (
    event_id         INTEGER NOT NULL REFERENCES events (id),
    id               INTEGER NOT NULL,
    position         INTEGER NOT NULL,
    name             TEXT NOT NULL,
    default_duration INTEGER NOT NULL,
    PRIMARY KEY (event_id, id)
);
CREATE TABLE tracks (
    event_id INTEGER NOT NULL REFERENCES events (id),
    id       INTEGER NOT NULL,
    position INTEGER NOT NULL,
    name     TEXT NOT NULL,
    color    TEXT NOT NULL,
    PRIMARY KEY (event_id, id)
);
CREATE TABLE rooms (
    event_id     INTEGER NOT NULL REFERENCES events (id),
    id           INTEGER NOT NULL,
    position_in_dataset INTEGER NOT NULL,
    guid         TEXT,
    name         TEXT NOT NULL,
    description  TEXT NOT NULL,
    speaker_info TEXT NOT NULL,
    capacity     INTEGER,
    position     INTEGER,
    PRIMARY KEY (event_id, id)
);
CREATE TABLE room_availabilities (
    event_id INTEGER NOT NULL,
    room_id  INTEGER NOT NULL,
    id       INTEGER NOT NULL,
    start_at INTEGER NOT NULL,
    end_at   INTEGER NOT NULL,
    PRIMARY KEY (event_id, room_id, id)
);
CREATE TABLE tags (
    event_id    INTEGER NOT NULL REFERENCES events (id),
    id          INTEGER NOT NULL,
    position    INTEGER NOT NULL,
    tag         TEXT NOT NULL,
    description TEXT NOT NULL,
    color       TEXT NOT NULL,
    is_public   INTEGER NOT NULL,
    PRIMARY KEY (event_id, id)
);
CREATE UNIQUE INDEX tags_name ON tags (event_id, lower(tag));

CREATE TABLE questions (
    event_id                INTEGER NOT NULL REFERENCES events (id),
    id                      INTEGER NOT NULL,
    position_in_dataset     INTEGER NOT NULL,
    variant                 TEXT NOT NULL,
    target                  TEXT NOT NULL,
    question                TEXT NOT NULL,
    help_text               TEXT NOT NULL,
    question_required       TEXT NOT NULL,
    deadline                INTEGER,
    freeze_after            INTEGER,
    default_answer          TEXT,
    contains_personal_data  INTEGER NOT NULL,
    min_length              INTEGER,
    max_length              INTEGER,
    is_public               INTEGER NOT NULL,
    is_visible_to_reviewers INTEGER NOT NULL,
    active                  INTEGER NOT NULL,
    position                INTEGER NOT NULL,
    PRIMARY KEY (event_id, id)
);
CREATE TABLE question_options (
    event_id    INTEGER NOT NULL,
    question_id INTEGER NOT NULL,
    id          INTEGER NOT NULL,
    position    INTEGER NOT NULL,
    answer      TEXT NOT NULL,
    PRIMARY KEY (event_id, question_id, id)
);
CREATE TABLE question_tracks (
    event_id    INTEGER NOT NULL,
    question_id INTEGER NOT NULL,
    position    INTEGER NOT NULL,
    track_id    INTEGER NOT NULL,
    PRIMARY KEY (event_id, question_id, position)
);
CREATE TABLE question_submission_types (
    event_id           INTEGER NOT NULL,
    question_id        INTEGER NOT NULL,
    position           INTEGER NOT NULL,
    submission_type_id INTEGER NOT NULL,
    PRIMARY KEY (event_id, question_id, position)
);

CREATE TABLE speakers (
    event_id  INTEGER NOT NULL REFERENCES events (id),
    user_code TEXT NOT NULL,
    position  INTEGER NOT NULL,
    biography TEXT NOT NULL,
    PRIMARY KEY (event_id, user_code)
);
CREATE TABLE speaker_availabilities (
    event_id  INTEGER NOT NULL,
    user_code TEXT NOT NULL,
    id        INTEGER NOT NULL,
    start_at  INTEGER NOT NULL,
    end_at    INTEGER NOT NULL,
    PRIMARY KEY (event_id, user_code, id)
);

CREATE TABLE submissions (
    event_id         INTEGER NOT NULL REFERENCES events (id),
    code             TEXT NOT NULL,
    position         INTEGER NOT NULL,
    title            TEXT NOT NULL,
    submission_type  INTEGER NOT NULL,
    track            INTEGER,
    state            TEXT NOT NULL,
    pending_state    TEXT,
    abstract         TEXT NOT NULL,
    description      TEXT NOT NULL,
    notes            TEXT NOT NULL,
    internal_notes   TEXT NOT NULL,
    duration         INTEGER,
    slot_count       INTEGER NOT NULL,
    do_not_record    INTEGER NOT NULL,
    is_featured      INTEGER NOT NULL,
    content_locale   TEXT NOT NULL,
    image            TEXT,
    created          INTEGER NOT NULL,
    is_anonymised    INTEGER NOT NULL,
    anon_title       TEXT NOT NULL,
    anon_abstract    TEXT NOT NULL,
    anon_description TEXT NOT NULL,
    PRIMARY KEY (event_id, code)
);
CREATE UNIQUE INDEX submissions_code ON submissions (event_id, lower(code));
CREATE TABLE submission_speakers (
    event_id        INTEGER NOT NULL,
    submission_code TEXT NOT NULL,
    position        INTEGER NOT NULL,
    user_code       TEXT NOT NULL,
    PRIMARY KEY (event_id, submission_code, position)
);
CREATE TABLE submission_tags (
    event_id        INTEGER NOT NULL,
    submission_code TEXT NOT NULL,
    position        INTEGER NOT NULL,
    tag_id          INTEGER NOT NULL,
    PRIMARY KEY (event_id, submission_code, position)
);
CREATE TABLE submission_resources (
    event_id        INTEGER NOT NULL,
    submission_code TEXT NOT NULL,
    position        INTEGER NOT NULL,
    resource        TEXT NOT NULL,
    description     TEXT NOT NULL,
    PRIMARY KEY (event_id, submission_code, position)
);
CREATE TABLE submission_reviewers (
    event_id        INTEGER NOT NULL,
    submission_code TEXT NOT NULL,
    position        INTEGER NOT NULL,
    user_code       TEXT NOT NULL,
    PRIMARY KEY (event_id, submission_code, position)
);
CREATE TABLE slots (
    event_id        INTEGER NOT NULL,
    submission_code TEXT NOT NULL,
    position        INTEGER NOT NULL,
    room            INTEGER,
    start_at        INTEGER,
    end_at          INTEGER,
    is_visible      INTEGER NOT NULL,
    PRIMARY KEY (event_id, submission_code, position)
);

CREATE TABLE answers (
    event_id    INTEGER NOT NULL REFERENCES events (id),
    id          INTEGER NOT NULL,
    position    INTEGER NOT NULL,
    question    INTEGER NOT NULL,
    answer      TEXT NOT NULL,
    answer_file TEXT,
    submission  TEXT,
    person      TEXT,
    review      INTEGER,
    PRIMARY KEY (event_id, id)
);
CREATE TABLE answer_options (
    event_id  INTEGER NOT NULL,
    answer_id INTEGER NOT NULL,
    position  INTEGER NOT NULL,
    option_id INTEGER NOT NULL,
    PRIMARY KEY (event_id, answer_id, position)
);

CREATE TABLE reviews (
    event_id   INTEGER NOT NULL REFERENCES events (id),
    id         INTEGER NOT NULL,
    position   INTEGER NOT NULL,
    submission TEXT NOT NULL,
    user_code  TEXT NOT NULL,
    text       TEXT NOT NULL,
    score      REAL,
    created    INTEGER NOT NULL,
    updated    INTEGER NOT NULL,
    PRIMARY KEY (event_id, id)
);
