//! The manual's commands run: every `knightnet` command in a code block of README.md or
//! of a chapter docs/SUMMARY.md lists (written `cargo run --release -- ARGS`,
//! `cargo run --release --features F -- ARGS` or `knightnet ARGS`) is run with the binary
//! under test (a command that needs a feature this build lacks is not), in a scratch folder that sees
//! the repository's `experiments/`, and must exit 0 (or 1 for `exists`'s "no") without a
//! panic. A command is left
//! out only by the list below, each with its reason, and every entry of that list must
//! still match a command of the manual (so it cannot outlive what it excuses).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Commands not run, by a piece of their text, with the reason (times measured with the
/// release build on the 2-core development machine).
const NOT_RUN: &[(&str, &str)] = &[
    (
        "play",
        "interactive: needs a terminal (tests/cli/play.rs drives the game); `play --snapshot` runs",
    ),
    (
        "play --measure-dead",
        "2,000 sampled positions searched to a budget: 7 s",
    ),
    (
        "--board B ",
        "a template: B and T stand for a board and a trial count",
    ),
    (
        "--board BOARD ",
        "a template: BOARD, VARIANT and SEED stand for a record's",
    ),
    (
        "$SLURM_",
        "a Slurm job script's line: the shard comes from the job array",
    ),
    ("◀──", "a label in the architecture diagram, not a command"),
    (
        "count --board 8x8",
        "the 8x8 counts: 24 s (--profile-rows 8) to ten minutes and 10 GB (docs/counting.md)",
    ),
    ("count --board 7x7", "the 7x7 count: minutes"),
    (
        "two-triangles.txt",
        "shows a refusal (exit 2) of a file the reader writes (tests/cli/solve_geometry.rs checks it)",
    ),
    (
        "serve ",
        "a server: runs until stopped, and only with the serve feature (tests/serve/ starts it)",
    ),
    (
        "eager",
        "the rule docs/rules.md shows how to add: not in the program",
    ),
    (
        "--board 10000x10000",
        "10^8 squares: half a minute and gigabytes (PERFORMANCE.md measures it)",
    ),
    (
        "growth --solvers network:parberry",
        "the network up to 20x20 with a 10-second budget a size: about a minute",
    ),
    (
        "growth --solvers warnsdorff,",
        "Warnsdorff and divide and conquer up to 2000x2000: 7-9 s",
    ),
    (
        "growth --solvers warnsdorff:roth,",
        "Warnsdorff and divide and conquer up to 2000x2000: 7-9 s",
    ),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and the book's chapters, in the order docs/SUMMARY.md lists them.
fn manual() -> Vec<PathBuf> {
    let summary = std::fs::read_to_string(root().join("docs/SUMMARY.md")).unwrap();
    let mut files = vec![root().join("README.md")];
    for line in summary.lines() {
        if let Some((_, rest)) = line.split_once("](") {
            let name = rest.trim_end().trim_end_matches(')');
            files.push(root().join("docs").join(name));
        }
    }
    files
}

/// One command of the manual: its file, its words, and where its standard output goes.
#[derive(Debug)]
struct Documented {
    file: String,
    text: String,
    args: Vec<String>,
    stdout_to: Option<String>,
    /// The cargo features its `cargo run` line asks for.
    features: Vec<String>,
}

/// Whether the binary under test was built with `feature`.
fn built_with(feature: &str) -> bool {
    [
        ("pdf", cfg!(feature = "pdf")),
        ("asm", cfg!(feature = "asm")),
    ]
    .contains(&(feature, true))
}

/// The words of a shell line: white space splits, single and double quotes group, an
/// unquoted `#` after white space starts a comment.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None if c == '#' && !in_word => break,
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

/// Every knightnet command in the fenced code blocks of `path` (lines joined at a
/// trailing backslash).
fn commands_in(path: &Path) -> Vec<Documented> {
    let subcommands = crate::common::subcommands();
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.strip_prefix(root()).unwrap().display().to_string();
    let mut found = Vec::new();
    let mut in_block = false;
    let mut pending = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            pending.clear();
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            continue;
        }
        let whole = std::mem::take(&mut pending) + line;
        let mut w = words(&whole);
        let cargo_run = w.starts_with(&["cargo", "run", "--release"].map(String::from));
        let mut features = Vec::new();
        let start = if cargo_run && w.get(3).is_some_and(|x| x == "--") {
            4
        } else if cargo_run && w.get(3).is_some_and(|x| x == "--features") && w.len() > 5 {
            features = w[4].split(',').map(String::from).collect();
            6
        } else if w.first().is_some_and(|x| x == "knightnet") && w.len() > 1 {
            1
        } else {
            continue;
        };
        // A command names a subcommand (`knightnet = { path = ... }` in a Cargo.toml
        // block does not).
        if !w.get(start).is_some_and(|x| subcommands.contains(x)) {
            continue;
        }
        let mut stdout_to = None;
        if let Some(i) = w.iter().position(|x| x == ">") {
            stdout_to = w.get(i + 1).cloned();
            w.truncate(i);
        }
        found.push(Documented {
            file: file.clone(),
            text: whole.trim().to_string(),
            args: w[start..].to_vec(),
            stdout_to,
            features,
        });
    }
    found
}

