//! Compact JSON bodies, byte for byte what sonic-rs writes, faster where
//! pages spend their time.
//!
//! sonic-rs's own formatter writes every number and every string but
//! short ones with nothing to escape (the same escapes, the same float
//! digits); this serializer lays out the objects and arrays around them,
//! and copies those short strings itself (`short_clean_string`).
//! What it saves: a struct's field names are `&'static str`s of our own
//! types (Rust names or `rename`s, never anything to escape), written as
//! they are, where sonic-rs escapes each name as if it were data
//! (reserving six times its length and scanning it: 10,000 names on a v1
//! page with pytanis's expansion, the largest share of its serialisation:
//! docs/bench-log.md). Anything it does not handle exactly as sonic-rs does
//! (another crate's private tokens, bytes, keys that are not strings or
//! numbers) is an error, and `to_vec` then leaves the whole value to
//! sonic-rs.
//!
//! Here: the entry points (`to_vec`, `fragment`, `append`, `json_bytes`).
//! `writer`: the serializer; `bytes`: the short strings, names and copies
//! it writes; `raw`: JSON text written as it is or by hand (`Raw`,
//! `Direct`, `ObjectText`). Each keeps beside it the tests that hold it
//! equal to sonic-rs.

mod bytes;
mod raw;
mod writer;

use serde::Serialize;

pub use raw::{Direct, Elements, ObjectText, Raw};
pub use writer::{Compound, Struct, Unsupported, Writer};

/// sonic-rs's name for its raw value, `LazyValue` (`lazyvalue::TOKEN`, not
/// exported): a struct of this name holds JSON text in its one field
/// (`views_v1::RawJson` writes its memoised JSON so).
pub const SONIC_RAW_TOKEN: &str = "$sonic_rs::LazyValue";

/// sonic-rs's raw values (`LazyValue`, `RawNumber`): their one field is
/// JSON text, written as it is.
const SONIC_RAW_TOKENS: [&str; 2] = [SONIC_RAW_TOKEN, "$sonic_rs::private::JsonNumber"];

thread_local! {
    /// The length of the last body this thread wrote: the next starts with
    /// room for as much and a quarter more, as pages of one kind come in
    /// runs of similar sizes (a page of 240 kB grown from a few hundred
    /// bytes was copied ten times over; with room for exactly the last
    /// one, every page longer than the one before was copied once, a
    /// twelfth of an expanded page's instructions: callgrind).
    static LAST_LENGTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// `value`, a whole body, as compact JSON, as `sonic_rs::to_vec` writes it.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> sonic_rs::Result<Vec<u8>> {
    const MIN: usize = 256;
    const MAX: usize = 4 << 20;
    let last = LAST_LENGTH.get();
    let mut out = with_capacity(value, (last + last / 4).clamp(MIN, MAX))?;
    LAST_LENGTH.set(out.len());
    // Bodies are kept (the response cache): not with a larger one's room.
    if out.capacity() > 2 * out.len().max(MIN) {
        out.shrink_to_fit();
    }
    Ok(out)
}

/// `value`, a small part of a body (an object a page repeats), as compact
/// JSON: neither sized by nor counted as the thread's last body, which it
/// is written in the middle of. With room to spare: the caller keeps a
/// copy (the memo's `Rc<str>`), not this.
pub fn fragment<T: Serialize + ?Sized>(value: &T) -> sonic_rs::Result<Vec<u8>> {
    with_capacity(value, 2048)
}

/// Appends `value` as compact JSON to `out`, as `to_vec` writes it, in the
/// room `out` already has (a digest's scratch, reused value after value).
pub fn append<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> sonic_rs::Result<()> {
    let start = out.len();
    match value.serialize(&mut Writer { out: &mut *out }) {
        Ok(()) => Ok(()),
        Err(Unsupported) => {
            out.truncate(start);
            out.extend_from_slice(&sonic_rs::to_vec(value)?);
            Ok(())
        }
    }
}

/// `value` as a whole body (`to_vec`), for answers, exports and webhook
/// payloads; should it fail, the body of a 500 instead.
pub fn json_bytes<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    to_vec(value).unwrap_or_else(|_| b"{\"detail\": \"Internal server error.\"}".to_vec())
}

