//! Storage as records, on SQLite and (with CONFAPI_TEST_POSTGRES) on
//! PostgreSQL: what an import writes, what it refuses, and that no crash
//! or replaced database leaves a reader with a mix or with stale data.

use crate::helpers;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use confapi::dataset::validate::parse_value;
use confapi::dataset::{demo, to_json};
use confapi::model::Dataset;
use confapi::storage::records::InStoredOrder;
use confapi::storage::{self, ImportOptions, ImportSummary, StoreError};
use serde_json::{json, Value};

fn democon() -> Dataset {
    parse_value(&helpers::democon()).expect("democon is valid")
}

fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_confapi"));
    command.env_remove("CONFAPI_DB").env_remove("CONFAPI_LOG");
    command
}

fn export(url: &str) -> Value {
    let output = binary().args(["export", "--db", url]).output().unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// One generation's rows of the change feed as (event, audience, body),
/// sorted, without when they were committed.
type FeedRows = Vec<(String, String, Vec<u8>)>;

/// The stored change feed, generation by generation.
fn feed(url: &str) -> Vec<(i64, FeedRows)> {
    let rows = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = storage::open(url).await.unwrap();
        let version = store.version().await.unwrap();
        store.changes(0, version.generation).await.unwrap().rows
    });
    let mut by_generation: Vec<(i64, FeedRows)> = Vec::new();
    for row in rows {
        if by_generation
            .last()
            .is_none_or(|(g, _)| *g != row.generation)
        {
            by_generation.push((row.generation, Vec::new()));
        }
        let rows = &mut by_generation.last_mut().unwrap().1;
        rows.push((row.event, row.audience, row.body));
    }
    for (_, rows) in &mut by_generation {
        rows.sort();
    }
    by_generation
}

#[tokio::test]
async fn an_unchanged_reimport_writes_nothing_and_keeps_the_generation() {
    let db = helpers::TestDatabase::new();
    let store = storage::open(&db.url).await.unwrap();
    let first = store.import(&democon(), None).await.unwrap();
    assert_eq!(first.generation, 1);
    assert_eq!(first.changed_events, vec!["democon", "privcon"]);
    let version = store.version().await.unwrap();

    let again = store.import(&democon(), None).await.unwrap();
    assert_eq!(again.records_written, 0);
    assert!(again.changed_events.is_empty());
    assert_eq!(again.generation, 1);
    assert_eq!(store.version().await.unwrap(), version);
}

/// An import given the digest of its file (`confapi import`) keeps it with
/// the events it leaves as they are in the file, so that importing the
/// same bytes again is known to change nothing without parsing them. Any
/// other write that could make that import change something again (another
/// import of one of its events, a user's change, a deleted event) forgets
/// it; an import that changes nothing leaves it.
#[tokio::test]
async fn an_imported_files_digest_is_forgotten_by_any_other_write() {
    let db = helpers::TestDatabase::new();
    let store = storage::open(&db.url).await.unwrap();
    let file = serde_json::to_vec(&helpers::democon()).unwrap();
    let digest = storage::import_digest(&[&file[..]], ImportOptions::default());
    assert_ne!(
        digest,
        storage::import_digest(
            &[&file[..]],
            ImportOptions {
                delete_absent_events: true,
                ..Default::default()
            }
        ),
        "the options that change what an import does are part of the digest"
    );
    assert_ne!(
        storage::import_digest(&[&file[..10], &file[10..]], ImportOptions::default()),
        digest
    );
    let with_digest = ImportOptions {
        digest: Some(digest),
        ..Default::default()
    };
    let remembered = || async { store.unchanged_import(digest).await.unwrap() };
    assert_eq!(remembered().await, None);
    let first = store
        .import_with(&democon(), with_digest, None)
        .await
        .unwrap();
    assert_eq!(remembered().await, Some(first.generation));
    let restore = || async {
        let done = store
            .import_with(&democon(), with_digest, None)
            .await
            .unwrap();
        assert_eq!(remembered().await, Some(done.generation));
        done
    };

    // Another import of one of its events, without a digest (sync, or a
    // program using the library): forgotten, and the file writes again.
    let mut changed = democon();
    std::sync::Arc::make_mut(&mut changed.events[0].submissions[5]).title = "A new title".into();
    store.import(&changed, None).await.unwrap();
    assert_eq!(remembered().await, None);
    assert_eq!(restore().await.records_written, 2);

    // An import of its other event alone, from another file.
    let mut other = democon();
    other.users.clear();
    other.events.remove(0);
    std::sync::Arc::make_mut(&mut other.events[0].submissions[0]).title =
        "Changed elsewhere".into();
    let other_digest = storage::import_digest(&[b"another file"], ImportOptions::default());
    let done = store
        .import_with(
            &other,
            ImportOptions {
                digest: Some(other_digest),
                ..Default::default()
            },
            None,
        )
        .await
        .unwrap();
    assert_eq!(remembered().await, None);
    // That file alone would change nothing again (it has no users).
    assert_eq!(
        store.unchanged_import(other_digest).await.unwrap(),
        Some(done.generation)
    );
    assert!(restore().await.records_written > 0);

    // A user's change, from a file without events.
    let mut renamed = democon();
    renamed.events.clear();
    renamed.users[0].name = "Someone else".into();
    store.import(&renamed, None).await.unwrap();
    assert_eq!(remembered().await, None);
    assert_eq!(restore().await.records_written, 1);

    // An import that changes nothing keeps it.
    let unchanged = store.import(&democon(), None).await.unwrap();
    assert_eq!(unchanged.records_written, 0);
    assert_eq!(remembered().await, Some(unchanged.generation));

    // A sync of every event that deletes one.
    let mut fewer = democon();
    fewer.events.remove(1);
    store
        .import_with(
            &fewer,
            ImportOptions {
                delete_absent_events: true,
                ..Default::default()
            },
            None,
        )
        .await
        .unwrap();
    assert_eq!(remembered().await, None);
    assert!(restore().await.records_written > 0);
}

