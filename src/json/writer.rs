//! The serializer (`Writer`): objects and arrays laid out here, the
//! numbers and strings in them written as sonic-rs writes them; what it
//! does not write exactly as sonic-rs does is `Unsupported`, and `to_vec`
//! leaves the whole value to sonic-rs.

use serde::ser::{self, Serialize};
use sonic_rs::format::{CompactFormatter, Formatter};

use super::bytes::{append_short, member_name, separator, short_clean_string};
use super::SONIC_RAW_TOKENS;

/// Something this serializer leaves to sonic-rs.
#[derive(Debug)]
pub struct Unsupported;

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("left to sonic-rs")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Unsupported
    }
}

pub(super) type Result<T = ()> = std::result::Result<T, Unsupported>;

pub struct Writer<'o> {
    pub(super) out: &'o mut Vec<u8>,
}

impl Writer<'_> {
    #[inline]
    pub(super) fn string(&mut self, value: &str) -> Result {
        if short_clean_string(self.out, value.as_bytes()) {
            return Ok(());
        }
        // Writing into a Vec cannot fail.
        CompactFormatter
            .write_string_fast(self.out, value, true)
            .map_err(|_| Unsupported)
    }

    /// A name of our own types (a field or a variant): nothing to escape.
    #[inline]
    fn name(&mut self, name: &'static str) {
        debug_assert!(!name.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'));
        self.out.reserve(name.len() + 3);
        self.out.push(b'"');
        self.out.extend_from_slice(name.as_bytes());
        self.out.push(b'"');
    }

    #[inline]
    pub(super) fn integer(&mut self, value: impl itoa::Integer) {
        let mut digits = itoa::Buffer::new();
        append_short(self.out, digits.format(value).as_bytes());
    }
}

/// An array or object being written; `first` until its first member.
pub struct Compound<'w, 'o> {
    writer: &'w mut Writer<'o>,
    first: bool,
    /// Closes a variant's wrapping object after the value's own bracket.
    wrapped: bool,
}

impl Compound<'_, '_> {
    /// A struct field's `,"name":` at once (no comma before the first): the
    /// field names are our own and need no escaping (see `Writer::name`).
    #[inline(always)]
    fn field(&mut self, name: &'static str) {
        member_name(self.writer.out, &mut self.first, name);
    }

    #[inline]
    fn separate(&mut self) {
        separator(self.writer.out, &mut self.first);
    }

    #[inline]
    fn close(self, bracket: u8) -> Result {
        self.writer.out.push(bracket);
        if self.wrapped {
            self.writer.out.push(b'}');
        }
        Ok(())
    }
}

macro_rules! integers {
    ($($method:ident($type:ty)),*) => {
        $(
            #[inline]
            fn $method(self, value: $type) -> Result {
                self.integer(value);
                Ok(())
            }
        )*
    };
}

