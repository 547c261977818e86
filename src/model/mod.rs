//! The data confapi serves: one plain Rust value per record of the dataset
//! format (`shared/spec/dataset.md`), with every default applied and every
//! datetime parsed.
//!
//! The same types flow through the whole program: `dataset` parses a JSON
//! document into them and writes them back out, `storage` persists and loads
//! them, and `domain` builds an indexed, read-only snapshot of them that the
//! HTTP layer answers from. Lists keep dataset order; where the API needs
//! another order the domain sorts.

use chrono::NaiveDate;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

/// An immutable string behind one thin pointer, shared by reference count:
/// what hundreds of thousands of records repeat (user and submission codes,
/// answer and review texts) is kept once per event (`shared`), and a
/// patched reload copies pointers, not text.
pub use arcstr::ArcStr;

pub mod time;
pub use time::{timestamp, Timestamp};

/// A multi-lingual string: locale → text. Written (stored, exported,
/// served) and read back in one canonical form, each locale once (its last
/// text) in locale order, as the dataset's reader reads an object, so that
/// equal texts are equal records whoever made them (issue 75). The second
/// field is true for pretalx's `null` (a text never set, where pretalx's
/// column is nullable): it has no texts, the legacy API and the exports
/// show it as `{}` like any empty text, v1 as `null` as pretalx does, and
/// the dataset keeps it as `null` where a field may be null.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct I18n(pub Vec<(String, String)>, pub bool);

impl I18n {
    pub fn en(text: &str) -> Self {
        if text.is_empty() {
            I18n::default()
        } else {
            I18n(vec![("en".to_string(), text.to_string())], false)
        }
    }

    /// A text never set (`null`).
    pub fn null() -> Self {
        I18n(Vec::new(), true)
    }

    pub fn is_null(&self) -> bool {
        self.1
    }

    /// For the dataset's nullable texts: `null` when never set, else the
    /// object.
    pub fn serialize_nullable<S: Serializer>(
        value: &I18n,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        if value.is_null() {
            serializer.serialize_none()
        } else {
            value.serialize(serializer)
        }
    }

    pub fn texts(&self) -> impl Iterator<Item = &str> + Clone {
        self.0.iter().map(|(_, text)| text.as_str())
    }

    /// No translation at all (`{}`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl I18n {
    /// Whether the texts are in the canonical form: locales in order, each
    /// once.
    pub fn is_canonical(&self) -> bool {
        self.0.windows(2).all(|w| w[0].0 < w[1].0)
    }
}

/// `pairs` in the canonical form: by locale, the last text of a repeated
/// one kept.
fn canonical<T>(pairs: &mut Vec<T>, locale: impl Fn(&T) -> &str) {
    if pairs.windows(2).all(|w| locale(&w[0]) < locale(&w[1])) {
        return;
    }
    // Stable: equal locales keep their order, and the last one wins.
    pairs.sort_by(|a, b| locale(a).cmp(locale(b)));
    let mut kept: Vec<T> = Vec::with_capacity(pairs.len());
    for pair in pairs.drain(..) {
        match kept.last_mut() {
            Some(last) if locale(last) == locale(&pair) => *last = pair,
            _ => kept.push(pair),
        }
    }
    *pairs = kept;
}

impl Serialize for I18n {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_canonical() {
            let mut map = serializer.serialize_map(Some(self.0.len()))?;
            for (locale, text) in &self.0 {
                map.serialize_entry(locale, text)?;
            }
            return map.end();
        }
        let mut pairs: Vec<&(String, String)> = self.0.iter().collect();
        canonical(&mut pairs, |(locale, _)| locale.as_str());
        let mut map = serializer.serialize_map(Some(pairs.len()))?;
        for (locale, text) in pairs {
            map.serialize_entry(locale, text)?;
        }
        map.end()
    }
}

/// In the API: an object of locale to text, `{}` when empty.
impl utoipa::PartialSchema for I18n {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .additional_properties(Some(ObjectBuilder::new().schema_type(Type::String)))
            .description(Some("Translated text: locale to text, `{}` when empty"))
            .into()
    }
}

impl utoipa::ToSchema for I18n {}

/// Reads the object form into the canonical form (as `Serialize` writes it).
impl<'de> Deserialize<'de> for I18n {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct I18nVisitor;
        impl<'de> Visitor<'de> for I18nVisitor {
            type Value = I18n;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of locale to text, or null")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<I18n, A::Error> {
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(1));
                while let Some(pair) = map.next_entry::<String, String>()? {
                    pairs.push(pair);
                }
                canonical(&mut pairs, |(locale, _)| locale.as_str());
                Ok(I18n(pairs, false))
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<I18n, E> {
                Ok(I18n::null())
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<I18n, E> {
                Ok(I18n::null())
            }
        }
        deserializer.deserialize_any(I18nVisitor)
    }
}

/// A decimal number as text, kept as given (`"1.5"`, `"-2"`, `"0.25"`):
/// pretalx shows review scores, score weights and a question's number
/// limits as decimal strings. Validation checks the form
/// (`-?digits[.digits]`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Decimal(pub String);

