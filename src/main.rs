//! The `confapi` command line: serve, import, export, validate, demo.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

/// Imports and snapshot builds allocate millions of small strings; mimalloc
/// makes that markedly cheaper than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use confapi::cache::CatalogCache;
use confapi::dataset::{self, demo, validate};
use confapi::http::{self, AppState, Config};
use confapi::model::Dataset;
use confapi::storage;

#[derive(Parser)]
#[command(
    name = "confapi",
    version,
    about = "Read API of a conference CfP and scheduling system (pretalx-compatible)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Log lines as text or as one JSON object per line.
    #[arg(long, global = true, env = "CONFAPI_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Log level (error, warn, info, debug, trace) or a full filter
    /// (`warn,confapi::http=info`); wins over RUST_LOG and CONFAPI_LOG.
    #[arg(long, global = true)]
    log_level: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

fn seconds(text: &str) -> Result<std::time::Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    std::time::Duration::try_from_secs_f64(value)
        .map_err(|_| format!("{text:?} is not a number of seconds"))
}

const DEFAULT_DB: &str = "sqlite://confapi.db";

/// Database connection settings, shared by every command.
#[derive(clap::Args, Clone)]
struct DbArgs {
    /// Database URL: sqlite://FILE or postgres://USER@HOST:PORT/DB.
    #[arg(long, env = "CONFAPI_DB", default_value = DEFAULT_DB)]
    db: String,
    /// Connections per process.
    #[arg(long, env = "CONFAPI_DB_POOL_SIZE", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    db_pool_size: u32,
    /// Milliseconds a request waits for a database connection before answering 503.
    #[arg(long, env = "CONFAPI_DB_CONNECT_TIMEOUT_MS", default_value_t = 3000)]
    db_connect_timeout_ms: u64,
    /// Longest a statement may run, in milliseconds.
    #[arg(long, env = "CONFAPI_DB_STATEMENT_TIMEOUT_MS", default_value_t = 30000)]
    db_statement_timeout_ms: u64,
}

impl DbArgs {
    /// Opens the database; `create`: a missing SQLite file is created
    /// rather than an error.
    async fn open(&self, create: bool) -> Result<Arc<dyn storage::Store>, String> {
        let settings = storage::DbSettings {
            pool_size: self.db_pool_size,
            connect_timeout: std::time::Duration::from_millis(self.db_connect_timeout_ms),
            statement_timeout: std::time::Duration::from_millis(self.db_statement_timeout_ms),
            create_if_missing: create,
        };
        storage::open_with(&self.db, &settings)
            .await
            .map_err(|e| e.to_string())
    }
}

