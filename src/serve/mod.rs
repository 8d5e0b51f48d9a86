//! `knightnet serve`: a local web server (axum on tokio) with the Play view, the
//! knight's-tour game in the browser, its rules the library's ([`knightnet::puzzle`])
//! behind a small JSON API ([`play`]; the page holds no copy of them), and the Watch
//! view, any watchable solver run step by step by the library's stepping code and
//! streamed to the page ([`watch`]), and the Results view, the results folders named on
//! the command line with their cells, figures and records to replay ([`results`]), and
//! the convergence data found under them ([`convergence`]). Those
//! folders are readable through [`files`] and nothing else on disk is.
//!
//! Routes (the page's views are `/play`, `/watch` and `/results`):
//!
//! | route | what |
//! |---|---|
//! | `GET /`, `GET /play` | the page, with this process's token in a `<meta>` tag |
//! | `GET /assets/{name}` | the page's script and style, embedded in the binary |
//! | `GET /watch` | the Watch page, with the token |
//! | `GET /results` | the Results page, with the token |
//! | `POST /api/play/{new,state,hint,finish}` | the game ([`play`]) |
//! | `GET /api/watch?token=…` | a run's states as server-sent events ([`watch`]) |
//! | `GET /api/watch/solvers` | the solvers the stream accepts |
//! | `GET /api/status` | the streams running now |
//! | `GET /api/folders` | the results folders given on the command line |
//! | `GET /files/{folder}/{path}` | a file inside one of them ([`files`]) |
//! | `GET /api/results` | the results folders in and under them ([`results`]) |
//! | `GET /api/results/{folder}?path=…` | one results folder: spec, cells, figures' data, replays |
//! | `GET /api/results/{folder}/csv/{stem}?path=…` | one figure's data as CSV |
//! | `GET /api/results/{folder}/replay?path=…&cell=…&trial=…` | the Watch view's query replaying any trial |
//! | `GET /api/convergence` | the convergence data in and under them ([`convergence`]) |
//! | `GET /api/convergence/{folder}?path=…` | one entry: what ran, its curves and runs |
//! | `GET /api/convergence/{folder}/csv/{data,runs}?path=…` | its CSVs as written |
//!
//! The security model (docs/serve.md): the server binds 127.0.0.1 unless `--host` says
//! otherwise; every request must name this server in its `Host` header (a page on
//! another site that rebinds its DNS name to 127.0.0.1 is refused); every `POST` must
//! carry the token embedded in the page (`X-Knightnet-Token`), so another site's page
//! cannot make the server work; bodies are at most [`MAX_BODY`] bytes, boards at most
//! [`play::MAX_SIDE`] squares a side, each search at most the game's step budget, and at most
//! [`WORKERS`] searches run at once (a request that waits [`QUEUE_WAIT`] for one is
//! answered 503).

pub mod convergence;
pub mod files;
pub mod play;
pub mod results;
pub mod watch;

use std::io::Write;
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use knightnet::error::InputError;
use rand::Rng;
use tokio::sync::Semaphore;

use crate::cli::Failure;

/// Largest request body accepted, in bytes (a 256-square path in JSON is under 2 kB).
pub const MAX_BODY: usize = 16 * 1024;
/// Searches (state, hint, finish) run at once, over all clients.
pub const WORKERS: usize = 2;
/// How long a request waits for a free worker before it is answered 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(10);
/// The header that carries the page's token on every `POST`.
pub const TOKEN_HEADER: &str = "x-knightnet-token";

/// What the server serves and where.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address to bind (port 0: any free port).
    pub addr: SocketAddr,
    /// The readable folders, in command-line order ([`files::Folder`]).
    pub folders: Vec<files::Folder>,
}

impl Config {
    /// A configuration serving `folders` (each must be an existing directory).
    pub fn new(addr: SocketAddr, folders: &[PathBuf]) -> Result<Config, InputError> {
        let folders = folders
            .iter()
            .map(|p| files::Folder::new(p))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Config { addr, folders })
    }
}

/// What every handler shares.
pub struct App {
    /// This process's token, embedded in the page and required on every `POST`.
    pub token: String,
    /// The readable folders.
    pub folders: Vec<files::Folder>,
    /// Permits for searches ([`WORKERS`]).
    pub work: Semaphore,
    /// The `Host` header values that name this server.
    pub hosts: Vec<String>,
    /// Watch streams running now ([`watch::MAX_WATCHERS`] at most).
    pub watchers: Arc<AtomicUsize>,
    /// The Results view's data of the folders read last.
    pub results: results::Cache,
}

/// A shared handle on [`App`].
pub type Shared = Arc<App>;

/// Bind, print the address, and serve until the process is stopped.
pub fn run(config: Config, out: &mut dyn Write) -> Result<(), Failure> {
    let listener = TcpListener::bind(config.addr).map_err(|e| {
        InputError::param(format!(
            "cannot listen on {}: {e}; choose another --port (0 picks a free one) or --host",
            config.addr
        ))
    })?;
    let addr = listener.local_addr()?;
    listener.set_nonblocking(true)?;
    let app = Arc::new(App {
        token: new_token(),
        folders: config.folders,
        work: Semaphore::new(WORKERS),
        hosts: host_names(addr),
        watchers: Arc::new(AtomicUsize::new(0)),
        results: results::Cache::default(),
    });
    if !addr.ip().is_loopback() {
        crate::cli::say(&format!(
            "warning: listening on {}, not on loopback: anyone who can reach this address can use the server (and read the results folders given)",
            addr.ip()
        ));
    }
    let shown = if addr.ip().is_unspecified() {
        SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), addr.port())
    } else {
        addr
    };
    writeln!(out, "knightnet serve: http://{shown}/")?;
    for (i, f) in app.folders.iter().enumerate() {
        writeln!(out, "  results folder {i}: {}", f.root.display())?;
    }
    out.flush()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKERS)
        .max_blocking_threads(WORKERS)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        axum::serve(listener, router(app)).await
    })?;
    Ok(())
}

