//! The OpenAPI 3.1 document, built from the endpoint list (paths, query
//! parameters, which errors each can answer) and from the types the
//! handlers serialise: every schema of a body comes from a
//! `#[derive(utoipa::ToSchema)]` on the view type itself (`domain::views`,
//! `model`'s closed sets, `ErrorBody`), so the document follows the code.
//!
//! Where the role changes the shape (submissions, talks, speakers, rooms),
//! the body is a `oneOf` of closed variants, one per role, made from the
//! view's schema and its `RoleFields`.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};
use utoipa::ToSchema;

use super::error::ErrorBody;
use super::Endpoint;
use crate::domain::views::RoleFields;

/// The component schemas of the document, by name.
#[derive(Default)]
pub struct Schemas(BTreeMap<String, Value>);

/// How an endpoint's 200 body is described: registers what it needs in
/// `Schemas` and returns the schema of the body (of each result, for a list).
pub type Body = fn(&mut Schemas) -> Value;

fn to_value<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

impl Schemas {
    /// Registers `T` and every type it contains; returns a `$ref` to it.
    pub fn add<T: ToSchema>(&mut self) -> Value {
        let mut nested = Vec::new();
        T::schemas(&mut nested);
        for (name, schema) in nested {
            self.0.entry(name).or_insert_with(|| to_value(&schema));
        }
        let name = T::name().into_owned();
        self.0
            .entry(name.clone())
            .or_insert_with(|| to_value(&T::schema()));
        reference(&name)
    }

    fn insert(&mut self, name: &str, schema: Value) -> Value {
        self.0.insert(name.to_string(), schema);
        reference(name)
    }

    /// Every view is a closed object: serde writes exactly the fields of
    /// the struct, so anything else is a bug the document should reveal.
    fn close_objects(&mut self) {
        for schema in self.0.values_mut() {
            if let Some(object) = schema.as_object_mut() {
                if object.contains_key("properties") && !object.contains_key("additionalProperties")
                {
                    object.insert("additionalProperties".into(), Value::Bool(false));
                }
            }
        }
    }
}

/// One view type for every caller.
pub fn view<T: ToSchema>(schemas: &mut Schemas) -> Value {
    schemas.add::<T>()
}

/// A view whose fields depend on the caller's role: `T`'s component
/// becomes a `oneOf` of closed variants (organiser, reviewer, public; roles
/// that receive the same fields share one variant), each listing exactly
/// the fields that role receives, all of them required.
pub fn by_role<T: ToSchema>(schemas: &mut Schemas, roles: &RoleFields) -> Value {
    let whole = schemas.add::<T>();
    let name = T::name().into_owned();
    let full = to_value(&T::schema());
    let role_only: Vec<&str> = roles
        .organiser
        .iter()
        .chain(roles.reviewer)
        .copied()
        .collect();
    let mut variants: Vec<(String, &[&str], &str)> = vec![(
        format!("{name}AsOrganiser"),
        roles.organiser,
        "As an organiser sees it",
    )];
    if roles.reviewer.is_empty() {
        variants.push((
            format!("{name}AsReviewerOrPublic"),
            &[],
            "As a reviewer or the public sees it",
        ));
    } else {
        variants.push((
            format!("{name}AsReviewer"),
            roles.reviewer,
            "As a reviewer sees it",
        ));
        variants.push((format!("{name}AsPublic"), &[], "As the public sees it"));
    }
    let mut one_of = Vec::new();
    for (variant, granted, description) in variants {
        let mut schema = full.clone();
        if let Some(object) = schema.as_object_mut() {
            if let Some(Value::Object(properties)) = object.get_mut("properties") {
                properties.retain(|field, _| {
                    !role_only.contains(&field.as_str()) || granted.contains(&field.as_str())
                });
            }
            let mut required: Vec<Value> = object
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for field in granted {
                if !required.iter().any(|r| r == field) {
                    required.push(json!(field));
                }
            }
            object.insert("required".into(), Value::Array(required));
            object.insert("additionalProperties".into(), Value::Bool(false));
            object.insert("description".into(), json!(description));
        }
        one_of.push(schemas.insert(&variant, schema));
    }
    schemas.insert(
        &name,
        json!({
            "oneOf": one_of,
            "description": format!("{name}: the fields depend on the caller's role in the event"),
        }),
    );
    whole
}

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

/// The schema of a filter parameter, as the handlers read it
/// (`Params::id` and `Params::boolean`); the others are free text.
fn query_schema(name: &str) -> Value {
    match name {
        "question" | "review" | "submission_type" => json!({"type": "integer", "minimum": 0}),
        "is_public" | "is_visible_to_reviewers" | "is_featured" => json!({"type": "boolean"}),
        "target" => json!({"type": "string", "enum": crate::model::QuestionTarget::NAMES}),
        "variant" => json!({"type": "string", "enum": crate::model::QuestionVariant::NAMES}),
        "questions" => json!({"type": "string", "pattern": "^(|all|[0-9]+(,[0-9]+)*)$"}),
        "state" => {
            json!({"type": "array", "items": {"type": "string", "enum": crate::model::SubmissionState::NAMES}})
        }
        // The limit on distinct terms cannot be a JSON schema: it is told.
        "q" => json!({"type": "string", "maxLength": super::params::MAX_QUERY_CHARS,
                      "description": format!("At most {} characters and {} distinct terms (a repeated term counts once); more is a 400",
                                             super::params::MAX_QUERY_CHARS, super::params::MAX_QUERY_TERMS)}),
        _ => json!({"type": "string"}),
    }
}

