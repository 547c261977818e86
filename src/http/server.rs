//! Connections: the accept loop, hyper's HTTP/1.1 settings, the connection
//! limit, JSON bodies for the errors hyper answers itself, and the drain on
//! SIGTERM.
//!
//! Everything here is hyper's and hyper-util's machinery, set up: the
//! header-read timeout is hyper's (`http1::Builder::header_read_timeout`,
//! which also closes a keep-alive connection that stays idle that long),
//! the drain is hyper-util's `GracefulShutdown`, and the request timeout is
//! a tower layer (`super::with_guards`). What we add is small: a semaphore
//! in the accept loop, and `JsonParseErrors` (see there).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tower::Service;

use super::error::ApiError;
use super::AppState;

/// How the server treats connections (the `serve` flags).
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// A client must send a whole request head within this long, counted
    /// from when the connection opens or, on a keep-alive connection, from
    /// the end of the previous answer (so it is also the idle timeout).
    pub header_read_timeout: Duration,
    /// Connections served at once; more are answered 503 and closed.
    pub max_connections: usize,
    /// After SIGTERM, new requests are still served this long (each answer
    /// closing its connection) while `/readyz` says 503.
    pub drain: Duration,
    /// After SIGTERM, the process stops serving within this long, whatever
    /// the clients do; it includes the drain.
    pub shutdown_timeout: Duration,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            header_read_timeout: Duration::from_secs(20),
            max_connections: default_max_connections(),
            drain: Duration::from_secs(5),
            shutdown_timeout: Duration::from_secs(15),
        }
    }
}

/// Connections being answered 503 at once, beyond `max_connections`; past
/// that, more are closed at once without an answer.
const SHED_CONNECTIONS: usize = 256;
/// Longest a shed connection is kept after its 503.
const SHED_LINGER: Duration = Duration::from_millis(250);
/// File descriptors kept free for the database, logs and shedding.
const RESERVED_FILES: u64 = 128 + SHED_CONNECTIONS as u64;

/// The default `--max-connections`: what the open-file limit (`ulimit -n`)
/// allows after a reserve, so that `accept` never fails for lack of file
/// descriptors (which would stall every new client), at most 100,000.
pub fn default_max_connections() -> usize {
    let soft = open_file_limit().unwrap_or(1024);
    soft.saturating_sub(RESERVED_FILES).clamp(64, 100_000) as usize
}

#[cfg(unix)]
fn open_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

#[cfg(not(unix))]
fn open_file_limit() -> Option<u64> {
    None
}

/// Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

/// Serves until `shutdown` completes, then drains: `/readyz` answers 503
/// at once, new connections and requests are still served for
/// `options.drain` with `Connection: close` on every answer; then the
/// listener closes, idle connections close, requests in flight finish, and
/// whatever is still open at `options.shutdown_timeout` after the signal
/// (a client sending its head slowly, a slow download) is cut.
pub async fn serve_with(
    listener: TcpListener,
    state: AppState,
    options: ServeOptions,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let app = super::router(state.clone());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(options.header_read_timeout)
        .keep_alive(true);
    let server = Server {
        app,
        http,
        graceful: GracefulShutdown::new(),
        permits: Arc::new(Semaphore::new(options.max_connections.max(1))),
        shedding: Arc::new(Semaphore::new(SHED_CONNECTIONS)),
        state: state.clone(),
    };
    let mut connections = JoinSet::new();
    let mut background = JoinSet::new();
    if let Some(limiter) = state.limiter.clone() {
        // Forget callers that have their whole budget back, so that the
        // limiter's memory follows the callers of the last minute.
        background.spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(60)).await;
                limiter.retain_recent();
                limiter.shrink_to_fit();
            }
        });
    }

    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => server.accepted(accepted, &mut connections).await,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }

    let deadline = tokio::time::Instant::now() + options.shutdown_timeout;
    state.draining.store(true, Ordering::SeqCst);
    tracing::info!(
        drain_seconds = options.drain.as_secs_f64(),
        shutdown_timeout_seconds = options.shutdown_timeout.as_secs_f64(),
        "shutting down: draining"
    );
    let drained =
        tokio::time::sleep_until(deadline.min(tokio::time::Instant::now() + options.drain));
    tokio::pin!(drained);
    loop {
        tokio::select! {
            () = &mut drained => break,
            accepted = listener.accept() => server.accepted(accepted, &mut connections).await,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);

    // Idle connections close now; the others after their answer.
    let open = server.graceful.count();
    let finished = tokio::time::timeout_at(deadline, server.graceful.shutdown()).await;
    // Shedding answers take at most SHED_LINGER; they are cut here too.
    let cut = connections.len();
    connections.abort_all();
    background.abort_all();
    if finished.is_err() {
        tracing::warn!(
            open_at_drain_end = open,
            cut,
            "shutdown deadline reached: closing the remaining connections"
        );
    } else {
        tracing::info!("shut down: every connection closed");
    }
    Ok(())
}

