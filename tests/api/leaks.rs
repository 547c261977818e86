//! A sweep for leaks through every path at once.
//!
//! Every text of a dataset that some caller may not see (titles,
//! abstracts, notes, names, e-mail addresses, answers, reviews, tags,
//! questions, team names, secrets, the unreleased schedule's comment)
//! carries a marker of its own (`zq17qz`). For each caller, what the legacy
//! lists show them on a server without caches (the contract that the
//! conformance oracle checks case by case) is what they may know, with
//! what v1 and the exports show by contract beyond it (organisers' secrets,
//! public tags, reviewers' assignments, talks withdrawn after the release).
//! Every other path (the v1 lists and details with every expansion path
//! to depth 3, the legacy details, the schedule exports, the calendars, the
//! change feed) may show them no other marker, and no submission or user
//! code they could not know. Organisers are swept first, with the response
//! cache on, so that a cached answer reaching another caller would show
//! here too.
//!
//! Searches and filters must find nothing by a text or code the caller
//! may not know, a detail of an object they may not see must be refused
//! exactly as one of no object is, and a re-import that changes only texts the caller may
//! not read must tell them nothing in the change feed.
//!
//! The paths and expansions swept, the dataset paths whose texts are
//! marked, and where each list's keys are, are a data file:
//! `tests/data/leak_sweep.json`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::helpers::*;
use confapi::dataset::demo;

/// Where each marker was put (its JSON path in the dataset).
struct Marked {
    dataset: Value,
    paths: Vec<String>,
}

/// The dataset's paths whose texts are marked (`marked` in
/// `tests/data/leak_sweep.json`): a `*` stands for every item of a list or
/// every language of a translated text.
fn marked_paths() -> Vec<&'static str> {
    paths_to_sweep()["marked"]
        .as_array()
        .expect("a list of paths")
        .iter()
        .map(|p| p.as_str().expect("a path"))
        .collect()
}

fn marker(n: usize) -> String {
    format!("zq{n}qz")
}

/// The dataset with a marker in every text of `marked_paths()` that is not empty.
fn mark(dataset: Value) -> Marked {
    let mut marked = Marked {
        dataset,
        paths: Vec::new(),
    };
    for pattern in marked_paths() {
        let steps: Vec<&str> = pattern.split('.').collect();
        let mut value = std::mem::take(&mut marked.dataset);
        mark_at(&mut value, &steps, String::new(), &mut marked.paths);
        marked.dataset = value;
    }
    marked
}

fn mark_at(value: &mut Value, steps: &[&str], path: String, paths: &mut Vec<String>) {
    let Some((step, rest)) = steps.split_first() else {
        if let Value::String(text) = value {
            if text.is_empty() {
                return;
            }
            let tag = marker(paths.len());
            paths.push(path);
            *text = match text.split_once('@') {
                // Still an e-mail address.
                Some((local, domain)) => format!("{local}.{tag}@{domain}"),
                // Secrets have no whitespace.
                None => format!("{text}-{tag}"),
            };
        }
        return;
    };
    match (value, *step) {
        (Value::Array(items), "*") => {
            for (i, item) in items.iter_mut().enumerate() {
                mark_at(item, rest, format!("{path}[{i}]"), paths);
            }
        }
        (Value::Object(map), "*") => {
            for (key, item) in map.iter_mut() {
                mark_at(item, rest, format!("{path}.{key}"), paths);
            }
        }
        (Value::Object(map), key) => {
            if let Some(item) = map.get_mut(key) {
                mark_at(item, rest, format!("{path}.{key}"), paths);
            }
        }
        _ => {}
    }
}

/// Every marker in a text.
fn markers_in(text: &str, found: &mut BTreeSet<usize>) {
    let mut rest = text;
    while let Some(at) = rest.find("zq") {
        rest = &rest[at + 2..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest[digits..].starts_with("qz") {
            found.insert(rest[..digits].parse().expect("digits"));
        }
    }
}

/// Every known code (submission or user) in a text, as a word of its own.
fn codes_in(text: &str, codes: &BTreeSet<String>, found: &mut BTreeSet<String>) {
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        if codes.contains(word) {
            found.insert(word.to_string());
        }
    }
}

/// What one caller was shown: markers and codes, each with a URL that showed it.
#[derive(Default)]
struct Seen {
    markers: BTreeMap<usize, String>,
    codes: BTreeMap<String, String>,
    requests: usize,
    /// Of them answered 200.
    answered: usize,
    /// Details of objects the caller may not see that answered otherwise
    /// than a detail of no object: they tell that the object exists.
    existence: Vec<String>,
}

struct Caller<'a> {
    name: &'a str,
    client: Client,
    codes: &'a BTreeSet<String>,
}

