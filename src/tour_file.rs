//! Reading a tour from a file, so that a tour made by any program can be put to the one
//! oracle in [`crate::tour`].
//!
//! Two forms are read:
//! - JSON as `knightnet solve --format json` writes it: an object with `board`
//!   (`{"rows": R, "cols": C}`), `tour` (a list of `[row, col]` pairs) and optionally
//!   `closed`; or a bare list of `[row, col]` pairs (the board then comes from the caller);
//! - text: squares separated by white space, each `ROW,COL` (0-based, row 0 at the top,
//!   as `solve --stream` writes them one per line) or algebraic (`c3`); the board comes
//!   from the caller.
//!
//! Beyond the knight on a whole plane board ([`parse_on`]: another leaper, a cylinder or
//! torus, a shape, a graph file), the graph comes from the caller and the forms are:
//! - JSON as `solve --format json` writes it there: an object with `target` (which must
//!   be the caller's graph), `vertices` (the tour as the output numbers it: square
//!   numbers `row * cols + col`, or the file's vertex numbers) and optionally `closed`;
//!   or a bare list of those numbers, or on a board of `[row, col]` pairs;
//! - text: on a board, squares as the knight's text form; on a graph file, vertex
//!   numbers separated by white space.
//!
//! Memory grows with the squares read, never past one more than the board has: a longer
//! list is already not a tour, and reading stops there.

use serde::Deserialize;
use serde_json::Value;

use crate::board::Board;
use crate::error::{Hint, InputError, Param, Refusal, Setting};
use crate::graph::{KnightGraph, Source};

/// A tour as read from a file: its board, its squares and, if the file says, whether it
/// claims to be closed. Nothing is validated yet beyond each square being on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TourFile {
    /// The board: from the JSON object's `board`, else the caller's.
    pub board: Board,
    /// The squares read (indices `row * cols + col`) in file order, each on the board; not yet
    /// checked to be a tour.
    pub squares: Vec<u32>,
    /// `closed` from a JSON object, if it has one.
    pub closed: Option<bool>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Json {
    Object {
        board: JsonBoard,
        tour: Vec<[i64; 2]>,
        #[serde(default)]
        closed: Option<bool>,
    },
    List(Vec<[i64; 2]>),
    /// `solve`'s JSON beyond the knight's board (it names a `target`, not a `board`).
    Beyond {
        target: Value,
    },
}

#[derive(Deserialize)]
struct JsonBoard {
    rows: usize,
    cols: usize,
}

/// Parse `text` (named `origin` in errors). `board` is the board the caller names; a
/// JSON object carries its own, and the two must agree.
pub fn parse(text: &str, board: Option<Board>, origin: &str) -> Result<TourFile, InputError> {
    let bad = |msg: String| InputError::File(format!("{origin}: {msg}"));
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let json: Json = serde_json::from_str(text).map_err(|e| {
            bad(format!(
                "not a tour in JSON ({e}); expected solve's JSON output or a list of [row, col] pairs"
            ))
        })?;
        let (pairs, file_board, closed) = match json {
            Json::Object {
                board: b,
                tour,
                closed,
            } => {
                let b = Board::new(b.rows, b.cols).map_err(|e| bad(e.to_string()))?;
                (tour, Some(b), closed)
            }
            Json::List(pairs) => (pairs, None, None),
            Json::Beyond { target } => {
                return Err(bad(format!(
                    "a tour beyond the knight's board (its target is {target}); name that graph as solve did, with its leaper, surface, shape or graph file"
                )));
            }
        };
        let board = agree(board, file_board, origin)?;
        let mut squares = Vec::with_capacity(pairs.len().min(board.squares() + 1));
        for (i, [r, c]) in pairs.into_iter().enumerate() {
            if squares.len() > board.squares() {
                break;
            }
            squares.push(on_board(board, r, c).ok_or_else(|| {
                bad(format!(
                    "square {i} of the list, [{r}, {c}], is off the {board} board"
                ))
            })?);
        }
        return Ok(TourFile {
            board,
            squares,
            closed,
        });
    }
    let board = agree(board, None, origin)?;
    let mut squares = Vec::new();
    for (i, token) in text.split_whitespace().enumerate() {
        if squares.len() > board.squares() {
            break;
        }
        let square = match token.split_once(',') {
            Some((r, c)) => match (r.parse::<i64>(), c.parse::<i64>()) {
                (Ok(r), Ok(c)) => on_board(board, r, c)
                    .ok_or_else(|| format!("'{token}' is off the {board} board")),
                _ => Err(format!("'{token}' is not ROW,COL with whole numbers")),
            },
            None => board.parse_square(token).map_err(|e| e.to_string()),
        };
        squares.push(square.map_err(|why| bad(format!("square {i} of the list: {why}")))?);
    }
    Ok(TourFile {
        board,
        squares,
        closed: None,
    })
}

