//! `knightnet count`: count the knight's tours of a board (see [`knightnet::count`] for
//! exactly what is counted) by the split or frontier dynamic program or by exhaustive
//! search, bounded by the memory the process may use (or a smaller `--max-memory`) and,
//! for the search, a work budget, with progress on stderr; also the 2-factor count and a
//! profile of the frontier's state counts.

use std::io::{IsTerminal, Write};

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::Failure;
use super::flags::start_square;
use super::report::Format;
use knightnet::board::Board;
use knightnet::count::frontier::{self, Quantity};
use knightnet::count::geometry::Layout;
use knightnet::count::{self, CountSpec, Method};
use knightnet::error::{InputError, Refusal};
use knightnet::geometry::MoveGraph;
use knightnet::graph::{KnightGraph, Source};
use knightnet::solvers::on_graph;

use super::solve_graph::{self, GeometryArgs, Named};

/// Counting method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// split for closed tours and for open tours from every start on boards it takes
    /// (narrow side 3 to 8, long side at least 5), frontier otherwise.
    Auto,
    /// Transfer-matrix dynamic program over the squares (cost grows with the states).
    Frontier,
    /// Exhaustive search (cost grows with the number of tours); gives per-start counts.
    Search,
    /// The frontier program on the board's two parts, joined (closed tours, and open
    /// tours from every start).
    Split,
}

/// Largest accepted `--max-memory` (GiB).
const MAX_MEMORY_GIB: u64 = 1 << 20;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Examples:\n  knightnet count --board 6x6 --closed\n  knightnet count --board 5x5 --start a1 --method search"
)]
pub struct CountArgs {
    #[arg(long, required_unless_present_any = ["graph", "shape"], help = super::flags::board_help!())]
    pub board: Option<Board>,
    /// Count closed tours (undirected cycles) instead of open tours.
    #[arg(long)]
    pub closed: bool,
    /// Count only tours starting on this square: ROW,COL (0-based) or algebraic like c3.
    #[arg(long)]
    pub start: Option<String>,
    /// Counting method: auto (the default: split where it applies, else frontier), frontier (dynamic program), split (the dynamic program on two
    /// parts, joined; closed tours and open tours from every start) or search
    /// (exhaustive).
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// Work budget, 1 to 2^64-1: search steps (squares placed, plus one per square set
    /// up for each start) or frontier state transitions (split: those of both parts plus
    /// the pairs of states the join checks). The count stops when the next piece of work
    /// would exceed it. Default: 10^10 for --method search (an exhaustive search can run
    /// for ever); no budget for frontier and split, whose work the memory bounds (the
    /// progress bar on a terminal shows how far a count has got).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Frontier and split methods: memory bound in GiB (1 to 2^20). Default: the memory
    /// the process may really use (address-space and data limits, cgroup, available
    /// memory), which caps a bound given here too. The estimate is checked before any
    /// work and the states held after each square: beyond --max-memory the count is
    /// refused with exit 2, beyond the memory the process may use with exit 1, each time
    /// naming the memory needed and the bound.
    #[arg(long, value_name = "GIB")]
    pub max_memory: Option<u64>,
    /// Also count the 2-factors F (spanning sets of disjoint cycles) and print the
    /// closed-tour count H, F and H/F (frontier method).
    #[arg(long)]
    pub two_factors: bool,
    /// Profile the frontier: run only the first K rows (1 to the long side; rows run along
    /// the narrow side) and print
    /// the number of states after each square, the transitions and the rate (of the
    /// 2-factor program with --two-factors).
    #[arg(long, value_name = "K")]
    pub profile_rows: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The piece, the surface, a shape or a graph file instead of the knight on a whole
    /// plane board.
    #[command(flatten)]
    pub geometry: GeometryArgs,
}

impl CountArgs {
    /// The work budget of `method`: `--max-steps`, else the method's default (none for
    /// the frontier and split methods).
    fn budget(&self, method: Method) -> u64 {
        self.max_steps.unwrap_or_else(|| method.default_max_steps())
    }

    /// The budget as the message of a count it stopped names it.
    fn budget_words(&self, method: Method) -> String {
        match self.max_steps {
            Some(n) => format!("--max-steps {n}"),
            None => format!(
                "the default --max-steps {} of --method search; raise it with --max-steps",
                self.budget(method)
            ),
        }
    }

