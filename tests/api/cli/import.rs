//! `confapi import`: what a broken import leaves (nothing), dry runs, and
//! re-imports, recognised unchanged or replacing their events.

use super::*;

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
