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
//! BENCHMARKS.md). Anything it does not handle exactly as sonic-rs does
//! (another crate's private tokens, bytes, keys that are not strings or
//! numbers) is an error, and `to_vec` then leaves the whole value to
//! sonic-rs.

use serde::ser::{self, Serialize};
use sonic_rs::format::{CompactFormatter, Formatter};

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

type Result<T = ()> = std::result::Result<T, Unsupported>;

pub struct Writer<'o> {
    out: &'o mut Vec<u8>,
}

impl Writer<'_> {
    #[inline]
    fn string(&mut self, value: &str) -> Result {
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
    fn integer(&mut self, value: impl itoa::Integer) {
        let mut digits = itoa::Buffer::new();
        append_short(self.out, digits.format(value).as_bytes());
    }
}

/// The longest string `short_clean_string` writes.
const SHORT_STRING_MAX: usize = 64;

/// Appends `bytes` as a JSON string when they are 64 or fewer and hold
/// nothing JSON escapes (a control character, `"` or `\`): the bytes
/// between quotes, as sonic-rs writes them; false, writing nothing,
/// otherwise. Most strings of a page are that short (codes, names,
/// locales, times, e-mail addresses, URLs: 3,100 of an expanded v1
/// page's 3,300), and sonic-rs's general path (room for six times the
/// length, 32 lanes in two SSE2 halves, a page-crossing check) cost each
/// of them about 60 instructions (callgrind, BENCHMARKS.md); here an SSE2
/// compare per 16 bytes, on loads that stay within the string, and as
/// many stores.
#[inline(always)]
fn short_clean_string(out: &mut Vec<u8>, bytes: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let n = bytes.len();
        if n > SHORT_STRING_MAX {
            return false;
        }
        // SAFETY: SSE2 is part of x86-64. Every load below reads within
        // `bytes` (each starts at or after its start and ends at or before
        // its end), and every store within the `n + 2` bytes reserved past
        // `out`'s length, all of which are written before `set_len`.
        unsafe {
            let src = bytes.as_ptr();
            // The lanes of `v` that need an escape, as a bit mask.
            let escapes = |v: __m128i| {
                let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
                let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
                let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
                _mm_movemask_epi8(_mm_or_si128(control, _mm_or_si128(quote, backslash)))
            };
            out.reserve(n + 2);
            let len = out.len();
            let dst = out.as_mut_ptr().add(len + 1);
            if n >= 16 {
                // 16 bytes at a time, the last 16 overlapping the others.
                let load = |at: usize| _mm_loadu_si128(src.add(at).cast());
                let mut found = escapes(load(n - 16));
                let mut at = 0;
                while at + 16 < n {
                    found |= escapes(load(at));
                    at += 16;
                }
                if found != 0 {
                    return false;
                }
                let mut at = 0;
                while at + 16 < n {
                    _mm_storeu_si128(dst.add(at).cast(), load(at));
                    at += 16;
                }
                _mm_storeu_si128(dst.add(n - 16).cast(), load(n - 16));
            } else if n >= 8 {
                let head = src.cast::<u64>().read_unaligned();
                let tail = src.add(n - 8).cast::<u64>().read_unaligned();
                let both = _mm_set_epi64x(tail as i64, head as i64);
                if escapes(both) != 0 {
                    return false;
                }
                dst.cast::<u64>().write_unaligned(head);
                dst.add(n - 8).cast::<u64>().write_unaligned(tail);
            } else if n >= 4 {
                let head = src.cast::<u32>().read_unaligned();
                let tail = src.add(n - 4).cast::<u32>().read_unaligned();
                let both = _mm_set_epi32(0x2020_2020, 0x2020_2020, tail as i32, head as i32);
                if escapes(both) != 0 {
                    return false;
                }
                dst.cast::<u32>().write_unaligned(head);
                dst.add(n - 4).cast::<u32>().write_unaligned(tail);
            } else {
                for i in 0..n {
                    let b = *src.add(i);
                    if b < 0x20 || b == b'"' || b == b'\\' {
                        return false;
                    }
                    dst.add(i).write(b);
                }
            }
            dst.sub(1).write(b'"');
            dst.add(n).write(b'"');
            out.set_len(len + n + 2);
        }
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (out, bytes);
        false
    }
}