impl Decimal {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The value as a float (for comparisons and averages); 0 if the text
    /// is not a number, which validation rules out.
    pub fn to_f64(&self) -> f64 {
        self.0.parse().unwrap_or(0.0)
    }
}

/// A closed set of names: a serde enum plus the table of its JSON names,
/// which validation lists in its messages and the HTTP layer accepts as
/// filter values. The names are written once, here.
macro_rules! closed_set {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [(&'static str, $name)] = &[$(($text, $name::$variant)),+];
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
            }
        }

        /// In the API: one of the JSON names.
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some(Self::NAMES.iter().copied()))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}
    };
}

/// A whole dataset: global users plus any number of events. Serialised, it
/// is the dataset document `export` writes (without its `format` and
/// `version` header); every field is written, defaults included.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Dataset {
    pub users: Vec<User>,
    pub events: Vec<Event>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct User {
    /// Shared with the key of the catalog's map of users.
    pub code: ArcStr,
    pub name: String,
    pub email: String,
    pub avatar: Option<String>,
    /// Locale and time zone: a few values among many users, each kept once
    /// (`User::share_strings`).
    pub locale: ArcStr,
    pub timezone: ArcStr,
    pub is_administrator: bool,
    /// The user's API tokens, as lower-case hex SHA-256 digests. Clear
    /// tokens are hashed on import and never stored; written as
    /// `sha256:HEX`, or `{"hash": "sha256:HEX", "api_version": "v1"}` for a
    /// token with an API version of its own.
    #[serde(with = "token_hashes")]
    pub token_hashes: Vec<TokenHash>,
    /// The user's primary key upstream (pretalx), for the schedule exports.
    pub id: Option<i64>,
}

/// The versions of pretalx's API that confapi speaks, as a token, the
/// server's default or a `Pretalx-Version` header names them
/// (pretalx-2026.md, "Versions"). They come in two dialects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
pub enum ApiVersion {
    /// pretalx 2024's API (`LEGACY`; deprecated by pretalx 2026.2).
    #[serde(rename = "legacy")]
    #[value(name = "legacy")]
    Legacy,
    /// pretalx 2025's versioned API (deprecated by pretalx 2026.2).
    #[serde(rename = "v1")]
    #[value(name = "v1")]
    V1,
    /// pretalx 2026.2's current version.
    #[serde(rename = "v2")]
    #[value(name = "v2")]
    V2,
    /// pretalx 2026's preview of the next version (2025's `DEV_PREVIEW`).
    #[serde(rename = "v-next")]
    #[value(name = "v-next")]
    VNext,
}

impl ApiVersion {
    /// Every version, newest first, as the header names them.
    pub const ALL: [ApiVersion; 4] = [
        ApiVersion::V2,
        ApiVersion::VNext,
        ApiVersion::V1,
        ApiVersion::Legacy,
    ];

    /// The value of the `Pretalx-Version` header (case-sensitive, as in pretalx).
    pub fn header_value(self) -> &'static str {
        match self {
            ApiVersion::Legacy => "LEGACY",
            ApiVersion::V1 => "v1",
            ApiVersion::V2 => "v2",
            ApiVersion::VNext => "v-next",
        }
    }

    /// The version a `Pretalx-Version` header names, if confapi speaks it.
    pub fn from_header(value: &[u8]) -> Option<ApiVersion> {
        Self::ALL
            .into_iter()
            .find(|v| v.header_value().as_bytes() == value)
    }

    /// The name a dataset's token uses (`legacy`, `v1`, `v2`, `v-next`).
    pub fn dataset_name(self) -> &'static str {
        match self {
            ApiVersion::Legacy => "legacy",
            other => other.header_value(),
        }
    }

    /// The version a dataset's token names.
    pub fn from_dataset_name(name: &str) -> Option<ApiVersion> {
        Self::ALL.into_iter().find(|v| v.dataset_name() == name)
    }

    /// The shapes this version answers in. pretalx's v2 and v-next differ
    /// from v1 only in access codes, which confapi does not serve.
    pub fn dialect(self) -> Dialect {
        match self {
            ApiVersion::Legacy => Dialect::Legacy,
            ApiVersion::V1 | ApiVersion::V2 | ApiVersion::VNext => Dialect::Versioned,
        }
    }
}

/// The two shapes of the API: pretalx 2024's legacy API, and the versioned
/// API of pretalx 2025 and 2026 (v1, v2 and v-next alike for confapi's
/// endpoints).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    Legacy,
    Versioned,
}

/// One API token: its digest, and the API version a request with it gets
/// when it does not ask for one (None: the server's default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenHash {
    pub hash: String,
    pub api_version: Option<ApiVersion>,
}

impl TokenHash {
    /// A token that follows the server's default version.
    pub fn plain(hash: String) -> Self {
        TokenHash {
            hash,
            api_version: None,
        }
    }
}

