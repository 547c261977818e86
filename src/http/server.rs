//! Connections: the accept loop, hyper's HTTP/1.1 settings, the connection
//! limit, JSON bodies for the errors hyper answers itself, and the drain on
//! SIGTERM.
//!
//! Everything here is hyper's and tokio's machinery, set up: the
//! header-read timeout is hyper's (`http1::Builder::header_read_timeout`,
//! which also closes a keep-alive connection that stays idle that long),
//! the drain is hyper's `graceful_shutdown` on every connection, and the
//! request timeout is a tower layer (`router::with_guards`). What we add is
//! small: a semaphore in the accept loop, the registry that closes idle
//! connections to make room for new ones (`super::connections`), and
//! `JsonParseErrors` (see there).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tower::Service;

use http_body_util::BodyExt;

use super::connections::{Connections, Slot};
use super::error::ApiError;
use super::state::AppState;

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

/// Raises the soft open-file limit to the hard limit, as nginx and most
/// servers do (every connection is a file descriptor, and the soft limit is
/// often 1024); returns the soft limit in force after. Call before
/// `default_max_connections`.
#[cfg(unix)]
pub fn raise_open_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        // An unlimited hard limit cannot be the soft one (the kernel caps
        // it at fs.nr_open): ask for a million, as much as anyone needs.
        let wanted = limit.rlim_max.min(1 << 20);
        if wanted > limit.rlim_cur {
            let raised = libc::rlimit {
                rlim_cur: wanted,
                rlim_max: limit.rlim_max,
            };
            libc::setrlimit(libc::RLIMIT_NOFILE, &raised);
        }
    }
    open_file_limit()
}

