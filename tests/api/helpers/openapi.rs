//! Reading `/api/openapi.json` in openapi.rs and v1/openapi.rs: operations,
//! `$ref`s, response schemas, and validating real answers against them
//! (the `jsonschema` crate, formats checked too).

use serde_json::{json, Value};

/// The operation of a documented path (`/api/events/{event}/talks/`).
pub fn operation<'a>(doc: &'a Value, path: &str) -> &'a Value {
    let op = &doc["paths"][path]["get"];
    assert!(op.is_object(), "{path} is not documented");
    op
}

/// Follows a `$ref` into the document's components.
pub fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference
                .strip_prefix("#/components/schemas/")
                .unwrap_or_else(|| panic!("unexpected $ref {reference}"));
            let target = &doc["components"]["schemas"][name];
            assert!(target.is_object(), "dangling $ref {reference}");
            resolve(doc, target)
        }
        None => schema,
    }
}

pub fn response_schema<'a>(doc: &'a Value, path: &str, status: u16) -> &'a Value {
    let schema = &operation(doc, path)["responses"][status.to_string()]["content"]
        ["application/json"]["schema"];
    assert!(
        schema.is_object(),
        "{path}: no JSON schema for status {status}"
    );
    schema
}

/// Validates `body` against `schema`, whose `$ref`s point into `doc`.
pub fn validation_errors(doc: &Value, schema: &Value, body: &Value) -> Vec<String> {
    let root = json!({"allOf": [schema], "components": doc["components"]});
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&root)
        .expect("the document's schemas compile");
    validator
        .iter_errors(body)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

pub fn assert_valid(doc: &Value, schema: &Value, body: &Value, context: &str) {
    let errors = validation_errors(doc, schema, body);
    assert!(
        errors.is_empty(),
        "{context}: the answer breaks the document:\n{}\n{}",
        errors.join("\n"),
        serde_json::to_string(body)
            .unwrap()
            .chars()
            .take(1500)
            .collect::<String>()
    );
}
