//! `solve`'s output of one solution, written to a writer square by square: JSON (the
//! output contract of `solve --format json`) and text (a summary line and the board with
//! move numbers). Neither is ever built whole in memory, so the output costs a few bytes
//! per square on top of the tour ([`held_bytes_per_square`]) whatever the board.

use std::io::{self, BufWriter, Write};

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Value};

use super::report::Format;
use knightnet::board::Board;
use knightnet::solvers::Solution;
use knightnet::tour::Tour;

/// Bytes per square the output of `format` holds while it is written, the tour itself
/// included (its squares as `u32`): JSON walks the tour; text also keeps each square's
/// move number (`u32`) to print the board row by row.
pub fn held_bytes_per_square(format: Format) -> u64 {
    match format {
        Format::Json => 4,
        Format::Text => 8,
    }
}

/// The JSON object of a solution as one value (it holds the whole tour: for small boards
/// and tests; `solve` writes the same bytes with [`write_json`]).
#[cfg(test)]
use knightnet::json::solution as solution_json;

/// The fields in the map's own order, with the tour's `[row, col]` pairs produced while
/// serializing.
struct Streamed<'a> {
    fields: &'a Map<String, Value>,
    tour: Option<&'a Tour>,
}

/// A tour as a sequence of `[row, col]` pairs, produced one square at a time.
struct Coords<'a>(&'a Tour);

impl Serialize for Coords<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let board = self.0.board();
        let squares = self.0.squares();
        let mut seq = s.serialize_seq(Some(squares.len()))?;
        for &sq in squares {
            let (r, c) = board.coords(sq);
            seq.serialize_element(&[r, c])?;
        }
        seq.end()
    }
}

impl Serialize for Streamed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.fields.len()))?;
        for (k, v) in self.fields {
            match (k.as_str(), self.tour) {
                ("tour", Some(t)) => map.serialize_entry(k, &Coords(t))?,
                _ => map.serialize_entry(k, v)?,
            }
        }
        map.end()
    }
}

/// Write the solution as pretty JSON and a newline: the bytes of
/// `serde_json::to_string_pretty(&solution_json(..))` plus `\n`, produced square by
/// square.
pub fn write_json(sol: &Solution, board: Board, seed: u64, out: &mut dyn Write) -> io::Result<()> {
    let fields = knightnet::json::solution_fields(sol, board, seed);
    let mut w = BufWriter::with_capacity(1 << 16, out);
    let doc = Streamed {
        fields: &fields,
        tour: sol.tour(),
    };
    serde_json::to_writer_pretty(&mut w, &doc).map_err(io::Error::from)?;
    w.write_all(b"\n")?;
    w.flush()
}

/// The summary line of the text output (with its newline).
fn summary(sol: &Solution, board: Board, seed: u64) -> String {
    let found = sol
        .tour()
        .map(|t| (t.is_closed(), board.square_name(t.start())));
    format!(
        "{} on {board}, seed {seed}: {}\n",
        sol.solver_label(),
        outcome_words(
            found,
            sol.attempts,
            sol.outcome(),
            sol.iterations,
            sol.steps
        )
    )
}

/// What a solve ended with, as the summary line words it after "NAME on WHERE, seed S: "
/// (one wording for the knight's board and for any other graph): `found` is whether the
/// tour is closed and the name of its start; `last` the last attempt's outcome.
pub fn outcome_words(
    found: Option<(bool, String)>,
    attempts: u64,
    last: impl std::fmt::Display,
    iterations: u64,
    steps: Option<u64>,
) -> String {
    let effort = if iterations > 0 {
        format!(", {iterations} iterations in all")
    } else {
        String::new()
    };
    let steps = steps.map(|n| format!(", {n} steps")).unwrap_or_default();
    let plural = if attempts == 1 { "" } else { "s" };
    match found {
        Some((closed, start)) => format!(
            "{} tour from {start} after {attempts} attempt{plural}{effort}{steps}",
            if closed { "closed" } else { "open" },
        ),
        None => format!("no tour after {attempts} attempt{plural} (last: {last}){effort}{steps}"),
    }
}

