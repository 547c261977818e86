//! The rendered-response cache: the bytes of each `200` answer, kept so that
//! the next caller who may see exactly the same thing gets them without
//! rendering, in the encoding they accept.
//!
//! The key is everything an answer depends on: the data version (store
//! identity and generation), the caller's visibility class in the event
//! (`Access::viewer_class`, the same rules that decide what they see), the
//! clock epoch of the event's questions, the public base URL (links), and
//! the path and query exactly as sent (links repeat the query in its
//! order). Two callers share an entry only when every part is equal, so no
//! one is served bytes rendered for someone who may see more or other
//! things.
//!
//! Entries are bounded by memory (`--cache-mb`). Compressed bodies (brotli,
//! gzip) are made once per entry, on first demand, and each encoding has
//! its own ETag, derived from the same bytes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;

use crate::domain::access::ViewerClass;
use crate::storage::DataVersion;

/// Bodies smaller than this are sent as they are: compressing them saves
/// less than the headers it adds.
const MIN_COMPRESSED_SIZE: usize = 1024;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ResponseKey {
    pub version: DataVersion,
    pub class: ViewerClass,
    pub clock_epoch: usize,
    /// The dialect (`Pretalx-Version`): the same path answers in either.
    pub api: crate::model::Dialect,
    pub base_url: String,
    /// Path and query as sent.
    pub target: String,
}

/// One rendered answer, in every encoding asked for so far.
pub struct Rendered {
    content_type: HeaderValue,
    identity: Bytes,
    /// Hex digest of `identity`; each encoding's ETag derives from it.
    digest: String,
    gzip: OnceLock<Bytes>,
    brotli: OnceLock<Bytes>,
    /// Headers sent with every copy (e.g. `Content-Disposition`,
    /// `Last-Modified`, `Cache-Control`).
    headers: HeaderMap,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

impl Encoding {
    const ALL: [Encoding; 3] = [Encoding::Identity, Encoding::Gzip, Encoding::Brotli];

    /// The best encoding `Accept-Encoding` allows: brotli, then gzip, then
    /// none (q-values of 0 refuse an encoding).
    pub fn negotiate(headers: &HeaderMap) -> Encoding {
        let mut gzip = false;
        let mut brotli = false;
        for value in headers.get_all(header::ACCEPT_ENCODING) {
            let Ok(text) = value.to_str() else { continue };
            for item in text.split(',') {
                let mut parts = item.split(';');
                let name = parts.next().unwrap_or("").trim();
                let refused = parts.any(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .and_then(|q| q.trim().parse::<f32>().ok())
                        .is_some_and(|q| q <= 0.0)
                });
                if refused {
                    continue;
                }
                if name.eq_ignore_ascii_case("br") {
                    brotli = true;
                } else if name.eq_ignore_ascii_case("gzip") || name == "*" {
                    gzip = true;
                }
            }
        }
        if brotli {
            Encoding::Brotli
        } else if gzip {
            Encoding::Gzip
        } else {
            Encoding::Identity
        }
    }

    fn token(self) -> Option<&'static str> {
        match self {
            Encoding::Identity => None,
            Encoding::Gzip => Some("gzip"),
            Encoding::Brotli => Some("br"),
        }
    }
}

/// What of a request decides how a rendered answer is sent.
pub struct Revalidation {
    pub encoding: Encoding,
    pub if_none_match: Vec<HeaderValue>,
    pub if_modified_since: Option<HeaderValue>,
}

impl Revalidation {
    pub fn of(headers: &HeaderMap) -> Self {
        Revalidation {
            encoding: Encoding::negotiate(headers),
            if_none_match: headers
                .get_all(header::IF_NONE_MATCH)
                .iter()
                .cloned()
                .collect(),
            if_modified_since: headers.get(header::IF_MODIFIED_SINCE).cloned(),
        }
    }
}

/// An HTTP-date (RFC 9110 §5.6.7, IMF-fixdate or RFC 850's GMT forms that
/// RFC 2822 parsing accepts).
fn http_date(value: &HeaderValue) -> Option<chrono::DateTime<chrono::FixedOffset>> {
    chrono::DateTime::parse_from_rfc2822(value.to_str().ok()?.trim()).ok()
}

