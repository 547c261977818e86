//! `confapi export`: the stored data back as a dataset.

use super::*;

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
