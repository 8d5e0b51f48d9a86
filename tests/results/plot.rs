//! Every figure kind rendered from tiny runs into a temporary folder, and the files
//! checked to decode (PNG/GIF signature and size, SVG text); the `records.csv` loader
//! against a fixture written here (so these tests do not depend on the experiment
//! runner), including missing and extra columns.

use crate::common;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::common::knightnet;

use knightnet::plot::data::{Share, SolverFamily, aggregate, load};

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

/// A PDF with the bundled font embedded (its text is not left to a viewer's fonts).
fn assert_pdf(p: &Path) {
    let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    assert!(bytes.starts_with(b"%PDF-"), "{} is not a PDF", p.display());
    assert!(bytes.len() > 5_000, "{} is tiny", p.display());
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    assert!(
        has(b"DejaVuSans"),
        "{} does not embed DejaVu Sans",
        p.display()
    );
    assert!(has(b"%%EOF"), "{} is truncated", p.display());
}

/// A CSV with a header and at least one row, every row as wide as the header.
fn assert_csv(p: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let rows: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert!(rows.len() >= 2, "{} has no data rows", p.display());
    for r in &rows {
        assert_eq!(r.len(), rows[0].len(), "{}: ragged row {r:?}", p.display());
        for field in r.iter().filter(|f| is_decimal(f)) {
            let digits = field
                .chars()
                .filter(char::is_ascii_digit)
                .skip_while(|&c| c == '0')
                .count();
            assert!(
                digits <= 6,
                "{}: {field} has {digits} significant digits (at most 6)",
                p.display()
            );
        }
    }
    rows
}

/// A field written as a decimal fraction: digits with one point (a board like 6x6, a
/// label or an integer count is not).
fn is_decimal(field: &str) -> bool {
    let f = field.strip_prefix('-').unwrap_or(field);
    f.contains('.') && f.chars().all(|c| c.is_ascii_digit() || c == '.') && f.parse::<f64>().is_ok()
}

/// Column `name` of a CSV read by [`assert_csv`].
fn column<'a>(rows: &'a [Vec<String>], name: &str) -> Vec<&'a str> {
    let i = rows[0]
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {:?}", rows[0]));
    rows[1..].iter().map(|r| r[i].as_str()).collect()
}

/// The text labels of an SVG drawn by plotters, in document order.
fn svg_texts(p: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(p).unwrap();
    text.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..t.find("</text>")?];
            Some(body.trim().to_string())
        })
        .collect()
}

