//! The Queen's Challenge: place N queens on an N×N board so that none attacks another,
//! with any number of queens locked in place by the user.
//!
//! A placement is stored as one column per row (`cols[row]`), since every solution has
//! exactly one queen in each row. [`Problem`] validates the size and the locks once
//! (locks on the board, no two locks attacking each other); every solver then runs on
//! it, and every placement it reports passes [`verify`], the one checker.
//!
//! Solvers (one file each):
//! - [`brute`]: generate and test, no pruning;
//! - [`backtrack`]: row by row with conflict masks;
//! - [`forward`]: forward checking on per-row domains with smallest-domain-first;
//! - [`neural`]: a Takefuji-style network of hysteresis binary neurons, one per square;
//! - [`explicit`]: a known construction, one solution for any N in O(N), without locks.
//!
//! The exhaustive solvers also enumerate every solution ([`count`]); the counts match
//! OEIS A000170 (tests check N = 1..12 and 14).

pub mod backtrack;
pub mod brute;
pub mod explicit;
pub mod forward;
pub mod neural;

use std::fmt;
use std::str::FromStr;

use crate::Rng;
use crate::board::Board;
use crate::error::{InputError, Param, Refusal, Scope, Setting};

pub use neural::{QueensParams, QueensPreset};

/// Largest N accepted for finding one solution.
pub const MAX_N: usize = 1000;
/// Largest N accepted by [`count`] with any method (see [`QueensSolver::max_count_n`]:
/// A000170(15) is about 2.3e6 solutions, and the enumeration grows about 6-fold per N).
pub(crate) const MAX_COUNT_N: usize = 14;
/// Default budget of search steps for brute force and backtracking (whose steps cost
/// O(1); about half a minute on a loaded machine).
pub const DEFAULT_MAX_STEPS: u64 = 200_000_000;

/// Solutions of the N-queens problem for N = 0..=14 (OEIS A000170; a(0) = 1).
pub const A000170: [u64; 15] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];

/// A validated problem: the size and the locked queens `(row, col)`, sorted by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    n: usize,
    locks: Vec<(usize, usize)>,
}

/// Whether queens on `(r1, c1)` and `(r2, c2)` (different squares) attack each other,
/// and along what.
pub(crate) fn attack_line(a: (usize, usize), b: (usize, usize)) -> Option<&'static str> {
    if a.0 == b.0 {
        Some("same row")
    } else if a.1 == b.1 {
        Some("same column")
    } else if a.0.abs_diff(b.0) == a.1.abs_diff(b.1) {
        Some("same diagonal")
    } else {
        None
    }
}

impl Problem {
    /// Check the size (1..=[`MAX_N`]) and the locks (each on the board; no two
    /// attacking each other; a square locked twice counts once).
    pub fn new(n: usize, locks: &[(usize, usize)]) -> Result<Problem, InputError> {
        if n == 0 {
            return Err(InputError::Board(
                "board size 0 has no squares; N must be at least 1".into(),
            ));
        }
        if n > MAX_N {
            return Err(InputError::Board(format!(
                "board size {n} is too large for the queens solvers; N up to {MAX_N} is accepted"
            )));
        }
        let board = Board::new(n, n)?;
        let mut sorted: Vec<(usize, usize)> = Vec::with_capacity(locks.len());
        for &(r, c) in locks {
            if r >= n || c >= n {
                return Err(InputError::Square(format!(
                    "locked square {r},{c} is off the {n}x{n} board: rows and columns 0..={} are accepted",
                    n - 1
                )));
            }
            if !sorted.contains(&(r, c)) {
                sorted.push((r, c));
            }
        }
        // Check in the order given, so the message names the squares as the user did.
        for (i, &a) in sorted.iter().enumerate() {
            for &b in &sorted[i + 1..] {
                if let Some(line) = attack_line(a, b) {
                    return Err(InputError::impossible(format!(
                        "locked queens on {} and {} attack each other ({line}); no solution can contain both",
                        board.square_name(board.index(a.0, a.1)),
                        board.square_name(board.index(b.0, b.1)),
                    )));
                }
            }
        }
        sorted.sort_unstable();
        Ok(Problem { n, locks: sorted })
    }

