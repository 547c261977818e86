//! Reading the upstream API, for both readers (`legacy` and `v1`): its
//! paginated lists ([`Fetched`], `fetch_pages`), the event itself
//! (`fetch_event`), and the accessors of one element ([`Item`]) that name
//! the URL and JSON path of whatever is missing or malformed. Also the users
//! the readers see upstream ([`SeenUser`]), which the access file merges.

use std::collections::HashSet;

use serde_json::Value;

use super::client::Client;
use super::error::SyncError;

/// The largest page confapi and pretalx hand out; fewer round trips.
const PAGE: &str = "limit=1000";

/// One element of a fetched list, with where it came from for messages.
pub struct Item<'a> {
    pub(crate) value: &'a Value,
    pub(crate) url: &'a str,
    pub(crate) path: String,
}

impl<'a> Item<'a> {
    pub(crate) fn get(&self, key: &str) -> Result<&'a Value, SyncError> {
        self.value
            .get(key)
            .ok_or_else(|| SyncError::at_path(self.url, &format!("{}.{key}", self.path), "missing"))
    }

    pub(crate) fn wrong(&self, key: &str, expected: &str) -> SyncError {
        SyncError::at_path(
            self.url,
            &format!("{}.{key}", self.path),
            &format!("expected {expected}"),
        )
    }

    pub(crate) fn str(&self, key: &str) -> Result<&'a str, SyncError> {
        self.get(key)?
            .as_str()
            .ok_or_else(|| self.wrong(key, "a string"))
    }

    pub(crate) fn opt_str(&self, key: &str) -> Result<Option<&'a str>, SyncError> {
        match self.get(key)? {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s)),
            _ => Err(self.wrong(key, "a string or null")),
        }
    }

    /// A text pretalx shows as `null` when empty (2024.x: `notes`,
    /// `internal_notes`, `abstract`, `description`, `biography`, review
    /// `text`, a resource's `description`): the dataset's empty text. Left
    /// out, it is still an error (`notes` missing: not an organiser's view).
    pub(crate) fn text(&self, key: &str) -> Result<String, SyncError> {
        match self.get(key)? {
            Value::Null => Ok(String::new()),
            Value::String(s) => Ok(s.clone()),
            _ => Err(self.wrong(key, "a string or null")),
        }
    }

    /// A URL that pretalx shows as `""` (its speakers endpoint's `avatar`)
    /// or `null` when there is none.
    pub(crate) fn opt_url(&self, key: &str) -> Result<Option<String>, SyncError> {
        match self.get(key)? {
            Value::Null => Ok(None),
            Value::String(s) if s.is_empty() => Ok(None),
            Value::String(s) => Ok(Some(s.clone())),
            _ => Err(self.wrong(key, "a URL, \"\" or null")),
        }
    }

    pub(crate) fn i64(&self, key: &str) -> Result<i64, SyncError> {
        self.get(key)?
            .as_i64()
            .ok_or_else(|| self.wrong(key, "an integer"))
    }

    pub(crate) fn opt_i64(&self, key: &str) -> Result<Option<i64>, SyncError> {
        match self.get(key)? {
            Value::Null => Ok(None),
            v => v
                .as_i64()
                .map(Some)
                .ok_or_else(|| self.wrong(key, "an integer or null")),
        }
    }

    pub(crate) fn list(&self, key: &str) -> Result<Vec<Item<'a>>, SyncError> {
        let list = self
            .get(key)?
            .as_array()
            .ok_or_else(|| self.wrong(key, "a list"))?;
        Ok(list
            .iter()
            .enumerate()
            .map(|(i, value)| Item {
                value,
                url: self.url,
                path: format!("{}.{key}[{i}]", self.path),
            })
            .collect())
    }

    pub(crate) fn object(&self, key: &str) -> Result<Item<'a>, SyncError> {
        let value = self.get(key)?;
        if !value.is_object() {
            return Err(self.wrong(key, "an object"));
        }
        Ok(Item {
            value,
            url: self.url,
            path: format!("{}.{key}", self.path),
        })
    }

    /// The value as it is, for fields whose form the dataset shares (i18n,
    /// booleans, nullable numbers); validation checks them afterwards.
    pub(crate) fn raw(&self, key: &str) -> Result<Value, SyncError> {
        self.get(key).cloned()
    }

    /// Ids of a field the upstream may leave out (pretalx 2024's questions
    /// have no `tracks` and `submission_types`): none, the dataset's default.
    pub(crate) fn ids_or_none(&self, key: &str) -> Result<Vec<i64>, SyncError> {
        match self.value.get(key) {
            None => Ok(Vec::new()),
            Some(_) => self.ids(key),
        }
    }

    /// A boolean the upstream may leave out (pretalx 2024's tags have no
    /// `is_public`): `default`, the dataset's.
    pub(crate) fn bool_or(&self, key: &str, default: bool) -> Result<bool, SyncError> {
        match self.value.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.wrong(key, "a boolean")),
        }
    }

    pub(crate) fn ids(&self, key: &str) -> Result<Vec<i64>, SyncError> {
        self.list(key)?
            .iter()
            .map(|item| {
                item.value
                    .as_i64()
                    .ok_or_else(|| SyncError::at_path(self.url, &item.path, "expected an integer"))
            })
            .collect()
    }

    /// The event read at a URL, as an item at `$`.
    pub(crate) fn event((url, value): &'a (String, Value)) -> Self {
        Item {
            value,
            url,
            path: "$".into(),
        }
    }

    pub(crate) fn bool(&self, key: &str) -> Result<bool, SyncError> {
        self.get(key)?
            .as_bool()
            .ok_or_else(|| self.wrong(key, "a boolean"))
    }

    pub fn slug(&self) -> Result<String, SyncError> {
        self.str("slug").map(str::to_string)
    }

    /// A list of codes (strings), e.g. a submission's speakers.
    pub(crate) fn ids_or_codes(&self, key: &str) -> Result<Vec<String>, SyncError> {
        self.list(key)?
            .iter()
            .map(|item| {
                item.value.as_str().map(str::to_string).ok_or_else(|| {
                    SyncError::at_path(self.url, &item.path, "expected a code (a string)")
                })
            })
            .collect()
    }
}