/// The figures `plot` draws from a records file alone (the phase diagram and the failure
/// anatomy also need the results folder's run.json).
const FIGURES: [&str; 5] = ["outcomes", "tour-rate", "iterations", "cost", "run-length"];

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
                    if r % 10 == 0 { "stuck" } else { "tour" }
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
    assert_eq!(groups[0].id.solver, SolverFamily::Network);
    assert!(
        groups
            .iter()
            .any(|g| g.id.solver == SolverFamily::Other("warnsdorff".into())
                && g.id.variant.is_none())
    );
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
    assert!(text.contains("5 figures"), "{text}");
    assert!(text.contains("skipped phase diagram"), "{text}");
    assert!(
        text.contains(
            "skipped anatomy of several-cycle failures: needs the results folder's run.json"
        ),
        "{text}"
    );
    for name in FIGURES {
        assert_png(&out.join(format!("{name}.png")));
        assert_csv(&out.join(format!("{name}.csv")));
    }
    ok(&["plot", s(&results), "--out", s(&out), "--format", "svg"]);
    for name in FIGURES {
        assert_svg(&out.join(format!("{name}.svg")));
    }
    if cfg!(feature = "pdf") {
        ok(&["plot", s(&results), "--out", s(&out), "--format", "pdf"]);
        for name in FIGURES {
            assert_pdf(&out.join(format!("{name}.pdf")));
        }
    } else {
        // Without the feature: refused before any figure is drawn, saying how to get it.
        let pdf_out = tmp.path().join("pdf");
        let err = bad(&["plot", s(&results), "--out", s(&pdf_out), "--format", "pdf"]);
        assert!(
            err.contains("--format pdf") && err.contains("--features pdf"),
            "{err}"
        );
        assert!(!pdf_out.exists(), "a refused plot made its folder");
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
    assert!(text.contains("2 figures "), "{text}");
    assert!(text.contains("skipped iteration histograms"), "{text}");
    assert!(text.contains("skipped run-length"), "{text}");
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
        r#"{"board": {"rows": 6, "cols": 6}, "neurons": [], "outputs": [""], "steps": []}"#,
    )
    .unwrap();
    let err = bad(&["animate", "--trace", s(&broken), "--out", s(&gif)]);
    assert!(
        err.contains("broken.json") && err.contains("neurons"),
        "{err}"
    );
    // A key missing altogether is named too.
    std::fs::write(
        &broken,
        r#"{"board": {"rows": 6, "cols": 6}, "neurons": []}"#,
    )
    .unwrap();
    let err = bad(&["animate", "--trace", s(&broken), "--out", s(&gif)]);
    assert!(
        err.contains("broken.json") && err.contains("outputs"),
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

/// Write `text` as `dir/records.csv` and return the folder.
fn records_folder(dir: &Path, name: &str, text: &str) -> PathBuf {
    let d = dir.join(name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("records.csv"), text).unwrap();
    d
}

#[test]
fn plot_without_out_writes_under_out_plots_not_the_gallery() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("demo");
    std::fs::create_dir(&results).unwrap();
    write_records(
        &results,
        Fixture {
            iterations: false,
            time: false,
            extra: false,
        },
    );
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .args(["plot", s(&results)])
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_png(&work.join("out/plots/demo/outcomes.png"));
    assert!(!work.join("plots").exists(), "wrote into plots/");
    let help = ok(&["plot", "--help"]);
    assert!(help.contains("out/plots/NAME"), "{help}");
}

#[test]
fn two_boards_both_labelled_and_small_times_have_ticks() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("demo");
    std::fs::create_dir(&results).unwrap();
    write_records(
        &results,
        Fixture {
            iterations: true,
            time: true,
            extra: false,
        },
    );
    let out = tmp.path().join("figs");
    ok(&["plot", s(&results), "--out", s(&out), "--format", "svg"]);
    // Outcomes: one panel per configuration (two), each labelling both boards.
    let texts = svg_texts(&out.join("outcomes.svg"));
    for board in ["6x6", "8x8"] {
        let n = texts.iter().filter(|t| *t == board).count();
        assert_eq!(n, 2, "{board} labelled {n} times in {texts:?}");
    }
    assert!(!texts.iter().any(|t| t.starts_with("preset ")), "{texts:?}");
    // Cost: both boards, and tick labels below 100 µs (the classical solver's time per
    // tour is tens of µs in the fixture).
    let texts = svg_texts(&out.join("cost.svg"));
    assert!(texts.iter().any(|t| t == "6x6") && texts.iter().any(|t| t == "8x8"));
    let small_ticks = texts
        .iter()
        .filter_map(|t| t.strip_suffix(" µs"))
        .filter_map(|v| v.parse::<f64>().ok())
        .filter(|v| *v < 100.0)
        .count();
    assert!(small_ticks >= 1, "no tick below 100 µs in {texts:?}");
    // Both network and classical: the title says so.
    assert!(texts.iter().any(|t| t.contains("against classical")));
}

