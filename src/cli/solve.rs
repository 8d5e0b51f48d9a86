//! `knightnet solve`: find one tour with any solver and print it as text or JSON.

use std::io::Write;
use std::path::PathBuf;

use std::str::FromStr;

use clap::Args;

use super::flags::start_square;
use super::solve_graph::GeometryArgs;
use super::{Failure, solve_output, write_atomic};
use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::network::{Clamp, Init, NetworkParams, Overrides, Preset, StopRule, UpdateOrder};
use knightnet::solvers::divide_conquer::DivideConquerSolver;
use knightnet::solvers::network::NetworkSolver;
use knightnet::solvers::neural_merge::{NeuralMergeSolver, TileMode};
use knightnet::solvers::warnsdorff::TieBreak;
use knightnet::solvers::{Closure, Outcome, Request, SolverKind, split_name};
use knightnet::trace_file::TraceFile;
use knightnet::{DEFAULT_SEED, rng_from_seed};

/// The output format (shared with the other commands that print one answer).
pub use super::report::Format;

/// Network parameter overrides shared by every command that runs the network; turned
/// into the library's [`Overrides`], the one wiring of these knobs.
#[derive(Debug, Clone, Default, Args)]
pub struct NetworkFlags {
    /// Network rule preset: takefuji-lee, brant, parberry, wikipedia, numpy, or a rule
    /// other than the plain one: noisy, local-restart.
    #[arg(long, value_name = "PRESET")]
    pub variant: Option<Preset>,
    /// Override the bias C.
    #[arg(long = "c", value_name = "C", allow_negative_numbers = true)]
    pub c: Option<i32>,
    /// Override the self-coupling S.
    #[arg(long = "s", value_name = "S", allow_negative_numbers = true)]
    pub s: Option<i32>,
    /// Override the upper threshold (V turns on when U > upper).
    #[arg(long, allow_negative_numbers = true)]
    pub upper: Option<i32>,
    /// Override the lower threshold (V turns off when U < lower).
    #[arg(long, allow_negative_numbers = true)]
    pub lower: Option<i32>,
    /// Override the update order: synchronous, sequential, random-permutation, square-sweep.
    #[arg(long)]
    pub order: Option<UpdateOrder>,
    /// Override the initialisation: random-outputs, negative-states.
    #[arg(long)]
    pub init: Option<Init>,
    /// Clamp U to ±K, or `none`.
    #[arg(long, value_name = "K|none", allow_negative_numbers = true)]
    pub clamp: Option<Clamp>,
    /// Override the stop rule: stable, degree-two, either.
    #[arg(long)]
    pub stop: Option<StopRule>,
    /// Steps (synchronous) or sweeps (sequential) per attempt.
    #[arg(long)]
    pub max_iterations: Option<u32>,
    /// Attempts (restarts + 1) before giving up.
    #[arg(long)]
    pub max_attempts: Option<u32>,
}

impl NetworkFlags {
    /// The flags as the library's overrides.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            preset: self.variant,
            c: self.c,
            s: self.s,
            upper: self.upper,
            lower: self.lower,
            order: self.order,
            init: self.init,
            clamp: self.clamp,
            stop: self.stop,
            max_iterations: self.max_iterations,
            max_attempts: self.max_attempts,
        }
    }

    /// Whether any network flag was given.
    pub fn any(&self) -> bool {
        self.overrides().any()
    }

    /// Apply the preset and overrides to `base`, then check the result.
    pub fn apply(&self, base: NetworkParams) -> Result<NetworkParams, InputError> {
        self.overrides().apply(base)
    }
}

/// `--solver`: the solver, and the name it was given by (messages quote it; a preset
/// or tie-break written in it is checked against `--variant` and `--tie-break`).
#[derive(Debug, Clone)]
pub struct SolverName {
    pub kind: SolverKind,
    pub name: String,
}