/// Write the summary line alone (`solve --summary`).
pub fn write_summary(
    sol: &Solution,
    board: Board,
    seed: u64,
    out: &mut dyn Write,
) -> io::Result<()> {
    out.write_all(summary(sol, board, seed).as_bytes())?;
    out.flush()
}

/// Text output as one string (the bytes [`write_text`] streams, whole: for the tests).
#[cfg(test)]
pub fn solution_text(sol: &Solution, board: Board, seed: u64) -> String {
    let mut bytes = Vec::new();
    write_text(sol, board, seed, &mut bytes).expect("writing to memory cannot fail");
    String::from_utf8(bytes).expect("the text output is UTF-8")
}

/// Write the text output: the summary line, then (with a tour) the board with move
/// numbers, row 0 on top, each number right-aligned to the width of the largest, row by
/// row (the format of [`Tour`]'s `Display`).
pub fn write_text(sol: &Solution, board: Board, seed: u64, out: &mut dyn Write) -> io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 16, out);
    w.write_all(summary(sol, board, seed).as_bytes())?;
    if let Some(t) = &sol.tour() {
        let squares = t.squares();
        let mut num = vec![0u32; squares.len()];
        for (i, &s) in squares.iter().enumerate() {
            num[s as usize] = i as u32 + 1;
        }
        let width = squares.len().to_string().len();
        for r in 0..board.rows() {
            for c in 0..board.cols() {
                let sep = if c == 0 { "" } else { " " };
                write!(w, "{sep}{:>width$}", num[board.index(r, c) as usize])?;
            }
            w.write_all(b"\n")?;
        }
    }
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::solve::Format;
    use knightnet::board::Board;
    use knightnet::rng_from_seed;
    use knightnet::solvers::{Request, SolverKind};

    #[test]
    fn text_holds_more_per_square_than_json() {
        assert!(held_bytes_per_square(Format::Text) > held_bytes_per_square(Format::Json));
    }

    /// The written JSON is the pretty-printed value, byte for byte, and parses back to it;
    /// the text is the summary line and the tour's `Display` (the output before streaming).
    #[test]
    fn streamed_output_has_the_bytes_of_the_whole_value() {
        let cases = [
            ("network", 8, 8, true),
            ("network+merge", 10, 10, true),
            ("network:wikipedia", 6, 6, true),
            ("warnsdorff:random", 9, 9, false),
            ("divide-conquer", 12, 17, true),
            ("backtrack", 5, 5, false),
            ("circuit", 8, 8, true),
        ];
        for (name, rows, cols, closed) in cases {
            let kind: SolverKind = name.parse().unwrap();
            let board = Board::new(rows, cols).unwrap();
            let mut req = Request::new(board);
            req.closed = Some(closed).into();
            for seed in 1..4 {
                let sol = kind.build().solve(&req, &mut rng_from_seed(seed)).unwrap();
                let whole =
                    serde_json::to_string_pretty(&solution_json(&sol, board, seed)).unwrap() + "\n";
                let mut streamed = Vec::new();
                write_json(&sol, board, seed, &mut streamed).unwrap();
                assert_eq!(
                    String::from_utf8(streamed.clone()).unwrap(),
                    whole,
                    "{name} seed {seed}"
                );
                let parsed: serde_json::Value = serde_json::from_slice(&streamed).unwrap();
                assert_eq!(parsed, solution_json(&sol, board, seed));
                if let Some(t) = &sol.tour() {
                    assert_eq!(parsed["tour"].as_array().unwrap().len(), rows * cols);
                    assert_eq!(parsed["tour"][1][0], t.coords()[1][0]);
                }
                let mut text = Vec::new();
                write_text(&sol, board, seed, &mut text).unwrap();
                let text = String::from_utf8(text).unwrap();
                assert_eq!(text, solution_text(&sol, board, seed));
                let (first, rest) = text.split_once('\n').unwrap();
                assert!(first.starts_with(sol.solver().family().name()), "{first}");
                match &sol.tour() {
                    Some(t) => assert_eq!(rest, t.to_string(), "{name} seed {seed}"),
                    None => assert_eq!(rest, ""),
                }
            }
        }
    }
}
