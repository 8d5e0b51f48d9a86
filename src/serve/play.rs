//! The Play view's JSON API: each request carries the board and the whole path played
//! (the page keeps the path and its undo and redo stacks, nothing else), and the answer is
//! computed by the library's game ([`knightnet::puzzle`]): the legal squares, the
//! dead-position verdict, the ending (open or closed), Warnsdorff's hint and the
//! completion by the game's search. The server keeps no game state.

// Handlers answer a refusal as the `Err` of their helpers; it is built once per request.
#![allow(clippy::result_large_err)]

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use knightnet::board::Board;
use knightnet::puzzle::complete::{self, Completion, Hint, SEARCH_BUDGET};
use knightnet::puzzle::{Ending, Game};
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{QUEUE_WAIT, Shared, refuse};

/// Largest side of a board the page may ask for.
pub const MAX_SIDE: usize = 16;

/// A new game: the board and the seed of its random start.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// Seed of the ChaCha8 stream that draws the start square.
    pub seed: u64,
}

/// A position: the board and the squares played, the start first.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The squares visited, in order (square index: row × cols + col).
    pub path: Vec<u32>,
}

/// What the page draws for a position.
#[derive(Debug, Serialize)]
pub struct View {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The squares visited, in order.
    pub path: Vec<u32>,
    /// Each square's name (`a1`, or `ROW,COL` on boards beyond algebraic names).
    pub names: Vec<String>,
    /// The squares the knight may move to next (every square before the start).
    pub legal: Vec<u32>,
    /// Every square visited.
    pub complete: bool,
    /// When complete: `closed` or `open` ([`Game::ending`]).
    pub ending: Option<&'static str>,
    /// The position cannot become a tour (the dead-position check, or no tour exists).
    pub dead: bool,
    /// The square the verdict points at, if any.
    pub mark: Option<u32>,
    /// The verdict in one line.
    pub message: String,
}

/// A hint: the square and how it was found.
#[derive(Debug, Serialize)]
pub struct HintView {
    /// The suggested square, if any.
    pub square: Option<u32>,
    /// `completes` (a tour continues from there), `warnsdorff` (the budget ran out: the
    /// search's first choice, Warnsdorff's move) or `none` (no completion exists).
    pub kind: &'static str,
}

/// The completion found by the game's search.
#[derive(Debug, Serialize)]
pub struct FinishView {
    /// `found`, `impossible` or `budget`.
    pub outcome: &'static str,
    /// The moves after the given path that complete the tour (empty unless found).
    pub moves: Vec<u32>,
    /// Search steps taken.
    pub steps: u64,
}

/// A board within the page's bound, or the reason why not.
pub(super) fn board(rows: usize, cols: usize) -> Result<Board, Response> {
    if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            &format!("board {rows}x{cols} is not served: sides 1 to {MAX_SIDE} are"),
        ));
    }
    Board::new(rows, cols).map_err(|e| refuse(StatusCode::BAD_REQUEST, &e.to_string()))
}

/// The game with `path` played, or the first illegal move.
fn game(p: &Position) -> Result<Game, Response> {
    let b = board(p.rows, p.cols)?;
    if p.path.len() > b.squares() {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            &format!(
                "the path has {} squares; the board has {}",
                p.path.len(),
                b.squares()
            ),
        ));
    }
    let mut g = Game::new(b);
    for (i, &s) in p.path.iter().enumerate() {
        g.play(s)
            .map_err(|e| refuse(StatusCode::BAD_REQUEST, &format!("move {}: {e}", i + 1)))?;
    }
    Ok(g)
}

/// Run `work` on a blocking thread once a worker is free ([`super::WORKERS`]).
pub(super) async fn with_worker<T: Send + 'static>(
    app: &Shared,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Response> {
    let busy = || {
        refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is busy: try again",
        )
    };
    let permit = tokio::time::timeout(QUEUE_WAIT, app.work.acquire())
        .await
        .map_err(|_| busy())?
        .map_err(|_| busy())?;
    let done = tokio::task::spawn_blocking(work).await;
    drop(permit);
    done.map_err(|_| refuse(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"))
}

/// The view of a game.
fn view(g: &Game) -> View {
    let b = g.board();
    let verdict = g.verdict();
    let path = g.path().to_vec();
    let complete = g.is_complete();
    let ending = g.ending().map(Ending::name);
    View {
        rows: b.rows(),
        cols: b.cols(),
        names: (0..b.squares() as u32).map(|s| b.square_name(s)).collect(),
        legal: g.legal_moves(),
        complete,
        ending,
        dead: verdict.is_dead(),
        mark: verdict.square(),
        message: verdict.message(b),
        path,
    }
}

/// `POST /api/play/new`: a board with its start drawn from the seed.
pub async fn new(State(app): State<Shared>, Json(req): Json<NewGame>) -> Response {
    let b = match board(req.rows, req.cols) {
        Ok(b) => b,
        Err(r) => return r,
    };
    // The project's one seeding rule (`rng_from_seed`), as every seeded draw.
    let start = knightnet::rng_from_seed(req.seed).random_range(0..b.squares() as u32);
    let played = with_worker(&app, move || {
        let mut g = Game::new(b);
        g.play(start).map(|()| view(&g))
    })
    .await;
    answer(played.and_then(|r| {
        r.map_err(|e| {
            refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!("the start square was refused: {e}"),
            )
        })
    }))
}

/// `POST /api/play/state`: the view of a position.
pub async fn state(State(app): State<Shared>, Json(req): Json<Position>) -> Response {
    let g = match game(&req) {
        Ok(g) => g,
        Err(r) => return r,
    };
    answer(with_worker(&app, move || view(&g)).await)
}

/// `POST /api/play/hint`: Warnsdorff's choice, checked by the game's search.
pub async fn hint(State(app): State<Shared>, Json(req): Json<Position>) -> Response {
    let g = match game(&req) {
        Ok(g) => g,
        Err(r) => return r,
    };
    if g.path().is_empty() || g.is_complete() {
        return Json(HintView {
            square: None,
            kind: "none",
        })
        .into_response();
    }
    answer(
        with_worker(&app, move || {
            match complete::hint(g.board(), g.path(), SEARCH_BUDGET) {
                Hint::Completes(s) => HintView {
                    square: Some(s),
                    kind: "completes",
                },
                Hint::Warnsdorff(s) => HintView {
                    square: Some(s),
                    kind: "warnsdorff",
                },
                Hint::None => HintView {
                    square: None,
                    kind: "none",
                },
            }
        })
        .await,
    )
}

/// `POST /api/play/finish`: the rest of a tour from the position, by the game's search.
pub async fn finish(State(app): State<Shared>, Json(req): Json<Position>) -> Response {
    let g = match game(&req) {
        Ok(g) => g,
        Err(r) => return r,
    };
    if g.path().is_empty() {
        return refuse(StatusCode::BAD_REQUEST, "pick a start square first");
    }
    answer(
        with_worker(&app, move || {
            let attempt = complete::complete(g.board(), g.path(), SEARCH_BUDGET);
            let (outcome, moves) = match attempt.completion {
                Completion::Found(m) => ("found", m),
                Completion::Impossible => ("impossible", Vec::new()),
                Completion::Budget => ("budget", Vec::new()),
            };
            FinishView {
                outcome,
                moves,
                steps: attempt.steps,
            }
        })
        .await,
    )
}

/// The JSON answer, or the refusal.
fn answer<T: Serialize>(result: Result<T, Response>) -> Response {
    match result {
        Ok(v) => Json(v).into_response(),
        Err(r) => r,
    }
}
