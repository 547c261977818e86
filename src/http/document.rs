//! The OpenAPI 3.1 document of each dialect, built from the endpoint list
//! (paths, query parameters, which errors each can answer) and from the
//! schemas of the bodies (`openapi`).

use serde_json::{json, Map, Value};

use super::endpoint::{Doc, Endpoint, Shape};
use super::error::ErrorBody;
use super::openapi::{reference, Schemas};
use crate::model::{ApiVersion, Dialect};

/// The pagination envelope of every list (behaviour.md §5).
fn page(item: Value) -> Value {
    json!({
        "type": "object",
        "required": ["count", "next", "previous", "results"],
        "additionalProperties": false,
        "properties": {
            "count": {"type": "integer", "minimum": 0},
            "next": {"type": ["string", "null"], "format": "uri"},
            "previous": {"type": ["string", "null"], "format": "uri"},
            "results": {"type": "array", "items": item},
        },
    })
}

const PAGINATION: [(&str, &str); 4] = [
    ("page", "1-based page number (page style)"),
    ("page_size", "Items per page in the page style"),
    ("limit", "Items per page (limit/offset style)"),
    ("offset", "Items to skip (limit/offset style)"),
];

/// v1 reads `limit` and `offset` together only (else the page style),
/// and every size as pretalx does: a value that is not a number is the
/// default, a size above the maximum is the maximum.
const V1_PAGINATION: [(&str, &str); 4] = [
    (
        "page",
        "1-based page number; not a number, 0 or past the end: 404 `Invalid page.` (ignored when `limit` and `offset` are both given)",
    ),
    (
        "page_size",
        "Items per page (default 50, at most 250); not a number or 0: the default",
    ),
    (
        "limit",
        "Items per page when `offset` is given too (limit/offset style); not a number: the default",
    ),
    (
        "offset",
        "Items to skip when `limit` is given too; not a number: 0",
    ),
];

/// A non-negative integer, as the legacy API reads numbers (`Params::natural`).
fn natural() -> Value {
    json!({"type": "integer", "minimum": 0})
}

/// The schema of a legacy filter parameter, as the handlers read it
/// (`Params::id` and `Params::boolean`); the others are free text.
fn query_schema(name: &str) -> Value {
    match name {
        // `since`: the change feed's generation.
        "question" | "review" | "submission_type" | "since" => natural(),
        "is_public" | "is_visible_to_reviewers" | "is_featured" => json!({"type": "boolean"}),
        "target" => json!({"type": "string", "enum": crate::model::QuestionTarget::NAMES}),
        "variant" => json!({"type": "string", "enum": crate::model::QuestionVariant::NAMES}),
        "questions" => json!({"type": "string", "pattern": "^(|all|[0-9]+(,[0-9]+)*)$"}),
        "state" => states(),
        "version" => versions(),
        // The limit on distinct terms cannot be a JSON schema: it is told.
        "q" => json!({"type": "string", "maxLength": super::params::MAX_QUERY_CHARS,
                      "description": format!("At most {} characters and {} distinct terms (a repeated term counts once); more is a 400",
                                             super::params::MAX_QUERY_CHARS, super::params::MAX_QUERY_TERMS)}),
        _ => json!({"type": "string"}),
    }
}

/// The schema of a v1 filter parameter, as the v1 handlers read it: ids
/// and choices are checked (400), booleans are django-filter's (a value
/// other than true/false/1/0 is no filter), the rest is free text.
fn v1_query_schema(path: &str, name: &str) -> Value {
    match name {
        // The answers' number filters take any number (django-filter's
        // NumberFilter); a number no id has lists nothing.
        "question" | "review" if path.ends_with("/answers") => json!({"type": "number"}),
        "question"
        | "review"
        | "submission_type"
        | "track"
        | "room"
        | "schedule"
        | "since"
        | "submission__track"
        | "submission__submission_type" => natural(),
        "target" => json!({"type": "string", "enum": crate::model::QuestionTarget::NAMES}),
        "variant" => json!({"type": "string", "enum": crate::model::QuestionVariant::NAMES}),
        "state" | "pending_state" | "submission__state" | "submission__pending_state" => states(),
        "version" => versions(),
        "is_public" | "is_visible_to_reviewers" | "is_featured" | "is_visible" => {
            json!({"type": "string", "examples": ["true", "false"]})
        }
        _ => json!({"type": "string"}),
    }
}

