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
    let text = read(args)?;
    let file = tour_file::parse(&text, board, &origin)?;
    let closed = args.closed || file.closed == Some(true);
    let verdict = validate(file.board, &file.squares, closed);
    // An open tour that also closes is reported as closed.
    let closes = verdict.is_ok()
        && file.squares.len() > 1
        && file
            .board
            .is_knight_move(file.squares[file.squares.len() - 1], file.squares[0]);
    let kind = if closes { "closed" } else { "open" };
    let text = match args.format {
        Format::Json => {
            let v = json!({
                "board": super::json::board(file.board),
                "squares": file.squares.len(),
                "required": if closed { "closed" } else { "open" },
                "valid": verdict.is_ok(),
                "closed": closes,
                "error": verdict.as_ref().err().map(ToString::to_string),
            });
            super::json::to_text(&super::json::document(
                "check",
                json_with_target(v, serde_json::Value::Null),
            ))?
        }
        Format::Text => match &verdict {
            Ok(()) => format!(
                "{origin}: a valid {kind} tour of the {} board\n",
                file.board
            ),
            Err(e) => format!("{origin}: not a knight's tour: {e}\n"),
        },
    };
    out.write_all(text.as_bytes())?;
    match verdict {
        Ok(()) => Ok(()),
        Err(_) => Err(Failure::No),
    }
}

/// The check on a geometry's or a graph file's `graph`.
fn on_graph(args: &CheckArgs, graph: &KnightGraph, out: &mut dyn Write) -> Result<(), Failure> {
    let origin = args.file.display().to_string();
    let text = read(args)?;
    let file = tour_file::parse_on(&text, graph, &origin)?;
    let closed = args.closed || file.closed == Some(true);
    let v = &file.vertices;
    let verdict = check_on(graph, v, closed);
    // An open tour that also closes is reported as closed.
    let closes =
        verdict.is_ok() && v.len() > 2 && graph.edge_between(v[v.len() - 1], v[0]).is_some();
    let kind = if closes { "closed" } else { "open" };
    let text = match args.format {
        Format::Json => {
            let doc = json!({
                "board": graph.board().map(super::json::board),
                "squares": v.len(),
                "required": if closed { "closed" } else { "open" },
                "valid": verdict.is_ok(),
                "closed": closes,
                "error": verdict.as_ref().err().map(ToString::to_string),
            });
            super::json::to_text(&super::json::document(
                "check",
                json_with_target(doc, knightnet::json::graph(graph)),
            ))?
        }
        Format::Text => match &verdict {
            Ok(()) => format!("{origin}: a valid {kind} tour of {}\n", graph.describe()),
            Err(e) => format!("{origin}: not a tour of {}: {e}\n", graph.describe()),
        },
    };
    out.write_all(text.as_bytes())?;
    match verdict {
        Ok(()) => Ok(()),
        Err(_) => Err(Failure::No),
    }
}

/// `doc` with the `target` key: what the tour was checked on (`null`: the knight's whole
/// plane board).
fn json_with_target(mut doc: serde_json::Value, target: serde_json::Value) -> serde_json::Value {
    doc["target"] = target;
    doc
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
