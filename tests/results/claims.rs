//! The claims of `experiments/claims.toml`, recomputed from the committed results
//! (`experiments/results/*/summary.json`), the published figures
//! (`experiments/published/*.csv`) and the counts H/F (`experiments/hf-counts.csv`, read
//! by [`knightnet::plot::hf::load`]) with the tests of [`knightnet::stats`]. Fails when
//! the words and the data disagree; `-- --nocapture` prints every comparison.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use knightnet::stats::{Z95, holm, newcombe, score_test, two_proportion, wilson};
use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Claims {
    alpha: f64,
    claim: Vec<Claim>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    id: String,
    source: String,
    statement: String,
    test: String,
    comparison: Vec<Comparison>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Comparison {
    a: Side,
    b: Option<Side>,
    expect: Option<String>,
    ratio: Option<[f64; 2]>,
    expect_count: Option<u64>,
    expect_trials: Option<u64>,
    above: Option<f64>,
    value: Option<Fixed>,
}

/// A fixed proportion to test against: H/F of a board, from a counts file under
/// `experiments/` (`counts` without `.csv`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Fixed {
    counts: String,
    board: String,
    /// What differs from the knight on the plane (`cylinder`), as the counts file's
    /// `geometry` column names it; absent for the knight's plane board.
    geometry: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Side {
    results: Option<String>,
    label: Option<String>,
    board: Option<String>,
    outcomes: Option<Vec<String>>,
    /// The denominator's outcomes (default: every trial), e.g. the settled attempts.
    among: Option<Vec<String>>,
    published: Option<String>,
    key: Option<String>,
    count: Option<String>,
    trials: Option<String>,
}

/// Where the committed data live.
struct Data {
    root: PathBuf,
    summaries: HashMap<String, Value>,
}

impl Data {
    fn new(root: &Path) -> Data {
        Data {
            root: root.to_path_buf(),
            summaries: HashMap::new(),
        }
    }

    fn summary(&mut self, folder: &str) -> &Value {
        let path = self.root.join("results").join(folder).join("summary.json");
        self.summaries.entry(folder.to_string()).or_insert_with(|| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
    }

    /// The matching cells of a results side.
    fn cells(&mut self, side: &Side) -> Vec<Value> {
        let folder = side.results.as_deref().expect("results");
        let label = side.label.as_deref().expect("label");
        let cells: Vec<Value> = self.summary(folder)["cells"]
            .as_array()
            .expect("cells")
            .iter()
            .filter(|c| {
                c["label"] == label && side.board.as_deref().is_none_or(|b| c["board"] == b)
            })
            .cloned()
            .collect();
        assert!(
            !cells.is_empty(),
            "no cell {folder}/{label}/{:?}",
            side.board
        );
        cells
    }

    /// (count, trials) of a side.
    fn proportion(&mut self, side: &Side) -> (u64, u64) {
        if let Some(file) = &side.published {
            let path = self.root.join("published").join(format!("{file}.csv"));
            let mut rd =
                csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let headers = rd.headers().unwrap().clone();
            let col = |name: &str| {
                headers
                    .iter()
                    .position(|h| h == name)
                    .unwrap_or_else(|| panic!("{}: no column {name}", path.display()))
            };
            let (kc, tc) = (
                col(side.count.as_deref().expect("count")),
                col(side.trials.as_deref().expect("trials")),
            );
            let key = side.key.as_deref().expect("key");
            for row in rd.records() {
                let row = row.unwrap();
                if &row[0] == key {
                    return (row[kc].parse().unwrap(), row[tc].parse().unwrap());
                }
            }
            panic!("{}: no row {key}", path.display());
        }
        let outcomes = side.outcomes.clone().expect("outcomes");
        let (mut k, mut n) = (0, 0);
        for cell in self.cells(side) {
            if side.among.is_none() {
                n += cell["trials"].as_u64().unwrap();
            }
            for o in cell["outcomes"].as_array().unwrap() {
                let count = o["count"].as_u64().unwrap();
                if outcomes.iter().any(|w| o["outcome"] == w.as_str()) {
                    k += count;
                }
                if let Some(among) = &side.among
                    && among.iter().any(|w| o["outcome"] == w.as_str())
                {
                    n += count;
                }
            }
        }
        (k, n)
    }

    /// H/F of a board, from a counts file.
    fn fixed(&self, v: &Fixed) -> f64 {
        let path = self.root.join(format!("{}.csv", v.counts));
        let counts = knightnet::plot::hf::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let board = v.board.parse().unwrap();
        counts
            .get(board, v.geometry.as_deref())
            .unwrap_or_else(|| panic!("{}: no row {}", path.display(), v.board))
            .ratio()
    }

    fn describe(side: &Side) -> String {
        match &side.published {
            Some(f) => format!(
                "published/{f}[{}].{}",
                side.key.as_deref().unwrap_or("?"),
                side.count.as_deref().unwrap_or("?")
            ),
            None => format!(
                "{}/{}/{}:{}",
                side.results.as_deref().unwrap_or("?"),
                side.label.as_deref().unwrap_or("?"),
                side.board.as_deref().unwrap_or("all boards"),
                side.outcomes.clone().unwrap_or_default().join("+")
                    + &side
                        .among
                        .as_ref()
                        .map(|a| format!(" among {}", a.join("+")))
                        .unwrap_or_default()
            ),
        }
    }
}

/// Check every claim of `claims_path` against the data under `root`; returns one line
/// per failed check (empty: all claims hold). Prints every comparison.
fn check_claims(claims_path: &Path, root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(claims_path).unwrap();
    let claims: Claims =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", claims_path.display()));
    assert!(claims.alpha > 0.0 && claims.alpha < 1.0);
    let mut data = Data::new(root);
    let mut failures = Vec::new();
    for claim in &claims.claim {
        assert!(!claim.statement.is_empty() && !claim.source.is_empty());
        println!("claim {}: {}", claim.id, claim.statement);
        match claim.test.as_str() {
            "two-proportion" => {
                let mut rows = Vec::new();
                for c in &claim.comparison {
                    let b = c.b.as_ref().expect("two-proportion needs b");
                    let (k1, n1) = data.proportion(&c.a);
                    let (k2, n2) = data.proportion(b);
                    rows.push((c, b, k1, n1, k2, n2, two_proportion(k1, n1, k2, n2)));
                }
                let adjusted = holm(&rows.iter().map(|r| r.6.p).collect::<Vec<_>>());
                for ((c, b, k1, n1, k2, n2, t), p_holm) in rows.into_iter().zip(adjusted) {
                    let rejected = p_holm <= claims.alpha;
                    let verdict = match (rejected, t.difference > 0.0) {
                        (false, _) => "same",
                        (true, true) => "a-higher",
                        (true, false) => "a-lower",
                    };
                    let (lo, hi) = newcombe(k1, n1, k2, n2, Z95);
                    println!(
                        "  {} {k1}/{n1} vs {} {k2}/{n2}: difference {:+.2} points [{:+.2}, {:+.2}], z = {:.2}, p = {:.3e}, Holm p = {:.3e}: {verdict}",
                        Data::describe(&c.a),
                        Data::describe(b),
                        100.0 * t.difference,
                        100.0 * lo,
                        100.0 * hi,
                        t.z,
                        t.p,
                        p_holm
                    );
                    let want = c.expect.as_deref().expect("expect");
                    assert!(
                        matches!(want, "same" | "a-higher" | "a-lower"),
                        "{}: expect '{want}'",
                        claim.id
                    );
                    if want != verdict {
                        failures.push(format!("{}: {} vs {}: the claim says {want}, the data say {verdict} (Holm p = {p_holm:.3e})", claim.id, Data::describe(&c.a), Data::describe(b)));
                    }
                    if let Some([rlo, rhi]) = c.ratio {
                        let ratio = (k1 as f64 / n1 as f64) / (k2 as f64 / n2 as f64);
                        if !(rlo..=rhi).contains(&ratio) {
                            failures.push(format!(
                                "{}: ratio {ratio:.2} outside [{rlo}, {rhi}]",
                                claim.id
                            ));
                        }
                    }
                }
            }
            "one-proportion" => {
                let mut rows = Vec::new();
                for c in &claim.comparison {
                    let v = c.value.as_ref().expect("one-proportion needs value");
                    let (k, n) = data.proportion(&c.a);
                    let p0 = data.fixed(v);
                    rows.push((c, v, k, n, p0, score_test(k, n, p0)));
                }
                let adjusted = holm(&rows.iter().map(|r| r.5.p).collect::<Vec<_>>());
                for ((c, v, k, n, p0, t), p_holm) in rows.into_iter().zip(adjusted) {
                    let rejected = p_holm <= claims.alpha;
                    let verdict = match (rejected, t.difference > 0.0) {
                        (false, _) => "same",
                        (true, true) => "a-higher",
                        (true, false) => "a-lower",
                    };
                    let (lo, hi) = wilson(k, n, Z95);
                    println!(
                        "  {} {k}/{n} = {:.2}% [{:.2}, {:.2}] vs {}[{}] = {:.2}%: z = {:.2}, p = {:.3e}, Holm p = {:.3e}: {verdict}",
                        Data::describe(&c.a),
                        100.0 * k as f64 / n as f64,
                        100.0 * lo,
                        100.0 * hi,
                        v.counts,
                        v.board,
                        100.0 * p0,
                        t.z,
                        t.p,
                        p_holm
                    );
                    let want = c.expect.as_deref().expect("expect");
                    assert!(
                        matches!(want, "same" | "a-higher" | "a-lower"),
                        "{}: expect '{want}'",
                        claim.id
                    );
                    if want != verdict {
                        failures.push(format!("{}: {} vs {}[{}]: the claim says {want}, the data say {verdict} (Holm p = {p_holm:.3e})", claim.id, Data::describe(&c.a), v.counts, v.board));
                    }
                }
            }
            "count" => {
                for c in &claim.comparison {
                    let (k, n) = data.proportion(&c.a);
                    println!("  {}: {k} of {n}", Data::describe(&c.a));
                    if Some(k) != c.expect_count || Some(n) != c.expect_trials {
                        failures.push(format!(
                            "{}: {} is {k} of {n}, the claim says {:?} of {:?}",
                            claim.id,
                            Data::describe(&c.a),
                            c.expect_count,
                            c.expect_trials
                        ));
                    }
                }
            }
            "median-above" => {
                for c in &claim.comparison {
                    let above = c.above.expect("above");
                    for cell in data.cells(&c.a) {
                        let median = cell["iterations_median"]
                            .as_f64()
                            .expect("iterations_median");
                        println!(
                            "  {} {}: median {median}",
                            Data::describe(&c.a),
                            cell["board"]
                        );
                        if median <= above {
                            failures.push(format!(
                                "{}: {} median {median} is not above {above}",
                                claim.id,
                                Data::describe(&c.a)
                            ));
                        }
                    }
                }
            }
            other => panic!("{}: unknown test '{other}'", claim.id),
        }
    }
    failures
}

fn experiments() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments")
}

#[test]
fn every_claim_holds_on_the_committed_data() {
    let failures = check_claims(&experiments().join("claims.toml"), &experiments());
    assert!(
        failures.is_empty(),
        "claims the data contradict:\n{}",
        failures.join("\n")
    );
}

/// The claims of a claims file with `text` that the committed data contradict.
fn failures_of(text: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("claims.toml");
    std::fs::write(&path, text).unwrap();
    check_claims(&path, &experiments())
}

#[test]
fn a_false_claim_fails() {
    // The old wording: "reproduces Parberry": no difference on 8x8 success. And a
    // wrong direction, a wrong count and a wrong median bound.
    let failures = failures_of(
        r#"
alpha = 0.05

[[claim]]
id = "reproduces-parberry"
source = "test"
statement = "The network reproduces Parberry (1996) on 8x8."
test = "two-proportion"
[[claim.comparison]]
a = { results = "parberry-1996", label = "parberry", board = "8x8", outcomes = ["tour"] }
b = { published = "parberry-1996", key = "8", count = "success", trials = "trials" }
expect = "same"
[[claim.comparison]]
a = { results = "parberry-1996", label = "parberry", board = "6x6", outcomes = ["tour"] }
b = { published = "parberry-1996", key = "6", count = "success", trials = "trials" }
expect = "a-higher"

[[claim]]
id = "wrong-count"
source = "test"
statement = "merge found 3,551 tours."
test = "count"
[[claim.comparison]]
a = { results = "merge", label = "auto-tiles", outcomes = ["tour"] }
expect_count = 3301
expect_trials = 3300

[[claim]]
id = "wrong-median"
source = "test"
statement = "median above 200 on 14x14."
test = "median-above"
[[claim.comparison]]
a = { results = "takefuji-lee-1992", label = "parberry", board = "14x14", outcomes = ["tour"] }
above = 200
"#,
    );
    assert_eq!(failures.len(), 4, "{failures:#?}");
    assert!(failures[0].contains("reproduces-parberry") && failures[0].contains("a-higher"));
    assert!(failures[1].contains("a-lower"));
}

#[test]
fn a_false_one_proportion_claim_fails() {
    // The sequential network on 6x6 lands on tours more often than H/F, not as often.
    let failures = failures_of(
        r#"
alpha = 0.05

[[claim]]
id = "uniform-on-6x6"
source = "test"
statement = "On 6x6 the network settles on a tour as often as a random 2-factor is one."
test = "one-proportion"
[[claim.comparison]]
a = { results = "parberry-1996", label = "parberry", board = "6x6", outcomes = ["tour"], among = ["tour", "multiple-cycles"] }
value = { counts = "hf-counts", board = "6x6" }
expect = "same"
[[claim.comparison]]
a = { results = "parberry-1996", label = "parberry", board = "8x8", outcomes = ["tour"], among = ["tour", "multiple-cycles"] }
value = { counts = "hf-counts", board = "8x8" }
expect = "a-lower"
"#,
    );
    assert_eq!(failures.len(), 2, "{failures:#?}");
    assert!(failures[0].contains("a-higher"), "{}", failures[0]);
    assert!(failures[1].contains("same"), "{}", failures[1]);
}