impl Caller<'_> {
    /// GETs `path` in `dialect` and notes what it shows; the reply's JSON.
    async fn visit(&self, seen: &mut Seen, path: &str, dialect: &str) -> Reply {
        let reply = self
            .client
            .request("GET", path, &[("Pretalx-Version", dialect)])
            .await;
        assert!(
            [200, 400, 401, 403, 404].contains(&reply.status),
            "{}: GET {path} ({dialect}): {} {}",
            self.name,
            reply.status,
            reply.text
        );
        seen.requests += 1;
        seen.answered += usize::from(reply.status == 200);
        let mut markers = BTreeSet::new();
        markers_in(&reply.text, &mut markers);
        for n in markers {
            seen.markers.entry(n).or_insert_with(|| path.to_string());
        }
        let mut codes = BTreeSet::new();
        codes_in(&reply.text, self.codes, &mut codes);
        for code in codes {
            seen.codes.entry(code).or_insert_with(|| path.to_string());
        }
        reply
    }

    /// How many results a list page of `path` holds (none for an error).
    async fn hits(&self, path: &str, dialect: &str) -> usize {
        let reply = self
            .client
            .request("GET", path, &[("Pretalx-Version", dialect)])
            .await;
        reply.body["results"].as_array().map_or(0, Vec::len)
    }

    /// Every page of a list (each visited); its items.
    async fn list(&self, seen: &mut Seen, path: &str, dialect: &str) -> Vec<Value> {
        let mut items = Vec::new();
        let mut next = Some(path.to_string());
        while let Some(path) = next.take() {
            let reply = self.visit(seen, &path, dialect).await;
            if reply.status != 200 {
                break;
            }
            items.extend(
                reply.body["results"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default(),
            );
            next = reply.body["next"].as_str().map(|url| {
                url.strip_prefix(&self.client.base)
                    .unwrap_or(url)
                    .to_string()
            });
        }
        items
    }
}

/// One list of the sweep: its path below the event (or organiser), the
/// query that expands everything pretalx documents, and the key its
/// details are found by.
struct Sweep {
    list: String,
    query: String,
    key: Option<String>,
}

/// `tests/data/leak_sweep.json`, read once.
fn paths_to_sweep() -> &'static Value {
    static FILE: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    FILE.get_or_init(|| load_json(&data("leak_sweep.json")))
}

fn sweeps(dialect: &str) -> Vec<Sweep> {
    let file = paths_to_sweep();
    file[dialect]
        .as_array()
        .expect("a list of sweeps")
        .iter()
        .map(|s| {
            let mut query = s["query"].as_str().unwrap_or("").to_string();
            if let Some(kind) = s["expand"].as_str() {
                let mut paths = Vec::new();
                expansions(&file["expand_graph"], kind, "", 3, &mut paths);
                query = format!("{query}&expand={}", paths.join(","));
            }
            Sweep {
                list: s["list"].as_str().expect("list").to_string(),
                query,
                key: s["key"].as_str().map(str::to_string),
            }
        })
        .collect()
}

/// Every `expand` path of up to `depth` names from an object of `kind`,
/// as `graph` (each kind's expandable fields, and the kind each leads to)
/// allows.
fn expansions(graph: &Value, kind: &str, prefix: &str, depth: usize, out: &mut Vec<String>) {
    if depth == 0 {
        return;
    }
    let fields = graph[kind]
        .as_object()
        .unwrap_or_else(|| panic!("no kind {kind}"));
    for (field, leads_to) in fields {
        let path = format!("{prefix}{field}");
        out.push(path.clone());
        if let Some(next) = leads_to.as_str() {
            expansions(graph, next, &format!("{path}."), depth - 1, out);
        }
    }
}

fn with_query(path: &str, query: &str) -> String {
    if query.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{query}")
    }
}

/// Searches (`q`) every list that takes one for each of `markers`, texts
/// the caller may not see: a search that finds something tells them the
/// text is there. At most `per_kind` markers of each kind of text.
async fn search_hidden(
    caller: &Caller<'_>,
    events: &[String],
    marked: &Marked,
    markers: impl Iterator<Item = usize>,
    per_kind: usize,
) -> (usize, Vec<String>) {
    let file = paths_to_sweep();
    let mut taken: BTreeMap<String, usize> = BTreeMap::new();
    let mut requests = 0;
    let mut found = Vec::new();
    for n in markers {
        // The kind: the path without its indexes.
        let kind: String = marked.paths[n]
            .split('[')
            .map(|part| part.split_once(']').map_or(part, |(_, rest)| rest))
            .collect();
        let count = taken.entry(kind).or_default();
        if *count == per_kind {
            continue;
        }
        *count += 1;
        for (dialect, version) in [("legacy", "LEGACY"), ("v1", "v1")] {
            for list in file["search"][dialect].as_array().expect("search lists") {
                for event in events {
                    let list = list.as_str().expect("a list");
                    let path = format!("/api/events/{event}/{list}?q={}", marker(n));
                    requests += 1;
                    let hits = caller.hits(&path, version).await;
                    if hits > 0 {
                        found.push(format!(
                            "{}: {} found by GET {path} ({dialect}): {hits} results",
                            caller.name, marked.paths[n]
                        ));
                    }
                }
            }
        }
    }
    (requests, found)
}