#[tokio::test]
async fn one_changed_submission_rewrites_its_record_and_its_event_only() {
    let db = helpers::TestDatabase::new();
    let store = storage::open(&db.url).await.unwrap();
    store.import(&democon(), None).await.unwrap();
    let before = store.load(&Default::default()).await.unwrap();

    let mut changed = democon();
    std::sync::Arc::make_mut(&mut changed.events[0].submissions[5]).title = "A new title".into();
    let summary = store.import(&changed, None).await.unwrap();
    // The submission's record, and the event's own row (its generation).
    assert_eq!(summary.records_written, 2);
    assert_eq!(summary.changed_events, vec!["democon"]);
    assert_eq!(summary.generation, 2);

    let after = store.load(&Default::default()).await.unwrap();
    let generation_of = |loaded: &storage::Loaded, slug: &str| {
        loaded
            .event_versions
            .iter()
            .find(|(s, _)| s == slug)
            .map(|(_, v)| v.generation)
    };
    assert_eq!(generation_of(&after, "democon"), Some(2));
    assert_eq!(
        generation_of(&after, "privcon"),
        generation_of(&before, "privcon"),
        "an untouched event keeps its generation, so replicas keep its snapshot"
    );
    let exported = store.export(&[]).await.unwrap();
    assert_eq!(to_json(&exported), to_json(&sorted(changed)));
}

/// Users by code and events by slug: the order storage gives them back.
fn sorted(mut dataset: Dataset) -> Dataset {
    dataset.users.sort_by(|a, b| a.code.cmp(&b.code));
    dataset.events.sort_by(|a, b| a.slug.cmp(&b.slug));
    dataset
}

/// Removes the event's first submission with its reviews and answers.
fn remove_first_submission(event: &mut confapi::model::Event) {
    let gone = event.submissions.remove(0).code.clone();
    event.reviews.retain(|r| r.submission != gone);
    let reviews: Vec<i64> = event.reviews.iter().map(|r| r.id).collect();
    event.answers.retain(|a| {
        a.submission.as_deref() != Some(gone.as_str())
            && a.review.is_none_or(|r| reviews.contains(&r))
    });
}

#[tokio::test]
async fn removed_and_reordered_items_are_written_back_exactly() {
    let db = helpers::TestDatabase::new();
    let store = storage::open(&db.url).await.unwrap();
    store.import(&democon(), None).await.unwrap();

    let mut changed = democon();
    let event = &mut changed.events[0];
    remove_first_submission(event);
    event.tags.reverse();
    event.rooms.reverse();
    let summary = store.import(&changed, None).await.unwrap();
    assert!(summary.records_written > 0);
    let exported = store.export(&[]).await.unwrap();
    assert_eq!(to_json(&exported), to_json(&sorted(changed)));
}

/// democon imported, as a fresh replica loads it, and what that replica
/// then holds (to load only what changes since).
/// democon's snapshot as a replica reading the store in full serves it.
async fn democon_served(store: &dyn storage::Store) -> confapi::domain::catalog::EventData {
    let stored = store.export(&["democon".into()]).await.unwrap();
    confapi::domain::catalog::EventData::serving(stored.events[0].clone())
}

/// What a replica that has read everything stored now holds.
async fn held_now(store: &dyn storage::Store) -> storage::Held {
    let loaded = store.load(&Default::default()).await.unwrap();
    storage::Held {
        events: loaded.event_versions.into_iter().collect(),
        users: Some(loaded.version.generation),
    }
}

async fn democon_held() -> (
    helpers::TestDatabase,
    std::sync::Arc<dyn storage::Store>,
    storage::Loaded,
    storage::Held,
) {
    let db = helpers::TestDatabase::new();
    let store = storage::open(&db.url).await.unwrap();
    store.import(&democon(), None).await.unwrap();
    let before = store.load(&Default::default()).await.unwrap();
    let held = storage::Held {
        events: before.event_versions.iter().cloned().collect(),
        users: Some(before.version.generation),
    };
    (db, store, before, held)
}