    /// The memory bound in bytes: `--max-memory`, else none (`u64::MAX`: only the memory
    /// the process may use bounds the count).
    fn memory_bound(&self) -> Result<u64, Failure> {
        match self.max_memory {
            None => Ok(u64::MAX),
            Some(gib) if (1..=MAX_MEMORY_GIB).contains(&gib) => Ok(gib << 30),
            Some(gib) => Err(InputError::param(format!(
                "--max-memory must be 1 to {MAX_MEMORY_GIB} (GiB), not {gib}"
            ))
            .into()),
        }
    }
}

/// A ratio in [0, 1] as a plain decimal with four significant digits (`0.2722`,
/// `0.01344`), `0` when it is zero.
fn plain_ratio(x: f64) -> String {
    if x <= 0.0 || !x.is_finite() {
        return "0".to_string();
    }
    let decimals = (3 - x.log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

/// A progress bar on stderr when it is a terminal, else hidden.
fn bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] square {pos}/{len} {msg} (eta {eta})",
    ) {
        b.set_style(style.progress_chars("=> "));
    }
    b
}

/// Progress of the frontier method: the bar, drawn only when stderr is a terminal.
fn frontier_progress(b: &ProgressBar) -> impl FnMut(frontier::Progress) + '_ {
    move |p| {
        b.set_position(p.done as u64);
        b.set_message(format!("{} states", p.states));
    }
}

pub fn run(args: CountArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let board = match solve_graph::named(args.board, &args.geometry)? {
        Named::Knight(board) => board,
        Named::Other(target) => return beyond(&args, solve_graph::graph_of(target)?, out),
    };
    let start = start_square(board, args.start.as_deref())?;
    let max_memory = args.memory_bound()?;
    let method = match args.method {
        MethodArg::Auto
            if start.is_none()
                && !args.two_factors
                && args.profile_rows.is_none()
                && count::split::fits(board) =>
        {
            Method::Split
        }
        MethodArg::Auto | MethodArg::Frontier => Method::Frontier,
        MethodArg::Search => Method::Search,
        MethodArg::Split => Method::Split,
    };
    let spec = CountSpec {
        board,
        closed: args.closed,
        start,
        max_steps: args.budget(method),
        method,
    };
    count::check(&spec)?;
    if (args.two_factors || args.profile_rows.is_some()) && method != Method::Frontier {
        return Err(
            InputError::param("--two-factors and --profile-rows need --method frontier").into(),
        );
    }
    if let Some(k) = args.profile_rows {
        return profile(&args, board, start, k, max_memory, out);
    }
    if args.two_factors {
        return two_factors(&args, board, max_memory, out);
    }
    let c = match method {
        Method::Search => {
            count::search::check(&spec)?;
            // Progress lines only on a terminal: a pipe or a log gets the result alone.
            let terminal = std::io::stderr().is_terminal();
            let started = std::time::Instant::now();
            let mut last = 0u64;
            count::search::count(&spec, |steps, found| {
                let secs = started.elapsed().as_secs();
                if terminal && secs >= 2 && secs != last {
                    last = secs;
                    eprintln!("count {board}: {steps} steps, {found} tours so far, {secs} s");
                }
            })?
        }
        Method::Frontier | Method::Split => {
            let b = bar(board.squares() as u64);
            let c = count::frontier_count(&spec, max_memory, frontier_progress(&b));
            b.finish_and_clear();
            c?
        }
    };
    let text = match args.format {
        Format::Json => {
            let mut body = serde_json::to_value(&c).map_err(anyhow::Error::from)?;
            body["start_name"] = serde_json::json!(
                c.start
                    .map(|[r, col]| board.square_name(board.index(r, col)))
            );
            super::json::to_text(&super::json::document("count", body))?
        }
        Format::Text => {
            let kind = if c.closed { "closed" } else { "open" };
            let scope = match (c.closed, start) {
                (false, None) => "all start squares".to_string(),
                (false, Some(s)) => format!("start {}", board.square_name(s)),
                (true, _) => format!("through {}", board.square_name(start.unwrap_or(0))),
            };
            let mut s = format!(
                "{kind} tours of {board} ({scope}): directed {}{}{}\n",
                c.directed,
                c.undirected
                    .map(|u| format!(", undirected {u}"))
                    .unwrap_or_default(),
                if c.complete {
                    String::new()
                } else if method == Method::Search {
                    " (incomplete: lower bounds)".into()
                } else {
                    " (incomplete: no count)".into()
                }
            );
            s += &match (c.closed, start) {
                (false, None) => "directed counts a tour and its reverse separately; undirected counts them once\n".to_string(),
                (false, Some(_)) => "directed: tours starting on that square (= undirected tours with an end there)\n".to_string(),
                (true, _) => "directed: closed tours from the start square, each cycle once per direction; undirected: cycles\n".to_string(),
            };
            if let Some(reason) = &c.decided_by {
                s += &format!("decided without counting: {reason}\n");
            } else if method == Method::Search {
                s += &format!("{} search steps\n", c.steps);
            } else if let Some(pairs) = c.pairs_joined {
                s += &format!(
                    "split method: {} state transitions, at most {} states, {pairs} pairs of states joined\n",
                    c.steps,
                    c.peak_states.unwrap_or(0)
                );
            } else {
                s += &format!(
                    "frontier method: {} state transitions, at most {} states\n",
                    c.steps,
                    c.peak_states.unwrap_or(0)
                );
            }
            s
        }
    };
    out.write_all(text.as_bytes())?;
    if !c.complete {
        let what = match method {
            Method::Search => "the counts above are lower bounds",
            Method::Frontier => "the frontier method has no partial count",
            Method::Split => "the split method has no partial count",
        };
        return Err(Failure::Other(anyhow::anyhow!(
            "gave up after {} steps ({}); {what}",
            c.steps,
            args.budget_words(method)
        )));
    }
    Ok(())
}

