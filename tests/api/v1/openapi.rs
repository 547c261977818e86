//! `GET /api/openapi.json` in the v1 dialect: the v1 document has exactly
//! the paths v1 serves, and real v1 answers of every path, for every role,
//! validate against it (helpers/openapi.rs; the legacy document is checked
//! in openapi.rs).

use serde_json::{json, Value};

use crate::helpers::openapi::*;
use crate::helpers::*;

const V1: [(&str, &str); 1] = [("Pretalx-Version", "v1")];

async fn v1_get(client: &Client, path: &str) -> Reply {
    client.request("GET", path, &V1).await
}

/// The concrete URL of a documented path on democon, with a real id or
/// code (from the v1 list of the resource) for a detail path; None when
/// that list has nothing to take it from.
async fn concrete(client: &Client, path: &str) -> Option<String> {
    let path = path
        .replace("{event}", "democon")
        .replace("{organiser}", "democonorg");
    let Some(start) = path.find("/{") else {
        return Some(path);
    };
    let list = format!("{}/", &path[..start]);
    // A talk is a submission in v1.
    let list = list.replace("/talks/", "/submissions/");
    let key = if path.contains("/submissions/")
        || path.contains("/talks/")
        || path.contains("/speakers/")
    {
        "code"
    } else {
        "id"
    };
    let reply = v1_get(client, &list).await;
    let first = reply.body["results"].get(0)?;
    let id = match &first[key] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    Some(format!("{}/{id}/", &path[..start]))
}

/// `/api/openapi.json` answers in the caller's dialect (or the one
/// `version` names), and the v1 document has exactly the paths v1 serves:
/// a route that answers a v1 request without a v1 entry in its `Endpoint`
/// fails here.
#[tokio::test]
async fn the_v1_document_has_every_path_v1_serves() {
    // An organiser whose teams the organiser's token may read.
    let mut dataset = democon();
    dataset["events"][0]["organiser"] = json!("democonorg");
    for team in dataset["events"][0]["teams"].as_array_mut().unwrap() {
        if team["can_change_submissions"] == json!(true) {
            team["can_change_teams"] = json!(true);
        }
    }
    let server = TestServer::start(&[dataset]).await;
    let orga = server.token(democon_tokens::ORGA);
    let v1_doc = v1_get(&server.anon(), "/api/openapi.json").await;
    assert_eq!(v1_doc.status, 200);
    let v1_doc = v1_doc.body;
    for alias in [
        "/api/openapi.json?version=v2",
        "/api/openapi.json?version=v-next",
        "/api/openapi.json?version=v1",
    ] {
        assert_eq!(server.anon().ok(alias).await, v1_doc, "{alias}");
    }
    let legacy = server.anon().ok("/api/openapi.json").await;
    assert_ne!(legacy, v1_doc);
    assert_eq!(
        orga.request("GET", "/api/openapi.json?version=LEGACY", &V1)
            .await
            .body,
        legacy,
        "`version` wins over the header"
    );
    let reply = server
        .anon()
        .get("/api/openapi.json?version=DEV_PREVIEW")
        .await;
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.body,
        json!({"version": ["Select a valid choice. DEV_PREVIEW is not one of the available choices."]})
    );
    assert_eq!(v1_doc["info"]["title"], "confapi (v2 API)");
    assert_eq!(
        v1_doc["components"]["parameters"]["PretalxVersion"],
        json!({"name": "Pretalx-Version", "in": "header", "required": true,
               "description": v1_doc["components"]["parameters"]["PretalxVersion"]["description"],
               "schema": {"type": "string", "enum": ["v2", "v-next", "v1"]}})
    );

    let root = server.anon().ok("/api/").await;
    let mut served = Vec::new();
    for path in root["endpoints"].as_array().unwrap() {
        let path = path["path"].as_str().unwrap();
        let url = concrete(&orga, path)
            .await
            .unwrap_or_else(|| panic!("{path}: no id to try"));
        // reqwest follows v1's redirect of a talk to its submission.
        let reply = v1_get(&orga, &url).await;
        let documented = v1_doc["paths"][path].is_object();
        assert_eq!(
            reply.status != 404,
            documented,
            "{url} answers v1 with {} and is {}in the v1 document",
            reply.status,
            if documented { "" } else { "not " }
        );
        if documented {
            served.push(path.to_string());
        }
    }
    assert_eq!(
        served.len(),
        v1_doc["paths"].as_object().unwrap().len(),
        "every path of the v1 document is a route"
    );
    // 3 of the API, 2 of events, 2 each of 12 resources and of an
    // organiser's teams, talks/{code}, and the change feed.
    assert_eq!(served.len(), 3 + 2 + 24 + 2 + 1 + 1, "{served:?}");

    // What each operation reads, as the v1 handlers read it.
    let names = |path: &str| -> Vec<String> {
        operation(&v1_doc, path)["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["name"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(
        names("/api/events/{event}/submissions/"),
        [
            "event",
            "state",
            "pending_state",
            "content_locale",
            "submission_type",
            "track",
            "is_featured",
            "q",
            "o",
            "expand",
            "fields",
            "omit",
            "lang",
            "page",
            "page_size",
            "limit",
            "offset"
        ]
    );
    assert_eq!(
        names("/api/events/{event}/rooms/"),
        ["event", "q", "o", "lang", "limit", "offset"]
    );
    assert_eq!(names("/api/events/"), ["is_public", "q", "o"]);
    let events = response_schema(&v1_doc, "/api/events/", 200);
    assert_eq!(events["type"], "array", "v1 does not page events");
    let talk = operation(&v1_doc, "/api/events/{event}/talks/{code}/");
    assert!(talk["responses"]["301"]["headers"]["Location"].is_object());
    assert!(talk["responses"]["200"].is_null());
    assert_eq!(
        operation(&v1_doc, "/api/events/{event}/tags/{tag}/")["parameters"][2]["schema"],
        json!({"type": "integer", "minimum": 0}),
        "v1 looks tags up by id"
    );
    // Every in-event operation answers 404 for an unknown event (v1).
    for (path, item) in v1_doc["paths"].as_object().unwrap() {
        if path.starts_with("/api/events/{event}/") {
            assert!(item["get"]["responses"]["404"].is_object(), "{path}");
        }
    }
}

