//! `knightnet animate`: record one attempt of the network and draw it frame by frame as
//! an animated GIF (or only its final state as PNG/SVG). `--attempt` picks which
//! attempt: the one that finds a tour (as `solve` does), the first, or the first that
//! ends a given way (for example `multiple-cycles`, to see how the network fails).
//! `--open` runs the network on its open graph (open tours, from `--start` when given);
//! the apex is not drawn: the tour is the path between its ends.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use clap::Args;

use super::Failure;
use super::open::OpenFlags;
use super::solve::NetworkFlags;
use knightnet::board::Board;
use knightnet::error::{InputError, Param};
use knightnet::graph::{KnightGraph, Tours};
use knightnet::network::{NetworkParams, OutputState, Preset, Termination, Trace};
use knightnet::plot::animation::{Animation, GifOptions, MAX_FRAMES};
use knightnet::plot::trace::SavedTrace;
use knightnet::plot::{ImageFormat, check_output_path};
use knightnet::solvers::network::NetworkSolver;
use knightnet::solvers::{Outcome, Solver};
use knightnet::trace_file::IterationUnit;
use knightnet::{DEFAULT_SEED, rng_from_seed};

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Examples:\n  knightnet animate --board 6x6 --seed 3 --out out/settle.gif\n  knightnet animate --attempt multiple-cycles --out out/failure.png\n  knightnet animate --board 7x7 --open --start a1 --out out/open.gif"
)]
pub struct AnimateArgs {
    #[arg(long, default_value = "8x8", allow_hyphen_values = true, help = super::flags::board_help!())]
    pub board: Board,
    /// Seed of the ChaCha8 random stream.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Output: .gif for the animation, or .png/.svg for one state (the final one, or --frame N).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Which attempt to show: `tour` (restart until a tour, as solve does), `first`, or
    /// the first attempt ending as `multiple-cycles`, `stable-not-degree-two` or
    /// `iteration-cap` (within --max-attempts).
    #[arg(long, default_value = "tour", value_name = "WHICH")]
    pub attempt: WhichAttempt,
    /// With a .png/.svg --out: draw the state after this many steps or sweeps instead of
    /// the final state (0 = the initial state).
    #[arg(long, value_name = "N")]
    pub frame: Option<usize>,
    /// Draw the attempt saved by `solve --trace FILE` instead of running the network.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "seed", "attempt", "open", "start"])]
    pub trace: Option<PathBuf>,
    /// Also write the final state as a still image (.png or .svg).
    #[arg(long = "final", value_name = "FILE")]
    pub final_image: Option<PathBuf>,
    /// Milliseconds per frame.
    #[arg(long, default_value_t = 250)]
    pub delay: u32,
    /// At most this many frames in the GIF, 1..=2000, the held last frames included
    /// (states evenly sampled, the first and last kept; 1 shows the last state only).
    #[arg(long, default_value_t = 120)]
    pub max_frames: usize,
    /// Image width in pixels.
    #[arg(long, default_value_t = 420)]
    pub width: u32,
    #[command(flatten)]
    pub open: OpenFlags,
    #[command(flatten)]
    pub network: NetworkFlags,
}

/// `--attempt`: the first attempt, or the first that ends a given way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhichAttempt {
    First,
    /// One of the network's endings ([`Termination::NAMES`]).
    Ending(Outcome),
}

impl FromStr for WhichAttempt {
    type Err = InputError;
    fn from_str(s: &str) -> Result<WhichAttempt, InputError> {
        let which = s.trim();
        if which == "first" {
            return Ok(WhichAttempt::First);
        }
        match which.parse::<Outcome>() {
            Ok(o) if Termination::NAMES.contains(&which) => Ok(WhichAttempt::Ending(o)),
            _ => Err(InputError::param(format!(
                "--attempt '{which}' is unknown; accepted: first, {}",
                Termination::NAMES.join(", ")
            ))),
        }
    }
}

impl fmt::Display for WhichAttempt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WhichAttempt::First => f.write_str("first"),
            WhichAttempt::Ending(o) => o.fmt(f),
        }
    }
}