/// A tour beyond the knight's board as read from a file: vertices of the caller's graph
/// in file order, not yet checked to be a tour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphTourFile {
    /// The vertices read, each a vertex of the graph.
    pub vertices: Vec<u32>,
    /// `closed` from a JSON object, if it has one.
    pub closed: Option<bool>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum GraphJson {
    Object {
        target: Value,
        vertices: Vec<u64>,
        #[serde(default)]
        closed: Option<bool>,
    },
    Numbers(Vec<u64>),
    Pairs(Vec<[i64; 2]>),
}

/// Parse `text` (named `origin` in errors) as a tour on `graph`, a geometry's or a graph
/// file's (on the knight's whole plane board, use [`parse`]). A JSON object's `target`
/// must be `graph`'s.
pub fn parse_on(
    text: &str,
    graph: &KnightGraph,
    origin: &str,
) -> Result<GraphTourFile, InputError> {
    let bad = |msg: String| InputError::File(format!("{origin}: {msg}"));
    let n = graph.squares();
    let board = graph.board();
    let from_number = |i: usize, x: u64| {
        crate::json::vertex_from_number(graph, x).ok_or_else(|| {
            bad(format!(
                "vertex {i} of the list, {x}, is not a vertex of {} ({})",
                graph.describe(),
                numbers_accepted(graph)
            ))
        })
    };
    let square = |i: usize, square: u32| {
        let Source::Geometry(m) = graph.source() else {
            unreachable!("squares are read on a board")
        };
        m.vertex(square).ok_or_else(|| {
            bad(format!(
                "square {i} of the list, {}, is a hole of the shape",
                m.geometry().board().square_name(square)
            ))
        })
    };
    let mut vertices = Vec::new();
    let mut closed = None;
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let json: GraphJson = serde_json::from_str(text).map_err(|e| {
            bad(format!(
                "not a tour in JSON ({e}); expected solve's JSON output on this graph (target, vertices), a list of vertex numbers{}",
                if board.is_some() { " or of [row, col] pairs" } else { "" }
            ))
        })?;
        match json {
            GraphJson::Object {
                target,
                vertices: numbers,
                closed: c,
            } => {
                if target != crate::json::graph(graph) {
                    return Err(bad(format!(
                        "its target {target} is not {}, which was named",
                        graph.describe()
                    )));
                }
                closed = c;
                for (i, x) in numbers.into_iter().enumerate().take(n + 1) {
                    vertices.push(from_number(i, x)?);
                }
            }
            GraphJson::Numbers(numbers) => {
                for (i, x) in numbers.into_iter().enumerate().take(n + 1) {
                    vertices.push(from_number(i, x)?);
                }
            }
            GraphJson::Pairs(pairs) => {
                let Some(board) = board else {
                    return Err(bad(format!(
                        "[row, col] pairs name squares, and {} has none; give vertex numbers",
                        graph.describe()
                    )));
                };
                for (i, [r, c]) in pairs.into_iter().enumerate().take(n + 1) {
                    let sq = on_board(board, r, c).ok_or_else(|| {
                        bad(format!(
                            "square {i} of the list, [{r}, {c}], is off the {board} board"
                        ))
                    })?;
                    vertices.push(square(i, sq)?);
                }
            }
        }
        return Ok(GraphTourFile { vertices, closed });
    }
    for (i, token) in text.split_whitespace().enumerate().take(n + 1) {
        let vertex = match board {
            None => match token.parse::<u64>() {
                Ok(x) => from_number(i, x)?,
                Err(_) => {
                    return Err(bad(format!(
                        "vertex {i} of the list, '{token}', is not a number ({})",
                        numbers_accepted(graph)
                    )));
                }
            },
            Some(board) => {
                let sq = match token.split_once(',') {
                    Some((r, c)) => match (r.parse::<i64>(), c.parse::<i64>()) {
                        (Ok(r), Ok(c)) => on_board(board, r, c)
                            .ok_or_else(|| format!("'{token}' is off the {board} board")),
                        _ => Err(format!("'{token}' is not ROW,COL with whole numbers")),
                    },
                    None => board.parse_square(token).map_err(|e| e.to_string()),
                };
                let sq = sq.map_err(|why| bad(format!("square {i} of the list: {why}")))?;
                square(i, sq)?
            }
        };
        vertices.push(vertex);
    }
    Ok(GraphTourFile {
        vertices,
        closed: None,
    })
}

