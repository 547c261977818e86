//! Users and their API tokens, and the API versions a token may ask for.

use serde::{Deserialize, Serialize};

use super::{ArcStr, SharedStrings};

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
