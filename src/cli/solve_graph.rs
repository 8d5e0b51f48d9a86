//! `knightnet solve` on a geometry (`--leaper`, `--surface`, `--shape`) or a graph file
//! (`--graph`): the solvers of [`knightnet::solvers::on_graph`], their tour checked on
//! the graph searched, printed as squares (holes shown as `#`) or as the file's vertex
//! numbers. Without those flags, or when they name the knight on a whole plane board,
//! `solve` runs as it always has ([`super::solve`]).

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use super::Failure;
use super::flags::OfFlag;
use super::report::Format;
use super::solve::SolveArgs;
use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::geometry::{Leaper, Shape, Surface};
use knightnet::graph::{KnightGraph, Source};
use knightnet::plot::board::BoardFigure;
use knightnet::rng_from_seed;
use knightnet::solvers::on_graph::{self, GraphRequest, GraphSolution, GraphSolver};

pub use knightnet::target::{Named, Target};

/// The flags that name a board beyond the knight's rectangle, the same in `solve`,
/// `exists` and `count` (flattened into each one's arguments).
#[derive(Args, Debug, Clone, Default)]
pub struct GeometryArgs {
    /// The piece that moves: R,S for the (R,S)-leaper (0 <= R <= S), or knight, camel,
    /// zebra, giraffe. Default: the knight (1,2).
    #[arg(long, value_name = "R,S")]
    pub leaper: Option<Leaper>,
    /// The surface the board is drawn on: plane (default), cylinder (the columns
    /// wrap) or torus (rows and columns wrap).
    #[arg(long, value_name = "plane|cylinder|torus")]
    pub surface: Option<Surface>,
    /// The board as a text picture in FILE, one line a row: `.` a square, `#` a hole
    /// (instead of --board).
    #[arg(long, value_name = "FILE", conflicts_with = "board")]
    pub shape: Option<PathBuf>,
    /// Any undirected graph read from FILE: TSPLIB HCP, DIMACS (`p edge`) or a plain
    /// edge list, vertices numbered from 1 (instead of --board).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "leaper", "surface", "shape"])]
    pub graph: Option<PathBuf>,
}

/// What `--board` (`None`: not given, so `--shape` or `--graph` must be) and the
/// geometry flags name, read once (the shape's and the graph's files read here).
pub fn named(board: Option<Board>, flags: &GeometryArgs) -> Result<Named, Failure> {
    if let Some(path) = &flags.graph {
        return Ok(Named::Other(Target::read_file(path)?));
    }
    let shape = flags.shape.as_deref().map(read_shape).transpose()?;
    Ok(Target::name(board, shape, flags.leaper, flags.surface)?)
}

/// The target the flags name, read once: `None` when they name the knight on a whole
/// plane board (then `args.board` is that board, taken from `--shape` when given).
pub fn target(args: &mut SolveArgs) -> Result<Option<Target>, Failure> {
    match named(Some(args.board), &args.geometry)? {
        Named::Knight(board) => {
            args.board = board;
            Ok(None)
        }
        Named::Other(target) => Ok(Some(target)),
    }
}

/// The graph of a target (refused when it would not fit memory or 32-bit indices).
pub fn graph_of(target: Target) -> Result<KnightGraph, Failure> {
    Ok(target.graph()?)
}

/// The shape pictured in the file at `path` (its refusal names the file, line and
/// column).
fn read_shape(path: &Path) -> Result<Shape, Failure> {
    let text =
        std::fs::read_to_string(path).map_err(|e| knightnet::io::io_failure("read", path, e))?;
    text.parse::<Shape>().map_err(|e| {
        InputError::File(format!(
            "--shape {}: {}",
            path.display(),
            super::wording::input(&e)
        ))
        .into()
    })
}

/// Refuse a flag that only the knight's board serves.
fn refuse_knight_flags(args: &SolveArgs, graph: &KnightGraph) -> Result<(), InputError> {
    let given = [
        ("--tile", args.tile.is_some()),
        ("--trace", args.trace.is_some()),
        ("--stream", args.stream),
        ("--reverse", args.reverse),
        ("--restarts", args.restarts.is_some()),
    ];
    if let Some((flag, _)) = given.into_iter().find(|&(_, on)| on) {
        return Err(InputError::param(format!(
            "{flag} applies to the knight on a whole plane board, not to {}; drop it",
            graph.describe()
        )));
    }
    let image = [("--png", &args.png), ("--svg", &args.svg)]
        .into_iter()
        .find(|(_, path)| path.is_some());
    if let (Some((flag, _)), Source::File(_)) = (image, graph.source()) {
        return Err(InputError::param(format!(
            "{flag} draws a board, and {} has no squares to draw; drop it, or solve a board, a leaper, a surface or a shape",
            graph.describe()
        )));
    }
    Ok(())
}