/// Every element of a paginated list, following `next` links.
pub struct Fetched {
    pub pages: Vec<(String, Vec<Value>)>,
}

impl Fetched {
    pub fn items(&self) -> impl Iterator<Item = Item<'_>> {
        self.pages.iter().flat_map(|(url, results)| {
            results.iter().enumerate().map(move |(i, value)| Item {
                value,
                url,
                path: format!("results[{i}]"),
            })
        })
    }
}

pub async fn fetch_list(
    client: &Client,
    path: &str,
    anonymous: bool,
    requests: &(dyn Fn() + Sync),
) -> Result<Fetched, SyncError> {
    fetch_pages(client, path, PAGE, anonymous, requests).await
}

/// What an upstream says it is at `GET /api/` (pretalx 2026.1 and later,
/// and confapi): `{"name", "version", "api_version", "urls"}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Release {
    pub name: String,
    pub version: String,
    pub api_version: Option<String>,
}

impl Release {
    /// The reader and the `Pretalx-Version` a pretalx release is read
    /// through: 2026.x the versioned API in the version it names as its
    /// own (`v2` from 2026.2 on, `v1` in 2026.1; a version newer than
    /// confapi knows: `v2`), 2025.x `v1`, 2024.x and older the legacy API
    /// (no header). `None` for anything that is not pretalx, or a release
    /// that cannot be read: the caller asks the old way.
    pub fn dialect(&self) -> Option<(super::Api, &'static str)> {
        if !self.name.eq_ignore_ascii_case("pretalx") {
            return None;
        }
        let mut parts = self.version.split('.');
        let year: u32 = parts.next()?.parse().ok()?;
        let minor: u32 = parts
            .next()
            .map(|m| {
                m.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            })
            .and_then(|m| m.parse().ok())
            .unwrap_or(0);
        Some(match year {
            0..=2024 => (super::Api::Legacy, ""),
            2025 => (super::Api::V1, "v1"),
            _ => match self.api_version.as_deref() {
                Some("v1") => (super::Api::V1, "v1"),
                Some(_) => (super::Api::V2, "v2"),
                None if (year, minor) >= (2026, 2) => (super::Api::V2, "v2"),
                None => (super::Api::V1, "v1"),
            },
        })
    }
}

/// `GET /api/`, anonymously, without `Pretalx-Version` (a token is
/// pinned to the first version it is used with) and without retries.
/// `None` where it is not the JSON pretalx 2026 answers: pretalx 2025.2.2
/// and older answer an HTML 404 there (a 500 where that page cannot be
/// rendered, as in the 2025.2.2 fixture).
pub async fn fetch_release(
    client: &Client,
    requests: &(dyn Fn() + Sync),
) -> Result<Option<Release>, SyncError> {
    let answer = client.probe_json(&client.url("/api/"), true).await?;
    requests();
    let text =
        |value: &Value, key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
    Ok(answer.and_then(|root| {
        Some(Release {
            name: text(&root, "name")?,
            version: text(&root, "version")?,
            api_version: text(&root, "api_version"),
        })
    }))
}

