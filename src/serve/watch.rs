//! The Watch view's stream: a solver run step by step by the library's one stepping code
//! ([`knightnet::puzzle::watch`], the `Steps` the terminal watcher uses), its states sent
//! to the page as server-sent events.
//!
//! Server-sent events rather than fetched batches: one `GET` is one run, held by its
//! response stream, so the server keeps no session table to expire, and a page that
//! closes the stream (pause, or a closed tab) drops the run with it: hyper drops the
//! body at the next write that fails, at most one step period later. The page pauses
//! by closing the stream and resumes by opening another from the step it reached
//! (`from`): the run is replayed up to there, which costs at most [`MAX_STEPS`] steps.
//!
//! Beyond the knight on a whole plane board, the query names a `leaper`, a `surface` and
//! a `shape` as Play's requests do, read by Play's one reader ([`super::play::field`]):
//! the network, Warnsdorff's walk, `backtrack` and `forward-check` run on the move graph
//! as `solve` runs them there (the others are refused in one line naming those), and
//! the first frame names the holes.
//!
//! Bounds: boards as Play's ([`super::play::MAX_SIDE`]), at most [`MAX_RATE`] steps per
//! second per stream, [`MAX_STEPS`] steps per run, and [`MAX_WATCHERS`] streams at once
//! (more are answered 503); the replay to `from` runs on one of the server's
//! [`super::WORKERS`].

// Handlers answer a refusal as the `Err` of their helpers; it is built once per request.
#![allow(clippy::result_large_err)]

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use knightnet::network::NetworkParams;
use knightnet::puzzle::Field;
use knightnet::puzzle::watch::{Stepper, View, WatchKind};
use knightnet::solvers::SolverKind;
use serde::{Deserialize, Serialize};

use super::{Shared, constant_time_eq, play, refuse};

/// Most steps per second one stream sends.
pub const MAX_RATE: u32 = 50;
/// Most steps of one run (the replay to `from` included).
pub const MAX_STEPS: u64 = 20_000;
/// Most streams at once, over all clients.
pub const MAX_WATCHERS: usize = 64;

/// What to watch: `GET /api/watch?token=…&solver=…&rows=…&cols=…&seed=…`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchQuery {
    /// The page's token (an `EventSource` cannot send headers).
    pub token: String,
    /// A solver name as `solve --solver` takes it ([`WatchKind`]).
    pub solver: String,
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The seed, as `solve --seed`.
    pub seed: u64,
    /// The leaper, `R,S` or a name, as Play takes it (absent: the knight).
    #[serde(default)]
    pub leaper: Option<String>,
    /// `plane` (absent), `cylinder` or `torus`.
    #[serde(default)]
    pub surface: Option<String>,
    /// A picture of `rows` lines of `cols`: `.` a square, `#` a hole (absent: none).
    #[serde(default)]
    pub shape: Option<String>,
    /// The start square of the search solvers and Warnsdorff's walk (default 0).
    #[serde(default)]
    pub start: u32,
    /// Draw the start square first from the seed's stream, as an experiment's trial
    /// with `start = "random"` does (then `start` is not given).
    #[serde(default)]
    pub random_start: bool,
    /// Steps done before the first event (default 0).
    #[serde(default)]
    pub from: u64,
    /// The last step sent (default [`MAX_STEPS`]).
    pub to: Option<u64>,
    /// Steps per second, 1 to [`MAX_RATE`] (default 10).
    pub rate: Option<u32>,
    /// A network's most attempts, 1 to its preset's (default: the preset's); 1 replays
    /// an experiment's network trial, which is one attempt.
    pub attempts: Option<u32>,
}

// The leaper, surface and shape repeat `play::NewGame`'s and `play::Position`'s fields
// rather than sit in one flattened struct: serde's `flatten` cannot be combined with
// `deny_unknown_fields`, and a query string flattened loses its numbers (serde_urlencoded
// hands a flattened struct's fields over as text). They are read by one function,
// `play::field`, through the same `GeometryRequest` view.
impl WatchQuery {
    /// The leaper, surface and shape asked for.
    pub fn geometry(&self) -> play::GeometryRequest<'_> {
        play::GeometryRequest {
            leaper: self.leaper.as_deref(),
            surface: self.surface.as_deref(),
            shape: self.shape.as_deref(),
        }
    }
}

