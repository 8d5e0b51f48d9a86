//! Every command's `--format json` keys against docs/json.md: the doc's tables (one per
//! kind of document, a key's path and type per row) are parsed, every command is run on
//! small boards in each of its modes, and the keys printed must be the keys documented:
//! a printed key the doc does not list fails, and so does a documented key that no run
//! prints. The shapes the doc promises (a board as `{rows, cols}`, an estimate as
//! `{value, low, high}`, a square as `[row, col]`) are checked on every value.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::{knightnet, subcommands};
use serde_json::{Map, Value};

/// The heading of the table whose keys every document holds.
const EVERY_DOCUMENT: &str = "All commands";

/// docs/json.md's tables: per kind of document (a `### ` heading: the text in its
/// backticks, like `count --two-factors`, or the whole heading), each key's path and type.
type Documented = BTreeMap<String, BTreeMap<String, String>>;

fn parse_doc(text: &str) -> Documented {
    let mut doc = Documented::new();
    let mut kind: Option<String> = None;
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            let name = heading
                .split('`')
                .nth(1)
                .unwrap_or(heading)
                .trim()
                .to_string();
            doc.entry(name.clone()).or_default();
            kind = Some(name);
        } else if line.starts_with("## ") {
            kind = None;
        } else if let (Some(k), Some(row)) = (&kind, line.strip_prefix("| `")) {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let path = cells[0].trim_end_matches('`');
            let ty = cells.get(1).copied().unwrap_or("");
            let before = doc
                .get_mut(k)
                .unwrap()
                .insert(path.to_string(), ty.to_string());
            assert!(
                before.is_none(),
                "docs/json.md lists `{path}` twice under {k}"
            );
        }
    }
    doc
}

fn documented() -> Documented {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/json.md")).unwrap();
    parse_doc(&text)
}

/// The keys one kind of document may hold: its own table and the common one.
fn keys_of(doc: &Documented, kind: &str) -> BTreeMap<String, String> {
    let mut keys = doc
        .get(kind)
        .unwrap_or_else(|| panic!("docs/json.md has no table for `{kind}`"))
        .clone();
    keys.extend(doc[EVERY_DOCUMENT].clone());
    keys
}

/// What a check of printed documents against the doc found.
#[derive(Default)]
struct Findings {
    /// Documented paths some run printed.
    seen: BTreeSet<String>,
    /// Printed keys the doc does not list, and values not of their documented type.
    errors: Vec<String>,
}

impl Findings {
    fn object(&mut self, obj: &Map<String, Value>, prefix: &str, keys: &BTreeMap<String, String>) {
        for (k, v) in obj {
            let path = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            match keys.get(&path) {
                None => self
                    .errors
                    .push(format!("`{path}` is printed but not documented")),
                Some(ty) => {
                    self.seen.insert(path.clone());
                    self.value(v, ty, &path, keys);
                }
            }
        }
    }

    fn value(&mut self, v: &Value, ty: &str, path: &str, keys: &BTreeMap<String, String>) {
        if v.is_null() {
            return;
        }
        let number_or_null = |x: &Value| x.is_null() || x.is_number();
        let exactly = |x: &Value, names: &[&str]| {
            x.as_object().is_some_and(|m| {
                m.keys().map(String::as_str).collect::<BTreeSet<_>>()
                    == names.iter().copied().collect()
            })
        };
        let ok = match ty {
            "integer" => v.is_u64() || v.is_i64(),
            "number" => v.is_number(),
            "string" => v.is_string(),
            "boolean" => v.is_boolean(),
            "list" => v
                .as_array()
                .is_some_and(|a| a.iter().all(|x| !x.is_object())),
            "square" => v
                .as_array()
                .is_some_and(|a| a.len() == 2 && a.iter().all(Value::is_u64)),
            "board" => {
                exactly(v, &["rows", "cols"])
                    && v["rows"].as_u64().is_some_and(|r| r > 0)
                    && v["cols"].as_u64().is_some_and(|c| c > 0)
            }
            "estimate" => {
                exactly(v, &["value", "low", "high"])
                    && ["value", "low", "high"]
                        .iter()
                        .all(|end| number_or_null(&v[end]))
            }
            "object" => match v.as_object() {
                Some(m) => {
                    self.object(m, path, keys);
                    true
                }
                None => false,
            },
            "objects" => match v.as_array() {
                Some(a) if a.iter().all(Value::is_object) => {
                    let inner = format!("{path}[]");
                    for m in a.iter().filter_map(Value::as_object) {
                        self.object(m, &inner, keys);
                    }
                    true
                }
                _ => false,
            },
            other => {
                self.errors.push(format!(
                    "`{path}` has the unknown type {other:?} in the doc"
                ));
                true
            }
        };
        if !ok {
            self.errors
                .push(format!("`{path}` is documented as {ty} but printed as {v}"));
        }
    }
}

