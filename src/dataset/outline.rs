//! A document's outline: a digest of each event's submissions, one by one,
//! and one of everything else, found by scanning the text's structure
//! without parsing it (a 460 MB document in a fraction of `json.load`'s
//! time). Two outlines say which submissions of a re-imported file differ
//! from the file imported last, so that an import that changes a few texts
//! need not parse, validate or plan the whole document
//! (`storage::edits`).
//!
//! The outline only narrows: whatever it cannot read plainly (a document
//! that is not an object of `users` and `events`, a key given twice in an
//! event) makes no outline, and the import takes the whole path, which
//! names every problem.

use std::ops::Range;

use xxhash_rust::xxh3::Xxh3;

/// What an outline keeps of each event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventOutline {
    /// The event's slug as written (a JSON string's contents, unescaped).
    pub slug: String,
    /// Everything of the event but its submissions' items.
    pub frame: u128,
    /// Each submission's text, in list order.
    pub submissions: Vec<u128>,
    /// Each submission's text but its `TEXTS`.
    pub others: Vec<u128>,
    /// Where each submission's text is in the document (not stored).
    pub spans: Vec<Range<usize>>,
}

/// The outline of one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    /// Everything outside the events (the users, other keys) and how many
    /// events there are.
    pub head: u128,
    pub events: Vec<EventOutline>,
}

/// The members of a submission that an edit may change on its own
/// (`validate::edits`).
pub use super::validate::edits::TEXTS;

/// A submission whose text differs between two outlines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedSubmission {
    /// Its event's index in the document.
    pub event: usize,
    /// Its index in the event's `submissions`.
    pub position: usize,
}

/// An outline taken on a thread of its own from the moment the text is
/// read, waited for where it is first needed: the import of a text edit
/// compares it (`storage::edits::import_file`) while the other core reads
/// the file's digest, and a whole import keeps it (`keep_outline`) after
/// validating on the other core.
#[derive(Debug, Default)]
pub struct Pending {
    thread: Option<std::thread::JoinHandle<Option<Outline>>>,
    outline: Option<Outline>,
}

impl Pending {
    /// Starts taking the outline of `text`.
    pub fn start(text: std::sync::Arc<String>) -> Pending {
        Pending {
            thread: Some(std::thread::spawn(move || Outline::of(text.as_bytes()))),
            outline: None,
        }
    }

    /// The outline of `text`, taken now.
    pub fn of(text: &str) -> Pending {
        Pending {
            thread: None,
            outline: Outline::of(text.as_bytes()),
        }
    }

    /// The outline (None where the text has none), once taken.
    pub fn get(&mut self) -> Option<&Outline> {
        self.wait();
        self.outline.as_ref()
    }

    pub fn into_outline(mut self) -> Option<Outline> {
        self.wait();
        self.outline
    }

    fn wait(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.outline = thread.join().ok().flatten();
        }
    }
}

impl Outline {
    /// The outline of `text`, or None where it cannot be read plainly.
    pub fn of(text: &[u8]) -> Option<Outline> {
        let mut scan = Scanner {
            text,
            at: 0,
            escaped: false,
        };
        let mut head = Xxh3::new();
        let mut events = None;
        scan.members(|scan, key| {
            if key == b"events" {
                events = Some(scan.array(|scan, _| scan.event())?);
                head.update(b"\0events");
            } else {
                let value = scan.value()?;
                head.update(b"\0");
                head.update(key);
                head.update(b"\0");
                head.update(&text[value]);
            }
            Some(())
        })?;
        scan.blank();
        if scan.at != text.len() {
            return None;
        }
        let events: Vec<EventOutline> = events?;
        head.update(&(events.len() as u64).to_le_bytes());
        Some(Outline {
            head: head.digest128(),
            events,
        })
    }

    /// The submissions of `self` whose text differs from `earlier`'s, when
    /// nothing else differs: the same head, the same events in the same
    /// order with the same frames and as many submissions, each the same
    /// but for its `TEXTS`. None otherwise.
    pub fn changed_since(&self, earlier: &Outline) -> Option<Vec<ChangedSubmission>> {
        if self.head != earlier.head || self.events.len() != earlier.events.len() {
            return None;
        }
        let mut changed = Vec::new();
        for (event, (now, then)) in self.events.iter().zip(&earlier.events).enumerate() {
            if now.frame != then.frame || now.submissions.len() != then.submissions.len() {
                return None;
            }
            for (position, (a, b)) in now.submissions.iter().zip(&then.submissions).enumerate() {
                if a != b {
                    if now.others[position] != then.others[position] {
                        return None;
                    }
                    changed.push(ChangedSubmission { event, position });
                }
            }
        }
        Some(changed)
    }