/// The solver the flags name, with the network flags and the step budget applied.
fn solver(args: &SolveArgs) -> Result<GraphSolver, Failure> {
    let mut kind = args.network_kind()?;
    kind.apply_classical_flags(args.tie_break, args.max_steps, None)?;
    Ok(GraphSolver::from_kind(&kind)?)
}

/// The vertex `--start` names: a square (`ROW,COL` or algebraic) that is not a hole on
/// a geometry, a vertex number of the file (from 1) on a file graph.
fn start_vertex(graph: &KnightGraph, text: &str) -> Result<u32, Failure> {
    Ok(match graph.source() {
        Source::Geometry(m) => {
            m.start_vertex(m.geometry().board().parse_square(text).of_flag("--start")?)?
        }
        Source::File(f) => f.start_vertex(text)?,
        Source::Knight(_) => unreachable!("the knight's board runs in solve"),
    })
}

/// `solve` on a geometry or a graph file.
pub fn run(args: &SolveArgs, target: Target, out: &mut dyn Write) -> Result<(), Failure> {
    args.refuse_summary_with_json()?;
    super::plot::check_image_flags(args.png.as_deref(), args.svg.as_deref())?;
    let solver = solver(args)?;
    let graph = graph_of(target)?;
    refuse_knight_flags(args, &graph)?;
    let start = args
        .start
        .as_deref()
        .map(|s| start_vertex(&graph, s))
        .transpose()?;
    let closed = if args.closed {
        true
    } else if args.open {
        false
    } else {
        solver.closed_by_default()
    };
    let req = GraphRequest { closed, start };
    let sol = on_graph::solve(&graph, &solver, &req, &mut rng_from_seed(args.seed))?;
    match args.format {
        Format::Json => {
            let doc = knightnet::json::graph_solution(&sol, &graph, args.seed);
            out.write_all(
                knightnet::json::to_text(&doc)
                    .map_err(anyhow::Error::from)?
                    .as_bytes(),
            )?;
        }
        Format::Text => write_text(&sol, &graph, args.seed, args.summary, out)?,
    }
    write_figures(args, &sol, &graph)?;
    if sol.tour.is_none() {
        return Err(super::solve::no_tour(sol.attempts, sol.outcome));
    }
    Ok(())
}

/// `--png`/`--svg`: the tour drawn on its geometry (holes and wrap-around moves
/// shown); nothing without a tour.
fn write_figures(
    args: &SolveArgs,
    sol: &GraphSolution,
    graph: &KnightGraph,
) -> Result<(), Failure> {
    let Some(fig) = BoardFigure::graph_solution(sol, graph, args.seed) else {
        return Ok(());
    };
    let width = BoardFigure::default_width(fig.board);
    for path in [&args.png, &args.svg].into_iter().flatten() {
        fig.save(path, width)?;
    }
    Ok(())
}

/// The text output: a summary line; then, unless `summary`, on a geometry the board
/// with move numbers (holes as `#`, row 0 on top), on a file graph the file's vertex
/// numbers in visiting order on one line.
fn write_text(
    sol: &GraphSolution,
    graph: &KnightGraph,
    seed: u64,
    summary: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut w = BufWriter::new(out);
    let found = sol
        .tour
        .as_ref()
        .map(|t| (t.is_closed(), graph.vertex_name(t.vertices()[0])));
    writeln!(
        w,
        "{} on {}, seed {seed}: {}",
        sol.solver,
        graph.describe(),
        super::solve_output::outcome_words(
            found,
            sol.attempts,
            sol.outcome,
            sol.iterations,
            sol.steps
        )
    )?;
    let Some(t) = sol.tour.as_ref().filter(|_| !summary) else {
        return w.flush();
    };
    match graph.source() {
        Source::Geometry(m) => {
            let board = m.geometry().board();
            let mut num = vec![0usize; board.squares()];
            for (i, &v) in t.vertices().iter().enumerate() {
                num[m.square(v) as usize] = i + 1;
            }
            let width = t.vertices().len().to_string().len();
            for r in 0..board.rows() {
                for c in 0..board.cols() {
                    let sep = if c == 0 { "" } else { " " };
                    match num[board.index(r, c) as usize] {
                        0 => write!(w, "{sep}{:>width$}", "#")?,
                        n => write!(w, "{sep}{n:>width$}")?,
                    }
                }
                writeln!(w)?;
            }
        }
        _ => {
            let names: Vec<String> = t.vertices().iter().map(|&v| graph.vertex_name(v)).collect();
            writeln!(w, "{}", names.join(" "))?;
        }
    }
    w.flush()
}