/// A replica that holds an event reads only what changed since: removed,
/// new, changed and moved records, and the bodies of the new and changed
/// ones alone; applied to its copy, that gives the event as stored.
#[tokio::test]
async fn a_replica_reads_only_the_records_changed_since_its_snapshot() {
    let (_db, store, before, held) = democon_held().await;
    let unchanged = store.load(&held).await.unwrap();
    assert!(unchanged.patches.is_empty() && unchanged.changed_events.is_empty());
    assert!(unchanged.users.is_empty(), "no user was written since");
    assert_eq!(unchanged.user_count, before.users.len());

    let mut changed = democon();
    let event = &mut changed.events[0];
    remove_first_submission(event);
    std::sync::Arc::make_mut(&mut event.submissions[2]).title = "A new title".into();
    let mut new = confapi::model::Submission::clone(&event.submissions[3]);
    new.code = "ZZNEW9".into();
    event.submissions.push(new.into());
    event.tags.reverse();
    event.name = confapi::model::I18n::en("Renamed");
    changed.users[0].name = "Renamed User".into();
    store.import(&changed, None).await.unwrap();

    let mut after = store.load(&held).await.unwrap();
    let written: Vec<&str> = after.users.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(written, ["Renamed User"], "only the user written since");
    assert_eq!(after.user_count, before.users.len());
    assert!(
        after.changed_events.is_empty(),
        "democon is patched, privcon kept"
    );
    assert_eq!(after.patches.len(), 1);
    let patch = after.patches.remove(0);
    assert_eq!(patch.slug(), "democon");
    assert_eq!(patch.bodies(), 2, "the changed and the new submission");
    let base = &before.changed_events[0];
    assert_eq!(base.slug, "democon");
    let patched = patch.apply(base).unwrap().expect("the patch adds up");
    let stored = store.export(&["democon".into()]).await.unwrap();
    assert_eq!(
        serde_json::to_value(&patched).unwrap(),
        serde_json::to_value(&stored.events[0]).unwrap()
    );

    // A copy that is not what the replica said it holds is never patched.
    let mut wrong = base.clone();
    wrong.tags.pop();
    assert!(patch.apply(&wrong).unwrap().is_none());
}

/// A demo event of 37 submissions (not a power of two: a list grown by
/// pushes has room to spare), as a dataset and as `load` reads it back.
async fn demo_event_loaded() -> (Dataset, confapi::model::Event) {
    let db = helpers::TestDatabase::new();
    let store = storage::open(&db.url).await.unwrap();
    let (dataset, _) = demo::generate(&demo::DemoOptions {
        events: 1,
        submissions: 37,
        seed: 1,
    });
    store.import(&dataset, None).await.unwrap();
    let mut loaded = store.load(&Default::default()).await.unwrap();
    (dataset, loaded.changed_events.remove(0))
}

/// A load keeps no room to grow: every list of a loaded event, and every
/// small list of its items, holds as many elements as it has room for.
/// Grown by pushes, the 100,000-submission event's lists held some 75 MiB
/// of spare room (docs/bench-log.md, "Memory (At 752d41f and 6e95e64, 1 December)").
#[tokio::test]
async fn a_loaded_event_holds_no_spare_room() {
    let (_, event) = demo_event_loaded().await;
    let spare = |what: &str, len: usize, capacity: usize| {
        assert_eq!(capacity, len, "{what}: room for {capacity}, holds {len}");
    };
    macro_rules! lists {
        ($owner:expr, $($list:ident),+) => {$(
            spare(stringify!($list), $owner.$list.len(), $owner.$list.capacity());
        )+};
    }
    lists!(event, submission_types, tracks, rooms, tags, questions);
    lists!(event, speakers, submissions, answers, reviews);
    assert!(event
        .submissions
        .iter()
        .any(|s| !s.slots.is_empty() && !s.tags.is_empty()));
    for sub in &event.submissions {
        lists!(sub, speakers, tags, resources, slots, assigned_reviewers);
    }
    for profile in &event.speakers {
        lists!(profile, availabilities);
    }
}

