//! `knightnet exists`: whether a knight's tour of a board exists, answered from the
//! theorems in [`knightnet::existence`] (and, for a given start square, the colour
//! argument, the outer lines of 4 x n and the 3x4, 3x7 and 3x8 exceptions), without
//! any search. Exit status: 0 when a tour exists, 1 when none does (the answer is
//! printed either way), 2 for bad input.

use std::io::Write;

use clap::Args;
use serde_json::json;

use super::Failure;
use super::flags::start_square;
use super::report::Format;
use knightnet::board::Board;
use knightnet::existence;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Exit status: 0 when a tour exists (\"yes\"), 1 when none does (\"no\"; the answer is\nprinted either way, as grep and test answer through their status), 2 for bad input.\n\nExample:\n  knightnet exists --board 5x5 --closed || echo \"no closed tour\""
)]
pub struct ExistsArgs {
    #[arg(long, help = super::flags::board_help!())]
    pub board: Board,
    /// Ask about closed tours (default: open tours).
    #[arg(long)]
    pub closed: bool,
    /// Ask about tours starting on this square: ROW,COL (0-based) or algebraic like c3.
    #[arg(long)]
    pub start: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: ExistsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let board = args.board;
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
