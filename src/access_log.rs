//! The access log line, written without `tracing_subscriber`'s generic
//! formatting.
//!
//! Every request that is answered (not a probe, not a 5xx) emits one
//! `tracing` event, [`ACCESS_EVENT`] under the target [`ACCESS_TARGET`],
//! with the fields `message`, `method`, `path`, `status` and `micros`. It is
//! an ordinary event: `--log-level`, `RUST_LOG` and `CONFAPI_LOG` filter it
//! like any other (`warn` silences it, `warn,confapi::http=info` keeps it).
//!
//! What differs is how its line is written. [`AccessFormat`] wraps the
//! `fmt` layer's formatter (text or JSON) and writes this one event itself:
//! the cached timestamp, fixed strings, the field values copied as they are
//! visited and numbers through `itoa`, into the `fmt` layer's per-thread
//! buffer, which goes to the batch writer (`log_writer`) as before. The
//! generic path visited each field through `Debug`/`Display` and
//! `core::fmt` (and for JSON through `serde_json`'s map serializer); at
//! 60,000 lines a second that cost about a tenth of the throughput of a
//! cached page (docs/bench-log.md, "Logging: the batch writer (21bc489)").
//!
//! The line is the same as the generic formatter's, byte for byte, for the
//! event as it was before (`%method, %path`: strings not quoted in text),
//! with and without ANSI colours; the tests compare the two. Should the
//! event ever be inside a span, the generic formatter writes it, so that
//! the span is shown.

use std::fmt::{self, Write};

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::FormatTime;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// The name of the access event (`tracing::info!(name: ACCESS_EVENT, …)`).
pub const ACCESS_EVENT: &str = "access";
/// Its target: the module that emits it, as it always was.
pub const ACCESS_TARGET: &str = "confapi::http::transport";

/// Logs one answered request at `info` (method, path without the query,
/// status, microseconds). Tokens and queries are never part of it.
#[inline]
pub fn request(method: &str, path: &str, status: u16, micros: u64) {
    tracing::info!(
        name: ACCESS_EVENT,
        target: ACCESS_TARGET,
        message = "request",
        method,
        path,
        status,
        micros
    );
}

/// How the line is laid out: as `tracing_subscriber`'s `Full` text format
/// or its JSON format with `flatten_event(true)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Text,
    Json,
}

/// A `FormatEvent` that writes the access event itself and hands every
/// other event to `inner` (the `fmt` layer's own formatter, configured with
/// the same timer).
pub struct AccessFormat<F, T> {
    inner: F,
    timer: T,
    layout: Layout,
}

impl<F, T> AccessFormat<F, T> {
    pub fn new(inner: F, timer: T, layout: Layout) -> Self {
        AccessFormat {
            inner,
            timer,
            layout,
        }
    }
}

const DIMMED: &str = "\x1b[2m";
const ITALIC: &str = "\x1b[3m";
const RESET: &str = "\x1b[0m";

impl<S, N, F, T> FormatEvent<S, N> for AccessFormat<F, T>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    F: FormatEvent<S, N>,
    T: FormatTime,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        if meta.name() != ACCESS_EVENT
            || meta.target() != ACCESS_TARGET
            || ctx.event_scope().is_some()
        {
            return self.inner.format_event(ctx, writer, event);
        }
        let ansi = writer.has_ansi_escapes();
        let mut line = Line {
            writer: &mut writer,
            buf: [0; LINE_CAPACITY],
            len: 0,
        };
        let writer = &mut line;
        match self.layout {
            Layout::Text => {
                if ansi {
                    writer.write_str(DIMMED)?;
                }
                if self.timer.format_time(&mut Writer::new(writer)).is_err() {
                    writer.write_str("<unknown time>")?;
                }
                if ansi {
                    writer.write_str(RESET)?;
                    writer.write_str(" ")?;
                    writer.write_str(level_colour(meta.level()))?;
                    writer.write_str(padded_level(meta.level()))?;
                    writer.write_str(RESET)?;
                    writer.write_str(" ")?;
                    writer.write_str(DIMMED)?;
                    writer.write_str(ACCESS_TARGET)?;
                    writer.write_str(RESET)?;
                    writer.write_str(DIMMED)?;
                    writer.write_str(":")?;
                    writer.write_str(RESET)?;
                    writer.write_str(" ")?;
                } else {
                    writer.write_str(" ")?;
                    writer.write_str(padded_level(meta.level()))?;
                    writer.write_str(" ")?;
                    writer.write_str(ACCESS_TARGET)?;
                    writer.write_str(": ")?;
                }
                let mut fields = TextFields {
                    writer,
                    ansi,
                    first: true,
                    result: Ok(()),
                };
                event.record(&mut fields);
                fields.result?;
                writer.write_str("\n")?;
            }
            Layout::Json => {
                writer.write_str("{\"timestamp\":\"")?;
                // The timestamp is ours (`log_writer::Timestamps`): digits,
                // `-`, `:`, `.`, `T` and `Z`, nothing to escape.
                let _ = self.timer.format_time(&mut Writer::new(writer));
                writer.write_str("\",\"level\":\"")?;
                writer.write_str(meta.level().as_str())?;
                writer.write_str("\"")?;
                let mut fields = JsonFields {
                    writer,
                    result: Ok(()),
                };
                event.record(&mut fields);
                fields.result?;
                writer.write_str(",\"target\":\"")?;
                writer.write_str(ACCESS_TARGET)?;
                writer.write_str("\"}\n")?;
            }
        }
        line.flush()
    }
}