    /// Parse lock squares (`row,col` or algebraic, as in `solve --start`) and check.
    pub fn parse(n: usize, locks: &[String]) -> Result<Problem, InputError> {
        if n == 0 || n > MAX_N {
            return Problem::new(n, &[]);
        }
        let board = Board::new(n, n)?;
        let squares = locks
            .iter()
            .map(|t| board.parse_square(t).map(|s| board.coords(s)))
            .collect::<Result<Vec<_>, _>>()?;
        Problem::new(n, &squares)
    }

    /// The board's side N: N queens on an N×N board.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Locked queens `(row, col)`, sorted by row.
    pub fn locks(&self) -> &[(usize, usize)] {
        &self.locks
    }

    /// The locked column of each row, if any.
    pub(crate) fn locked_cols(&self) -> Vec<Option<usize>> {
        let mut v = vec![None; self.n];
        for &(r, c) in &self.locks {
            v[r] = Some(c);
        }
        v
    }

    /// The board of this problem (for square names).
    pub fn board(&self) -> Board {
        Board::new(self.n, self.n).expect("N was checked")
    }
}

/// Check that `cols` (one column per row) is a solution of `problem`: N queens, each on
/// the board, no two in one column or diagonal, and every locked queen in place.
pub fn verify(problem: &Problem, cols: &[usize]) -> Result<(), String> {
    let n = problem.n;
    if cols.len() != n {
        return Err(format!("{} queens on the {n}x{n} board", cols.len()));
    }
    if let Some((r, &c)) = cols.iter().enumerate().find(|&(_, &c)| c >= n) {
        return Err(format!(
            "the queen of row {r} is in column {c}, off the board"
        ));
    }
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            if let Some(line) = attack_line((r1, cols[r1]), (r2, cols[r2])) {
                return Err(format!(
                    "queens {r1},{} and {r2},{} attack each other ({line})",
                    cols[r1], cols[r2]
                ));
            }
        }
    }
    for &(r, c) in &problem.locks {
        if cols[r] != c {
            return Err(format!("the locked queen {r},{c} is missing"));
        }
    }
    Ok(())
}

/// Why a solver stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueensOutcome {
    /// A solution was found (and verified).
    Solution,
    /// An exhaustive search finished: there is no solution.
    NoSolution,
    /// An exhaustive search used up its step budget.
    StepLimit,
    /// The network used up its attempts without a solution.
    AttemptLimit,
}

impl QueensOutcome {
    /// The outcome's name as JSON output and messages give it (`solution`,
    /// `no-solution`, `step-limit`, `attempt-limit`).
    pub fn name(self) -> &'static str {
        match self {
            QueensOutcome::Solution => "solution",
            QueensOutcome::NoSolution => "no-solution",
            QueensOutcome::StepLimit => "step-limit",
            QueensOutcome::AttemptLimit => "attempt-limit",
        }
    }
}

/// What a queens solver returns.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The column of the queen in each row; verified. `None` without a solution.
    pub cols: Option<Vec<usize>>,
    /// Why the solver stopped.
    pub outcome: QueensOutcome,
    /// Search steps (queens placed; complete placements tested for brute force), or
    /// network updates (steps or sweeps) over all attempts.
    pub steps: u64,
    /// Attempts made (1 for the exhaustive solvers).
    pub attempts: u64,
    /// For the network: attempts by termination, in [`neural::Termination::NAMES`] order.
    pub terminations: Option<[u64; 3]>,
    /// For the network: the termination of the last attempt.
    pub last_termination: Option<&'static str>,
}

/// What [`count`] returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    /// Solutions found (each verified), locks respected.
    pub solutions: u64,
    /// Whether the enumeration finished (false: step budget used up; `solutions` is a
    /// lower bound).
    pub complete: bool,
    /// Search steps taken: queens placed, or complete placements tested for brute force.
    pub steps: u64,
}

