//! The document as the validator reads it: a JSON tree that borrows its
//! strings from the file's text (a string without escapes is not copied)
//! and keeps each object's members in a list, in the file's order.
//!
//! It answers exactly as `serde_json::Value` (without `preserve_order`)
//! would, so that every message and JSON path stays as it was: a member
//! named twice counts once, with its last value; iterating an object goes
//! by key order; numbers are integers (positive, negative) or floats as
//! serde_json tells them apart and prints them. It is parsed by serde_json
//! itself, so syntax errors, their positions and the nesting limit are
//! serde_json's.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// One JSON value of the document.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    Object(Map<'a>),
}

/// A JSON number as serde_json keeps it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// Zero and above.
    Pos(u64),
    /// Below zero.
    Neg(i64),
    Float(f64),
}

impl Number {
    pub fn is_i64(&self) -> bool {
        match *self {
            Number::Pos(n) => n <= i64::MAX as u64,
            Number::Neg(_) => true,
            Number::Float(_) => false,
        }
    }

    pub fn is_u64(&self) -> bool {
        matches!(self, Number::Pos(_))
    }

    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Number::Pos(n) => i64::try_from(n).ok(),
            Number::Neg(n) => Some(n),
            Number::Float(_) => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        Some(match *self {
            Number::Pos(n) => n as f64,
            Number::Neg(n) => n as f64,
            Number::Float(f) => f,
        })
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Number::Pos(n) => write!(f, "{n}"),
            Number::Neg(n) => write!(f, "{n}"),
            // serde_json's own rendering (ryu); a parsed float is finite.
            Number::Float(x) => match serde_json::Number::from_f64(x) {
                Some(n) => write!(f, "{n}"),
                None => write!(f, "{x}"),
            },
        }
    }
}

/// An object's members in the file's order. Lookups find a key's last
/// value, and iteration goes by key order with each key once, as
/// serde_json's map does.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Map<'a> {
    members: Vec<(Cow<'a, str>, Value<'a>)>,
}

impl<'a> Map<'a> {
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        self.members
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The members, each key once (its last value), in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value<'a>)> {
        let sorted = self.members.windows(2).all(|w| w[0].0 < w[1].0);
        let members: Vec<(&str, &Value<'a>)> = if sorted {
            self.members.iter().map(|(k, v)| (k.as_ref(), v)).collect()
        } else {
            let mut all: Vec<(usize, &str, &Value<'a>)> = self
                .members
                .iter()
                .enumerate()
                .map(|(i, (k, v))| (i, k.as_ref(), v))
                .collect();
            // By key, the last of equal keys first; keep that one.
            all.sort_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)));
            all.dedup_by(|later, first| later.1 == first.1);
            all.into_iter().map(|(_, k, v)| (k, v)).collect()
        };
        members.into_iter()
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &Value<'a>> {
        self.iter().map(|(_, v)| v)
    }

    /// Keys in the file's order, repeats included (cheap: no sorting).
    pub fn raw_keys(&self) -> impl Iterator<Item = &str> {
        self.members.iter().map(|(k, _)| k.as_ref())
    }

    pub fn len(&self) -> usize {
        self.keys().count()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }
}

impl<'a> Value<'a> {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Value<'a>>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&Map<'a>> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The same tree, borrowing from a `serde_json::Value` (sync builds its
    /// documents as those).
    pub fn from_serde(value: &'a serde_json::Value) -> Value<'a> {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(if let Some(u) = n.as_u64() {
                Number::Pos(u)
            } else if let Some(i) = n.as_i64() {
                Number::Neg(i)
            } else {
                Number::Float(n.as_f64().unwrap_or_default())
            }),
            serde_json::Value::String(s) => Value::String(Cow::Borrowed(s)),
            serde_json::Value::Array(items) => {
                Value::Array(items.iter().map(Value::from_serde).collect())
            }
            serde_json::Value::Object(map) => Value::Object(Map {
                members: map
                    .iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Value::from_serde(v)))
                    .collect(),
            }),
        }
    }
}