/// The documents of one kind, each as printed by one command line.
fn check_kind(doc: &Documented, kind: &str, printed: &[(String, Value)]) -> Vec<String> {
    let keys = keys_of(doc, kind);
    let mut f = Findings::default();
    for (line, value) in printed {
        let before = f.errors.len();
        match value.as_object() {
            Some(m) => f.object(m, "", &keys),
            None => f.errors.push("not an object".into()),
        }
        for e in &mut f.errors[before..] {
            *e = format!("{line}: {e}");
        }
    }
    for path in keys.keys().filter(|p| !f.seen.contains(*p)) {
        f.errors.push(format!(
            "{kind}: `{path}` is documented but no run printed it"
        ));
    }
    f.errors
}

/// The JSON a command printed (whatever its exit status but 2, bad input: `exists`
/// answers "no" with 1, a solve without a tour exits 1).
fn run(args: &[&str]) -> (String, Value) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = knightnet(&all);
    let line = format!("knightnet {}", all.join(" "));
    assert_ne!(
        out.status.code(),
        Some(2),
        "{line}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{line}: {e}"));
    (line, v)
}

/// Each kind of document, printed by command lines that between them show every key
/// (small boards, few trials).
fn printed(tour_file: &str) -> Vec<(&'static str, Vec<(String, Value)>)> {
    let results = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/results/quickstart"
    );
    let runs = |lines: &[&[&str]]| lines.iter().map(|a| run(a)).collect::<Vec<_>>();
    let dodecahedron = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/graphs/dodecahedron.hcp"
    );
    vec![
        (
            "solve --graph",
            runs(&[
                &["solve", "--board", "6x6", "--surface", "torus"],
                &["solve", "--graph", dodecahedron],
                &[
                    "solve",
                    "--board",
                    "5x5",
                    "--leaper",
                    "2,3",
                    "--surface",
                    "torus",
                    "--solver",
                    "backtrack",
                ],
            ]),
        ),
        (
            "solve",
            runs(&[
                &["solve", "--board", "6x6", "--seed", "1"],
                &[
                    "solve",
                    "--board",
                    "6x6",
                    "--seed",
                    "1",
                    "--variant",
                    "noisy",
                ],
                &[
                    "solve",
                    "--board",
                    "6x6",
                    "--seed",
                    "1",
                    "--variant",
                    "local-restart",
                ],
                &["solve", "--board", "8x8", "--open"],
                &["solve", "--board", "8x8", "--solver", "network+merge"],
                &["solve", "--board", "6x6", "--solver", "warnsdorff"],
                &["solve", "--board", "5x5", "--solver", "backtrack"],
                &[
                    "solve",
                    "--board",
                    "8x8",
                    "--solver",
                    "forward-check:connectivity",
                    "--max-steps",
                    "10",
                ],
                &["solve", "--board", "6x6", "--solver", "circuit"],
                &["solve", "--board", "10x10", "--solver", "divide-conquer"],
            ]),
        ),
        (
            "exists",
            runs(&[
                &["exists", "--board", "5x5", "--start", "b2"],
                &["exists", "--board", "5x5", "--closed"],
            ]),
        ),
        (
            "count",
            runs(&[
                &["count", "--board", "5x5"],
                &["count", "--board", "5x5", "--start", "a1"],
                &["count", "--board", "5x5", "--method", "search"],
                &["count", "--board", "5x6", "--closed", "--method", "split"],
            ]),
        ),
        (
            "count --two-factors",
            runs(&[&["count", "--board", "6x6", "--two-factors"]]),
        ),
        (
            "count --profile-rows",
            runs(&[
                &["count", "--board", "5x6", "--closed", "--profile-rows", "2"],
                &["count", "--board", "3x6", "--profile-rows", "6"],
            ]),
        ),
        ("check", runs(&[&["check", tour_file]])),
        (
            "queens",
            runs(&[
                &["queens", "--size", "6", "--solver", "neural"],
                &["queens", "--size", "6", "--lock", "a1"],
            ]),
        ),
        (
            "queens --count",
            runs(&[&["queens", "--size", "6", "--count"]]),
        ),
        (
            "compare",
            runs(&[&[
                "compare",
                "--board",
                "6x6",
                "--trials",
                "2",
                "--threads",
                "1",
            ]]),
        ),
        (
            "growth",
            runs(&[&[
                "growth",
                "--solvers",
                "warnsdorff:roth,circuit",
                "--sizes",
                "7,8,10",
                "--trials",
                "1",
            ]]),
        ),
        ("stats", runs(&[&["stats", results, "--replay", "0"]])),
    ]
}

