//! `knightnet queens`: the Queen's Challenge. N queens on an N×N board, none attacking
//! another, with locked queens; find one solution with any queens solver, or count all.

use std::io::Write;

use clap::Args;
use serde_json::{Value, json};

use super::Failure;
use super::flags::OfFlag;
use super::report::Format;
use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::queens::{self, Problem, QueensOutcome, QueensSolver, Solved};
use knightnet::{DEFAULT_SEED, rng_from_seed};

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Examples:\n  knightnet queens --size 8\n  knightnet queens --size 12 --lock a1 --lock c5 --solver forward-check"
)]
pub struct QueensArgs {
    /// Board size N (N queens on an NxN board), 1..=1000 with explicit, forward-checking or
    /// neural;
    /// brute-force takes N <= 13 and backtracking N <= 29 (their searches grow
    /// exponentially).
    #[arg(long, default_value = "8", allow_hyphen_values = true, value_parser = parse_size)]
    pub size: usize,
    /// Lock a queen on SQUARE: ROW,COL (0-based, row 0 at the top) or algebraic like c3.
    /// Repeat for more queens.
    #[arg(long = "lock", value_name = "SQUARE", allow_hyphen_values = true)]
    pub locks: Vec<String>,
    /// Solver: explicit (a known construction, O(N), no --lock), forward-checking,
    /// brute-force, backtracking, neural, neural:PRESET (presets: sequential, takefuji).
    /// `solve`'s names are aliases: forward-check, backtrack, network, network:PRESET.
    /// Default: explicit without --lock, forward-checking with (its time then depends on
    /// the locks and is bounded by --max-steps).
    #[arg(long)]
    pub solver: Option<QueensSolver>,
    /// Count every solution instead of finding one (exhaustive solvers: N <= 14 with
    /// forward-checking or backtracking, N <= 11 with brute-force).
    #[arg(long)]
    pub count: bool,
    /// Seed of the ChaCha8 random stream (used by the neural solver).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Step budget of the exhaustive solvers. Default: 200000000 for brute-force and backtracking, 200000000 / N (at least
    /// 1000000) for forward-checking, whose steps cost O(N).
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// Neural solver: iterations (steps or sweeps) per attempt.
    #[arg(long)]
    pub max_iterations: Option<u32>,
    /// Neural solver: attempts (restarts + 1).
    #[arg(long)]
    pub max_attempts: Option<u32>,
}

/// The validated configuration of one `queens` run.
#[derive(Debug, Clone)]
pub struct QueensConfig {
    pub problem: Problem,
    pub solver: QueensSolver,
    pub seed: u64,
    pub max_steps: u64,
    pub count: bool,
}

/// `--size`: a whole number (its range is checked with the locks, by [`Problem`]).
fn parse_size(text: &str) -> Result<usize, InputError> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(InputError::Board(format!(
            "size '{t}' is negative; N must be a whole number from 1 to {}",
            queens::MAX_N
        )));
    }
    t.parse().map_err(|_| {
        InputError::Board(format!(
            "size '{t}' is malformed or too large; N must be a whole number from 1 to {}",
            queens::MAX_N
        ))
    })
}

impl QueensArgs {
    /// The checked configuration: the problem (its size, then each `--lock` square on
    /// its board), the solver and the flags that fit it.
    pub fn config(&self) -> Result<QueensConfig, Failure> {
        let n = self.size;
        Problem::new(n, &[])?;
        let board = Board::new(n, n)?;
        let locks = self
            .locks
            .iter()
            .map(|t| board.parse_square(t).map(|s| board.coords(s)))
            .collect::<Result<Vec<_>, _>>()
            .of_flag("--lock")?;
        Ok(self.solver_config(Problem::new(n, &locks)?)?)
    }

    fn solver_config(&self, problem: Problem) -> Result<QueensConfig, InputError> {
        let n = problem.n();
        let mut solver: QueensSolver = match &self.solver {
            Some(s) => s.clone(),
            None if self.locks.is_empty() && !self.count => QueensSolver::Explicit,
            None => QueensSolver::ForwardChecking,
        };
        if solver == QueensSolver::Explicit && !problem.locks().is_empty() {
            return Err(InputError::param(
                "--solver explicit builds one fixed placement and cannot honour --lock; use --solver forward-checking",
            ));
        }
        match &mut solver {
            QueensSolver::Neural(p) => {
                if let Some(x) = self.max_iterations {
                    p.max_iterations = x;
                }
                if let Some(x) = self.max_attempts {
                    p.max_attempts = x;
                }
                p.check()?;
            }
            _ if self.max_iterations.is_some() || self.max_attempts.is_some() => {
                return Err(InputError::param(
                    "--max-iterations and --max-attempts apply only to --solver neural",
                ));
            }
            _ => {}
        }
        if self.count && !solver.is_exhaustive() {
            return Err(InputError::param(format!(
                "--count needs an exhaustive solver (brute-force, backtracking, forward-checking), not '{}'",
                solver.name()
            )));
        }
        match solver.max_count_n() {
            Some(max) if self.count && n > max => {
                return Err(InputError::param(format!(
                    "--count with --solver {} enumerates every solution; N up to {max} is accepted, not {n}",
                    solver.name()
                )));
            }
            _ if !self.count && n > solver.max_n() => {
                return Err(InputError::param(format!(
                    "--solver {} finds one solution for N up to {} (its search grows exponentially), not {n}; --solver forward-checking takes N up to {}",
                    solver.name(),
                    solver.max_n(),
                    queens::MAX_N
                )));
            }
            _ => {}
        }
        let max_steps = self.max_steps.unwrap_or(solver.default_max_steps(n));
        Ok(QueensConfig {
            problem,
            solver,
            seed: self.seed,
            max_steps,
            count: self.count,
        })
    }
}