/// Appends `,"name":` (the comma where `comma`) with one capacity check
/// and no call to `memcpy`: a struct field's name is written thousands of
/// times a page, and `push`es and `extend_from_slice`s each checking the
/// capacity, with a `memcpy` call for a name of a few bytes, were a tenth
/// of an expanded page's instructions (callgrind, BENCHMARKS.md).
#[inline(always)]
fn field_name(out: &mut Vec<u8>, comma: bool, name: &[u8]) {
    out.reserve(name.len() + 4);
    let len = out.len();
    // SAFETY: `reserve` made room for `name.len() + 4` bytes past `len`,
    // and every byte up to the new length is written before `set_len`.
    unsafe {
        let mut at = out.as_mut_ptr().add(len);
        if comma {
            at.write(b',');
            at = at.add(1);
        }
        at.write(b'"');
        copy_short(name, at.add(1));
        at = at.add(1 + name.len());
        at.write(b'"');
        at.add(1).write(b':');
        let end = at.add(2).offset_from(out.as_ptr()) as usize;
        out.set_len(end);
    }
}

/// An object member's `,"name":` (no comma before the first member, which
/// `first` tracks): the name one of our own, with nothing to escape.
#[inline(always)]
fn member_name(out: &mut Vec<u8>, first: &mut bool, name: &'static str) {
    debug_assert!(!name.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'));
    field_name(out, !std::mem::take(first), name.as_bytes());
}

/// The comma before an array's element, but its first (which `first` tracks).
#[inline(always)]
fn separator(out: &mut Vec<u8>, first: &mut bool) {
    if !std::mem::take(first) {
        out.push(b',');
    }
}

/// Appends `bytes`, a few of them (a number's digits), as `field_name` does.
#[inline(always)]
fn append_short(out: &mut Vec<u8>, bytes: &[u8]) {
    out.reserve(bytes.len());
    let len = out.len();
    // SAFETY: room for `bytes.len()` bytes past `len`, all written.
    unsafe {
        copy_short(bytes, out.as_mut_ptr().add(len));
        out.set_len(len + bytes.len());
    }
}

/// Copies `src` to `dst` as two overlapping loads and stores of the widest
/// size that fits (a short `memcpy` inlined); long ones call `memcpy`.
///
/// # Safety
/// `dst` is valid for `src.len()` bytes of writes and does not overlap `src`.
#[inline(always)]
unsafe fn copy_short(src: &[u8], dst: *mut u8) {
    let n = src.len();
    let s = src.as_ptr();
    // SAFETY (each branch): the reads stay within `src` (both start at or
    // after its start and end at or before its end), the writes within
    // `dst`'s `n` bytes.
    unsafe {
        if n > 32 {
            std::ptr::copy_nonoverlapping(s, dst, n);
        } else if n >= 16 {
            let head = s.cast::<u128>().read_unaligned();
            let tail = s.add(n - 16).cast::<u128>().read_unaligned();
            dst.cast::<u128>().write_unaligned(head);
            dst.add(n - 16).cast::<u128>().write_unaligned(tail);
        } else if n >= 8 {
            let head = s.cast::<u64>().read_unaligned();
            let tail = s.add(n - 8).cast::<u64>().read_unaligned();
            dst.cast::<u64>().write_unaligned(head);
            dst.add(n - 8).cast::<u64>().write_unaligned(tail);
        } else if n >= 4 {
            let head = s.cast::<u32>().read_unaligned();
            let tail = s.add(n - 4).cast::<u32>().read_unaligned();
            dst.cast::<u32>().write_unaligned(head);
            dst.add(n - 4).cast::<u32>().write_unaligned(tail);
        } else {
            for i in 0..n {
                dst.add(i).write(*s.add(i));
            }
        }
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

/// JSON text written as it is: by this serializer and by sonic-rs alike
/// (as sonic-rs writes its own `LazyValue`; sonic-rs's `to_value`, behind
/// `fields` and `omit`, parses it). The text must be one JSON value.
pub struct Raw<'a>(pub &'a str);

impl Serialize for Raw<'_> {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut raw = serializer.serialize_struct(SONIC_RAW_TOKEN, 1)?;
        raw.serialize_field(SONIC_RAW_TOKEN, self.0)?;
        raw.end()
    }
}