/// Tell an enumeration whether to go on after a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Look for the next solution.
    Continue,
    /// End the enumeration here.
    Stop,
}

/// The result of an enumeration: steps used and whether it ran to the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Enumeration {
    /// Search steps taken: queens placed, or complete placements tested for brute force.
    pub steps: u64,
    /// False when stopped by the callback or the step budget.
    pub exhausted: bool,
    /// True when the step budget ran out.
    pub limited: bool,
}

/// The queens solvers.
#[derive(Debug, Clone, PartialEq)]
pub enum QueensSolver {
    /// Generate and test every placement with one queen per row, no pruning ([`brute`]).
    BruteForce,
    /// Row by row with conflict masks, columns in order ([`backtrack`]).
    Backtracking,
    /// Forward checking on per-row domains, smallest domain first ([`forward`]).
    ForwardChecking,
    /// The hysteresis network of [`neural`] with these parameters.
    Neural(QueensParams),
    /// The explicit construction ([`explicit`]): no search, no locks.
    Explicit,
}

impl QueensSolver {
    /// Names accepted by [`FromStr`].
    pub fn names() -> Vec<String> {
        let mut v: Vec<String> = [
            "explicit",
            "brute-force",
            "backtracking",
            "forward-checking",
            "neural",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(
            QueensPreset::ALL
                .iter()
                .map(|p| format!("neural:{}", p.name())),
        );
        v
    }

    /// Short name, as on the command line (without the preset).
    pub fn name(&self) -> &'static str {
        match self {
            QueensSolver::BruteForce => "brute-force",
            QueensSolver::Backtracking => "backtracking",
            QueensSolver::ForwardChecking => "forward-checking",
            QueensSolver::Neural(_) => "neural",
            QueensSolver::Explicit => "explicit",
        }
    }

    /// The network preset name, if any.
    pub fn variant(&self) -> Option<String> {
        match self {
            QueensSolver::Neural(p) => Some(p.variant_name()),
            _ => None,
        }
    }

    /// Largest N this solver is accepted for when finding one solution, so that a run
    /// ends in seconds. The exhaustive searches grow exponentially: brute force tests
    /// up to N! placements (N = 13: 4.7e7 before the first solution); plain backtracking
    /// in column order needs an irregular number of steps (at most 3.0e6 up to N = 29, then
    /// 5.6e7 at N = 30 and 8.7e7 at N = 32, counted with `queens --format json`).
    /// Forward checking with smallest-domain-first and the network are near linear in
    /// practice (N = 1000: 1007 steps) and take any N up to [`MAX_N`].
    pub fn max_n(&self) -> usize {
        match self {
            QueensSolver::BruteForce => 13,
            QueensSolver::Backtracking => 29,
            QueensSolver::ForwardChecking | QueensSolver::Neural(_) | QueensSolver::Explicit => {
                MAX_N
            }
        }
    }

    /// Largest N [`count`] accepts with this solver (`None`: it cannot count). Counting
    /// visits every solution: brute force tests all N! placements (N = 11: 4.0e7),
    /// backtracking and forward checking grow about 6-fold per N (N = 14: 2.7e7 and
    /// 1.2e7 steps, N = 15: 1.7e8 and 7.0e7).
    pub fn max_count_n(&self) -> Option<usize> {
        match self {
            QueensSolver::BruteForce => Some(11),
            QueensSolver::Backtracking | QueensSolver::ForwardChecking => Some(MAX_COUNT_N),
            QueensSolver::Neural(_) | QueensSolver::Explicit => None,
        }
    }

    /// The default step budget on an N×N problem: [`DEFAULT_MAX_STEPS`], divided by N for
    /// forward checking, whose steps update every row's domain (O(N) each: 1e6 steps
    /// took 3.4 s at N = 997), so that the default bounds time rather than steps.
    pub fn default_max_steps(&self, n: usize) -> u64 {
        match self {
            QueensSolver::ForwardChecking => (DEFAULT_MAX_STEPS / n.max(1) as u64).max(1_000_000),
            _ => DEFAULT_MAX_STEPS,
        }
    }