impl FromStr for SolverName {
    type Err = InputError;
    fn from_str(s: &str) -> Result<SolverName, InputError> {
        Ok(SolverName {
            kind: s.parse()?,
            name: s.trim().to_string(),
        })
    }
}

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Examples:\n  knightnet solve --board 10x10 --solver warnsdorff:squirrel-cull --format json\n  knightnet solve --board 100x100 --merge --summary"
)]
pub struct SolveArgs {
    #[arg(long, default_value = "8x8", allow_hyphen_values = true, help = super::flags::board_help!())]
    pub board: Board,
    /// Solver: network[:PRESET], network+merge[:PRESET], warnsdorff[:TIE], backtrack,
    /// forward-check[:connectivity], warnsdorff-backtrack[:ties], circuit, divide-conquer.
    #[arg(long, default_value = "network")]
    pub solver: SolverName,
    /// Seed of the ChaCha8 random stream.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Start square: ROW,COL (0-based, row 0 at the top) or algebraic like c3.
    #[arg(long, allow_hyphen_values = true)]
    pub start: Option<String>,
    /// Walk the closed tour in the other direction.
    #[arg(long)]
    pub reverse: bool,
    /// Require a closed tour.
    #[arg(long, conflicts_with = "open")]
    pub closed: bool,
    /// An open tour is enough (the network and network+merge then run on the open graph
    /// and find open tours, from --start when given).
    #[arg(long)]
    pub open: bool,
    /// Join the network's cycles into one tour (same as --solver network+merge).
    #[arg(long)]
    pub merge: bool,
    /// With network+merge: run the network on tiles of this side and merge across them;
    /// `none` for one whole-board network; `auto` (default): tiles of 10 above 20x20.
    #[arg(long, value_name = "SIDE|none|auto")]
    pub tile: Option<TileMode>,
    /// Write the network's trace (outputs after every step) of the last attempt as JSON.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Also draw the tour as a PNG image (written only when a tour is found; `animate
    /// --attempt` draws failures).
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Also draw the tour as an SVG image (written only when a tour is found).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub network: NetworkFlags,
    /// Warnsdorff tie-break: roth (default), squirrel-cull, pohl, first, random.
    #[arg(long, value_name = "TIE")]
    pub tie_break: Option<TieBreak>,
    /// Step budget of the search solvers (squares placed before giving up; with
    /// forward-check:connectivity the squares its connectivity checks scan count too).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Re-run a failed warnsdorff:random run up to N more times.
    #[arg(long, value_name = "N")]
    pub restarts: Option<u32>,
    /// Text output: print only the summary line, not the board of move numbers (for
    /// large boards; --png/--svg still draw the tour).
    #[arg(long, conflicts_with = "stream")]
    pub summary: bool,
    /// The piece, the surface, a shape or a graph file instead of the knight on a whole
    /// plane board.
    #[command(flatten)]
    pub geometry: GeometryArgs,
    /// Write the tour as it is built, one `row,col` line per square (0-based, row 0 at
    /// the top, in visiting order) and nothing else, without holding it in memory: the
    /// same tour as without --stream. divide-conquer (boards with both sides >= 5) and
    /// network+merge.
    #[arg(long)]
    pub stream: bool,
}

impl SolveArgs {
    /// A preset or tie-break named in `--solver NAME:X` and again by its own flag must
    /// agree (the flag used to win silently).
    pub(super) fn refuse_contradictions(&self) -> Result<(), InputError> {
        if split_name(&self.solver.name).1.is_none() {
            return Ok(());
        }
        let clash = match &self.solver.kind {
            SolverKind::Network(p) | SolverKind::NetworkMerge { params: p, .. } => self
                .network
                .variant
                .filter(|v| p.preset != Some(*v))
                .map(|v| ("--variant", v.to_string(), "preset")),
            SolverKind::Warnsdorff { tie, .. } => self
                .tie_break
                .filter(|t| t != tie)
                .map(|t| ("--tie-break", t.to_string(), "tie-break")),
            _ => None,
        };
        match clash {
            Some((flag, value, what)) => Err(InputError::param(format!(
                "--solver {} and {flag} {value} contradict each other; give the {what} once",
                self.solver.name
            ))),
            None => Ok(()),
        }
    }

    fn format_name(&self) -> &'static str {
        match self.format {
            Format::Text => "text",
            Format::Json => "JSON",
        }
    }
}

/// The validated configuration of one `solve`.
#[derive(Debug, Clone)]
pub struct SolveConfig {
    pub request: Request,
    pub solver: SolverKind,
    pub seed: u64,
}