pub fn run(args: AnimateArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let board = args.board;
    let params = args.network.apply(Preset::Parberry.params())?;
    let gif = args
        .out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gif"));
    if !gif {
        ImageFormat::from_path(&args.out, Param::Out).map_err(|_| {
            InputError::param(format!(
                "--out '{}' needs an extension: .gif, .png or .svg",
                args.out.display()
            ))
        })?;
    }
    check_output_path(&args.out, Param::Out)?;
    if let Some(p) = &args.final_image {
        ImageFormat::from_path(p, Param::Final)?;
        check_output_path(p, Param::Final)?;
    }
    if !(1..=MAX_FRAMES).contains(&args.max_frames) {
        return Err(InputError::param(format!(
            "--max-frames {} is out of range; 1..={MAX_FRAMES} frames are accepted",
            args.max_frames
        ))
        .into());
    }
    if gif && args.frame.is_some() {
        return Err(InputError::param(
            "--frame picks the state drawn into a .png/.svg --out; a .gif shows every state",
        )
        .into());
    }
    if !(16..=4000).contains(&args.width) {
        return Err(InputError::param(format!(
            "--width {} is out of range; 16..=4000 pixels are accepted",
            args.width
        ))
        .into());
    }
    let recorded = match &args.trace {
        Some(path) => {
            if args.network.any() {
                return Err(InputError::param(
                    "network flags do not apply with --trace: the trace records its own parameters",
                )
                .into());
            }
            let t = SavedTrace::load(path)?;
            Recorded {
                title: format!(
                    "Network ({}) on {}{}{}{}",
                    t.variant,
                    t.board(),
                    open_note(&t.graph),
                    t.seed.map(|s| format!(", seed {s}")).unwrap_or_default(),
                    t.attempt
                        .map(|a| format!(", attempt {a}"))
                        .unwrap_or_default()
                ),
                graph: t.graph,
                unit: t.unit,
                termination: t.termination,
                number: t.attempt.unwrap_or(1) as u32,
                outputs: t.outputs,
            }
        }
        None => record(&args, board, params)?,
    };
    let number = recorded.number;
    let anim = Animation {
        graph: &recorded.graph,
        outputs: recorded.outputs,
        title: recorded.title,
        unit: recorded.unit,
        termination: recorded.termination,
    };
    let termination = anim.termination.name();
    let last = anim.outputs.len() - 1;
    let still = |path: &Path| anim.frame(last)?.save(path, args.width.max(480));
    // What was written, printed once every file is: a failed file follows no output.
    let mut report = String::new();
    if gif {
        let frames = anim.save_gif(
            &args.out,
            GifOptions {
                width: args.width,
                delay_ms: args.delay,
                max_frames: args.max_frames,
                ..GifOptions::default()
            },
        )?;
        report.push_str(&format!(
            "wrote {}: {frames} frames of attempt {number} ({}, {last} {}s)\n",
            args.out.display(),
            termination,
            anim.unit,
        ));
    } else {
        let i = args.frame.unwrap_or(last);
        if i > last {
            return Err(InputError::param(format!(
                "--frame {i} is past the end of attempt {number}, which stopped after {last} {}s",
                anim.unit
            ))
            .into());
        }
        anim.frame(i)?.save(&args.out, args.width.max(480))?;
        report.push_str(&format!(
            "wrote {}: state after {i} of {last} {}s of attempt {number} ({})\n",
            args.out.display(),
            anim.unit,
            termination,
        ));
    }
    if let Some(p) = &args.final_image {
        still(p)?;
        report.push_str(&format!("wrote {}: final state\n", p.display()));
    }
    out.write_all(report.as_bytes())?;
    Ok(())
}

/// One attempt's recorded states and how to label them.
struct Recorded {
    /// The graph the network ran on.
    graph: KnightGraph,
    outputs: Vec<OutputState>,
    title: String,
    unit: IterationUnit,
    termination: Termination,
    /// Attempt number (1-based).
    number: u32,
}

/// ", open" for the open graph (", open from a1" with a held start), else nothing.
fn open_note(graph: &KnightGraph) -> String {
    match graph.tours() {
        Tours::Closed => String::new(),
        Tours::Open { start } => format!(
            ", open{}",
            start
                .map(|s| format!(" from {}", graph.vertex_name(s)))
                .unwrap_or_default()
        ),
    }
}

/// Run attempts from `--seed` until one ends as `--attempt` asks, recording its states.
fn record(args: &AnimateArgs, board: Board, params: NetworkParams) -> Result<Recorded, Failure> {
    let request = args.open.request(board)?;
    NetworkSolver::new(params).check(&request)?;
    let graph = NetworkSolver::graph(&request)?;
    let net = knightnet::network::Network::new(&graph, params)?;
    let mut rng = rng_from_seed(args.seed);

    let mut number = 0u32;
    let (trace, termination) = loop {
        let mut trace = Trace::default();
        number += 1;
        let attempt = net.attempt(&mut rng, Some(&mut trace));
        let wanted = match args.attempt {
            WhichAttempt::First => true,
            WhichAttempt::Ending(o) => Outcome::from(&attempt.termination) == o,
        };
        if wanted {
            break (trace, attempt.termination);
        }
        if number >= params.max_attempts {
            return Err(Failure::Other(anyhow::anyhow!(
                "no attempt ended as '{}' within {} attempts (--max-attempts); try another --seed",
                args.attempt,
                params.max_attempts
            )));
        }
    };
    Ok(Recorded {
        outputs: trace.outputs,
        title: format!(
            "Network ({}) on {board}{}, seed {}, attempt {number}",
            params.variant(),
            open_note(&graph),
            args.seed
        ),
        graph,
        unit: IterationUnit::of(params.order),
        termination,
        number,
    })
}
