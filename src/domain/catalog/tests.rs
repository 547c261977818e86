//! The catalog's unit tests.

use super::*;

#[test]
fn find_takes_the_last_equal_position_as_a_map_built_in_order_would() {
    let keys = ["a", "b", "b", "c"];
    let sorted: Vec<usize> = vec![0, 2, 1, 3]; // equal keys in any order
    assert_eq!(find(&sorted, |i| keys[i].cmp("b")), Some(1));
    assert_eq!(find(&sorted, |i| keys[i].cmp("a")), Some(0));
    assert_eq!(find(&sorted, |i| keys[i].cmp("bb")), None);
    assert_eq!(find(&[] as &[usize], |i| keys[i].cmp("a")), None);
}

#[test]
fn lower_case_lookups_compare_as_to_lowercase_does() {
    for (code, lower) in [
        ("AbC", "abc"),
        ("ÄBC", "äbc"),
        ("ΣΑΣ", "σας"),
        ("a_B", "a_b"),
    ] {
        assert_eq!(compare_lower(code, lower), Ordering::Equal, "{code}");
        assert_eq!(compare_lower(code, &code.to_lowercase()), Ordering::Equal);
    }
    assert_eq!(compare_lower("ABD", "abc"), Ordering::Greater);
    assert_eq!(compare_lower("AB", "abc"), Ordering::Less);
    let codes = ["b", "A", "a", "C"];
    let order: Vec<usize> = by_lower_code((0..codes.len()).collect(), |i| codes[i].to_lowercase());
    assert_eq!(order, [1, 2, 0, 3]);
    assert_eq!(find(&order, |i| compare_lower(codes[i], "a")), Some(2));
}

#[test]
fn groups_keep_each_owners_items_in_the_order_given() {
    let groups: Groups<SubmissionIx, u32> = Groups::new(
        3,
        [(2u32, 10), (0, 11), (2, 12)]
            .into_iter()
            .map(|(owner, item)| (SubmissionIx::from(owner), item)),
    );
    assert_eq!(groups.of(SubmissionIx::from(0)), [11]);
    assert_eq!(groups.of(SubmissionIx::from(1)), [] as [u32; 0]);
    assert_eq!(groups.of(SubmissionIx::from(2)), [10, 12]);
}

fn demo_event() -> Event {
    let options = crate::dataset::demo::DemoOptions {
        events: 1,
        submissions: 400,
        seed: 11,
    };
    crate::dataset::demo::generate(&options).0.events.remove(0)
}

