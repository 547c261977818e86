//! The command line (`confapi validate|import|export|demo`), run as the real
//! binary against a temporary database (SQLite, or PostgreSQL with
//! CONFAPI_TEST_POSTGRES set). Validation rules and messages
//! follow shared/spec/dataset.md and src/dataset/validate.rs.

use crate::helpers;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use confapi::dataset::{to_json, validate::parse_value};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

// ---------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------

/// A temporary directory holding the database and the dataset files.
struct Cli {
    dir: tempfile::TempDir,
    db: helpers::TestDatabase,
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn ok(&self) -> bool {
        self.code == Some(0)
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}\n--- stderr ---\n{}\n--- stdout (start) ---\n{}",
            self.code,
            self.stderr,
            {
                let cut: String = self.stdout.chars().take(2000).collect();
                cut
            }
        )
    }
}

impl Cli {
    /// A fresh, empty database (`export` refuses a missing one).
    fn new() -> Self {
        let cli = Cli {
            dir: tempfile::tempdir().expect("temp dir"),
            db: helpers::TestDatabase::new(),
        };
        let empty = cli.write(
            "empty.json",
            &json!({"format": "cfp-dataset", "version": 1}),
        );
        cli.import_ok(&[&empty]);
        cli
    }

    fn db(&self) -> String {
        self.db.url.clone()
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Writes a dataset document to `name` in the temp dir.
    fn write(&self, name: &str, doc: &Value) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, serde_json::to_string_pretty(doc).unwrap()).expect("write dataset");
        path
    }

    fn run<S: AsRef<std::ffi::OsStr>>(&self, args: &[S]) -> Run {
        let output: Output = Command::new(env!("CARGO_BIN_EXE_confapi"))
            .args(args)
            .current_dir(self.dir.path())
            .env_remove("CONFAPI_DB")
            .env_remove("CONFAPI_LOG")
            .output()
            .expect("run confapi");
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    fn validate(&self, files: &[&Path]) -> Run {
        let mut args: Vec<String> = vec!["validate".into()];
        args.extend(files.iter().map(|f| f.display().to_string()));
        self.run(&args)
    }

    fn import(&self, files: &[&Path], dry_run: bool) -> Run {
        let mut args: Vec<String> = vec!["import".into(), "--db".into(), self.db()];
        if dry_run {
            args.push("--dry-run".into());
        }
        args.extend(files.iter().map(|f| f.display().to_string()));
        self.run(&args)
    }

    /// Imports and requires success.
    fn import_ok(&self, files: &[&Path]) {
        let run = self.import(files, false);
        assert!(run.ok(), "import {files:?} failed: {run:?}");
    }

    /// `export` (with `--event` for each slug) to standard output.
    fn export_run(&self, events: &[&str]) -> Run {
        let mut args: Vec<String> = vec!["export".into(), "--db".into(), self.db()];
        for slug in events {
            args.push("--event".into());
            args.push(slug.to_string());
        }
        self.run(&args)
    }

    /// The exported text, which must succeed.
    fn export_text(&self) -> String {
        let run = self.export_run(&[]);
        assert!(run.ok(), "export failed: {run:?}");
        run.stdout
    }

    fn export(&self) -> Value {
        serde_json::from_str(&self.export_text()).expect("export is JSON")
    }
}

fn democon_path() -> PathBuf {
    PathBuf::from(helpers::data("democon.json"))
}

fn client_friendly_path() -> PathBuf {
    PathBuf::from(helpers::data("client-friendly.json"))
}

/// A document in its normal form: validated, converted, written back
/// (tokens hashed, defaults filled in, datetimes as UTC instants), with
/// users sorted by code and events by slug (the order of those two
/// top-level lists carries no meaning; every nested order is kept).
fn normalised(doc: &Value) -> Value {
    let dataset =
        parse_value(doc).unwrap_or_else(|problems| panic!("invalid document: {problems:#?}"));
    let mut json = to_json(&dataset);
    for (list, key) in [("users", "code"), ("events", "slug")] {
        json[list]
            .as_array_mut()
            .expect(list)
            .sort_by_key(|item| item[key].as_str().unwrap_or_default().to_string());
    }
    json
}

/// democon.json without its first submission and everything that refers
/// to it (its reviews, and answers on it or on those reviews); returns the
/// document and the removed code.
fn democon_without_first_submission() -> (Value, String) {
    let mut doc = helpers::democon();
    let event = &mut doc["events"][0];
    let removed = event["submissions"][0]["code"]
        .as_str()
        .unwrap()
        .to_string();
    event["submissions"].as_array_mut().unwrap().remove(0);
    let reviews = event["reviews"].as_array().unwrap().clone();
    let review_ids: Vec<Value> = reviews
        .iter()
        .filter(|r| r["submission"] == removed.as_str())
        .map(|r| r["id"].clone())
        .collect();
    assert!(
        !review_ids.is_empty(),
        "the removed submission should have reviews"
    );
    event["reviews"] = Value::Array(
        reviews
            .into_iter()
            .filter(|r| r["submission"] != removed.as_str())
            .collect(),
    );
    let answers = event["answers"].as_array().unwrap().clone();
    event["answers"] = Value::Array(
        answers
            .into_iter()
            .filter(|a| a["submission"] != removed.as_str() && !review_ids.contains(&a["review"]))
            .collect(),
    );
    (doc, removed)
}

fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

fn event_by_slug<'a>(doc: &'a Value, slug: &str) -> &'a Value {
    doc["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["slug"] == slug)
        .unwrap_or_else(|| panic!("no event {slug}"))
}

fn slugs(doc: &Value) -> Vec<String> {
    let mut slugs: Vec<String> = doc["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["slug"].as_str().unwrap().to_string())
        .collect();
    slugs.sort();
    slugs
}

fn user_by_code<'a>(doc: &'a Value, code: &str) -> Option<&'a Value> {
    doc["users"]
        .as_array()
        .expect("users")
        .iter()
        .find(|u| u["code"] == code)
}

/// Sets the value at a JSON pointer; a pointer one past the end of a list
/// appends.
fn set(doc: &mut Value, pointer: &str, value: Value) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer");
    let target = doc
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"));
    match target {
        Value::Object(map) => {
            map.insert(key.to_string(), value);
        }
        Value::Array(items) => {
            let index: usize = key.parse().expect("index");
            if index == items.len() {
                items.push(value);
            } else {
                items[index] = value;
            }
        }
        other => panic!("{parent} is {other}"),
    }
}

fn remove(doc: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer");
    match doc
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"))
    {
        Value::Object(map) => {
            map.remove(key).unwrap_or_else(|| panic!("no {pointer}"));
        }
        Value::Array(items) => {
            items.remove(key.parse::<usize>().expect("index"));
        }
        other => panic!("{parent} is {other}"),
    }
}