impl SolveArgs {
    /// The network flags (`--variant`, `--c`, ...) applied to `solver`'s parameters; bad
    /// input if they are given for a solver without a network.
    pub fn apply_network_flags(&self, solver: &mut SolverKind) -> Result<(), Failure> {
        match solver {
            SolverKind::Network(p) => *p = self.network.apply(*p)?,
            SolverKind::NetworkMerge { params, .. } => *params = self.network.apply(*params)?,
            _ if self.network.any() => {
                return Err(InputError::param(format!(
                    "network flags (--variant, --c, ...) apply only to --solver network, not '{}'",
                    self.solver.name
                ))
                .into());
            }
            _ => {}
        }
        Ok(())
    }

    /// `--summary` with `--format json` is bad input: the JSON always holds the tour.
    pub fn refuse_summary_with_json(&self) -> Result<(), InputError> {
        if self.summary && self.format == Format::Json {
            return Err(InputError::param(
                "--summary shortens the text output; --format json always holds the tour (drop one of them)",
            ));
        }
        Ok(())
    }

    /// The solver the flags name: `--solver`, with `--merge`, `--tile` and the network
    /// flags applied (the classical flags are the caller's).
    pub fn network_kind(&self) -> Result<SolverKind, Failure> {
        let mut solver = self.solver.kind.clone();
        self.refuse_contradictions()?;
        if self.merge {
            solver = solver.merged()?;
        }
        if let Some(t) = self.tile {
            solver.set_tile(t)?;
        }
        self.apply_network_flags(&mut solver)?;
        Ok(solver)
    }

    pub fn config(&self) -> Result<SolveConfig, Failure> {
        let board = self.board;
        let mut solver = self.network_kind()?;
        solver.apply_classical_flags(self.tie_break, self.max_steps, self.restarts)?;
        if self.trace.is_some() && !matches!(solver, SolverKind::Network(_)) {
            return Err(InputError::param(
                "--trace records the network's outputs; use it with --solver network",
            )
            .into());
        }
        let start = start_square(board, self.start.as_deref())?;
        let closed = if self.closed {
            Closure::Closed
        } else if self.open {
            Closure::Open
        } else {
            Closure::SolverDefault
        };
        Ok(SolveConfig {
            request: Request {
                board,
                closed,
                start,
                reverse: self.reverse,
            },
            solver,
            seed: self.seed,
        })
    }
}

/// `--stream`: the divide-conquer or network+merge tour as `row,col` lines, written
/// while it is walked.
fn run_stream(args: &SolveArgs, cfg: &SolveConfig, out: &mut dyn Write) -> Result<(), Failure> {
    if !matches!(
        cfg.solver,
        SolverKind::DivideConquer | SolverKind::NetworkMerge { .. }
    ) {
        return Err(InputError::param(format!(
            "--stream writes a tour without holding it; only --solver divide-conquer and network+merge can, not '{}'",
            cfg.solver
        ))
        .into());
    }
    if args.format != Format::Text || args.png.is_some() || args.svg.is_some() {
        return Err(InputError::param(
            "--stream writes plain `row,col` lines; it cannot be combined with --format json, --png or --svg",
        )
        .into());
    }
    let board = cfg.request.board;
    let mut lines = Lines::new(out, board.rows().max(board.cols()));
    match &cfg.solver {
        SolverKind::NetworkMerge { params, tile } => {
            let solver = NeuralMergeSolver::new(*params, *tile);
            let mut rng = rng_from_seed(cfg.seed);
            let streamed = solver.stream(&cfg.request, &mut rng, |r, c| lines.push(r, c));
            lines.finish()?;
            let solution = streamed?;
            if solution.outcome != Outcome::Tour {
                return Err(no_tour(solution.attempts, solution.outcome));
            }
        }
        _ => {
            let streamed = DivideConquerSolver.stream(&cfg.request, |r, c| lines.push(r, c));
            lines.finish()?;
            streamed?;
        }
    }
    Ok(())
}

/// `row,col` lines into a writer through a fixed buffer. Numbers come from a table of
/// the decimal forms of 0..side (O(rows + cols) memory), copied 16 bytes at a time.
struct Lines<'a> {
    out: &'a mut dyn Write,
    buf: Vec<u8>,
    len: usize,
    digits: Vec<([u8; 16], u8)>,
    failed: Option<std::io::Error>,
}