#[test]
fn cost_has_a_bootstrap_interval_around_every_point_and_honest_titles() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("demo");
    std::fs::create_dir(&results).unwrap();
    write_records(
        &results,
        Fixture {
            iterations: false,
            time: true,
            extra: false,
        },
    );
    let out = tmp.path().join("figs");
    ok(&["plot", s(&results), "--out", s(&out)]);
    let rows = assert_csv(&out.join("cost.csv"));
    let (t, lo, hi) = (
        column(&rows, "time_per_tour_s"),
        column(&rows, "bootstrap_low_s"),
        column(&rows, "bootstrap_high_s"),
    );
    for i in 0..t.len() {
        let v: f64 = t[i].parse().unwrap();
        let l: f64 = lo[i].parse().unwrap();
        assert!(l > 0.0 && l <= v, "row {i}: low {l} > {v}");
        if let Ok(h) = hi[i].parse::<f64>() {
            assert!(h >= v, "row {i}: high {h} < {v}");
        }
    }
    // Same records, same interval (fixed bootstrap seed).
    let first = std::fs::read(out.join("cost.csv")).unwrap();
    ok(&["plot", s(&results), "--out", s(&out)]);
    assert_eq!(first, std::fs::read(out.join("cost.csv")).unwrap());

    // Network only: no "against classical solvers".
    let only = records_folder(
        tmp.path(),
        "net",
        "board,solver,variant,outcome,time_ns\n\
         6x6,network:parberry,parberry,tour,1000\n\
         6x6,network:parberry,parberry,multiple-cycles,3000\n",
    );
    ok(&["plot", s(&only), "--out", s(&out), "--format", "svg"]);
    let texts = svg_texts(&out.join("cost.svg"));
    assert!(!texts.iter().any(|t| t.contains("classical")), "{texts:?}");
}

#[test]
fn tour_rate_draws_published_points_from_a_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("demo");
    std::fs::create_dir(&results).unwrap();
    write_records(
        &results,
        Fixture {
            iterations: false,
            time: false,
            extra: false,
        },
    );
    let published = tmp.path().join("parberry-1996.csv");
    std::fs::write(
        &published,
        "n,trials,success,failure,diverge\n6,20000,6103,13561,336\n10,20000,2676,16827,497\n",
    )
    .unwrap();
    let out = tmp.path().join("figs");
    ok(&[
        "plot",
        s(&results),
        "--out",
        s(&out),
        "--published",
        s(&published),
    ]);
    let rows = assert_csv(&out.join("tour-rate.csv"));
    let series = column(&rows, "series");
    let boards = column(&rows, "board");
    let p = column(&rows, "p_tour");
    let i = (0..series.len())
        .find(|&i| series[i] == "parberry-1996 (published)" && boards[i] == "10x10")
        .unwrap_or_else(|| panic!("no published 10x10 row in {rows:?}"));
    assert!((p[i].parse::<f64>().unwrap() - 2676.0 / 20000.0).abs() < 1e-12);
    // The published boards join the axis (10x10 was not measured).
    ok(&[
        "plot",
        s(&results),
        "--out",
        s(&out),
        "--published",
        s(&published),
        "--format",
        "svg",
    ]);
    assert!(
        svg_texts(&out.join("tour-rate.svg"))
            .iter()
            .any(|t| t == "10x10")
    );

    // Bad files: one line naming the flag and what is expected.
    std::fs::write(&published, "n,trials\n6,100\n").unwrap();
    let err = bad(&["plot", s(&results), "--published", s(&published)]);
    assert!(
        err.contains("--published") && err.contains("success"),
        "{err}"
    );
    std::fs::write(&published, "n,trials,success\n6,100,101\n").unwrap();
    let err = bad(&["plot", s(&results), "--published", s(&published)]);
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn panels_in_spec_order_named_by_entry_and_always_tour_merge_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let mut csv = String::from("label,board,solver,variant,outcome,iterations\n");
    // Spec order: numpy, then a labelled parberry entry, then brant (not alphabetical).
    for (label, solver, variant) in [
        ("numpy", "network:numpy", "numpy"),
        ("parberry-square-sweep", "network:parberry*", "parberry*"),
        ("brant", "network:brant", "brant"),
        ("merge-parberry", "network+merge:parberry", "parberry"),
    ] {
        for (i, outcome) in ["tour", "multiple-cycles", "tour"].iter().enumerate() {
            let outcome = if label == "merge-parberry" {
                "tour"
            } else {
                outcome
            };
            csv += &format!("{label},6x6,{solver},{variant},{outcome},{}\n", 10 + i);
        }
    }
    let results = records_folder(tmp.path(), "order", &csv);
    let out = tmp.path().join("figs");
    let text = ok(&["plot", s(&results), "--out", s(&out)]);
    let rows = assert_csv(&out.join("outcomes.csv"));
    assert_eq!(
        column(&rows, "configuration"),
        ["numpy", "parberry-square-sweep", "brant"],
        "{text}"
    );
    let rows = assert_csv(&out.join("tour-rate.csv"));
    assert_eq!(
        column(&rows, "series"),
        ["numpy", "parberry-square-sweep", "brant"]
    );

    // Only network+merge that always found a tour: no outcome figure, and it says why.
    let merge = records_folder(
        tmp.path(),
        "merge",
        "board,solver,variant,outcome\n6x6,network+merge:parberry,parberry,tour\n\
         8x8,network+merge:parberry,parberry,tour\n",
    );
    let text = ok(&["plot", s(&merge), "--out", s(&out.join("m"))]);
    assert!(
        text.contains("skipped outcome shares") && text.contains("always found a tour"),
        "{text}"
    );
}