    /// Whether the solver enumerates every solution (and so can count them).
    pub fn is_exhaustive(&self) -> bool {
        !matches!(self, QueensSolver::Neural(_) | QueensSolver::Explicit)
    }

    /// Run an exhaustive solver's enumeration; `None` for the network.
    pub fn enumerate(
        &self,
        problem: &Problem,
        max_steps: u64,
        on_solution: &mut dyn FnMut(&[usize]) -> Control,
    ) -> Option<Enumeration> {
        Some(match self {
            QueensSolver::BruteForce => brute::enumerate(problem, max_steps, on_solution),
            QueensSolver::Backtracking => backtrack::enumerate(problem, max_steps, on_solution),
            QueensSolver::ForwardChecking => forward::enumerate(problem, max_steps, on_solution),
            QueensSolver::Neural(_) | QueensSolver::Explicit => return None,
        })
    }

    /// Find one solution. `max_steps` bounds the exhaustive solvers; the network is
    /// bounded by its own iteration cap and attempts. `rng` is used only by the network.
    pub fn solve(&self, problem: &Problem, max_steps: u64, rng: &mut Rng) -> Solved {
        if let QueensSolver::Neural(p) = self {
            return neural::solve(problem, p, rng);
        }
        if *self == QueensSolver::Explicit {
            if !problem.locks().is_empty() {
                // The construction is one fixed placement; locks need a search.
                return QueensSolver::ForwardChecking.solve(problem, max_steps, rng);
            }
            let cols = explicit::construct(problem.n());
            return Solved {
                outcome: match cols {
                    Some(_) => QueensOutcome::Solution,
                    None => QueensOutcome::NoSolution,
                },
                steps: cols.as_ref().map_or(0, |c| c.len() as u64),
                cols,
                attempts: 1,
                terminations: None,
                last_termination: None,
            };
        }
        let mut found = None;
        let e = self
            .enumerate(problem, max_steps, &mut |cols| {
                found = Some(cols.to_vec());
                Control::Stop
            })
            .expect("exhaustive solver");
        let outcome = match (&found, e.limited) {
            (Some(_), _) => QueensOutcome::Solution,
            (None, true) => QueensOutcome::StepLimit,
            (None, false) => QueensOutcome::NoSolution,
        };
        if let Some(cols) = &found {
            debug_assert_eq!(verify(problem, cols), Ok(()));
        }
        Solved {
            cols: found,
            outcome,
            steps: e.steps,
            attempts: 1,
            terminations: None,
            last_termination: None,
        }
    }
}

/// Count every solution of `problem` with an exhaustive solver.
pub fn count(
    problem: &Problem,
    solver: &QueensSolver,
    max_steps: u64,
) -> Result<Counted, InputError> {
    if let Some(max) = solver.max_count_n()
        && problem.n() > max
    {
        return Err(InputError::unsupported(
            Refusal::new(format!(
                "enumerates every solution; N up to {max} is accepted, not {}",
                problem.n()
            ))
            .about([
                Setting::of(Param::Count),
                Setting::with(Param::Solver, solver.name()),
            ]),
        ));
    }
    let mut solutions = 0u64;
    let e = solver
        .enumerate(problem, max_steps, &mut |_| {
            solutions += 1;
            Control::Continue
        })
        .ok_or_else(|| InputError::NotApplicable {
            param: Param::Count,
            solver: solver.name().to_string(),
            scope: Scope::ExhaustiveSolvers,
            hint: None,
        })?;
    Ok(Counted {
        solutions,
        complete: !e.limited,
        steps: e.steps,
    })
}

impl FromStr for QueensSolver {
    type Err = InputError;

