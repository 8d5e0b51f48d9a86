//! `knightnet exists`: whether a knight's tour of a board exists, answered from the
//! theorems in [`knightnet::existence`] (and, for a given start square, the colour
//! argument, the outer lines of 4 x n and the 3x4, 3x7 and 3x8 exceptions), without
//! any search. Beyond it (`--leaper`, `--surface`, `--shape`, `--graph`),
//! [`knightnet::existence::tour_on_graph`] answers from theorems where one applies and
//! from exhaustive search with a budget (`--max-steps`) otherwise, saying which. Exit
//! status: 0 when a tour exists, 1 when none does (the answer is printed either way),
//! 3 when the search's budget ran out (unknown), 2 for bad input.

use std::io::Write;

use clap::Args;
use serde_json::json;

use super::Failure;
use super::flags::start_square;
use super::report::Format;
use super::solve_graph::{self, GeometryArgs, Named};
use knightnet::board::Board;
use knightnet::existence::{self, Basis};
use knightnet::graph::KnightGraph;

/// The default budget of `--max-steps`: vertices the exhaustive search may place.
const DEFAULT_EXISTS_STEPS: u64 = 10_000_000;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Exit status: 0 when a tour exists (\"yes\"), 1 when none does (\"no\"; the answer is\nprinted either way, as grep and test answer through their status), 3 when the search's\nbudget ran out (\"unknown\"), 2 for bad input.\n\nExamples:\n  knightnet exists --board 5x5 --closed || echo \"no closed tour\"\n  knightnet exists --board 6x6 --leaper 2,3 --surface torus --closed"
)]
pub struct ExistsArgs {
    #[arg(long, required_unless_present_any = ["graph", "shape"], help = super::flags::board_help!())]
    pub board: Option<Board>,
    /// Ask about closed tours (default: open tours).
    #[arg(long)]
    pub closed: bool,
    /// Ask about tours starting on this square: ROW,COL (0-based) or algebraic like c3.
    #[arg(long)]
    pub start: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The piece, the surface, a shape or a graph file instead of the knight on a whole
    /// plane board.
    #[command(flatten)]
    pub geometry: GeometryArgs,
    /// Beyond the knight on a whole plane board, where no theorem settles the case: the
    /// most vertices the exhaustive search may place before answering unknown.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_EXISTS_STEPS)]
    pub max_steps: u64,
}

pub fn run(args: ExistsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let board = match solve_graph::named(args.board, &args.geometry)? {
        Named::Knight(board) => board,
        Named::Other(target) => {
            if args.start.is_some() {
                return Err(knightnet::error::InputError::param(
                    "--start applies to the knight on a whole plane board; drop it to ask about any tour",
                )
                .into());
            }
            let graph = solve_graph::graph_of(target)?;
            return beyond(&args, &graph, out);
        }
    };
    let start = start_square(board, args.start.as_deref())?;
    let ex = match start {
        Some(s) => existence::tour_exists_from(board, s, args.closed),
        None => existence::tour_exists(board, args.closed),
    };
    let kind = if args.closed { "closed" } else { "open" };
    let text = match args.format {
        Format::Json => {
            let v = json!({
                "board": super::json::board(board),
                "closed": args.closed,
                "start": start.map(|s| super::json::square(board, s)),
                "start_name": start.map(|s| board.square_name(s)),
                "exists": ex.exists,
                "reason": ex.reason,
            });
            super::json::to_text(&super::json::document("exists", v))?
        }
        Format::Text => format!(
            "{}: {} ({kind} tour{})\n",
            if ex.exists { "yes" } else { "no" },
            ex.reason,
            start
                .map(|s| format!(" from {}", board.square_name(s)))
                .unwrap_or_default()
        ),
    };
    out.write_all(text.as_bytes())?;
    // The answer is also the exit status, as `test` and `grep` do: 0 for yes, 1 for no
    // (2 stays bad input), so a script can write `knightnet exists ... && ...`.
    if ex.exists { Ok(()) } else { Err(Failure::No) }
}

/// `exists` on a geometry or a graph file: [`existence::tour_on_graph`], its answer
/// printed as `yes`, `no` or `unknown` with the reason and what it rests on.
fn beyond(args: &ExistsArgs, graph: &KnightGraph, out: &mut dyn Write) -> Result<(), Failure> {
    let ex = existence::tour_on_graph(graph, args.closed, args.max_steps);
    let kind = if args.closed { "closed" } else { "open" };
    let answer = match ex.exists {
        Some(true) => "yes",
        Some(false) => "no",
        None => "unknown",
    };
    let basis = match ex.basis {
        Basis::Theorem => "theorem",
        Basis::Search => "exhaustive search",
        Basis::Budget => "search budget spent",
    };
    let text = match args.format {
        Format::Json => {
            let v = json!({
                "graph": graph.describe(),
                "closed": args.closed,
                "exists": ex.exists,
                "basis": ex.basis,
                "steps": ex.steps,
                "max_steps": args.max_steps,
                "reason": ex.reason,
            });
            super::json::to_text(&super::json::document("exists", v))?
        }
        Format::Text => format!("{answer}: {} ({kind} tour; {basis})\n", ex.reason),
    };
    out.write_all(text.as_bytes())?;
    match ex.exists {
        Some(true) => Ok(()),
        Some(false) => Err(Failure::No),
        None => Err(Failure::Unknown),
    }
}