/// Real v1 answers, for every role and with `expand`, `lang` and
/// `fields`, validate against the v1 document.
#[tokio::test]
async fn real_v1_answers_validate_against_the_v1_document() {
    let edge_data = edge();
    let server = TestServer::start(&[democon(), edge_data.clone()]).await;
    let doc = server.anon().ok("/api/openapi.json?version=v1").await;
    let edge_token = |email: &str| server.token(&token_of(&edge_data, email));
    let callers = [
        ("democon", "anonymous", server.anon()),
        ("democon", "organiser", server.token(democon_tokens::ORGA)),
        (
            "democon",
            "reviewer",
            server.token(democon_tokens::REVIEWER),
        ),
        (
            "democon",
            "track reviewer",
            server.token(democon_tokens::TRACK_REVIEWER),
        ),
        ("edge.conf", "anonymous", server.anon()),
        ("edge.conf", "organiser", edge_token("orga@edge.example")),
        ("edge.conf", "reviewer", edge_token("reviewer@edge.example")),
        (
            "edge.conf",
            "blind reviewer",
            edge_token("blind@edge.example"),
        ),
    ];
    let queries = [
        "",
        "lang=en",
        "fields=id,code,name,submission,question&omit=title",
        "expand=speakers.answers,speakers.submissions,track,submission_type,tags,slots.room,answers.question,answers.options,resources,room,submission.speakers,question,options,submissions,answers",
    ];
    let mut checked = 0;
    for (event, who, client) in &callers {
        for (path, item) in doc["paths"].as_object().unwrap() {
            if item["get"]["responses"]["200"].is_null() {
                continue;
            }
            let path = path.replace("{event}", event);
            let url = if let Some(start) = path.find("/{") {
                // Details: the first item of the list.
                let list = v1_get(client, &format!("{}/", &path[..start])).await;
                let Some(first) = list.body["results"].get(0) else {
                    continue;
                };
                let key = if path.contains("/submissions/") || path.contains("/speakers/") {
                    "code"
                } else {
                    "id"
                };
                match &first[key] {
                    Value::String(s) => format!("{}/{s}/", &path[..start]),
                    other => format!("{}/{other}/", &path[..start]),
                }
            } else {
                path.clone()
            };
            let doc_path = doc["paths"]
                .as_object()
                .unwrap()
                .keys()
                .find(|p| p.replace("{event}", event) == path)
                .unwrap()
                .clone();
            for query in queries {
                let reply = v1_get(client, &format!("{url}?{query}")).await;
                let status = reply.status;
                let schema = response_schema(&doc, &doc_path, status);
                assert_valid(
                    &doc,
                    schema,
                    &reply.body,
                    &format!("{who} v1 {url}?{query} ({status})"),
                );
                checked += 1;
            }
        }
        // Errors: a bad filter, a page past the end, an unknown id, an unknown event.
        for (url, doc_path, status) in [
            (
                format!("/api/events/{event}/submissions/?state=bogus"),
                "/api/events/{event}/submissions/",
                400,
            ),
            (
                format!("/api/events/{event}/slots/?page=99999"),
                "/api/events/{event}/slots/",
                404,
            ),
            (
                format!("/api/events/{event}/tracks/999999999/"),
                "/api/events/{event}/tracks/{id}/",
                404,
            ),
            (
                "/api/events/no-such-event/speakers/".to_string(),
                "/api/events/{event}/speakers/",
                404,
            ),
        ] {
            let reply = v1_get(client, &url).await;
            if *who == "anonymous" && reply.status == 401 {
                continue;
            }
            assert_eq!(reply.status, status, "{who} {url}: {}", reply.text);
            assert_valid(
                &doc,
                response_schema(&doc, doc_path, status),
                &reply.body,
                &url,
            );
        }
    }
    let reply = server
        .anon()
        .request(
            "GET",
            "/api/events/democon/rooms/",
            &[("Pretalx-Version", "DEV_PREVIEW")],
        )
        .await;
    assert_eq!(reply.status, 400);
    assert_valid(
        &doc,
        response_schema(&doc, "/api/events/{event}/rooms/", 400),
        &reply.body,
        "an unknown version",
    );
    assert!(checked > 400, "{checked} answers checked");
}

