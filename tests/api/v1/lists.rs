//! A v1 list renders each item exactly as its detail does, for every role
//! and with pytanis's whole expansion: the list's shortcuts (the speakers'
//! users read from the catalog's table, expanded questions, tracks,
//! submission types, tags and rooms serialised once per page and written
//! as raw JSON, the page prefetched) change no byte, also where `fields`
//! or `omit` shape the items.

use super::{PYTANIS_EXPAND, V1};
use crate::helpers::{democon, democon_tokens, Client, Reply, TestServer};
use serde_json::Value;

/// The roles that read v1 lists, with their tokens.
const CALLERS: [(&str, Option<&str>); 4] = [
    ("anonymous", None),
    ("organiser", Some(democon_tokens::ORGA)),
    ("reviewer", Some(democon_tokens::REVIEWER)),
    ("track reviewer", Some(democon_tokens::TRACK_REVIEWER)),
];

fn client_of(server: &TestServer, token: Option<&str>) -> Client {
    match token {
        Some(token) => server.token(token),
        None => server.anon(),
    }
}

/// `GET` with `Pretalx-Version: v1`.
trait GetV1 {
    async fn get_v1(&self, path: &str) -> Reply;
}

impl GetV1 for Client {
    async fn get_v1(&self, path: &str) -> Reply {
        self.request("GET", path, &[V1]).await
    }
}

#[tokio::test]
async fn list_items_equal_their_details_for_every_role_with_pytanis_expand() {
    let server = TestServer::start(&[democon()]).await;
    for (role, token) in CALLERS {
        let client = client_of(&server, token);
        for (list, key) in [("submissions", "code"), ("speakers", "code")] {
            let expand = if list == "submissions" {
                PYTANIS_EXPAND
            } else {
                "answers,answers.question,answers.options,submissions"
            };
            let page = client
                .get_v1(&format!(
                    "/api/events/democon/{list}/?page_size=250&expand={expand}"
                ))
                .await;
            assert_eq!(page.status, 200, "{role} {list}: {}", page.text);
            let items = page.body["results"].as_array().expect("results");
            assert!(!items.is_empty(), "{role} {list}");
            let expanded_questions = items
                .iter()
                .flat_map(|item| item["answers"].as_array().into_iter().flatten())
                .filter(|answer| answer["question"].is_object())
                .count();
            if role == "organiser" {
                assert!(expanded_questions > 10, "{list}: {expanded_questions}");
            }
            let query = format!("expand={expand}");
            read_as_details(&client, &page, list, key, &query, role).await;
        }
    }
}

/// Asserts that each of `page`'s items (a page of `list`) reads as its
/// detail (by `key`, with the page's `query`), the same JSON byte for
/// byte, keys in the same order: the list writes submissions without
/// their views and copies memoised objects as JSON text, the detail
/// serialises the views. Returns how many it compared.
async fn read_as_details(
    client: &Client,
    page: &Reply,
    list: &str,
    key: &str,
    query: &str,
    role: &str,
) -> usize {
    let items = page.body["results"].as_array().expect("results");
    for item in items {
        let code = item[key].as_str().expect("code");
        let detail = client
            .get_v1(&format!("/api/events/democon/{list}/{code}/?{query}"))
            .await;
        assert_eq!(detail.status, 200, "{role} {list}/{code} {query}");
        assert_eq!(&detail.body, item as &Value, "{role} {list}/{code} {query}");
        assert!(
            page.text.contains(&detail.text),
            "{role} {list}/{code} {query}: the detail's text is not the list item's"
        );
    }
    items.len()
}

/// The submissions list writes each submission without its view
/// (`V1Renderer::write_submission`), the detail serialises the view: for
/// every role and each expansion on its own, every listed submission reads
/// byte for byte as its detail.
#[tokio::test]
async fn submissions_listed_read_as_their_details_for_each_expansion() {
    let server = TestServer::start(&[democon()]).await;
    let expansions = [
        "",
        "speakers",
        "speakers,speakers.answers",
        "speakers,speakers.answers,speakers.answers.question",
        "answers",
        "answers,answers.question",
        "answers,answers.options",
        "slots",
        "slots,slots.room",
        "resources",
        "tags",
        "track",
        "submission_type",
    ];
    let mut compared = 0;
    for (role, token) in CALLERS {
        let client = client_of(&server, token);
        for expand in expansions {
            let page = client
                .get_v1(&format!(
                    "/api/events/democon/submissions/?page_size=250&expand={expand}"
                ))
                .await;
            assert_eq!(page.status, 200, "{role} {expand}: {}", page.text);
            let items = page.body["results"].as_array().expect("results");
            assert!(!items.is_empty(), "{role} {expand}");
            assert!(page.body["next"].is_null(), "{role} {expand}: one page");
            let query = format!("expand={expand}");
            compared += read_as_details(&client, &page, "submissions", "code", &query, role).await;
        }
    }
    assert!(compared > 500, "only {compared} submissions compared");
}

