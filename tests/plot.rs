//! Every figure kind rendered from tiny runs into a temporary folder, and the files
//! checked to decode (PNG/GIF signature and size, SVG text); the `records.csv` loader
//! against a fixture written here (so these tests do not depend on the experiment
//! runner), including missing and extra columns.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
mod common;

use common::knightnet;

use knightnet::plot::data::{aggregate, load, Share};

fn ok(args: &[&str]) -> String {
    let out = knightnet(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn bad(args: &[&str]) -> String {
    common::refused(args)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn assert_png(p: &Path) {
    let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    assert_eq!(
        &bytes[..8],
        b"\x89PNG\r\n\x1a\n",
        "{} is not a PNG",
        p.display()
    );
    assert!(
        bytes.len() > 5_000,
        "{} is only {} bytes",
        p.display(),
        bytes.len()
    );
}

fn assert_svg(p: &Path) {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    assert!(
        text.contains("<svg") && text.trim_end().ends_with("</svg>"),
        "{}",
        p.display()
    );
    assert!(text.contains("<text"), "{} has no text", p.display());
    assert!(text.len() > 2_000, "{} is tiny", p.display());
}

fn assert_gif(p: &Path) {
    let bytes = std::fs::read(p).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a", "{} is not a GIF", p.display());
    assert!(bytes.len() > 5_000);
    assert_eq!(*bytes.last().unwrap(), 0x3B, "GIF trailer missing");
}

/// Options for the fixture's columns.
struct Fixture {
    iterations: bool,
    time: bool,
    extra: bool,
}

/// Write a records.csv shaped like the experiment runner's: two network presets and one
/// classical solver on 6x6 and 8x8, outcomes from a fixed pseudo-random sequence.
fn write_records(dir: &Path, f: Fixture) -> PathBuf {
    let mut header = vec![
        "spec", "board", "solver", "variant", "trial", "seed", "outcome",
    ];
    if f.iterations {
        header.push("iterations");
    }
    header.extend(["restarts", "cycles", "largest_cycle", "steps"]);
    if f.time {
        header.push("time_ns");
    }
    if f.extra {
        header.push("threads");
    }
    let mut csv = header.join(",") + "\n";
    let mut x: u64 = 12345;
    let mut next = || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as u32
    };
    let outcomes = [
        "tour",
        "multiple-cycles",
        "stable-not-degree-two",
        "iteration-cap",
    ];
    for (solver, variant) in [
        ("network", "parberry"),
        ("network", "takefuji-lee"),
        ("warnsdorff", ""),
    ] {
        for board in ["6x6", "8x8"] {
            for trial in 0..40u32 {
                let r = next();
                let outcome = if solver == "warnsdorff" {
                    if r % 10 == 0 {
                        "dead-end"
                    } else {
                        "tour"
                    }
                } else {
                    outcomes[(r % if variant == "parberry" { 3 } else { 4 }) as usize]
                };
                // The runner writes `network:PRESET` as the solver and the preset again as
                // the variant; the loader must not count it twice.
                let solver_col = if solver == "network" {
                    format!("network:{variant}")
                } else {
                    solver.to_string()
                };
                let _ = write!(
                    csv,
                    "demo,{board},{solver_col},{variant},{trial},{},{outcome}",
                    1 + trial
                );
                if f.iterations {
                    let it = if solver == "warnsdorff" {
                        0
                    } else {
                        5 + next() % 3000
                    };
                    let _ = write!(csv, ",{it}");
                }
                let cycles = if outcome == "tour" { 1 } else { 2 };
                let _ = write!(csv, ",{},{cycles},{},{}", next() % 9, 36, 36);
                if f.time {
                    let base = if solver == "warnsdorff" {
                        20_000
                    } else {
                        2_000_000
                    };
                    let _ = write!(csv, ",{}", base + next() % 50_000);
                }
                if f.extra {
                    csv += ",2";
                }
                csv += "\n";
            }
        }
    }
    let path = dir.join("records.csv");
    std::fs::write(&path, csv).unwrap();
    path
}

#[test]
fn loader_reads_by_name_and_aggregates() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_records(
        tmp.path(),
        Fixture {
            iterations: true,
            time: true,
            extra: true,
        },
    );
    let records = load(&path).unwrap();
    assert_eq!(records.rows.len(), 240);
    assert_eq!(records.time_column.as_deref(), Some("time_ns"));
    let groups = aggregate(&records);
    assert_eq!(groups.len(), 6);
    for g in &groups {
        assert_eq!(g.trials, 40);
        assert_eq!(g.outcomes.values().sum::<u64>(), 40);
        assert_eq!(g.iterations.len(), 40);
        let share = g.share(&["tour"]);
        assert_eq!(share, Share::wilson(g.tours(), 40));
        assert!(share.low <= share.p && share.p <= share.high);
        if g.tours() > 0 {
            let t = g.seconds_per_tour().unwrap();
            assert!((t - g.total_time_ns * 1e-9 / g.tours() as f64).abs() < 1e-15);
        }
    }
    assert_eq!(groups[0].id.solver, "network");
    assert!(groups
        .iter()
        .any(|g| g.id.solver == "warnsdorff" && g.id.variant.is_none()));
}

#[test]
fn loader_names_the_missing_column_and_file() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("records.csv");
    std::fs::write(&path, "board,solver,trial\n8x8,network,0\n").unwrap();
    let err = load(&path).unwrap_err().to_string();
    assert!(
        err.contains("'outcome'") && err.contains("records.csv"),
        "{err}"
    );
    let err = bad(&["plot", s(tmp.path()), "--out", s(&tmp.path().join("p"))]);
    assert!(err.contains("'outcome'"), "{err}");

    std::fs::write(&path, "board,solver,outcome\n8y8,network,tour\n").unwrap();
    let err = load(&path).unwrap_err().to_string();
    assert!(err.contains("line 2") && err.contains("board"), "{err}");

    let err = bad(&["plot", s(&tmp.path().join("nowhere"))]);
    assert!(err.contains("records.csv"), "{err}");
}