/// A loaded event keeps each code and text once: the answers, reviews and
/// speakers that name a submission or a user share its string, and equal
/// answer and review texts are one string. The generated dataset shares
/// nothing (each string its own): the sharing is the load's.
#[tokio::test]
async fn a_loaded_event_keeps_each_code_and_text_once() {
    use confapi::model::ArcStr;
    let (dataset, event) = demo_event_loaded().await;
    let same = |a: &ArcStr, b: &ArcStr| a == b && std::ptr::eq(a.as_ptr(), b.as_ptr());
    let file = &dataset.events[0];
    let first = &file.submissions[0];
    let named = file
        .answers
        .iter()
        .find_map(|a| a.submission.as_ref().filter(|c| **c == first.code));
    assert!(!same(
        &first.code,
        named.expect("an answer names the first submission")
    ));
    let code = |text: &str| {
        event
            .submissions
            .iter()
            .map(|s| &s.code)
            .chain(event.speakers.iter().map(|p| &p.user))
            .find(|c| c.as_str() == text)
            .expect("a submission or a speaker of this code")
            .clone()
    };
    let mut checked = 0;
    for answer in &event.answers {
        for named in answer.submission.iter().chain(&answer.person) {
            assert!(same(named, &code(named)), "answer {}: {named}", answer.id);
            checked += 1;
        }
    }
    for review in &event.reviews {
        assert!(
            same(&review.submission, &code(&review.submission)),
            "review {}",
            review.id
        );
        checked += 1;
    }
    for sub in &event.submissions {
        for speaker in &sub.speakers {
            assert!(same(speaker, &code(speaker)), "{}: {speaker}", sub.code);
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} names checked");
    let texts: Vec<&ArcStr> = event.answers.iter().map(|a| &a.answer).collect();
    let repeated = texts
        .iter()
        .enumerate()
        .find_map(|(i, a)| texts[i + 1..].iter().find(|b| a == *b).map(|b| (*a, *b)));
    let (a, b) = repeated.expect("two answers with the same text");
    assert!(same(a, b), "{a}");
}

/// The serving snapshot keeps submissions, speakers, answers and reviews in
/// page order, not the store's: a patch of changed, removed and new ones,
/// applied to it, still gives the event as stored.
#[tokio::test]
async fn a_patch_applies_to_the_serving_snapshot_with_its_lists_in_page_order() {
    use confapi::domain::catalog::EventData;
    let (_db, store, before, held) = democon_held().await;
    let serving = EventData::serving(before.changed_events[0].clone());
    let stored_order: Vec<i64> = before.changed_events[0]
        .answers
        .iter()
        .map(|a| a.id)
        .collect();
    let serving_order: Vec<i64> = serving.event.answers.iter().map(|a| a.id).collect();
    assert_ne!(
        serving_order, stored_order,
        "democon's answers are not in page order as stored"
    );
    let stored_reviews: Vec<i64> = before.changed_events[0]
        .reviews
        .iter()
        .map(|r| r.id)
        .collect();
    let serving_reviews: Vec<i64> = serving.event.reviews.iter().map(|r| r.id).collect();
    assert_ne!(serving_reviews, stored_reviews, "nor its reviews");
    let codes = |subs: &[&std::sync::Arc<confapi::model::Submission>]| -> Vec<String> {
        subs.iter().map(|s| s.code.to_string()).collect()
    };
    let stored_subs: Vec<_> = before.changed_events[0].submissions.iter().collect();
    let serving_subs: Vec<_> = serving.event.submissions.iter().collect();
    assert_ne!(
        codes(&serving_subs),
        codes(&stored_subs),
        "nor its submissions"
    );
    assert_eq!(codes(&serving.stored_submissions()), codes(&stored_subs));

    let mut changed = democon();
    let event = &mut changed.events[0];
    let last = event.answers.len() - 1;
    std::sync::Arc::make_mut(&mut event.answers[last]).answer = "A changed answer".into();
    let mut new = confapi::model::Answer::clone(&event.answers[0]);
    new.id = 999_001;
    new.answer = "A new answer".into();
    event.answers.insert(1, new.into());
    event.answers.remove(2);
    let last = event.reviews.len() - 1;
    std::sync::Arc::make_mut(&mut event.reviews[last]).text = "A changed review".into();
    event.reviews.remove(0);
    let last = event.submissions.len() - 1;
    std::sync::Arc::make_mut(&mut event.submissions[last]).title = "A changed title".into();
    std::sync::Arc::make_mut(&mut event.submissions[0]).abstract_ = "A changed abstract".into();
    let last = event.speakers.len() - 1;
    std::sync::Arc::make_mut(&mut event.speakers[last]).biography = "A changed biography".into();
    store.import(&changed, None).await.unwrap();

    let mut after = store.load(&held).await.unwrap();
    assert_eq!(after.patches.len(), 1);
    let patch = after.patches.remove(0);
    let patched = patch
        .apply_in_order(
            &serving.event,
            &InStoredOrder {
                submissions: serving.stored_submissions(),
                speakers: serving.stored_speakers(),
                answers: serving.stored_answers(),
                reviews: serving.stored_reviews(),
            },
        )
        .unwrap()
        .expect("the patch adds up");
    let stored = store.export(&["democon".into()]).await.unwrap();
    assert_eq!(
        serde_json::to_value(&patched).unwrap(),
        serde_json::to_value(&stored.events[0]).unwrap()
    );
    // Read in the serving order as if it were the store's, it would not be.
    let misread = patch.apply(&serving.event).unwrap();
    assert!(misread
        .is_none_or(|e| serde_json::to_value(&e).unwrap()
            != serde_json::to_value(&stored.events[0]).unwrap()));
}

/// A patch that only rewrites records (texts of a submission, an answer, a
/// review, a speaker) is applied to the serving snapshot in place, keeping
/// its page order; one that changes what decides page order (a
/// submission's speakers) or moves a record is not, and both give the
/// snapshot of the event as stored, list for list and place for place.
#[tokio::test]
async fn a_patch_that_only_rewrites_records_keeps_the_serving_snapshots_page_order() {
    use confapi::cache::{apply_patch, Patched};
    use confapi::domain::catalog::EventData;
    let (_db, store, before, held) = democon_held().await;
    let serving = EventData::serving(before.changed_events[0].clone());
    let as_stored = || democon_served(&*store);
    let same = |got: &EventData, want: &EventData| {
        assert_eq!(
            serde_json::to_value(&got.event).unwrap(),
            serde_json::to_value(&want.event).unwrap()
        );
        assert_eq!(got.stored_order, want.stored_order);
    };

    let mut rewritten = democon();
    let event = &mut rewritten.events[0];
    std::sync::Arc::make_mut(&mut event.answers[5]).answer = "A changed answer".into();
    std::sync::Arc::make_mut(&mut event.reviews[7]).text = "A changed review".into();
    std::sync::Arc::make_mut(&mut event.submissions[3]).title = "A changed title".into();
    std::sync::Arc::make_mut(&mut event.speakers[2]).biography = "A changed biography".into();
    event.name = confapi::model::I18n::en("Renamed");
    store.import(&rewritten, None).await.unwrap();
    let patch = store.load(&held).await.unwrap().patches.remove(0);
    let (patched, how) = apply_patch(&patch, &serving).unwrap().expect("it adds up");
    assert_eq!(how, Patched::InPlace, "nothing moved");
    same(&patched, &as_stored().await);
    assert_eq!(
        patched
            .event
            .submissions
            .iter()
            .filter(|s| s.title == "A changed title")
            .count(),
        1
    );

    let mut reordered = rewritten.clone();
    let event = &mut reordered.events[0];
    let two = event
        .submissions
        .iter()
        .position(|s| s.speakers.len() > 1)
        .unwrap();
    std::sync::Arc::make_mut(&mut event.submissions[two])
        .speakers
        .reverse();
    store.import(&reordered, None).await.unwrap();
    let patch = store.load(&held).await.unwrap().patches.remove(0);
    let (patched, how) = apply_patch(&patch, &serving).unwrap().expect("it adds up");
    assert_eq!(
        how,
        Patched::Reordered,
        "a submission's speakers decide where profiles go"
    );
    same(&patched, &as_stored().await);

    let mut moved = rewritten;
    moved.events[0].reviews.swap(0, 1);
    store.import(&moved, None).await.unwrap();
    let patch = store.load(&held).await.unwrap().patches.remove(0);
    let (patched, how) = apply_patch(&patch, &serving).unwrap().expect("it adds up");
    assert_eq!(how, Patched::Reordered, "two reviews moved in the store");
    same(&patched, &as_stored().await);
}

/// A patch that rewrites only submissions, in nothing an index reads (their
/// texts, their duration), gives a snapshot that shares every other record
/// and every index with the one it patched, and is the snapshot of the
/// event as stored, index for index; one that changes a submission's state
/// (which decides what the public sees), or the event's own record, builds
/// the indexes anew.
#[tokio::test]
async fn a_patch_that_rewrites_only_submission_texts_keeps_the_snapshots_indexes() {
    use confapi::cache::{apply_patch, Patched};
    use confapi::domain::catalog::EventData;
    use confapi::model::SubmissionState;
    use std::sync::Arc;
    let (_db, store, before, held) = democon_held().await;
    let serving = EventData::serving(before.changed_events[0].clone());
    let as_stored = || democon_served(&*store);
    // Every record and every index, as built from the store.
    let same = |got: &EventData, want: &EventData| {
        assert_eq!(format!("{got:#?}"), format!("{want:#?}"));
    };

    let mut edited = democon();
    let event = &mut edited.events[0];
    Arc::make_mut(&mut event.submissions[3]).title = "A changed title".into();
    Arc::make_mut(&mut event.submissions[4]).abstract_ = "A changed abstract".into();
    let last = event.submissions.len() - 1;
    let submission = Arc::make_mut(&mut event.submissions[last]);
    submission.internal_notes = "Changed notes".into();
    submission.duration = Some(17);
    store.import(&edited, None).await.unwrap();
    let patch = store.load(&held).await.unwrap().patches.remove(0);
    assert_eq!(patch.bodies(), 3);
    let (patched, how) = apply_patch(&patch, &serving).unwrap().expect("it adds up");
    assert_eq!(how, Patched::Shared);
    same(&patched, &as_stored().await);
    let unchanged = |list: &[Arc<confapi::model::Submission>]| {
        list.iter()
            .position(|s| s.title != "A changed title" && s.abstract_ != "A changed abstract")
            .unwrap()
    };
    let kept = unchanged(&serving.event.submissions);
    assert!(Arc::ptr_eq(
        &patched.event.submissions[kept],
        &serving.event.submissions[kept]
    ));
    assert!(Arc::ptr_eq(
        &patched.event.answers[0],
        &serving.event.answers[0]
    ));
    assert_eq!(
        serving
            .event
            .submissions
            .iter()
            .filter(|s| s.title == "A changed title")
            .count(),
        0,
        "the snapshot patched is left as it was"
    );

    // Against the snapshot just made: a public talk's state decides what
    // the public sees.
    let held = held_now(&*store).await;
    let serving = patched;
    let talk = &serving.event.submissions[serving.public_talks_by_code[0]].code;
    let talk = edited.events[0]
        .submissions
        .iter()
        .position(|s| &s.code == talk)
        .unwrap();
    Arc::make_mut(&mut edited.events[0].submissions[talk]).state = SubmissionState::Accepted;
    store.import(&edited, None).await.unwrap();
    let patch = store.load(&held).await.unwrap().patches.remove(0);
    let (patched, how) = apply_patch(&patch, &serving).unwrap().expect("it adds up");
    assert_eq!(how, Patched::InPlace, "a state is indexed");
    same(&patched, &as_stored().await);

    // And the event's own record is read by every view.
    let held = held_now(&*store).await;
    let serving = patched;
    Arc::make_mut(&mut edited.events[0].submissions[3]).title = "Retitled".into();
    edited.events[0].name = confapi::model::I18n::en("Renamed");
    store.import(&edited, None).await.unwrap();
    let patch = store.load(&held).await.unwrap().patches.remove(0);
    let (patched, how) = apply_patch(&patch, &serving).unwrap().expect("it adds up");
    assert_eq!(how, Patched::InPlace, "the event renamed");
    same(&patched, &as_stored().await);
}

#[tokio::test]
async fn an_email_taken_by_a_stored_user_is_a_rejected_dataset_with_its_path() {
    let db = helpers::TestDatabase::new();
    let store = storage::open(&db.url).await.unwrap();
    store.import(&democon(), None).await.unwrap();
    let taken = democon().users[3].clone();

    let mut doc = json!({"format": "cfp-dataset", "version": 1, "users": [
        {"code": "NEWCOMER", "name": "New", "email": taken.email.to_uppercase()}
    ]});
    let clash = parse_value(&doc).unwrap();
    match store.import(&clash, None).await {
        Err(StoreError::Rejected(problems)) => {
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert_eq!(problems[0].path, "users[0].email");
            assert!(
                problems[0]
                    .message
                    .contains(&format!("the stored user {:?}", taken.code)),
                "{}",
                problems[0].message
            );
        }
        other => panic!("expected a rejected dataset, got {other:?}"),
    }

    // The stored owner giving the address up in the same import frees it.
    let mut owner = to_json(&Dataset {
        users: vec![taken.clone()],
        events: vec![],
    })["users"][0]
        .clone();
    owner["email"] = json!("elsewhere@example.org");
    doc["users"].as_array_mut().unwrap().push(owner);
    let swap = parse_value(&doc).unwrap();
    store.import(&swap, None).await.unwrap();
    let users = store.export(&[]).await.unwrap().users;
    let newcomer = users.iter().find(|u| u.code == "NEWCOMER").unwrap();
    assert_eq!(newcomer.email, taken.email.to_uppercase());
}

#[test]
fn import_reports_an_email_clash_as_a_problem_not_an_outage() {
    let db = helpers::TestDatabase::new();
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.json");
    std::fs::write(&first, helpers::democon().to_string()).unwrap();
    let output = binary()
        .args(["import", "--db", &db.url])
        .arg(&first)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let taken = helpers::democon()["users"][0]["email"]
        .as_str()
        .unwrap()
        .to_string();
    let second = dir.path().join("second.json");
    let doc = json!({"format": "cfp-dataset", "version": 1,
                     "users": [{"code": "NEWCOMER", "name": "New", "email": taken}]});
    std::fs::write(&second, doc.to_string()).unwrap();
    let output = binary()
        .args(["import", "--db", &db.url])
        .arg(&second)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("users[0].email: e-mail address"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert!(!stderr.contains("unavailable"), "{stderr}");
}

#[test]
fn serve_and_export_refuse_a_missing_sqlite_database() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("typo.db");
    let url = format!("sqlite://{}", file.display());
    for args in [
        vec!["serve", "--listen", "127.0.0.1:0", "--db", &url],
        vec!["export", "--db", &url],
    ] {
        let output = binary().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("no database at"), "{args:?}: {stderr}");
        assert!(!file.exists(), "{args:?} created {}", file.display());
    }
}

