//! `knightnet check`: put a tour from a file — written by knightnet or by any other
//! program — to the one validity oracle. Exit 0 when it is a tour, 1 when it is not
//! (the first defect is printed), 2 when the file cannot be read as a list of squares.
//! Beyond the knight on a whole plane board, the flags of `solve` name the graph
//! (`--leaper`, `--surface`, `--shape`, `--graph`) and the oracle is
//! [`knightnet::tour::check_on`] on that graph.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use super::Failure;
use super::report::Format;
use super::solve_graph::{self, GeometryArgs, Named};
use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::graph::KnightGraph;
use knightnet::tour::{check_on, validate};
use knightnet::tour_file;

/// Largest tour file read (4 GiB: a 10000x10000 tour as `solve --stream` lines is about
/// 1.1 GB).
const MAX_BYTES: u64 = 4 << 30;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Examples:\n  mkdir -p out && knightnet solve --board 8x8 --format json > out/tour.json\n  knightnet check out/tour.json --closed\n  knightnet solve --board 6x6 --surface torus --format json > out/torus.json\n  knightnet check out/torus.json --board 6x6 --surface torus"
)]
pub struct CheckArgs {
    /// The tour: `solve --format json` output, `solve --stream` lines, or squares
    /// (ROW,COL or algebraic) separated by white space; `-` reads standard input.
    pub file: PathBuf,
    #[arg(
        long,
        help = concat!(
            super::flags::board_help!(),
            " For a file that does not say its board (must agree if it does)."
        )
    )]
    pub board: Option<Board>,
    /// Require a closed tour (default: what a JSON file says, else an open tour, which a
    /// closed tour also is).
    #[arg(long)]
    pub closed: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub geometry: GeometryArgs,
}

pub fn run(args: CheckArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let g = &args.geometry;
    if g.leaper.is_some() || g.surface.is_some() || g.shape.is_some() || g.graph.is_some() {
        match solve_graph::named(args.board, g)? {
            Named::Knight(board) => return knight(&args, Some(board), out),
            Named::Other(target) => {
                return on_graph(&args, &solve_graph::graph_of(target)?, out);
            }
        }
    }
    knight(&args, args.board, out)
}

/// The check on the knight's whole plane `board` (`None`: the file names it).
fn knight(args: &CheckArgs, board: Option<Board>, out: &mut dyn Write) -> Result<(), Failure> {
    let origin = args.file.display().to_string();
    let file = tour_file::parse(&read(args)?, board, &origin)?;
    let closed = args.closed || file.closed == Some(true);
    let s = &file.squares;
    let verdict = validate(file.board, s, closed).map_err(|e| e.to_string());
    // An open tour that also closes is reported as closed.
    let closes = verdict.is_ok() && s.len() > 1 && file.board.is_knight_move(s[s.len() - 1], s[0]);
    let checked = Checked {
        board: Some(file.board),
        target: serde_json::Value::Null,
        on: format!("the {} board", file.board),
        failure: "not a knight's tour".to_string(),
        squares: s.len(),
        closed,
        closes,
        verdict,
    };
    report(args, &origin, checked, out)
}

/// The check on a geometry's or a graph file's `graph`.
fn on_graph(args: &CheckArgs, graph: &KnightGraph, out: &mut dyn Write) -> Result<(), Failure> {
    let origin = args.file.display().to_string();
    let file = tour_file::parse_on(&read(args)?, graph, &origin)?;
    let closed = args.closed || file.closed == Some(true);
    let v = &file.vertices;
    let verdict = check_on(graph, v, closed).map_err(|e| e.to_string());
    // An open tour that also closes is reported as closed.
    let closes =
        verdict.is_ok() && v.len() > 2 && graph.edge_between(v[v.len() - 1], v[0]).is_some();
    let checked = Checked {
        board: graph.board(),
        target: knightnet::json::graph(graph),
        on: graph.describe(),
        failure: format!("not a tour of {}", graph.describe()),
        squares: v.len(),
        closed,
        closes,
        verdict,
    };
    report(args, &origin, checked, out)
}

/// What a check found, as [`report`] prints it.
struct Checked {
    /// The board (`None` on a graph file).
    board: Option<Board>,
    /// What the tour was checked on, as `solve`'s JSON `target` (`null`: the knight's
    /// whole plane board).
    target: serde_json::Value,
    /// The board or graph, in words (`the 8x8 board`).
    on: String,
    /// How a failed check begins (`not a knight's tour`).
    failure: String,
    /// Squares (vertices) in the file's tour.
    squares: usize,
    /// Whether a closed tour was required.
    closed: bool,
    /// Whether the tour is a tour and closes.
    closes: bool,
    /// The oracle's verdict: its first defect, if any.
    verdict: Result<(), String>,
}

/// Print `c` as text or JSON; a tour that is not one is [`Failure::No`] (exit 1).
fn report(args: &CheckArgs, origin: &str, c: Checked, out: &mut dyn Write) -> Result<(), Failure> {
    let kind = if c.closes { "closed" } else { "open" };
    let text = match args.format {
        Format::Json => {
            let v = json!({
                "board": c.board.map(super::json::board),
                "target": c.target,
                "squares": c.squares,
                "required": if c.closed { "closed" } else { "open" },
                "valid": c.verdict.is_ok(),
                "closed": c.closes,
                "error": c.verdict.as_ref().err(),
            });
            super::json::to_text(&super::json::document("check", v))?
        }
        Format::Text => match &c.verdict {
            Ok(()) => format!("{origin}: a valid {kind} tour of {}\n", c.on),
            Err(e) => format!("{origin}: {}: {e}\n", c.failure),
        },
    };
    out.write_all(text.as_bytes())?;
    match c.verdict {
        Ok(()) => Ok(()),
        Err(_) => Err(Failure::No),
    }
}

fn read(args: &CheckArgs) -> Result<String, Failure> {
    let origin = args.file.display();
    let mut bytes = Vec::new();
    let result = if args.file.as_os_str() == "-" {
        std::io::stdin().take(MAX_BYTES + 1).read_to_end(&mut bytes)
    } else {
        // A FIFO or a device is refused at once (exit 2); permissions are the
        // environment (exit 1).
        let f = knightnet::io::open_input(&args.file)
            .map_err(|e| knightnet::io::io_failure("read", &args.file, e))?;
        f.take(MAX_BYTES + 1).read_to_end(&mut bytes)
    };
    result.map_err(|e| knightnet::io::io_failure("read", &args.file, e))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(InputError::File(format!(
            "{origin} is larger than {} GiB, the most a tour file may hold",
            MAX_BYTES >> 30
        ))
        .into());
    }
    String::from_utf8(bytes)
        .map_err(|_| InputError::File(format!("{origin} is not UTF-8 text")).into())
}