fn with_capacity<T: Serialize + ?Sized>(value: &T, capacity: usize) -> sonic_rs::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(capacity);
    append(&mut out, value)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde::Serialize;

    use super::{append, fragment, to_vec, Writer};

    /// What this serializer writes, as a body and as a fragment, is what
    /// sonic-rs writes (the pair every test here holds equal).
    pub(super) fn same_as_sonic<T: Serialize + ?Sized>(value: &T) {
        let sonic = sonic_rs::to_string(value).unwrap();
        assert_eq!(String::from_utf8(to_vec(value).unwrap()).unwrap(), sonic);
        assert_eq!(String::from_utf8(fragment(value).unwrap()).unwrap(), sonic);
    }

    /// A body starts with room for the thread's last body and a quarter
    /// more, so that a slightly longer one is not copied into a buffer
    /// twice the size; a fragment written in the middle of a body neither
    /// takes that room nor changes it.
    #[test]
    fn bodies_are_sized_by_the_last_body_and_not_by_fragments() {
        let words = |n| vec!["12345678"; n];
        assert_eq!(to_vec(&words(10_000)).unwrap().len(), 110_001);
        fragment(&words(1)).unwrap();
        let longer = to_vec(&words(11_500)).unwrap();
        assert_eq!(longer.len(), 126_501);
        assert_eq!(longer.capacity(), 110_001 + 110_001 / 4);
    }

    #[derive(Serialize)]
    enum Kind {
        Unit,
        #[serde(rename = "renamed")]
        Renamed,
        Newtype(i64),
        Tuple(i64, String),
        Struct {
            a: Option<bool>,
            b: Vec<u8>,
        },
    }

    #[derive(Serialize)]
    struct Fields<'a> {
        text: &'a str,
        #[serde(rename = "abstract")]
        abstract_: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<i64>,
        nothing: Option<i64>,
        kinds: Vec<Kind>,
        empty: Vec<i64>,
        empty_map: BTreeMap<String, i64>,
        by_number: BTreeMap<i64, &'a str>,
        by_flag: BTreeMap<bool, ()>,
        tuple: (u8, i128, f32),
        floats: [f64; 9],
        unit: (),
        letter: char,
        #[serde(flatten)]
        flattened: BTreeMap<&'a str, u64>,
    }

    #[test]
    fn writes_what_sonic_writes() {
        same_as_sonic(&Fields {
            text: "quote \" backslash \\ newline \n tab \t nul \0 \u{1f} ü € 😀 \u{2028}",
            abstract_: "x".repeat(100),
            skipped: None,
            nothing: None,
            kinds: vec![
                Kind::Unit,
                Kind::Renamed,
                Kind::Newtype(-3),
                Kind::Tuple(1, "a\"b".into()),
                Kind::Struct {
                    a: Some(true),
                    b: vec![0, 255],
                },
            ],
            empty: vec![],
            empty_map: BTreeMap::new(),
            by_number: [(-1, "minus"), (7, "seven")].into(),
            by_flag: [(true, ())].into(),
            tuple: (255, -170141183460469231731687303715884105728, 1.5),
            floats: [
                0.1,
                -0.0,
                3.0,
                1e21,
                1e-7,
                4.35,
                f64::NAN,
                f64::INFINITY,
                123456.789,
            ],
            unit: (),
            letter: '"',
            flattened: [("x\ty", 1)].into(),
        });
    }

    #[test]
    fn writes_raw_values_as_they_are() {
        let raw: sonic_rs::LazyValue = sonic_rs::from_str(r#"{"a": [1, 2]}"#).unwrap();
        same_as_sonic(&vec![raw]);
        let number: sonic_rs::RawNumber = sonic_rs::from_str("1.50").unwrap();
        same_as_sonic(&number);
    }

    #[test]
    fn leaves_to_sonic_what_it_does_not_write_itself() {
        // serde_json's raw value token, a float key, bytes.
        let raw = serde_json::value::RawValue::from_string("[1,2]".into()).unwrap();
        same_as_sonic(&raw);
        same_as_sonic(&serde_bytes_like(&[1, 2, 3]));
        same_as_sonic(&vec![FloatKey(1.5)]);
    }

    #[test]
    fn appends_after_what_is_there_even_when_left_to_sonic() {
        // The float key comes after an item this serializer has written:
        // that part must not stay in front of sonic-rs's whole value.
        let value = (vec![1, 2], vec![FloatKey(1.5)]);
        let mut scratch = Vec::new();
        assert!(value.serialize(&mut Writer { out: &mut scratch }).is_err());
        assert!(scratch.starts_with(b"[[1,2]"), "written before the key");
        let mut out = b"prefix:".to_vec();
        append(&mut out, &value).unwrap();
        let mut expected = b"prefix:".to_vec();
        expected.extend(sonic_rs::to_vec(&value).unwrap());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(expected).unwrap()
        );
        let mut out = b"[".to_vec();
        append(&mut out, "a \"quoted\" text").unwrap();
        assert_eq!(out, br#"["a \"quoted\" text""#);
    }

    /// A map with a float key (sonic-rs writes it quoted).
    struct FloatKey(f64);
    impl Serialize for FloatKey {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = s.serialize_map(Some(1))?;
            map.serialize_entry(&self.0, "value")?;
            map.end()
        }
    }

    struct Bytes<'a>(&'a [u8]);
    impl Serialize for Bytes<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
    fn serde_bytes_like(bytes: &[u8]) -> Bytes<'_> {
        Bytes(bytes)
    }

    fn json_values() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<u64>().prop_map(serde_json::Value::from),
            any::<f64>().prop_map(serde_json::Value::from),
            any::<String>().prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
                prop::collection::btree_map(any::<String>(), inner, 0..8)
                    .prop_map(|map| serde_json::Value::Object(map.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_json_value_is_written_as_sonic_writes_it(value in json_values()) {
            prop_assert_eq!(
                String::from_utf8(to_vec(&value).unwrap()).unwrap(),
                sonic_rs::to_string(&value).unwrap()
            );
        }
    }
}