    /// The stored form: little-endian, without the spans.
    pub fn to_bytes(&self) -> Vec<u8> {
        let size: usize = self
            .events
            .iter()
            .map(|e| 28 + e.slug.len() + 32 * e.submissions.len())
            .sum();
        let mut out = Vec::with_capacity(8 + 16 + size);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.head.to_le_bytes());
        out.extend_from_slice(&(self.events.len() as u32).to_le_bytes());
        for event in &self.events {
            out.extend_from_slice(&(event.slug.len() as u32).to_le_bytes());
            out.extend_from_slice(event.slug.as_bytes());
            out.extend_from_slice(&event.frame.to_le_bytes());
            out.extend_from_slice(&(event.submissions.len() as u32).to_le_bytes());
            for (digest, others) in event.submissions.iter().zip(&event.others) {
                out.extend_from_slice(&digest.to_le_bytes());
                out.extend_from_slice(&others.to_le_bytes());
            }
        }
        out
    }

    /// Reads `to_bytes`'s form; None for anything else.
    pub fn from_bytes(bytes: &[u8]) -> Option<Outline> {
        let mut read = Reader(bytes.strip_prefix(MAGIC)?);
        let head = read.u128()?;
        let count = read.u32()? as usize;
        let mut events = Vec::with_capacity(count.min(1 << 16));
        for _ in 0..count {
            let len = read.u32()? as usize;
            let slug = String::from_utf8(read.take(len)?.to_vec()).ok()?;
            let frame = read.u128()?;
            let n = read.u32()? as usize;
            let mut submissions = Vec::with_capacity(n.min(read.0.len() / 32));
            let mut others = Vec::with_capacity(submissions.capacity());
            for _ in 0..n {
                submissions.push(read.u128()?);
                others.push(read.u128()?);
            }
            events.push(EventOutline {
                slug,
                frame,
                submissions,
                others,
                spans: Vec::new(),
            });
        }
        read.0.is_empty().then_some(Outline { head, events })
    }
}

const MAGIC: &[u8] = b"outline2";

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u128(&mut self) -> Option<u128> {
        Some(u128::from_le_bytes(self.take(16)?.try_into().ok()?))
    }
}

/// A cursor over JSON text that finds where values end without parsing
/// them. It trusts nothing: any surprise is None.
struct Scanner<'a> {
    text: &'a [u8],
    at: usize,
    /// Whether the last string read had an escape.
    escaped: bool,
}