// ---------------------------------------------------------------------------
// A valid base document for the validation rules
// ---------------------------------------------------------------------------

/// `helpers::mini()` plus what the answer and review rules need: question 1
/// (target speaker), question 2 (target submission, options 1 and 2),
/// question 3 (target reviewer), answers 1-3 (one per target) and review 1
/// (REV on SUB2).
///
/// users: 0 ORGA, 1 REV, 2 NOBODY, 3 SPK1, 4 SPK2 (NOBODY is referenced by
/// nothing). Submissions: 0 PUB1 (slot), 1 SUB2, 2 SUB3 (unreferenced).
fn base() -> Value {
    let mut doc = helpers::mini();
    let event = &mut doc["events"][0];
    event["questions"] = json!([
        {"id": 1, "question": "T-shirt size?", "target": "speaker"},
        {"id": 2, "question": {"en": "Level?"}, "target": "submission", "variant": "choices",
         "options": [{"id": 1, "answer": "Beginner"}, {"id": 2, "answer": "Expert"}]},
        {"id": 3, "question": "Confidence?", "target": "reviewer"}
    ]);
    event["reviews"] = json!([
        {"id": 1, "submission": "SUB2", "user": "REV", "text": "Good", "score": 2, "created": "2026-04-01T10:00:00Z"}
    ]);
    event["answers"] = json!([
        {"id": 1, "question": 2, "submission": "PUB1", "answer": "Expert", "options": [2]},
        {"id": 2, "question": 1, "person": "SPK1", "answer": "M"},
        {"id": 3, "question": 3, "review": 1, "answer": "high"}
    ]);
    doc
}

/// A second, valid event for `base()` with its own ids.
fn second_event() -> Value {
    json!({
        "slug": "mini2",
        "name": "Mini Two",
        "date_from": "2026-07-01",
        "submission_types": [{"id": 2, "name": "Lightning"}],
        "tracks": [{"id": 2, "name": "Side"}],
        "rooms": [{"id": 2, "name": "Cellar"}],
        "submissions": [{"code": "TWO1", "title": "Second", "submission_type": 2, "track": 2,
                         "created": "2026-03-01T00:00:00+01:00"}]
    })
}

/// The problem lines of a `validate` run for `file`: "path: message", in
/// output order, without the file prefix and the summary line.
fn problem_lines(run: &Run, file: &Path) -> Vec<String> {
    let prefix = format!("{}: ", file.display());
    run.stderr
        .lines()
        .filter_map(|line| line.strip_prefix(&prefix))
        .filter(|rest| !rest.ends_with("nothing was written") && !rest.contains(": valid"))
        .map(str::to_string)
        .collect()
}

/// Validates `doc` and requires exit status 1 with exactly these problems
/// (in any order), each given as (JSON path, a substring of its message).
fn assert_problems(doc: &Value, expected: &[(&str, &str)]) {
    let cli = Cli::new();
    let file = cli.write("broken.json", doc);
    let run = cli.validate(&[&file]);
    assert_eq!(run.code, Some(1), "{run:?}");
    let mut lines = problem_lines(&run, &file);
    assert_eq!(
        lines.len(),
        expected.len(),
        "expected {expected:#?}\n{run:?}"
    );
    for (path, message) in expected {
        let found = lines.iter().position(|line| {
            line.split_once(": ")
                .is_some_and(|(p, m)| p == *path && m.contains(message))
        });
        match found {
            Some(i) => {
                lines.remove(i);
            }
            None => panic!("no problem {path}: …{message}…\n{run:?}"),
        }
    }
    let summary = format!(
        "{}: {} problem(s); nothing was written",
        file.display(),
        expected.len()
    );
    assert!(
        run.stderr.contains(&summary),
        "no summary {summary:?}: {run:?}"
    );
}

fn with(changes: &[(&str, Value)]) -> Value {
    let mut doc = base();
    for (pointer, value) in changes {
        set(&mut doc, pointer, value.clone());
    }
    doc
}

// ---------------------------------------------------------------------------
// validate: valid documents
// ---------------------------------------------------------------------------