#[test]
fn plot_draws_every_supported_figure_png_and_svg() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("demo");
    std::fs::create_dir(&results).unwrap();
    write_records(
        &results,
        Fixture {
            iterations: true,
            time: true,
            extra: true,
        },
    );
    let out = tmp.path().join("figs");
    let text = ok(&["plot", s(&results), "--out", s(&out)]);
    assert!(text.contains("3 figures"), "{text}");
    for name in ["outcomes", "iterations", "cost"] {
        assert_png(&out.join(format!("{name}.png")));
    }
    ok(&["plot", s(&results), "--out", s(&out), "--format", "svg"]);
    for name in ["outcomes", "iterations", "cost"] {
        assert_svg(&out.join(format!("{name}.svg")));
    }
    // No stray temporary files.
    for e in std::fs::read_dir(&out).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(!name.starts_with('.'), "left behind {name}");
    }
}

#[test]
fn plot_skips_figures_whose_columns_are_missing() {
    let tmp = tempfile::tempdir().unwrap();
    write_records(
        tmp.path(),
        Fixture {
            iterations: false,
            time: false,
            extra: false,
        },
    );
    let out = tmp.path().join("figs");
    let text = ok(&["plot", s(&tmp.path().join("records.csv")), "--out", s(&out)]);
    assert!(text.contains("1 figure "), "{text}");
    assert!(text.contains("skipped iteration histograms"), "{text}");
    assert!(text.contains("skipped cost per tour"), "{text}");
    assert_png(&out.join("outcomes.png"));
    assert!(!out.join("cost.png").exists());
}

