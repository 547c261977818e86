//! The values records are made of: multi-lingual texts (`I18n`) and
//! decimals kept as written (`Decimal`).

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

/// A multi-lingual string: locale → text. Written (stored, exported,
/// served) and read back in one canonical form, each locale once (its last
/// text) in locale order, as the dataset's reader reads an object, so that
/// equal texts are equal records whoever made them (issue 75). The second
/// field is true for pretalx's `null` (a text never set, where pretalx's
/// column is nullable): it has no texts, the legacy API and the exports
/// show it as `{}` like any empty text, v1 as `null` as pretalx does, and
/// the dataset keeps it as `null` where a field may be null.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct I18n(pub Vec<(String, String)>, pub bool);

impl I18n {
    pub fn en(text: &str) -> Self {
        if text.is_empty() {
            I18n::default()
        } else {
            I18n(vec![("en".to_string(), text.to_string())], false)
        }
    }

    /// A text never set (`null`).
    pub fn null() -> Self {
        I18n(Vec::new(), true)
    }

    pub fn is_null(&self) -> bool {
        self.1
    }

    /// For the dataset's nullable texts: `null` when never set, else the
    /// object.
    pub fn serialize_nullable<S: Serializer>(
        value: &I18n,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        if value.is_null() {
            serializer.serialize_none()
        } else {
            value.serialize(serializer)
        }
    }

    pub fn texts(&self) -> impl Iterator<Item = &str> + Clone {
        self.0.iter().map(|(_, text)| text.as_str())
    }

    /// No translation at all (`{}`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl I18n {
    /// Whether the texts are in the canonical form: locales in order, each
    /// once.
    pub fn is_canonical(&self) -> bool {
        self.0.windows(2).all(|w| w[0].0 < w[1].0)
    }
}

/// `pairs` in the canonical form: by locale, the last text of a repeated
/// one kept.
fn canonical<T>(pairs: &mut Vec<T>, locale: impl Fn(&T) -> &str) {
    if pairs.windows(2).all(|w| locale(&w[0]) < locale(&w[1])) {
        return;
    }
    // Stable: equal locales keep their order, and the last one wins.
    pairs.sort_by(|a, b| locale(a).cmp(locale(b)));
    let mut kept: Vec<T> = Vec::with_capacity(pairs.len());
    for pair in pairs.drain(..) {
        match kept.last_mut() {
            Some(last) if locale(last) == locale(&pair) => *last = pair,
            _ => kept.push(pair),
        }
    }
    *pairs = kept;
}

impl Serialize for I18n {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_canonical() {
            let mut map = serializer.serialize_map(Some(self.0.len()))?;
            for (locale, text) in &self.0 {
                map.serialize_entry(locale, text)?;
            }
            return map.end();
        }
        let mut pairs: Vec<&(String, String)> = self.0.iter().collect();
        canonical(&mut pairs, |(locale, _)| locale.as_str());
        let mut map = serializer.serialize_map(Some(pairs.len()))?;
        for (locale, text) in pairs {
            map.serialize_entry(locale, text)?;
        }
        map.end()
    }
}

/// In the API: an object of locale to text, `{}` when empty.
impl utoipa::PartialSchema for I18n {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .additional_properties(Some(ObjectBuilder::new().schema_type(Type::String)))
            .description(Some("Translated text: locale to text, `{}` when empty"))
            .into()
    }
}

impl utoipa::ToSchema for I18n {}

/// Reads the object form into the canonical form (as `Serialize` writes it).
impl<'de> Deserialize<'de> for I18n {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct I18nVisitor;
        impl<'de> Visitor<'de> for I18nVisitor {
            type Value = I18n;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of locale to text, or null")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<I18n, A::Error> {
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(1));
                while let Some(pair) = map.next_entry::<String, String>()? {
                    pairs.push(pair);
                }
                canonical(&mut pairs, |(locale, _)| locale.as_str());
                Ok(I18n(pairs, false))
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<I18n, E> {
                Ok(I18n::null())
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<I18n, E> {
                Ok(I18n::null())
            }
        }
        deserializer.deserialize_any(I18nVisitor)
    }
}

/// A decimal number as text, kept as given (`"1.5"`, `"-2"`, `"0.25"`):
/// pretalx shows review scores, score weights and a question's number
/// limits as decimal strings. Validation checks the form
/// (`-?digits[.digits]`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Decimal(pub String);

impl Decimal {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The value as a float (for comparisons and averages); 0 if the text
    /// is not a number, which validation rules out.
    pub fn to_f64(&self) -> f64 {
        self.0.parse().unwrap_or(0.0)
    }
}