#[test]
fn the_serving_snapshot_keeps_its_lists_in_page_order_and_shows_the_same() {
    let event = demo_event();
    let plain = EventData::new(event.clone());
    let serving = EventData::serving(event.clone());

    // The store's order is still known: patches, exports and the feed
    // read it.
    let owned = |items: Vec<&Arc<Submission>>| -> Vec<Arc<Submission>> {
        items.into_iter().cloned().collect()
    };
    assert_eq!(owned(serving.stored_submissions()), event.submissions);
    assert_eq!(owned(plain.stored_submissions()), event.submissions);
    let back: Vec<Arc<SpeakerProfile>> = serving.stored_speakers().into_iter().cloned().collect();
    assert_eq!(back, event.speakers);
    let back: Vec<Arc<Answer>> = serving.stored_answers().into_iter().cloned().collect();
    assert_eq!(back, event.answers);
    let back: Vec<Arc<Review>> = serving.stored_reviews().into_iter().cloned().collect();
    assert_eq!(back, event.reviews);
    let code = |data: &EventData, i: SubmissionIx| data.event.submissions[i].code.to_string();
    let user = |data: &EventData, p: ProfileIx| data.event.speakers[p].user.to_string();
    let codes = |data: &EventData, list: &[SubmissionIx]| -> Vec<String> {
        list.iter().map(|&i| code(data, i)).collect()
    };
    let users = |data: &EventData, list: &[ProfileIx]| -> Vec<String> {
        list.iter().map(|&p| user(data, p)).collect()
    };
    assert_eq!(
        codes(
            &serving,
            &serving.submission_positions_stored().collect::<Vec<_>>()
        ),
        codes(
            &plain,
            &plain.submission_positions_stored().collect::<Vec<_>>()
        )
    );
    assert_eq!(
        users(
            &serving,
            &serving.profile_positions_stored().collect::<Vec<_>>()
        ),
        users(
            &plain,
            &plain.profile_positions_stored().collect::<Vec<_>>()
        )
    );
    assert_ne!(
        codes(
            &serving,
            &SubmissionIx::all(event.submissions.len()).collect::<Vec<_>>()
        ),
        codes(
            &plain,
            &SubmissionIx::all(event.submissions.len()).collect::<Vec<_>>()
        ),
        "the demo's submissions are not stored by code"
    );

    // Page order: submissions by code, each one's answers and reviews
    // side by side, in that order; profiles by first submission.
    let in_order: Vec<SubmissionIx> = SubmissionIx::all(event.submissions.len()).collect();
    assert_eq!(serving.submissions_by_code, in_order);
    let mut next = 0;
    for &s in &serving.submissions_by_code {
        let mut positions: Vec<usize> = serving
            .answers_of_submission
            .of(s)
            .iter()
            .map(|&a| a.get())
            .collect();
        positions.sort_unstable();
        if let Some(&first) = positions.first() {
            assert!(first >= next, "{}", code(&serving, s));
            assert_eq!(
                positions,
                (first..first + positions.len()).collect::<Vec<_>>()
            );
            next = first + positions.len();
        }
    }
    assert!(
        next > event.answers.len() / 2,
        "{next} of {}",
        event.answers.len()
    );
    let mut next = 0;
    for &s in &serving.submissions_by_code {
        let mut positions: Vec<usize> = serving
            .reviews_of_submission
            .of(s)
            .iter()
            .map(|&r| r.get())
            .collect();
        positions.sort_unstable();
        if let Some(&first) = positions.first() {
            assert_eq!(first, next, "{}", code(&serving, s));
            assert_eq!(
                positions,
                (first..first + positions.len()).collect::<Vec<_>>()
            );
            next = first + positions.len();
        }
    }
    let mut next = 0;
    for &s in &serving.submissions_by_code {
        for p in serving.speaker_profiles.of(s).iter().flatten() {
            assert!(p.get() <= next, "{}", user(&serving, *p));
            next = next.max(p.get() + 1);
        }
    }

    // Every list, group, table and lookup shows the same objects.
    assert_eq!(
        codes(&serving, &serving.submissions_by_code),
        codes(&plain, &plain.submissions_by_code)
    );
    assert_eq!(
        codes(&serving, &serving.submissions_by_lower_code),
        codes(&plain, &plain.submissions_by_lower_code)
    );
    assert_eq!(
        codes(&serving, &serving.talks_by_code),
        codes(&plain, &plain.talks_by_code)
    );
    assert_eq!(
        codes(&serving, &serving.public_talks_by_code),
        codes(&plain, &plain.public_talks_by_code)
    );
    assert_eq!(
        users(&serving, &serving.profiles_by_code),
        users(&plain, &plain.profiles_by_code)
    );
    assert_eq!(
        users(&serving, &serving.profiles_by_lower_code),
        users(&plain, &plain.profiles_by_lower_code)
    );
    assert_eq!(
        users(&serving, &serving.public_profiles_by_code),
        users(&plain, &plain.public_profiles_by_code)
    );
    let ids = |data: &EventData, list: &[AnswerIx]| -> Vec<i64> {
        list.iter().map(|&a| data.event.answers[a].id).collect()
    };
    let review_ids = |data: &EventData, list: &[ReviewIx]| -> Vec<i64> {
        list.iter().map(|&r| data.event.reviews[r].id).collect()
    };
    assert_eq!(
        ids(&serving, &serving.answers_by_id),
        ids(&plain, &plain.answers_by_id)
    );
    assert_eq!(
        ids(&serving, &serving.public_owner_answers_by_id),
        ids(&plain, &plain.public_owner_answers_by_id)
    );
    assert_eq!(
        review_ids(&serving, &serving.reviews_by_id),
        review_ids(&plain, &plain.reviews_by_id)
    );
    assert_eq!(
        review_ids(&serving, &serving.reviews_ordered),
        review_ids(&plain, &plain.reviews_ordered)
    );
    assert_eq!(serving.reviewers_who_wrote, plain.reviewers_who_wrote);
    for s in SubmissionIx::all(event.submissions.len()) {
        let t = serving
            .submission_position(&code(&plain, s))
            .expect("the same submission");
        assert_eq!(serving.event.submissions[t], plain.event.submissions[s]);
        assert_eq!(serving.is_talk[t], plain.is_talk[s]);
        assert_eq!(serving.is_public_talk[t], plain.is_public_talk[s]);
        let speakers = |data: &EventData, s| -> Vec<Option<String>> {
            data.speaker_profiles
                .of(s)
                .iter()
                .map(|p| p.map(|p| user(data, p)))
                .collect()
        };
        assert_eq!(speakers(&serving, t), speakers(&plain, s));
        assert_eq!(
            ids(&serving, serving.answers_of_submission.of(t)),
            ids(&plain, plain.answers_of_submission.of(s))
        );
        assert_eq!(
            review_ids(&serving, serving.reviews_of_submission.of(t)),
            review_ids(&plain, plain.reviews_of_submission.of(s))
        );
    }
    for p in ProfileIx::all(event.speakers.len()) {
        let q = serving
            .profile_position(&user(&plain, p))
            .expect("the same profile");
        assert_eq!(serving.event.speakers[q], plain.event.speakers[p]);
        assert_eq!(serving.is_public_profile[q], plain.is_public_profile[p]);
        assert_eq!(
            codes(&serving, serving.profile_submissions.of(q)),
            codes(&plain, plain.profile_submissions.of(p))
        );
        assert_eq!(
            ids(&serving, serving.answers_of_person.of(q)),
            ids(&plain, plain.answers_of_person.of(p))
        );
    }
    for r in ReviewIx::all(event.reviews.len()) {
        let s = serving
            .review_position(plain.event.reviews[r].id)
            .expect("the same review");
        assert_eq!(serving.event.reviews[s], plain.event.reviews[r]);
        assert_eq!(
            serving.review_submission[s].map(|i| code(&serving, i)),
            plain.review_submission[r].map(|i| code(&plain, i))
        );
        assert_eq!(
            ids(&serving, serving.answers_of_review.of(s)),
            ids(&plain, plain.answers_of_review.of(r))
        );
    }
    for &a in &plain.answers_by_id {
        let id = plain.event.answers[a].id;
        let b = serving.answer_position(id).expect("the same answer");
        assert_eq!(serving.event.answers[b], plain.event.answers[a]);
        let owner = |data: &EventData, a: AnswerIx| match data.answer_owner[a] {
            AnswerOwner::Submission(s) => format!("s{}", code(data, s)),
            AnswerOwner::Person(p) => format!("p{}", user(data, p)),
            AnswerOwner::Review(r) => format!("r{}", data.event.reviews[r].id),
            AnswerOwner::Missing => "-".into(),
        };
        assert_eq!(owner(&serving, b), owner(&plain, a));
        assert_eq!(serving.answer_question[b], plain.answer_question[a]);
    }
}