#[test]
fn solve_draws_the_tour() {
    let tmp = tempfile::tempdir().unwrap();
    let (png, svg) = (tmp.path().join("t.png"), tmp.path().join("t.svg"));
    ok(&[
        "solve",
        "--board",
        "6x6",
        "--seed",
        "3",
        "--png",
        s(&png),
        "--svg",
        s(&svg),
    ]);
    assert_png(&png);
    assert_svg(&svg);
    let err = bad(&[
        "solve",
        "--board",
        "6x6",
        "--png",
        s(&tmp.path().join("t.jpg")),
    ]);
    assert!(err.contains("--png") && err.contains(".png"), "{err}");
    let err = bad(&["solve", "--board", "6x6", "--svg", s(&png)]);
    assert!(err.contains("--svg"), "{err}");
}

#[test]
fn animate_writes_a_gif_and_failures_in_colour() {
    let tmp = tempfile::tempdir().unwrap();
    let gif = tmp.path().join("n.gif");
    let fin = tmp.path().join("final.svg");
    let text = ok(&[
        "animate",
        "--board",
        "6x6",
        "--seed",
        "2",
        "--out",
        s(&gif),
        "--final",
        s(&fin),
        "--max-frames",
        "12",
    ]);
    assert!(text.contains("frames"), "{text}");
    assert_gif(&gif);
    assert_svg(&fin);
    let fail = tmp.path().join("fail.png");
    let text = ok(&[
        "animate",
        "--board",
        "6x6",
        "--seed",
        "1",
        "--attempt",
        "multiple-cycles",
        "--out",
        s(&fail),
    ]);
    assert!(text.contains("multiple-cycles"), "{text}");
    assert_png(&fail);
    let err = bad(&[
        "animate",
        "--out",
        s(&tmp.path().join("x.gif")),
        "--attempt",
        "best",
    ]);
    assert!(err.contains("--attempt"), "{err}");
    let err = bad(&["animate", "--out", s(&tmp.path().join("x.mp4"))]);
    assert!(err.contains(".gif"), "{err}");
}

#[test]
fn convergence_draws_png_and_svg() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["c.png", "c.svg"] {
        let p = tmp.path().join(name);
        let text = ok(&[
            "convergence",
            "--board",
            "6x6",
            "--runs",
            "6",
            "--seed",
            "1",
            "--out",
            s(&p),
        ]);
        assert!(text.contains("6 runs"), "{text}");
        if name.ends_with("png") {
            assert_png(&p);
        } else {
            assert_svg(&p);
        }
    }
    let err = bad(&[
        "convergence",
        "--runs",
        "0",
        "--out",
        s(&tmp.path().join("c.png")),
    ]);
    assert!(err.contains("--runs"), "{err}");
    let err = bad(&[
        "convergence",
        "--board",
        "5x5",
        "--out",
        s(&tmp.path().join("c.png")),
    ]);
    assert!(!err.is_empty());
}

#[test]
fn loader_ignores_a_half_written_last_line_and_uses_labels() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("records.csv");
    let text = "spec,cell,label,board,solver,variant,trial,outcome,iterations,time_ns\n\
                s,0,parberry,6x6,network:parberry,parberry,0,tour,40,1000\n\
                s,1,slow,6x6,network:parberry,parberry*,0,multiple-cycles,50,2000\n\
                s,2,warnsdorff,6x6,warnsdorff,,0,tour,0,10\n\
                s,0,parberry,6x6,network:par";
    std::fs::write(&path, text).unwrap();
    let records = load(&path).unwrap();
    assert_eq!(records.rows.len(), 3);
    assert_eq!(
        records.partial_line_bytes,
        "s,0,parberry,6x6,network:par".len()
    );
    let groups = aggregate(&records);
    let names: Vec<String> = groups.iter().map(|g| g.id.name()).collect();
    assert_eq!(
        names,
        ["network:parberry", "network:slow", "warnsdorff"],
        "{groups:?}"
    );
    let text = ok(&["plot", s(&path), "--out", s(&tmp.path().join("f"))]);
    assert!(text.contains("half-written"), "{text}");

    // A complete last row without its newline is kept.
    std::fs::write(&path, "board,solver,outcome\n6x6,warnsdorff,tour").unwrap();
    let records = load(&path).unwrap();
    assert_eq!((records.rows.len(), records.partial_line_bytes), (1, 0));
}