#[tokio::test]
async fn shaped_list_items_equal_their_shaped_details() {
    let server = TestServer::start(&[democon()]).await;
    let client = server.token(democon_tokens::ORGA);
    for shape in [
        "omit=abstract,description",
        "fields=code,answers,track,tags,slots",
    ] {
        let page = client
            .get_v1(&format!(
                "/api/events/democon/submissions/?page_size=250&expand={PYTANIS_EXPAND}&{shape}"
            ))
            .await;
        assert_eq!(page.status, 200, "{shape}: {}", page.text);
        let items = page.body["results"].as_array().expect("results");
        assert!(items.len() > 10, "{shape}");
        for item in items {
            let code = item["code"].as_str().expect("code");
            let detail = client
                .get_v1(&format!(
                    "/api/events/democon/submissions/{code}/?expand={PYTANIS_EXPAND}&{shape}"
                ))
                .await;
            assert_eq!(detail.status, 200, "{shape} {code}");
            assert_eq!(&detail.body, item as &Value, "{shape} {code}");
            assert!(item.get("abstract").is_none(), "{shape} {code}");
        }
        // The expanded objects are objects, not JSON text in a string.
        let tracked = items.iter().find(|item| item["track"].is_object());
        assert!(tracked.is_some(), "{shape}: no expanded track");
        let first_answer = items
            .iter()
            .flat_map(|item| item["answers"].as_array().into_iter().flatten())
            .next()
            .expect("an answer");
        assert!(
            first_answer["question"]["id"].is_i64(),
            "{shape}: {first_answer}"
        );
    }
}