/// A body's ETag value: its XXH3-64, by twox-hash, which picks AVX2 where
/// the CPU has it (xxhash-rust, used where little is hashed, only what the
/// build targets: SSE2; hashing was a tenth of an expanded v1 page's
/// instructions, callgrind). The same values as xxhash-rust's `xxh3_64`.
fn digest(body: &[u8]) -> String {
    format!("{:016x}", twox_hash::XxHash3_64::oneshot(body))
}

impl Rendered {
    pub fn new(content_type: HeaderValue, body: Bytes) -> Self {
        Rendered {
            content_type,
            digest: digest(&body),
            identity: body,
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
            headers: HeaderMap::new(),
        }
    }

    /// The same, with headers sent with every copy.
    pub fn with_headers(mut self, headers: HeaderMap) -> Self {
        self.headers = headers;
        self
    }

    /// Memory an entry may come to hold, with both compressed bodies
    /// (JSON compresses to well under half; counted as half).
    fn weight(&self, key: &ResponseKey) -> u32 {
        let headers: usize = self
            .headers
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len())
            .sum();
        let size = self.identity.len() + self.identity.len() / 2 + key.target.len() + headers + 256;
        u32::try_from(size).unwrap_or(u32::MAX)
    }

    fn etag(&self, encoding: Encoding) -> String {
        match encoding.token() {
            None => format!("\"{}\"", self.digest),
            Some(token) => format!("\"{}-{token}\"", self.digest),
        }
    }

    /// The body in `encoding`, compressed on first demand; small bodies
    /// are always sent as they are.
    fn body(&self, encoding: Encoding) -> (Encoding, Bytes) {
        if self.identity.len() < MIN_COMPRESSED_SIZE {
            return (Encoding::Identity, self.identity.clone());
        }
        let body = match encoding {
            Encoding::Identity => self.identity.clone(),
            Encoding::Gzip => self.gzip.get_or_init(|| gzip(&self.identity)).clone(),
            Encoding::Brotli => self.brotli.get_or_init(|| brotli(&self.identity)).clone(),
        };
        (encoding, body)
    }

    /// The answer in the caller's encoding, or `304 Not Modified` when
    /// `If-None-Match` names this content in any encoding (RFC 9110
    /// §13.1.2: weak comparison, lists and `*`); without `If-None-Match`,
    /// when the entry has a `Last-Modified` no later than `If-Modified-Since`
    /// (§13.1.3).
    pub fn respond(&self, request: &Revalidation) -> Response {
        let (encoding, body) = self.body(request.encoding);
        let etag = self.etag(encoding);
        let not_modified = if request.if_none_match.is_empty() {
            match (
                self.headers.get(header::LAST_MODIFIED).and_then(http_date),
                request.if_modified_since.as_ref().and_then(http_date),
            ) {
                (Some(modified), Some(since)) => modified <= since,
                _ => false,
            }
        } else {
            request
                .if_none_match
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .map(|tag| tag.trim().trim_start_matches("W/"))
                .any(|tag| tag == "*" || Encoding::ALL.iter().any(|&e| tag == self.etag(e)))
        };
        let mut response = if not_modified {
            let mut response = Response::new(Body::empty());
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            response
        } else {
            Response::new(Body::from(body))
        };
        let headers = response.headers_mut();
        for (name, value) in &self.headers {
            headers.insert(name, value.clone());
        }
        headers.insert(header::CONTENT_TYPE, self.content_type.clone());
        headers.insert(
            header::ETAG,
            HeaderValue::from_str(&etag).expect("hex in quotes is a valid header value"),
        );
        if let (Some(token), false) = (encoding.token(), not_modified) {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(token));
        }
        response
    }
}

fn gzip(body: &[u8]) -> Bytes {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4),
        flate2::Compression::default(),
    );
    encoder
        .write_all(body)
        .and_then(|_| encoder.finish())
        .map(Bytes::from)
        .expect("compressing into memory cannot fail")
}

fn brotli(body: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(body.len() / 4);
    let params = brotli::enc::BrotliEncoderParams {
        // Quality 5: most of the gain of 11 at a small part of its cost.
        quality: 5,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &body[..], &mut out, &params)
        .expect("compressing into memory cannot fail");
    Bytes::from(out)
}

/// Entries by key, bounded by their weight in bytes.
pub struct ResponseCache {
    entries: moka::sync::Cache<ResponseKey, Arc<Rendered>>,
    pub hits: AtomicU64,
    pub misses: AtomicU64,
}