/// Room for a line on the stack (an access line is about 130 bytes).
const LINE_CAPACITY: usize = 384;

/// The line being assembled on the stack, handed to the `fmt` layer's
/// buffer in one `write_str` rather than in 25 (each through
/// `dyn fmt::Write`); a line longer than `LINE_CAPACITY` in several.
struct Line<'a, 'w> {
    writer: &'a mut Writer<'w>,
    buf: [u8; LINE_CAPACITY],
    len: usize,
}

impl Line<'_, '_> {
    fn flush(&mut self) -> fmt::Result {
        // Whole `&str`s only were copied in: always UTF-8.
        let text = std::str::from_utf8(&self.buf[..self.len]).map_err(|_| fmt::Error)?;
        self.writer.write_str(text)?;
        self.len = 0;
        Ok(())
    }
}

impl Write for Line<'_, '_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        if self.len + text.len() > LINE_CAPACITY {
            self.flush()?;
            if text.len() > LINE_CAPACITY {
                return self.writer.write_str(text);
            }
        }
        self.buf[self.len..self.len + text.len()].copy_from_slice(text.as_bytes());
        self.len += text.len();
        Ok(())
    }
}

/// As `tracing_subscriber` pads levels in text.
fn padded_level(level: &Level) -> &'static str {
    match *level {
        Level::TRACE => "TRACE",
        Level::DEBUG => "DEBUG",
        Level::INFO => " INFO",
        Level::WARN => " WARN",
        _ => "ERROR",
    }
}

/// As `tracing_subscriber` colours levels (nu_ansi_term's codes).
fn level_colour(level: &Level) -> &'static str {
    match *level {
        Level::TRACE => "\x1b[35m",
        Level::DEBUG => "\x1b[34m",
        Level::INFO => "\x1b[32m",
        Level::WARN => "\x1b[33m",
        _ => "\x1b[31m",
    }
}

/// The fields in text: `message` bare, the others `name=value`, separated
/// by spaces; strings as they are (as `%value` was written).
struct TextFields<'a, W> {
    writer: &'a mut W,
    ansi: bool,
    first: bool,
    result: fmt::Result,
}

impl<W: Write> TextFields<'_, W> {
    fn field(&mut self, field: &Field, value: impl FnOnce(&mut W) -> fmt::Result) {
        if self.result.is_err() {
            return;
        }
        self.result = (|| {
            if !std::mem::take(&mut self.first) {
                self.writer.write_str(" ")?;
            }
            let name = field.name();
            if name != "message" {
                if self.ansi {
                    self.writer.write_str(ITALIC)?;
                    self.writer.write_str(name)?;
                    self.writer.write_str(RESET)?;
                    self.writer.write_str(DIMMED)?;
                    self.writer.write_str("=")?;
                    self.writer.write_str(RESET)?;
                } else {
                    self.writer.write_str(name)?;
                    self.writer.write_str("=")?;
                }
            }
            value(self.writer)
        })();
    }
}