impl<'a> Lines<'a> {
    const BUF: usize = 1 << 16;

    fn new(out: &'a mut dyn Write, side: usize) -> Lines<'a> {
        let digits = (0..side)
            .map(|v| {
                let text = v.to_string();
                let mut d = [0u8; 16];
                d[..text.len()].copy_from_slice(text.as_bytes());
                (d, text.len() as u8)
            })
            .collect();
        Lines {
            out,
            buf: vec![0; Self::BUF],
            len: 0,
            digits,
            failed: None,
        }
    }

    #[inline]
    fn push(&mut self, r: usize, c: usize) {
        if self.len > Self::BUF - 40 {
            self.flush_buf();
        }
        for (v, sep) in [(r, b','), (c, b'\n')] {
            let (d, n) = &self.digits[v];
            self.buf[self.len..self.len + 16].copy_from_slice(d);
            self.len += usize::from(*n);
            self.buf[self.len] = sep;
            self.len += 1;
        }
    }

    /// Write the buffer out; after an error, keep dropping lines (the walk cannot be
    /// stopped) and report the error at the end.
    fn flush_buf(&mut self) {
        if self.failed.is_none()
            && let Err(e) = self.out.write_all(&self.buf[..self.len])
        {
            self.failed = Some(e);
        }
        self.len = 0;
    }

    fn finish(mut self) -> std::io::Result<()> {
        self.flush_buf();
        match self.failed.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

pub fn run(mut args: SolveArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if let Some(target) = super::solve_graph::target(&mut args)? {
        return super::solve_graph::run(&args, target, out);
    }
    let cfg = args.config()?;
    args.refuse_summary_with_json()?;
    if args.stream {
        return run_stream(&args, &cfg, out);
    }
    super::plot::check_image_flags(args.png.as_deref(), args.svg.as_deref())?;
    if let Some(path) = &args.trace {
        // A FIFO, a device or a folder is refused before the solve (exit 2).
        knightnet::io::check_writable(path)?;
    }
    // The solver's own checks first (what the input must change comes before what the
    // memory cannot hold), then what the output holds after the solve (the tour and,
    // for text, move numbers).
    let solver = cfg.solver.build();
    solver.check(&cfg.request)?;
    let board = cfg.request.board;
    knightnet::graph::check_bytes(
        board,
        board.squares() as u64 * solve_output::held_bytes_per_square(args.format),
        &format!("the tour and its {} output", args.format_name()),
    )?;
    let mut rng = rng_from_seed(cfg.seed);
    let solution = match (&cfg.solver, &args.trace) {
        (SolverKind::Network(p), Some(path)) => {
            let (sol, trace, graph) =
                NetworkSolver::new(*p).solve_traced(&cfg.request, &mut rng)?;
            let doc = TraceFile::new(&graph, *p, cfg.seed, sol.attempts, sol.outcome(), trace)?;
            let bytes = serde_json::to_vec(&doc).map_err(anyhow::Error::from)?;
            write_atomic(path, &bytes)?;
            sol
        }
        _ => solver.solve(&cfg.request, &mut rng)?,
    };
    // The files first: a failed write must not follow a printed tour.
    let images: Vec<&std::path::Path> = [&args.png, &args.svg]
        .into_iter()
        .flatten()
        .map(|p| p.as_path())
        .collect();
    super::plot::write_tour_figures(&solution, board, cfg.seed, &images)?;
    match args.format {
        Format::Json => solve_output::write_json(&solution, board, cfg.seed, out)?,
        Format::Text if args.summary => {
            solve_output::write_summary(&solution, board, cfg.seed, out)?
        }
        Format::Text => solve_output::write_text(&solution, board, cfg.seed, out)?,
    }
    if solution.tour().is_none() {
        return Err(no_tour(solution.attempts, solution.outcome()));
    }
    Ok(())
}

/// The failure of a solve that ended without a tour (exit 1), after its output.
pub fn no_tour(attempts: u64, last: Outcome) -> Failure {
    Failure::Other(anyhow::anyhow!(
        "no tour found after {attempts} attempts (last outcome: {last})"
    ))
}