/// `--two-factors`: H, F and H/F.
fn two_factors(
    args: &CountArgs,
    board: Board,
    max_memory: u64,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    #[derive(Serialize)]
    struct Report {
        board: Board,
        closed_tours: String,
        two_factors: String,
        ratio: f64,
        transitions: u64,
        /// How H was counted: `split` or `frontier` (F always by the frontier).
        closed_tours_method: Method,
    }
    if args.start.is_some() {
        return Err(InputError::param("--two-factors counts the whole board; drop --start").into());
    }
    // H by the split where it applies (unless --method frontier), F by the frontier.
    let split_h = args.method == MethodArg::Auto && count::split::fits(board);
    let mut results = Vec::new();
    let mut transitions = 0u64;
    let budget = args.budget(Method::Frontier);
    for q in [Quantity::Cycles, Quantity::TwoFactors] {
        let req = frontier::FrontierRequest {
            board,
            quantity: q,
            start: None,
            max_transitions: budget.saturating_sub(transitions).max(1),
            max_memory,
            rows_limit: None,
        };
        let b = bar(board.squares() as u64);
        let run = if q == Quantity::Cycles && split_h {
            count::split::run(&req, frontier_progress(&b))
        } else {
            frontier::run(&req, frontier_progress(&b))
        };
        b.finish_and_clear();
        let run = run?;
        transitions += run.transitions + run.pairs_joined;
        match run.count {
            Some(c) => results.push(c),
            None => {
                return Err(Failure::Other(anyhow::anyhow!(
                    "gave up after {transitions} transitions ({}); no count",
                    args.budget_words(Method::Frontier)
                )));
            }
        }
    }
    let (h, f) = (results[0], results[1]);
    let ratio = if f == 0 { 0.0 } else { h as f64 / f as f64 };
    let text = match args.format {
        Format::Json => {
            let r = Report {
                board,
                closed_tours: h.to_string(),
                two_factors: f.to_string(),
                ratio,
                transitions,
                closed_tours_method: if split_h {
                    Method::Split
                } else {
                    Method::Frontier
                },
            };
            let body = serde_json::to_value(&r).map_err(anyhow::Error::from)?;
            super::json::to_text(&super::json::document("count", body))?
        }
        Format::Text => format!(
            "{board}: closed tours (Hamiltonian cycles) H = {h}, 2-factors F = {f}, H/F = {}\n\
             a 2-factor is a spanning set of disjoint cycles; H/F is the share of them that are single tours\n",
            plain_ratio(ratio)
        ),
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// `--profile-rows K`: states after each square of the first K rows.
fn profile(
    args: &CountArgs,
    board: Board,
    start: Option<u32>,
    rows: usize,
    max_memory: u64,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let w = board.rows().min(board.cols());
    let h = board.rows().max(board.cols());
    if !(1..=h).contains(&rows) {
        return Err(InputError::param(format!(
            "--profile-rows must be 1 to {h} (the board's long side) for {board}, not {rows}"
        ))
        .into());
    }
    let quantity = if args.two_factors {
        Quantity::TwoFactors
    } else if args.closed {
        Quantity::Cycles
    } else {
        Quantity::Paths
    };
    let req = frontier::FrontierRequest {
        board,
        quantity,
        start: if quantity == Quantity::Paths {
            start
        } else {
            None
        },
        max_transitions: args.budget(Method::Frontier),
        max_memory,
        rows_limit: Some(rows),
    };
    let started = std::time::Instant::now();
    let b = bar((rows * w).min(board.squares()) as u64);
    let run = frontier::run(&req, frontier_progress(&b));
    b.finish_and_clear();
    let run = run?;
    let secs = started.elapsed().as_secs_f64();
    #[derive(Serialize)]
    struct Profile<'a> {
        board: Board,
        quantity: Quantity,
        width: usize,
        squares_processed: usize,
        states: &'a [usize],
        peak_states: usize,
        transitions: u64,
        seconds: f64,
        estimate_states: u64,
        /// The count, when the profile covered the whole board.
        count: Option<String>,
    }
    let p = Profile {
        board,
        quantity,
        width: w,
        squares_processed: run.states.len(),
        states: &run.states,
        peak_states: run.peak_states,
        transitions: run.transitions,
        seconds: secs,
        estimate_states: frontier::estimate_states(board, quantity, start.is_some()),
        count: run.count.map(|c| c.to_string()),
    };
    let text = match args.format {
        Format::Json => {
            let body = serde_json::to_value(&p).map_err(anyhow::Error::from)?;
            super::json::to_text(&super::json::document("count", body))?
        }
        Format::Text => {
            let mut s = format!(
                "frontier profile of {board} ({quantity:?}), width {w}, first {} squares:\n",
                run.states.len()
            );
            for (row, chunk) in run.states.chunks(w).enumerate() {
                s += &format!(
                    "row {row}: {}\n",
                    chunk
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                );
            }
            s += &format!(
                "peak {} states, {} transitions in {secs:.2} s ({:.0} transitions/s)\n",
                run.peak_states,
                run.transitions,
                run.transitions as f64 / secs.max(1e-9)
            );
            if let Some(c) = run.count {
                s += &format!("count ({quantity:?}, undirected): {c}\n");
            }
            s
        }
    };
    out.write_all(text.as_bytes())?;
    if !run.complete && run.states.len() < (rows * w).min(board.squares()) {
        return Err(Failure::Other(anyhow::anyhow!(
            "gave up after {} transitions ({})",
            run.transitions,
            args.budget_words(Method::Frontier)
        )));
    }
    Ok(())
}

/// `count` on a geometry or a graph file. A geometry whose processing order fits the
/// frontier state ([`count::geometry::Layout`]) is counted by the frontier program
/// (`--method auto` or `frontier`), within `--max-steps` transitions and the memory;
/// a graph file, a geometry that does not fit and `--method search` go by the
/// forward-checking search of [`on_graph::count`], within `--max-steps` (default that
/// of `--method search`); a count the budget cannot finish is refused, naming the
/// budget.
fn beyond(args: &CountArgs, graph: KnightGraph, out: &mut dyn Write) -> Result<(), Failure> {
    let what = graph.describe();
    let knight_only = [
        ("--start", args.start.is_some()),
        ("--profile-rows", args.profile_rows.is_some()),
        ("--method split", args.method == MethodArg::Split),
    ];
    if let Some((flag, _)) = knight_only.into_iter().find(|&(_, on)| on) {
        return Err(InputError::param(format!(
            "{flag} applies to the knight on a whole plane board; {what} is counted by the frontier method or exhaustive search (--method frontier or search)"
        ))
        .into());
    }
    let moves = match graph.source() {
        Source::Geometry(moves) if args.method != MethodArg::Search => Some(moves.clone()),
        _ => None,
    };
    let layout = moves.as_deref().map(Layout::of);
    let frontier = match (&layout, args.method) {
        (Some(layout), MethodArg::Auto) => layout.fits(),
        (Some(_), _) => true,
        (None, _) => false,
    };
    let refuse = |why: String| -> Result<(), Failure> { Err(InputError::param(why).into()) };
    match (&moves, &layout) {
        (Some(moves), Some(layout)) if frontier => {
            return beyond_frontier(args, moves, layout, &what, out);
        }
        (None, _) if args.method == MethodArg::Frontier => {
            return refuse(format!(
                "--method frontier counts on a leaper, surface or shape; {what} is counted by exhaustive search (--method search)"
            ));
        }
        _ => {}
    }
    // Why the count goes by search, when a geometry's order does not fit the frontier.
    let too_wide = layout.as_ref().map(|layout| {
        format!(
            "the frontier method's processing order of {what} ({}) needs more than the {} squares its state holds",
            layout.describe(),
            frontier::MAX_WINDOW
        )
    });
    if args.two_factors {
        return refuse(match &too_wide {
            Some(why) => format!(
                "--two-factors counts by the frontier method, and {why}; exhaustive search counts tours, not 2-factors"
            ),
            None => format!(
                "--two-factors counts by the frontier method, on a leaper, surface or shape; {what} is counted by exhaustive search, which counts tours, not 2-factors"
            ),
        });
    }
    if args.max_memory.is_some() {
        return refuse(format!(
            "--max-memory bounds the frontier method; {what} is counted by exhaustive search{}, bounded by --max-steps",
            too_wide.map(|why| format!(" ({why})")).unwrap_or_default()
        ));
    }
    let budget = args.budget(Method::Search);
    let Some(c) = on_graph::count(&graph, args.closed, budget) else {
        return Err(InputError::TooLarge(Refusal::new(format!(
            "counting the {} tours of {what} needs more than {} vertices placed",
            if args.closed { "closed" } else { "open" },
            args.budget_words(Method::Search)
        )))
        .into());
    };
    let kind = if args.closed { "closed" } else { "open" };
    let text = match args.format {
        Format::Json => {
            let v = serde_json::json!({
                "graph": what,
                "closed": args.closed,
                "method": "search",
                "directed": c.directed,
                "undirected": c.undirected,
                "steps": c.steps,
            });
            super::json::to_text(&super::json::document("count", v))?
        }
        Format::Text => format!(
            "{kind} tours of {what}: directed {}, undirected {}\n{}\nexhaustive search: {} vertices placed\n",
            c.directed,
            c.undirected,
            what_directed_means(args.closed),
            c.steps
        ),
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// What the directed count of tours beyond the knight counts.
fn what_directed_means(closed: bool) -> &'static str {
    if closed {
        "directed: closed tours from the first vertex, each cycle once per direction; undirected: cycles"
    } else {
        "directed counts a tour and its reverse separately; undirected counts them once"
    }
}

/// `count` on a geometry by the frontier program: closed or open tours, or with
/// `--two-factors` H, F and H/F.
fn beyond_frontier(
    args: &CountArgs,
    moves: &MoveGraph,
    layout: &Layout,
    what: &str,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let max_memory = args.memory_bound()?;
    let budget = args.budget(Method::Frontier);
    let quantities: &[Quantity] = if args.two_factors {
        &[Quantity::Cycles, Quantity::TwoFactors]
    } else if args.closed {
        &[Quantity::Cycles]
    } else {
        &[Quantity::Paths]
    };
    let mut counts = Vec::new();
    let mut transitions = 0u64;
    let mut peak = 0usize;
    for &q in quantities {
        let b = bar(moves.vertices() as u64);
        let run = count::geometry::run(
            moves,
            layout,
            q,
            budget.saturating_sub(transitions).max(1),
            max_memory,
            &mut frontier_progress(&b),
        );
        b.finish_and_clear();
        let run = run?;
        transitions += run.transitions;
        peak = peak.max(run.peak_states);
        match run.count {
            Some(c) => counts.push(c),
            None => {
                return Err(Failure::Other(anyhow::anyhow!(
                    "gave up after {transitions} transitions ({}); the frontier method has no partial count",
                    args.budget_words(Method::Frontier)
                )));
            }
        }
    }
    let overflow = || {
        InputError::TooLarge(Refusal::new(format!(
            "a count on {what} overflows 128 bits"
        )))
    };
    let text = if args.two_factors {
        let (h, f) = (counts[0], counts[1]);
        let ratio = if f == 0 { 0.0 } else { h as f64 / f as f64 };
        match args.format {
            Format::Json => {
                let v = serde_json::json!({
                    "graph": what,
                    "closed_tours": h.to_string(),
                    "two_factors": f.to_string(),
                    "ratio": ratio,
                    "transitions": transitions,
                    "method": Method::Frontier,
                    "order": layout.describe(),
                    "window": layout.window,
                    "peak_states": peak,
                });
                super::json::to_text(&super::json::document("count", v))?
            }
            Format::Text => format!(
                "{what}: closed tours (Hamiltonian cycles) H = {h}, 2-factors F = {f}, H/F = {}\n\
                 a 2-factor is a spanning set of disjoint cycles; H/F is the share of them that are single tours\n\
                 frontier method ({}): {transitions} state transitions, at most {peak} states\n",
                plain_ratio(ratio),
                layout.describe()
            ),
        }
    } else {
        let k = counts[0];
        let directed = if !args.closed && moves.vertices() == 1 {
            k
        } else {
            k.checked_mul(2).ok_or_else(overflow)?
        };
        let kind = if args.closed { "closed" } else { "open" };
        match args.format {
            Format::Json => {
                let v = serde_json::json!({
                    "graph": what,
                    "closed": args.closed,
                    "method": Method::Frontier,
                    "directed": directed.to_string(),
                    "undirected": k.to_string(),
                    "steps": transitions,
                    "order": layout.describe(),
                    "window": layout.window,
                    "peak_states": peak,
                });
                super::json::to_text(&super::json::document("count", v))?
            }
            Format::Text => format!(
                "{kind} tours of {what}: directed {directed}, undirected {k}\n{}\nfrontier method ({}): {transitions} state transitions, at most {peak} states\n",
                what_directed_means(args.closed),
                layout.describe()
            ),
        }
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The `count` flags of a command line.
    fn args(line: &[&str]) -> CountArgs {
        let cli =
            crate::cli::Cli::try_parse_from(["knightnet", "count"].iter().chain(line).copied())
                .unwrap();
        match cli.command {
            crate::cli::Command::Count(a) => a,
            other => panic!("{other:?}"),
        }
    }

    /// The defaults that let the documented counts finish: no step budget for the
    /// dynamic programs, 10^10 steps for the search; a typed budget for every method.
    #[test]
    fn only_the_search_has_a_default_step_budget() {
        let a = args(&["--board", "8x8", "--closed"]);
        assert_eq!(a.budget(Method::Split), u64::MAX);
        assert_eq!(a.budget(Method::Frontier), u64::MAX);
        assert_eq!(a.budget(Method::Search), 10_000_000_000);
        assert!(a.budget_words(Method::Search).contains("default"));
        let a = args(&["--board", "8x8", "--max-steps", "500"]);
        for m in [Method::Split, Method::Frontier, Method::Search] {
            assert_eq!(a.budget(m), 500);
            assert_eq!(a.budget_words(m), "--max-steps 500");
        }
    }

    /// No `--max-memory`: no bound of its own (the process's memory is checked by the
    /// library whatever the bound); a typed one in GiB, within 1 to 2^20.
    #[test]
    fn the_memory_bound_is_only_what_was_typed() {
        assert_eq!(args(&["--board", "8x8"]).memory_bound().unwrap(), u64::MAX);
        let typed = args(&["--board", "8x8", "--max-memory", "3"]);
        assert_eq!(typed.memory_bound().unwrap(), 3 << 30);
        for bad in ["0", "1048577"] {
            let a = args(&["--board", "8x8", "--max-memory", bad]);
            assert!(a.memory_bound().is_err(), "{bad}");
        }
    }

    #[test]
    fn ratios_print_four_significant_digits() {
        assert_eq!(plain_ratio(9862.0 / 36236.0), "0.2722");
        assert_eq!(plain_ratio(0.013444), "0.01344");
        assert_eq!(plain_ratio(0.0), "0");
        assert_eq!(plain_ratio(1.0), "1.000");
    }
}