fn states() -> Value {
    json!({"type": "array", "items": {"type": "string", "enum": crate::model::SubmissionState::NAMES}})
}

/// `version` of `/api/openapi.json`: the versions `Pretalx-Version` names.
fn versions() -> Value {
    json!({"type": "string", "enum": ApiVersion::ALL.map(ApiVersion::header_value)})
}

/// A v1 page size: a number, or anything else (the default).
fn lenient_natural() -> Value {
    json!({"anyOf": [natural(), {"type": "string"}]})
}

/// The schema of a path parameter, and what it is.
fn path_parameter(api: Dialect, path: &str, name: &str) -> (Value, &'static str) {
    match (api, name) {
        // Numeric ids are plain digits (`params::path_id`; anything else is a 404).
        (Dialect::Versioned, "id") if path.ends_with("/schedules/{id}") => (
            json!({"oneOf": [natural(), {"type": "string", "const": "latest"}]}),
            "The schedule's id, or `latest`",
        ),
        (_, "id") => (natural(), "The id"),
        (Dialect::Versioned, "tag") => (natural(), "The tag's id"),
        (Dialect::Legacy, "tag") => (
            json!({"type": "string"}),
            "The tag's name, in any letter case (it may contain dots)",
        ),
        (Dialect::Versioned, "event") if path == "/api/events/{event}" => (
            json!({"type": "string"}),
            "The event's slug, exactly (letter case counts)",
        ),
        (_, "event") => (
            json!({"type": "string"}),
            "The event's slug, in any letter case",
        ),
        (_, "code") => (json!({"type": "string"}), "The code, in any letter case"),
        _ => (json!({"type": "string"}), "The value"),
    }
}

fn error_response(description: &str) -> Value {
    json!({"description": description,
           "content": {"application/json": {"schema": reference("Error")}}})
}

/// The `Pretalx-Version` header as this document's answers need it: only
/// the versions of its own dialect (the others answer in another shape,
/// which another document describes), and, where the dialect is what the
/// caller gets without the header (`default`), no header or an empty one.
/// For the other dialect the header is required.
fn version_header(api: Dialect, default: Dialect) -> Value {
    let description = match api {
        Dialect::Versioned => "The API version: `v2` (current), `v-next` and `v1` (deprecated) are what this document describes, alike. `LEGACY` (deprecated) is the legacy API, another document (`/api/openapi.json?version=LEGACY`); any other value (2025's `DEV_PREVIEW` too) is a 400.",
        Dialect::Legacy => "The API version: `LEGACY` (deprecated) is what this document describes. `v2`, `v-next` and `v1` are the versioned API, another document (`/api/openapi.json?version=v2`); any other value (2025's `DEV_PREVIEW` too) is a 400.",
    };
    let mut values: Vec<&str> = ApiVersion::ALL
        .into_iter()
        .filter(|version| version.dialect() == api)
        .map(ApiVersion::header_value)
        .collect();
    let own_default = api == default;
    let description = if own_default {
        values.push("");
        format!("{description} Without it, or empty: this dialect (the version configured on the caller's token, else the server's default).")
    } else {
        format!("{description} Required: without it, this caller gets the other dialect (the version configured on their token, else the server's default).")
    };
    json!({"name": "Pretalx-Version", "in": "header", "required": !own_default,
           "description": description, "schema": {"type": "string", "enum": values}})
}