#[test]
fn same_seed_same_image_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let mut bytes = Vec::new();
    for i in 0..2 {
        let (png, svg) = (
            tmp.path().join(format!("t{i}.png")),
            tmp.path().join(format!("t{i}.svg")),
        );
        ok(&[
            "solve",
            "--board",
            "6x6",
            "--seed",
            "9",
            "--png",
            s(&png),
            "--svg",
            s(&svg),
        ]);
        bytes.push((std::fs::read(png).unwrap(), std::fs::read(svg).unwrap()));
    }
    assert!(bytes[0] == bytes[1], "the same seed drew different images");
}

#[test]
fn convergence_and_animation_from_a_saved_trace() {
    let tmp = tempfile::tempdir().unwrap();
    let trace = tmp.path().join("trace.json");
    ok(&[
        "solve",
        "--board",
        "6x6",
        "--seed",
        "3",
        "--trace",
        s(&trace),
    ]);
    let conv = tmp.path().join("conv.svg");
    let text = ok(&["convergence", "--trace", s(&trace), "--out", s(&conv)]);
    assert!(text.contains("tour"), "{text}");
    assert_svg(&conv);
    let gif = tmp.path().join("a.gif");
    ok(&[
        "animate",
        "--trace",
        s(&trace),
        "--out",
        s(&gif),
        "--max-frames",
        "5",
    ]);
    assert_gif(&gif);
    let still = tmp.path().join("a.png");
    ok(&[
        "animate",
        "--trace",
        s(&trace),
        "--frame",
        "0",
        "--out",
        s(&still),
    ]);
    assert_png(&still);

    let broken = tmp.path().join("broken.json");
    std::fs::write(
        &broken,
        r#"{"board": {"rows": 6, "cols": 6}, "neurons": []}"#,
    )
    .unwrap();
    let err = bad(&["animate", "--trace", s(&broken), "--out", s(&gif)]);
    assert!(
        err.contains("broken.json") && err.contains("neurons"),
        "{err}"
    );
    // clap refuses the combination (its usage message spans several lines).
    let out = knightnet(&[
        "convergence",
        "--trace",
        s(&trace),
        "--runs",
        "5",
        "--out",
        s(&conv),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used"));
}

// ---- bad output paths, environment failures, bounds ----

/// A trace of a 6x6 solve in `dir`.
fn trace_in(dir: &Path) -> PathBuf {
    let trace = dir.join("trace.json");
    ok(&[
        "solve",
        "--board",
        "6x6",
        "--seed",
        "3",
        "--trace",
        s(&trace),
    ]);
    trace
}

/// A failed run's stderr and exit code.
fn failure(args: &[&str]) -> (Option<i32>, String) {
    let out = knightnet(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    (out.status.code(), err)
}

#[test]
fn figure_write_errors_are_one_line_with_the_os_reason() {
    // Before: "cannot draw /proc/x.png: BackendError(DrawingError(ImageError(IoError(Os
    // { code: 2, kind: NotFound, message: \"No such file or directory\" }))))", exit 1.
    let tmp = tempfile::tempdir().unwrap();
    let trace = trace_in(tmp.path());
    for out in ["/proc/knightnet-figure.png", "/proc/knightnet-figure.svg"] {
        let (code, err) = failure(&["convergence", "--trace", s(&trace), "--out", out]);
        assert_eq!(
            err.trim_end(),
            format!("error: cannot write {out}: No such file or directory")
        );
        assert_eq!(code, Some(2));
    }
    // A parent "folder" that is a file: the user can mend it, exit 2.
    let file = tmp.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let inside = file.join("x.png");
    for args in [
        vec!["convergence", "--trace", s(&trace), "--out", s(&inside)],
        vec!["animate", "--trace", s(&trace), "--out", s(&inside)],
        vec!["solve", "--board", "6x6", "--png", s(&inside)],
    ] {
        let (code, err) = failure(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("is a file, not a folder"), "{args:?}: {err}");
    }
    // A folder that cannot be written (not for root, who may write anywhere): the
    // environment, exit 1, naming the file.
    #[cfg(unix)]
    if unsafe { libc::geteuid() } != 0 {
        use std::os::unix::fs::PermissionsExt;
        let locked = tmp.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o500)).unwrap();
        let out = locked.join("c.png");
        let (code, err) = failure(&["convergence", "--trace", s(&trace), "--out", s(&out)]);
        assert_eq!(code, Some(1), "{err}");
        assert_eq!(
            err.trim_end(),
            format!("error: cannot write {}: Permission denied", out.display())
        );
    }
}

#[test]
fn bad_paths_and_empty_traces_are_bad_input() {
    // Before: each of these exited 1 (or 0 for animate with an empty trace).
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let records = write_records(
        dir,
        Fixture {
            iterations: true,
            time: true,
            extra: false,
        },
    );
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let err = bad(&["plot", s(&records), "--out", s(&file)]);
    assert!(err.contains("a-file") && err.contains("folder"), "{err}");

    let folder = dir.join("DIR.png");
    std::fs::create_dir(&folder).unwrap();
    let err = bad(&[
        "convergence",
        "--board",
        "6x6",
        "--runs",
        "2",
        "--out",
        s(&folder),
    ]);
    assert!(
        err.contains("DIR.png") && err.contains("is a folder"),
        "{err}"
    );
    let err = bad(&[
        "animate",
        "--board",
        "6x6",
        "--out",
        s(&folder),
        "--frame",
        "0",
    ]);
    assert!(
        err.contains("DIR.png") && err.contains("is a folder"),
        "{err}"
    );

    let trace = trace_in(dir);
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&trace).unwrap()).unwrap();
    v["steps"] = serde_json::json!([]);
    let empty = dir.join("no-steps.json");
    std::fs::write(&empty, v.to_string()).unwrap();
    let conv = dir.join("c.png");
    let gif = dir.join("a.gif");
    for args in [
        vec!["convergence", "--trace", s(&empty), "--out", s(&conv)],
        vec!["animate", "--trace", s(&empty), "--out", s(&gif)],
    ] {
        let err = bad(&args);
        assert!(
            err.contains("no-steps.json") && err.contains("steps"),
            "{err}"
        );
    }

    let garbage = dir.join("garbage.txt");
    std::fs::write(&garbage, "garbage \u{1}\u{2} {[").unwrap();
    let err = bad(&["check", s(&garbage), "--board", "8x8"]);
    assert!(err.contains("garbage.txt"), "{err}");
    std::fs::write(&garbage, [0xff, 0xfe, 0x00]).unwrap();
    let err = bad(&["check", s(&garbage)]);
    assert!(
        err.contains("garbage.txt") && err.contains("UTF-8"),
        "{err}"
    );
}

