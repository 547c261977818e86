//! Why a sync round failed, for every part of the sync.

use reqwest::StatusCode;

/// Why a round failed: the URL and JSON path where known.
#[derive(Debug)]
pub struct SyncError {
    pub message: String,
    /// The upstream refused the request (401, 403 or 404): while an event
    /// is read, the token may not read that event.
    pub refused: Option<StatusCode>,
}

impl SyncError {
    pub fn plain(message: impl Into<String>) -> Self {
        SyncError {
            message: message.into(),
            refused: None,
        }
    }
    pub fn at(url: &str, message: impl std::fmt::Display) -> Self {
        Self::plain(format!("GET {url}: {message}"))
    }
    pub fn at_path(url: &str, path: &str, message: &str) -> Self {
        Self::plain(format!("GET {url}: {path}: {message}"))
    }
    /// An answer that refuses the token (`status` is 401, 403 or 404).
    pub fn refused(url: &str, status: StatusCode, detail: &str) -> Self {
        SyncError {
            refused: Some(status),
            ..Self::at(url, format!("answered {status}: {detail}"))
        }
    }
}

impl std::fmt::Display for SyncError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