impl ResponseCache {
    /// A cache of at most `max_bytes` (0: nothing is kept).
    pub fn new(max_bytes: u64) -> Self {
        ResponseCache {
            entries: moka::sync::Cache::builder()
                .max_capacity(max_bytes)
                .weigher(|key: &ResponseKey, value: &Arc<Rendered>| value.weight(key))
                .build(),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    pub fn get(&self, key: &ResponseKey) -> Option<Arc<Rendered>> {
        let found = self.entries.get(key);
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    pub fn insert(&self, key: ResponseKey, rendered: Arc<Rendered>) {
        self.entries.insert(key, rendered);
    }

    /// Weighted size of the entries, in bytes (approximate: moka applies
    /// inserts and evictions in batches).
    pub fn weighted_size(&self) -> u64 {
        self.entries.run_pending_tasks();
        self.entries.weighted_size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ETags stay what they were (xxhash-rust's XXH3-64) for bodies of
    /// every length class XXH3 handles apart (up to 16, 128 and 240 bytes,
    /// then stripes and blocks of 1 kB), so clients' cached copies revalidate.
    #[test]
    fn etags_are_xxh3_64_as_before() {
        let bytes: Vec<u8> = (0..300_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for len in (0..=1100).chain([4095, 4096, 65_537, 240_000, 300_000]) {
            let body = &bytes[..len];
            assert_eq!(
                digest(body),
                format!("{:016x}", xxhash_rust::xxh3::xxh3_64(body)),
                "{len} bytes"
            );
        }
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn negotiation_prefers_brotli_then_gzip_and_honours_q_zero() {
        let negotiate = |value| Encoding::negotiate(&headers(&[("accept-encoding", value)]));
        assert_eq!(negotiate("gzip, deflate, br"), Encoding::Brotli);
        assert_eq!(negotiate("gzip"), Encoding::Gzip);
        assert_eq!(negotiate("br;q=0, gzip;q=0.5"), Encoding::Gzip);
        assert_eq!(negotiate("gzip;q=0"), Encoding::Identity);
        assert_eq!(negotiate("identity"), Encoding::Identity);
        assert_eq!(negotiate("*"), Encoding::Gzip);
        assert_eq!(Encoding::negotiate(&HeaderMap::new()), Encoding::Identity);
    }

    #[test]
    fn compressed_bodies_decode_to_the_same_bytes() {
        let body = Bytes::from("{\"results\": [1, 2, 3]} ".repeat(200));
        let rendered = Rendered::new(HeaderValue::from_static("application/json"), body.clone());
        let (_, gz) = rendered.body(Encoding::Gzip);
        let mut decoded = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut decoded)
            .unwrap();
        assert_eq!(decoded, body);
        let (_, br) = rendered.body(Encoding::Brotli);
        let mut decoded = Vec::new();
        brotli::BrotliDecompress(&mut &br[..], &mut decoded).unwrap();
        assert_eq!(decoded, body);
        assert!(gz.len() < body.len() / 4 && br.len() < body.len() / 4);
    }

    #[test]
    fn each_encoding_has_its_own_etag_and_any_of_them_revalidates() {
        let body = Bytes::from("x".repeat(2000));
        let rendered = Rendered::new(HeaderValue::from_static("application/json"), body);
        let identity = rendered.etag(Encoding::Identity);
        let gzip = rendered.etag(Encoding::Gzip);
        assert_ne!(identity, gzip);
        assert_eq!(gzip, format!("{}-gzip\"", identity.trim_end_matches('"')));
        let mut request = headers(&[("accept-encoding", "gzip")]);
        request.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&identity).unwrap(),
        );
        let response = rendered.respond(&Revalidation::of(&request));
        assert_eq!(response.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(response.headers()[header::ETAG], gzip.as_str());
        assert!(response.headers().get(header::CONTENT_ENCODING).is_none());
    }

    #[test]
    fn small_bodies_are_never_compressed() {
        let rendered = Rendered::new(
            HeaderValue::from_static("application/json"),
            Bytes::from_static(b"{}"),
        );
        let response = rendered.respond(&Revalidation::of(&headers(&[("accept-encoding", "br")])));
        assert!(response.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(
            response.headers()[header::ETAG],
            format!("\"{}\"", rendered.digest).as_str()
        );
    }
}