/// The numbers that name `graph`'s vertices, for messages.
fn numbers_accepted(graph: &KnightGraph) -> String {
    match graph.source() {
        Source::File(f) => format!("its vertices are numbered 1 to {}", f.vertices()),
        _ => "its vertices are the squares row * cols + col that are not holes".to_string(),
    }
}

fn on_board(board: Board, r: i64, c: i64) -> Option<u32> {
    board
        .contains(r, c)
        .then(|| board.index(r as usize, c as usize))
}

fn agree(given: Option<Board>, file: Option<Board>, origin: &str) -> Result<Board, InputError> {
    match (given, file) {
        (Some(g), Some(f)) if g != f => Err(InputError::File(format!(
            "{origin}: the file's board is {f}, not the {g} given"
        ))),
        (Some(b), _) | (None, Some(b)) => Ok(b),
        (None, None) => Err(InputError::unsupported(
            Refusal::new(format!(
                "{origin}: a list of squares does not say its board"
            ))
            .hint(Hint::Give(Setting::with(Param::Board, "ROWSxCOLS"))),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(r: usize, c: usize) -> Board {
        Board::new(r, c).unwrap()
    }

    #[test]
    fn reads_solve_json_and_text_forms_alike() {
        let json =
            r#"{"board": {"rows": 3, "cols": 4}, "closed": false, "tour": [[0,0],[2,1],[0,2]]}"#;
        let f = parse(json, None, "t").unwrap();
        assert_eq!(f.board, b(3, 4));
        assert_eq!(f.closed, Some(false));
        let text = parse("0,0\n2,1\n0,2\n", Some(b(3, 4)), "t").unwrap();
        let algebraic = parse("a3 b1 c3", Some(b(3, 4)), "t").unwrap();
        assert_eq!(f.squares, text.squares);
        assert_eq!(f.squares, algebraic.squares);
        let list = parse("[[0,0],[2,1],[0,2]]", Some(b(3, 4)), "t").unwrap();
        assert_eq!(f.squares, list.squares);
    }

    #[test]
    fn refuses_what_is_not_a_square_list() {
        let board = Some(b(3, 4));
        for (text, needle) in [
            ("0,0 9,9", "off the 3x4 board"),
            ("0,0 x,1", "not ROW,COL"),
            ("[[0,0],[5,0]]", "off the 3x4 board"),
            ("{\"tour\": 3}", "not a tour in JSON"),
            (
                "{\"board\": {\"rows\": 4, \"cols\": 4}, \"tour\": []}",
                "not the 3x4",
            ),
        ] {
            let e = parse(text, board, "t").unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
        let e = parse("0,0", None, "t").unwrap_err();
        assert!(matches!(&e, InputError::Unsupported(r)
            if r.hint == Some(Hint::Give(Setting::with(Param::Board, "ROWSxCOLS")))));
        assert!(e.to_string().contains("board = ROWSxCOLS"), "{e}");
    }

    #[test]
    fn beyond_the_knight_reads_vertices_of_the_graph_named() {
        let file = crate::graph_file::FileGraph::parse("1 2\n2 3\n3 1\n", "t").unwrap();
        let g = KnightGraph::from_file(file).unwrap();
        let f = parse_on("3 1 2", &g, "t").unwrap();
        assert_eq!(f.vertices, vec![2, 0, 1]);
        assert_eq!(parse_on("[3, 1, 2]", &g, "t").unwrap(), f);
        // Reading stops one past the graph's vertices.
        assert_eq!(
            parse_on(&"1 ".repeat(1000), &g, "t")
                .unwrap()
                .vertices
                .len(),
            4
        );
        for (text, needle) in [
            ("1 4", "numbered 1 to 3"),
            ("1 x", "is not a number"),
            ("[[0, 0]]", "has none; give vertex numbers"),
            ("{\"target\": null, \"vertices\": [1]}", "is not the graph"),
        ] {
            let e = parse_on(text, &g, "t").unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn stops_reading_one_past_the_board() {
        let text = "0,0 ".repeat(1000);
        let f = parse(&text, Some(b(3, 4)), "t").unwrap();
        assert_eq!(f.squares.len(), 13);
    }
}