impl<'w, 'o> ser::Serializer for &'w mut Writer<'o> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'w, 'o>;
    type SerializeTuple = Compound<'w, 'o>;
    type SerializeTupleStruct = Compound<'w, 'o>;
    type SerializeTupleVariant = Compound<'w, 'o>;
    type SerializeMap = Compound<'w, 'o>;
    type SerializeStruct = Struct<'w, 'o>;
    type SerializeStructVariant = Compound<'w, 'o>;

    integers!(
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128)
    );

    #[inline]
    fn serialize_bool(self, value: bool) -> Result {
        self.out
            .extend_from_slice(if value { b"true" } else { b"false" });
        Ok(())
    }

    fn serialize_f32(self, value: f32) -> Result {
        if value.is_finite() {
            CompactFormatter
                .write_f32(self.out, value)
                .map_err(|_| Unsupported)
        } else {
            self.serialize_unit()
        }
    }

    fn serialize_f64(self, value: f64) -> Result {
        if value.is_finite() {
            CompactFormatter
                .write_f64(self.out, value)
                .map_err(|_| Unsupported)
        } else {
            self.serialize_unit()
        }
    }

    fn serialize_char(self, value: char) -> Result {
        self.string(value.encode_utf8(&mut [0; 4]))
    }

    #[inline]
    fn serialize_str(self, value: &str) -> Result {
        self.string(value)
    }

    fn serialize_bytes(self, _: &[u8]) -> Result {
        Err(Unsupported)
    }

    #[inline]
    fn serialize_none(self) -> Result {
        self.serialize_unit()
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result {
        self.serialize_unit()
    }

    #[inline]
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        self.name(variant);
        Ok(())
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.out.push(b'{');
        self.name(variant);
        self.out.push(b':');
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }

    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'w, 'o>> {
        self.out.push(b'[');
        Ok(Compound {
            writer: self,
            first: true,
            wrapped: false,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'w, 'o>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'w, 'o>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'w, 'o>> {
        self.out.push(b'{');
        self.name(variant);
        self.out.extend_from_slice(b":[");
        Ok(Compound {
            writer: self,
            first: true,
            wrapped: true,
        })
    }

    #[inline]
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'w, 'o>> {
        self.out.push(b'{');
        Ok(Compound {
            writer: self,
            first: true,
            wrapped: false,
        })
    }

    #[inline]
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Struct<'w, 'o>> {
        if SONIC_RAW_TOKENS.contains(&name) {
            return Ok(Struct::Raw(self));
        }
        // Another crate's private token (serde_json's raw values, say).
        if name.starts_with('$') {
            return Err(Unsupported);
        }
        self.out.push(b'{');
        Ok(Struct::Object(Compound {
            writer: self,
            first: true,
            wrapped: false,
        }))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'w, 'o>> {
        self.out.push(b'{');
        self.name(variant);
        self.out.extend_from_slice(b":{");
        Ok(Compound {
            writer: self,
            first: true,
            wrapped: true,
        })
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.separate();
        value.serialize(&mut *self.writer)
    }

    #[inline]
    fn end(self) -> Result {
        self.close(b']')
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result {
        self.close(b']')
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result {
        self.close(b']')
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, value)
    }

    fn end(self) -> Result {
        self.close(b']')
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        self.separate();
        key.serialize(Key(&mut *self.writer))?;
        self.writer.out.push(b':');
        Ok(())
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        value.serialize(&mut *self.writer)
    }

    #[inline]
    fn end(self) -> Result {
        self.close(b'}')
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.field(key);
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result {
        self.close(b'}')
    }
}

/// A struct being written: an object, or a raw value's JSON text.
pub enum Struct<'w, 'o> {
    Object(Compound<'w, 'o>),
    Raw(&'w mut Writer<'o>),
}

impl ser::SerializeStruct for Struct<'_, '_> {
    type Ok = ();
    type Error = Unsupported;

    // Inlined into each derived `serialize`: as a call per field (a few
    // thousand a page) its prologue and spills were an eighth of an
    // expanded page's instructions (callgrind).
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        match self {
            Struct::Object(object) => {
                object.field(key);
                value.serialize(&mut *object.writer)
            }
            Struct::Raw(writer) => value.serialize(RawText(writer)),
        }
    }

    #[inline]
    fn end(self) -> Result {
        match self {
            Struct::Object(object) => object.close(b'}'),
            Struct::Raw(_) => Ok(()),
        }
    }
}

/// `Serializer` methods that leave the value to sonic-rs (`Unsupported`):
/// a method with one plain argument names its type.
macro_rules! refuse {
    ($($method:ident $(($type:ty))?),* $(,)?) => {
        $(refuse!(@ $method $(($type))?);)*
    };
    (@ $method:ident ($type:ty)) => {
        fn $method(self, _: $type) -> Result {
            Err(Unsupported)
        }
    };
    (@ serialize_none) => {
        fn serialize_none(self) -> Result {
            Err(Unsupported)
        }
    };
    (@ serialize_some) => {
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result {
            Err(Unsupported)
        }
    };
    (@ serialize_unit) => {
        fn serialize_unit(self) -> Result {
            Err(Unsupported)
        }
    };
    (@ serialize_unit_struct) => {
        fn serialize_unit_struct(self, _: &'static str) -> Result {
            Err(Unsupported)
        }
    };
    (@ serialize_unit_variant) => {
        fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result {
            Err(Unsupported)
        }
    };
    (@ serialize_newtype_struct) => {
        fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, _: &T) -> Result {
            Err(Unsupported)
        }
    };
    (@ serialize_newtype_variant) => {
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result {
            Err(Unsupported)
        }
    };
    (@ serialize_seq) => {
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
            Err(Unsupported)
        }
    };
    (@ serialize_tuple) => {
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
            Err(Unsupported)
        }
    };
    (@ serialize_tuple_struct) => {
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct> {
            Err(Unsupported)
        }
    };
    (@ serialize_tuple_variant) => {
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant> {
            Err(Unsupported)
        }
    };
    (@ serialize_map) => {
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
            Err(Unsupported)
        }
    };
    (@ serialize_struct) => {
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
            Err(Unsupported)
        }
    };
    (@ serialize_struct_variant) => {
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant> {
            Err(Unsupported)
        }
    };
}