/// The routes, with the `Host` and token checks and the body limit.
pub fn router(app: Shared) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/play", get(page))
        .route("/watch", get(watch_page))
        .route("/results", get(results_page))
        .route("/assets/{name}", get(asset))
        .route("/api/play/new", post(play::new))
        .route("/api/play/state", post(play::state))
        .route("/api/play/hint", post(play::hint))
        .route("/api/play/finish", post(play::finish))
        .route("/api/watch", get(watch::watch))
        .route("/api/watch/solvers", get(watch::solvers))
        .route("/api/status", get(watch::status))
        .route("/api/folders", get(files::folders))
        .route("/files/{folder}/{*path}", get(files::file))
        .route("/api/results", get(results::list))
        .route("/api/results/{folder}", get(results::detail))
        .route("/api/results/{folder}/csv/{stem}", get(results::csv))
        .route("/api/results/{folder}/replay", get(results::replay))
        .route("/api/convergence", get(convergence::list))
        .route("/api/convergence/{folder}", get(convergence::detail))
        .route(
            "/api/convergence/{folder}/csv/{which}",
            get(convergence::csv),
        )
        .fallback(|| async { refuse(StatusCode::NOT_FOUND, "no such page") })
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// A random token of 128 bits in hex, from the operating system's randomness.
fn new_token() -> String {
    let bits: u128 = rand::rng().random();
    format!("{bits:032x}")
}

/// The `Host` header values that name a server listening on `addr`: the address itself
/// and, on loopback or every interface, `localhost`.
fn host_names(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    let mut names = vec![match addr.ip() {
        std::net::IpAddr::V4(ip) => format!("{ip}:{port}"),
        std::net::IpAddr::V6(ip) => format!("[{ip}]:{port}"),
    }];
    if addr.ip().is_loopback() || addr.ip().is_unspecified() {
        names.push(format!("localhost:{port}"));
        names.push(format!("127.0.0.1:{port}"));
        names.push(format!("[::1]:{port}"));
    }
    names
}

/// Refuse requests that do not name this server, and `POST`s without the token.
async fn guard(State(app): State<Shared>, request: Request, next: Next) -> Response {
    if let Some(refusal) = admit(&app, &request) {
        return refusal;
    }
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ),
    );
    response
}

/// The refusal of a request that does not name this server or lacks the token, if any.
fn admit(app: &App, request: &Request) -> Option<Response> {
    let header = |name: &str| request.headers().get(name).and_then(|v| v.to_str().ok());
    let unspecified = app
        .hosts
        .first()
        .is_some_and(|h| h.starts_with("0.0.0.0:") || h.starts_with("[::]:"));
    if !unspecified && !header("host").is_some_and(|h| app.hosts.iter().any(|n| n == h)) {
        return Some(refuse(
            StatusCode::MISDIRECTED_REQUEST,
            "the Host header does not name this server",
        ));
    }
    if request.method() == Method::POST
        && !header(TOKEN_HEADER)
            .is_some_and(|t| constant_time_eq(t.as_bytes(), app.token.as_bytes()))
    {
        return Some(refuse(
            StatusCode::FORBIDDEN,
            "missing or wrong token: reload the page",
        ));
    }
    None
}

/// Compare two byte strings in time that depends only on their lengths.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A refusal: the status and `{"error": message}`.
pub fn refuse(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
}

/// The Play page, with the token filled in.
async fn page(State(app): State<Shared>) -> Response {
    html(include_str!("assets/index.html"), &app.token)
}

/// The Watch page, with the token filled in.
async fn watch_page(State(app): State<Shared>) -> Response {
    html(include_str!("assets/watch.html"), &app.token)
}

/// The Results page, with the token filled in.
async fn results_page(State(app): State<Shared>) -> Response {
    html(include_str!("assets/results.html"), &app.token)
}

/// A page with `token` filled in, and the leaper, surface and shape inputs Play and
/// Watch share (`{{GEOMETRY}}`), never cached.
fn html(template: &str, token: &str) -> Response {
    let html = template
        .replace(
            "{{GEOMETRY}}",
            include_str!("assets/geometry.html").trim_end(),
        )
        .replace("{{TOKEN}}", token);
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        html,
    )
        .into_response()
}

/// The embedded script and style.
async fn asset(axum::extract::Path(name): axum::extract::Path<String>) -> Response {
    let (kind, body) = match name.as_str() {
        "app.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/app.js"),
        ),
        "watch.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/watch.js"),
        ),
        "results.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/results.js"),
        ),
        "uPlot.iife.min.js" => (
            "text/javascript; charset=utf-8",
            include_str!("assets/vendor/uPlot.iife.min.js"),
        ),
        "uPlot.min.css" => (
            "text/css; charset=utf-8",
            include_str!("assets/vendor/uPlot.min.css"),
        ),
        "app.css" => ("text/css; charset=utf-8", include_str!("assets/app.css")),
        _ => return refuse(StatusCode::NOT_FOUND, "no such asset"),
    };
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}