fn error_response(description: &str) -> Value {
    json!({"description": description,
           "content": {"application/json": {"schema": reference("Error")}}})
}

/// Builds the document from the endpoint list.
pub fn document(endpoints: &[Endpoint]) -> Value {
    let mut schemas = Schemas::default();
    schemas.add::<ErrorBody>();
    let mut paths = Map::new();
    for endpoint in endpoints {
        let mut parameters: Vec<Value> = Vec::new();
        let mut path_parameters = 0;
        for segment in endpoint.path.split('/') {
            if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                path_parameters += 1;
                // Numeric ids are plain digits (`params::path_id`; anything else is a 404).
                let schema = if name == "id" {
                    json!({"type": "integer", "minimum": 0})
                } else {
                    json!({"type": "string"})
                };
                let description = match name {
                    "event" => "The event's slug, in any letter case",
                    "code" => "The code, in any letter case",
                    "tag" => "The tag's name, in any letter case (it may contain dots)",
                    _ => "The id",
                };
                parameters.push(json!({"name": name, "in": "path", "required": true,
                                       "description": description, "schema": schema}));
            }
        }
        for (name, description) in endpoint.params {
            // An empty value counts as absent (behaviour.md §1).
            let mut parameter = json!({"name": name, "in": "query", "required": false,
                                       "allowEmptyValue": true,
                                       "description": description, "schema": query_schema(name)});
            if *name == "state" {
                parameter["style"] = json!("form");
                parameter["explode"] = json!(true);
            }
            parameters.push(parameter);
        }
        if endpoint.list {
            // The server reads these as non-negative integers (`Params::natural`).
            for (name, description) in PAGINATION {
                parameters.push(json!({"name": name, "in": "query", "required": false,
                                       "allowEmptyValue": true, "description": description,
                                       "schema": {"type": "integer", "minimum": 0}}));
            }
        }
        let item = (endpoint.body)(&mut schemas);
        let ok_schema = if endpoint.list { page(item) } else { item };
        let in_event = endpoint.path.starts_with("/api/events/{event}");
        // An organiser's paths (v1 teams) are scoped by it as events' are.
        let in_organiser = endpoint.path.starts_with("/api/organisers/{organiser}");
        let mut responses = Map::new();
        responses.insert(
            "200".into(),
            json!({"description": "OK", "content": {"application/json": {"schema": ok_schema}}}),
        );
        // Bad query parameters: one key each. A path segment after the
        // event that is not valid UTF-8 once percent-decoded is refused by
        // the path extractor with a `detail`.
        let reads_params = endpoint.list || !endpoint.params.is_empty();
        let nested = path_parameters > usize::from(in_event || in_organiser);
        let bad_request = match (reads_params, nested) {
            (true, false) => Some(reference("BadParameters")),
            (false, true) => Some(reference("Error")),
            (true, true) => {
                Some(json!({"oneOf": [reference("BadParameters"), reference("Error")]}))
            }
            (false, false) => None,
        };
        if let Some(schema) = bad_request {
            responses.insert(
                "400".into(),
                json!({"description": "Bad query parameters (one key per parameter, each with its messages), or a path segment that is not UTF-8 (`detail`)",
                       "content": {"application/json": {"schema": schema}}}),
            );
        }
        responses.insert(
            "401".into(),
            error_response("Invalid token (`WWW-Authenticate: Token`)"),
        );
        if in_event {
            responses.insert(
                "403".into(),
                error_response("The event does not exist or the caller may not see it"),
            );
        }
        if in_organiser {
            responses.insert(
                "403".into(),
                error_response("The caller may not see the organiser's teams"),
            );
        }
        if endpoint.list || nested {
            responses.insert(
                "404".into(),
                error_response(if endpoint.list {
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
        paths.insert(
            format!("{}/", endpoint.path),
            json!({"get": {
                "summary": endpoint.summary,
                "operationId": operation_id(endpoint.path),
                "tags": [tag(endpoint.path)],
                "parameters": parameters,
                "responses": responses,
            }}),
        );
    }
    schemas.insert(
        "BadParameters",
        json!({"type": "object", "minProperties": 1,
               "additionalProperties": {"type": "array", "items": {"type": "string"}, "minItems": 1},
               "description": "One key per bad query parameter, with its messages"}),
    );
    schemas.close_objects();
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "confapi",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Read API of a conference call-for-proposals and scheduling system, compatible with the pretalx API. Every path also works without its trailing slash. What a caller sees depends on their role in each event (organiser, reviewer or public); bodies whose fields depend on it are a `oneOf` of one closed variant per role. A reviewer without speaker names, and anyone passing `anon`, gets anonymised submissions: the same fields, `speakers` empty.",
        },
        "components": {
            "securitySchemes": {"token": {"type": "apiKey", "in": "header", "name": "Authorization",
                                           "description": "`Token <key>`, `Bearer <key>` or the bare key"}},
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