#[test]
fn validate_accepts_the_shared_and_base_datasets() {
    let cli = Cli::new();
    for file in [democon_path(), client_friendly_path()] {
        let run = cli.validate(&[&file]);
        assert_eq!(run.code, Some(0), "{}: {run:?}", file.display());
        assert!(run.stderr.contains("valid"), "{run:?}");
    }
    let base_file = cli.write("base.json", &base());
    let run = cli.validate(&[&base_file]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let mut two = base();
    set(&mut two, "/events/1", second_event());
    let two = cli.write("two.json", &two);
    let run = cli.validate(&[&two, &democon_path()]);
    assert_eq!(run.code, Some(0), "{run:?}");
    // validate writes no database.
    assert!(!cli.path("x.db").exists());
    assert!(
        !cli.path("confapi.db").exists(),
        "validate created the default database"
    );
}

// ---------------------------------------------------------------------------
// validate: one test per rule family
// ---------------------------------------------------------------------------

#[test]
fn unknown_fields_are_problems_at_every_level() {
    assert_problems(
        &with(&[
            ("/extra", json!(1)),
            ("/users/0/tokenz", json!([])),
            ("/events/0/colour", json!("red")),
            ("/events/0/submissions/0/colour", json!("red")),
            ("/events/0/submissions/0/slots/0/visible", json!(true)),
        ]),
        &[
            ("users[0].tokenz", "unknown field"),
            ("events[0].submissions[0].slots[0].visible", "unknown field"),
            ("events[0].submissions[0].colour", "unknown field"),
            ("events[0].colour", "unknown field"),
            ("extra", "unknown field"),
        ],
    );
}

#[test]
fn missing_required_fields_are_problems() {
    let mut doc = base();
    remove(&mut doc, "/users/2/email");
    remove(&mut doc, "/events/0/date_from");
    remove(&mut doc, "/events/0/submissions/2/created");
    remove(&mut doc, "/events/0/reviews/0/created");
    assert_problems(
        &doc,
        &[
            ("users[2].email", "required field is missing"),
            ("events[0].date_from", "required field is missing"),
            (
                "events[0].submissions[2].created",
                "required field is missing",
            ),
            ("events[0].reviews[0].created", "required field is missing"),
        ],
    );
    let mut doc = base();
    remove(&mut doc, "/format");
    assert_problems(&doc, &[("format", "required field is missing")]);
}

#[test]
fn wrong_types_are_problems() {
    assert_problems(
        &with(&[
            ("/users/2/name", json!(5)),
            ("/events/0/is_public", json!("yes")),
            ("/events/0/rooms/0/capacity", json!("many")),
            ("/events/0/tags/0/is_public", json!(1)),
            ("/events/0/submissions/2/duration", json!(12.5)),
            ("/events/0/reviews/0/score", json!("2")),
        ]),
        &[
            ("users[2].name", "must be a string, got 5"),
            ("events[0].is_public", "must be a boolean, got \"yes\""),
            (
                "events[0].rooms[0].capacity",
                "must be an integer, got \"many\"",
            ),
            ("events[0].tags[0].is_public", "must be a boolean, got 1"),
            ("events[0].submissions[2].duration", "must be an integer"),
            ("events[0].reviews[0].score", "must be a number"),
        ],
    );
}

#[test]
fn codes_must_be_one_to_sixteen_alphanumerics() {
    for bad in ["NO-BODY", "", "ABCDEFGHIJKLMNOPQ", "NÖBODY"] {
        assert_problems(
            &with(&[("/users/2/code", json!(bad))]),
            &[("users[2].code", "invalid code")],
        );
        assert_problems(
            &with(&[("/events/0/submissions/2/code", json!(bad))]),
            &[("events[0].submissions[2].code", "(1 to 16 of [A-Za-z0-9])")],
        );
    }
    // Sixteen is fine.
    let cli = Cli::new();
    let file = cli.write(
        "ok.json",
        &with(&[("/events/0/submissions/2/code", json!("ABCDEFGHIJKLMNOP"))]),
    );
    assert!(cli.validate(&[&file]).ok());
}

#[test]
fn slugs_must_have_their_shape() {
    for bad in [
        "-mini",
        "mini.",
        ".mini",
        "mini_conf",
        "mini conf",
        "mini/conf",
        "",
    ] {
        assert_problems(
            &with(&[("/events/0/slug", json!(bad))]),
            &[("events[0].slug", "invalid slug")],
        );
    }
    let cli = Cli::new();
    for good in ["mini.conf-2026", "M", "a.b-c.D9"] {
        let file = cli.write("ok.json", &with(&[("/events/0/slug", json!(good))]));
        let run = cli.validate(&[&file]);
        assert!(run.ok(), "{good}: {run:?}");
    }
}

#[test]
fn duplicate_slugs_and_codes_are_problems() {
    let mut two = second_event();
    two["slug"] = json!("MINI");
    assert_problems(
        &with(&[("/events/1", two)]),
        &[(
            "events[1].slug",
            "duplicate slug \"MINI\" (also at events[0])",
        )],
    );
    assert_problems(
        &with(&[("/users/2/code", json!("ORGA"))]),
        &[(
            "users[2].code",
            "duplicate user code \"ORGA\" (also at users[0])",
        )],
    );
    assert_problems(
        &with(&[("/events/0/submissions/2/code", json!("SUB2"))]),
        &[(
            "events[0].submissions[2].code",
            "duplicate submission code \"SUB2\"",
        )],
    );
}

#[test]
fn duplicate_ids_are_problems_within_and_across_events() {
    let mut two = second_event();
    two["rooms"][0]["id"] = json!(1);
    assert_problems(
        &with(&[
            ("/events/0/tracks/1", json!({"id": 1, "name": "Other"})),
            ("/events/1", two),
        ]),
        &[
            (
                "events[0].tracks[1].id",
                "duplicate track id 1 (also at events[0].tracks[0].id)",
            ),
            (
                "events[1].rooms[0].id",
                "duplicate room id 1 (also at events[0].rooms[0].id)",
            ),
        ],
    );
    // Different kinds may share numbers (base() has track 1, room 1, tag 1 ...).
    let cli = Cli::new();
    let file = cli.write("ok.json", &base());
    assert!(cli.validate(&[&file]).ok());
}

#[test]
fn duplicate_emails_are_problems_case_insensitively() {
    assert_problems(
        &with(&[("/users/4/email", json!("ADA@Mini.Example"))]),
        &[(
            "users[4].email",
            "duplicate e-mail \"ADA@Mini.Example\" (also at users[3])",
        )],
    );
}

#[test]
fn references_must_exist_in_the_same_event() {
    assert_problems(
        &with(&[
            ("/events/0/submissions/0/track", json!(99)),
            ("/events/0/submissions/1/submission_type", json!(7)),
            ("/events/0/submissions/0/slots/0/room", json!(7)),
            ("/events/0/submissions/0/tags", json!([5])),
            ("/events/0/teams/0/members/1", json!("GHOST")),
            ("/events/0/reviews/0/submission", json!("NOPE")),
            ("/events/0/answers/0/question", json!(9)),
        ]),
        &[
            (
                "events[0].teams[0].members[1]",
                "user \"GHOST\" does not exist",
            ),
            (
                "events[0].submissions[0].track",
                "track 99 does not exist in event \"mini\"",
            ),
            (
                "events[0].submissions[0].tags[0]",
                "tag 5 does not exist in event \"mini\"",
            ),
            (
                "events[0].submissions[0].slots[0].room",
                "room 7 does not exist in event \"mini\"",
            ),
            (
                "events[0].submissions[1].submission_type",
                "submission type 7 does not exist in event \"mini\"",
            ),
            (
                "events[0].reviews[0].submission",
                "submission \"NOPE\" does not exist in event \"mini\"",
            ),
            (
                "events[0].answers[0].question",
                "question 9 does not exist in event \"mini\"",
            ),
        ],
    );
}

/// Lists and objects where an id or code belongs are reported at their
/// path, like `shared/conformance/validate_dataset.py` reports them (the
/// oracle's validator once crashed on these: they are unhashable in Python).
#[test]
fn lists_and_objects_where_references_belong_are_problems() {
    assert_problems(
        &with(&[
            ("/events/0/answers/0/options", json!([[1]])),
            ("/events/0/submissions/0/track", json!({"a": 1})),
            ("/events/0/reviews/0/id", json!([1])),
            ("/events/0/reviews/0/submission", json!({"a": 1})),
            ("/events/0/submissions/1/speakers", json!([["SPK2"]])),
            ("/events/0/submissions/0/tags", json!([[1]])),
            ("/events/0/teams/0/members/1", json!({"x": 1})),
            ("/events/0/answers/2/question", json!([3])),
        ]),
        &[
            (
                "events[0].answers[0].options[0]",
                "must be an integer, got a list",
            ),
            (
                "events[0].submissions[0].track",
                "must be an integer, got an object",
            ),
            ("events[0].reviews[0].id", "got a list"),
            ("events[0].reviews[0].submission", "got an object"),
            (
                "events[0].submissions[1].speakers[0]",
                "must be a user code, got a list",
            ),
            (
                "events[0].submissions[0].tags[0]",
                "must be an integer, got a list",
            ),
            (
                "events[0].teams[0].members[1]",
                "must be a user code, got an object",
            ),
            (
                "events[0].answers[2].question",
                "must be an integer, got a list",
            ),
            // Answer 3 belongs to review 1, whose id is now broken.
            (
                "events[0].answers[2].review",
                "review 1 does not exist in event \"mini\"",
            ),
        ],
    );
}

/// The optional fields of the schedule exports (dataset.md): upstream ids,
/// slot guids, breaks, the event colour, track descriptions and positions.
#[test]
fn schedule_export_fields_are_checked() {
    let breaks = json!([
        {"id": 7, "room": 99, "start": "2026-06-01T12:00:00Z", "end": "2026-06-01T12:00:00Z"},
        {"id": 5, "start": "2026-06-01T15:00:00Z", "end": "2026-06-01T15:30:00Z", "x": 1},
        {"end": "2026-06-01T15:30:00Z", "description": "Coffee"}
    ]);
    assert_problems(
        &with(&[
            ("/users/0/id", json!(1)),
            ("/users/1/id", json!(1)),
            ("/users/2/id", json!("2")),
            ("/events/0/primary_color", json!("red")),
            ("/events/0/tracks/0/position", json!("1")),
            ("/events/0/tracks/0/description", json!(5)),
            ("/events/0/submissions/0/id", json!(3)),
            ("/events/0/submissions/1/id", json!(3)),
            ("/events/0/submissions/0/slots/0/id", json!(5)),
            ("/events/0/submissions/0/slots/0/guid", json!("nope")),
            ("/events/0/schedule/breaks", breaks),
        ]),
        &[
            ("users[1].id", "duplicate user id 1 (also at users[0].id)"),
            (
                "users[2].id",
                "must be a positive integer or null, got \"2\"",
            ),
            (
                "events[0].primary_color",
                "must be a colour #rrggbb or null, got \"red\"",
            ),
            ("events[0].tracks[0].position", "must be an integer"),
            ("events[0].tracks[0].description", "must be"),
            ("events[0].submissions[1].id", "duplicate submission id 3"),
            (
                "events[0].submissions[0].slots[0].guid",
                "must be a UUID string",
            ),
            (
                "events[0].schedule.breaks[0].room",
                "room 99 does not exist in event \"mini\"",
            ),
            ("events[0].schedule.breaks[0].end", "must be after start"),
            (
                "events[0].schedule.breaks[1].id",
                "duplicate slot id 5 (also at events[0].submissions[0].slots[0].id)",
            ),
            ("events[0].schedule.breaks[1].x", "unknown field"),
            (
                "events[0].schedule.breaks[2].start",
                "required field is missing",
            ),
        ],
    );
}

#[test]
fn schedule_export_fields_round_trip() {
    let doc = with(&[
        ("/users/0/id", json!(41)),
        ("/events/0/primary_color", json!("#3aA57c")),
        ("/events/0/tracks/0/position", json!(2)),
        (
            "/events/0/tracks/0/description",
            json!({"en": "Main track", "de": "Hauptprogramm"}),
        ),
        ("/events/0/submissions/0/id", json!(17)),
        ("/events/0/submissions/0/slots/0/id", json!(301)),
        (
            "/events/0/submissions/0/slots/0/guid",
            json!("6f1c2e0a-4b7d-4c55-9a6e-2f3b1d0c9e8a"),
        ),
        (
            "/events/0/schedule/breaks",
            json!([{"id": 302, "room": 1, "start": "2026-06-01T12:00:00+02:00",
                    "end": "2026-06-01T13:00:00+02:00", "description": "Lunch"}]),
        ),
    ]);
    let cli = Cli::new();
    let file = cli.write("fields.json", &doc);
    cli.import_ok(&[&file]);
    let exported = cli.export();
    assert_eq!(exported, normalised(&doc));
    let event = event_by_slug(&exported, "mini");
    assert_eq!(event["primary_color"], json!("#3aA57c"));
    assert_eq!(
        event["schedule"]["breaks"],
        json!([{"id": 302, "room": 1, "start": "2026-06-01T10:00:00Z", "end": "2026-06-01T11:00:00Z",
                "description": {"en": "Lunch"}}])
    );
    assert_eq!(
        event["submissions"][0]["slots"][0]["guid"],
        json!("6f1c2e0a-4b7d-4c55-9a6e-2f3b1d0c9e8a")
    );
    assert_eq!(user_by_code(&exported, "ORGA").unwrap()["id"], json!(41));
    assert_eq!(user_by_code(&exported, "REV").unwrap()["id"], Value::Null);
}

#[test]
fn texts_never_set_stay_null_through_import_and_export() {
    // pretalx's nullable texts keep null apart from {} and {"en": ""}.
    let doc = with(&[
        ("/events/0/rooms/0/description", Value::Null),
        ("/events/0/rooms/0/speaker_info", json!({"en": ""})),
        ("/events/0/tracks/0/description", Value::Null),
        ("/events/0/tags/0/description", json!({})),
    ]);
    let cli = Cli::new();
    let file = cli.write("nulls.json", &doc);
    cli.import_ok(&[&file]);
    let event = event_by_slug(&cli.export(), "mini").clone();
    assert_eq!(event["rooms"][0]["description"], Value::Null);
    assert_eq!(event["rooms"][0]["speaker_info"], json!({"en": ""}));
    assert_eq!(event["tracks"][0]["description"], Value::Null);
    assert_eq!(event["tags"][0]["description"], json!({}));
    // The export imports again to the same export.
    let first = cli.export();
    let again = cli.write("again.json", &first);
    cli.import_ok(&[&again]);
    assert_eq!(cli.export(), first);
}

#[test]
fn references_into_another_event_are_problems() {
    // Track 1 and submission type 1 exist, but in event "mini", not "mini2".
    let mut two = second_event();
    two["submissions"][0]["track"] = json!(1);
    two["submissions"][0]["submission_type"] = json!(1);
    two["reviews"] =
        json!([{"id": 2, "submission": "PUB1", "user": "REV", "created": "2026-04-01T10:00:00Z"}]);
    assert_problems(
        &with(&[("/events/1", two)]),
        &[
            (
                "events[1].submissions[0].submission_type",
                "submission type 1 does not exist in event \"mini2\"",
            ),
            (
                "events[1].submissions[0].track",
                "track 1 does not exist in event \"mini2\"",
            ),
            (
                "events[1].reviews[0].submission",
                "submission \"PUB1\" does not exist in event \"mini2\"",
            ),
        ],
    );
}

#[test]
fn answers_must_match_their_questions_target() {
    assert_problems(
        &with(&[(
            "/events/0/answers/0",
            json!({"id": 1, "question": 2, "person": "SPK1", "answer": "x"}),
        )]),
        &[(
            "events[0].answers[0].person",
            "question 2 has target \"submission\", so the answer must set \"submission\"",
        )],
    );
    assert_problems(
        &with(&[(
            "/events/0/answers/1",
            json!({"id": 2, "question": 1, "review": 1}),
        )]),
        &[(
            "events[0].answers[1].review",
            "question 1 has target \"speaker\", so the answer must set \"person\"",
        )],
    );
    assert_problems(
        &with(&[("/events/0/answers/2", json!({"id": 3, "question": 3}))]),
        &[(
            "events[0].answers[2]",
            "exactly one of submission, person, review must be set (got none)",
        )],
    );
    assert_problems(
        &with(&[(
            "/events/0/answers/2",
            json!({"id": 3, "question": 3, "review": 1, "submission": "SUB2"}),
        )]),
        &[(
            "events[0].answers[2]",
            "exactly one of submission, person, review must be set (got submission, review)",
        )],
    );
    assert_problems(
        &with(&[("/events/0/answers/0/options", json!([2, 7]))]),
        &[(
            "events[0].answers[0].options[1]",
            "option 7 is not an option of question 2",
        )],
    );
}

#[test]
fn speakers_need_a_profile_in_the_event() {
    assert_problems(
        &with(&[(
            "/events/0/submissions/2/speakers",
            json!(["SPK1", "SPK2", "NOBODY"]),
        )]),
        &[(
            "events[0].submissions[2].speakers[2]",
            "speaker \"NOBODY\" has no speaker profile in event \"mini\"",
        )],
    );
    assert_problems(
        &with(&[("/events/0/answers/1/person", json!("REV"))]),
        &[(
            "events[0].answers[1].person",
            "user \"REV\" has no speaker profile in event \"mini\"",
        )],
    );
}

#[test]
fn slots_need_a_released_schedule() {
    assert_problems(
        &with(&[("/events/0/schedule", Value::Null)]),
        &[(
            "events[0].submissions[0].slots",
            "event \"mini\" has no released schedule, so no slots are allowed",
        )],
    );
    // Without slots, no schedule is fine.
    let mut doc = with(&[("/events/0/schedule", Value::Null)]);
    set(&mut doc, "/events/0/submissions/0/slots", json!([]));
    let cli = Cli::new();
    let file = cli.write("ok.json", &doc);
    assert!(cli.validate(&[&file]).ok());
}

#[test]
fn time_zones_must_be_iana_names() {
    assert_problems(
        &with(&[
            ("/events/0/timezone", json!("Europe/Atlantis")),
            ("/users/0/timezone", json!("Mars/Olympus")),
        ]),
        &[
            ("users[0].timezone", "unknown time zone \"Mars/Olympus\""),
            (
                "events[0].timezone",
                "unknown time zone \"Europe/Atlantis\"",
            ),
        ],
    );
}

#[test]
fn datetimes_need_an_offset() {
    assert_problems(
        &with(&[
            (
                "/events/0/submissions/0/created",
                json!("2026-03-01T12:00:00"),
            ),
            (
                "/events/0/submissions/0/slots/0/start",
                json!("2026-06-01 10:00"),
            ),
            ("/events/0/reviews/0/updated", json!("2026-04-01")),
            ("/events/0/schedule/published", json!(1234567890)),
        ]),
        &[
            (
                "events[0].schedule.published",
                "must be a datetime string with offset",
            ),
            (
                "events[0].submissions[0].created",
                "invalid datetime \"2026-03-01T12:00:00\" (RFC 3339 with offset required)",
            ),
            (
                "events[0].submissions[0].slots[0].start",
                "invalid datetime \"2026-06-01 10:00\"",
            ),
            (
                "events[0].reviews[0].updated",
                "invalid datetime \"2026-04-01\"",
            ),
        ],
    );
}

#[test]
fn token_hashes_must_be_sha256_hex() {
    let upper = format!("sha256:{}", sha256_hex("abc").to_uppercase());
    let short = format!("sha256:{}", &sha256_hex("abc")[1..]);
    let other = format!("md5:{}", sha256_hex("abc"));
    let good = format!("sha256:{}", sha256_hex("abc"));
    assert_problems(
        &with(&[(
            "/users/2/token_hashes",
            json!([good, upper, short, other, 12]),
        )]),
        &[
            (
                "users[2].token_hashes[1]",
                "must be sha256:<64 lower-case hex digits>",
            ),
            (
                "users[2].token_hashes[2]",
                "must be sha256:<64 lower-case hex digits>",
            ),
            (
                "users[2].token_hashes[3]",
                "must be sha256:<64 lower-case hex digits>",
            ),
            (
                "users[2].token_hashes[4]",
                "must be sha256:<64 lower-case hex digits>",
            ),
        ],
    );
    // A clear token and the hash of the same token are one token twice.
    assert_problems(
        &with(&[(
            "/users/2/token_hashes",
            json!([format!("sha256:{}", sha256_hex("orga-token"))]),
        )]),
        &[(
            "users[2].token_hashes[0]",
            "duplicate token hash (also at users[0].tokens[0])",
        )],
    );
}

#[test]
fn one_user_may_review_a_submission_only_once() {
    assert_problems(
        &with(&[(
            "/events/0/reviews/1",
            json!({"id": 2, "submission": "SUB2", "user": "REV", "created": "2026-04-02T10:00:00Z"}),
        )]),
        &[(
            "events[0].reviews[1]",
            "second review by \"REV\" of \"SUB2\" (also at events[0].reviews[0])",
        )],
    );
    // Another reviewer, or another submission, is fine.
    let cli = Cli::new();
    let file = cli.write(
        "ok.json",
        &with(&[(
            "/events/0/reviews/1",
            json!({"id": 2, "submission": "SUB3", "user": "REV", "created": "2026-04-02T10:00:00Z"}),
        )]),
    );
    assert!(cli.validate(&[&file]).ok());
}

#[test]
fn invalid_json_is_one_problem_at_the_root() {
    let cli = Cli::new();
    let file = cli.path("syntax.json");
    std::fs::write(&file, "{\"format\": \"cfp-dataset\",\n \"version\": 1,,}").unwrap();
    let run = cli.validate(&[&file]);
    assert_eq!(run.code, Some(1), "{run:?}");
    let lines = problem_lines(&run, &file);
    assert_eq!(lines.len(), 1, "{run:?}");
    assert!(lines[0].starts_with("$: invalid JSON at line 2"), "{run:?}");
}

#[test]
fn validate_lists_every_problem_of_every_file() {
    let cli = Cli::new();
    let mut first = base();
    set(&mut first, "/events/0/submissions/0/track", json!(99));
    set(&mut first, "/users/4/email", json!("ada@MINI.example"));
    set(&mut first, "/events/0/timezone", json!("Nowhere"));
    set(
        &mut first,
        "/events/0/submissions/1/created",
        json!("2026-03-02T12:00"),
    );
    remove(&mut first, "/events/0/name");
    let first = cli.write("first.json", &first);
    let mut second = helpers::democon();
    set(&mut second, "/events/0/submissions/3/track", json!(4242));
    set(&mut second, "/events/1/slug", json!("bad slug"));
    let second = cli.write("second.json", &second);
    let good = client_friendly_path();

    let run = cli.validate(&[&first, &good, &second]);
    assert_eq!(run.code, Some(1), "{run:?}");
    let first_lines = problem_lines(&run, &first);
    for expected in [
        "users[4].email: duplicate e-mail",
        "events[0].name: required field is missing",
        "events[0].timezone: unknown time zone \"Nowhere\"",
        "events[0].submissions[0].track: track 99 does not exist in event \"mini\"",
        "events[0].submissions[1].created: invalid datetime",
    ] {
        assert!(
            first_lines.iter().any(|l| l.starts_with(expected)),
            "{expected:?} missing: {run:?}"
        );
    }
    assert_eq!(first_lines.len(), 5, "{run:?}");
    let second_lines = problem_lines(&run, &second);
    for expected in [
        "events[0].submissions[3].track: track 4242 does not exist in event \"democon\"",
        "events[1].slug: invalid slug \"bad slug\"",
    ] {
        assert!(
            second_lines.iter().any(|l| l.starts_with(expected)),
            "{expected:?} missing: {run:?}"
        );
    }
    assert_eq!(second_lines.len(), 2, "{run:?}");
    assert!(problem_lines(&run, &good).is_empty(), "{run:?}");
}

// ---------------------------------------------------------------------------
// import
// ---------------------------------------------------------------------------

#[test]
fn a_broken_import_leaves_the_database_unchanged() {
    let cli = Cli::new();
    cli.import_ok(&[&democon_path()]);
    let before = cli.export_text();

    // A modified copy: one submission fewer, a renamed event, a new user ...
    // and one bad reference.
    let mut broken = helpers::democon();
    remove(&mut broken, "/events/0/submissions/0");
    set(&mut broken, "/events/0/name", json!({"en": "Renamed"}));
    set(&mut broken, "/users/0/name", json!("Renamed Admin"));
    let next = broken["users"].as_array().unwrap().len();
    set(
        &mut broken,
        &format!("/users/{next}"),
        json!({"code": "NEWUSER", "name": "New", "email": "new@example.org"}),
    );
    set(&mut broken, "/events/1/submissions/0/track", json!(4242));
    let file = cli.write("broken.json", &broken);

    let run = cli.import(&[&file], false);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stderr.contains(
            "events[1].submissions[0].track: track 4242 does not exist in event \"privcon\""
        ),
        "{run:?}"
    );
    assert!(run.stderr.contains("nothing was written"), "{run:?}");
    assert_eq!(cli.export_text(), before, "the database changed");
}

