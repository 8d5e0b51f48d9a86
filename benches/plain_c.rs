//! knightnet against a plain C program of the same rule (issue #31): the attempts both
//! run, the C program's build and output, and knightnet's two engines on the same
//! attempts. Shared by the `plain-c` program (the measurement) and the `plain_c` test
//! (the C program still runs knightnet's rule).
//!
//! The C program, `plain-c/takefuji_lee.c`, runs the `parberry` preset's rule from
//! initial states written here: attempt `i` of seed `S` draws its initial state from
//! [`attempt_rng`]`(S, i)`, as attempt `i` of a run of base seed `S` does in both of
//! knightnet's engines, so equal sweeps and outcomes, attempt by attempt, show the rule is
//! the same.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use knightnet::board::Board;
use knightnet::graph::KnightGraph;
use knightnet::network::batch::Batch;
use knightnet::network::{Network, NetworkParams, Preset, State, Termination, attempt_rng};

/// The C compiler's flags (after `$CC`, `cc` by default).
pub const C_FLAGS: [&str; 2] = ["-O2", "-std=c99"];

/// The C program's source.
pub fn c_source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("plain-c/takefuji_lee.c")
}

/// The attempts of one comparison: attempts `0..count` of base seed `SEED` under
/// `parberry` on a board, their initial states drawn.
pub struct Attempts {
    /// The board's knight's graph.
    pub graph: KnightGraph,
    /// The `parberry` preset's parameters.
    pub params: NetworkParams,
    /// The run's base seed: attempt `i` draws from `attempt_rng(base, i)`.
    pub base: u64,
    /// The initial state of every attempt, in order.
    pub states: Vec<State>,
}

impl Attempts {
    /// Attempts `0..count` of base seed `base` on `board`.
    pub fn new(board: Board, count: usize, base: u64) -> Attempts {
        let graph = KnightGraph::new(board);
        let params = Preset::Parberry.params();
        let states = (0..count as u64)
            .map(|i| State::random(&graph, &params, &mut attempt_rng(base, i)))
            .collect();
        Attempts {
            graph,
            params,
            base,
            states,
        }
    }

    /// Write the initial states in the C program's input format (see its source).
    pub fn write(&self, mut out: impl Write) -> io::Result<()> {
        let board = self
            .graph
            .source()
            .knight_board()
            .expect("a knight's board");
        writeln!(out, "knightnet-initial-states 1")?;
        writeln!(out, "{} {}", board.rows(), board.cols())?;
        writeln!(out, "{} {}", self.graph.edges(), self.states.len())?;
        let mut line = Vec::with_capacity(self.graph.edges() + 1);
        for state in &self.states {
            debug_assert!(
                state.u().iter().all(|&u| u == 0),
                "parberry starts at U = 0"
            );
            line.clear();
            line.extend(state.v().iter().map(|&v| b'0' + v));
            line.push(b'\n');
            out.write_all(&line)?;
        }
        out.flush()
    }
}

/// How one attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// Sweeps run.
    pub sweeps: u32,
    /// The outcome: its position in [`Termination::NAMES`] ([`Termination::index`]).
    pub outcome: usize,
}

/// Every attempt of a run, and the seconds spent running them.
#[derive(Debug, Clone)]
pub struct Report {
    /// How each attempt ended, in attempt order.
    pub ended: Vec<Ended>,
    /// Seconds spent in the attempts (not in reading or drawing initial states).
    pub seconds: f64,
}

impl Report {
    /// Sweeps over all attempts.
    pub fn sweeps(&self) -> u64 {
        self.ended.iter().map(|e| e.sweeps as u64).sum()
    }

    /// Attempts that ended in a closed tour.
    pub fn tours(&self) -> usize {
        self.ended
            .iter()
            .filter(|e| e.outcome == Termination::Tour.index())
            .count()
    }

    /// Seconds per attempt.
    pub fn per_attempt(&self) -> f64 {
        self.seconds / self.ended.len().max(1) as f64
    }
}

/// Compile the C program into `dir` with `$CC` (`cc` when unset) and [`C_FLAGS`];
/// returns the program's path.
pub fn compile_c(dir: &Path) -> Result<PathBuf, String> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let bin = dir.join("takefuji_lee");
    let status = Command::new(&cc)
        .args(C_FLAGS)
        .arg("-o")
        .arg(&bin)
        .arg(c_source())
        .status()
        .map_err(|e| format!("cannot run the C compiler '{cc}': {e}"))?;
    if !status.success() {
        return Err(format!("'{cc}' failed to compile {}", c_source().display()));
    }
    Ok(bin)
}

/// Run the C program `bin` on the states in `file`.
pub fn run_c(bin: &Path, file: &Path) -> Result<Report, String> {
    let out = Command::new(bin)
        .arg("-v")
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            bin.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let bad = |line: &str| format!("the C program printed an unexpected line: '{line}'");
    let (mut ended, mut seconds) = (Vec::new(), None);
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["attempt", _, "sweeps", sweeps, outcome] => ended.push(Ended {
                sweeps: sweeps.parse().map_err(|_| bad(line))?,
                outcome: Termination::NAMES
                    .iter()
                    .position(|n| n == outcome)
                    .ok_or_else(|| bad(line))?,
            }),
            [
                "attempts",
                _,
                "sweeps",
                _,
                "tours",
                _,
                "other",
                _,
                "seconds",
                s,
            ] => seconds = Some(s.parse().map_err(|_| bad(line))?),
            _ => return Err(bad(line)),
        }
    }
    let seconds = seconds.ok_or("the C program printed no totals line")?;
    Ok(Report { ended, seconds })
}

/// knightnet's scalar engine on the attempts, one after another
/// ([`Network::attempt_from`]).
pub fn scalar(attempts: &Attempts) -> Report {
    let net = Network::new(&attempts.graph, attempts.params).expect("parberry's parameters");
    let states = attempts.states.clone();
    let start = Instant::now();
    let ended = states
        .into_iter()
        .map(|s| {
            let a = net.attempt_from(s, None);
            Ended {
                sweeps: a.iterations,
                outcome: a.termination.index(),
            }
        })
        .collect();
    Report {
        ended,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// knightnet's batched engine on the attempts, every lane busy while attempts remain
/// ([`Batch::run`]: the lanes refilled as attempts end, as `compare`'s throughput mode
/// refills them). Its time includes drawing each attempt's initial state into its lane,
/// and building every multi-cycle cover's cycles, which throughput mode skips.
pub fn batched(attempts: &Attempts) -> Report {
    let mut batch = Batch::new(&attempts.graph, attempts.params).expect("parberry fits");
    let count = attempts.states.len() as u64;
    let mut ended = vec![
        Ended {
            sweeps: 0,
            outcome: usize::MAX
        };
        attempts.states.len()
    ];
    let start = Instant::now();
    batch.run(
        attempts.base,
        |i| i < count,
        |i, a| {
            ended[i as usize] = Ended {
                sweeps: a.iterations,
                outcome: a.termination.index(),
            }
        },
    );
    Report {
        ended,
        seconds: start.elapsed().as_secs_f64(),
    }
}