/// Every page of a list, asking for `page` (`limit=N` or `page_size=N`;
/// empty: the upstream's default), then following the `next` links the
/// upstream gives, whatever paging they use.
/// A plain JSON list (pretalx 2025's event list) is one page.
pub(crate) async fn fetch_pages(
    client: &Client,
    path: &str,
    page: &str,
    anonymous: bool,
    requests: &(dyn Fn() + Sync),
) -> Result<Fetched, SyncError> {
    let mut url = if page.is_empty() {
        client.url(path)
    } else {
        let separator = if path.contains('?') { '&' } else { '?' };
        client.url(&format!("{path}{separator}{page}"))
    };
    let mut pages = Vec::new();
    let mut seen = HashSet::new();
    let mut read = 0u64;
    let mut counted = Counted::default();
    let mut keys = Keys::default();
    loop {
        if !seen.insert(url.clone()) {
            return Err(SyncError::at_path(
                &url,
                "next",
                "the pages loop back to an earlier page",
            ));
        }
        let page = client.get_json(&url, anonymous).await?;
        requests();
        let mut page = match page {
            Value::Array(results) => {
                pages.push((url, results));
                return Ok(Fetched { pages });
            }
            Value::Object(page) => page,
            _ => return Err(SyncError::at_path(&url, "results", "expected a list")),
        };
        // Taken, not copied: a page of 250 submissions is megabytes.
        let results = match page.remove("results") {
            Some(Value::Array(results)) => results,
            _ => return Err(SyncError::at_path(&url, "results", "expected a list")),
        };
        let next = match page.get("next") {
            Some(Value::String(next)) => Some(client.url(next)),
            Some(Value::Null) => None,
            _ => return Err(SyncError::at_path(&url, "next", "expected a URL or null")),
        };
        if results.is_empty() && next.is_some() {
            return Err(SyncError::at_path(
                &url,
                "next",
                "an empty page links to another: the pages would never end",
            ));
        }
        for (i, item) in results.iter().enumerate() {
            keys.check(&url, i, item)?;
        }
        read += results.len() as u64;
        counted.check(&url, page.get("count"), read, next.is_none())?;
        pages.push((url, results));
        match next {
            Some(next) => url = next,
            None => return Ok(Fetched { pages }),
        }
    }
}

/// The keys (`code`, else `id`) a list's items have had so far: an item
/// listed twice (pages that shift while they are read, an upstream that
/// repeats itself) fails the round at the URL where it comes again.
#[derive(Default)]
struct Keys {
    seen: HashSet<String>,
}

impl Keys {
    fn check(&mut self, url: &str, index: usize, item: &Value) -> Result<(), SyncError> {
        let Some((name, key)) = ["code", "id"]
            .into_iter()
            .find_map(|name| item.get(name).map(|key| (name, key)))
        else {
            return Ok(());
        };
        if !self.seen.insert(key.to_string()) {
            return Err(SyncError::at_path(
                url,
                &format!("results[{index}].{name}"),
                &format!("{key} is listed twice"),
            ));
        }
        Ok(())
    }
}

/// What a list's pages say it holds (`count`, where they say it): the same
/// on every page, and what they hold in the end. A list that changed while
/// it was read (or an upstream that miscounts, or a `next` chain that goes
/// on past the count) fails the round rather than be mirrored half old,
/// half new; the next round reads it again.
#[derive(Default)]
struct Counted {
    first: Option<u64>,
}

impl Counted {
    fn check(
        &mut self,
        url: &str,
        count: Option<&Value>,
        read: u64,
        last: bool,
    ) -> Result<(), SyncError> {
        let count = match count {
            None | Some(Value::Null) => return Ok(()),
            Some(count) => count.as_u64().ok_or_else(|| {
                SyncError::at_path(url, "count", "expected a non-negative integer")
            })?,
        };
        let first = *self.first.get_or_insert(count);
        if count != first {
            return Err(SyncError::at_path(
                url,
                "count",
                &format!(
                    "{count}, where the list's first page said {first}: the list changed while it was read"
                ),
            ));
        }
        if read > count || (last && read != count) {
            return Err(SyncError::at_path(
                url,
                "count",
                &format!(
                    "{count}, but the pages hold {}{read} items",
                    if last { "" } else { "at least " }
                ),
            ));
        }
        Ok(())
    }
}

/// The event itself, at `base` (`/api/events/{slug}`): the URL read and
/// the answer.
pub(crate) async fn fetch_event(
    client: &Client,
    base: &str,
    requests: &(dyn Fn() + Sync),
) -> Result<(String, Value), SyncError> {
    let event_url = client.url(&format!("{base}/"));
    let event = client.get_json(&event_url, false).await?;
    requests();
    Ok((event_url, event))
}

/// The `code` of every element of a list (submissions, talks).
pub(crate) fn codes(list: &Fetched) -> Result<HashSet<String>, SyncError> {
    list.items()
        .map(|item| item.str("code").map(str::to_string))
        .collect()
}

/// A user as the upstream shows it (speakers only): code, name, e-mail,
/// avatar, and where organisers are shown them, time zone and locale.
#[derive(Default)]
pub struct SeenUser {
    pub name: String,
    pub email: Option<String>,
    pub avatar: Option<String>,
    /// pretalx's user id, where the schedule exports show it.
    pub id: Option<i64>,
    /// An IANA time zone name (pretalx's versioned API shows organisers
    /// each speaker's).
    pub timezone: Option<String>,
    pub locale: Option<String>,
}