/// Strings shared as records are read: while `sharing` runs, each string
/// a field marked `shared::one`, `optional` or `list` reads is the first
/// equal one read, so a load allocates each of the few hundred thousand
/// distinct codes and texts of an event's 1.7 million once. Shared after
/// the load instead, the 100,000-submission event freed over a million
/// copies, whose holes among the kept records stayed in serve's RSS
/// (docs/bench-log.md, "Memory (At 752d41f and 6e95e64, 1 December)"). Without `sharing` (a dataset file), each
/// string is its own.
pub mod shared {
    use std::cell::RefCell;

    use serde::de::{Deserialize, Deserializer, Visitor};

    use super::{ArcStr, SharedStrings};

    thread_local! {
        static TABLE: RefCell<Option<SharedStrings>> = const { RefCell::new(None) };
    }

    /// Runs `read` sharing its strings with those of `table`, which gains
    /// the new ones.
    pub fn sharing<R>(table: &mut SharedStrings, read: impl FnOnce() -> R) -> R {
        TABLE.with(|t| *t.borrow_mut() = Some(std::mem::take(table)));
        let result = read();
        *table = TABLE.with(|t| t.borrow_mut().take()).unwrap_or_default();
        result
    }

    fn share(text: &str) -> ArcStr {
        TABLE.with(|t| match t.borrow_mut().as_mut() {
            Some(table) => table.get_or_insert(text),
            None => ArcStr::from(text),
        })
    }

    struct Shared(ArcStr);

    impl<'de> Deserialize<'de> for Shared {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Shared, D::Error> {
            struct Text;
            impl Visitor<'_> for Text {
                type Value = Shared;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a string")
                }
                fn visit_str<E>(self, text: &str) -> Result<Shared, E> {
                    Ok(Shared(share(text)))
                }
            }
            deserializer.deserialize_str(Text)
        }
    }

    pub fn one<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ArcStr, D::Error> {
        Shared::deserialize(deserializer).map(|shared| shared.0)
    }

    pub fn optional<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<ArcStr>, D::Error> {
        Option::<Shared>::deserialize(deserializer).map(|shared| shared.map(|s| s.0))
    }

    /// An exact list (`exact_list`) of shared strings.
    pub fn list<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<ArcStr>, D::Error> {
        super::exact_list::deserialize::<D, Shared>(deserializer)
            .map(|list| list.into_iter().map(|shared| shared.0).collect())
    }
}

/// A list read into a vector of exactly its length. Serde grows a vector
/// one element at a time (room for four after the first), and most of a
/// submission's and a profile's lists hold one or two: 100,000 submissions
/// kept some 19 MiB of room they never used (docs/bench-log.md, "Memory (At 752d41f and 6e95e64, 1 December)").
/// Collected on the stack first, so no grown vector is left behind.
mod exact_list {
    use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
    use smallvec::SmallVec;

    pub fn deserialize<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        struct Exact<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Exact<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                let mut items: SmallVec<[T; 8]> = SmallVec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                let mut list = items.into_vec();
                // Longer lists spilled into a grown vector.
                list.shrink_to_fit();
                Ok(list)
            }
        }
        deserializer.deserialize_seq(Exact(std::marker::PhantomData))
    }

    /// The same, as a boxed slice (which `Vec::into_boxed_slice` makes of
    /// an exact vector without moving it).
    pub fn boxed<'de, D, T>(deserializer: D) -> Result<Box<[T]>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        deserialize(deserializer).map(Vec::into_boxed_slice)
    }
}

/// `token_hashes` carry their algorithm in the document: `sha256:HEX`; a
/// token with an API version is an object.
mod token_hashes {
    use serde::ser::SerializeMap;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{ApiVersion, TokenHash};

    const PREFIX: &str = "sha256:";

    struct Written<'a>(&'a TokenHash);

    impl Serialize for Written<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let hash = format!("{PREFIX}{}", self.0.hash);
            match self.0.api_version {
                None => serializer.serialize_str(&hash),
                Some(version) => {
                    let mut map = serializer.serialize_map(Some(2))?;
                    map.serialize_entry("hash", &hash)?;
                    map.serialize_entry("api_version", &version)?;
                    map.end()
                }
            }
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Read {
        Plain(String),
        WithVersion {
            hash: String,
            api_version: Option<ApiVersion>,
        },
    }

    pub fn serialize<S: Serializer>(
        hashes: &[TokenHash],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(hashes.iter().map(Written))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<TokenHash>, D::Error> {
        let written = Vec::<Read>::deserialize(deserializer)?;
        let bare = |h: String| h.strip_prefix(PREFIX).map(str::to_string).unwrap_or(h);
        Ok(written
            .into_iter()
            .map(|read| match read {
                Read::Plain(hash) => TokenHash {
                    hash: bare(hash),
                    api_version: None,
                },
                Read::WithVersion { hash, api_version } => TokenHash {
                    hash: bare(hash),
                    api_version,
                },
            })
            .collect())
    }
}

/// Each of `items` shared: the event's big lists hold their records so,
/// that snapshots built from one another (a replica's patch) share the
/// records they did not change instead of copying them.
pub fn share_each<T>(items: Vec<T>) -> Vec<std::sync::Arc<T>> {
    items.into_iter().map(std::sync::Arc::new).collect()
}