#[cfg(not(unix))]
pub fn raise_open_file_limit() -> Option<u64> {
    None
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

/// Connections the kernel queues for `accept` (capped by
/// `net.core.somaxconn`). The standard library's and tokio's 128 overflow
/// under a flood of connections (slow clients reconnecting, a wave of them
/// cut at once), and an overflow drops a new client's SYN, which it resends
/// only after a second. nginx uses 511; this is what the kernel allows.
const LISTEN_BACKLOG: u32 = 4096;

/// Listens on `address` (`HOST:PORT`, the first address it resolves to),
/// with `LISTEN_BACKLOG`.
pub async fn bind(address: &str) -> io::Result<TcpListener> {
    let mut last = None;
    for address in tokio::net::lookup_host(address).await? {
        let socket = if address.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        // As `TcpListener::bind` does: a restart may rebind at once.
        #[cfg(unix)]
        socket.set_reuseaddr(true)?;
        match socket
            .bind(address)
            .and_then(|()| socket.listen(LISTEN_BACKLOG))
        {
            Ok(listener) => return Ok(listener),
            Err(err) => last = Some(err),
        }
    }
    Err(last
        .unwrap_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no address to listen on")))
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
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(options.header_read_timeout)
        .keep_alive(true);
    let (drain, draining) = watch::channel(false);
    let mut server = Server {
        serve: ServeConnection {
            app: super::router::router(state.clone()),
            http,
            open: Arc::new(Connections::default()),
            draining,
            metrics: state.metrics.clone(),
        },
        slots: Slots::new(options.max_connections.max(1)),
        shedding: Arc::new(Semaphore::new(SHED_CONNECTIONS)),
        served: JoinSet::new(),
        shed: JoinSet::new(),
        last_warning: None,
    };
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
            accepted = listener.accept() => server.accepted(accepted).await,
            Some(_) = server.served.join_next(), if !server.served.is_empty() => {}
            Some(_) = server.shed.join_next(), if !server.shed.is_empty() => {}
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
            accepted = listener.accept() => server.accepted(accepted).await,
            Some(_) = server.served.join_next(), if !server.served.is_empty() => {}
            Some(_) = server.shed.join_next(), if !server.shed.is_empty() => {}
        }
    }
    drop(listener);

    // Idle connections close now; the others after their answer.
    let open = server.served.len();
    drain.send_replace(true);
    let finished = tokio::time::timeout_at(deadline, async {
        while server.served.join_next().await.is_some() {}
    })
    .await;
    // Shedding answers take at most SHED_LINGER; they are cut here too.
    let cut = server.served.len() + server.shed.len();
    server.served.abort_all();
    server.shed.abort_all();
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

/// How long a new connection waits for the slot of a connection closed to
/// make room for it (that takes microseconds) before it is shed instead.
const ROOM_WAIT: Duration = Duration::from_secs(1);
/// Connections closed at once to make room when `accept` runs out of file
/// descriptors.
const RECLAIM_ON_EMFILE: usize = 16;

struct Server {
    serve: ServeConnection,
    slots: Slots,
    /// One per connection beyond those: shed, or waiting for a slot.
    shedding: Arc<Semaphore>,
    served: JoinSet<()>,
    shed: JoinSet<()>,
    last_warning: Option<std::time::Instant>,
}

impl Server {
    async fn accepted(&mut self, accepted: io::Result<(TcpStream, SocketAddr)>) {
        let (stream, address) = match accepted {
            Ok(accepted) => accepted,
            Err(err) => return self.accept_failed(err).await,
        };
        let _ = stream.set_nodelay(true);
        if let Some(permit) = self.slots.try_take() {
            self.served
                .spawn(self.serve.clone().run(stream, address, permit));
            return;
        }
        // Every slot is taken. Close a connection that has no request in
        // flight (the oldest still sending its head, else the one idle
        // longest), and serve this one in its slot; if there is none, shed.
        let metrics = self.serve.metrics.clone();
        let Ok(extra) = self.shedding.clone().try_acquire_owned() else {
            // Too many already waiting or being shed: closed at once.
            metrics.connection_refused();
            return;
        };
        if self.serve.open.reclaim(1) == 1 {
            metrics.connection_reclaimed();
            let room = self.slots.wait_for_room(ROOM_WAIT);
            let serve = self.serve.clone();
            self.served.spawn(async move {
                match room.await {
                    Some(permit) => {
                        drop(extra);
                        serve.run(stream, address, permit).await;
                    }
                    _ => {
                        metrics.connection_refused();
                        shed(stream).await;
                        drop(extra);
                    }
                }
            });
        } else {
            metrics.connection_refused();
            self.shed.spawn(async move {
                shed(stream).await;
                drop(extra);
            });
        }
    }

    /// Out of file descriptors (or another resource): close some idle
    /// connections to make room and wait a little instead of spinning;
    /// other errors concern one client that already left.
    async fn accept_failed(&mut self, err: io::Error) {
        if !matches!(
            err.raw_os_error(),
            Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
        ) {
            tracing::debug!(error = %err, "accept failed");
            return;
        }
        let reclaimed = self.serve.open.reclaim(RECLAIM_ON_EMFILE);
        for _ in 0..reclaimed {
            self.serve.metrics.connection_reclaimed();
        }
        // One warning a second at most: this can repeat thousands of times.
        let now = std::time::Instant::now();
        if self
            .last_warning
            .is_none_or(|last| now.duration_since(last) >= Duration::from_secs(1))
        {
            self.last_warning = Some(now);
            tracing::warn!(error = %err, reclaimed, "cannot accept a connection");
        }
        // Reclaimed connections close within microseconds; with none, back
        // off longer (pending clients wait in the listen backlog).
        let pause = if reclaimed > 0 { 2 } else { 50 };
        tokio::time::sleep(Duration::from_millis(pause)).await;
    }
}

/// The connection slots (`--max-connections`), and the connections
/// waiting for the slot of one closed to make room for them.
struct Slots {
    permits: Arc<Semaphore>,
    awaiting_room: Arc<AtomicUsize>,
}

impl Slots {
    fn new(count: usize) -> Self {
        Slots {
            permits: Arc::new(Semaphore::new(count)),
            awaiting_room: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// A free slot, unless it is one made for a waiting connection: the
    /// connection closed for it may give its slot back before the waiting
    /// one asks, and a newer connection taking it would leave the waiting
    /// one to wait for the next connection to make room (hundreds of
    /// milliseconds at the start of a flood of slow clients).
    fn try_take(&self) -> Option<OwnedSemaphorePermit> {
        if self.permits.available_permits() <= self.awaiting_room.load(Ordering::SeqCst) {
            return None;
        }
        self.permits.clone().try_acquire_owned().ok()
    }

    /// A slot for a connection that had one closed for it, within `limit`.
    /// It counts as waiting from this call on, before the future runs.
    fn wait_for_room(
        &self,
        limit: Duration,
    ) -> impl Future<Output = Option<OwnedSemaphorePermit>> + Send + 'static {
        self.awaiting_room.fetch_add(1, Ordering::SeqCst);
        let waiting = AwaitingRoom(self.awaiting_room.clone());
        let permits = self.permits.clone();
        async move {
            let permit = tokio::time::timeout(limit, permits.acquire_owned()).await;
            drop(waiting);
            permit.ok()?.ok()
        }
    }
}

/// Counts one connection in `Slots::awaiting_room` until dropped.
struct AwaitingRoom(Arc<AtomicUsize>);

impl Drop for AwaitingRoom {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What serving one connection needs.
#[derive(Clone)]
struct ServeConnection {
    app: axum::Router,
    http: hyper::server::conn::http1::Builder,
    open: Arc<Connections>,
    /// Becomes true at the end of the drain: close when idle.
    draining: watch::Receiver<bool>,
    metrics: Arc<super::metrics::Metrics>,
}

impl ServeConnection {
    async fn run(self, stream: TcpStream, address: SocketAddr, permit: OwnedSemaphorePermit) {
        let ServeConnection {
            app,
            http,
            open,
            mut draining,
            metrics,
        } = self;
        let slot = open.open();
        let service = {
            let slot = slot.clone();
            let open = open.clone();
            hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(address));
                request
                    .extensions_mut()
                    .insert(super::connections::ThisConnection(slot.clone()));
                if slot.request_started() {
                    open.first_request(&slot);
                }
                let finished = RequestFinished(slot.clone());
                let answer = app.clone().call(request);
                async move {
                    let response = answer.await?;
                    // The answer is handed to hyper whole when hyper drops
                    // its body.
                    Ok::<_, std::convert::Infallible>(response.map(|body| {
                        axum::body::Body::new(body.map_frame(move |frame| {
                            let _keep = &finished;
                            frame
                        }))
                    }))
                }
            })
        };
        let io = TokioIo::new(Flushes {
            inner: JsonParseErrors::new(stream),
            slot: slot.clone(),
        });
        metrics.connection_opened();
        let result = {
            let connection = http.serve_connection(io, service);
            tokio::pin!(connection);
            let (mut closing, mut reclaimed) = (false, false);
            loop {
                tokio::select! {
                    result = connection.as_mut() => break Some(result),
                    () = slot.cut_requested() => break None,
                    () = slot.reclaimed(), if !reclaimed => {
                        reclaimed = true;
                        // Exact here: only this task moves the slot's counters.
                        if slot.is_idle() {
                            break None;
                        }
                        // A request arrived meanwhile: close after its answer.
                        connection.as_mut().graceful_shutdown();
                    }
                    Ok(_) = draining.wait_for(|draining| *draining), if !closing => {
                        closing = true;
                        connection.as_mut().graceful_shutdown();
                    }
                }
            }
            // The connection (ended, or reclaimed) is dropped here, which
            // closes the socket.
        };
        if let Some(Err(err)) = result {
            // A client that left, or was cut by the header-read timeout.
            tracing::debug!(error = %err, %address, "connection ended");
        }
        open.close(&slot);
        metrics.connection_closed();
        drop(permit);
    }
}