/// Compact JSON, as serde_json writes its `Value` (members in key order).
impl fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl serde::Serialize for Value<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(Number::Pos(n)) => s.serialize_u64(*n),
            Value::Number(Number::Neg(n)) => s.serialize_i64(*n),
            Value::Number(Number::Float(x)) => s.serialize_f64(*x),
            Value::String(text) => s.serialize_str(text),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut out = s.serialize_map(None)?;
                for (k, v) in map.iter() {
                    out.serialize_entry(k, v)?;
                }
                out.end()
            }
        }
    }
}

/// Parses `text` as serde_json does, borrowing every string it can.
pub fn from_str(text: &str) -> serde_json::Result<Value<'_>> {
    serde_json::from_str(text)
}

impl<'de> Deserialize<'de> for Value<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value<'de>, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value<'de>, E> {
        Ok(Value::Number(if n < 0 {
            Number::Neg(n)
        } else {
            Number::Pos(n as u64)
        }))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value<'de>, E> {
        Ok(Value::Number(Number::Pos(n)))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value<'de>, E> {
        Ok(Value::Number(Number::Float(x)))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(s.to_string())))
    }

    fn visit_string<E>(self, s: String) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(s)))
    }

    fn visit_none<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value<'de>, D::Error> {
        Deserialize::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value<'de>, A::Error> {
        let mut members = Vec::with_capacity(access.size_hint().unwrap_or(0));
        while let Some(key) = access.next_key_seed(KeySeed)? {
            let value = access.next_value()?;
            members.push((key, value));
        }
        Ok(Value::Object(Map { members }))
    }
}

/// A member's name, borrowed when it has no escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(s))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s.to_string()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same answers as serde_json::Value, on the cases that differ in
    /// how they are kept: repeated keys, key order, numbers, escapes.
    #[test]
    fn it_reads_like_serde_json() {
        let text = r#"{"b": 1, "a": [true, null, -3, 2.50, 18446744073709551615, 1e300],
            "b": "x\"y", "c\u0041": {"z": 1, "y": 2}}"#;
        let ours = from_str(text).unwrap();
        let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
        let Value::Object(map) = &ours else { panic!() };
        let theirs_map = theirs.as_object().unwrap();
        assert_eq!(
            map.keys().collect::<Vec<_>>(),
            theirs_map.keys().map(String::as_str).collect::<Vec<_>>()
        );
        assert_eq!(map.len(), theirs_map.len());
        assert_eq!(map.get("b").unwrap().as_str(), Some("x\"y"));
        let Some(Value::Array(items)) = map.get("a") else {
            panic!()
        };
        let theirs_items = theirs["a"].as_array().unwrap();
        for (ours, theirs) in items.iter().zip(theirs_items) {
            match (ours, theirs) {
                (Value::Number(a), serde_json::Value::Number(b)) => {
                    assert_eq!(a.to_string(), b.to_string());
                    assert_eq!(a.is_i64(), b.is_i64());
                    assert_eq!(a.is_u64(), b.is_u64());
                    assert_eq!(a.as_i64(), b.as_i64());
                }
                (a, b) => assert_eq!(a, &Value::from_serde(b)),
            }
        }
        assert_eq!(ours.to_string(), theirs.to_string());
        // Errors are serde_json's own.
        for bad in ["{", "[1,]", "{\"a\" 1}", "1 2", "\"\\ud800\""] {
            assert_eq!(
                from_str(bad).unwrap_err().to_string(),
                serde_json::from_str::<serde_json::Value>(bad)
                    .unwrap_err()
                    .to_string()
            );
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(
            from_str(&deep).unwrap_err().to_string(),
            serde_json::from_str::<serde_json::Value>(&deep)
                .unwrap_err()
                .to_string()
        );
    }
}