/// A map key: a string, or a number or boolean written as a string (as
/// sonic-rs writes them); anything else is left to sonic-rs.
struct Key<'w, 'o>(&'w mut Writer<'o>);

impl Key<'_, '_> {
    fn quoted(self, text: &str) -> Result {
        self.0.out.push(b'"');
        self.0.out.extend_from_slice(text.as_bytes());
        self.0.out.push(b'"');
        Ok(())
    }
}

macro_rules! integer_keys {
    ($($method:ident($type:ty)),*) => {
        $(
            fn $method(self, value: $type) -> Result {
                self.quoted(itoa::Buffer::new().format(value))
            }
        )*
    };
}

impl ser::Serializer for Key<'_, '_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = ser::Impossible<(), Unsupported>;
    type SerializeTuple = ser::Impossible<(), Unsupported>;
    type SerializeTupleStruct = ser::Impossible<(), Unsupported>;
    type SerializeTupleVariant = ser::Impossible<(), Unsupported>;
    type SerializeMap = ser::Impossible<(), Unsupported>;
    type SerializeStruct = ser::Impossible<(), Unsupported>;
    type SerializeStructVariant = ser::Impossible<(), Unsupported>;

    integer_keys!(
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128)
    );

    #[inline]
    fn serialize_str(self, value: &str) -> Result {
        self.0.string(value)
    }

    fn serialize_char(self, value: char) -> Result {
        self.0.string(value.encode_utf8(&mut [0; 4]))
    }

    fn serialize_bool(self, value: bool) -> Result {
        self.quoted(if value { "true" } else { "false" })
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        self.0.string(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result {
        value.serialize(self)
    }

    // The rest is rare or refused as a key: sonic-rs decides.
    refuse!(
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_bytes(&[u8]),
        serialize_none,
        serialize_some,
        serialize_unit,
        serialize_unit_struct,
        serialize_newtype_variant,
        serialize_seq,
        serialize_tuple,
        serialize_tuple_struct,
        serialize_tuple_variant,
        serialize_map,
        serialize_struct,
        serialize_struct_variant,
    );
}

/// A raw value's one field: its JSON text, written as it is.
struct RawText<'w, 'o>(&'w mut Writer<'o>);

impl ser::Serializer for RawText<'_, '_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = ser::Impossible<(), Unsupported>;
    type SerializeTuple = ser::Impossible<(), Unsupported>;
    type SerializeTupleStruct = ser::Impossible<(), Unsupported>;
    type SerializeTupleVariant = ser::Impossible<(), Unsupported>;
    type SerializeMap = ser::Impossible<(), Unsupported>;
    type SerializeStruct = ser::Impossible<(), Unsupported>;
    type SerializeStructVariant = ser::Impossible<(), Unsupported>;

    #[inline]
    fn serialize_str(self, text: &str) -> Result {
        self.0.out.extend_from_slice(text.as_bytes());
        Ok(())
    }

    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_none,
        serialize_some,
        serialize_unit,
        serialize_unit_struct,
        serialize_unit_variant,
        serialize_newtype_struct,
        serialize_newtype_variant,
        serialize_seq,
        serialize_tuple,
        serialize_tuple_struct,
        serialize_tuple_variant,
        serialize_map,
        serialize_struct,
        serialize_struct_variant,
    );
}
