//! The schemas of the OpenAPI document (`document`): every schema of a
//! body comes from a `#[derive(utoipa::ToSchema)]` on the view type itself
//! (`domain::views`, `model`'s closed sets, `ErrorBody`), so the document
//! follows the code. Each endpoint's `Doc` names its body with `view`,
//! `merged` or `by_role`.
//!
//! Where the role changes the shape (submissions, talks, speakers, rooms),
//! the body is a `oneOf` of closed variants, one per role, made from the
//! view's schema and its `RoleFields`.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::domain::views::RoleFields;

/// The component schemas of the document, by name.
#[derive(Default)]
pub struct Schemas(pub(super) BTreeMap<String, Value>);

/// How an endpoint's 200 body is described: registers what it needs in
/// `Schemas` and returns the schema of the body (of each result, for a list).
pub type Body = fn(&mut Schemas) -> Value;

fn to_value<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

pub(super) fn reference(name: &str) -> Value {
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

    /// With `fields` or `omit` (v1), an object has only some of its
    /// fields: the whole object, or `<name>.Sparse`, its fields with none
    /// required.
    pub(super) fn whole_or_sparse(&mut self, item: Value) -> Value {
        let Some(name) = item["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/components/schemas/"))
            .map(str::to_string)
        else {
            return item;
        };
        let Some(mut sparse) = self.0.get(&name).cloned() else {
            return item;
        };
        let Some(object) = sparse.as_object_mut() else {
            return item;
        };
        object.remove("required");
        object.insert(
            "description".into(),
            json!(format!(
                "{name} with `fields` or `omit`: some of its fields"
            )),
        );
        let sparse = self.insert(&format!("{name}.Sparse"), sparse);
        json!({"anyOf": [item, sparse]})
    }

    pub(super) fn insert(&mut self, name: &str, schema: Value) -> Value {
        self.0.insert(name.to_string(), schema);
        reference(name)
    }

    /// Every view is a closed object: serde writes exactly the fields of
    /// the struct, so anything else is a bug the document should reveal.
    pub(super) fn close_objects(&mut self) {
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

/// A view with another flattened into it (serde's `flatten`, which utoipa
/// cannot describe as one closed object): the component `name`, with the
/// properties of both, each required as in its own type.
pub fn merged<T: ToSchema, D: ToSchema>(schemas: &mut Schemas, name: &str) -> Value {
    schemas.add::<T>();
    schemas.add::<D>();
    let mut whole = to_value(&T::schema());
    let detail = to_value(&D::schema());
    for key in ["properties", "required"] {
        match (&mut whole[key], &detail[key]) {
            (Value::Object(into), Value::Object(from)) => into.extend(from.clone()),
            (Value::Array(into), Value::Array(from)) => into.extend(from.iter().cloned()),
            _ => {}
        }
    }
    whole["description"] = json!(format!("{} with {}", T::name(), D::name()));
    schemas.insert(name, whole)
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
