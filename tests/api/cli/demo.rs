//! `confapi demo`: the synthetic datasets.

use super::*;

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