/// Tries every filter that takes a code with each of `codes`, codes the
/// caller may not know: a filter that finds something tells them whose
/// the results are (a speaker's anonymised proposal, say).
async fn filter_by_hidden(
    caller: &Caller<'_>,
    events: &[String],
    codes: &[&str],
) -> (usize, Vec<String>) {
    let file = paths_to_sweep();
    let mut requests = 0;
    let mut found = Vec::new();
    for (dialect, version) in [("legacy", "LEGACY"), ("v1", "v1")] {
        for filter in file["code_filters"][dialect].as_array().expect("filters") {
            for event in events {
                for code in codes {
                    let filter = filter.as_str().expect("a filter");
                    let path = format!("/api/events/{event}/{filter}{code}");
                    requests += 1;
                    let hits = caller.hits(&path, version).await;
                    if hits > 0 {
                        found.push(format!(
                            "{}: GET {path} ({dialect}) found {hits} results for a code they may not know",
                            caller.name
                        ));
                    }
                }
            }
        }
    }
    (requests, found)
}

/// What the caller's legacy lists show them: what they may know.
async fn allowed(caller: &Caller<'_>, events: &[String]) -> Seen {
    let mut seen = Seen::default();
    caller
        .list(&mut seen, "/api/events/?page_size=1000", "LEGACY")
        .await;
    for event in events {
        caller
            .visit(&mut seen, &format!("/api/events/{event}/"), "LEGACY")
            .await;
        for sweep in sweeps("legacy") {
            let path = format!("/api/events/{event}/{}", sweep.list);
            caller
                .list(&mut seen, &with_query(&path, &sweep.query), "LEGACY")
                .await;
        }
    }
    seen
}

/// Every other path: v1 lists and details with every expansion, legacy
/// details, filters by every question and review id, the change feed.
async fn sweep(caller: &Caller<'_>, events: &[Ids], organiser: &str) -> Seen {
    let mut seen = Seen::default();
    let file = paths_to_sweep();
    for (dialect, version) in [("legacy", "LEGACY"), ("v1", "v1")] {
        for event in events {
            for (kind, ids) in [("question", &event.questions), ("review", &event.reviews)] {
                for filter in file["id_filters"][dialect][kind]
                    .as_array()
                    .expect("filters")
                {
                    for id in ids {
                        let filter = filter.as_str().expect("a filter");
                        let path = format!("/api/events/{}/{filter}{id}", event.slug);
                        caller.visit(&mut seen, &path, version).await;
                    }
                }
            }
        }
    }
    let event_ids = events;
    let events: Vec<String> = events.iter().map(|e| e.slug.clone()).collect();
    let events = &events[..];
    caller.list(&mut seen, "/api/events/", "v1").await;
    for dialect in ["v1", "legacy"] {
        let version = if dialect == "v1" { "v1" } else { "LEGACY" };
        for event in events {
            caller
                .visit(&mut seen, &format!("/api/events/{event}/"), version)
                .await;
            for sweep in sweeps(dialect) {
                let base = match sweep.list.strip_prefix("organiser:") {
                    Some(list) => format!("/api/organisers/{organiser}/{list}"),
                    None => format!("/api/events/{event}/{}", sweep.list),
                };
                let items = caller
                    .list(&mut seen, &with_query(&base, &sweep.query), version)
                    .await;
                let Some(key) = &sweep.key else { continue };
                let mut details: Vec<String> = items
                    .iter()
                    .filter_map(|item| match &item[key.as_str()] {
                        Value::String(s) => Some(s.clone()),
                        Value::Number(n) => Some(n.to_string()),
                        _ => None,
                    })
                    .collect();
                if sweep.list == "schedules/" {
                    details.extend(["latest".to_string(), "wip".to_string()]);
                }
                let detail = |id: &str| {
                    let path = format!("{base}{}/", id.replace(' ', "%20"));
                    with_query(&path, &sweep.query)
                };
                // Every detail of a short list; of a long one (answers,
                // reviews) 60 spread over it: a detail is its list item
                // rendered alone, and the lists were read whole.
                let step = details.len().div_ceil(60).max(1);
                for id in details.iter().step_by(step) {
                    caller.visit(&mut seen, &detail(id), version).await;
                }
                // Objects the caller's list does not show: a detail that
                // is refused must be refused as one of no object is.
                let every = event_ids
                    .iter()
                    .find(|e| e.slug == *event)
                    .and_then(|e| e.every.get(&(dialect.to_string(), sweep.list.clone())));
                let hidden: Vec<&String> = every
                    .into_iter()
                    .flatten()
                    .filter(|id| !details.contains(id))
                    .take(5)
                    .collect();
                if hidden.is_empty() {
                    continue;
                }
                let bogus = if key == "id" {
                    "999999999"
                } else {
                    "NO-SUCH-KEY"
                };
                let none = caller
                    .client
                    .request("GET", &detail(bogus), &[("Pretalx-Version", version)])
                    .await;
                for id in hidden {
                    let path = detail(id);
                    let reply = caller.visit(&mut seen, &path, version).await;
                    if reply.status != 200
                        && (reply.status, &reply.body) != (none.status, &none.body)
                    {
                        seen.existence.push(format!(
                            "{}: GET {path} ({dialect}) answered {} {}, and for no object {} {}",
                            caller.name, reply.status, reply.text, none.status, none.text
                        ));
                    }
                }
            }
        }
    }
    for event in events {
        caller
            .visit(
                &mut seen,
                &format!("/api/events/{event}/changes/?since=0"),
                "LEGACY",
            )
            .await;
    }
    seen
}

