//! `plain-c`: knightnet against the plain C program of the same rule (issue #31).
//!
//! ```text
//! cargo run --release -p knightnet-bench --bin plain-c -- measure BOARD ATTEMPTS SEED REPEATS
//! cargo run --release -p knightnet-bench --bin plain-c -- states BOARD ATTEMPTS SEED FILE
//! ```
//!
//! `measure` compiles `plain-c/takefuji_lee.c` (`$CC`, `cc` by default, `-O2 -std=c99`),
//! writes the initial states of attempts `0..ATTEMPTS` of base seed SEED on BOARD, and
//! runs them REPEATS times in turn in the C program, knightnet's scalar engine and its
//! batched engine, checking every time that each attempt ends after the same sweeps with
//! the same outcome in all three. It prints the time per attempt of each, and the C
//! program's time over each engine's (min / median / max over the repeats), with a
//! table row for PERFORMANCE.md. `states` only writes the C program's input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use knightnet::board::Board;
use knightnet::network::batch::Kernels;
use plain_c::{Attempts, C_FLAGS, Report, batched, compile_c, run_c, scalar};

const USAGE: &str = "plain-c measure BOARD ATTEMPTS SEED REPEATS | plain-c states BOARD ATTEMPTS SEED FILE (BOARD like 8x8; ATTEMPTS, SEED and REPEATS whole numbers, ATTEMPTS and REPEATS at least 1)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(e)) => {
            eprintln!("plain-c: {e}; usage: {USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Run(e)) => {
            eprintln!("plain-c: {e}");
            ExitCode::FAILURE
        }
    }
}

enum Failure {
    /// Bad arguments (exit 2).
    Input(String),
    /// The C program or a check failed (exit 1).
    Run(String),
}

fn number(what: &str, text: &str, least: u64) -> Result<u64, Failure> {
    match text.parse::<u64>() {
        Ok(n) if n >= least => Ok(n),
        _ => Err(Failure::Input(format!(
            "{what} '{text}' is not a whole number of at least {least}"
        ))),
    }
}

fn run(args: &[String]) -> Result<(), Failure> {
    let (cmd, board, attempts, seed, last) = match args {
        [cmd, board, attempts, seed, last] => (cmd.as_str(), board, attempts, seed, last),
        _ => return Err(Failure::Input(format!("{} arguments", args.len()))),
    };
    let board: Board = board
        .parse()
        .map_err(|e: knightnet::error::InputError| Failure::Input(e.to_string()))?;
    let count = number("ATTEMPTS", attempts, 1)? as usize;
    let seed = number("SEED", seed, 0)?;
    match cmd {
        "states" => {
            let file = std::fs::File::create(last)
                .map_err(|e| Failure::Input(format!("cannot write '{last}': {e}")))?;
            Attempts::new(board, count, seed)
                .write(std::io::BufWriter::new(file))
                .map_err(|e| Failure::Run(format!("writing '{last}': {e}")))
        }
        "measure" => measure(board, count, seed, number("REPEATS", last, 1)? as usize),
        other => Err(Failure::Input(format!(
            "unknown command '{other}'; 'measure' or 'states' are accepted"
        ))),
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// min, median, max.
fn spread(mut xs: Vec<f64>) -> (f64, f64, f64) {
    xs.sort_by(f64::total_cmp);
    (xs[0], xs[xs.len() / 2], xs[xs.len() - 1])
}

fn same(what: &str, c: &Report, k: &Report) -> Result<(), Failure> {
    match c.ended.iter().zip(&k.ended).position(|(a, b)| a != b) {
        None if c.ended.len() == k.ended.len() => Ok(()),
        None => Err(Failure::Run(format!(
            "the C program ran {} attempts, {what} {}",
            c.ended.len(),
            k.ended.len()
        ))),
        Some(i) => Err(Failure::Run(format!(
            "attempt {i}: the C program ended with {:?}, {what} with {:?}: the rules differ",
            c.ended[i], k.ended[i]
        ))),
    }
}

fn measure(board: Board, count: usize, seed: u64, repeats: usize) -> Result<(), Failure> {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("knightnet-plain-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Failure::Run(format!("{}: {e}", dir.display())))?;
    let result = measure_in(&dir, board, count, seed, repeats);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn measure_in(
    dir: &Path,
    board: Board,
    count: usize,
    seed: u64,
    repeats: usize,
) -> Result<(), Failure> {
    let bin = compile_c(dir).map_err(Failure::Run)?;
    let attempts = Attempts::new(board, count, seed);
    let file = dir.join("states.txt");
    let out = std::fs::File::create(&file).map_err(|e| Failure::Run(e.to_string()))?;
    attempts
        .write(std::io::BufWriter::new(out))
        .map_err(|e| Failure::Run(e.to_string()))?;
    println!(
        "{board}: {count} attempts of base seed {seed}, {} neurons; C: cc {}; knightnet's batched kernels: {}; load average {}",
        attempts.graph.edges(),
        C_FLAGS.join(" "),
        Kernels::detect().name(),
        load_average()
    );
    let us = |r: &Report| r.per_attempt() * 1e6;
    let (mut c_us, mut s_us, mut b_us) = (vec![], vec![], vec![]);
    let (mut over_scalar, mut over_batched) = (vec![], vec![]);
    let mut first: Option<Report> = None;
    for r in 0..repeats {
        let c = run_c(&bin, &file).map_err(Failure::Run)?;
        let s = scalar(&attempts);
        let b = batched(&attempts);
        same("knightnet's scalar engine", &c, &s)?;
        same("knightnet's batched engine", &c, &b)?;
        println!(
            "repeat {}: per attempt C {:.1} µs, scalar {:.1} µs, batched {:.1} µs",
            r + 1,
            us(&c),
            us(&s),
            us(&b)
        );
        c_us.push(us(&c));
        s_us.push(us(&s));
        b_us.push(us(&b));
        over_scalar.push(c.seconds / s.seconds);
        over_batched.push(c.seconds / b.seconds);
        first.get_or_insert(c);
    }
    let c = first.expect("at least one repeat");
    println!(
        "every attempt equal in all three: {} sweeps in all, {} tours, {} other outcomes",
        c.sweeps(),
        c.tours(),
        c.ended.len() - c.tours()
    );
    let (c_med, s_med, b_med) = (spread(c_us).1, spread(s_us).1, spread(b_us).1);
    let (s0, s1, s2) = spread(over_scalar);
    let (b0, b1, b2) = spread(over_batched);
    println!(
        "median per attempt: C {c_med:.1} µs, scalar {s_med:.1} µs, batched {b_med:.1} µs; C ÷ scalar {s1:.2} ({s0:.2}–{s2:.2}), C ÷ batched {b1:.2} ({b0:.2}–{b2:.2}) over {repeats} repeats; load average {}",
        load_average()
    );
    println!(
        "| {board} | {count} | {} | {} | {c_med:.1} µs | {s_med:.1} µs | {b_med:.1} µs | {s1:.2}× ({s0:.2}–{s2:.2}) | {b1:.2}× ({b0:.2}–{b2:.2}) |",
        c.sweeps(),
        c.tours()
    );
    Ok(())
}
