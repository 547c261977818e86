//! `GET /api/openapi.json` describes what the server does: every operation
//! has a real 200 schema (lists in the pagination envelope, role-dependent
//! bodies as one closed variant per role) and an error body for each error
//! status; and real answers of every endpoint, for every role, validate
//! against it (the `jsonschema` crate, formats checked too).
//! The v1 document is checked in v1/openapi.rs, with the same helpers
//! (helpers/openapi.rs). Schemathesis fuzzes the same document in
//! scripts/test.

use serde_json::{json, Value};

use crate::helpers::openapi::*;
use crate::helpers::*;

fn properties(schema: &Value) -> Vec<String> {
    schema["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn every_operation_has_real_schemas_for_its_answers() {
    let server = TestServer::start(&[mini()]).await;
    // Without a `Pretalx-Version`, the server's default: legacy.
    let doc = server.anon().ok("/api/openapi.json").await;
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(
        doc,
        server.anon().ok("/api/openapi.json?version=LEGACY").await
    );
    let root = server.anon().ok("/api/").await;
    let all: Vec<String> = root["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap().to_string())
        .collect();
    // The legacy document has every path but v1's own ones, which the
    // legacy dialect does not serve; both documents together have them all.
    let paths: Vec<String> = doc["paths"].as_object().unwrap().keys().cloned().collect();
    let v1_doc = server.anon().ok("/api/openapi.json?version=v1").await;
    let mut union: Vec<String> = paths
        .iter()
        .chain(v1_doc["paths"].as_object().unwrap().keys())
        .cloned()
        .collect();
    union.sort();
    union.dedup();
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(union, sorted, "/api/ lists every path of the two documents");
    assert!(!paths.contains(&"/api/events/{event}/slots/".to_string()));
    // Only the header values whose answers this document describes: the
    // versioned ones answer in another document's shapes.
    assert_eq!(
        doc["components"]["parameters"]["PretalxVersion"]["schema"]["enum"],
        json!(["LEGACY", ""])
    );
    assert_eq!(
        doc["components"]["parameters"]["PretalxVersion"]["required"],
        false
    );
    let mut lists = 0;
    for path in &paths {
        let op = operation(&doc, path);
        let ok = resolve(&doc, response_schema(&doc, path, 200));
        let is_list = op["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "page");
        if is_list {
            lists += 1;
            // The envelope, all four keys required, nothing else.
            assert_eq!(ok["type"], "object", "{path}");
            let mut required: Vec<&str> = ok["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            required.sort();
            if path.ends_with("/changes/") {
                // The change feed adds the current generation.
                assert_eq!(
                    required,
                    ["count", "generation", "next", "previous", "results"],
                    "{path}"
                );
                assert_eq!(ok["properties"]["generation"]["type"], "integer");
            } else {
                assert_eq!(required, ["count", "next", "previous", "results"], "{path}");
            }
            assert_eq!(ok["additionalProperties"], false, "{path}");
            assert_eq!(ok["properties"]["count"]["type"], "integer", "{path}");
            assert_eq!(
                ok["properties"]["next"]["type"],
                json!(["string", "null"]),
                "{path}"
            );
            assert_eq!(ok["properties"]["results"]["type"], "array", "{path}");
            let item = resolve(&doc, &ok["properties"]["results"]["items"]);
            assert_real_object(&doc, item, path);
            for name in ["page", "page_size", "limit", "offset"] {
                let parameter = op["parameters"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["name"] == name)
                    .unwrap_or_else(|| panic!("{path}: no {name}"));
                assert_eq!(parameter["in"], "query");
                assert_eq!(parameter["schema"]["type"], "integer", "{path} {name}");
                assert_eq!(parameter["schema"]["minimum"], 0, "{path} {name}");
                // An empty value counts as absent (behaviour.md §1).
                assert_eq!(parameter["allowEmptyValue"], true, "{path} {name}");
            }
            assert_eq!(
                response_schema(&doc, path, 400)["oneOf"],
                json!([
                    {"$ref": "#/components/schemas/BadParameters"},
                    {"$ref": "#/components/schemas/Error"}
                ]),
                "{path}: 400 body"
            );
            assert!(op["responses"]["404"].is_object(), "{path}: Invalid page.");
        } else {
            assert_real_object(&doc, ok, path);
        }
        // Every error status the operation can answer has the error body.
        // The version header, except at the root, which reads none.
        if path == "/api/" {
            assert_eq!(op["parameters"][0]["name"], "Pretalx-Version");
            assert_eq!(op["parameters"][0]["schema"], json!({"type": "string"}));
        } else {
            assert_eq!(
                op["parameters"][0]["$ref"], "#/components/parameters/PretalxVersion",
                "{path}"
            );
        }
        let mut errors = vec![401, 405, 503];
        if path.starts_with("/api/events/{event}/") {
            errors.push(403);
        }
        if path.matches('{').count() >= 2 {
            errors.push(404);
        }
        for status in errors {
            let schema = resolve(&doc, response_schema(&doc, path, status));
            assert_eq!(
                schema["required"],
                json!(["detail"]),
                "{path}: {status} is not the error body"
            );
        }
        for (status, _) in op["responses"].as_object().unwrap() {
            // 410: a change feed's `since` older than the history kept.
            let known = ["200", "400", "401", "403", "404", "405", "503"]
                .contains(&status.as_str())
                || (status == "410" && path.ends_with("/changes/"));
            assert!(known, "{path}: unexpected status {status}");
        }
    }
    assert_eq!(
        lists, 10,
        "events, the eight resources of an event, and its changes"
    );

    // Closed sets are enums, written once in the model.
    let schemas = &doc["components"]["schemas"];
    assert_eq!(
        schemas["SubmissionState"]["enum"],
        json!([
            "submitted",
            "accepted",
            "rejected",
            "confirmed",
            "canceled",
            "withdrawn"
        ])
    );
    assert_eq!(
        schemas["QuestionTarget"]["enum"],
        json!(["submission", "speaker", "reviewer"])
    );
    // Nullable fields are nullable and still required: they are always sent.
    let organiser = &schemas["SubmissionAsOrganiser"];
    assert_eq!(
        organiser["properties"]["track_id"]["type"],
        json!(["integer", "null"])
    );
    assert!(organiser["required"]
        .as_array()
        .unwrap()
        .contains(&json!("track_id")));
    // Where the role changes the shape: one closed variant per role.
    for (name, variants) in [
        (
            "Submission",
            vec![
                "SubmissionAsOrganiser",
                "SubmissionAsReviewer",
                "SubmissionAsPublic",
            ],
        ),
        (
            "Speaker",
            vec!["SpeakerAsOrganiser", "SpeakerAsReviewerOrPublic"],
        ),
        ("Room", vec!["RoomAsOrganiser", "RoomAsReviewerOrPublic"]),
    ] {
        let one_of: Vec<&str> = schemas[name]["oneOf"]
            .as_array()
            .unwrap_or_else(|| panic!("{name} is not a oneOf"))
            .iter()
            .map(|r| r["$ref"].as_str().unwrap().rsplit('/').next().unwrap())
            .collect();
        assert_eq!(one_of, variants, "{name}");
        for variant in variants {
            assert_eq!(schemas[variant]["additionalProperties"], false, "{variant}");
        }
    }
    let public = properties(&schemas["SubmissionAsPublic"]);
    let reviewer = properties(&schemas["SubmissionAsReviewer"]);
    let organiser = properties(organiser);
    assert!(!public.contains(&"tags".to_string()));
    assert!(reviewer.contains(&"tags".to_string()) && !reviewer.contains(&"notes".to_string()));
    assert!(organiser.contains(&"internal_notes".to_string()));
    assert_eq!(
        schemas["SubmissionAsOrganiser"]["properties"]["pending_state"]["oneOf"][0]["type"],
        "null"
    );
}

/// A 200 schema that says something: an object with properties (every
/// property typed), or a `oneOf` of such objects.
fn assert_real_object(doc: &Value, schema: &Value, context: &str) {
    if let Some(variants) = schema["oneOf"].as_array() {
        assert!(variants.len() >= 2, "{context}");
        for variant in variants {
            assert_real_object(doc, resolve(doc, variant), context);
        }
        return;
    }
    assert_eq!(schema["type"], "object", "{context}: {schema}");
    let properties = schema["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("{context}: an object without properties: {schema}"));
    assert!(!properties.is_empty(), "{context}");
    if context.ends_with("/openapi.json/") {
        return;
    }
    for (name, property) in properties {
        assert!(
            property.get("type").is_some()
                || property.get("$ref").is_some()
                || property.get("oneOf").is_some(),
            "{context}: {name} has no type: {property}"
        );
    }
}

#[tokio::test]
async fn real_answers_of_every_endpoint_and_role_validate_against_the_document() {
    let edge_data = edge();
    let server = TestServer::start(&[democon(), edge_data.clone()]).await;
    let doc = server.anon().ok("/api/openapi.json").await;
    let edge_token = |email: &str| server.token(&token_of(&edge_data, email));
    let callers = [
        ("democon", "anonymous", server.anon(), "Public"),
        (
            "democon",
            "organiser",
            server.token(democon_tokens::ORGA),
            "Organiser",
        ),
        (
            "democon",
            "reviewer",
            server.token(democon_tokens::REVIEWER),
            "Reviewer",
        ),
        (
            "democon",
            "track reviewer",
            server.token(democon_tokens::TRACK_REVIEWER),
            "Reviewer",
        ),
        (
            "democon",
            "administrator",
            server.token(democon_tokens::ADMIN),
            "Organiser",
        ),
        ("edge.conf", "anonymous", server.anon(), "Public"),
        (
            "edge.conf",
            "organiser",
            edge_token("orga@edge.example"),
            "Organiser",
        ),
        (
            "edge.conf",
            "reviewer",
            edge_token("reviewer@edge.example"),
            "Reviewer",
        ),
        // Without speaker names: anonymised submissions.
        (
            "edge.conf",
            "blind reviewer",
            edge_token("blind@edge.example"),
            "Reviewer",
        ),
        (
            "edge.conf",
            "limited reviewer",
            edge_token("limited@edge.example"),
            "Reviewer",
        ),
        (
            "edge.conf",
            "speaker",
            edge_token("speaker@edge.example"),
            "Public",
        ),
    ];
    let mut checked = 0;
    for (event, who, client, role) in &callers {
        for (path, url) in [
            ("/api/", "/api/"),
            ("/api/me/", "/api/me/"),
            ("/api/events/", "/api/events/"),
            ("/api/events/{event}/", &format!("/api/events/{event}/")),
        ] {
            let body = client.ok(url).await;
            assert_valid(
                &doc,
                response_schema(&doc, path, 200),
                &body,
                &format!("{who} {url}"),
            );
            checked += 1;
        }
        for (resource, key, query) in [
            ("submissions", "code", "questions=all"),
            ("submissions", "code", "questions=all&anon=1"),
            ("talks", "code", "questions=all"),
            ("speakers", "code", "questions=all"),
            ("questions", "id", ""),
            ("answers", "id", ""),
            ("reviews", "id", ""),
            ("rooms", "id", ""),
            ("tags", "tag", ""),
        ] {
            let list_path = format!("/api/events/{{event}}/{resource}/");
            let url = format!("/api/events/{event}/{resource}/?page_size=1000&{query}");
            let page = client.ok(&url).await;
            let context = format!("{who} {url}");
            assert_valid(
                &doc,
                response_schema(&doc, &list_path, 200),
                &page,
                &context,
            );
            checked += 1;
            let detail_path = format!(
                "/api/events/{{event}}/{resource}/{{{}}}/",
                if key == "tag" {
                    "tag"
                } else if key == "id" {
                    "id"
                } else {
                    "code"
                }
            );
            let item_schema = response_schema(&doc, &detail_path, 200);
            for item in page["results"].as_array().unwrap().iter().take(3) {
                let id = match &item[key] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let url = format!("/api/events/{event}/{resource}/{id}/?{query}");
                let body = client.ok(&url).await;
                assert_valid(&doc, item_schema, &body, &format!("{who} {url}"));
                checked += 1;
                // The role's own variant, and no other, describes it.
                if matches!(resource, "submissions" | "talks" | "speakers" | "rooms") {
                    let name = match resource {
                        "submissions" | "talks" => "Submission",
                        "speakers" => "Speaker",
                        _ => "Room",
                    };
                    let variant = if *role == "Organiser" || name == "Submission" {
                        format!("{name}As{role}")
                    } else {
                        format!("{name}AsReviewerOrPublic")
                    };
                    let schema = json!({"$ref": format!("#/components/schemas/{variant}")});
                    assert_valid(&doc, &schema, &body, &format!("{who} {url} as {variant}"));
                }
            }
            // An unknown id or code: 404 with the error body.
            let missing = format!("/api/events/{event}/{resource}/999999999/");
            let reply = client.get(&missing).await;
            assert_eq!(reply.status, 404, "{who} {missing}");
            assert_valid(
                &doc,
                response_schema(&doc, &detail_path, 404),
                &reply.body,
                &format!("{who} {missing}"),
            );
            // A path segment that is not UTF-8: 400 with a `detail`.
            let broken = format!("/api/events/{event}/{resource}/%FF/");
            let reply = client.get(&broken).await;
            assert_eq!(reply.status, 400, "{who} {broken}");
            assert_valid(
                &doc,
                response_schema(&doc, &detail_path, 400),
                &reply.body,
                &format!("{who} {broken}"),
            );
            // A bad parameter and a page past the end.
            let reply = client
                .get(&format!("/api/events/{event}/{resource}/?page=x&limit=-1"))
                .await;
            assert_eq!(reply.status, 400, "{who} {resource}");
            assert_valid(
                &doc,
                response_schema(&doc, &list_path, 400),
                &reply.body,
                &context,
            );
            let reply = client
                .get(&format!("/api/events/{event}/{resource}/?page=99999"))
                .await;
            assert_eq!(reply.status, 404, "{who} {resource}");
            assert_valid(
                &doc,
                response_schema(&doc, &list_path, 404),
                &reply.body,
                &context,
            );
        }
    }
    // 401, 403 and 405 carry the documented error body too.
    let path = "/api/events/{event}/talks/";
    let reply = server
        .token("not-a-token")
        .get("/api/events/democon/talks/")
        .await;
    assert_eq!(reply.status, 401);
    assert_valid(&doc, response_schema(&doc, path, 401), &reply.body, "401");
    let reply = server.anon().get("/api/events/privcon/talks/").await;
    assert_eq!(reply.status, 403);
    assert_valid(&doc, response_schema(&doc, path, 403), &reply.body, "403");
    let reply = server
        .anon()
        .request("POST", "/api/events/democon/talks/", &[])
        .await;
    assert_eq!(reply.status, 405);
    assert_valid(&doc, response_schema(&doc, path, 405), &reply.body, "405");
    assert!(checked > 300, "{checked} answers checked");
}

#[tokio::test]
async fn the_schemas_refuse_what_a_role_may_not_receive() {
    // The variants are closed: an organiser-only field in a public answer,
    // or a missing field, breaks the document, so the checks above bite.
    let server = TestServer::start(&[mini()]).await;
    let doc = server.anon().ok("/api/openapi.json").await;
    let mut talk = server.anon().ok("/api/events/mini/talks/PUB1/").await;
    let schema = response_schema(&doc, "/api/events/{event}/talks/{code}/", 200);
    assert_valid(&doc, schema, &talk, "public talk");
    talk["internal_notes"] = json!("leaked");
    assert!(!validation_errors(&doc, schema, &talk).is_empty());
    talk.as_object_mut().unwrap().remove("internal_notes");
    talk.as_object_mut().unwrap().remove("track");
    assert!(!validation_errors(&doc, schema, &talk).is_empty());
    let mut talk = server.anon().ok("/api/events/mini/talks/PUB1/").await;
    talk["state"] = json!("Confirmed");
    assert!(!validation_errors(&doc, schema, &talk).is_empty());
}