#[test]
fn one_broken_file_among_several_writes_nothing() {
    let cli = Cli::new();
    let mut broken = helpers::load_json(&client_friendly_path().display().to_string());
    set(&mut broken, "/events/0/date_from", json!("2026-02-30"));
    let file = cli.write("broken.json", &broken);
    let run = cli.import(&[&democon_path(), &file], false);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stderr.contains("events[0].date_from: invalid date"),
        "{run:?}"
    );
    let export = cli.export();
    assert_eq!(
        export["events"],
        json!([]),
        "democon.json was imported although another file was broken"
    );
    assert_eq!(export["users"], json!([]));
}

#[test]
fn import_dry_run_writes_nothing() {
    let cli = Cli::new();
    // On an empty database.
    let run = cli.import(&[&democon_path()], true);
    assert!(run.ok(), "{run:?}");
    let export = cli.export();
    assert_eq!(export["events"], json!([]), "a dry run imported events");
    assert_eq!(export["users"], json!([]), "a dry run imported users");

    // On a loaded database, with a changed document.
    cli.import_ok(&[&client_friendly_path()]);
    let before = cli.export_text();
    let (changed, _) = democon_without_first_submission();
    let changed = cli.write("changed.json", &changed);
    let run = cli.import(&[&changed], true);
    assert!(run.ok(), "{run:?}");
    assert_eq!(cli.export_text(), before, "a dry run changed the database");

    // A dry run of a broken file fails.
    let mut broken = helpers::democon();
    set(&mut broken, "/events/0/timezone", json!("Nowhere"));
    let broken = cli.write("broken.json", &broken);
    let run = cli.import(&[&broken], true);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stderr.contains("events[0].timezone: unknown time zone"),
        "{run:?}"
    );
    assert_eq!(cli.export_text(), before);
}