/// Each document declares only the `Pretalx-Version` values whose answers
/// it describes; the header may be left out only of the document of the
/// dialect the caller gets without it (the token's version, else the
/// server's default), and is required in the other. The API's root reads
/// no version, and its document says so (issue 74).
#[tokio::test]
async fn each_document_declares_the_version_header_its_answers_need() {
    let header = |doc: &Value| {
        let header = &doc["components"]["parameters"]["PretalxVersion"];
        (header["required"].clone(), header["schema"]["enum"].clone())
    };
    let versioned = (json!(false), json!(["v2", "v-next", "v1", ""]));
    let versioned_required = (json!(true), json!(["v2", "v-next", "v1"]));
    let legacy = (json!(false), json!(["LEGACY", ""]));
    let legacy_required = (json!(true), json!(["LEGACY"]));

    let server = TestServer::start(&[mini()]).await;
    let anon = server.anon();
    assert_eq!(header(&anon.ok("/api/openapi.json").await), legacy);
    assert_eq!(
        header(&anon.ok("/api/openapi.json?version=v2").await),
        versioned_required
    );
    // The header chooses the document, not what the caller gets without it.
    let asked = anon.request("GET", "/api/openapi.json", &V1).await;
    assert_eq!(header(&asked.body), versioned_required);

    let config = confapi::http::Config {
        api_version: confapi::model::ApiVersion::V2,
        ..Default::default()
    };
    let server = TestServer::start_with(&[mini()], config).await;
    let anon = server.anon();
    assert_eq!(header(&anon.ok("/api/openapi.json").await), versioned);
    assert_eq!(
        header(&anon.ok("/api/openapi.json?version=LEGACY").await),
        legacy_required
    );

    // The root answers every value alike: declared without bounds.
    let doc = anon.ok("/api/openapi.json").await;
    assert_eq!(
        doc["paths"]["/api/"]["get"]["parameters"][0],
        json!({"name": "Pretalx-Version", "in": "header", "required": false,
               "description": "Not read here: every value is answered alike.",
               "schema": {"type": "string"}})
    );
    let odd = anon
        .request("GET", "/api/", &[("Pretalx-Version", "{}")])
        .await;
    assert_eq!(odd.status, 200);
    let odd = anon
        .request("GET", "/api/events/", &[("Pretalx-Version", "{}")])
        .await;
    assert_eq!(
        (odd.status, odd.body),
        (400, json!({"detail": "API version not supported."}))
    );
}