#[test]
fn iteration_axis_of_a_capped_preset_has_distinct_whole_ticks() {
    let tmp = tempfile::tempdir().unwrap();
    let mut csv = String::from("board,solver,variant,outcome,iterations\n");
    for _ in 0..20 {
        csv += "8x8,network:wikipedia,wikipedia,iteration-cap,1000\n";
    }
    let results = records_folder(tmp.path(), "capped", &csv);
    let out = tmp.path().join("figs");
    ok(&["plot", s(&results), "--out", s(&out), "--format", "svg"]);
    let texts = svg_texts(&out.join("iterations.svg"));
    assert!(!texts.iter().any(|t| t == "999"), "{texts:?}");
    // The cap, 1000, is one tick, in the figures' one number form.
    assert_eq!(texts.iter().filter(|t| *t == "1k").count(), 1, "{texts:?}");
}

#[test]
fn same_records_same_figure_bytes_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("demo");
    std::fs::create_dir(&results).unwrap();
    write_records(
        &results,
        Fixture {
            iterations: true,
            time: true,
            extra: false,
        },
    );
    let pdf = cfg!(feature = "pdf").then_some("pdf");
    for format in ["png", "svg"].into_iter().chain(pdf) {
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        ok(&["plot", s(&results), "--out", s(&a), "--format", format]);
        ok(&["plot", s(&results), "--out", s(&b), "--format", format]);
        for name in FIGURES {
            for ext in [format, "csv"] {
                let f = format!("{name}.{ext}");
                assert!(
                    std::fs::read(a.join(&f)).unwrap() == std::fs::read(b.join(&f)).unwrap(),
                    "{f} differs between two runs"
                );
            }
        }
    }
}

