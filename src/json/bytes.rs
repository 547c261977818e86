//! The bytes of JSON text that every body repeats, written with as few
//! checks and calls as they allow: short strings with nothing to escape
//! (`short_clean_string`, which must write what sonic-rs writes: the tests
//! below hold them equal), member names and separators, and short copies.

/// The longest string `short_clean_string` writes.
pub(super) const SHORT_STRING_MAX: usize = 64;

/// Appends `bytes` as a JSON string when they are 64 or fewer and hold
/// nothing JSON escapes (a control character, `"` or `\`): the bytes
/// between quotes, as sonic-rs writes them; false, writing nothing,
/// otherwise. Most strings of a page are that short (codes, names,
/// locales, times, e-mail addresses, URLs: 3,100 of an expanded v1
/// page's 3,300), and sonic-rs's general path (room for six times the
/// length, 32 lanes in two SSE2 halves, a page-crossing check) cost each
/// of them about 60 instructions (callgrind, docs/bench-log.md); here an SSE2
/// compare per 16 bytes, on loads that stay within the string, and as
/// many stores.
#[inline(always)]
pub(super) fn short_clean_string(out: &mut Vec<u8>, bytes: &[u8]) -> bool {
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
/// of an expanded page's instructions (callgrind, docs/bench-log.md).
#[inline(always)]
pub(super) fn field_name(out: &mut Vec<u8>, comma: bool, name: &[u8]) {
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
pub(super) fn member_name(out: &mut Vec<u8>, first: &mut bool, name: &'static str) {
    debug_assert!(!name.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\'));
    field_name(out, !std::mem::take(first), name.as_bytes());
}

/// The comma before an array's element, but its first (which `first` tracks).
#[inline(always)]
pub(super) fn separator(out: &mut Vec<u8>, first: &mut bool) {
    if !std::mem::take(first) {
        out.push(b',');
    }
}

/// Appends `bytes`, a few of them (a number's digits), as `field_name` does.
#[inline(always)]
pub(super) fn append_short(out: &mut Vec<u8>, bytes: &[u8]) {
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
pub(super) unsafe fn copy_short(src: &[u8], dst: *mut u8) {
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::tests::same_as_sonic;
    use super::super::to_vec;

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
    }
}