#[tokio::test]
async fn a_database_of_the_old_schema_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("old.db");
    let url = format!("sqlite://{}", file.display());
    {
        use sqlx::Connection;
        let mut conn = sqlx::SqliteConnection::connect(&format!("{url}?mode=rwc"))
            .await
            .unwrap();
        sqlx::query("CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY)")
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
    }
    let before = std::fs::read(&file).unwrap();
    match storage::open(&url).await {
        Err(StoreError::Config(message)) => {
            assert!(message.contains("older confapi"), "{message}");
            assert!(message.contains("import"), "{message}");
        }
        Err(other) => panic!("expected a refusal, got {other}"),
        Ok(_) => panic!("expected a refusal, the database was opened"),
    }
    assert!(
        std::fs::read(&file).unwrap() == before,
        "the old database was changed"
    );
}

#[tokio::test]
async fn after_an_sqlite_import_the_database_file_alone_holds_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("live.db").display());
    let store = storage::open(&url).await.unwrap();
    store.import(&democon(), None).await.unwrap();
    // Copy only the main file, as a naive backup would (the store keeps
    // its connections open, so the WAL file still exists).
    let copy = dir.path().join("copy.db");
    std::fs::copy(dir.path().join("live.db"), &copy).unwrap();
    let copied = export(&format!("sqlite://{}", copy.display()));
    assert_eq!(copied, to_json(&sorted(democon())));
}