/// The schedule exports and calendars of every talk and speaker, known or not.
async fn sweep_exports(caller: &Caller<'_>, events: &[String]) -> Seen {
    let mut seen = Seen::default();
    let exports = &paths_to_sweep()["exports"];
    for event in events {
        for export in exports.as_array().expect("exports") {
            let path = format!("/{event}/{}", export.as_str().expect("a path"));
            caller.visit(&mut seen, &path, "LEGACY").await;
        }
        for code in caller.codes {
            for path in [
                format!("/{event}/talk/{code}.ics"),
                format!("/{event}/speaker/{code}/talks.ics"),
            ] {
                caller.visit(&mut seen, &path, "LEGACY").await;
            }
        }
    }
    seen
}

/// An event's slug and the ids its filters take.
struct Ids {
    slug: String,
    questions: Vec<i64>,
    reviews: Vec<i64>,
    /// Per dialect and list, the keys of every object of the event.
    every: BTreeMap<(String, String), Vec<String>>,
}

/// Where each list's keys are in an event of the (marked) dataset (`keys`
/// in `tests/data/leak_sweep.json`: dialect, list, the list of objects, and
/// the key's field; `options.id`: the options of each question).
fn list_keys() -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    paths_to_sweep()["keys"]
        .as_array()
        .expect("a list of keys")
        .iter()
        .map(|k| {
            let part = |i: usize| k[i].as_str().expect("four strings");
            (part(0), part(1), part(2), part(3))
        })
        .collect()
}

/// Every key of each list of `list_keys()` in one event of the marked dataset.
fn every_key(event: &Value) -> BTreeMap<(String, String), Vec<String>> {
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    list_keys()
        .iter()
        .map(|(dialect, list, objects, field)| {
            let items = event[*objects].as_array().cloned().unwrap_or_default();
            let keys = match field.split_once('.') {
                Some((inner, field)) => items
                    .iter()
                    .flat_map(|item| item[inner].as_array().cloned().unwrap_or_default())
                    .filter_map(|item| text(&item[field]))
                    .collect(),
                None => items
                    .iter()
                    .filter_map(|item| text(&item[*field]))
                    .collect(),
            };
            ((dialect.to_string(), list.to_string()), keys)
        })
        .collect()
}

/// One caller of a sweep: a name for the report, a clear token, their user.
struct Who {
    name: String,
    token: Option<String>,
    user: Option<String>,
}

#[tokio::test]
async fn no_caller_of_the_demo_learns_a_marked_text_or_a_code_through_any_path() {
    let (dataset, logins) = demo::generate(&demo::DemoOptions {
        events: 3,
        submissions: 24,
        seed: 11,
    });
    let callers = std::iter::once(("anonymous", None))
        .chain(logins.iter().map(|l| (l.role, Some(&l.token))))
        .map(|(name, token)| Who {
            name: name.to_string(),
            user: token.and_then(|t| user_of_token(&dataset, t)),
            token: token.cloned(),
        })
        .collect();
    let seen = sweep_for_leaks(dataset, callers).await;
    // What only organisers see was reached, or the sweep proves nothing.
    let organiser = &seen["organiser"];
    let secrets = organiser
        .iter()
        .filter(|p| p.ends_with("internal_notes") || p.ends_with("invitation_token"))
        .count();
    assert!(secrets > 20, "the organiser's sweep saw {secrets} secrets");
    assert!(
        seen["reviewer"].len() > seen["anonymous"].len(),
        "the reviewer saw no more than the public"
    );
}