#[test]
fn every_command_prints_the_keys_docs_json_md_lists() {
    let doc = documented();
    let dir = tempfile::tempdir().unwrap();
    let tour = dir.path().join("tour.json");
    let (_, solved) = run(&["solve", "--board", "6x6", "--solver", "warnsdorff"]);
    std::fs::write(&tour, serde_json::to_vec(&solved).unwrap()).unwrap();
    let printed = printed(tour.to_str().unwrap());
    let mut errors = Vec::new();
    for (kind, docs) in &printed {
        errors.extend(check_kind(&doc, kind, docs));
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // Every kind the doc describes was run.
    let run_kinds: BTreeSet<&str> = printed.iter().map(|(k, _)| *k).collect();
    let doc_kinds: BTreeSet<&str> = doc
        .keys()
        .map(String::as_str)
        .filter(|k| *k != EVERY_DOCUMENT)
        .collect();
    assert_eq!(run_kinds, doc_kinds);
}

/// The commands whose `--format` takes `json`, as their help lists them.
fn json_commands() -> BTreeSet<String> {
    subcommands()
        .into_iter()
        .filter(|c| {
            let help = String::from_utf8(knightnet(&[c.as_str(), "--help"]).stdout).unwrap();
            let lines: Vec<&str> = help.lines().collect();
            lines.iter().enumerate().any(|(i, l)| {
                l.trim_start().starts_with("--format")
                    && lines[i..(i + 8).min(lines.len())]
                        .iter()
                        .any(|l| l.contains("possible values:") && l.contains("json"))
            })
        })
        .collect()
}

#[test]
fn the_doc_has_a_table_for_every_command_that_prints_json() {
    let doc = documented();
    let described: BTreeSet<String> = doc
        .keys()
        .filter(|k| *k != EVERY_DOCUMENT)
        .map(|k| k.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(json_commands(), described);
}

#[test]
fn the_doc_keeps_its_own_rules() {
    let doc = documented();
    let mut types: BTreeMap<&str, BTreeSet<(&str, &str)>> = BTreeMap::new();
    for (kind, keys) in &doc {
        assert!(!keys.is_empty(), "docs/json.md: `{kind}` lists no key");
        for (path, ty) in keys {
            let name = path.rsplit(['.', ']']).next().unwrap();
            // A board is always {rows, cols}; a duration always seconds.
            if name == "board" {
                assert_eq!(ty, "board", "{kind}: `{path}`");
            }
            for unit in ["_ns", "_us", "_ms", "nanos", "millis", "micros"] {
                assert!(!name.ends_with(unit), "{kind}: `{path}` is not in seconds");
            }
            // The keys of `terminations` are outcome names, not quantities.
            if !path.contains("terminations.") {
                types.entry(name).or_default().insert((ty, kind));
            }
        }
    }
    // One name, one layout: a key holds the same type wherever it appears, but for the
    // names listed here: `count` is a decimal string where it passes 2^53 (`count
    // --profile-rows`) and a number of queens' solutions; `seconds` is one duration, or
    // `growth`'s list of them, one per side.
    let differing = ["count", "seconds"];
    for name in differing {
        let tys: BTreeSet<&str> = types[name].iter().map(|(ty, _)| *ty).collect();
        assert!(tys.len() > 1, "`{name}` no longer needs its exception");
    }
    let mixed: Vec<String> = types
        .iter()
        .filter(|(name, uses)| {
            let tys: BTreeSet<&str> = uses.iter().map(|(ty, _)| *ty).collect();
            tys.len() > 1 && !differing.contains(name)
        })
        .map(|(name, uses)| format!("`{name}` has several types in docs/json.md: {uses:?}"))
        .collect();
    assert!(mixed.is_empty(), "{}", mixed.join("\n"));
}

#[test]
fn a_key_missing_from_the_doc_or_from_the_output_fails() {
    let doc = parse_doc(
        "### All commands\n| `command` | string | x |\n### `t`\n| key | type | meaning |\n|---|---|---|\n\
         | `board` | board | b |\n| `rows` | objects | r |\n| `rows[].r99` | estimate | e |\n| `gone` | integer | g |\n",
    );
    let printed = vec![(
        "line".to_string(),
        serde_json::json!({
            "command": "t",
            "board": {"rows": 6, "cols": 6},
            "rows": [{"r99": {"value": 1.0, "low": 1.0, "high": null}, "extra": 3}],
        }),
    )];
    let errors = check_kind(&doc, "t", &printed);
    assert_eq!(
        errors,
        [
            "line: `rows[].extra` is printed but not documented",
            "t: `gone` is documented but no run printed it",
        ]
    );
    // The shapes: a board as a string, an estimate with another key.
    let bad = vec![(
        "line".to_string(),
        serde_json::json!({
            "command": "t",
            "board": "6x6",
            "rows": [{"r99": {"runs": 1.0, "low": 1.0, "high": null}}],
            "gone": 1,
        }),
    )];
    let errors = check_kind(&doc, "t", &bad);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("`board` is documented as board"));
    assert!(errors[1].contains("`rows[].r99` is documented as estimate"));
}