/// JSON text that `write` appends, written straight into the body where
/// this module's serializer is writing it, and handed to any other
/// serializer (sonic-rs, behind `fields` and `omit`) as raw text from a
/// buffer: lists written by hand (`views_v1`'s answers and speakers) went
/// into a buffer of their own and were then copied into the page, most of
/// an expanded page's bytes twice (callgrind, BENCHMARKS.md). `write`
/// must append exactly one JSON value, as UTF-8.
pub struct Direct<F>(pub F);

impl<F: Fn(&mut Vec<u8>)> Serialize for Direct<F> {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        if typeid::of::<S>() == typeid::of::<&mut Writer<'_>>() {
            // SAFETY: `S` is `&mut Writer<'o>` for some lifetimes (typeid
            // compares types without them), so this copies the reference
            // as it is; it is used only while `serializer`, forgotten in
            // its place (a reference: nothing to drop), would have been.
            let writer: &mut Writer<'_> = unsafe { std::mem::transmute_copy(&serializer) };
            std::mem::forget(serializer);
            (self.0)(writer.out);
            // SAFETY: `Writer`'s `Ok` is `()`, and `S` is `&mut Writer`.
            return Ok(unsafe { std::mem::transmute_copy::<(), S::Ok>(&()) });
        }
        let mut text = Vec::new();
        (self.0)(&mut text);
        let text = std::str::from_utf8(&text).map_err(<S::Error as ser::Error>::custom)?;
        Raw(text).serialize(serializer)
    }
}

/// A JSON object written by hand into a buffer, byte for byte as this
/// serializer writes a struct with the same fields: for the few objects a
/// page repeats hundreds of times, where building a view to serialise it
/// cost more than writing it (views_v1's answers). Field names are our
/// own, with nothing to escape, as struct fields'.
pub struct ObjectText<'o> {
    writer: Writer<'o>,
    first: bool,
}

impl<'o> ObjectText<'o> {
    pub fn open(out: &'o mut Vec<u8>) -> Self {
        out.push(b'{');
        ObjectText {
            writer: Writer { out },
            first: true,
        }
    }

    #[inline(always)]
    fn name(&mut self, name: &'static str) {
        member_name(self.writer.out, &mut self.first, name);
    }

    pub fn integer(&mut self, name: &'static str, value: i64) {
        self.name(name);
        self.writer.integer(value);
    }

    pub fn optional_integer(&mut self, name: &'static str, value: Option<i64>) {
        match value {
            Some(value) => self.integer(name, value),
            None => self.null(name),
        }
    }

    pub fn string(&mut self, name: &'static str, value: &str) {
        self.name(name);
        // Writing into a Vec cannot fail.
        let _ = self.writer.string(value);
    }

    pub fn optional_string(&mut self, name: &'static str, value: Option<&str>) {
        match value {
            Some(value) => self.string(name, value),
            None => self.null(name),
        }
    }

    pub fn null(&mut self, name: &'static str) {
        self.raw(name, "null");
    }

    pub fn boolean(&mut self, name: &'static str, value: bool) {
        self.raw(name, if value { "true" } else { "false" });
    }

    /// A field whose value `write` appends as JSON text (an object or a
    /// list written by hand, or a value serialised with `append`).
    pub fn value(&mut self, name: &'static str, write: impl FnOnce(&mut Vec<u8>)) {
        self.name(name);
        write(self.writer.out);
    }

    /// A field whose value is JSON text, written as it is.
    pub fn raw(&mut self, name: &'static str, json: &str) {
        self.name(name);
        self.writer.out.extend_from_slice(json.as_bytes());
    }

    /// A field whose value is an array, its elements written by `elements`.
    pub fn array(&mut self, name: &'static str, elements: impl FnOnce(&mut Elements<'_>)) {
        self.name(name);
        self.writer.out.push(b'[');
        elements(&mut Elements {
            writer: Writer {
                out: &mut *self.writer.out,
            },
            first: true,
        });
        self.writer.out.push(b']');
    }

    pub fn close(self) {
        self.writer.out.push(b'}');
    }
}

