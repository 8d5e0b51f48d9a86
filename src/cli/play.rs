//! `knightnet play`: the knight's-tour game in the terminal (or any leaper's, on a
//! cylinder, a torus or a board with holes: `--leaper`, `--surface`, `--shape`, the
//! flags of `solve`), with hints, a solver that finishes the tour, and watch mode (on
//! those too: the solvers of `solve` there); `--snapshot` prints the screen as text instead
//! (no terminal needed), and `--measure-dead` measures how often the cheap
//! dead-position check misses a dead position.

use std::io::{IsTerminal, Write};
use std::str::FromStr;

use clap::Args;

use super::Failure;
use super::solve_graph::{GeometryArgs, Named, Target, named};
use crate::tui::{self, App};
use knightnet::DEFAULT_SEED;
use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::puzzle::watch::WatchKind;
use knightnet::puzzle::{Field, measure};

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Examples:\n  knightnet play --board 6x6\n  knightnet play --board 6x6 --surface torus --leaper zebra\n  knightnet play --snapshot --watch warnsdorff --steps 20"
)]
pub struct PlayArgs {
    #[arg(
        long,
        default_value = "8x8",
        allow_hyphen_values = true,
        help = concat!(
            super::flags::board_help!(),
            " Any size that fits the terminal; 80x24 fits up to 10x10."
        )
    )]
    pub board: Board,
    /// The leaper, surface and shape (`--graph` is refused: a graph has no board to
    /// play on).
    #[command(flatten)]
    pub geometry: GeometryArgs,
    /// Seed of the ChaCha8 stream (watch mode, as `solve --seed`; --measure-dead samples).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Moves to play first, separated by spaces: the start square, then each move
    /// (ROW,COL or algebraic like c3).
    #[arg(long, value_name = "SQUARES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Open in watch mode with this solver, named as for `solve --solver`: backtrack,
    /// forward-check, forward-check:connectivity, warnsdorff-backtrack,
    /// warnsdorff-backtrack:ties, warnsdorff or warnsdorff:TIE, network or network:PRESET
    /// (aliases: backtracking, forward-checking). It runs as `solve` does with the same
    /// board, seed and start (the cursor, or the first move of --moves). With --leaper,
    /// --surface or --shape: network or network:PRESET, warnsdorff, backtrack or
    /// forward-check, as `solve` runs them there.
    #[arg(long, value_name = "SOLVER")]
    pub watch: Option<WatchKind>,
    /// With --watch and --snapshot: steps to take before the snapshot.
    #[arg(long, default_value_t = 0)]
    pub steps: u64,
    /// Print the screen as text (rendered off-screen) and exit.
    #[arg(long)]
    pub snapshot: bool,
    /// Snapshot size ROWSxCOLS in characters, rows first as in --board (24x80: an
    /// 80-column, 24-line terminal).
    #[arg(long, default_value = "24x80")]
    pub screen: Screen,
    /// Measure how often the cheap dead-position check misses a dead position (sampled
    /// positions, exhaustive search per position) and exit.
    #[arg(long)]
    pub measure_dead: bool,
    /// --measure-dead: positions to sample.
    #[arg(long, default_value_t = 2000)]
    pub samples: u64,
    /// --measure-dead: step budget of the exhaustive search per position.
    #[arg(long, default_value_t = 2_000_000)]
    pub budget: u64,
}

/// `--screen`: the snapshot's size in characters, ROWSxCOLS as boards are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    pub rows: u16,
    pub cols: u16,
}

impl FromStr for Screen {
    type Err = InputError;
    fn from_str(text: &str) -> Result<Screen, InputError> {
        let bad = || {
            InputError::param(format!(
                "screen '{text}' is malformed: expected ROWSxCOLS like 24x80 (rows first, as boards are written), each 1..=1000"
            ))
        };
        let (r, c) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let r: u16 = r.trim().parse().map_err(|_| bad())?;
        let c: u16 = c.trim().parse().map_err(|_| bad())?;
        if c == 0 || r == 0 || c > 1000 || r > 1000 {
            return Err(bad());
        }
        Ok(Screen { rows: r, cols: c })
    }
}

/// The board the flags name: the knight's `--board`, or a leaper, surface and shape
/// (a graph file is refused: it has no board picture to play on).
pub fn field(args: &PlayArgs) -> Result<Field, Failure> {
    if let Some(path) = &args.geometry.graph {
        return Err(InputError::param(format!(
            "--graph {}: a graph file has no board to draw, so play cannot show it; play a --board, --shape, --leaper or --surface (solve runs on graph files)",
            path.display()
        ))
        .into());
    }
    match named(Some(args.board), &args.geometry)? {
        Named::Knight(board) => Ok(Field::knight(board)),
        Named::Other(Target::Geometry(g)) => Ok(Field::new(g)?),
        Named::Other(_) => unreachable!("--graph is refused above"),
    }
}

/// Build the app with the given moves played and watch mode opened.
pub fn build_app(args: &PlayArgs, field: Field) -> Result<App, InputError> {
    let board = field.board();
    let mut app = App::on(field, args.seed);
    if let Some(moves) = &args.moves {
        if moves.trim().is_empty() {
            return Err(InputError::param(
                "--moves is empty; give the start square, then each move, like 'a1 b3 c1'",
            ));
        }
        for (i, text) in moves.split_whitespace().enumerate() {
            let s = board
                .parse_square(text)
                .map_err(|e| InputError::Square(format!("--moves, move {}: {e}", i + 1)))?;
            app.game.play(s).map_err(|e| {
                InputError::Square(format!("--moves: move {} ({text}) is illegal: {e}", i + 1))
            })?;
        }
        app.play_refresh();
    }
    if let Some(kind) = &args.watch {
        app.watch(kind.clone());
        if let tui::app::Mode::Watch(tui::app::Watch { error: Some(e), .. }) = &app.mode {
            return Err(InputError::param(format!("--watch {kind}: {e}")));
        }
        app.watch_steps(args.steps);
    } else if args.steps > 0 {
        return Err(InputError::param("--steps applies only with --watch"));
    }
    Ok(app)
}

pub fn run(args: PlayArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let field = field(&args)?;
    let board = field.board();
    if args.measure_dead {
        if !field.geometry().is_plain_knight() {
            return Err(InputError::param(
                "--measure-dead measures the knight on a whole plane board; drop --leaper, --surface and --shape",
            )
            .into());
        }
        if args.samples == 0 || args.budget == 0 {
            return Err(InputError::param("--samples and --budget must be at least 1").into());
        }
        let st = measure::measure(board, args.samples, args.seed, args.budget);
        out.write_all(st.report(board, args.seed, args.budget).as_bytes())?;
        return Ok(());
    }
    let (need_w, need_h) = tui::ui::needed_size(board);
    if args.snapshot {
        let app = build_app(&args, field)?;
        let text = tui::buffer_text(&tui::render(&app, args.screen.cols, args.screen.rows));
        out.write_all(text.as_bytes())?;
        return Ok(());
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(InputError::param(
            "play needs an interactive terminal; use --snapshot to print the screen instead",
        )
        .into());
    }
    if let Ok((w, h)) = crossterm::terminal::size()
        && (w < need_w || h < need_h)
    {
        return Err(InputError::Board(format!(
            "the {board} board needs a terminal of at least {need_w}x{need_h}; this one is {w}x{h}"
        ))
        .into());
    }
    let app = build_app(&args, field)?;
    if let Some(_sig) = tui::run(app)? {
        // The terminal is restored; end as the signal would have.
        #[cfg(unix)]
        tui::signals::die_of(_sig);
    }
    Ok(())
}