#[derive(Subcommand)]
enum Command {
    /// Mirror a pretalx (2025 versioned API or 2024 legacy API) into the database; see docs/sync.md.
    Sync {
        #[command(flatten)]
        db: DbArgs,
        /// The upstream's origin, e.g. https://pretalx.example.org.
        #[arg(long)]
        from: String,
        /// An organiser or administrator API token of the upstream (never printed or stored).
        #[arg(long, env = "CONFAPI_SYNC_TOKEN", hide_env_values = true)]
        token: String,
        /// Events to mirror (default: every event the token sees).
        #[arg(long = "event")]
        events: Vec<String>,
        /// A dataset document with users, teams and review phases.
        #[arg(long)]
        access: Option<PathBuf>,
        /// Keep syncing at this interval (e.g. 60s, 5m).
        #[arg(long, value_parser = confapi::sync::parse_interval)]
        every: Option<std::time::Duration>,
        /// Seconds before a request to the upstream is given up (then retried).
        #[arg(long, default_value_t = 30)]
        timeout: u64,
        /// The upstream's API: pretalx's versioned API as `v2` (pretalx 2026.2
        /// and later) or `v1` (2025.x, 2026.x), the `legacy` one (pretalx
        /// 2024.x, confapi), or `auto` (the release pretalx names at `GET
        /// /api/`, else v1 where the upstream has it).
        #[arg(long, value_enum, default_value_t = confapi::sync::Api::Auto)]
        api: confapi::sync::Api,
        /// With v1 or v2: the pretalx organiser (its slug) whose teams to
        /// mirror; where the upstream refuses the token its teams (pretalx
        /// 2026.2: a token bound to some events), they come from the access
        /// file, with one line saying so.
        #[arg(long)]
        organiser: Option<String>,
        /// A PEM file of one or more CA certificates to trust for an https
        /// upstream, besides the system's and webpki's roots.
        #[arg(long, env = "CONFAPI_SYNC_CA_CERT", value_name = "FILE")]
        ca_cert: Option<PathBuf>,
        /// The largest answer read from the upstream, in bytes, counted
        /// decompressed; a larger one fails the round at once.
        #[arg(long, env = "CONFAPI_SYNC_MAX_RESPONSE_SIZE", value_name = "BYTES",
              default_value_t = confapi::sync::client::DEFAULT_MAX_BODY,
              value_parser = clap::value_parser!(u64).range(1..))]
        max_response_size: u64,
        /// How long one round may read the upstream, retries included (e.g.
        /// 90s, 30m); past it the round fails and nothing changes.
        #[arg(long, env = "CONFAPI_SYNC_ROUND_TIMEOUT", value_parser = confapi::sync::parse_interval,
              default_value = "30m")]
        round_timeout: std::time::Duration,
        /// A host (besides the upstream's own) that the upstream's
        /// redirects may lead to; may be given more than once.
        #[arg(
            long = "allow-redirect-host",
            env = "CONFAPI_SYNC_ALLOW_REDIRECT_HOSTS",
            value_delimiter = ',',
            value_name = "HOST"
        )]
        redirect_hosts: Vec<String>,
    },
    /// Serve the API.
    Serve {
        #[command(flatten)]
        db: DbArgs,
        /// Address to listen on.
        #[arg(long, env = "CONFAPI_LISTEN", default_value = "127.0.0.1:8000")]
        listen: String,
        /// Public base URL for links (default: from each request's Host).
        #[arg(long, env = "CONFAPI_BASE_URL")]
        base_url: Option<String>,
        /// Load the built-in demo conference when the database holds no event.
        #[arg(long)]
        demo: bool,
        /// Largest page size a client may ask for; larger ones are clamped.
        #[arg(long, env = "CONFAPI_MAX_PAGE_SIZE", default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
        max_page_size: u32,
        /// How often to ask the database whether an import has committed, in
        /// milliseconds; a committed import is served within about this long
        /// (plus the time to load what changed).
        #[arg(long, env = "CONFAPI_POLL_INTERVAL_MS", default_value_t = 100, value_parser = clap::value_parser!(u64).range(10..))]
        poll_interval_ms: u64,
        /// Memory for rendered answers, in MiB (0: every request renders).
        #[arg(long, env = "CONFAPI_CACHE_MB", default_value_t = 192, value_parser = clap::value_parser!(u64).range(0..=1 << 20))]
        cache_mb: u64,
        /// Memory for the lists' visible sets (what each class of callers
        /// sees of a list, after filters), in MiB (0: every list request
        /// scans its list).
        #[arg(long, env = "CONFAPI_LIST_CACHE_MB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(0..=1 << 20))]
        list_cache_mb: u64,
        /// A client must send a whole request head within this many
        /// milliseconds (counted from the connection's start, or from the
        /// previous answer on a keep-alive connection: also the idle timeout).
        #[arg(long, env = "CONFAPI_HEADER_READ_TIMEOUT_MS", default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
        header_read_timeout_ms: u64,
        /// A request whose handler takes longer answers 503, in milliseconds.
        #[arg(long, env = "CONFAPI_REQUEST_TIMEOUT_MS", default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..))]
        request_timeout_ms: u64,
        /// The API version of requests without a `Pretalx-Version` header
        /// whose token names none: `legacy` (pretalx 2024's API, what
        /// today's legacy clients expect), or `v2` (what pretalx 2026.2
        /// answers such requests with), `v-next` or `v1` (all three the
        /// versioned API).
        #[arg(long, env = "CONFAPI_API_VERSION", value_enum, default_value_t = confapi::model::ApiVersion::Legacy)]
        api_version: confapi::model::ApiVersion,
        /// Change-feed events a stream (Server-Sent Events) holds for a
        /// reader that does not keep up; one more and its connection is cut
        /// (it reconnects with `Last-Event-ID` and misses nothing).
        #[arg(long, env = "CONFAPI_STREAM_BUFFER", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        stream_buffer: u64,
        /// Webhook subscriptions besides the datasets' own: a JSON list of
        /// `{"event", "url", "secret", "as", "kinds"}` (docs/operations.md,
        /// "Webhooks").
        #[arg(long, env = "CONFAPI_WEBHOOKS")]
        webhooks: Option<PathBuf>,
        /// Allow webhook receivers on private, loopback and link-local
        /// addresses (refused by default: a subscription must not reach
        /// inside the network confapi runs in).
        #[arg(long, env = "CONFAPI_WEBHOOKS_ALLOW_PRIVATE")]
        webhooks_allow_private: bool,
        /// PEM certificates trusted for https webhook receivers besides the
        /// system's and webpki's roots (a private CA).
        #[arg(long, env = "CONFAPI_WEBHOOKS_CA_CERT")]
        webhooks_ca_cert: Option<PathBuf>,
        /// Connections served at once; beyond it, a connection with no
        /// request in flight is closed to make room, else the new one is
        /// answered 503 and closed (default: the open-file limit, raised
        /// to the hard limit at start, less 384).
        #[arg(long, env = "CONFAPI_MAX_CONNECTIONS", value_parser = clap::value_parser!(u64).range(1..))]
        max_connections: Option<u64>,
        /// Requests per second allowed per token, or per client address for
        /// anonymous callers; more answer 429 (default: no limit).
        #[arg(long, env = "CONFAPI_RATE_LIMIT")]
        rate_limit: Option<std::num::NonZeroU32>,
        /// After SIGTERM, seconds during which new requests are still served
        /// (with `Connection: close`) while /readyz answers 503.
        #[arg(long, env = "CONFAPI_DRAIN_SECONDS", default_value = "5", value_parser = seconds)]
        drain_seconds: std::time::Duration,
        /// After SIGTERM, seconds within which the process exits, whatever
        /// the clients do (includes the drain).
        #[arg(long, env = "CONFAPI_SHUTDOWN_TIMEOUT", default_value = "15", value_parser = seconds)]
        shutdown_timeout: std::time::Duration,
    },
    /// Validate datasets and load them (each event replaces the stored one of the same slug).
    Import {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        db: DbArgs,
        /// Validate only; change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Write the stored data as a dataset.
    Export {
        #[command(flatten)]
        db: DbArgs,
        /// Only these events (repeatable); default all.
        #[arg(long = "event")]
        events: Vec<String>,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Check datasets without loading them.
    Validate {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Generate a deterministic synthetic dataset.
    Demo {
        #[arg(long, default_value_t = 2)]
        events: usize,
        /// Submissions per event.
        #[arg(long, default_value_t = 120)]
        submissions: usize,
        #[arg(long, default_value_t = 2026)]
        seed: u64,
        /// Only the published dataset format (shared/spec/dataset.md), without
        /// confapi's extensions (private resources, the v1 fields), for tools
        /// that know only it.
        #[arg(long)]
        portable: bool,
        #[arg(short, long)]
        output: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A command that builds a dataset and ends (import, sync, export, ...)
    // pays for huge pages when it first touches them and gains nothing; a
    // server's snapshot is read for hours, and its lists are served faster
    // with them (fewer TLB misses: docs/bench-log.md, "Transparent huge
    // pages off, and the sync's copies").
    if !matches!(cli.command, Command::Serve { .. }) {
        confapi::memory::disable_transparent_huge_pages();
    }
    // Lines are written by a background thread; the guard flushes what is
    // queued when `main` returns.
    let _log_guard = init_logging(cli.log_format, cli.log_level.as_deref());
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(run(cli.command));
    // Work still running in the background (a catalog being rebuilt after
    // the server stopped) must not delay the exit past --shutdown-timeout.
    runtime.shutdown_background();
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Log filter: `--log-level` when given, else `RUST_LOG` when set (full
/// `EnvFilter` syntax, e.g. `warn,confapi=info`), else `CONFAPI_LOG` (a
/// level), else `info`. sqlx's routine notices ("relation already exists")
/// are kept at warn and above unless a full filter asks for them.
fn log_filter(flag: Option<&str>) -> tracing_subscriber::EnvFilter {
    use tracing_subscriber::EnvFilter;
    for (name, directives) in [
        ("--log-level", flag.map(str::to_string)),
        ("RUST_LOG", std::env::var("RUST_LOG").ok()),
    ] {
        let Some(directives) = directives else {
            continue;
        };
        let bare_level = directives.parse::<tracing::Level>().ok();
        if let Some(level) = bare_level.filter(|_| name == "--log-level") {
            let sqlx = level.min(tracing::Level::WARN);
            return EnvFilter::new(format!("{level},sqlx={sqlx}"));
        }
        if let Ok(filter) = EnvFilter::try_new(&directives) {
            return filter;
        }
        eprintln!("warning: ignoring {name}={directives:?}: not a valid filter");
    }
    let level = std::env::var("CONFAPI_LOG")
        .ok()
        .and_then(|l| l.parse::<tracing::Level>().ok())
        .unwrap_or(tracing::Level::INFO);
    let sqlx = level.min(tracing::Level::WARN);
    EnvFilter::new(format!("{level},sqlx={sqlx}"))
}

/// Logs to stderr from a background thread, in batches
/// (`confapi::log_writer`): a request never waits for the terminal or the
/// log collector. If the output blocks and 32 MiB of lines (about 128,000
/// access lines) are waiting, further lines are dropped (and counted in
/// the log) rather than slowing requests down.
fn init_logging(format: LogFormat, level: Option<&str>) -> confapi::log_writer::Guard {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let registry = tracing_subscriber::registry().with(log_filter(level));
    let (writer, guard) = confapi::log_writer::batch_writer(std::io::stderr());
    let timer = confapi::log_writer::Timestamps;
    // The access line is written by access_log::AccessFormat, every other
    // event by tracing_subscriber's formatter.
    use confapi::access_log::{AccessFormat, Layout};
    match format {
        LogFormat::Text => registry
            .with(
                tracing_subscriber::fmt::layer()
                    .with_timer(timer)
                    .with_writer(writer)
                    .with_ansi(std::io::stderr().is_terminal())
                    .map_event_format(|inner| AccessFormat::new(inner, timer, Layout::Text)),
            )
            .init(),
        LogFormat::Json => registry
            .with(
                tracing_subscriber::fmt::layer()
                    .json()
                    .flatten_event(true)
                    .with_timer(timer)
                    .with_writer(writer)
                    .map_event_format(|inner| AccessFormat::new(inner, timer, Layout::Json)),
            )
            .init(),
    }
    guard
}

async fn run(command: Command) -> Result<ExitCode, String> {
    match command {
        Command::Sync {
            db,
            from,
            token,
            events,
            access,
            every,
            timeout,
            api,
            organiser,
            ca_cert,
            max_response_size,
            round_timeout,
            redirect_hosts,
        } => {
            // Before anything is opened or requested: a wrong file is a
            // setup error, not a failed round.
            let ca_certs = match &ca_cert {
                None => Vec::new(),
                Some(file) => {
                    confapi::sync::client::read_ca_certs(file).map_err(|e| e.to_string())?
                }
            };
            let access = match &access {
                None => None,
                Some(file) => Some(
                    std::fs::read_to_string(file)
                        .map_err(|e| format!("{}: cannot read: {e}", file.display()))
                        .and_then(|text| {
                            serde_json::from_str(&text)
                                .map_err(|e| format!("{}: not JSON: {e}", file.display()))
                        })?,
                ),
            };
            let options = confapi::sync::Options {
                from,
                token,
                events,
                access,
                timeout: std::time::Duration::from_secs(timeout),
                api,
                organiser,
                ca_certs,
                max_body: max_response_size,
                round_timeout,
                redirect_hosts,
            };
            let store = db.open(true).await?;
            sync_rounds(&options, store.as_ref(), every).await
        }
        Command::Serve {
            db,
            listen,
            base_url,
            demo,
            max_page_size,
            poll_interval_ms,
            cache_mb,
            list_cache_mb,
            header_read_timeout_ms,
            request_timeout_ms,
            api_version,
            stream_buffer,
            webhooks,
            webhooks_allow_private,
            webhooks_ca_cert,
            max_connections,
            rate_limit,
            drain_seconds,
            shutdown_timeout,
        } => {
            if drain_seconds > shutdown_timeout {
                return Err(format!(
                    "--drain-seconds ({}) must not exceed --shutdown-timeout ({})",
                    drain_seconds.as_secs_f64(),
                    shutdown_timeout.as_secs_f64()
                ));
            }
            let subscriptions = match &webhooks {
                None => Vec::new(),
                Some(path) => {
                    let text = std::fs::read_to_string(path)
                        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                    confapi::webhooks::read_file(&text).map_err(|problems| {
                        format!("{}: {}", path.display(), problems.join("; "))
                    })?
                }
            };
            let ca_certs = match &webhooks_ca_cert {
                None => Vec::new(),
                Some(path) => confapi::sync::client::read_ca_certs(path)
                    .map_err(|e| e.to_string().replace("--ca-cert", "--webhooks-ca-cert"))?,
            };
            // Only `--demo` creates a missing database: a typo in --db must
            // not serve an empty one.
            let store = db.open(demo).await?;
            if demo {
                load_demo_if_empty(&*store).await?;
            }
            let state = AppState::new(
                CatalogCache::start(store, std::time::Duration::from_millis(poll_interval_ms)),
                Config {
                    base_url,
                    max_page_size: max_page_size as usize,
                    response_cache_bytes: cache_mb << 20,
                    list_cache_bytes: list_cache_mb << 20,
                    rate_limit,
                    request_timeout: std::time::Duration::from_millis(request_timeout_ms),
                    api_version,
                    stream_buffer: stream_buffer as usize,
                    ..Config::default()
                },
            );
            confapi::webhooks::start(
                state.cache.clone(),
                state.webhooks.clone(),
                confapi::webhooks::Options {
                    subscriptions,
                    allow_private: webhooks_allow_private,
                    ca_certs,
                },
            );
            // Before the default --max-connections, which follows it.
            let open_files = http::server::raise_open_file_limit();
            let options = http::server::ServeOptions {
                header_read_timeout: std::time::Duration::from_millis(header_read_timeout_ms),
                max_connections: max_connections
                    .map_or_else(http::server::default_max_connections, |n| n as usize),
                drain: drain_seconds,
                shutdown_timeout,
            };
            let listener = http::server::bind(&listen)
                .await
                .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
            let address = listener.local_addr().map_err(|e| e.to_string())?;
            tracing::info!(
                %address,
                max_connections = options.max_connections,
                open_file_limit = open_files,
                "confapi serving"
            );
            eprintln!("confapi listening on http://{address}/api/events/");
            http::server::serve_with(listener, state, options, http::server::shutdown_signal())
                .await
                .map_err(|e| e.to_string())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Import { files, db, dry_run } => {
            let Some(texts) = read_files(&files) else {
                return Ok(ExitCode::FAILURE);
            };
            let texts: Vec<Arc<String>> = texts.into_iter().map(Arc::new).collect();
            // The outline of a single file (`dataset::outline`), taken on
            // the other core from now on: an import of a text edit compares
            // it, a whole import keeps it for the next one.
            let mut outline = match (dry_run, texts.as_slice()) {
                (false, [text]) => dataset::outline::Pending::start(Arc::clone(text)),
                _ => dataset::outline::Pending::default(),
            };
            // The same bytes as the import that left the stored data as it
            // is: nothing to parse, nothing to write.
            let options = storage::ImportOptions {
                digest: Some(storage::import_digest(
                    &texts.iter().map(|t| t.as_bytes()).collect::<Vec<_>>(),
                    storage::ImportOptions::default(),
                )),
                ..Default::default()
            };
            // A database that does not exist yet (or cannot be opened) is
            // created or reported after validation, as before.
            let mut opened = None;
            if !dry_run {
                if let Ok(store) = db.open(false).await {
                    opened = Some(store);
                }
            }
            if let Some(store) = &opened {
                let digest = options.digest.unwrap_or_default();
                let unchanged = store
                    .unchanged_import(digest)
                    .await
                    .map_err(|e| e.to_string())?;
                if let Some(generation) = unchanged {
                    eprintln!(
                        "{}: nothing changed (generation {generation}; the same bytes as the import that wrote it)",
                        files
                            .iter()
                            .map(|f| f.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    return Ok(ExitCode::SUCCESS);
                }
            }
            // One file changed in a few submissions' texts since it was
            // imported last: write those alone (`storage::edits`).
            if let (Some(store), [text]) = (&opened, texts.as_slice()) {
                let digest = options.digest.unwrap_or_default();
                let started = std::time::Instant::now();
                let edited =
                    storage::edits::import_file(store.as_ref(), text, digest, &mut outline)
                        .await
                        .map_err(|e| e.to_string())?;
                tracing::debug!(elapsed = ?started.elapsed(), whole = matches!(edited, storage::edits::Edited::Whole), "import: text edits tried");
                if let storage::edits::Edited::Done(done) = edited {
                    let names = files
                        .iter()
                        .map(|f| f.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ");
                    // The process ends now: unmapping the text would only
                    // delay the exit.
                    std::mem::forget(texts);
                    if done.records_written == 0 {
                        eprintln!("{names}: nothing changed (generation {})", done.generation);
                    } else {
                        eprintln!(
                            "imported {names}: {} record(s) written, event(s) changed: {} (generation {}; only the submissions whose texts changed were read)",
                            done.records_written,
                            done.changed_events.join(", "),
                            done.generation
                        );
                    }
                    return Ok(ExitCode::SUCCESS);
                }
            }
            let parsed = parse_datasets(
                &files,
                &texts.iter().map(|t| t.as_str()).collect::<Vec<_>>(),
            );
            let Some(dataset) = parsed else {
                return Ok(ExitCode::FAILURE);
            };
            // The text is no longer needed (the model owns its strings).
            drop(texts);
            if dry_run {
                eprintln!("{}: valid (dry run, nothing written)", summary(&dataset));
                return Ok(ExitCode::SUCCESS);
            }
            let store = match opened {
                Some(store) => store,
                None => db.open(true).await?,
            };
            let bar = std::io::stderr().is_terminal().then(|| {
                let bar = indicatif::ProgressBar::new(0)
                    .with_message(format!("importing {}", summary(&dataset)));
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{msg} [{bar:40}] {pos}/{len} records ({eta})",
                    )
                    .expect("a valid template")
                    .progress_chars("=> "),
                );
                bar
            });
            let shown = bar.clone();
            let report = move |done: u64, total: u64| {
                if let Some(bar) = &shown {
                    bar.set_length(total);
                    bar.set_position(done);
                }
            };
            let counts = summary(&dataset);
            let started = std::time::Instant::now();
            let result = store.import_with(&dataset, options, Some(&report)).await;
            tracing::debug!(elapsed = ?started.elapsed(), "imported");
            if result.is_ok() {
                storage::edits::keep_outline(
                    store.as_ref(),
                    outline.into_outline(),
                    &dataset,
                    options.digest.unwrap_or_default(),
                )
                .await
                .unwrap_or_else(|e| tracing::warn!(error = %e, "the file's outline was not kept"));
            }
            // The process ends now: freeing a model of millions of strings
            // would only delay the exit.
            std::mem::forget(dataset);
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            match result {
                Ok(done) if done.records_written == 0 => {
                    eprintln!(
                        "{}: nothing changed (generation {})",
                        counts, done.generation
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Ok(done) => {
                    eprintln!(
                        "imported {}: {} record(s) written, event(s) changed: {} (generation {})",
                        counts,
                        done.records_written,
                        done.changed_events.join(", "),
                        done.generation
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(storage::StoreError::Rejected(problems)) => {
                    for problem in &problems {
                        eprintln!("{problem}");
                    }
                    eprintln!(
                        "{} problem(s) with the stored data; nothing was written",
                        problems.len()
                    );
                    Ok(ExitCode::FAILURE)
                }
                Err(err) => Err(err.to_string()),
            }
        }
        Command::Export { db, events, output } => {
            let store = db.open(false).await?;
            let dataset = store.export(&events).await.map_err(|e| e.to_string())?;
            for slug in &events {
                if !dataset
                    .events
                    .iter()
                    .any(|e| e.slug.eq_ignore_ascii_case(slug))
                {
                    return Err(format!("no event {slug:?} is stored"));
                }
            }
            write_json(&dataset::export::Document::new(&dataset), output.as_ref())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Validate { files } => match read_datasets(&files) {
            Some(dataset) => {
                eprintln!("{}: valid", summary(&dataset));
                Ok(ExitCode::SUCCESS)
            }
            None => Ok(ExitCode::FAILURE),
        },
        Command::Demo {
            events,
            submissions,
            seed,
            portable,
            output,
        } => {
            let (mut dataset, logins) = demo::generate(&demo::DemoOptions {
                events,
                submissions,
                seed,
            });
            if portable {
                demo::portable(&mut dataset);
            }
            write_json(&dataset::export::Document::new(&dataset), Some(&output))?;
            eprintln!("wrote {} to {}", summary(&dataset), output.display());
            print_logins(&logins);
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn summary(dataset: &Dataset) -> String {
    let submissions: usize = dataset.events.iter().map(|e| e.submissions.len()).sum();
    format!(
        "{} users, {} events, {} submissions",
        dataset.users.len(),
        dataset.events.len(),
        submissions
    )
}

fn progress(message: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner().with_message(message.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(100));
    Some(bar)
}

/// Reads, validates and merges dataset files. Prints every problem of every
/// file (with its JSON path) and returns None if there is any.
fn read_datasets(files: &[PathBuf]) -> Option<Dataset> {
    let texts = read_files(files)?;
    parse_datasets(files, &texts.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Reads every file as text; prints each that cannot be read and returns
/// None if any.
fn read_files(files: &[PathBuf]) -> Option<Vec<String>> {
    let started = std::time::Instant::now();
    let mut texts = Vec::new();
    let mut failed = false;
    for file in files {
        match dataset::read_text(file) {
            Ok(text) => texts.push(text),
            Err(err) => {
                eprintln!("{}: cannot read: {err}", file.display());
                failed = true;
            }
        }
    }
    tracing::debug!(elapsed = ?started.elapsed(), "read");
    (!failed).then_some(texts)
}

/// Validates and merges the texts of `files`, as `read_datasets`.
fn parse_datasets(files: &[PathBuf], texts: &[&str]) -> Option<Dataset> {
    let mut merged = Dataset::default();
    let mut failed = false;
    for (file, text) in files.iter().zip(texts) {
        let bar = progress(&format!("reading {}", file.display()));
        let started = std::time::Instant::now();
        let parsed = validate::parse_str(text);
        tracing::debug!(elapsed = ?started.elapsed(), file = %file.display(), "validated");
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        match parsed {
            Ok(dataset) => {
                if let Err(problems) = dataset::merge(&mut merged, dataset) {
                    for problem in problems {
                        eprintln!("{}: {problem}", file.display());
                    }
                    failed = true;
                }
            }
            Err(problems) => {
                for problem in &problems {
                    eprintln!("{}: {problem}", file.display());
                }
                eprintln!(
                    "{}: {} problem(s); nothing was written",
                    file.display(),
                    problems.len()
                );
                failed = true;
            }
        }
    }
    (!failed).then_some(merged)
}

/// Streams `value` as pretty JSON to `output` (default: standard output).
fn write_json(value: &impl serde::Serialize, output: Option<&PathBuf>) -> Result<(), String> {
    let (sink, name): (Box<dyn Write>, String) = match output {
        Some(path) => (
            Box::new(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            ),
            path.display().to_string(),
        ),
        None => (Box::new(std::io::stdout().lock()), "standard output".into()),
    };
    let mut sink = std::io::BufWriter::with_capacity(1 << 20, sink);
    serde_json::to_writer_pretty(&mut sink, value)
        .map_err(|e| e.to_string())
        .and_then(|()| sink.write_all(b"\n").map_err(|e| e.to_string()))
        .and_then(|()| sink.flush().map_err(|e| e.to_string()))
        .map_err(|e| format!("cannot write {name}: {e}"))
}

fn print_logins(logins: &[demo::DemoLogin]) {
    eprintln!("logins (Authorization: Token <token>):");
    for login in logins {
        eprintln!("  {:<12} {:<28} {}", login.role, login.email, login.token);
    }
}

/// `serve --demo`: a new user sees a realistic conference at once.
async fn load_demo_if_empty(store: &dyn storage::Store) -> Result<(), String> {
    let (dataset, logins) = demo::generate(&demo::DemoOptions::default());
    if store.event_count().await.map_err(|e| e.to_string())? == 0 {
        store
            .import(&dataset, None)
            .await
            .map_err(|e| e.to_string())?;
        eprintln!("loaded the demo conference: {}", summary(&dataset));
    }
    print_logins(&logins);
    Ok(())
}

/// Runs sync rounds: one, or one per `every` (a failed round is logged and
/// the next one tried). One line per round.
async fn sync_rounds(
    options: &confapi::sync::Options,
    store: &dyn storage::Store,
    every: Option<std::time::Duration>,
) -> Result<ExitCode, String> {
    loop {
        let bar = progress("syncing: requests made");
        let shown = bar.clone();
        let report = move |n: u64| {
            if let Some(bar) = &shown {
                bar.set_message(format!("syncing from the upstream: {n} request(s)"));
            }
        };
        let started = std::time::Instant::now();
        let result = confapi::sync::run_once(options, store, &report).await;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let took = started.elapsed();
        if let Some(peak) = confapi::memory::peak_resident_bytes() {
            // For the bounds of docs/sync.md "Limits" (tests/api/sync_hostile.rs).
            tracing::debug!(target: "confapi::memory", peak_resident_bytes = peak, "sync round ended");
        }
        let failed = match &result {
            Ok(round) => {
                for (slug, status) in &round.skipped {
                    eprintln!(
                        "skipped: {slug} ({}: the token may not read it)",
                        status.as_u16()
                    );
                }
                for note in &round.notes {
                    eprintln!("{note}");
                }
                let done = &round.import;
                if done.records_written == 0 {
                    eprintln!(
                        "sync: nothing changed (generation {}) in {took:.2?}",
                        done.generation
                    );
                } else {
                    let deleted = if done.deleted_events.is_empty() {
                        String::new()
                    } else {
                        format!(", deleted: {}", done.deleted_events.join(", "))
                    };
                    eprintln!(
                        "sync: {} record(s) written, event(s) changed: {}{deleted} (generation {}) in {took:.2?}",
                        done.records_written,
                        done.changed_events.join(", "),
                        done.generation
                    );
                }
                false
            }
            Err(err) => {
                eprintln!("sync failed after {took:.2?}, nothing changed: {err}");
                true
            }
        };
        match every {
            None => {
                return Ok(if failed {
                    ExitCode::FAILURE
                } else {
                    ExitCode::SUCCESS
                })
            }
            Some(interval) => tokio::time::sleep(interval.saturating_sub(took)).await,
        }
    }
}