/// An event with everything in it. Storage keeps the lists as one record
/// per item (see `storage::records`) and the rest as the event's own record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    pub slug: String,
    pub name: I18n,
    pub is_public: bool,
    pub date_from: NaiveDate,
    pub date_to: Option<NaiveDate>,
    /// An IANA time zone name, checked on import.
    pub timezone: String,
    pub locale: String,
    /// The languages the event is shown in; empty means `[locale]` (the
    /// default, never written: see [`Event::locales`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locales: Vec<String>,
    /// The languages submissions may be in; empty means `[locale]` (see
    /// [`Event::content_locales`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub content_locales: Vec<String>,
    /// The organisers' contact address; "" when none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub email: String,
    pub show_schedule: bool,
    pub schedule: Option<Schedule>,
    /// Releases before the current one, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub older_schedules: Vec<ScheduleVersion>,
    /// The organisers' work-in-progress schedule, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wip_schedule: Option<WipSchedule>,
    pub review_phase: Option<ReviewPhase>,
    /// What reviewers score submissions on (pretalx's score categories).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub score_categories: Vec<ScoreCategory>,
    pub teams: Vec<Team>,
    pub submission_types: Vec<SubmissionType>,
    pub tracks: Vec<Track>,
    pub rooms: Vec<Room>,
    pub tags: Vec<Tag>,
    pub questions: Vec<Question>,
    pub speakers: Vec<std::sync::Arc<SpeakerProfile>>,
    pub submissions: Vec<std::sync::Arc<Submission>>,
    pub answers: Vec<std::sync::Arc<Answer>>,
    pub reviews: Vec<std::sync::Arc<Review>>,
    /// `#rrggbb`, for the schedule exports.
    pub primary_color: Option<String>,
    /// Absolute URLs of the event's logo and header image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header_image: Option<String>,
    /// The image shown when the event is shared (pretalx 2026.1's `og_image`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub og_image: Option<String>,
    /// The event's own domain (an absolute URL), if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_domain: Option<String>,
    /// The slug of the organiser the event belongs to (pretalx's
    /// `/api/organisers/{organiser}/`), if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organiser: Option<String>,
    /// Where to POST the event's change feed (never shown by the API).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub webhooks: Vec<Webhook>,
}

/// A webhook subscription: one view's change feed of an event, each new
/// generation POSTed to `url`, signed as Standard Webhooks specifies.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Webhook {
    /// An absolute `http` or `https` URL.
    pub url: String,
    /// The signing secret: base64, optionally after `whsec_`.
    pub secret: String,
    /// The code of the user whose view it receives; None: the public's.
    #[serde(rename = "as", default, skip_serializing_if = "Option::is_none")]
    pub as_user: Option<String>,
    /// Only changes of these kinds; empty: all of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<FeedKind>,
}

/// The lists a change feed reports on (`domain::feed`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum FeedKind {
    Submission,
    Talk,
    Speaker,
    Room,
    Question,
    Answer,
    Review,
    Tag,
    Schedule,
}