impl<W: Write> Visit for TextFields<'_, W> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.field(field, |w| w.write_str(value));
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.field(field, |w| w.write_str(itoa::Buffer::new().format(value)));
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.field(field, |w| w.write_str(itoa::Buffer::new().format(value)));
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.field(field, |w| write!(w, "{value:?}"));
    }
}

/// The fields in JSON, each `,"name":value`: strings escaped as
/// `serde_json` escapes them, integers as numbers, anything else as its
/// `Debug` text in a string (as `tracing_subscriber`'s JSON does).
struct JsonFields<'a, W> {
    writer: &'a mut W,
    result: fmt::Result,
}

impl<W: Write> JsonFields<'_, W> {
    fn field(&mut self, field: &Field, value: impl FnOnce(&mut W) -> fmt::Result) {
        if self.result.is_err() {
            return;
        }
        self.result = (|| {
            self.writer.write_str(",\"")?;
            json_escape(self.writer, field.name())?;
            self.writer.write_str("\":")?;
            value(self.writer)
        })();
    }
}

impl<W: Write> Visit for JsonFields<'_, W> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.field(field, |w| {
            w.write_str("\"")?;
            json_escape(w, value)?;
            w.write_str("\"")
        });
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.field(field, |w| w.write_str(itoa::Buffer::new().format(value)));
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.field(field, |w| w.write_str(itoa::Buffer::new().format(value)));
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.field(field, |w| w.write_str(if value { "true" } else { "false" }));
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        let text = format!("{value:?}");
        self.record_str(field, &text);
    }
}