/// An array's elements being written (`ObjectText::array`).
pub struct Elements<'o> {
    writer: Writer<'o>,
    first: bool,
}

impl Elements<'_> {
    fn separate(&mut self) {
        separator(self.writer.out, &mut self.first);
    }

    pub fn integer(&mut self, value: i64) {
        self.separate();
        self.writer.integer(value);
    }

    pub fn raw(&mut self, json: &str) {
        self.separate();
        self.writer.out.extend_from_slice(json.as_bytes());
    }

    pub fn string(&mut self, value: &str) {
        self.separate();
        // Writing into a Vec cannot fail.
        let _ = self.writer.string(value);
    }
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde::Serialize;

    use super::{append, fragment, to_vec, Writer};

    fn same_as_sonic<T: Serialize + ?Sized>(value: &T) {
        let sonic = sonic_rs::to_string(value).unwrap();
        assert_eq!(String::from_utf8(to_vec(value).unwrap()).unwrap(), sonic);
        assert_eq!(String::from_utf8(fragment(value).unwrap()).unwrap(), sonic);
    }

    /// Names and numbers of every length up to past the widest copy, with
    /// and without a comma, at every fill of the buffer's capacity.
    #[test]
    fn short_copies_write_every_byte_of_every_length() {
        let source: Vec<u8> = (b'a'..=b'z').chain(b'A'..=b'Z').collect();
        for n in 0..=40 {
            let name = &source[..n];
            for comma in [false, true] {
                for filled in 0..4 {
                    let mut out = Vec::with_capacity(filled + 2);
                    out.extend(std::iter::repeat_n(b'x', filled));
                    super::field_name(&mut out, comma, name);
                    super::append_short(&mut out, name);
                    let mut expected = vec![b'x'; filled];
                    expected.extend_from_slice(if comma { b",\"" } else { b"\"" });
                    expected.extend_from_slice(name);
                    expected.extend_from_slice(b"\":");
                    expected.extend_from_slice(name);
                    assert_eq!(out, expected, "{n} {comma} {filled}");
                }
            }
        }
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

    /// Short strings take `short_clean_string`: each byte sonic-rs
    /// escapes, and some it does not, at every position of strings of
    /// every length up to past the 64 it takes, in ASCII and not, after
    /// what the buffer already holds, are written as sonic-rs writes them.
    #[test]
    fn short_strings_escape_every_byte_at_every_position() {
        let specials: Vec<char> = (0u8..0x20)
            .map(char::from)
            .chain(['"', '\\', ' ', '\u{7f}', '/', 'é', '\u{2028}', '\u{1f600}'])
            .collect();
        for len in 0..=70 {
            for fill in ['a', 'ü', '€'] {
                let clean: Vec<char> = std::iter::repeat_n(fill, len).collect();
                same_as_sonic(&clean.iter().collect::<String>());
                for at in 0..len {
                    for &special in &specials {
                        let mut text = clean.clone();
                        text[at] = special;
                        let text: String = text.into_iter().collect();
                        same_as_sonic(&text);
                        same_as_sonic(&[text.as_str(), "x"]);
                    }
                }
            }
        }
    }

    /// A short clean string is written here, not by sonic-rs, wherever
    /// the string comes from; one to escape is left to sonic-rs whole.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn short_clean_strings_are_written_here_and_others_left() {
        for n in 0..=super::SHORT_STRING_MAX {
            let text = "q".repeat(n);
            let mut out = b"[".to_vec();
            assert!(super::short_clean_string(&mut out, text.as_bytes()), "{n}");
            assert_eq!(out, format!("[\"{text}\"").into_bytes());
            for at in 0..n {
                let mut quoted = text.clone().into_bytes();
                quoted[at] = b'"';
                let mut out = b"[".to_vec();
                assert!(!super::short_clean_string(&mut out, &quoted), "{n} {at}");
                assert_eq!(out, b"[");
            }
        }
        let long = "q".repeat(super::SHORT_STRING_MAX + 1);
        assert!(!super::short_clean_string(&mut Vec::new(), long.as_bytes()));
    }

    proptest! {
        #[test]
        fn short_strings_are_written_as_sonic_writes_them(text in ".{0,70}") {
            prop_assert_eq!(
                String::from_utf8(to_vec(&text).unwrap()).unwrap(),
                sonic_rs::to_string(&text).unwrap()
            );
        }

        #[test]
        fn any_json_value_is_written_as_sonic_writes_it(value in json_values()) {
            prop_assert_eq!(
                String::from_utf8(to_vec(&value).unwrap()).unwrap(),
                sonic_rs::to_string(&value).unwrap()
            );
        }
    }

    /// `Direct` writes into this serializer's body and hands every other
    /// serializer the same text: sonic-rs directly, and sonic-rs again when
    /// something else in the value sends the whole of it there (bytes).
    #[test]
    fn direct_text_reads_the_same_to_every_serializer() {
        #[derive(Serialize)]
        struct Page<'a> {
            count: usize,
            results: super::Direct<&'a dyn Fn(&mut Vec<u8>)>,
            #[serde(skip_serializing_if = "Option::is_none")]
            bytes: Option<&'a serde_bytes_like::Bytes>,
        }
        mod serde_bytes_like {
            pub struct Bytes;
            impl serde::Serialize for Bytes {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.serialize_bytes(b"ab")
                }
            }
        }
        let write = |out: &mut Vec<u8>| {
            out.extend_from_slice(r#"[{"id":1,"t":"\u00fc \"x\""},"ünï"]"#.as_bytes());
        };
        let expected = r#"{"count":2,"results":[{"id":1,"t":"\u00fc \"x\""},"ünï"]}"#;
        let page = Page {
            count: 2,
            results: super::Direct(&write),
            bytes: None,
        };
        assert_eq!(String::from_utf8(to_vec(&page).unwrap()).unwrap(), expected);
        assert_eq!(sonic_rs::to_string(&page).unwrap(), expected);
        same_as_sonic(&page);
        let mut out = b"[".to_vec();
        append(&mut out, &page).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), format!("[{expected}"));
        // Bytes are left to sonic-rs, which gets the direct text as raw JSON.
        let with_bytes = Page {
            count: 2,
            results: super::Direct(&write),
            bytes: Some(&serde_bytes_like::Bytes),
        };
        let whole = String::from_utf8(to_vec(&with_bytes).unwrap()).unwrap();
        assert_eq!(whole, sonic_rs::to_string(&with_bytes).unwrap());
        assert!(
            whole.starts_with(&expected[..expected.len() - 1]),
            "{whole}"
        );
    }

    #[test]
    fn hand_written_objects_read_as_serialised_structs() {
        #[derive(Serialize)]
        struct Answer<'a> {
            id: i64,
            question: super::Raw<'a>,
            answer: &'a str,
            answer_file: Option<&'a str>,
            submission: Option<&'a str>,
            review: Option<i64>,
            options: Vec<i64>,
            chosen: Vec<super::Raw<'a>>,
        }
        for text in [
            "plain",
            "a \"quoted\" line\n\tand \\ more",
            "",
            "ünïcödé \u{1}",
        ] {
            for (file, review) in [(None, None), (Some("https://x.example/f.pdf"), Some(-7))] {
                let answer = Answer {
                    id: 1_234_567,
                    question: super::Raw(r#"{"id":2,"question":{"en":"Q"}}"#),
                    answer: text,
                    answer_file: file,
                    submission: Some(text),
                    review,
                    options: vec![3, -4],
                    chosen: vec![super::Raw("{}"), super::Raw("[1]")],
                };
                let mut out = b"[".to_vec();
                let mut object = super::ObjectText::open(&mut out);
                object.integer("id", answer.id);
                object.raw("question", answer.question.0);
                object.string("answer", answer.answer);
                object.optional_string("answer_file", answer.answer_file);
                object.optional_string("submission", answer.submission);
                object.optional_integer("review", answer.review);
                object.array("options", |elements| {
                    answer.options.iter().for_each(|&id| elements.integer(id));
                });
                object.array("chosen", |elements| {
                    answer.chosen.iter().for_each(|raw| elements.raw(raw.0));
                });
                object.close();
                out.push(b']');
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    String::from_utf8(super::to_vec(&[&answer]).unwrap()).unwrap()
                );
            }
        }
    }
}