#[test]
fn convergence_overlays_presets_and_writes_its_data() {
    let tmp = tempfile::tempdir().unwrap();
    // PDF where the build writes it (the `pdf` feature), SVG otherwise.
    let p = tmp.path().join(if cfg!(feature = "pdf") {
        "c.pdf"
    } else {
        "c.svg"
    });
    let text = ok(&[
        "convergence",
        "--board",
        "6x6",
        "--runs",
        "4",
        "--seed",
        "1",
        "--overlay",
        "numpy",
        "--out",
        s(&p),
    ]);
    assert!(text.contains("numpy"), "{text}");
    if cfg!(feature = "pdf") {
        assert_pdf(&p);
    } else {
        assert_svg(&p);
        let err = bad(&[
            "convergence",
            "--board",
            "6x6",
            "--out",
            s(&tmp.path().join("d.pdf")),
        ]);
        assert!(
            err.contains("asks for PDF") && err.contains("accepted: .png, .svg"),
            "{err}"
        );
    }
    let rows = assert_csv(&tmp.path().join("c.csv"));
    let configs = column(&rows, "configuration");
    assert!(
        configs.contains(&"parberry") && configs.contains(&"numpy"),
        "{configs:?}"
    );
    // Mean inside its percentile band on every row.
    for name in ["active", "off_two", "changed"] {
        let (m, lo, hi) = (
            column(&rows, &format!("{name}_mean")),
            column(&rows, &format!("{name}_p10")),
            column(&rows, &format!("{name}_p90")),
        );
        for i in 0..m.len() {
            let f = |v: &str| v.parse::<f64>().unwrap();
            assert!(f(lo[i]) <= f(m[i]) + 1e-9 && f(m[i]) <= f(hi[i]) + 1e-9);
        }
    }
    let err = bad(&[
        "convergence",
        "--overlay",
        "nosuch",
        "--out",
        s(&tmp.path().join("d.png")),
    ]);
    assert!(err.contains("--overlay") && err.contains("nosuch"), "{err}");
    assert!(!tmp.path().join("d.png").exists());
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
    // A figure that cannot be written says so in words, not as the drawing library's
    // nested debug value ("BackendError(DrawingError(ImageError(IoError(Os {...})))").
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
    // SAFETY: geteuid has no preconditions.
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
    // Each of these is the input's fault: exit 2 (animate with an empty trace too).
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
    // --max-frames caps every frame, held copies included (1 must not write 2 states
    // + 8 held copies), and 0 is refused.
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

/// Run a small spec with closed and open network cells into `dir/run` and return it.
fn experiment_folder(dir: &Path) -> PathBuf {
    let spec = dir.join("anatomy.toml");
    std::fs::write(
        &spec,
        "name = \"anatomy\"\nseed = 11\ntrials = 60\nboards = [\"6x6\", \"8x8\"]\n\n\
         [[solver]]\nsolver = \"network:parberry\"\n\n\
         [[solver]]\nsolver = \"network:parberry\"\nlabel = \"open\"\nopen = true\n",
    )
    .unwrap();
    let run = dir.join("run");
    ok(&["experiment", s(&spec), "--out", s(&run), "--quiet"]);
    run
}

#[test]
fn failure_anatomy_replays_the_folder_and_writes_what_it_draws() {
    let tmp = tempfile::tempdir().unwrap();
    let run = experiment_folder(tmp.path());
    let out = tmp.path().join("figs");
    let text = ok(&["plot", s(&run), "--out", s(&out)]);
    assert!(text.contains("anatomy of several-cycle failures"), "{text}");
    assert_png(&out.join("failures.png"));
    let rows = assert_csv(&out.join("failures.csv"));
    // Several-cycle trials per board, counted from the records.
    let records = std::fs::read_to_string(run.join("records.csv")).unwrap();
    for board in ["6x6", "8x8"] {
        let several = records
            .lines()
            .filter(|l| l.contains(&format!(",{board},")) && l.contains(",multiple-cycles,"))
            .count();
        let of = |q: &str| -> Vec<&Vec<String>> {
            rows.iter().filter(|r| r[0] == board && r[1] == q).collect()
        };
        let lengths = of("cycle_length");
        assert!(!lengths.is_empty(), "{board}: no cycle lengths");
        let squares: usize = board
            .split('x')
            .map(|n| n.parse::<usize>().unwrap())
            .product();
        let replayed: usize = lengths[0][8].parse().unwrap();
        assert_eq!(lengths[0][7], several.to_string());
        assert_eq!(replayed, several.min(lengths[0][9].parse().unwrap()));
        // Every replayed trial's cycles cover the board: the squares counted over all
        // lengths are the replayed trials' squares.
        let covered: usize = lengths
            .iter()
            .map(|r| r[2].parse::<usize>().unwrap() * r[4].parse::<usize>().unwrap())
            .sum();
        assert_eq!(covered, replayed * squares, "{board}");
        assert_eq!(lengths.last().unwrap()[6], "1");
        let counted: usize = of("cycles")
            .iter()
            .map(|r| r[4].parse::<usize>().unwrap())
            .sum();
        assert_eq!(counted, several);
    }
    // The same folder gives the same bytes.
    let again = tmp.path().join("again");
    ok(&["plot", s(&run), "--out", s(&again)]);
    for f in ["failures.png", "failures.csv"] {
        assert!(std::fs::read(out.join(f)).unwrap() == std::fs::read(again.join(f)).unwrap());
    }
}

/// A row its replay contradicts is bad input (exit 2 since issue #26: the records
/// contradict their run; it was 1), and nothing is reported on stdout.
#[test]
fn a_record_its_replay_contradicts_stops_the_failure_anatomy() {
    let tmp = tempfile::tempdir().unwrap();
    let run = experiment_folder(tmp.path());
    let path = run.join("records.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    // Add one to the iterations of the first several-cycle row.
    let mut edited = String::new();
    let mut done = false;
    for line in text.lines() {
        let mut fields: Vec<String> = line.split(',').map(str::to_string).collect();
        if !done && fields.get(9).map(String::as_str) == Some("multiple-cycles") {
            let it: u64 = fields[10].parse().unwrap();
            fields[10] = (it + 1).to_string();
            done = true;
        }
        edited += &fields.join(",");
        edited.push('\n');
    }
    assert!(done);
    std::fs::write(&path, edited).unwrap();
    let out = knightnet(&["plot", s(&run), "--out", s(&tmp.path().join("figs"))]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("does not match the record") && err.contains("trial"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn hf_ratio_draws_the_settled_tour_share_beside_h_over_f() {
    let tmp = tempfile::tempdir().unwrap();
    let mut csv = String::from("label,board,solver,variant,outcome\n");
    // parberry on 6x6: 3 tours, 5 with several cycles, 2 at the cap (left out); on 5x5
    // (no counts row) and wikipedia (never settles) no figure row.
    for (board, solver, outcome, n) in [
        ("6x6", "parberry", "tour", 3),
        ("6x6", "parberry", "multiple-cycles", 5),
        ("6x6", "parberry", "iteration-cap", 2),
        ("6x6", "wikipedia", "iteration-cap", 4),
        ("8x8", "parberry", "tour", 1),
    ] {
        for _ in 0..n {
            writeln!(csv, "{solver},{board},network:{solver},{solver},{outcome}").unwrap();
        }
    }
    let records = tmp.path().join("records.csv");
    std::fs::write(&records, csv).unwrap();
    let counts = tmp.path().join("counts.csv");
    std::fs::write(
        &counts,
        "# H and F\nboard,closed_tours,two_factors,closed_tours_source,command\n\
         6x6,9862,36236,knightnet,knightnet count --board 6x6 --two-factors\n",
    )
    .unwrap();
    let out = tmp.path().join("figs");
    let said = ok(&["plot", s(&records), "--out", s(&out), "--hf", s(&counts)]);
    assert!(said.contains("hf-ratio.png"), "{said}");
    assert_png(&out.join("hf-ratio.png"));
    let rows = assert_csv(&out.join("hf-ratio.csv"));
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(column(&rows, "series"), ["parberry"]);
    assert_eq!(column(&rows, "board"), ["6x6"]);
    assert_eq!(column(&rows, "settled"), ["8"]);
    assert_eq!(column(&rows, "tours"), ["3"]);
    // 9862 / 36236 = 0.2721602826..., written to six significant digits.
    assert_eq!(column(&rows, "h_over_f"), ["0.27216"]);
    // Without --hf there is no such figure; with counts for no settled board, a note.
    std::fs::write(
        &counts,
        "board,closed_tours,two_factors,closed_tours_source,command\n5x6,8,325,knightnet,c\n",
    )
    .unwrap();
    let said = ok(&["plot", s(&records), "--out", s(&out), "--hf", s(&counts)]);
    assert!(
        said.contains("skipped tours among settled attempts"),
        "{said}"
    );

    // Bad files: one line naming the flag, the line and what is expected.
    std::fs::write(&counts, "board,closed_tours\n6x6,1\n").unwrap();
    let err = bad(&["plot", s(&records), "--hf", s(&counts)]);
    assert!(err.contains("--hf") && err.contains("two_factors"), "{err}");
    std::fs::write(
        &counts,
        "board,closed_tours,two_factors,closed_tours_source,command\n6x6,10,9,knightnet,c\n",
    )
    .unwrap();
    let err = bad(&["plot", s(&records), "--hf", s(&counts)]);
    assert!(err.contains("line 2") && err.contains("exceeds"), "{err}");
    let err = bad(&["plot", s(&records), "--hf", s(&tmp.path().join("none.csv"))]);
    assert!(err.contains("cannot read"), "{err}");
}

/// Cells beyond the knight keep apart from the knight's plane cells of the same label and
/// board in every figure, and a graph sits on the board axis under its own name (not the
/// `1xV` its records give it), after the boards.
#[test]
fn plot_keeps_geometries_apart_and_names_graphs_on_the_board_axis() {
    let tmp = tempfile::tempdir().unwrap();
    let petersen = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/graphs/petersen.dimacs");
    let spec = tmp.path().join("beyond.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"beyond\"\nseed = 3\ntrials = 60\nboards = [\"6x6\"]\n\
             [[solver]]\nsolver = \"network:parberry\"\n\
             [[solver]]\nsolver = \"network:parberry\"\nsurface = \"torus\"\n\
             [[solver]]\nsolver = \"network:parberry\"\ngraph = {:?}\n",
            petersen.to_str().unwrap()
        ),
    )
    .unwrap();
    let results = tmp.path().join("results");
    ok(&["experiment", s(&spec), "--out", s(&results), "--quiet"]);
    let records = load(&results.join("records.csv")).unwrap();
    let groups = aggregate(&records);
    let places: Vec<(String, String)> = groups
        .iter()
        .map(|g| (g.id.display(), g.place.to_string()))
        .collect();
    assert_eq!(places.len(), 3, "{places:?}");
    assert!(
        places.contains(&("parberry".into(), "6x6".into())),
        "{places:?}"
    );
    assert!(
        places.contains(&("parberry on torus".into(), "6x6".into())),
        "{places:?}"
    );
    assert!(
        places.contains(&("parberry on graph files".into(), "petersen".into())),
        "{places:?}"
    );

    let out = tmp.path().join("figs");
    ok(&["plot", s(&results), "--out", s(&out)]);
    let rate = assert_csv(&out.join("tour-rate.csv"));
    let boards = column(&rate, "board");
    assert!(boards.contains(&"petersen"), "{boards:?}");
    assert!(!boards.iter().any(|b| b.starts_with("1x")), "{boards:?}");
    // The graph comes after the board, whatever its number of vertices (10 < 36).
    let at = |b: &str| boards.iter().position(|x| *x == b).unwrap();
    assert!(at("6x6") < at("petersen"), "{boards:?}");
    let series = column(&rate, "series");
    assert!(
        series.contains(&"parberry on torus") && series.contains(&"parberry"),
        "{series:?}"
    );
    // The failure anatomy pools presets per board, never the torus with the plane.
    let failures = assert_csv(&out.join("failures.csv"));
    let places = column(&failures, "board");
    assert!(
        places
            .iter()
            .all(|p| ["6x6", "6x6 torus", "graph petersen"].contains(p)),
        "{places:?}"
    );
    assert!(
        places.contains(&"6x6") && places.contains(&"6x6 torus"),
        "{places:?}"
    );
}