/// Dropped with a response body: its answer has been handed to hyper.
struct RequestFinished(Arc<Slot>);

impl Drop for RequestFinished {
    fn drop(&mut self) {
        self.0.request_finished();
    }
}

/// The connection's socket, noting when hyper has flushed everything it
/// was given: hyper flushes the socket only once its own write buffer is
/// empty, so then every finished answer is on the wire.
struct Flushes<T> {
    inner: T,
    slot: Arc<Slot>,
}

impl<T: AsyncRead + Unpin> AsyncRead for Flushes<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Flushes<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let flushed = Pin::new(&mut self.inner).poll_flush(cx);
        if let Poll::Ready(Ok(())) = flushed {
            self.slot.flushed();
        }
        flushed
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
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

/// Serves until Ctrl-C or SIGTERM with the default connection settings,
/// then drains and stops (`serve_with`).
pub async fn serve(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    serve_with(listener, state, ServeOptions::default(), shutdown_signal()).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_slot_made_for_a_waiting_connection_is_its_own() {
        let slots = Slots::new(1);
        let held = slots.try_take().expect("a free slot");
        assert!(slots.try_take().is_none());
        // A new connection: the held one is closed to make room for it, and
        // gives its slot back before the new one asks for it.
        let room = slots.wait_for_room(Duration::from_secs(1));
        drop(held);
        assert!(
            slots.try_take().is_none(),
            "a newer connection took the slot made for the waiting one"
        );
        let permit = room.await.expect("the waiting connection gets the slot");
        assert!(slots.try_take().is_none());
        drop(permit);
        assert!(slots.try_take().is_some());
    }

    #[tokio::test]
    async fn a_connection_waits_for_room_no_longer_than_its_limit() {
        let slots = Slots::new(1);
        let held = slots.try_take().expect("a free slot");
        let started = std::time::Instant::now();
        assert!(slots
            .wait_for_room(Duration::from_millis(50))
            .await
            .is_none());
        assert!(started.elapsed() >= Duration::from_millis(50));
        // It no longer counts as waiting: a slot given back is free for all.
        drop(held);
        assert!(slots.try_take().is_some());
    }

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