impl<'a> Scanner<'a> {
    fn blank(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.at) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.blank();
        (self.text.get(self.at) == Some(&byte)).then(|| self.at += 1)
    }

    fn peek(&mut self) -> Option<u8> {
        self.blank();
        self.text.get(self.at).copied()
    }

    /// A string's span, quotes included.
    fn string(&mut self) -> Option<Range<usize>> {
        self.expect(b'"')?;
        let start = self.at - 1;
        self.escaped = false;
        loop {
            let found = memchr::memchr2(b'"', b'\\', &self.text[self.at..])?;
            self.at += found;
            if self.text[self.at] == b'\\' {
                self.escaped = true;
                self.at += 2;
                if self.at > self.text.len() {
                    return None;
                }
            } else {
                self.at += 1;
                return Some(start..self.at);
            }
        }
    }

    /// Any value's span.
    fn value(&mut self) -> Option<Range<usize>> {
        let first = self.peek()?;
        let start = self.at;
        match first {
            b'"' => return self.string(),
            b'{' | b'[' => return self.composite(),
            _ => {
                // A number, true, false or null: up to the next delimiter.
                let rest = &self.text[self.at..];
                let end = rest
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                    .unwrap_or(rest.len());
                if end == 0 {
                    return None;
                }
                self.at += end;
                0
            }
        };
        Some(start..self.at)
    }

    /// An object's or array's span, found by counting brackets outside
    /// strings, in one loop: most of a document is such values, whose
    /// structure the outline does not read (twice as fast as walking their
    /// members). It reads no grammar: the outline compares these spans'
    /// bytes with those of a file the import validated whole, and anything
    /// else differs from them.
    fn composite(&mut self) -> Option<Range<usize>> {
        let text = self.text;
        let start = self.at;
        let mut at = start;
        let mut depth = 0usize;
        loop {
            match *text.get(at)? {
                b'"' => {
                    at += 1;
                    loop {
                        at += memchr::memchr2(b'"', b'\\', text.get(at..)?)?;
                        if text[at] == b'"' {
                            break;
                        }
                        at += 2;
                    }
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.at = at + 1;
                        return Some(start..self.at);
                    }
                }
                _ => {}
            }
            at += 1;
        }
    }

    /// An object, calling `member` for each key (its raw bytes, escapes
    /// and all) with the cursor before the value, which it must read.
    fn object(
        &mut self,
        mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>,
    ) -> Option<usize> {
        self.expect(b'{')?;
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(0);
        }
        let mut count = 0;
        loop {
            let key = self.string()?;
            // An escaped key may spell another (`"ti\u0074le"`): the
            // whole path reads it as JSON does.
            if self.escaped {
                return None;
            }
            self.expect(b':')?;
            let text = self.text;
            member(self, &text[key.start + 1..key.end - 1])?;
            count += 1;
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(count);
                }
                _ => return None,
            }
        }
    }

    /// `object`, for the objects whose members the outline reads one by
    /// one: a key given twice is None (the whole path decides what it
    /// means).
    fn members(
        &mut self,
        mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>,
    ) -> Option<usize> {
        let mut keys: Vec<&'a [u8]> = Vec::new();
        self.object(|scan, key| {
            if keys.contains(&key) {
                return None;
            }
            keys.push(key);
            member(scan, key)
        })
    }

    /// An array, calling `item` with each item's index and the cursor
    /// before it; the results in order.
    fn array<T>(&mut self, mut item: impl FnMut(&mut Self, usize) -> Option<T>) -> Option<Vec<T>> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        if self.peek()? == b']' {
            self.at += 1;
            return Some(items);
        }
        loop {
            let index = items.len();
            items.push(item(self, index)?);
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(items);
                }
                _ => return None,
            }
        }
    }

    /// One event object.
    fn event(&mut self) -> Option<EventOutline> {
        let text = self.text;
        let mut frame = Xxh3::new();
        let mut submissions = None;
        let mut slug = None;
        self.members(|scan, key| {
            frame.update(b"\0");
            frame.update(key);
            if key == b"submissions" && scan.peek()? == b'[' {
                let items = scan.array(|scan, _| scan.submission())?;
                frame.update(&(items.len() as u64).to_le_bytes());
                submissions = Some(items);
            } else {
                let value = scan.value()?;
                if key == b"slug" {
                    slug = serde_json::from_slice::<String>(&text[value.clone()]).ok();
                }
                frame.update(b"\0");
                frame.update(&text[value]);
            }
            Some(())
        })?;
        let items = submissions.unwrap_or_default();
        Some(EventOutline {
            slug: slug?,
            frame: frame.digest128(),
            submissions: items
                .iter()
                .map(|(span, _)| xxhash_rust::xxh3::xxh3_128(&text[span.clone()]))
                .collect(),
            others: items.iter().map(|(_, others)| *others).collect(),
            spans: items.into_iter().map(|(span, _)| span).collect(),
        })
    }

    /// One submission: its span, and the digest of its members but its
    /// `TEXTS` (given or left out, which the validation of the texts
    /// decides).
    fn submission(&mut self) -> Option<(Range<usize>, u128)> {
        let text = self.text;
        let mut others = Xxh3::new();
        let start = {
            self.blank();
            self.at
        };
        self.members(|scan, key| {
            let value = scan.value()?;
            if !TEXTS.iter().any(|t| t.as_bytes() == key) {
                others.update(b"\0");
                others.update(key);
                others.update(b"\0");
                others.update(&text[value]);
            }
            Some(())
        })?;
        Some((start..self.at, others.digest128()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"{"users": [{"code": "A"}],
      "events": [
        {"slug": "one", "submissions": [{"code": "S1", "title": "a \"quoted\" title"}, {"code": "S2", "title": "x"}], "rooms": []},
        {"slug": "two", "name": {"en": "Two"}, "submissions": []}
      ]}"#;

    #[test]
    fn finds_each_submission_and_reads_back_what_it_stores() {
        let outline = Outline::of(DOC.as_bytes()).expect("an outline");
        assert_eq!(outline.events.len(), 2);
        assert_eq!(outline.events[0].slug, "one");
        let spans = &outline.events[0].spans;
        assert_eq!(&DOC[spans[1].clone()], r#"{"code": "S2", "title": "x"}"#);
        let stored = Outline::from_bytes(&outline.to_bytes()).expect("read back");
        assert_eq!(stored.head, outline.head);
        assert_eq!(stored.events[1].frame, outline.events[1].frame);
        assert_eq!(stored.events[0].submissions, outline.events[0].submissions);
        assert_eq!(Outline::from_bytes(b"outline1"), None);
    }

    #[test]
    fn spans_objects_and_arrays_whatever_their_strings_hold() {
        let values = [
            r#"{"a": "x\\", "b": ["]", "}", {"c": "\"{", "d": []}], "e": 1}"#,
            r#"[[], {}, "\\\"]", [["["]], -1.5e3, true, null]"#,
            r#"{}"#,
            r#"[ ]"#,
        ];
        for value in values {
            let text = format!("{value} , 2");
            let mut scan = Scanner {
                text: text.as_bytes(),
                at: 0,
                escaped: false,
            };
            let span = scan.value().expect("a value");
            assert_eq!(&text[span], value);
            let parsed: serde_json::Value = serde_json::from_str(value).expect("valid JSON");
            assert!(parsed.is_object() || parsed.is_array());
            assert_eq!(scan.peek(), Some(b','));
        }
        for unfinished in [r#"{"a": ["#, r#"["a\"]"#, r#"{"a": "b}"#] {
            let mut scan = Scanner {
                text: unfinished.as_bytes(),
                at: 0,
                escaped: false,
            };
            assert_eq!(scan.value(), None, "{unfinished}");
        }
    }

    #[test]
    fn says_which_submissions_changed_and_only_when_nothing_else_did() {
        let before = Outline::of(DOC.as_bytes()).unwrap();
        let retitled = DOC.replace(r#""title": "x""#, r#""title": "y""#);
        let after = Outline::of(retitled.as_bytes()).unwrap();
        assert_eq!(
            after.changed_since(&before),
            Some(vec![ChangedSubmission {
                event: 0,
                position: 1
            }])
        );
        // Whitespace between items is no change.
        let spaced = DOC.replace("}, {", "},\n {");
        assert_eq!(
            Outline::of(spaced.as_bytes())
                .unwrap()
                .changed_since(&before),
            Some(vec![])
        );
        for other in [
            DOC.replace(r#""code": "S2""#, r#""code": "S3""#),
            DOC.replace(r#""title": "x""#, r#""title": "x", "state": "accepted""#),
            DOC.replace(r#""code": "A""#, r#""code": "B""#),
            DOC.replace(r#""rooms": []"#, r#""rooms": [1]"#),
            DOC.replace(r#", {"code": "S2", "title": "x"}"#, ""),
            DOC.replace(r#""en": "Two""#, r#""en": "2""#),
        ] {
            let outline = Outline::of(other.as_bytes()).unwrap();
            assert_eq!(outline.changed_since(&before), None, "{other}");
        }
    }

    #[test]
    fn makes_no_outline_of_what_it_cannot_read_plainly() {
        for text in [
            "",
            "[]",
            r#"{"events": [{"slug": "a", "slug": "b"}]}"#,
            r#"{"events": [{"slug": "a"}], "events": [{"slug": "b"}]}"#,
            r#"{"events": [{"slug": "a", "submissions": [], "submi\u0073sions": []}]}"#,
            r#"{"events": [{"slug": "a"}]} trailing"#,
            r#"{"events": [{"slug": "a", "submissions": [{"code": "x}]}]}"#,
            r#"{"events": [{"name": "no slug"}]}"#,
            r#"{"events": [{"slug": "a",}]}"#,
            r#"{"events": [{"slug": "a", "submissions": [{"title": "a", "title": "b"}]}]}"#,
            r#"{"events": [{"slug": "a", "submissions": ["not an object"]}]}"#,
        ] {
            assert_eq!(Outline::of(text.as_bytes()), None, "{text}");
        }
    }
}