impl FeedKind {
    pub const ALL: [FeedKind; 9] = [
        FeedKind::Submission,
        FeedKind::Talk,
        FeedKind::Speaker,
        FeedKind::Room,
        FeedKind::Question,
        FeedKind::Answer,
        FeedKind::Review,
        FeedKind::Tag,
        FeedKind::Schedule,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FeedKind::Submission => "submission",
            FeedKind::Talk => "talk",
            FeedKind::Speaker => "speaker",
            FeedKind::Room => "room",
            FeedKind::Question => "question",
            FeedKind::Answer => "answer",
            FeedKind::Review => "review",
            FeedKind::Tag => "tag",
            FeedKind::Schedule => "schedule",
        }
    }

    pub fn from_name(name: &str) -> Option<FeedKind> {
        FeedKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl Event {
    /// The event's schedules: the current release, the older ones (oldest
    /// first), the work-in-progress one; each only where the data has it.
    pub fn releases(&self) -> impl Iterator<Item = Release> + '_ {
        let current = self.schedule.as_ref().map(|_| Release::Current);
        let older = (0..self.older_schedules.len()).map(Release::Older);
        let wip = self.wip_schedule.as_ref().map(|_| Release::Wip);
        current.into_iter().chain(older).chain(wip)
    }

    /// The languages the event is shown in (`locales`, else `[locale]`).
    pub fn locales(&self) -> &[String] {
        if self.locales.is_empty() {
            std::slice::from_ref(&self.locale)
        } else {
            &self.locales
        }
    }

    /// The languages submissions may be in (`content_locales`, else
    /// `[locale]`).
    pub fn content_locales(&self) -> &[String] {
        if self.content_locales.is_empty() {
            std::slice::from_ref(&self.locale)
        } else {
            &self.content_locales
        }
    }

    /// Gives back the room that a load's lists grew into: items arrive one
    /// at a time, so each list ends with up to twice the room it needs
    /// (some 55 MiB for the 100,000-submission event, most of it never
    /// touched). Items' own lists are read exact (`exact_list`).
    /// A copy of the event without its big lists (speakers, submissions,
    /// answers, reviews): its own record and its small lists, to compare.
    pub fn without_records(&self) -> Event {
        // Spelled out, so that a new field is a decision here.
        let Event {
            slug,
            name,
            is_public,
            date_from,
            date_to,
            timezone,
            locale,
            locales,
            content_locales,
            email,
            show_schedule,
            schedule,
            older_schedules,
            wip_schedule,
            review_phase,
            score_categories,
            teams,
            submission_types,
            tracks,
            rooms,
            tags,
            questions,
            speakers: _,
            submissions: _,
            answers: _,
            reviews: _,
            primary_color,
            logo,
            header_image,
            og_image,
            custom_domain,
            organiser,
            webhooks,
        } = self;
        Event {
            slug: slug.clone(),
            name: name.clone(),
            is_public: *is_public,
            date_from: *date_from,
            date_to: *date_to,
            timezone: timezone.clone(),
            locale: locale.clone(),
            locales: locales.clone(),
            content_locales: content_locales.clone(),
            email: email.clone(),
            show_schedule: *show_schedule,
            schedule: schedule.clone(),
            older_schedules: older_schedules.clone(),
            wip_schedule: wip_schedule.clone(),
            review_phase: review_phase.clone(),
            score_categories: score_categories.clone(),
            teams: teams.clone(),
            submission_types: submission_types.clone(),
            tracks: tracks.clone(),
            rooms: rooms.clone(),
            tags: tags.clone(),
            questions: questions.clone(),
            speakers: Vec::new(),
            submissions: Vec::new(),
            answers: Vec::new(),
            reviews: Vec::new(),
            primary_color: primary_color.clone(),
            logo: logo.clone(),
            header_image: header_image.clone(),
            og_image: og_image.clone(),
            custom_domain: custom_domain.clone(),
            organiser: organiser.clone(),
            webhooks: webhooks.clone(),
        }
    }

    pub fn shrink_to_fit(&mut self) {
        exact(&mut self.submission_types);
        exact(&mut self.tracks);
        exact(&mut self.rooms);
        exact(&mut self.tags);
        exact(&mut self.questions);
        exact(&mut self.speakers);
        exact(&mut self.submissions);
        exact(&mut self.answers);
        exact(&mut self.reviews);
    }
}

impl User {
    /// Makes the users' equal locales and time zones share one string each.
    pub fn share_strings(users: &mut [User]) {
        let mut strings = SharedStrings::default();
        for user in users {
            strings.share(&mut user.locale);
            strings.share(&mut user.timezone);
        }
    }
}

/// `list` moved into a vector of exactly its length. Not `shrink_to_fit`:
/// mimalloc keeps a block that is at least half used, which most grown
/// lists are.
fn exact<T>(list: &mut Vec<T>) {
    if list.capacity() > list.len() {
        let mut moved = Vec::with_capacity(list.len());
        moved.append(list);
        *list = moved;
    }
}

/// The strings seen so far, to replace an equal one by the first.
#[derive(Default)]
pub struct SharedStrings(rustc_hash::FxHashSet<ArcStr>);

impl SharedStrings {
    /// The string equal to `text` seen first, `text` itself if none was.
    fn get_or_insert(&mut self, text: &str) -> ArcStr {
        match self.0.get(text) {
            Some(shared) => shared.clone(),
            None => {
                let shared = ArcStr::from(text);
                self.0.insert(shared.clone());
                shared
            }
        }
    }

    fn share(&mut self, text: &mut ArcStr) {
        match self.0.get(text.as_str()) {
            Some(shared) => *text = shared.clone(),
            None => {
                self.0.insert(text.clone());
            }
        }
    }
}

/// The released current schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// Primary key upstream; one id space with the other schedules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    pub version: String,
    #[serde(with = "timestamp::option")]
    pub published: Option<Timestamp>,
    /// The organisers' release note.
    #[serde(default, skip_serializing_if = "I18n::is_empty")]
    pub comment: I18n,
    /// Its visible breaks (slots without a submission).
    pub breaks: Vec<Break>,
}

/// One of an event's schedules: the current release, an older release (its
/// place in `older_schedules`), or the work-in-progress schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Release {
    Current,
    Older(usize),
    Wip,
}

/// An earlier release of the schedule, with every slot it had.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleVersion {
    /// Primary key upstream; one id space with the other schedules.
    pub id: Option<i64>,
    pub version: String,
    #[serde(with = "timestamp")]
    pub published: Timestamp,
    pub comment: I18n,
    pub slots: Vec<ScheduleSlot>,
}

/// The work-in-progress schedule: what the next release would be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WipSchedule {
    pub id: Option<i64>,
    pub comment: I18n,
    pub slots: Vec<ScheduleSlot>,
}

