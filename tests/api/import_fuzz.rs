//! The importer under mutated datasets (property tests): wrong types, lists
//! and objects where ids belong, missing and unknown fields, huge and
//! unusual strings, deep nesting. Validation never panics; a rejected
//! document gets problems with JSON paths that lead into the document; an
//! accepted one round-trips through export; a failed import changes nothing.

use crate::helpers;

use confapi::dataset::{to_json, validate::parse_value};
use confapi::storage;
use proptest::prelude::*;
use serde_json::{json, Value};

fn democon() -> &'static Value {
    static DOC: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    DOC.get_or_init(helpers::democon)
}

/// Every JSON pointer in the document, parents before children.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                pointers(
                    child,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn all_pointers() -> &'static [String] {
    static POINTERS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    POINTERS.get_or_init(|| {
        let mut out = Vec::new();
        pointers(democon(), String::new(), &mut out);
        out
    })
}

fn nested(depth: usize) -> Value {
    (0..depth).fold(json!(1), |inner, i| {
        if i % 2 == 0 {
            json!([inner])
        } else {
            json!({ "x": inner })
        }
    })
}

/// What to put where a value was.
fn replacement() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(json!(true)),
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(1.5)),
        Just(json!(i64::MAX)),
        Just(json!(u64::MAX)),
        Just(json!(-1e300)),
        Just(json!("")),
        Just(json!([])),
        Just(json!([[1]])),
        Just(json!({})),
        Just(json!({"a": 1})),
        "\\PC{0,40}".prop_map(Value::String),
        (1usize..200_000).prop_map(|n| Value::String("ä\u{1F600}\u{0}\u{202E}x".repeat(n / 8 + 1))),
        (1usize..400).prop_map(nested),
    ]
}

#[derive(Debug, Clone)]
enum Mutation {
    Replace(usize, Value),
    Remove(usize),
    AddField(usize, String, Value),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let n = all_pointers().len();
    prop_oneof![
        (0..n, replacement()).prop_map(|(i, v)| Mutation::Replace(i, v)),
        (1..n).prop_map(Mutation::Remove),
        (0..n, "[a-z_]{1,12}", replacement()).prop_map(|(i, k, v)| Mutation::AddField(i, k, v)),
    ]
}

fn apply(doc: &mut Value, mutation: &Mutation) {
    let pointers = all_pointers();
    match mutation {
        Mutation::Replace(i, value) => {
            if let Some(slot) = doc.pointer_mut(&pointers[*i]) {
                *slot = value.clone();
            }
        }
        Mutation::Remove(i) => {
            let pointer = &pointers[*i];
            let (parent, last) = pointer.rsplit_once('/').expect("not the root");
            match doc.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.remove(&last.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(items)) => {
                    if let Ok(i) = last.parse::<usize>() {
                        if i < items.len() {
                            items.remove(i);
                        }
                    }
                }
                _ => {}
            }
        }
        Mutation::AddField(i, key, value) => {
            if let Some(Value::Object(map)) = doc.pointer_mut(&pointers[*i]) {
                map.insert(key.clone(), value.clone());
            }
        }
    }
}

/// The top-level key a problem path starts with (`events[0].slug` → `events`).
fn head(path: &str) -> &str {
    path.split(['.', '[']).next().unwrap_or(path)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 192,
        failure_persistence: None,
        .. ProptestConfig::default()
    })]

    #[test]
    fn mutated_datasets_get_problems_with_paths_never_a_panic(
        mutations in proptest::collection::vec(mutation(), 1..4)
    ) {
        let mut doc = democon().clone();
        for m in &mutations {
            apply(&mut doc, m);
        }
        match parse_value(&doc) {
            Err(problems) => {
                prop_assert!(!problems.is_empty());
                for problem in &problems {
                    prop_assert!(!problem.message.is_empty());
                    let top = head(&problem.path);
                    let known = top == "$"
                        || doc.get(top).is_some()
                        || ["format", "version", "users", "events"].contains(&top);
                    prop_assert!(known, "path {:?} leads nowhere", problem.path);
                    // Messages quote values cut short: never a whole huge string.
                    prop_assert!(problem.message.len() < 2_000, "{} chars", problem.message.len());
                }
            }
            Ok(dataset) => {
                // Accepted: the normal form is a fixed point of export + import.
                let exported = to_json(&dataset);
                let again = parse_value(&exported).expect("an export is valid");
                prop_assert_eq!(to_json(&again), exported);
            }
        }
    }
}

/// The text form too: truncated, corrupted and deeply nested JSON is one
/// problem at `$`, never a panic or a stack overflow.
#[test]
fn broken_json_text_is_one_problem_at_the_root() {
    let text = democon().to_string();
    let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    for broken in [
        &text[..text.len() / 2],
        &text[..text.len() - 1],
        &text.replacen(':', "", 1),
        &deep,
        "",
        "\u{feff}{}",
    ] {
        let problems = confapi::dataset::validate::parse_str(broken).expect_err("broken");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].path, "$");
    }
}

/// A failed import (the database refuses the data) leaves it as it was.
#[tokio::test]
async fn a_refused_import_changes_nothing() {
    let db = helpers::TestDatabase::new();
    let store = storage::open(&db.url).await.unwrap();
    let mut first = democon().clone();
    first["users"]
        .as_array_mut()
        .unwrap()
        .push(json!({"code": "LONER", "name": "L", "email": "loner@example.org"}));
    store
        .import(&parse_value(&first).unwrap(), None)
        .await
        .unwrap();
    let before = to_json(&store.export(&[]).await.unwrap());
    let version = store.version().await.unwrap();

    // Valid on its own, but a new user takes the stored LONER's address,
    // and an event changes too: neither may be written.
    let mut doc = democon().clone();
    doc["users"]
        .as_array_mut()
        .unwrap()
        .push(json!({"code": "INTRUDER", "name": "X", "email": "Loner@example.org"}));
    doc["events"][0]["name"] = json!("Renamed");
    let clash = parse_value(&doc).unwrap_or_else(|p| panic!("{p:?}"));
    assert!(store.import(&clash, None).await.is_err());
    assert_eq!(to_json(&store.export(&[]).await.unwrap()), before);
    assert_eq!(store.version().await.unwrap(), version);
}