fn pairs(v: &[(usize, usize)]) -> Value {
    json!(v.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>())
}

/// The JSON object of one solve (the output contract of `queens --format json`). It holds
/// no timing, so identical runs print identical bytes.
pub fn solved_json(cfg: &QueensConfig, s: &Solved) -> Value {
    let n = cfg.problem.n();
    let solution = s.cols.as_ref().map(|cols| {
        json!(
            cols.iter()
                .enumerate()
                .map(|(r, &c)| [r, c])
                .collect::<Vec<_>>()
        )
    });
    let mut v = json!({
        "board": {"rows": n, "cols": n},
        "solver": cfg.solver.name(),
        "variant": cfg.solver.variant(),
        "seed": cfg.seed,
        "locked": pairs(cfg.problem.locks()),
        "solution": solution,
        "outcome": s.outcome.name(),
        "steps": s.steps,
        "attempts": s.attempts,
        "restarts": s.attempts.saturating_sub(1),
    });
    if let (Some(t), Some(last)) = (s.terminations, s.last_termination) {
        let names = queens::neural::Termination::NAMES;
        v["last_termination"] = json!({ "kind": last });
        v["terminations"] = json!(
            names
                .iter()
                .zip(t)
                .map(|(k, x)| (k.to_string(), json!(x)))
                .collect::<serde_json::Map<_, _>>()
        );
    }
    super::json::document("queens", v)
}

pub fn run(args: QueensArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let cfg = args.config()?;
    let n = cfg.problem.n();
    let name = match cfg.solver.variant() {
        Some(v) => format!("{} ({v})", cfg.solver.name()),
        None => cfg.solver.name().to_string(),
    };
    let locks = match cfg.problem.locks().len() {
        0 => String::new(),
        k => format!(", {k} locked"),
    };
    if cfg.count {
        let c = queens::count(&cfg.problem, &cfg.solver, cfg.max_steps)?;
        let text = match args.format {
            Format::Json => {
                let v = json!({
                    "board": {"rows": n, "cols": n},
                    "solver": cfg.solver.name(),
                    "locked": pairs(cfg.problem.locks()),
                    "count": c.solutions,
                    "outcome": if c.complete { "complete" } else { "step-limit" },
                    "steps": c.steps,
                });
                super::json::to_text(&super::json::document("queens", v))?
            }
            Format::Text => format!(
                "{name} on {n}x{n}{locks}: {}{} solutions, {} steps\n",
                if c.complete { "" } else { "at least " },
                c.solutions,
                c.steps
            ),
        };
        out.write_all(text.as_bytes())?;
        if !c.complete {
            return Err(Failure::Other(anyhow::anyhow!(
                "the step budget ({}) ran out before every solution was counted; raise --max-steps",
                cfg.max_steps
            )));
        }
        return Ok(());
    }
    let mut rng = rng_from_seed(cfg.seed);
    let solved = cfg.solver.solve(&cfg.problem, cfg.max_steps, &mut rng);
    if let Some(cols) = &solved.cols {
        queens::verify(&cfg.problem, cols).map_err(|e| anyhow::anyhow!("internal error: {e}"))?;
    }
    let text = match args.format {
        Format::Json => super::json::to_text(&solved_json(&cfg, &solved))?,
        Format::Text => {
            let effort = if solved.attempts > 1 {
                format!(", {} attempts", solved.attempts)
            } else {
                String::new()
            };
            let seed = if !matches!(cfg.solver, queens::QueensSolver::Neural(_)) {
                String::new()
            } else {
                format!(", seed {}", cfg.seed)
            };
            let mut t = format!(
                "{name} on {n}x{n}{locks}{seed}: {} after {} steps{effort}\n",
                solved.outcome.name(),
                solved.steps
            );
            if let Some(cols) = &solved.cols {
                t += &queens::board_text(&cfg.problem, cols);
            }
            t
        }
    };
    out.write_all(text.as_bytes())?;
    match solved.outcome {
        QueensOutcome::Solution => Ok(()),
        QueensOutcome::NoSolution => Err(Failure::Other(anyhow::anyhow!(
            "no solution: {n} queens cannot be placed on the {n}x{n} board{}",
            if cfg.problem.locks().is_empty() {
                ""
            } else {
                " with these locked queens"
            }
        ))),
        QueensOutcome::StepLimit => Err(Failure::Other(anyhow::anyhow!(
            "the step budget ({}) ran out; raise --max-steps",
            cfg.max_steps
        ))),
        QueensOutcome::AttemptLimit => Err(Failure::Other(anyhow::anyhow!(
            "no solution after {} attempts (last: {})",
            solved.attempts,
            solved.last_termination.unwrap_or("?")
        ))),
    }
}