/// Frames in a GIF: one graphic control extension each.
fn gif_frames(p: &Path) -> usize {
    let bytes = std::fs::read(p).unwrap();
    bytes.windows(3).filter(|w| w == b"\x21\xf9\x04").count()
}

#[test]
fn animate_max_frames_bounds_the_gif() {
    // Before: --max-frames 1 wrote 10 frames (2 states + 8 held copies) and 0 was
    // accepted.
    let tmp = tempfile::tempdir().unwrap();
    let trace = trace_in(tmp.path());
    let gif = tmp.path().join("a.gif");
    for max in [1, 2, 5, 30] {
        let text = ok(&[
            "animate",
            "--trace",
            s(&trace),
            "--out",
            s(&gif),
            "--max-frames",
            &max.to_string(),
        ]);
        let frames = gif_frames(&gif);
        assert!((1..=max).contains(&frames), "--max-frames {max}: {frames}");
        assert!(text.contains(&format!("{frames} frames")), "{text}");
    }
    for max in ["0", "2001"] {
        let err = bad(&[
            "animate",
            "--trace",
            s(&trace),
            "--out",
            s(&gif),
            "--max-frames",
            max,
        ]);
        assert!(
            err.contains("--max-frames") && err.contains("1..=2000"),
            "{err}"
        );
    }
}