struct Server {
    app: axum::Router,
    http: hyper::server::conn::http1::Builder,
    graceful: GracefulShutdown,
    permits: Arc<Semaphore>,
    shedding: Arc<Semaphore>,
    state: AppState,
}

impl Server {
    async fn accepted(
        &self,
        accepted: io::Result<(TcpStream, SocketAddr)>,
        connections: &mut JoinSet<()>,
    ) {
        let (stream, address) = match accepted {
            Ok(accepted) => accepted,
            Err(err) => {
                // Out of file descriptors (or another resource): wait a
                // little instead of spinning; other errors concern one
                // client that already left.
                if matches!(
                    err.raw_os_error(),
                    Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
                ) {
                    tracing::warn!(error = %err, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                } else {
                    tracing::debug!(error = %err, "accept failed");
                }
                return;
            }
        };
        let _ = stream.set_nodelay(true);
        let Ok(permit) = self.permits.clone().try_acquire_owned() else {
            self.state.metrics.connection_refused();
            if let Ok(permit) = self.shedding.clone().try_acquire_owned() {
                connections.spawn(async move {
                    shed(stream).await;
                    drop(permit);
                });
            }
            // Else dropped: closed at once.
            return;
        };
        let app = self.app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(address));
            app.clone().call(request)
        });
        let connection = self
            .http
            .serve_connection(TokioIo::new(JsonParseErrors::new(stream)), service);
        let connection = self.graceful.watch(connection);
        let metrics = self.state.metrics.clone();
        metrics.connection_opened();
        connections.spawn(async move {
            if let Err(err) = connection.await {
                // A client that left, or was cut by the header-read timeout.
                tracing::debug!(error = %err, %address, "connection ended");
            }
            metrics.connection_closed();
            drop(permit);
        });
    }
}

/// A connection over `--max-connections`: a 503 in JSON, then closed. The
/// request is read (and dropped) after the answer until the client closes,
/// for at most `SHED_LINGER`, so that closing does not reset the connection
/// before the client has read the answer. (Short: a flood of slow clients
/// would otherwise hold every shedding slot.)
async fn shed(mut stream: TcpStream) {
    let answer = ApiError::TooManyConnections.to_http1(Some(http_date().as_bytes()));
    let _ = tokio::time::timeout(SHED_LINGER, async {
        stream.write_all(&answer).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<_, io::Error>(())
    })
    .await;
}

fn http_date() -> String {
    chrono::Utc::now()
        .format("%a, %d %b %Y %H:%M:%S GMT")
        .to_string()
}

/// Gives a JSON body to the answers hyper writes by itself, without asking
/// the application: `400` for a request it cannot parse (a raw space or `<`
/// in the target, a bad header line), `414` for a target over 64 KiB and
/// `431` for a head over its buffer (about 400 KB) or with more than 100
/// headers. hyper offers no hook for these (it writes a head with
/// `content-length: 0` and closes), and raising its limits cannot help: the
/// 64 KiB target limit is fixed and a request line it cannot parse never
/// reaches a service. So this wrapper of the socket recognises such a head
/// as it is written (one of those statuses with no `content-type`: every
/// answer of the application has one) and writes the error table's answer
/// (`ApiError::to_http1`) in its place. Everything else passes through.
pub struct JsonParseErrors<T> {
    inner: T,
    /// The replacement answer and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
}

