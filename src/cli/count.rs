//! `knightnet count`: enumerate all knight's tours of a small board (see
//! [`crate::count`] for exactly what is counted), with a step budget and progress on
//! stderr during long runs.

use std::io::Write;

use clap::Args;

use super::solve::Format;
use super::Failure;
use crate::board::Board;
use crate::count::{self, CountSpec, DEFAULT_COUNT_STEPS};

#[derive(Debug, Clone, Args)]
pub struct CountArgs {
    /// Board size ROWSxCOLS.
    #[arg(long)]
    pub board: String,
    /// Count closed tours (undirected cycles) instead of open tours.
    #[arg(long)]
    pub closed: bool,
    /// Count only tours starting on this square: ROW,COL (0-based) or algebraic like c3.
    #[arg(long)]
    pub start: Option<String>,
    /// Give up after this many search steps (squares placed) in all.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_COUNT_STEPS)]
    pub max_steps: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: CountArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let board: Board = args.board.parse()?;
    let start = args
        .start
        .as_deref()
        .map(|s| board.parse_square(s))
        .transpose()?;
    let spec = CountSpec {
        board,
        closed: args.closed,
        start,
        max_steps: args.max_steps,
    };
    count::check(&spec)?;
    let started = std::time::Instant::now();
    let mut last = 0u64;
    let c = count::count(&spec, |steps, found| {
        let secs = started.elapsed().as_secs();
        if secs >= 2 && secs != last {
            last = secs;
            eprintln!("count {board}: {steps} steps, {found} tours so far, {secs} s");
        }
    })?;
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&c).map_err(anyhow::Error::from)? + "\n",
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
                } else {
                    " (incomplete: lower bounds)".into()
                }
            );
            s += &match (c.closed, start) {
                (false, None) => "directed counts a tour and its reverse separately; undirected counts them once\n".to_string(),
                (false, Some(_)) => "directed: tours starting on that square (= undirected tours with an end there)\n".to_string(),
                (true, _) => "directed: closed tours from the start square, each cycle once per direction; undirected: cycles\n".to_string(),
            };
            s += &format!("{} search steps\n", c.steps);
            s
        }
    };
    out.write_all(text.as_bytes())?;
    if !c.complete {
        return Err(Failure::Other(anyhow::anyhow!(
            "gave up after {} steps (--max-steps {}); the counts above are lower bounds",
            c.steps,
            args.max_steps
        )));
    }
    Ok(())
}
