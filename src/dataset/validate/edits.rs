//! A submission of a re-imported file that differs from the one imported
//! last only in its texts (`storage::edits`): those checked as the whole
//! validation checks them, the rest as stored, so that the rest of the
//! document need not be read again.

use super::*;

/// The texts an edit may change on its own: no rule of who sees what, no
/// reference and no other object's view reads them (only the submission's
/// own views show them, `domain::feed`).
pub const TEXTS: [&str; 5] = [
    "title",
    "abstract",
    "description",
    "notes",
    "internal_notes",
];

/// `item` (a submission's JSON text) as the model: `old` with the texts
/// `item` gives, when they are valid. The caller knows that nothing but
/// the values of `TEXTS` differs from the item `old` was read from
/// (`dataset::outline`). None when a text is not valid: the import then
/// reads the whole document, which names every problem.
pub fn submission_texts(old: &Submission, item: &str) -> Option<Submission> {
    let new = json::from_str(item).ok()?;
    // The same readers as `submissions::submission`.
    let mut cx = Cx::default();
    let mut o = Obj::open(&mut cx, &Path::ROOT, &new)?;
    let title = o.req_str(&mut cx, "title");
    let abstract_ = o.opt_str(&mut cx, "abstract", "");
    let description = o.opt_str(&mut cx, "description", "");
    let notes = o.opt_str(&mut cx, "notes", "");
    let internal_notes = o.opt_str(&mut cx, "internal_notes", "");
    if !cx.problems.is_empty() {
        return None;
    }
    Some(Submission {
        title,
        abstract_,
        description,
        notes,
        internal_notes,
        ..old.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored() -> Submission {
        let doc = serde_json::json!({
            "format": "cfp-dataset", "version": 1,
            "users": [{"code": "U1", "name": "Una", "email": "u1@example.org"}],
            "events": [{
                "slug": "ev", "name": {"en": "Ev"}, "date_from": "2026-01-01", "date_to": "2026-01-02",
                "timezone": "UTC", "submission_types": [{"id": 1, "name": {"en": "Talk"}, "default_duration": 30}],
                "speakers": [{"user": "U1"}],
                "submissions": [{"code": "S1", "title": "Old", "speakers": ["U1"], "submission_type": 1,
                                 "state": "submitted", "created": "2025-12-01T10:00:00Z"}]
            }]
        });
        let dataset = parse_value(&doc).expect("a valid document");
        Submission::clone(&dataset.events[0].submissions[0])
    }

    fn with(old: &Submission, change: impl FnOnce(&mut serde_json::Value)) -> String {
        let mut item = serde_json::to_value(old).unwrap();
        change(&mut item);
        item.to_string()
    }

    #[test]
    fn takes_new_texts_and_keeps_the_rest() {
        let old = stored();
        let item = with(&old, |v| {
            v["title"] = "New".into();
            v["internal_notes"] = "seen by organisers".into();
        });
        let new = submission_texts(&old, &item).expect("a text edit");
        assert_eq!(new.title, "New");
        assert_eq!(new.internal_notes, "seen by organisers");
        assert_eq!(
            Submission {
                title: old.title.clone(),
                internal_notes: old.internal_notes.clone(),
                ..new
            },
            old
        );
    }

    /// `old`'s JSON with `key` set to `value` (removed for null).
    fn json_of(old: &Submission, key: &str, value: serde_json::Value) -> String {
        with(old, |v| {
            if value.is_null() {
                v.as_object_mut().unwrap().remove(key);
            } else {
                v[key] = value;
            }
        })
    }

    #[test]
    fn leaves_invalid_texts_to_the_whole_validation() {
        let old = stored();
        let cases = [
            (
                "a title that is no string",
                json_of(&old, "title", 5.into()),
            ),
            (
                "a missing title",
                json_of(&old, "title", serde_json::Value::Null),
            ),
            (
                "notes that are no string",
                json_of(&old, "notes", serde_json::json!(["a"])),
            ),
        ];
        for (what, item) in cases {
            assert_eq!(submission_texts(&old, &item), None, "{what}");
        }
        assert_eq!(submission_texts(&old, "{not json"), None);
        assert_eq!(submission_texts(&old, "[]"), None);
    }
}