#[tokio::test]
async fn no_caller_of_the_edge_cases_learns_a_marked_text_or_a_code_through_any_path() {
    sweep_file(edge()).await;
}

#[tokio::test]
async fn no_caller_of_democon_learns_a_marked_text_or_a_code_through_any_path() {
    sweep_file(democon()).await;
}

/// `sweep_for_leaks` of a dataset file, for anonymous callers and every
/// user with a clear token in it.
async fn sweep_file(document: Value) {
    let dataset = confapi::dataset::validate::parse_value(&document).expect("the file is valid");
    let users = document["users"].as_array().expect("users");
    let callers = std::iter::once(Who {
        name: "anonymous".into(),
        token: None,
        user: None,
    })
    .chain(users.iter().filter_map(|u| {
        Some(Who {
            name: u["email"].as_str()?.to_string(),
            token: Some(u["tokens"][0].as_str()?.to_string()),
            user: Some(u["code"].as_str()?.to_string()),
        })
    }))
    .collect::<Vec<_>>();
    assert!(callers.len() >= 5, "{} callers", callers.len());
    sweep_for_leaks(dataset, callers).await;
}

fn user_of_token(dataset: &confapi::model::Dataset, token: &str) -> Option<String> {
    let hash = confapi::model::hash_token(token);
    dataset
        .users
        .iter()
        .find(|u| u.token_hashes.iter().any(|h| h.hash == hash))
        .map(|u| u.code.to_string())
}