/// The same bytes as the import that left the database as it is: nothing
/// to parse, nothing to write. Any other import in between (of another
/// file, or a dry run aside) makes the file count again.
#[test]
fn reimporting_the_same_file_is_recognised_without_parsing_it() {
    const SAME: &str = "the same bytes as the import that wrote it";
    let cli = Cli::new();
    let file = cli.write("democon.json", &helpers::democon());
    let first = cli.import(&[&file], false);
    assert!(first.ok() && !first.stderr.contains(SAME), "{first:?}");
    let again = cli.import(&[&file], false);
    assert!(again.ok() && again.stderr.contains(SAME), "{again:?}");
    let before = cli.export_text();

    // Another file changes the event; the first one is read again and
    // writes the change back.
    let (changed, _) = democon_without_first_submission();
    let changed = cli.write("changed.json", &changed);
    cli.import_ok(&[&changed]);
    let back = cli.import(&[&file], false);
    assert!(back.ok() && !back.stderr.contains(SAME), "{back:?}");
    assert!(back.stderr.contains("record(s) written"), "{back:?}");
    assert_eq!(cli.export_text(), before);

    // A dry run is always read (it validates).
    let dry = cli.import(&[&file], true);
    assert!(dry.ok() && dry.stderr.contains("dry run"), "{dry:?}");
    // Two files are one import: their digest is not either file's.
    let empty = cli.write("none.json", &json!({"format": "cfp-dataset", "version": 1}));
    let both = cli.import(&[&file, &empty], false);
    assert!(both.ok() && !both.stderr.contains(SAME), "{both:?}");
    let both = cli.import(&[&file, &empty], false);
    assert!(both.ok() && both.stderr.contains(SAME), "{both:?}");
}