/// One state of the run, as the page draws it.
#[derive(Debug, Serialize)]
pub struct Frame {
    /// Steps done.
    pub step: u64,
    /// The run is not over.
    pub running: bool,
    /// The last frame of this stream (the run is over, or `to` was reached).
    pub last: bool,
    /// The solver's counters in one line.
    pub counters: String,
    /// When the run is over: its outcome (`tour`, or why there is none), or the refusal.
    pub outcome: Option<String>,
    /// The holes of the board's shape (in the first frame of a stream only; empty on a
    /// whole board).
    pub holes: Option<Vec<u32>>,
    /// The piece's path (search solvers, Warnsdorff).
    pub path: Option<Vec<u32>>,
    /// The network's moves, as their two squares (in the first frame of a stream only).
    pub moves: Option<Vec<(u32, u32)>>,
    /// Each move's U, by move index (empty before the first state).
    pub u: Option<Vec<i32>>,
    /// The active moves (V = 1), as their two squares.
    pub active: Option<Vec<(u32, u32)>>,
    /// Each square's number of active moves.
    pub degree: Option<Vec<u8>>,
    /// Squares whose number of active moves is not 2 (the stop rule's counter).
    pub off_two: Option<u32>,
    /// The network's attempt, from 1.
    pub attempt: Option<u32>,
    /// When every square has two active moves: the cycles they form, each as its squares.
    pub cycles: Option<Vec<Vec<u32>>>,
}

/// A stream's place among the [`MAX_WATCHERS`]; given back when dropped.
pub struct Slot(Arc<AtomicUsize>);