/// Sweeps every path for each caller and fails with every leak found;
/// per caller, the dataset paths of the markers they were shown.
async fn sweep_for_leaks(
    dataset: confapi::model::Dataset,
    callers: Vec<Who>,
) -> BTreeMap<String, Vec<String>> {
    let document = confapi::dataset::export::Document::new(&dataset);
    let marked = mark(serde_json::to_value(&document).expect("the dataset serialises"));
    let server = TestServer::start(std::slice::from_ref(&marked.dataset)).await;
    // What each caller may know comes from a server without caches, so
    // that a cache that mixed callers up could not widen it.
    let reference = TestServer::start_with(
        std::slice::from_ref(&marked.dataset),
        confapi::http::Config {
            response_cache_bytes: 0,
            list_cache_bytes: 0,
            ..Default::default()
        },
    )
    .await;
    let events: Vec<String> = dataset.events.iter().map(|e| e.slug.to_string()).collect();
    let ids: Vec<Ids> = dataset
        .events
        .iter()
        .map(|e| Ids {
            slug: e.slug.to_string(),
            questions: e.questions.iter().map(|q| q.id).collect(),
            reviews: e.reviews.iter().map(|r| r.id).collect(),
            every: every_key(
                marked.dataset["events"]
                    .as_array()
                    .and_then(|all| all.iter().find(|m| m["slug"] == e.slug.as_str()))
                    .expect("the event in the marked dataset"),
            ),
        })
        .collect();
    let mut organisers: BTreeSet<String> = dataset
        .events
        .iter()
        .filter_map(|e| e.organiser.as_ref().map(|o| o.to_string()))
        .collect();
    if organisers.is_empty() {
        // Events without an organiser: the teams path answers 404.
        organisers.insert("no-organiser".into());
    }
    let mut codes: BTreeSet<String> = dataset.users.iter().map(|u| u.code.to_string()).collect();
    for event in &dataset.events {
        codes.extend(event.submissions.iter().map(|s| s.code.to_string()));
    }
    // Which user a name marker belongs to, to allow the code of a user
    // whose name the caller may know.
    let user_of_name: BTreeMap<usize, String> = marked
        .paths
        .iter()
        .enumerate()
        .filter_map(|(n, path)| {
            let i: usize = path
                .strip_prefix(".users[")?
                .strip_suffix("].name")?
                .parse()
                .ok()?;
            Some((n, dataset.users[i].code.to_string()))
        })
        .collect();
    let on_public_schedule = exported_talks(&dataset, &marked);
    // v1 shows everyone the public tags of what they see (pretalx-v1.md
    // section 13, item 2); the legacy lists show the public no tags.
    let public_tags: BTreeSet<usize> = marked
        .paths
        .iter()
        .enumerate()
        .filter(|(_, path)| {
            dataset.events.iter().enumerate().any(|(e, event)| {
                event.tags.iter().enumerate().any(|(t, tag)| {
                    tag.is_public && path.starts_with(&format!(".events[{e}].tags[{t}]."))
                })
            })
        })
        .map(|(n, _)| n)
        .collect();
    let mut report = Vec::new();
    let mut shown = BTreeMap::new();
    let mut may_read: Vec<(&Who, BTreeSet<usize>)> = Vec::new();
    // Organisers first: their answers are in the response cache when the
    // others ask.
    let mut callers = callers;
    callers.sort_by_key(|who| roles(&dataset, who.user.as_deref()).0.is_empty());
    for who in &callers {
        let name = who.name.as_str();
        let client = |server: &TestServer| match &who.token {
            Some(token) => server.token(token),
            None => server.anon(),
        };
        let caller = Caller {
            name,
            client: client(&server),
            codes: &codes,
        };
        let uncached = Caller {
            name,
            client: client(&reference),
            codes: &codes,
        };
        let mut swept = Seen::default();
        for organiser in &organisers {
            let seen = sweep(&caller, &ids, organiser).await;
            swept.requests += seen.requests;
            swept.answered += seen.answered;
            swept.markers.extend(seen.markers);
            swept.codes.extend(seen.codes);
            report.extend(seen.existence);
        }
        let exported = sweep_exports(&caller, &events).await;
        let may = allowed(&uncached, &events).await;
        // A sweep of refusals would prove nothing.
        assert!(
            swept.answered >= 20 && may.markers.len() >= 10,
            "{name}: {} answers, {} markers allowed",
            swept.answered,
            may.markers.len()
        );
        let (organises, reviews) = roles(&dataset, who.user.as_deref());
        let mut beyond = organiser_fields(&dataset, &marked, &organises);
        beyond.markers.extend(&public_tags);
        let mut known_codes: BTreeSet<&str> = may.codes.keys().map(String::as_str).collect();
        known_codes.extend(
            may.markers
                .keys()
                .chain(&beyond.markers)
                .filter_map(|n| user_of_name.get(n))
                .map(String::as_str),
        );
        known_codes.extend(beyond.codes.iter().map(String::as_str));
        // v1 shows organisers and reviewers who else reviews what they may
        // see, as pretalx does (pretalx-v1.md sections 6 and 7; docs/api.md).
        let assigned = dataset
            .events
            .iter()
            .enumerate()
            .filter(|(e, _)| organises.contains(e) || reviews.contains(e))
            .flat_map(|(_, event)| &event.submissions)
            .filter(|s| may.codes.contains_key(s.code.as_str()))
            .flat_map(|s| s.assigned_reviewers.iter().map(String::as_str));
        known_codes.extend(assigned.collect::<Vec<_>>());
        let mut leak = |seen: &Seen, extra: &Allowance| {
            for (n, url) in &seen.markers {
                let allowed = may.markers.contains_key(n)
                    || beyond.markers.contains(n)
                    || extra.markers.contains(n);
                if !allowed {
                    report.push(format!("{name}: {} via {url}", marked.paths[*n]));
                }
            }
            for (code, url) in &seen.codes {
                if !known_codes.contains(code.as_str()) && !extra.codes.contains(code) {
                    report.push(format!("{name}: code {code} via {url}"));
                }
            }
        };
        leak(&swept, &Allowance::default());
        leak(&exported, &on_public_schedule);
        // Hidden texts of submissions the caller sees (anonymised titles,
        // notes) first: there a search that looked at the wrong text
        // would find something.
        let mut hidden: Vec<usize> = (0..marked.paths.len())
            .filter(|n| !may.markers.contains_key(n) && !beyond.markers.contains(n))
            .collect();
        hidden.sort_by_key(|&n| {
            let of_seen = submission_of(&dataset, &marked.paths[n])
                .is_some_and(|code| may.codes.contains_key(code));
            !of_seen
        });
        let hidden = hidden.into_iter();
        let (mut searches, found) = search_hidden(&caller, &events, &marked, hidden, 2).await;
        report.extend(found);
        // Codes they may not know, the hidden speakers of submissions they
        // see first (a blind reviewer's anonymised proposals), at most 8.
        let mut unknown: Vec<&str> = dataset
            .events
            .iter()
            .flat_map(|e| &e.submissions)
            .filter(|s| known_codes.contains(s.code.as_str()))
            .flat_map(|s| s.speakers.iter().map(|c| c.as_str()))
            .chain(codes.iter().map(String::as_str))
            .filter(|code| !known_codes.contains(code))
            .collect();
        let mut once = BTreeSet::new();
        unknown.retain(|code| once.insert(*code));
        unknown.truncate(8);
        let (filters, found) = filter_by_hidden(&caller, &events, &unknown).await;
        searches += filters;
        report.extend(found);
        eprintln!(
            "{name}: {} requests ({} and {} answered 200, {searches} searches), {} markers and {} codes seen, {} markers allowed",
            swept.requests + exported.requests + searches,
            swept.answered,
            exported.answered,
            swept.markers.len() + exported.markers.len(),
            swept.codes.len() + exported.codes.len(),
            may.markers.len()
        );
        shown.insert(
            who.name.clone(),
            swept
                .markers
                .keys()
                .chain(exported.markers.keys())
                .map(|n| marked.paths[*n].clone())
                .collect(),
        );
        let readable = may.markers.keys().chain(&beyond.markers).copied().collect();
        may_read.push((who, readable));
    }
    assert!(report.is_empty(), "leaks:\n{}", report.join("\n"));
    // Last, as it changes the data: the change feed.
    let witness = callers
        .iter()
        .max_by_key(|who| roles(&dataset, who.user.as_deref()).0.len())
        .expect("callers");
    let mut witnessed = 0;
    for (who, readable) in &may_read {
        if (0..marked.paths.len()).all(|n| readable.contains(&n)) {
            continue;
        }
        let (told, seen) =
            feed_after_hidden_changes(&server, &marked, &events, who, readable, witness).await;
        report.extend(told);
        witnessed += seen;
    }
    // The changes were real: the organiser's feed told of them.
    assert!(witnessed > 0, "no organiser saw the changes either");
    assert!(
        report.is_empty(),
        "leaks through the change feed:\n{}",
        report.join("\n")
    );
    shown
}