/// Expanded answers nested in submissions and speakers are written by hand
/// (`views_v1::AnswerList`), the answers list serialises `AnswerView`s: for
/// every role and every expansion of their question and options, each
/// nested answer reads byte for byte as the answers list shows it (the
/// same JSON text, its keys in the same order).
#[tokio::test]
async fn answers_nested_read_as_listed() {
    let server = TestServer::start(&[democon()]).await;
    // Each expansion of an answer's question and options: on the answers
    // list, and below a submission's and its speakers' answers.
    let expansions: [&[&str]; 4] = [&[], &["question"], &["options"], &["question", "options"]];
    let below = |parent: &str, parts: &[&str]| -> String {
        std::iter::once(parent.to_string())
            .chain(parts.iter().map(|part| format!("{parent}.{part}")))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut compared = 0;
    for (role, token) in CALLERS {
        let client = client_of(&server, token);
        for parts in expansions {
            let answer_expand = parts.join(",");
            // Every page's text.
            let mut listed_text = String::new();
            for page in 1.. {
                let listed = client
                    .get_v1(&format!(
                            "/api/events/democon/answers/?page_size=250&page={page}&expand={answer_expand}"
                        )).await;
                if listed.status != 200 {
                    break;
                }
                listed_text.push_str(&listed.text);
                if listed.body["next"].is_null() {
                    break;
                }
            }
            if listed_text.is_empty() {
                // Answers are not listed to this caller: nothing to compare.
                continue;
            }
            for list in ["submissions", "speakers"] {
                let expand = match list {
                    "submissions" => format!(
                        "{},speakers,{}",
                        below("answers", parts),
                        below("speakers.answers", parts)
                    ),
                    _ => below("answers", parts),
                };
                let page = client
                    .get_v1(&format!(
                        "/api/events/democon/{list}/?page_size=250&expand={expand}"
                    ))
                    .await;
                assert_eq!(page.status, 200, "{role} {list} {expand}: {}", page.text);
                let items = page.body["results"].as_array().expect("results");
                let nested_answers = items.iter().flat_map(|item| {
                    let own = item["answers"].as_array().into_iter().flatten();
                    let speakers = item["speakers"].as_array().into_iter().flatten();
                    own.chain(speakers.flat_map(|s| s["answers"].as_array().into_iter().flatten()))
                });
                for answer in nested_answers {
                    if !answer.is_object() {
                        continue;
                    }
                    let id = answer["id"].as_i64().expect("id");
                    let expected = answer_text(&listed_text, id).unwrap_or_else(|| {
                        panic!("{role} {list} {expand}: answer {id} nested, not listed")
                    });
                    let nested = answer_text(&page.text, id).expect("the nested answer's text");
                    assert_eq!(nested, expected, "{role} {list} {expand}: answer {id}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 100, "only {compared} nested answers compared");
}

/// The JSON text of the answer `id` in `body`: the object that starts
/// `{"id":<id>,"question":` with an id or an object after it (an expanded
/// question of that id has its text there instead).
fn answer_text(body: &str, id: i64) -> Option<&str> {
    let opening = format!("{{\"id\":{id},\"question\":");
    let start = body.match_indices(&opening).map(|(at, _)| at).find(|&at| {
        let after = &body[at + opening.len()..];
        after.starts_with(|c: char| c.is_ascii_digit()) || after.starts_with("{\"id\":")
    })?;
    object_at(body, start)
}

/// The JSON object or array that starts at `start` in `body`.
fn object_at(body: &str, start: usize) -> Option<&str> {
    // To the brace that closes it, outside strings.
    let (mut depth, mut in_string, mut escaped) = (0, false, false);
    for (offset, byte) in body[start..].bytes().enumerate() {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'{' | b'[') => depth += 1,
            (false, _, b'}' | b']') => {
                depth -= 1;
                if depth == 0 {
                    return Some(&body[start..=start + offset]);
                }
            }
            (false, _, _) => {}
        }
    }
    None
}

/// Expanded speakers nested in submissions are written by hand
/// (`views_v1::SpeakerList`), a speaker's detail serialises its
/// `SpeakerView`: for every role and every expansion of the speakers'
/// answers, each nested speaker reads byte for byte as its detail, except
/// that nested, as pretalx shows them, their submissions are `[]` and so
/// are their answers unless expanded.
#[tokio::test]
async fn speakers_nested_read_as_their_detail() {
    let server = TestServer::start(&[democon()]).await;
    let expansions: [&[&str]; 5] = [
        &[],
        &["answers"],
        &["answers", "answers.question"],
        &["answers", "answers.options"],
        &["answers", "answers.question", "answers.options"],
    ];
    let mut compared = 0;
    for (role, token) in CALLERS {
        let client = client_of(&server, token);
        for parts in expansions {
            let below: String = parts
                .iter()
                .map(|part| format!(",speakers.{part}"))
                .collect();
            let expand = format!("speakers{below}");
            let mut details = std::collections::HashMap::new();
            for page in 1.. {
                let listed = client
                    .get_v1(&format!(
                        "/api/events/democon/submissions/?page_size=250&page={page}&expand={expand}"
                    ))
                    .await;
                assert_eq!(listed.status, 200, "{role} {expand}: {}", listed.text);
                for nested in speaker_texts(&listed.text) {
                    let code: String = nested["{\"code\":\"".len()..]
                        .chars()
                        .take_while(|&c| c != '"')
                        .collect();
                    if !details.contains_key(&code) {
                        let detail = client
                            .get_v1(&format!(
                                "/api/events/democon/speakers/{code}/?expand={}",
                                parts.join(",")
                            ))
                            .await;
                        assert_eq!(
                            detail.status, 200,
                            "{role} {expand}: {code}: {}",
                            detail.text
                        );
                        details.insert(code.clone(), detail.text);
                    }
                    // pretalx 2026 nests a speaker's answers (ids unless
                    // expanded), not their submissions.
                    let expected = emptied(&details[&code], "\"submissions\":[");
                    assert_eq!(nested, expected, "{role} {expand}: speaker {code}");
                    compared += 1;
                }
                if listed.body["next"].is_null() {
                    break;
                }
            }
        }
    }
    assert!(compared > 100, "only {compared} nested speakers compared");
}

/// The speakers' objects in `body`: each that starts `{"code":"…","name":`.
fn speaker_texts(body: &str) -> Vec<&str> {
    body.match_indices("{\"code\":\"")
        .map(|(at, _)| at)
        .filter(|&at| {
            let after = &body[at + "{\"code\":\"".len()..];
            after
                .find('"')
                .is_some_and(|end| after[end..].starts_with("\",\"name\":"))
        })
        .filter_map(|at| object_at(body, at))
        .collect()
}

/// `text` with the array after the first `member` (which ends in `[`)
/// emptied; the array holds no arrays.
fn emptied(text: &str, member: &str) -> String {
    let start = text.find(member).expect("the member") + member.len();
    let end = start + text[start..].find(']').expect("the array's end");
    format!("{}{}", &text[..start], &text[end..])
}

/// The answers list is ordered with its shared visible set, each `o` a set
/// of its own: asked in turn, each order is its own, not the last one's.
#[tokio::test]
async fn answers_orders_are_kept_apart() {
    let server = TestServer::start(&[democon()]).await;
    let client = server.token(democon_tokens::ORGA);
    let listed = |o: &'static str| {
        let client = &client;
        async move {
            let page = client
                .get_v1(&format!("/api/events/democon/answers/?page_size=250{o}"))
                .await;
            assert_eq!(page.status, 200, "{o}: {}", page.text);
            page.body["results"].as_array().expect("results").clone()
        }
    };
    for round in 0..2 {
        let descending = listed("&o=-id").await;
        let plain = listed("").await;
        let by_text = listed("&o=answer").await;
        let ids = |items: &[Value]| -> Vec<i64> {
            items
                .iter()
                .map(|a| a["id"].as_i64().expect("id"))
                .collect()
        };
        assert!(plain.len() > 20, "{round}");
        assert!(
            ids(&plain).windows(2).all(|w| w[0] < w[1]),
            "{round}: by id"
        );
        assert!(
            ids(&descending).windows(2).all(|w| w[0] > w[1]),
            "{round}: by id, descending"
        );
        let texts: Vec<String> = by_text
            .iter()
            .map(|a| a["answer"].as_str().expect("answer").to_lowercase())
            .collect();
        assert!(
            texts.windows(2).all(|w| w[0] <= w[1]),
            "{round}: by answer {texts:?}"
        );
        assert_ne!(ids(&by_text), ids(&plain), "{round}");
    }
}

/// Expanded questions, tracks, tags and the like are rendered once per
/// snapshot and context (`catalog::SharedJson`): each `lang` gets its own
/// texts, every role its own objects, list after list, and a new snapshot
/// shows what changed.
#[tokio::test]
async fn objects_rendered_once_per_snapshot_follow_lang_roles_and_reloads() {
    let mut dataset = democon();
    let event = &mut dataset["events"][0];
    event["locales"] = serde_json::json!(["en", "de"]);
    event["questions"][0]["question"] = serde_json::json!({
        "en": "What will attendees learn?",
        "de": "Was lernt das Publikum?"
    });
    let server = TestServer::start(&[dataset.clone()]).await;
    let expand = "answers,answers.question,tags,track,submission_type";
    // The first question's text as the first page of `query` shows it, and
    // the page's items each read as their detail.
    async fn question_text(client: &Client, query: &str, role: &str) -> Value {
        let page = client
            .get_v1(&format!("/api/events/democon/submissions/?{query}"))
            .await;
        assert_eq!(page.status, 200, "{role} {query}: {}", page.text);
        read_as_details(client, &page, "submissions", "code", query, role).await;
        let items = page.body["results"].as_array().expect("results");
        items
            .iter()
            .flat_map(|item| item["answers"].as_array().into_iter().flatten())
            .map(|answer| &answer["question"])
            .find(|question| question["id"] == 1)
            .map(|question| question["question"].clone())
            .unwrap_or(Value::Null)
    }
    let orga = server.token(democon_tokens::ORGA);
    for round in 0..2 {
        for (lang, expected) in [
            ("en", serde_json::json!("What will attendees learn?")),
            ("de", serde_json::json!("Was lernt das Publikum?")),
            (
                "",
                serde_json::json!({"en": "What will attendees learn?", "de": "Was lernt das Publikum?"}),
            ),
        ] {
            let query = format!("page_size=250&expand={expand}&lang={lang}");
            assert_eq!(
                question_text(&orga, &query, "organiser").await,
                expected,
                "round {round}, lang {lang:?}"
            );
        }
        for (role, token) in CALLERS {
            let query = format!("page_size=250&expand={expand}&lang=de");
            question_text(&client_of(&server, token), &query, role).await;
        }
    }
    // A new snapshot: the changed question, not the one rendered before.
    dataset["events"][0]["questions"][0]["question"]["de"] =
        serde_json::json!("Was nimmt das Publikum mit?");
    server.import(&dataset).await;
    let query = format!("page_size=250&expand={expand}&lang=de");
    assert_eq!(
        question_text(&orga, &query, "organiser").await,
        serde_json::json!("Was nimmt das Publikum mit?")
    );
}
