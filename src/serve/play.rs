//! The Play view's JSON API: each request carries the board and the whole path played
//! (the page keeps the path and its undo and redo stacks, nothing else), and the answer is
//! computed by the library's game ([`knightnet::puzzle`]): the legal squares, the
//! dead-position verdict, the ending (open or closed), Warnsdorff's hint and the
//! completion by the game's search. The server keeps no game state.
//!
//! Beyond the knight on a whole plane board, a request may name a `leaper` (`R,S` or a
//! name, as `--leaper`), a `surface` (`plane`, `cylinder`, `torus`) and a `shape` (a
//! picture of `.` squares and `#` holes, as `--shape` reads, the size of `rows` ×
//! `cols`): the server builds the [`Field`] from them, and its moves (wrapped ones
//! included, never a hole) are the legal squares it answers.

// Handlers answer a refusal as the `Err` of their helpers; it is built once per request.
#![allow(clippy::result_large_err)]

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use knightnet::board::Board;
use knightnet::geometry::{Geometry, Leaper, Shape, Surface};
use knightnet::puzzle::complete::{self, Completion, Hint, SEARCH_BUDGET};
use knightnet::puzzle::{Ending, Field, Game};
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
    /// The leaper: `R,S` or a name (absent: the knight).
    #[serde(default)]
    pub leaper: Option<String>,
    /// `plane` (absent), `cylinder` or `torus`.
    #[serde(default)]
    pub surface: Option<String>,
    /// A picture of `rows` lines of `cols`: `.` a square, `#` a hole (absent: none).
    #[serde(default)]
    pub shape: Option<String>,
}

/// What a request names beyond the board's size, each absent for the knight's.
#[derive(Debug, Clone, Copy)]
pub struct GeometryRequest<'a> {
    /// `R,S` or a leaper's name (`knight`, `camel`, `zebra`, `giraffe`).
    pub leaper: Option<&'a str>,
    /// `plane`, `cylinder` or `torus`.
    pub surface: Option<&'a str>,
    /// A picture, one line a row: `.` a square, `#` a hole.
    pub shape: Option<&'a str>,
}

impl NewGame {
    /// The leaper, surface and shape asked for.
    pub fn geometry(&self) -> GeometryRequest<'_> {
        GeometryRequest {
            leaper: self.leaper.as_deref(),
            surface: self.surface.as_deref(),
            shape: self.shape.as_deref(),
        }
    }
}

impl Position {
    /// The leaper, surface and shape asked for.
    pub fn geometry(&self) -> GeometryRequest<'_> {
        GeometryRequest {
            leaper: self.leaper.as_deref(),
            surface: self.surface.as_deref(),
            shape: self.shape.as_deref(),
        }
    }
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
    /// The leaper: `R,S` or a name (absent: the knight).
    #[serde(default)]
    pub leaper: Option<String>,
    /// `plane` (absent), `cylinder` or `torus`.
    #[serde(default)]
    pub surface: Option<String>,
    /// A picture of `rows` lines of `cols`: `.` a square, `#` a hole (absent: none).
    #[serde(default)]
    pub shape: Option<String>,
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
    /// The leaper, `R,S`.
    pub leaper: String,
    /// `plane`, `cylinder` or `torus`.
    pub surface: &'static str,
    /// The holes of the shape (never legal, never to visit).
    pub holes: Vec<u32>,
    /// Squares a tour visits: the board's less its holes.
    pub squares: usize,
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

/// Longest shape picture accepted: every row of the largest board with a line end (and
/// a carriage return).
const MAX_SHAPE: usize = MAX_SIDE * (MAX_SIDE + 2);

/// The field a request names: its board within the page's bound, and its leaper,
/// surface and shape parsed here, each refusal one line.
pub(super) fn field(rows: usize, cols: usize, g: GeometryRequest<'_>) -> Result<Field, Response> {
    let bad = |m: String| refuse(StatusCode::BAD_REQUEST, &m);
    let b = board(rows, cols)?;
    let leaper = match g.leaper {
        None => Leaper::KNIGHT,
        Some(text) => text
            .parse::<Leaper>()
            .map_err(|e| bad(format!("leaper: {e}")))?,
    };
    if leaper.s() as usize > 2 * MAX_SIDE {
        return Err(bad(format!(
            "leaper {leaper} is not served: leaps up to {} are",
            2 * MAX_SIDE
        )));
    }
    let surface = match g.surface {
        None => Surface::Plane,
        Some(text) => text
            .parse::<Surface>()
            .map_err(|e| bad(format!("surface: {e}")))?,
    };
    let shape = match g.shape.filter(|t| !t.trim().is_empty()) {
        None => Shape::full(b),
        Some(text) if text.len() > MAX_SHAPE => {
            return Err(bad(format!(
                "the shape has {} characters; pictures up to {MAX_SIDE}x{MAX_SIDE} ({MAX_SHAPE} characters) are served",
                text.len()
            )));
        }
        Some(text) => {
            let shape = text.parse::<Shape>().map_err(|e| bad(e.to_string()))?;
            if shape.board() != b {
                return Err(bad(format!(
                    "the shape is {} and the board {b}; draw the picture {rows} rows of {cols}",
                    shape.board()
                )));
            }
            shape
        }
    };
    Field::new(Geometry::new(shape, leaper, surface)).map_err(|e| bad(e.to_string()))
}

/// The game with `path` played, or the first illegal move.
fn game(p: &Position) -> Result<Game, Response> {
    let f = field(p.rows, p.cols, p.geometry())?;
    let b = f.board();
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
    let mut g = Game::on(f);
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
    let field = g.field();
    let geometry = field.geometry();
    View {
        rows: b.rows(),
        cols: b.cols(),
        names: (0..b.squares() as u32).map(|s| b.square_name(s)).collect(),
        leaper: geometry.leaper().to_string(),
        surface: geometry.surface().name(),
        holes: geometry.shape().holes().to_vec(),
        squares: field.squares(),
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
    let f = match field(req.rows, req.cols, req.geometry()) {
        Ok(f) => f,
        Err(r) => return r,
    };
    let played = with_worker(&app, move || {
        let mut g = Game::on(f);
        // The project's one seeding rule (`rng_from_seed`), as every seeded draw: the
        // k-th square that is not a hole (on a whole board, square k).
        let squares = g.legal_moves();
        let k = knightnet::rng_from_seed(req.seed).random_range(0..squares.len());
        g.play(squares[k]).map(|()| view(&g))
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
            match complete::hint_on(g.field(), g.path(), SEARCH_BUDGET) {
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
            let attempt = complete::complete_on(g.field(), g.path(), SEARCH_BUDGET);
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