/// Re-imports the dataset with every text that `who` may not read changed
/// (and back): their change feed must tell them nothing. Also how many
/// changes the feed told `witness`, an organiser.
async fn feed_after_hidden_changes(
    server: &TestServer,
    marked: &Marked,
    events: &[String],
    who: &Who,
    readable: &BTreeSet<usize>,
    witness: &Who,
) -> (Vec<String>, u64) {
    let client = |who: &Who| match &who.token {
        Some(token) => server.token(token),
        None => server.anon(),
    };
    let generation = |body: &Value| body["generation"].as_u64().expect("a generation");
    let before = generation(
        &client(who)
            .ok(&format!("/api/events/{}/changes/", events[0]))
            .await,
    );
    let mut text = marked.dataset.to_string();
    for n in (0..marked.paths.len()).filter(|n| !readable.contains(n)) {
        let tag = marker(n);
        // The markers are whole words: zq5qz is not inside zq55qz.
        text = text.replace(&format!("{tag}\""), &format!("{tag}changed\""));
        text = text.replace(&format!("{tag}@"), &format!("{tag}changed@"));
    }
    let changed: Value = serde_json::from_str(&text).expect("still JSON");
    server.import(&changed).await;
    let mut told = Vec::new();
    let mut witnessed = 0;
    for event in events {
        let path = format!("/api/events/{event}/changes/?since={before}");
        let reply = client(who).get(&path).await;
        if reply.status == 200 && reply.count() > 0 {
            told.push(format!(
                "{}: GET {path} told of hidden changes: {}",
                who.name, reply.text
            ));
        }
        let organiser = client(witness).get(&path).await;
        witnessed += organiser.body["count"].as_u64().unwrap_or(0);
    }
    server.import(&marked.dataset).await;
    (told, witnessed)
}

/// The events (by index) a user organises and those they review in
/// (`behaviour.md` section 3).
fn roles(
    dataset: &confapi::model::Dataset,
    user: Option<&str>,
) -> (BTreeSet<usize>, BTreeSet<usize>) {
    let Some(code) = user else {
        return Default::default();
    };
    let admin = dataset
        .users
        .iter()
        .any(|u| u.code.as_str() == code && u.is_administrator);
    let member = |event: &confapi::model::Event, right: fn(&confapi::model::Team) -> bool| {
        event
            .teams
            .iter()
            .any(|t| right(t) && t.members.iter().any(|m| m == code))
    };
    let mut organises = BTreeSet::new();
    let mut reviews = BTreeSet::new();
    for (e, event) in dataset.events.iter().enumerate() {
        if admin || member(event, |t| t.can_change_submissions) {
            organises.insert(e);
        } else if member(event, |t| t.is_reviewer) {
            reviews.insert(e);
        }
    }
    (organises, reviews)
}