#[test]
fn reimporting_an_event_replaces_it_and_leaves_other_events_alone() {
    let cli = Cli::new();
    cli.import_ok(&[&democon_path(), &client_friendly_path()]);
    let before = cli.export();
    let privcon_before = event_by_slug(&before, "privcon").clone();
    let clientcon_before = event_by_slug(&before, "clientcon").clone();

    // New version of democon only: without its first submission (and what
    // refers to it), renamed, with a changed and a new user.
    let (mut doc, removed) = democon_without_first_submission();
    doc["events"][0]["name"] = json!({"en": "DemoCon Reloaded"});
    doc["events"]
        .as_array_mut()
        .unwrap()
        .retain(|e| e["slug"] == "democon");
    let admin_index = doc["users"]
        .as_array()
        .unwrap()
        .iter()
        .position(|u| u["code"] == "LVQBAN")
        .unwrap();
    doc["users"][admin_index]["name"] = json!("Renamed Admin");
    doc["users"]
        .as_array_mut()
        .unwrap()
        .push(json!({"code": "NEWUSER", "name": "New User", "email": "new@example.org"}));
    let file = cli.write("democon-v2.json", &doc);
    cli.import_ok(&[&file]);

    let after = cli.export();
    assert_eq!(slugs(&after), vec!["clientcon", "democon", "privcon"]);
    let democon_after = event_by_slug(&after, "democon");
    assert_eq!(democon_after["name"], json!({"en": "DemoCon Reloaded"}));
    let codes: Vec<&str> = democon_after["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["code"].as_str().unwrap())
        .collect();
    assert!(
        !codes.contains(&removed.as_str()),
        "{removed} survived the re-import"
    );
    assert_eq!(codes.len(), 65);
    // The new democon is exactly the imported document.
    assert_eq!(democon_after, event_by_slug(&normalised(&doc), "democon"));
    // Other events are untouched.
    assert_eq!(event_by_slug(&after, "privcon"), &privcon_before);
    assert_eq!(event_by_slug(&after, "clientcon"), &clientcon_before);
    // Users are upserted: changed, added, and the others kept.
    assert_eq!(
        user_by_code(&after, "LVQBAN").unwrap()["name"],
        "Renamed Admin"
    );
    assert_eq!(
        user_by_code(&after, "NEWUSER").unwrap()["email"],
        "new@example.org"
    );
    assert!(
        user_by_code(&after, "CFORGA").is_some(),
        "a user of clientcon vanished"
    );
    assert_eq!(
        after["users"].as_array().unwrap().len(),
        before["users"].as_array().unwrap().len() + 1
    );
}

#[test]
fn several_files_import_together() {
    let cli = Cli::new();
    cli.import_ok(&[&democon_path(), &client_friendly_path()]);
    let export = cli.export();
    assert_eq!(slugs(&export), vec!["clientcon", "democon", "privcon"]);
    let expected_democon = normalised(&helpers::democon());
    let expected_clients = normalised(&helpers::load_json(
        &client_friendly_path().display().to_string(),
    ));
    assert_eq!(
        event_by_slug(&export, "democon"),
        event_by_slug(&expected_democon, "democon")
    );
    assert_eq!(
        event_by_slug(&export, "clientcon"),
        event_by_slug(&expected_clients, "clientcon")
    );
    assert!(user_by_code(&export, "CFORGA").is_some() && user_by_code(&export, "G8VYPY").is_some());
}

#[test]
fn the_same_event_slug_in_two_files_is_an_error() {
    let cli = Cli::new();
    // client-friendly.json renamed to democon (in another letter case).
    let mut clash = helpers::load_json(&client_friendly_path().display().to_string());
    set(&mut clash, "/events/0/slug", json!("DemoCon"));
    let clash = cli.write("clash.json", &clash);
    let run = cli.import(&[&democon_path(), &clash], false);
    assert_eq!(run.code, Some(1), "{run:?}");
    let line = format!("{}: events[0].slug: ", clash.display());
    assert!(
        run.stderr
            .lines()
            .any(|l| l.starts_with(&line) && l.contains("DemoCon")),
        "{run:?}"
    );
    assert_eq!(cli.export()["events"], json!([]), "something was imported");
    // Each file is valid on its own.
    assert!(cli.validate(&[&clash]).ok());
    // The same file twice is the same clash.
    let run = cli.import(&[&democon_path(), &democon_path()], false);
    assert_eq!(run.code, Some(1), "{run:?}");
    let run = cli.validate(&[&democon_path(), &democon_path()]);
    assert_eq!(run.code, Some(1), "{run:?}");
}

// ---------------------------------------------------------------------------
// export
// ---------------------------------------------------------------------------

#[test]
fn export_after_import_gives_back_an_equivalent_document() {
    let cli = Cli::new();
    cli.import_ok(&[&democon_path()]);
    let text = cli.export_text();
    let exported: Value = serde_json::from_str(&text).expect("JSON");
    let original = helpers::democon();
    assert_eq!(normalised(&exported), normalised(&original));
    // Written in normal form: every default filled in, hashes, UTC instants.
    assert_eq!(
        to_json(&parse_value(&exported).expect("export validates")),
        exported
    );

    // Tokens only as hashes, never in clear.
    for token in [
        helpers::democon_tokens::ADMIN,
        helpers::democon_tokens::ORGA,
        helpers::democon_tokens::REVIEWER,
        helpers::democon_tokens::TRACK_REVIEWER,
    ] {
        assert!(!text.contains(token), "a clear token in the export");
        assert!(
            text.contains(&format!("\"sha256:{}\"", sha256_hex(token))),
            "no hash of {token}"
        );
    }
    let orga = user_by_code(&exported, "G8VYPY").unwrap();
    assert!(orga.get("tokens").is_none_or(|t| t == &json!([])), "{orga}");
    assert_eq!(
        orga["token_hashes"],
        json!([format!(
            "sha256:{}",
            sha256_hex(helpers::democon_tokens::ORGA)
        )])
    );

    // The export validates and imports again to the same state.
    let again = cli.write("again.json", &exported);
    assert!(cli.validate(&[&again]).ok());
    let other = Cli::new();
    other.import_ok(&[&again]);
    assert_eq!(other.export_text(), text);
}

#[test]
fn export_round_trips_the_base_document_with_defaults_and_plain_strings() {
    let cli = Cli::new();
    let doc = base();
    let file = cli.write("base.json", &doc);
    cli.import_ok(&[&file]);
    let exported = cli.export();
    assert_eq!(normalised(&exported), normalised(&doc));
    // Defaults are filled in, plain strings are i18n objects, datetimes are
    // instants (the slot given as +02:00 is the same instant).
    let event = event_by_slug(&exported, "mini");
    assert_eq!(event["locale"], "en");
    assert_eq!(event["show_schedule"], true);
    assert_eq!(
        event["questions"][0]["question"],
        json!({"en": "T-shirt size?"})
    );
    assert_eq!(event["questions"][0]["variant"], "string");
    assert_eq!(
        event["reviews"][0]["updated"],
        event["reviews"][0]["created"]
    );
    let start = event["submissions"][0]["slots"][0]["start"]
        .as_str()
        .unwrap();
    let instant = chrono::DateTime::parse_from_rfc3339(start).expect("RFC 3339");
    assert_eq!(
        instant,
        chrono::DateTime::parse_from_rfc3339("2026-06-01T08:00:00Z").unwrap()
    );
}

#[test]
fn export_of_one_event() {
    let cli = Cli::new();
    cli.import_ok(&[&democon_path(), &client_friendly_path()]);
    let run = cli.export_run(&["democon"]);
    assert!(run.ok(), "{run:?}");
    let only: Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(slugs(&only), vec!["democon"]);
    assert_eq!(
        event_by_slug(&only, "democon"),
        event_by_slug(&normalised(&helpers::democon()), "democon")
    );
    // Users needed by the event are there, so the export imports on its own.
    let file = cli.write("only.json", &only);
    assert!(cli.validate(&[&file]).ok());

    let run = cli.export_run(&["clientcon", "privcon"]);
    assert!(run.ok(), "{run:?}");
    let two: Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(slugs(&two), vec!["clientcon", "privcon"]);

    // To a file with -o.
    let out = cli.path("out.json");
    let run = cli.run(&[
        "export",
        "--db",
        &cli.db(),
        "--event",
        "clientcon",
        "-o",
        &out.display().to_string(),
    ]);
    assert!(run.ok(), "{run:?}");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(slugs(&written), vec!["clientcon"]);
}

#[test]
fn export_of_an_unknown_event_fails() {
    let cli = Cli::new();
    cli.import_ok(&[&democon_path()]);
    let run = cli.export_run(&["nope"]);
    assert_ne!(run.code, Some(0), "{run:?}");
    assert!(run.stderr.contains("nope"), "{run:?}");
    let run = cli.export_run(&["democon", "nope"]);
    assert_ne!(run.code, Some(0), "{run:?}");
}

// ---------------------------------------------------------------------------
// demo
// ---------------------------------------------------------------------------

fn demo(cli: &Cli, name: &str, seed: &str) -> (PathBuf, Run) {
    let out = cli.path(name);
    let run = cli.run(&[
        "demo",
        "--events",
        "2",
        "--submissions",
        "50",
        "--seed",
        seed,
        "-o",
        &out.display().to_string(),
    ]);
    assert!(run.ok(), "{run:?}");
    (out, run)
}

#[test]
fn demo_output_is_valid_and_deterministic() {
    let cli = Cli::new();
    let (first, _) = demo(&cli, "first.json", "1");
    let (second, _) = demo(&cli, "second.json", "1");
    let (other, _) = demo(&cli, "other.json", "2");
    let run = cli.validate(&[&first]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let first_bytes = std::fs::read(&first).unwrap();
    assert_eq!(
        first_bytes,
        std::fs::read(&second).unwrap(),
        "the same seed gave different files"
    );
    assert_ne!(
        first_bytes,
        std::fs::read(&other).unwrap(),
        "the seed changes nothing"
    );

    let doc: Value = serde_json::from_slice(&first_bytes).unwrap();
    let events = doc["events"].as_array().unwrap();
    assert_eq!(events.len(), 2);
    for event in events {
        assert_eq!(
            event["submissions"].as_array().unwrap().len(),
            50,
            "{}",
            event["slug"]
        );
    }
    // And it imports.
    cli.import_ok(&[&first]);
    assert_eq!(cli.export()["events"].as_array().unwrap().len(), 2);
}

#[test]
fn demo_lists_logins_whose_tokens_belong_to_their_users() {
    let cli = Cli::new();
    let (file, run) = demo(&cli, "demo.json", "1");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let header = run
        .stderr
        .find("logins")
        .unwrap_or_else(|| panic!("no logins: {run:?}"));
    let logins: Vec<(String, String)> = run.stderr[header..]
        .lines()
        .skip(1)
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            (words.len() == 3 && words[1].contains('@'))
                .then(|| (words[1].to_string(), words[2].to_string()))
        })
        .collect();
    assert!(!logins.is_empty(), "no login lines: {run:?}");
    for (email, token) in &logins {
        assert!(!token.is_empty());
        let user = doc["users"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["email"] == email.as_str())
            .unwrap_or_else(|| panic!("{email} is not a user of the demo"));
        let hash = format!("sha256:{}", sha256_hex(token));
        let has_token = user["token_hashes"]
            .as_array()
            .is_some_and(|h| h.contains(&json!(hash)))
            || user["tokens"]
                .as_array()
                .is_some_and(|t| t.contains(&json!(token)));
        assert!(has_token, "{email}: the listed token is not theirs");
    }
    // The same seed lists the same logins.
    let (_, again) = demo(&cli, "again.json", "1");
    assert!(again.stderr.contains(&logins[0].1), "{again:?}");
}