    /// `explicit`, `brute-force`, `backtracking`, `forward-checking`, `neural` (the
    /// default preset) or `neural:PRESET`; `solve`'s names are aliases (`backtrack`,
    /// `forward-check`, `network[:PRESET]`), as are `brute` and `forward`.
    fn from_str(s: &str) -> Result<QueensSolver, InputError> {
        let s = s.trim();
        let (head, tail) = crate::solvers::split_name(s);
        let unknown = || InputError::unknown("queens solver", s, QueensSolver::names());
        match (head, tail) {
            ("brute-force" | "brute", None) => Ok(QueensSolver::BruteForce),
            ("backtracking" | "backtrack", None) => Ok(QueensSolver::Backtracking),
            ("forward-checking" | "forward-check" | "forward", None) => {
                Ok(QueensSolver::ForwardChecking)
            }
            ("explicit", None) => Ok(QueensSolver::Explicit),
            ("neural" | "network", t) => {
                let preset: QueensPreset = match t {
                    Some(t) => t.parse()?,
                    None => QueensPreset::default(),
                };
                Ok(QueensSolver::Neural(preset.params()))
            }
            _ => Err(unknown()),
        }
    }
}

impl fmt::Display for QueensSolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueensSolver::Neural(p) => write!(f, "neural:{}", p.variant_name()),
            other => f.write_str(other.name()),
        }
    }
}

/// The board as text: `Q` for a queen, `L` for a locked queen, `.` elsewhere; row 0 on
/// top.
pub fn board_text(problem: &Problem, cols: &[usize]) -> String {
    let locked = problem.locked_cols();
    let mut s = String::new();
    for (r, &qc) in cols.iter().enumerate() {
        let line: Vec<&str> = (0..problem.n())
            .map(|c| match (c == qc, locked[r] == Some(c)) {
                (true, true) => "L",
                (true, false) => "Q",
                _ => ".",
            })
            .collect();
        s += &line.join(" ");
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problem_checks_size_and_locks() {
        assert!(Problem::new(0, &[]).is_err());
        assert!(Problem::new(MAX_N + 1, &[]).is_err());
        assert!(Problem::new(8, &[(8, 0)]).is_err());
        let err = Problem::new(8, &[(0, 0), (3, 3)]).unwrap_err();
        assert!(err.to_string().contains("same diagonal"), "{err}");
        assert!(matches!(err, InputError::Impossible(_)));
        assert!(Problem::new(8, &[(0, 0), (0, 5)]).is_err());
        assert!(Problem::new(8, &[(0, 2), (5, 2)]).is_err());
        let p = Problem::new(8, &[(3, 1), (0, 0), (0, 0)]).unwrap();
        assert_eq!(p.locks(), &[(0, 0), (3, 1)]);
        let q = Problem::parse(8, &["a8".into(), "3,1".into()]).unwrap();
        assert_eq!(q, p);
        let off = Problem::parse(8, &["i1".into()]).unwrap_err();
        assert!(off.to_string().contains("off the 8x8 board"), "{off}");
    }

    #[test]
    fn verify_catches_every_kind_of_conflict() {
        let p = Problem::new(4, &[]).unwrap();
        assert_eq!(verify(&p, &[1, 3, 0, 2]), Ok(()));
        assert!(verify(&p, &[1, 3, 0]).is_err());
        assert!(verify(&p, &[1, 3, 0, 4]).is_err());
        assert!(verify(&p, &[1, 1, 0, 2]).is_err());
        assert!(verify(&p, &[0, 1, 3, 2]).is_err());
        let locked = Problem::new(4, &[(0, 2)]).unwrap();
        assert!(verify(&locked, &[1, 3, 0, 2]).is_err());
        assert_eq!(verify(&locked, &[2, 0, 3, 1]), Ok(()));
    }

    #[test]
    fn solver_names_round_trip() {
        for name in QueensSolver::names() {
            let s: QueensSolver = name.parse().unwrap();
            if name != "neural" {
                assert_eq!(s.to_string(), name);
            }
        }
        assert!("dfs".parse::<QueensSolver>().is_err());
        assert!("neural:nope".parse::<QueensSolver>().is_err());
    }
}