/// What v1 shows an organiser that the legacy lists do not: the
/// submissions' secrets and anonymised texts, speakers' internal notes, the unreleased
/// schedule's comment, reviewers' e-mail addresses, and the teams of the
/// events' organisers with their members (`/api/organisers/{organiser}/teams/`).
fn organiser_fields(
    dataset: &confapi::model::Dataset,
    marked: &Marked,
    organises: &BTreeSet<usize>,
) -> Allowance {
    let mut allowance = Allowance::default();
    let organisers: BTreeSet<_> = organises
        .iter()
        .filter_map(|&e| dataset.events[e].organiser.as_ref())
        .collect();
    let of_organiser = |e: usize| {
        organises.contains(&e)
            || dataset.events[e]
                .organiser
                .as_ref()
                .is_some_and(|o| organisers.contains(o))
    };
    // Team members, and the authors of reviews (`expand=user` shows an
    // organiser their e-mail addresses).
    let mut members = BTreeSet::new();
    for (e, event) in dataset.events.iter().enumerate() {
        if of_organiser(e) {
            members.extend(event.teams.iter().flat_map(|t| t.members.iter().cloned()));
        }
        if organises.contains(&e) {
            members.extend(event.reviews.iter().map(|r| r.user.to_string()));
        }
    }
    for (n, path) in marked.paths.iter().enumerate() {
        let event = path
            .strip_prefix(".events[")
            .and_then(|rest| rest.split_once(']'))
            .and_then(|(e, rest)| Some((e.parse::<usize>().ok()?, rest)));
        let allowed = match event {
            Some((e, rest)) if organises.contains(&e) => {
                rest.ends_with(".invitation_token")
                    || rest.ends_with(".review_code")
                    // `anonymised_data`
                    || rest.contains(".anonymised.")
                    || (rest.starts_with(".speakers[") && rest.ends_with(".internal_notes"))
                    || rest.starts_with(".wip_schedule.comment")
                    || (rest.starts_with(".teams[") && rest.ends_with(".name"))
            }
            Some((e, rest)) => of_organiser(e) && rest.starts_with(".teams["),
            None => {
                let user = path
                    .strip_prefix(".users[")
                    .and_then(|rest| rest.split_once(']'))
                    .and_then(|(u, _)| u.parse::<usize>().ok());
                user.is_some_and(|u| members.contains(dataset.users[u].code.as_str()))
            }
        };
        if allowed {
            allowance.markers.insert(n);
        }
    }
    allowance.codes = members;
    allowance
}

/// The code of the submission a marked path is a text of.
fn submission_of<'d>(dataset: &'d confapi::model::Dataset, path: &str) -> Option<&'d str> {
    let (e, rest) = path.strip_prefix(".events[")?.split_once(']')?;
    let (i, _) = rest.strip_prefix(".submissions[")?.split_once(']')?;
    let event = dataset.events.get(e.parse::<usize>().ok()?)?;
    Some(
        event
            .submissions
            .get(i.parse::<usize>().ok()?)?
            .code
            .as_str(),
    )
}

/// Markers and codes beyond what a caller's lists show.
#[derive(Default)]
struct Allowance {
    markers: BTreeSet<usize>,
    codes: BTreeSet<String>,
}

/// What the exports of a visible schedule show everyone: every talk with
/// a visible slot in the current release, whatever its state now (a talk
/// withdrawn after the release stays until the next one, as in pretalx:
/// `shared/spec/exports.md`, "What goes in"; the API's lists show only
/// confirmed ones), with its speakers' names and biographies.
fn exported_talks(dataset: &confapi::model::Dataset, marked: &Marked) -> Allowance {
    let marker_of: BTreeMap<&str, usize> = marked
        .paths
        .iter()
        .enumerate()
        .map(|(n, path)| (path.as_str(), n))
        .collect();
    let mut allowance = Allowance::default();
    let mut allow = |path: String| {
        if let Some(&n) = marker_of.get(path.as_str()) {
            allowance.markers.insert(n);
        }
    };
    let mut codes = BTreeSet::new();
    for (e, event) in dataset.events.iter().enumerate() {
        if !(event.is_public && event.show_schedule && event.schedule.is_some()) {
            continue;
        }
        for (i, sub) in event.submissions.iter().enumerate() {
            if !sub.slots.iter().any(|slot| slot.is_visible) {
                continue;
            }
            for field in ["title", "abstract", "description"] {
                allow(format!(".events[{e}].submissions[{i}].{field}"));
            }
            codes.insert(sub.code.to_string());
            for speaker in &sub.speakers {
                codes.insert(speaker.to_string());
                if let Some(u) = dataset.users.iter().position(|u| u.code == *speaker) {
                    allow(format!(".users[{u}].name"));
                }
                if let Some(p) = event.speakers.iter().position(|p| p.user == *speaker) {
                    allow(format!(".events[{e}].speakers[{p}].biography"));
                }
            }
        }
    }
    allowance.codes = codes;
    allowance
}