impl Slot {
    /// A place, if fewer than [`MAX_WATCHERS`] streams run.
    fn take(count: &Arc<AtomicUsize>) -> Option<Slot> {
        count
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_WATCHERS).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(count.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// `GET /api/watch/solvers`: the names the stream accepts, in the terminal watcher's
/// order.
pub async fn solvers() -> Response {
    Json(
        WatchKind::all()
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>(),
    )
    .into_response()
}

/// `GET /api/status`: the streams running now.
pub async fn status(State(app): State<Shared>) -> Response {
    Json(serde_json::json!({ "watchers": app.watchers.load(Ordering::SeqCst) })).into_response()
}

/// The solver `solver` (a name as `solve --solver` takes it), with at most `attempts`
/// attempts for a network (1 to its preset's; `None`: the preset's); the refusal in
/// words otherwise.
pub fn watch_kind(solver: &str, attempts: Option<u32>) -> Result<WatchKind, String> {
    let kind: WatchKind = solver.parse().map_err(|e| format!("{e}"))?;
    let Some(a) = attempts else {
        return Ok(kind);
    };
    match kind.kind() {
        SolverKind::Network(p) if (1..=p.max_attempts).contains(&a) => {
            WatchKind::new(SolverKind::Network(NetworkParams {
                max_attempts: a,
                ..*p
            }))
            .ok_or_else(|| format!("{solver} cannot be watched"))
        }
        SolverKind::Network(p) => Err(format!(
            "attempts {a} is not served for {solver}: 1 to {} are",
            p.max_attempts
        )),
        _ => Err(format!(
            "attempts is for a network solver, not {solver}: leave it out"
        )),
    }
}

/// The frame of `stepper`'s current state on `field` (its moves and holes with the first
/// frame, `first`).
fn frame(field: &Field, stepper: &dyn Stepper, to: u64, first: bool) -> Frame {
    let status = stepper.status();
    let step = stepper.steps();
    let outcome = status.outcome().map(|o| match o {
        Ok(outcome) => outcome.to_string(),
        Err(e) => e.to_string(),
    });
    let mut f = Frame {
        step,
        running: status.is_running(),
        last: !status.is_running() || step >= to,
        counters: stepper.counters(),
        outcome,
        holes: first.then(|| field.geometry().shape().holes().to_vec()),
        path: None,
        moves: None,
        u: None,
        active: None,
        degree: None,
        off_two: None,
        attempt: None,
        cycles: None,
    };
    match stepper.view() {
        View::Path(p) => f.path = Some(p.to_vec()),
        View::Edges {
            edges,
            degree,
            off_two,
            cycles,
            attempt,
            moves,
            u,
        } => {
            f.cycles = cycles;
            f.moves = first.then_some(moves);
            f.u = Some(u.to_vec());
            f.active = Some(edges);
            f.degree = Some(degree);
            f.off_two = Some(off_two);
            f.attempt = Some(attempt);
        }
    }
    f
}

/// The event carrying `frame`.
fn event(frame: &Frame) -> Event {
    Event::default()
        .json_data(frame)
        .unwrap_or_else(|_| Event::default().data("{}"))
}

/// What the stream holds between frames; dropped (its slot given back) when the client
/// goes away.
struct Run {
    field: Field,
    stepper: Box<dyn Stepper + Send>,
    to: u64,
    period: Duration,
    first: bool,
    done: bool,
    _slot: Slot,
}

/// The frames of `run`: the current state at once, then one step per period until the
/// last frame.
fn frames(run: Run) -> impl Stream<Item = Result<Event, Infallible>> + Send {
    stream::unfold(run, |mut run| async move {
        if run.done {
            return None;
        }
        if !run.first {
            tokio::time::sleep(run.period).await;
            run.stepper.step();
        }
        let f = frame(&run.field, run.stepper.as_ref(), run.to, run.first);
        run.first = false;
        run.done = f.last;
        Some((Ok(event(&f)), run))
    })
}

/// `GET /api/watch`: the run's frames as server-sent events.
pub async fn watch(State(app): State<Shared>, Query(q): Query<WatchQuery>) -> Response {
    match open(&app, q).await {
        Ok(run) => Sse::new(frames(run)).into_response(),
        Err(r) => r,
    }
}

/// Check the query, take a slot, build the stepper and replay it to `from`.
async fn open(app: &Shared, q: WatchQuery) -> Result<Run, Response> {
    if !constant_time_eq(q.token.as_bytes(), app.token.as_bytes()) {
        return Err(refuse(
            StatusCode::FORBIDDEN,
            "missing or wrong token: reload the page",
        ));
    }
    let bad = |m: String| refuse(StatusCode::BAD_REQUEST, &m);
    let kind = watch_kind(&q.solver, q.attempts).map_err(bad)?;
    let field = play::field(q.rows, q.cols, q.geometry())?;
    let board = field.board();
    if q.start as usize >= board.squares() {
        return Err(bad(format!(
            "start {} is off the {}x{} board: squares 0 to {} are",
            q.start,
            q.rows,
            q.cols,
            board.squares() - 1
        )));
    }
    let to = q.to.unwrap_or(MAX_STEPS);
    if to > MAX_STEPS || q.from > to {
        return Err(bad(format!(
            "steps from {} to {to} are not served: 0 <= from <= to <= {MAX_STEPS} are",
            q.from
        )));
    }
    let rate = q.rate.unwrap_or(10);
    if !(1..=MAX_RATE).contains(&rate) {
        return Err(bad(format!(
            "rate {rate} is not served: 1 to {MAX_RATE} steps per second are"
        )));
    }
    let slot = Slot::take(&app.watchers).ok_or_else(|| {
        refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many watchers: try again later",
        )
    })?;
    if q.random_start && q.start != 0 {
        return Err(bad(
            "start and random_start contradict each other: give one".to_string(),
        ));
    }
    let stepper = if q.random_start {
        kind.build_drawn_start(field.clone(), q.seed)
    } else {
        kind.build(field.clone(), &[], q.start, q.seed)
    }
    .map_err(|e| bad(e.to_string()))?;
    let from = q.from;
    let stepper = play::with_worker(app, move || {
        let mut stepper = stepper;
        for _ in 0..from {
            if stepper.steps() >= from || !stepper.step().is_running() {
                break;
            }
        }
        stepper
    })
    .await?;
    Ok(Run {
        field,
        stepper,
        to,
        period: Duration::from_secs(1) / rate,
        first: true,
        done: false,
        _slot: slot,
    })
}
