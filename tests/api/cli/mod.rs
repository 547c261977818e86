//! The command line (`confapi validate|import|export|demo`), run as the real
//! binary against a temporary database (SQLite, or PostgreSQL with
//! CONFAPI_TEST_POSTGRES set). Validation rules and messages
//! follow shared/spec/dataset.md and src/dataset/validate/.

use crate::helpers;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use confapi::dataset::{to_json, validate::parse_value};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

mod demo;
mod export;
mod import;
mod validate;

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
