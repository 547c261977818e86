//! JSON text written as it is (`Raw`), appended straight into the body
//! (`Direct`), or written by hand as the serializer writes a struct
//! (`ObjectText`): each must read the same as what the serializer and
//! sonic-rs write, which the tests below hold.

use serde::ser::{self, Serialize};

use super::bytes::{member_name, separator};
use super::writer::Writer;
use super::SONIC_RAW_TOKEN;

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
/// an expanded page's bytes twice (callgrind, docs/bench-log.md). `write`
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

#[cfg(test)]
mod tests {
    use serde::Serialize;

    use super::super::tests::same_as_sonic;
    use super::super::{append, to_vec};

    /// `Direct` writes into this serializer's body and hands every other
    /// serializer the same text: sonic-rs directly, and sonic-rs again when
    /// something else in the value sends the whole of it there (bytes).
    #[test]
    fn direct_text_reads_the_same_to_every_serializer() {
        type Writer<'a> = &'a dyn Fn(&mut Vec<u8>);
        #[derive(Serialize)]
        struct Page<'a> {
            count: usize,
            results: super::Direct<Writer<'a>>,
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
                    String::from_utf8(to_vec(&[&answer]).unwrap()).unwrap()
                );
            }
        }
    }
}
