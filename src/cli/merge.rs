//! `knightnet merge`: join shard folders of one spec into the folder a single run would
//! have written (records sorted by cell and trial, summary, run.json).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::Failure;
use knightnet::experiment::{self, Replay};

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Example (after `experiment SPEC --shard 0/2 --out out/q0` and `--shard 1/2 --out out/q1`):\n  knightnet merge out/q0 out/q1 --out out/quickstart-merged"
)]
pub struct MergeArgs {
    /// Results folders of the shards (e.g. results/x-shard-*).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Folder for the merged results (must not hold a run yet).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Merge even when some trials are missing (the summary says so).
    #[arg(long)]
    pub partial: bool,
    /// Rows of each folder's records.csv run again and compared with their record
    /// before merging: a number (default 100: the rows with the smallest seeds; 0 for
    /// none) or all.
    #[arg(long, value_name = "N|all", default_value_t = Replay::default())]
    pub replay: Replay,
    /// No summary table on stdout.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: MergeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let summary = experiment::merge(
        &args.dirs,
        &args.out,
        args.partial,
        args.replay,
        super::command_line(),
    )?;
    if !args.quiet {
        let md = summary.markdown();
        let table = md.split("\n## ").next().unwrap_or(&md);
        out.write_all(table.trim_end().as_bytes())?;
        out.write_all(b"\n")?;
    }
    eprintln!(
        "merged {} folders: {} of {} trials in {}",
        args.dirs.len(),
        summary.trials_done,
        summary.trials_planned,
        args.out.display()
    );
    Ok(())
}