/// One operation of `api`'s document.
fn operation(schemas: &mut Schemas, api: Dialect, path: &str, doc: &Doc) -> Value {
    let v1 = api == Dialect::Versioned;
    // The API's root reads no version (as pretalx's): any value is the same.
    let version = if path == "/api" {
        json!({"name": "Pretalx-Version", "in": "header", "required": false,
               "description": "Not read here: every value is answered alike.",
               "schema": {"type": "string"}})
    } else {
        json!({"$ref": "#/components/parameters/PretalxVersion"})
    };
    let mut parameters = vec![version];
    let mut path_parameters = 0;
    for segment in path.split('/') {
        if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            path_parameters += 1;
            let (schema, description) = path_parameter(api, path, name);
            parameters.push(json!({"name": name, "in": "path", "required": true,
                                   "description": description, "schema": schema}));
        }
    }
    for (name, description) in doc.params {
        let schema = if v1 {
            v1_query_schema(path, name)
        } else {
            query_schema(name)
        };
        let is_state = matches!(
            *name,
            "state" | "pending_state" | "submission__state" | "submission__pending_state"
        );
        // An empty value counts as absent (behaviour.md §1), except a v1
        // state's: there it is a value, and not a state (django-filter's
        // MultipleChoiceFilter).
        let mut parameter = json!({"name": name, "in": "query", "required": false,
                                   "allowEmptyValue": !(v1 && is_state),
                                   "description": description, "schema": schema});
        if is_state {
            parameter["style"] = json!("form");
            parameter["explode"] = json!(true);
        }
        parameters.push(parameter);
    }
    let pagination: &[(&str, &str)] = match (doc.shape, v1) {
        (Shape::Page, false) => &PAGINATION,
        (Shape::Page, true) => &V1_PAGINATION,
        (Shape::Offset, _) => &V1_PAGINATION[2..],
        // The feed pages alike in both dialects.
        (Shape::Feed, _) => &PAGINATION,
        _ => &[],
    };
    for (name, description) in pagination {
        // The legacy API reads these as non-negative integers
        // (`Params::natural`); v1 as pretalx does: any text (even `page`,
        // which is ignored when `limit` and `offset` are given).
        let schema = if v1 && doc.shape != Shape::Feed {
            lenient_natural()
        } else {
            natural()
        };
        parameters.push(json!({"name": name, "in": "query", "required": false,
                               "allowEmptyValue": true, "description": description,
                               "schema": schema}));
    }
    let paged = matches!(doc.shape, Shape::Page | Shape::Offset | Shape::Feed);
    let in_event = path.starts_with("/api/events/{event}");
    // An organiser's paths (v1 teams) are scoped by it as events' are.
    let in_organiser = path.starts_with("/api/organisers/{organiser}");
    let nested = path_parameters > usize::from(in_event || in_organiser);
    let mut responses = Map::new();
    if doc.shape == Shape::MovedPermanently {
        responses.insert(
            "301".into(),
            json!({"description": "Moved: the `Location` header names the object's URL",
                   "headers": {"Location": {"required": true, "schema": {"type": "string"}}}}),
        );
    } else {
        let mut item = (doc.body)(schemas);
        if doc.params.iter().any(|(name, _)| *name == "fields") {
            item = schemas.whole_or_sparse(item);
        }
        let ok_schema = match doc.shape {
            Shape::Page | Shape::Offset => page(item),
            Shape::Feed => {
                let mut envelope = page(item);
                envelope["required"]
                    .as_array_mut()
                    .expect("the envelope lists what it requires")
                    .push(json!("generation"));
                envelope["properties"]["generation"] = json!({"type": "integer", "minimum": 0});
                responses.insert(
                    "410".into(),
                    json!({"description": "`since` is older than the generations kept; `oldest` is the oldest one that may be asked for",
                           "content": {"application/json": {"schema": {
                               "type": "object", "required": ["detail", "oldest"],
                               "properties": {"detail": {"type": "string"}, "oldest": {"type": "integer"}}}}}}),
                );
                envelope
            }
            Shape::Array => json!({"type": "array", "items": item}),
            _ => item,
        };
        responses.insert(
            "200".into(),
            json!({"description": "OK", "content": {"application/json": {"schema": ok_schema}}}),
        );
    }
    // Bad query parameters: one key each. Every request may name an
    // unknown `Pretalx-Version`, and a path segment after the event that
    // is not valid UTF-8 once percent-decoded is refused by the path
    // extractor, both with a `detail`.
    let reads_params = paged || !doc.params.is_empty();
    let bad_request = if reads_params {
        json!({"oneOf": [reference("BadParameters"), reference("Error")]})
    } else {
        reference("Error")
    };
    responses.insert(
        "400".into(),
        json!({"description": "Bad query parameters (one key per parameter, each with its messages), an unknown `Pretalx-Version`, or a path segment that is not UTF-8 (`detail`)",
               "content": {"application/json": {"schema": bad_request}}}),
    );
    responses.insert(
        "401".into(),
        error_response(if v1 && in_event {
            "Invalid token (`WWW-Authenticate: Token`), or an anonymous caller asking for what only some roles may read"
        } else {
            "Invalid token (`WWW-Authenticate: Token`)"
        }),
    );
    if in_event {
        responses.insert(
            "403".into(),
            error_response(if v1 {
                "The caller's role may not read this"
            } else {
                "The event does not exist or the caller may not see it"
            }),
        );
    }
    if in_organiser {
        responses.insert(
            "403".into(),
            error_response("The caller may not see the organiser's teams"),
        );
        responses.insert(
            "404".into(),
            error_response("No such organiser; not found; or (lists) `Invalid page.`"),
        );
    } else if v1 && in_event {
        responses.insert(
            "404".into(),
            error_response(
                "The event does not exist or the caller may not see it; not found or not visible; or (lists) `Invalid page.`",
            ),
        );
    } else if paged || nested {
        responses.insert(
            "404".into(),
            error_response(if paged {
                "`page` is 0 or past the last page (`Invalid page.`)"
            } else {
                "Not found, or not visible to the caller"
            }),
        );
    }
    responses.insert(
        "405".into(),
        error_response("Any method but GET, HEAD and OPTIONS (`Allow: GET, HEAD, OPTIONS`)"),
    );
    responses.insert(
        "503".into(),
        error_response("Not ready yet, or the database is unreachable (`Retry-After`)"),
    );
    json!({"get": {
        "summary": doc.summary,
        "operationId": operation_id(path),
        "tags": [tag(path)],
        "parameters": parameters,
        "responses": responses,
    }})
}