/// `text` as the inside of a JSON string, escaped as `serde_json` does:
/// `"`, `\` and control characters; runs without any copied at once.
fn json_escape(w: &mut impl Write, text: &str) -> fmt::Result {
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => continue,
        };
        // Only ASCII bytes end a run: `start..i` is on character boundaries.
        w.write_str(&text[start..i])?;
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let code = [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ];
            w.write_str(std::str::from_utf8(&code).map_err(|_| fmt::Error)?)?;
        } else {
            w.write_str(escape)?;
        }
        start = i + 1;
    }
    w.write_str(&text[start..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use tracing_subscriber::layer::SubscriberExt;

    /// Lines written by a subscriber, for the test to read back.
    #[derive(Clone, Default)]
    struct Output(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Output {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Output {
        type Writer = Output;
        fn make_writer(&'a self) -> Output {
            self.clone()
        }
    }

    impl Output {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    fn fixed_time(w: &mut Writer<'_>) -> fmt::Result {
        w.write_str("2026-11-25T17:34:00.194707Z")
    }

    /// What `emit` writes through the layer main.rs builds (with
    /// `AccessFormat`), or through the generic one, at `filter`.
    fn log(layout: Layout, ansi: bool, access: bool, filter: &str, emit: impl FnOnce()) -> String {
        let output = Output::default();
        let timer = fixed_time as fn(&mut Writer<'_>) -> fmt::Result;
        let registry =
            tracing_subscriber::registry().with(tracing_subscriber::EnvFilter::new(filter));
        let dispatch = match (layout, access) {
            (Layout::Text, true) => tracing::Dispatch::new(
                registry.with(
                    tracing_subscriber::fmt::layer()
                        .with_timer(timer)
                        .with_writer(output.clone())
                        .with_ansi(ansi)
                        .map_event_format(|inner| AccessFormat::new(inner, timer, layout)),
                ),
            ),
            (Layout::Text, false) => tracing::Dispatch::new(
                registry.with(
                    tracing_subscriber::fmt::layer()
                        .with_timer(timer)
                        .with_writer(output.clone())
                        .with_ansi(ansi),
                ),
            ),
            (Layout::Json, true) => tracing::Dispatch::new(
                registry.with(
                    tracing_subscriber::fmt::layer()
                        .json()
                        .flatten_event(true)
                        .with_timer(timer)
                        .with_writer(output.clone())
                        .map_event_format(|inner| AccessFormat::new(inner, timer, layout)),
                ),
            ),
            (Layout::Json, false) => tracing::Dispatch::new(
                registry.with(
                    tracing_subscriber::fmt::layer()
                        .json()
                        .flatten_event(true)
                        .with_timer(timer)
                        .with_writer(output.clone()),
                ),
            ),
        };
        tracing::dispatcher::with_default(&dispatch, emit);
        output.text()
    }

    /// The access line as it was written before AccessFormat: the generic
    /// formatter with `%method, %path`.
    fn generic(method: &str, path: &str, status: u16, micros: u64) {
        tracing::info!(target: ACCESS_TARGET, %method, %path, status, micros, "request");
    }

    #[test]
    fn text_line_is_exactly_the_documented_one() {
        let line = log(Layout::Text, false, true, "info", || {
            request("GET", "/api/events/democon/talks/", 200, 412)
        });
        assert_eq!(
            line,
            "2026-11-25T17:34:00.194707Z  INFO confapi::http::transport: request \
             method=GET path=/api/events/democon/talks/ status=200 micros=412\n"
        );
    }

    #[test]
    fn json_line_is_exactly_the_documented_one() {
        let line = log(Layout::Json, false, true, "info", || {
            request("GET", "/api/events/", 200, 412)
        });
        assert_eq!(
            line,
            "{\"timestamp\":\"2026-11-25T17:34:00.194707Z\",\"level\":\"INFO\",\
             \"message\":\"request\",\"method\":\"GET\",\"path\":\"/api/events/\",\
             \"status\":200,\"micros\":412,\"target\":\"confapi::http::transport\"}\n"
        );
    }

    #[test]
    fn lines_are_the_generic_formatters_byte_for_byte() {
        let cases = [
            ("GET", "/api/events/democon/talks/", 200, 412),
            ("HEAD", "/", 304, 0),
            ("DELETE", "/api/events/x/", 405, u64::MAX),
            // Quotes, backslashes, UTF-8 and control characters: escaped in
            // JSON (hyper never passes the control characters on).
            (
                "GET",
                "/api/\"q\\\u{e9}\u{1}\u{1f}\n\t\r\u{8}\u{c}\u{7f}/",
                404,
                7,
            ),
            ("PURGE", "", 200, 1),
        ];
        // Longer than the line's room on the stack (LINE_CAPACITY).
        let long = format!("/api/{}\"/", "\u{e9}x".repeat(400));
        let cases = cases.into_iter().chain([("GET", long.as_str(), 200, 5)]);
        for (layout, ansi) in [
            (Layout::Text, false),
            (Layout::Text, true),
            (Layout::Json, false),
        ] {
            for (method, path, status, micros) in cases.clone() {
                let ours = log(layout, ansi, true, "info", || {
                    request(method, path, status, micros)
                });
                let theirs = log(layout, ansi, false, "info", || {
                    generic(method, path, status, micros)
                });
                assert_eq!(ours, theirs, "{layout:?}, ansi {ansi}");
                if layout == Layout::Json {
                    assert!(ours.ends_with('\n') && ours.matches('\n').count() == 1);
                }
            }
        }
        let json = log(Layout::Json, false, true, "info", || {
            request("GET", "/a\"b\\c\u{1}", 200, 1)
        });
        let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(parsed["path"], "/a\"b\\c\u{1}");
    }

    #[test]
    fn other_events_keep_the_generic_format() {
        for layout in [Layout::Text, Layout::Json] {
            let emit = || {
                tracing::info!(target: ACCESS_TARGET, method = %"GET", status = 503u16, "request refused");
                tracing::warn!(generation = 3, name = "x y", "catalog loaded");
            };
            assert_eq!(
                log(layout, false, true, "info", emit),
                log(layout, false, false, "info", emit)
            );
        }
    }

    #[test]
    fn the_access_line_follows_the_filter() {
        for layout in [Layout::Text, Layout::Json] {
            let emit = || request("GET", "/api/events/", 200, 1);
            for silent in ["warn", "error", "info,confapi::http=warn", "off"] {
                assert_eq!(log(layout, false, true, silent, emit), "", "{silent}");
            }
            for logged in [
                "info",
                "warn,confapi::http=info",
                "warn,confapi::http::transport=info",
            ] {
                assert_eq!(
                    log(layout, false, true, logged, emit).lines().count(),
                    1,
                    "{logged}"
                );
            }
        }
    }

    #[test]
    fn inside_a_span_the_generic_formatter_shows_the_span() {
        let line = log(Layout::Text, false, true, "info", || {
            let _span = tracing::info_span!("outer", id = 1).entered();
            request("GET", "/", 200, 1);
        });
        assert!(
            line.contains("outer{id=1}: confapi::http::transport: request"),
            "{line}"
        );
    }
}
