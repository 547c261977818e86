//! Comparing the bodies of reviews.rs, rooms.rs, tags.rs and
//! reviews_rooms_tags.rs: scores as JSON numbers, list pages, links,
//! errors, and the order of keys as sent (submissions/ uses `page_of`).

use super::Reply;
use serde_json::{json, Value};

/// Review scores are "a JSON number": `3` and `3.0` are the same score.
pub fn norm(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = match (k.as_str(), v.as_f64()) {
                        ("score", Some(f)) => json!(f),
                        _ => norm(v),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(norm).collect()),
        other => other.clone(),
    }
}

#[track_caller]
pub fn assert_json(actual: &Value, expected: &Value, what: &str) {
    let (a, e) = (norm(actual), norm(expected));
    assert!(
        a == e,
        "{what}\n  actual: {}\nexpected: {}",
        serde_json::to_string_pretty(&a).unwrap(),
        serde_json::to_string_pretty(&e).unwrap()
    );
}

pub fn empty_page() -> Value {
    json!({"count": 0, "next": null, "previous": null, "results": []})
}

/// A single page holding every result.
pub fn page_of(results: Vec<Value>) -> Value {
    json!({"count": results.len(), "next": null, "previous": null, "results": results})
}

/// A `next`/`previous` link: the same URL up to the query, and the same
/// query pairs (their order is not part of the contract).
#[track_caller]
pub fn assert_link(actual: &Value, expected: Option<&str>, what: &str) {
    match expected {
        None => assert_eq!(actual, &Value::Null, "{what}: link should be null"),
        Some(expected) => {
            let actual = actual
                .as_str()
                .unwrap_or_else(|| panic!("{what}: no link in {actual}"));
            let a = reqwest::Url::parse(actual).unwrap_or_else(|e| panic!("{what}: {actual}: {e}"));
            let e = reqwest::Url::parse(expected).unwrap();
            assert_eq!(
                (a.scheme(), a.host_str(), a.port(), a.path()),
                (e.scheme(), e.host_str(), e.port(), e.path()),
                "{what}: {actual} vs {expected}"
            );
            let mut ap: Vec<(String, String)> = a.query_pairs().into_owned().collect();
            let mut ep: Vec<(String, String)> = e.query_pairs().into_owned().collect();
            ap.sort();
            ep.sort();
            assert_eq!(ap, ep, "{what}: {actual} vs {expected}");
        }
    }
}

/// A 200 list page: envelope keys, count, links and the exact results.
#[track_caller]
pub fn assert_page(
    reply: &Reply,
    count: usize,
    next: Option<&str>,
    previous: Option<&str>,
    results: &Value,
    what: &str,
) {
    assert_eq!(reply.status, 200, "{what}: {}", reply.text);
    let mut keys: Vec<&String> = reply.body.as_object().expect("an object").keys().collect();
    keys.sort();
    assert_eq!(keys, ["count", "next", "previous", "results"], "{what}");
    assert_eq!(reply.body["count"], json!(count), "{what}: count");
    assert_link(&reply.body["next"], next, &format!("{what}: next"));
    assert_link(
        &reply.body["previous"],
        previous,
        &format!("{what}: previous"),
    );
    assert_json(&reply.body["results"], results, &format!("{what}: results"));
}

#[track_caller]
pub fn assert_error(reply: &Reply, status: u16, what: &str) {
    assert_eq!(reply.status, status, "{what}: {}", reply.text);
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "{what}"
    );
    let body = reply
        .body
        .as_object()
        .unwrap_or_else(|| panic!("{what}: not an object: {}", reply.text));
    assert_eq!(body.len(), 1, "{what}: {}", reply.text);
    assert!(body["detail"].is_string(), "{what}: {}", reply.text);
}

/// The ids of a list page's results.
pub fn ids(reply: &Reply) -> Vec<i64> {
    reply
        .result_keys("id")
        .iter()
        .map(|v| v.as_i64().expect("numeric id"))
        .collect()
}

// ---------------------------------------------------------------------------
// Field order (serde_json's `Value` sorts keys, so read them from the text)
// ---------------------------------------------------------------------------

/// The keys of a JSON object in the order they were sent.
pub struct Keys(pub Vec<String>);

impl<'de> serde::Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    map.next_value::<serde::de::IgnoredAny>()?;
                    keys.push(key);
                }
                Ok(Keys(keys))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

#[derive(serde::Deserialize)]
pub struct PageKeys {
    pub results: Vec<Keys>,
}

#[derive(serde::Deserialize)]
pub struct NestedKeys {
    #[serde(default)]
    pub availabilities: Vec<Keys>,
    #[serde(default)]
    pub answers: Vec<Keys>,
}

pub fn key_order(text: &str) -> Vec<String> {
    serde_json::from_str::<Keys>(text).expect("a JSON object").0
}

pub fn result_key_orders(text: &str) -> Vec<Vec<String>> {
    serde_json::from_str::<PageKeys>(text)
        .expect("a list page")
        .results
        .into_iter()
        .map(|k| k.0)
        .collect()
}

pub fn nested_key_orders(text: &str) -> NestedKeys {
    serde_json::from_str::<NestedKeys>(text).expect("a JSON object")
}