#[test]
fn shared_json_renders_each_object_once_per_context_and_stays_bounded() {
    let shared = SharedJson::default();
    let renders = std::cell::Cell::new(0);
    let render = |json: &str| {
        let json = json.to_string();
        let renders = &renders;
        move || {
            renders.set(renders.get() + 1);
            json
        }
    };
    assert_eq!(
        &*shared.get_or_render(0, 1, "en", render("{\"a\":1}")),
        "{\"a\":1}"
    );
    assert_eq!(
        &*shared.get_or_render(0, 1, "en", render("other")),
        "{\"a\":1}"
    );
    // Another context, kind or id is another object.
    assert_eq!(&*shared.get_or_render(0, 1, "de", render("de")), "de");
    assert_eq!(&*shared.get_or_render(1, 1, "en", render("kind")), "kind");
    assert_eq!(&*shared.get_or_render(0, 2, "en", render("id")), "id");
    assert_eq!((renders.get(), shared.held()), (4, 4));
    // Too large to hold: rendered each time.
    let large = "x".repeat(SharedJson::MAX_BYTES + 1);
    shared.get_or_render(0, 3, "en", render(&large));
    shared.get_or_render(0, 3, "en", render(&large));
    assert_eq!((renders.get(), shared.held()), (6, 4));
    // Full: what is held stays, nothing more is.
    for id in 100..100 + SharedJson::MAX_OBJECTS as i64 {
        shared.get_or_render(2, id, "en", render("{}"));
    }
    assert_eq!(shared.held(), SharedJson::MAX_OBJECTS);
    let before = renders.get();
    assert_eq!(
        &*shared.get_or_render(0, 1, "en", render("again")),
        "{\"a\":1}"
    );
    assert_eq!(&*shared.get_or_render(3, 1, "en", render("new")), "new");
    assert_eq!(&*shared.get_or_render(3, 1, "en", render("newer")), "newer");
    assert_eq!(renders.get(), before + 2);
}

#[test]
fn permuting_in_place_puts_each_item_where_its_order_says() {
    let orders: [&[usize]; 5] = [&[], &[0], &[2, 0, 1], &[1, 0, 3, 2, 4], &[4, 3, 2, 1, 0]];
    for order in orders {
        let mut items: Vec<String> = (0..order.len()).map(|i| format!("item {i}")).collect();
        let expected: Vec<String> = order.iter().map(|&i| items[i].clone()).collect();
        permute_in_place(&mut items, order);
        assert_eq!(items, expected, "{order:?}");
    }
}