/// Builds the document of one dialect from the endpoint list: the paths
/// that dialect serves, as it answers them.
pub fn document(endpoints: &[Endpoint], api: Dialect, default: Dialect) -> Value {
    let mut schemas = Schemas::default();
    schemas.add::<ErrorBody>();
    let mut paths = Map::new();
    for endpoint in endpoints {
        if let Some(doc) = endpoint.doc(api) {
            paths.insert(
                format!("{}/", endpoint.path),
                operation(&mut schemas, api, endpoint.path, doc),
            );
        }
    }
    schemas.insert(
        "BadParameters",
        json!({"type": "object", "minProperties": 1,
               "additionalProperties": {"type": "array", "items": {"type": "string"}, "minItems": 1},
               "description": "One key per bad query parameter, with its messages"}),
    );
    schemas.close_objects();
    let (title, dialect) = match api {
        Dialect::Legacy => (
            "confapi (legacy API)",
            "This document describes the legacy dialect (pretalx 2024's API: `Pretalx-Version: LEGACY`); the versioned API of pretalx 2025 and 2026 is at `/api/openapi.json?version=v2`. What a caller sees depends on their role in each event (organiser, reviewer or public); bodies whose fields depend on it are a `oneOf` of one closed variant per role. A reviewer without speaker names, and anyone passing `anon`, gets anonymised submissions: the same fields, `speakers` empty.",
        ),
        Dialect::Versioned => (
            "confapi (v2 API)",
            "This document describes the versioned API of pretalx 2026 (`Pretalx-Version: v2`; `v-next` and pretalx 2025's `v1` answer alike); the legacy dialect is at `/api/openapi.json?version=LEGACY`. Related objects are ids, or objects with `expand`; fields only some roles receive are optional (left out for the others), and `fields`/`omit` leave out top-level fields.",
        ),
    };
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": title,
            "version": env!("CARGO_PKG_VERSION"),
            "description": format!("Read API of a conference call-for-proposals and scheduling system, compatible with the pretalx API. Every path also works without its trailing slash. {dialect}"),
        },
        "components": {
            "securitySchemes": {"token": {"type": "apiKey", "in": "header", "name": "Authorization",
                                           "description": "`Token <key>`, `Bearer <key>` or the bare key"}},
            "parameters": {"PretalxVersion": version_header(api, default)},
            "schemas": schemas.0,
        },
        "security": [{}, {"token": []}],
        "paths": paths,
    })
}

/// The resource an operation belongs to: `submissions`, `events`, or `api`.
fn tag(path: &str) -> &str {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        ["api", "events", "{event}", resource, ..] => resource,
        ["api", "events", ..] => "events",
        _ => "api",
    }
}

/// `/api/events/{event}/submissions/{code}` → `events_event_submissions_code`.
fn operation_id(path: &str) -> String {
    let id: Vec<&str> = path
        .trim_start_matches("/api")
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_matches(|c| c == '{' || c == '}'))
        .collect();
    if id.is_empty() {
        "root".into()
    } else {
        id.join("_").replace('.', "_")
    }
}