/// A replaced database (a new file at the same path, whose generation
/// starts at 1 again) is noticed by its identity, not served stale.
#[tokio::test]
async fn a_replaced_sqlite_database_is_noticed_by_a_running_server() {
    if helpers::postgres_admin_url().is_some() {
        return; // about SQLite files; the PostgreSQL run covers the rest
    }
    let server = helpers::TestServer::start(&[helpers::democon()]).await;
    assert_eq!(event_slugs(&server).await, vec!["democon"]);
    let file = std::path::PathBuf::from(server.db_url.strip_prefix("sqlite://").unwrap());
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
    let replacement = storage::open(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    let friendly = parse_value(&helpers::client_friendly()).unwrap();
    let imported = replacement.import(&friendly, None).await.unwrap();
    assert_eq!(imported.generation, 1, "the replacement starts again at 1");
    // While the file is being replaced, a poll may find it without its
    // tables yet: that is a storage error (503), which the next poll heals.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let reply = server.anon().get("/api/events/").await;
        assert!(
            matches!(reply.status, 200 | 503),
            "GET /api/events/: {} {}",
            reply.status,
            reply.text
        );
        let slugs: Vec<&str> = reply.body["results"]
            .as_array()
            .map(|events| events.iter().filter_map(|e| e["slug"].as_str()).collect())
            .unwrap_or_default();
        if reply.status == 200 && slugs == ["clientcon"] {
            break;
        }
        assert!(Instant::now() < deadline, "still serving {slugs:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A sync of every upstream event deletes the stored events the upstream no
/// longer has, in the import's transaction, and a running server drops them
/// (404) at its next reload; a plain import keeps them.
#[tokio::test]
async fn an_import_of_every_event_deletes_the_absent_ones_and_servers_drop_them() {
    let document = helpers::democon();
    let server = helpers::TestServer::start(std::slice::from_ref(&document)).await;
    let admin = server.token(&helpers::token_of(&document, "admin@example.org"));
    assert_eq!(admin.get("/api/events/privcon/").await.status, 200);
    assert_eq!(admin.get("/privcon/schedule.json").await.status, 200);
    let mut only_democon = democon();
    let privcon = only_democon.events.remove(1);
    assert_eq!(privcon.slug, "privcon");
    let privcon_records = 1
        + privcon.submission_types.len()
        + privcon.tracks.len()
        + privcon.rooms.len()
        + privcon.tags.len()
        + privcon.questions.len()
        + privcon.speakers.len()
        + privcon.submissions.len()
        + privcon.answers.len()
        + privcon.reviews.len();

    let plain = server.store.import(&only_democon, None).await.unwrap();
    assert_eq!(
        plain,
        ImportSummary {
            generation: 1,
            ..ImportSummary::default()
        },
        "without the option, an absent event is kept"
    );

    let mirror = ImportOptions {
        delete_absent_events: true,
        ..Default::default()
    };
    let summary = server
        .store
        .import_with(&only_democon, mirror, None)
        .await
        .unwrap();
    assert_eq!(
        summary,
        ImportSummary {
            generation: 2,
            changed_events: vec![],
            records_written: privcon_records as u64,
            deleted_events: vec!["privcon".into()],
        }
    );
    // The server's own poll picks the new generation up. The API then
    // answers as for an event that never existed (403, behaviour.md §3),
    // the exports 404, and the events list no longer names it.
    let unknown = admin.get("/api/events/nosuchevent/").await;
    assert_eq!(unknown.status, 403);
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.cache.cached_generation() != 2 {
        assert!(Instant::now() < deadline, "the server did not reload");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let gone = admin.get("/api/events/privcon/").await;
    assert_eq!((gone.status, &gone.body), (403, &unknown.body));
    let export_reply = admin.get("/privcon/schedule.json").await;
    assert_eq!(
        (export_reply.status, &export_reply.body),
        (404, &json!({"detail": "Not found."}))
    );
    let listed: Vec<Value> = admin
        .all("/api/events/")
        .await
        .iter()
        .map(|e| e["slug"].clone())
        .collect();
    assert_eq!(listed, vec![json!("democon")]);
    assert_eq!(admin.get("/api/events/democon/").await.status, 200);
    let exported = export(&server.db_url);
    let slugs: Vec<&Value> = exported["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["slug"])
        .collect();
    assert_eq!(slugs, vec!["democon"], "the event's records are gone too");

    let again = server
        .store
        .import_with(&only_democon, mirror, None)
        .await
        .unwrap();
    assert_eq!(
        again,
        ImportSummary {
            generation: 2,
            ..ImportSummary::default()
        }
    );
}

async fn event_slugs(server: &helpers::TestServer) -> Vec<String> {
    server
        .anon()
        .all("/api/events/")
        .await
        .iter()
        .map(|e| e["slug"].as_str().unwrap().to_string())
        .collect()
}

/// `kill -9` of an import at random moments: afterwards the database holds
/// the previous data or the new data, whole, never a mix, with the change
/// feed of exactly the imports that committed; and a new import works.
#[test]
fn an_import_killed_at_any_moment_leaves_the_previous_data_whole() {
    let db = helpers::TestDatabase::new();
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, dataset: &Dataset| {
        let path = dir.path().join(name);
        std::fs::write(&path, to_json(dataset).to_string()).unwrap();
        path
    };
    // 300 submissions: a debug build re-imports them all changed in about
    // 2.5 s (1,500 took 34 s, the whole integration binary's critical path).
    let (old, _) = demo::generate(&demo::DemoOptions {
        events: 1,
        submissions: 300,
        seed: 1,
    });
    // Every submission changed: a half-written import would show a mix.
    let mut new = old.clone();
    for submission in new.events[0].submissions.iter_mut() {
        std::sync::Arc::make_mut(submission)
            .title
            .push_str(" (revised)");
    }
    let old_file = write("old.json", &old);
    let new_file = write("new.json", &new);
    let import = |file: &Path| {
        binary()
            .args(["import", "--db", &db.url])
            .arg(file)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    assert!(import(&old_file).wait().unwrap().success());
    let old_export = export(&db.url);
    let new_export = to_json(&sorted(new.clone()));

    // How long a whole import of the new data takes here.
    let started = Instant::now();
    assert!(import(&new_file).wait().unwrap().success());
    let full = started.elapsed();
    assert_eq!(export(&db.url), new_export);
    assert!(import(&old_file).wait().unwrap().success());
    // Generations 1 to 3: old, new, old. What the feed of a committed
    // import of the new data, and of the old again, holds.
    let setup_feed = feed(&db.url);
    assert_eq!(
        setup_feed.iter().map(|(g, _)| *g).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let to_new = setup_feed[1].1.clone();
    let to_old = setup_feed[2].1.clone();
    assert!(!to_new.is_empty() && !to_old.is_empty());

    let mut killed_before_commit = 0;
    // The last trials kill about when a whole import ends: those commit
    // more often than not.
    for trial in 0..8 {
        let feed_before = feed(&db.url);
        let mut child = import(&new_file);
        let delay = full.mul_f64(0.1 + 0.15 * trial as f64);
        std::thread::sleep(delay);
        let _ = child.kill(); // SIGKILL
        child.wait().unwrap();
        let now = export(&db.url);
        let feed_now = feed(&db.url);
        if now == old_export {
            killed_before_commit += 1;
            assert_eq!(feed_now, feed_before, "trial {trial}: the feed changed");
        } else {
            assert_eq!(
                now, new_export,
                "trial {trial}: neither the old nor the new data"
            );
            let generation = feed_before.last().unwrap().0 + 1;
            let mut expected = feed_before.clone();
            expected.push((generation, to_new.clone()));
            assert_eq!(feed_now, expected, "trial {trial}: not the new data's feed");
            assert!(import(&old_file).wait().unwrap().success());
            assert_eq!(export(&db.url), old_export);
            expected.push((generation + 1, to_old.clone()));
            assert_eq!(
                feed(&db.url),
                expected,
                "trial {trial}: not the old data's feed"
            );
        }
    }
    assert!(
        killed_before_commit > 0,
        "no kill landed before the commit: the trials prove nothing"
    );
}
