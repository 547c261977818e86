//! The dataset format (`shared/spec/dataset.md`): validation and parsing of
//! documents into the model, export back to documents, and the synthetic
//! demo generator.

pub mod demo;
pub mod export;
pub mod outline;
pub mod validate;

pub use export::to_json;

use std::collections::HashMap;

use crate::model::Dataset;
use validate::Problem;

/// Adds a second document's data to `into` (for `import a.json b.json`).
/// A user given twice must be given the same way; an event slug only once.
pub fn merge(into: &mut Dataset, other: Dataset) -> Result<(), Vec<Problem>> {
    let mut problems = Vec::new();
    let known: HashMap<String, usize> = into
        .users
        .iter()
        .enumerate()
        .map(|(i, u)| (u.code.to_string(), i))
        .collect();
    for (i, user) in other.users.into_iter().enumerate() {
        match known.get(user.code.as_str()) {
            Some(&existing) if into.users[existing] != user => problems.push(Problem {
                path: format!("users[{i}]"),
                message: format!(
                    "user {:?} is also given, differently, in an earlier file",
                    user.code
                ),
            }),
            Some(_) => {}
            None => into.users.push(user),
        }
    }
    for (i, event) in other.events.into_iter().enumerate() {
        if into
            .events
            .iter()
            .any(|e| e.slug.eq_ignore_ascii_case(&event.slug))
        {
            problems.push(Problem {
                path: format!("events[{i}].slug"),
                message: format!("event {:?} is also in an earlier file", event.slug),
            });
        } else {
            into.events.push(event);
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// A dataset file's text, its two halves read at once on two threads:
/// most of reading a large file is the kernel filling fresh pages (zeroing
/// them, then copying from its cache), which one thread does at about a
/// gigabyte a second. A file that changes size while read is read again,
/// whole, as `std::fs::read_to_string` does.
pub fn read_text(path: &std::path::Path) -> std::io::Result<String> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::open(path)?;
    let len = usize::try_from(file.metadata()?.len()).unwrap_or(usize::MAX);
    if len < (1 << 20) {
        return std::fs::read_to_string(path);
    }
    let mut bytes = vec![0u8; len];
    let (first, second) = bytes.split_at_mut(len / 2);
    let read = std::thread::scope(|scope| {
        let first = scope.spawn(|| file.read_exact_at(first, 0));
        let second = file.read_exact_at(second, (len / 2) as u64);
        first
            .join()
            .unwrap_or_else(|_| Err(std::io::ErrorKind::Other.into()))?;
        second
    });
    let mut past_end = [0u8; 1];
    if read.is_err() || file.read_at(&mut past_end, len as u64)? != 0 {
        return std::fs::read_to_string(path);
    }
    String::from_utf8(bytes).map_err(|e| {
        let message = format!("stream did not contain valid UTF-8 ({})", e.utf8_error());
        std::io::Error::new(std::io::ErrorKind::InvalidData, message)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_a_large_file_whole_in_two_halves() {
        let dir = std::env::temp_dir().join(format!("confapi-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.json");
        // Three bytes a character: the halves split one.
        let text = "€".repeat(700_001);
        std::fs::write(&path, &text).unwrap();
        assert_eq!(super::read_text(&path).unwrap(), text);
        let mut bytes = text.into_bytes();
        bytes[1_000_000] = 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let err = super::read_text(&path).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("valid UTF-8"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