/// A slot of an older or the work-in-progress schedule: a submission's
/// slot, or a break (no submission).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleSlot {
    /// Primary key upstream; one id space with the slots and breaks of
    /// every schedule of the event.
    pub id: Option<i64>,
    /// The submission's code; none for a break.
    pub submission: Option<ArcStr>,
    pub room: Option<i64>,
    #[serde(with = "timestamp::option")]
    pub start: Option<Timestamp>,
    #[serde(with = "timestamp::option")]
    pub end: Option<Timestamp>,
    pub is_visible: bool,
    /// A break's text.
    pub description: I18n,
}

/// A break in the released schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Break {
    /// Primary key upstream; one id space with slot ids.
    pub id: Option<i64>,
    pub room: Option<i64>,
    #[serde(with = "timestamp")]
    pub start: Timestamp,
    #[serde(with = "timestamp")]
    pub end: Timestamp,
    pub description: I18n,
}

closed_set! {
    /// When a reviewer may read other reviewers' reviews.
    OtherReviews { Always = "always", AfterReview = "after_review", Never = "never" }
}

closed_set! {
    /// Which proposals reviewers see during the phase.
    ProposalVisibility { All = "all", Assigned = "assigned" }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewPhase {
    pub name: String,
    pub can_see_speaker_names: bool,
    pub can_see_reviewer_names: bool,
    pub can_see_other_reviews: OtherReviews,
    pub proposal_visibility: ProposalVisibility,
}

impl Default for ReviewPhase {
    /// dataset.md's defaults, which also apply when an event has no active phase.
    fn default() -> Self {
        ReviewPhase {
            name: "Review".into(),
            can_see_speaker_names: true,
            can_see_reviewer_names: true,
            can_see_other_reviews: OtherReviews::AfterReview,
            proposal_visibility: ProposalVisibility::All,
        }
    }
}

/// Something reviewers score (pretalx's `ReviewScoreCategory`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreCategory {
    pub id: i64,
    pub name: I18n,
    pub weight: Decimal,
    pub required: bool,
    pub active: bool,
    /// Track ids; empty means every track.
    pub limit_tracks: Vec<i64>,
    /// Left out of the total score.
    pub is_independent: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Team {
    pub name: String,
    /// User codes.
    pub members: Vec<String>,
    pub can_change_submissions: bool,
    pub is_reviewer: bool,
    pub force_hide_speaker_names: bool,
    /// Track ids; empty means every track.
    pub limit_tracks: Vec<i64>,
    /// The team's upstream id (pretalx's teams are the organiser's): the
    /// same team listed in several events has the same id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// The organiser-level rights and reach pretalx's v1 `teams/` shows.
    #[serde(default, skip_serializing_if = "is_false")]
    pub all_events: bool,
    /// Slugs of the organiser's events the team covers; empty: the events
    /// it is listed in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limit_events: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_create_events: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_change_teams: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_change_organiser_settings: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_change_event_settings: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmissionType {
    pub id: i64,
    pub name: I18n,
    pub default_duration: i64,
    /// The CfP deadline for this type, where it differs from the event's.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub deadline: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub requires_access_code: bool,
    /// Whether attendees must sign up for its sessions (pretalx 2026.2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub attendee_signup_required: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Track {
    pub id: i64,
    pub name: I18n,
    pub color: String,
    #[serde(serialize_with = "I18n::serialize_nullable")]
    pub description: I18n,
    pub position: Option<i64>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub requires_access_code: bool,
    /// Whether attendees must sign up for its sessions (pretalx 2026.2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub attendee_signup_required: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Availability {
    pub id: i64,
    #[serde(with = "timestamp")]
    pub start: Timestamp,
    #[serde(with = "timestamp")]
    pub end: Timestamp,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Room {
    pub id: i64,
    pub guid: Option<String>,
    /// What pretalx's v1 API shows as the room's `uuid`; none means
    /// derived (see [`Room::guid_or_derived`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    pub name: I18n,
    #[serde(serialize_with = "I18n::serialize_nullable")]
    pub description: I18n,
    #[serde(serialize_with = "I18n::serialize_nullable")]
    pub speaker_info: I18n,
    pub capacity: Option<i64>,
    pub position: Option<i64>,
    pub availabilities: Vec<Availability>,
}

impl Room {
    /// The room's uuid as pretalx shows it (v1 `uuid`; the schedule
    /// exports' room `guid`; the legacy API's `guid`): the dataset's `uuid`
    /// where given (pretalx's own, for a room without a guid), else its
    /// guid, else a stable one derived from the event and the room id (not
    /// pretalx's): one rule for all of them.
    pub fn guid_or_derived(&self, event_slug: &str) -> String {
        match (&self.uuid, &self.guid) {
            (Some(uuid), _) if !uuid.is_empty() => uuid.clone(),
            (_, Some(guid)) if !guid.is_empty() => guid.clone(),
            _ => {
                let name = format!("confapi:{}:room:{}", event_slug.to_lowercase(), self.id);
                uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, name.as_bytes()).to_string()
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tag {
    pub id: i64,
    pub tag: String,
    #[serde(serialize_with = "I18n::serialize_nullable")]
    pub description: I18n,
    pub color: String,
    pub is_public: bool,
}

closed_set! {
    /// What kind of answer a question takes.
    QuestionVariant {
        Number = "number",
        String = "string",
        Text = "text",
        Url = "url",
        Date = "date",
        Datetime = "datetime",
        Boolean = "boolean",
        File = "file",
        Choices = "choices",
        MultipleChoice = "multiple_choice",
    }
}

closed_set! {
    /// Whom a question asks about.
    QuestionTarget { Submission = "submission", Speaker = "speaker", Reviewer = "reviewer" }
}

closed_set! {
    /// Whether a question must be answered.
    QuestionRequired { Optional = "optional", Required = "required", AfterDeadline = "after_deadline" }
}

closed_set! {
    /// A submission's state in the review process.
    SubmissionState {
        Submitted = "submitted",
        Accepted = "accepted",
        Rejected = "rejected",
        Confirmed = "confirmed",
        Canceled = "canceled",
        Withdrawn = "withdrawn",
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuestionOption {
    pub id: i64,
    pub answer: I18n,
    /// None: its index in the question's list (see `position_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    /// pretalx 2026.1's short identifier, unique in the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
}

impl QuestionOption {
    /// The option's position, given that it is the `index`-th of its list.
    pub fn position_at(&self, index: usize) -> i64 {
        self.position.unwrap_or(index as i64)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub id: i64,
    pub variant: QuestionVariant,
    pub target: QuestionTarget,
    pub question: I18n,
    #[serde(serialize_with = "I18n::serialize_nullable")]
    pub help_text: I18n,
    pub question_required: QuestionRequired,
    #[serde(with = "timestamp::option")]
    pub deadline: Option<Timestamp>,
    #[serde(with = "timestamp::option")]
    pub freeze_after: Option<Timestamp>,
    pub options: Vec<QuestionOption>,
    pub default_answer: Option<String>,
    pub contains_personal_data: bool,
    pub min_length: Option<i64>,
    pub max_length: Option<i64>,
    /// Limits of a number, date or datetime answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_number: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_number: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_date: Option<NaiveDate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_date: Option<NaiveDate>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub min_datetime: Option<Timestamp>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub max_datetime: Option<Timestamp>,
    /// An absolute URL of the question's icon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// pretalx 2026.1's short identifier, unique in the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
    pub is_public: bool,
    pub is_visible_to_reviewers: bool,
    pub active: bool,
    pub position: i64,
    pub tracks: Vec<i64>,
    pub submission_types: Vec<i64>,
}

/// A user's per-event speaker profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeakerProfile {
    /// The user's code (the person), shared with the submissions that name
    /// it unless the profile has a `code` of its own.
    #[serde(deserialize_with = "shared::one")]
    pub user: ArcStr,
    /// pretalx 2026's per-event speaker code, where it is not the user's
    /// (a person can have another in each event): this event's submissions
    /// and answers name the speaker by it, and every view shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<ArcStr>,
    pub biography: String,
    #[serde(deserialize_with = "exact_list::deserialize")]
    pub availabilities: Vec<Availability>,
    /// Checked in at the venue.
    #[serde(default, skip_serializing_if = "is_false")]
    pub has_arrived: bool,
    /// The organisers' notes on the speaker.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub internal_notes: String,
}

impl SpeakerProfile {
    /// The code this event knows the speaker by: the profile's own, else
    /// the user's.
    pub fn speaker_code(&self) -> &ArcStr {
        self.code.as_ref().unwrap_or(&self.user)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Anonymised {
    pub title: String,
    #[serde(rename = "abstract")]
    pub abstract_: String,
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    /// Primary key upstream; unique within the event when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    pub resource: String,
    pub description: String,
    /// Private resources are for organisers only. Written only when false,
    /// so that the records of datasets without the field keep their bytes.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub is_public: bool,
}

fn yes() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

fn is_false(value: &bool) -> bool {
    !*value
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slot {
    pub room: Option<i64>,
    #[serde(with = "timestamp::option")]
    pub start: Option<Timestamp>,
    #[serde(with = "timestamp::option")]
    pub end: Option<Timestamp>,
    pub is_visible: bool,
    /// Primary key upstream; one id space with break ids.
    pub id: Option<i64>,
    /// The talk's guid in frab XML/JSON; several slots of a talk may share it.
    pub guid: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    /// Shared with the answers and reviews that name the submission.
    #[serde(deserialize_with = "shared::one")]
    pub code: ArcStr,
    pub title: String,
    /// User codes, in display order.
    #[serde(deserialize_with = "shared::list")]
    pub speakers: Vec<ArcStr>,
    pub submission_type: i64,
    pub track: Option<i64>,
    pub state: SubmissionState,
    pub pending_state: Option<SubmissionState>,
    #[serde(rename = "abstract")]
    pub abstract_: String,
    pub description: String,
    pub notes: String,
    pub internal_notes: String,
    pub duration: Option<i64>,
    pub slot_count: i64,
    pub do_not_record: bool,
    pub is_featured: bool,
    /// One of the event's few locales, shared (`shared`).
    #[serde(deserialize_with = "shared::one")]
    pub content_locale: ArcStr,
    pub image: Option<String>,
    #[serde(with = "timestamp")]
    pub created: Timestamp,
    /// Tag ids.
    #[serde(deserialize_with = "exact_list::deserialize")]
    pub tags: Vec<i64>,
    #[serde(deserialize_with = "exact_list::deserialize")]
    pub resources: Vec<Resource>,
    /// The organisers' anonymised texts; an empty text means "use the real
    /// one". Boxed: few submissions have them, and every one pays its size.
    pub anonymised: Option<Box<Anonymised>>,
    /// User codes.
    #[serde(deserialize_with = "exact_list::deserialize")]
    pub assigned_reviewers: Vec<String>,
    /// Slots in the released schedule, in dataset order.
    #[serde(deserialize_with = "exact_list::deserialize")]
    pub slots: Vec<Slot>,
    /// The submission's primary key upstream, for the schedule exports.
    pub id: Option<i64>,
    /// Organiser-only: the token that invites co-speakers and the code of
    /// the submission's review link (pretalx gives every submission both).
    /// Shared strings: a thin pointer each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invitation_token: Option<ArcStr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review_code: Option<ArcStr>,
    /// Organiser-only: the upstream id of the access code the submission
    /// was made with (pretalx's v1 API shows the id, not the code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_code: Option<i64>,
    /// When the submission was last changed (pretalx 2026.1 shows it to
    /// organisers and reviewers); None when the source did not say.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub updated: Option<Timestamp>,
    /// Organiser-only: the co-speaker invitations still open.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invitations: Vec<Invitation>,
    /// Attendee sign-up (pretalx 2026.2), boxed: few submissions have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendee_signup: Option<Box<AttendeeSignup>>,
}

/// A submission's attendee sign-up settings and state (pretalx 2026.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AttendeeSignup {
    /// None: the track's and the type's setting apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// None: the room's capacity applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<i64>,
    /// What pretalx computed: None when no sign-up applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<SignupStatus>,
}

/// pretalx's `signup_status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SignupStatus {
    Open,
    Full,
}

impl SignupStatus {
    pub const ALL: [SignupStatus; 2] = [SignupStatus::Open, SignupStatus::Full];
    pub fn name(self) -> &'static str {
        match self {
            SignupStatus::Open => "open",
            SignupStatus::Full => "full",
        }
    }
}

/// An open invitation to co-speak on a submission (organiser-only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Invitation {
    pub id: i64,
    pub email: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub created: Option<Timestamp>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "timestamp::option"
    )]
    pub updated: Option<Timestamp>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    pub id: i64,
    pub question: i64,
    #[serde(deserialize_with = "shared::one")]
    pub answer: ArcStr,
    pub answer_file: Option<ArcStr>,
    #[serde(default, deserialize_with = "shared::optional")]
    pub submission: Option<ArcStr>,
    #[serde(default, deserialize_with = "shared::optional")]
    pub person: Option<ArcStr>,
    pub review: Option<i64>,
    /// Option ids of the question. A boxed slice: most answers have none or
    /// one, and a slice is a word smaller than a `Vec`.
    #[serde(deserialize_with = "exact_list::boxed")]
    pub options: Box<[i64]>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Review {
    pub id: i64,
    #[serde(deserialize_with = "shared::one")]
    pub submission: ArcStr,
    /// User code of the reviewer.
    #[serde(deserialize_with = "shared::one")]
    pub user: ArcStr,
    #[serde(deserialize_with = "shared::one")]
    pub text: ArcStr,
    pub score: Option<f64>,
    #[serde(with = "timestamp")]
    pub created: Timestamp,
    #[serde(with = "timestamp")]
    pub updated: Timestamp,
    /// A score per category, at most one per category. A boxed slice: a
    /// word smaller than a `Vec`, and most reviews have none or a few.
    #[serde(
        default,
        skip_serializing_if = "<[ReviewScore]>::is_empty",
        deserialize_with = "exact_list::boxed"
    )]
    pub scores: Box<[ReviewScore]>,
}

/// A review's score in one category: pretalx's `ReviewScore`, one of the
/// values a category offers, so the same `id` always has the same
/// category, value and label.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewScore {
    pub id: i64,
    /// A score category id of the event.
    pub category: i64,
    pub value: Decimal,
    pub label: Option<String>,
}

/// A stable positive id for a value the dataset does not hold: from 10⁹ to
/// below 2·10⁹, never a small database key, always a positive int32. The
/// schedule exports and v1 derive the same ids the same way.
pub fn derived_id(parts: &[&str]) -> i64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(parts.join("\u{1f}").as_bytes());
    let hex = hex::encode(digest);
    let value = i64::from_str_radix(&hex[..12], 16).unwrap_or(0);
    1_000_000_000 + value % 1_000_000_000
}

/// SHA-256 of a clear token, as lower-case hex: the only form stored.
pub fn hash_token(token: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(token.as_bytes()))
}