/// Whether the exception `piece` covers `cmd`: `play` covers the interactive game (every
/// `play` command but `--measure-dead`), any other piece the command's text.
fn covers(piece: &str, cmd: &Documented) -> bool {
    let line = cmd.args.join(" ") + " ";
    if piece == "play" {
        cmd.args.first().is_some_and(|a| a == "play")
            && !line.contains("--measure-dead")
            && !line.contains("--snapshot")
    } else {
        line.contains(piece)
    }
}

fn not_run(cmd: &Documented) -> bool {
    NOT_RUN.iter().any(|(piece, _)| covers(piece, cmd))
}

#[test]
fn the_manual_has_commands_and_every_exception_still_matches_one() {
    let all: Vec<Documented> = manual().iter().flat_map(|p| commands_in(p)).collect();
    assert!(all.len() >= 30, "only {} commands found", all.len());
    for (piece, why) in NOT_RUN {
        let matched = all.iter().any(|c| covers(piece, c));
        assert!(
            matched,
            "NOT_RUN entry {piece:?} ({why}) matches no command of the manual"
        );
    }
    // The exceptions stay exceptions: most distinct commands run.
    let distinct = |keep: &dyn Fn(&Documented) -> bool| {
        all.iter()
            .filter(|c| keep(c))
            .map(|c| &c.args)
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    let (run, shown) = (distinct(&|c| !not_run(c)), distinct(&|_| true));
    assert!(
        run * 2 > shown,
        "most of the manual's distinct commands must run; {run} of {shown} do"
    );
}

#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn the_manuals_commands_run() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    std::os::unix::fs::symlink(root().join("experiments"), dir.join("experiments")).unwrap();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let mut failures = Vec::new();
    let mut ran = std::collections::HashSet::new();
    for path in manual() {
        for cmd in commands_in(&path) {
            // A command shown in two places (README and a chapter) runs once.
            if not_run(&cmd)
                || !cmd.features.iter().all(|f| built_with(f))
                || !ran.insert((cmd.args.clone(), cmd.stdout_to.clone()))
            {
                continue;
            }
            let stdout = match &cmd.stdout_to {
                Some(f) => Stdio::from(std::fs::File::create(dir.join(f)).unwrap()),
                None => Stdio::null(),
            };
            let out = Command::new(env!("CARGO_BIN_EXE_knightnet"))
                .args(&cmd.args)
                .current_dir(dir)
                .stdin(Stdio::null())
                .stdout(stdout)
                .stderr(Stdio::piped())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            // `exists` answers "no" with exit 1 (docs/reference.md); any other command
            // succeeds with 0.
            let answered = out.status.code() == Some(0)
                || (cmd.args[0] == "exists" && out.status.code() == Some(1));
            if !answered || stderr.contains("panicked") {
                failures.push(format!(
                    "{}: `{}` exited {:?}: {}",
                    cmd.file,
                    cmd.text,
                    out.status.code(),
                    stderr.trim()
                ));
            }
        }
    }
    assert!(!ran.is_empty());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