impl<T> JsonParseErrors<T> {
    pub fn new(inner: T) -> Self {
        JsonParseErrors {
            inner,
            pending: None,
        }
    }
}

/// The error of one of hyper's own answers, given the start of what is
/// being written; with its `date` header.
fn automatic_error(head: &[u8]) -> Option<(ApiError, Option<&[u8]>)> {
    let error = match head.strip_prefix(b"HTTP/1.1 ")?.get(..4)? {
        b"400 " => ApiError::MalformedRequest,
        b"414 " => ApiError::UriTooLong,
        b"431 " => ApiError::HeadersTooLarge,
        _ => return None,
    };
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    let mut date = None;
    for line in head[..end].split(|&b| b == b'\n').skip(1) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let (name, value) = line.split_at(line.iter().position(|&b| b == b':')?);
        if name.eq_ignore_ascii_case(b"content-type") {
            return None;
        }
        if name.eq_ignore_ascii_case(b"date") {
            date = Some(value[1..].trim_ascii());
        }
    }
    Some((error, date))
}

impl<T: AsyncWrite + Unpin> JsonParseErrors<T> {
    /// Writes what is left of the replacement; Ready(Ok) once all is written.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.pending {
            if *written == bytes.len() {
                self.pending = None;
                break;
            }
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(err)) => return Poll::Ready(Err(err)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `head` over when it is one of hyper's own error answers.
    fn replace(&mut self, head: &[u8]) -> bool {
        if self.pending.is_some() {
            return false;
        }
        match automatic_error(head) {
            Some((error, date)) => {
                self.pending = Some((error.to_http1(date), 0));
                true
            }
            None => false,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonParseErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonParseErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_some() {
            std::task::ready!(this.poll_pending(cx))?;
        } else if this.replace(buf) {
            // hyper's bytes are taken (and dropped); ours go out now or on flush.
            let _ = this.poll_pending(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_some() {
            std::task::ready!(this.poll_pending(cx))?;
        } else if bufs.first().is_some_and(|first| this.replace(first)) {
            let _ = this.poll_pending(cx)?;
            return Poll::Ready(Ok(bufs.iter().map(|b| b.len()).sum()));
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_own_error_heads_are_recognised() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Wed, 25 Nov 2026 14:00:00 GMT\r\n\r\n";
        let (error, date) = automatic_error(head).expect("recognised");
        assert!(matches!(error, ApiError::HeadersTooLarge));
        assert_eq!(date, Some(&b"Wed, 25 Nov 2026 14:00:00 GMT"[..]));
        // Answers of the application carry a content type: left alone.
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
        assert!(automatic_error(ours).is_none());
        assert!(automatic_error(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }

    #[tokio::test]
    async fn the_replacement_is_written_whole_in_place_of_hypers_head() {
        let (client, server) = tokio::io::duplex(64);
        let mut wrapped = JsonParseErrors::new(server);
        let head = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: X\r\n\r\n";
        let reader = tokio::spawn(async move {
            let mut client = client;
            let mut all = Vec::new();
            client.read_to_end(&mut all).await.unwrap();
            all
        });
        wrapped.write_all(head).await.unwrap();
        wrapped.shutdown().await.unwrap();
        drop(wrapped);
        let all = String::from_utf8(reader.await.unwrap()).unwrap();
        let (head, body) = all.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{head}");
        assert!(
            head.contains("\r\ncontent-type: application/json\r\n"),
            "{head}"
        );
        assert!(head.contains("\r\nconnection: close\r\n"), "{head}");
        assert!(head.ends_with("\r\ndate: X"), "{head}");
        assert!(
            head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())),
            "{head}"
        );
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(body).unwrap(),
            serde_json::json!({"detail": "Request URI too long."})
        );
    }
}