/// `confapi import` of a file that changed only some submissions' texts
/// since it was imported last writes those alone and says so; the data
/// is then what the whole import leaves, and a bad text is named with
/// its path by the whole validation.
#[test]
fn an_import_that_changes_only_texts_writes_those_submissions_alone() {
    let cli = Cli::new();
    let mut doc = base();
    let file = cli.write("base.json", &doc);
    cli.import_ok(&[&file]);
    set(
        &mut doc,
        "/events/0/submissions/1/title",
        json!("A retitled proposal"),
    );
    set(
        &mut doc,
        "/events/0/submissions/2/notes",
        json!("new notes"),
    );
    let file = cli.write("base.json", &doc);
    let run = cli.import(&[&file], false);
    assert!(run.ok(), "{run:?}");
    assert!(
        run.stderr
            .contains("3 record(s) written, event(s) changed: mini (generation 2; only the submissions whose texts changed were read)"),
        "{run:?}"
    );
    assert_eq!(normalised(&cli.export()), normalised(&doc));
    set(&mut doc, "/events/0/submissions/1/title", json!(7));
    let bad = cli.write("base.json", &doc);
    let run = cli.import(&[&bad], false);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert_eq!(
        problem_lines(&run, &bad),
        vec!["events[0].submissions[1].title: must be a string, got 7"]
    );
    // Nothing was written: the last good file's data.
    set(
        &mut doc,
        "/events/0/submissions/1/title",
        json!("A retitled proposal"),
    );
    assert_eq!(normalised(&cli.export()), normalised(&doc));
}
