//! The fuzz targets' committed corpus (fuzz/corpus/), replayed on stable
//! through the same bodies libFuzzer runs (`confapi::fuzz`), so that every
//! input that ever found a bug, and every input that reached new code,
//! stays a regression test without a nightly toolchain (fuzz/README.md).

use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            (path, data)
        })
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 2,
        "{}: the corpus is missing",
        dir.display()
    );
    inputs
}

#[test]
fn the_dataset_corpus_validates_or_is_refused_without_a_panic() {
    for (_, data) in corpus("dataset") {
        confapi::fuzz::dataset(&data);
    }
}

#[test]
fn the_sync_event_corpus_maps_or_is_refused_without_a_panic() {
    for (_, data) in corpus("sync_event") {
        confapi::fuzz::sync_event(&data);
    }
}

#[test]
fn the_request_corpus_gets_no_server_error() {
    let server = confapi::fuzz::Requests::new(include_str!("../data/client-friendly.json"));
    for (path, data) in corpus("request") {
        let sent = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.send(&data)));
        assert!(sent.is_ok(), "{}", path.display());
    }
}
