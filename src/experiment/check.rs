//! Provenance: proving that a results folder holds exactly what its spec would write.
//!
//! Resume and merge check every row of `records.csv` against the spec of the run (the
//! fully resolved spec in `run.json`, compared key by key with [`first_difference`]):
//! - its spec name, cell, label, board, solver and variant are those of its cell;
//! - its trial number is within the cell and in the folder's shard, and appears once;
//! - its seed is the one the seed rule gives the cell's trial under the spec's base seed
//!   (so rows of another seed, another cell or an edited trial number are refused);
//! - its outcome is one the cell's solver can report, and its numbers are in range
//!   (network: iterations within the cap, no restarts, cycles within the board; classical:
//!   a start square on the board, no network columns).
//!
//! The first offending row is refused naming the file, the line and what differs.
//!
//! A content hash of the spec is not stored: `run.json` already carries the whole
//! resolved spec, which is compared key by key (naming the first key that differs, which
//! a hash could not), and anyone able to edit the spec could rewrite a hash beside it.
//! What ties each row to the spec is its seed, recomputed here for every row.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::records::Record;
use super::runner::Shard;
use super::seeds::trial_seed;
use super::spec::{Cell, Spec};
use crate::error::InputError;
use crate::solvers::outcome::{self, Outcome};

/// The first key at which two specs differ, as `PATH: A vs B` (e.g.
/// `seed: 6 vs 5`, `cells[2].trials: 24 vs 10`), or `None` when they are equal.
pub fn first_difference(a: &Spec, b: &Spec) -> Option<String> {
    let (va, vb) = (
        serde_json::to_value(a).unwrap_or(Value::Null),
        serde_json::to_value(b).unwrap_or(Value::Null),
    );
    diff(&va, &vb, String::new())
}

fn diff(a: &Value, b: &Value, path: String) -> Option<String> {
    let show = |v: Option<&Value>| v.map_or("(absent)".to_string(), |v| v.to_string());
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            // Keys in the order the spec serialises them, then any others.
            let ordered = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
            for k in ordered.filter(|k| keys.contains(k)) {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) => {
                        if let Some(d) = diff(u, v, p) {
                            return Some(d);
                        }
                    }
                    (u, v) => return Some(format!("{p}: {} vs {}", show(u), show(v))),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                if let Some(d) = diff(u, v, format!("{path}[{i}]")) {
                    return Some(d);
                }
            }
            (x.len() != y.len()).then(|| {
                format!(
                    "{}: {} vs {} entries",
                    if path.is_empty() { "spec" } else { &path },
                    x.len(),
                    y.len()
                )
            })
        }
        _ => (a != b).then(|| {
            format!(
                "{}: {a} vs {b}",
                if path.is_empty() { "spec" } else { &path }
            )
        }),
    }
}

/// Trial numbers recorded so far, as disjoint ranges (start → end, exclusive): a run
/// records trials in nearly increasing order, so this stays a handful of ranges however
/// many trials are recorded.
#[derive(Debug, Clone, Default)]
pub struct TrialSet {
    ranges: BTreeMap<u64, u64>,
    len: u64,
}

impl TrialSet {
    pub fn contains(&self, g: u64) -> bool {
        self.ranges
            .range(..=g)
            .next_back()
            .is_some_and(|(_, &end)| g < end)
    }

    /// Add `g`; false when it was already there.
    pub fn insert(&mut self, g: u64) -> bool {
        if self.contains(g) {
            return false;
        }
        let end = g + 1;
        let mut start = g;
        let mut stop = end;
        // Join the range ending at g and the one starting at g + 1.
        if let Some((&s, &e)) = self.ranges.range(..g).next_back() {
            if e == g {
                start = s;
            }
        }
        if let Some(e) = self.ranges.get(&end).copied() {
            self.ranges.remove(&end);
            stop = e;
        }
        self.ranges.insert(start, stop);
        self.len += 1;
        true
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of disjoint ranges (what the set's memory grows with).
    pub fn ranges(&self) -> usize {
        self.ranges.len()
    }
}

/// What a row of each cell must look like.
struct CellRule {
    key: String,
    solver: String,
    variant: String,
    /// Per-attempt cap of a network cell; `None` for classical cells.
    max_iterations: Option<u64>,
    /// Vertices of the cell's graph: the squares, plus the apex of the open graph.
    vertices: u64,
}

/// Checks rows of a results folder against its spec and shard, remembering the trials
/// seen (to refuse duplicates, and to tell a resumed run what is done).
pub struct RowCheck<'s> {
    spec: &'s Spec,
    shard: Shard,
    offsets: Vec<u64>,
    rules: Vec<CellRule>,
    /// Global numbers of the trials seen.
    pub seen: TrialSet,
}

impl<'s> RowCheck<'s> {
    pub fn new(spec: &'s Spec, shard: Shard) -> RowCheck<'s> {
        let rules = spec
            .cells
            .iter()
            .map(|c| CellRule {
                key: c.key(),
                solver: c.solver_name(),
                variant: c.variant(),
                max_iterations: c.params().map(|p| u64::from(p.max_iterations)),
                vertices: c.board.squares() as u64 + u64::from(c.open),
            })
            .collect();
        RowCheck {
            spec,
            shard,
            offsets: spec.offsets(),
            rules,
            seen: TrialSet::default(),
        }
    }

    /// Check row `r`, read from line `line` of `origin`, and remember its trial.
    pub fn check(&mut self, r: &Record, origin: &Path, line: u64) -> Result<(), InputError> {
        let bad = |why: String| {
            InputError::File(format!(
                "{}, line {line}: {why}; the folder holds rows this spec did not write, so it is refused",
                origin.display()
            ))
        };
        let (g, rule) = self.placed(r).map_err(bad)?;
        Self::in_range(r, &self.spec.cells[r.cell], rule).map_err(bad)?;
        if self.seen.contains(g) {
            return Err(bad(format!(
                "cell {} ({}) trial {} appears twice",
                r.cell, rule.key, r.trial
            )));
        }
        self.seen.insert(g);
        Ok(())
    }

    /// Whether row `r` is where its spec, cell and seed put it: its global trial number
    /// and its cell's rule, or what differs.
    fn placed(&self, r: &Record) -> Result<(u64, &CellRule), String> {
        let spec = self.spec;
        if r.spec != spec.name {
            return Err(format!(
                "spec '{}' is not this run's spec '{}'",
                r.spec, spec.name
            ));
        }
        let (Some(cell), Some(rule)) = (spec.cells.get(r.cell), self.rules.get(r.cell)) else {
            return Err(format!(
                "cell {} is not in the spec (it has {} cells)",
                r.cell,
                spec.cells.len()
            ));
        };
        let fields = [
            ("label", r.label == cell.label, &r.label, &cell.label),
            (
                "board",
                r.board == cell.board,
                &r.board.to_string(),
                &cell.board.to_string(),
            ),
            ("solver", r.solver == rule.solver, &r.solver, &rule.solver),
            (
                "variant",
                r.variant == rule.variant,
                &r.variant,
                &rule.variant,
            ),
        ];
        for (name, same, got, want) in fields {
            if !same {
                return Err(format!(
                    "{name} '{got}' is not that of cell {} ({}), '{want}'",
                    r.cell, rule.key
                ));
            }
        }
        if r.trial >= cell.trials {
            return Err(format!(
                "trial {} is beyond cell {} ({})'s {} trials",
                r.trial, r.cell, rule.key, cell.trials
            ));
        }
        let seed = trial_seed(spec.seed, &rule.key, r.trial);
        if r.seed != seed {
            return Err(format!(
                "seed {} is not the seed of cell {} ({}) trial {} under base seed {} (expected {seed})",
                r.seed, r.cell, rule.key, r.trial, spec.seed
            ));
        }
        let g = self.offsets[r.cell] + r.trial;
        if !self.shard.contains(g) {
            return Err(format!(
                "cell {} ({}) trial {} is not in shard {}",
                r.cell, rule.key, r.trial, self.shard
            ));
        }
        Ok((g, rule))
    }

    /// Whether row `r`'s outcome and numbers are ones cell `cell` (with `rule`) can
    /// record, or what is out of range.
    fn in_range(r: &Record, cell: &Cell, rule: &CellRule) -> Result<(), String> {
        // Any outcome name parsed (the reader refused unknown ones); a network cell's
        // trial is one attempt, which ends in one of the network's own outcomes.
        if rule.max_iterations.is_some() && !r.outcome.ends_network_attempt() {
            let network: Vec<Outcome> = Outcome::ALL
                .into_iter()
                .filter(|o| o.ends_network_attempt())
                .collect();
            return Err(format!(
                "outcome '{}' is not one this cell records ({})",
                r.outcome,
                outcome::names(&network)
            ));
        }
        let range = |name: &str, v: Option<u64>, max: u64| match v {
            Some(x) if x > max => Err(format!("{name} {x} is above {max}")),
            _ => Ok(()),
        };
        match rule.max_iterations {
            Some(cap) => {
                range("iterations", Some(r.iterations), cap)?;
                range("restarts", Some(r.restarts), 0)?;
                // Cycles of the cell's graph (on the open graph one of them holds the apex).
                range("cycles", r.cycles, rule.vertices / 2)?;
                range("largest_cycle", r.largest_cycle, rule.vertices)?;
                let classical = [
                    ("start", r.start.is_some()),
                    ("steps", r.steps.is_some()),
                    ("merged", r.merged.is_some()),
                    ("swaps", r.swaps.is_some()),
                ];
                if let Some((name, _)) = classical.iter().find(|(_, set)| *set) {
                    return Err(format!("{name} is set, but network trials leave it empty"));
                }
            }
            None => {
                if let Some(s) = &r.start {
                    if cell.board.parse_square(s).is_err() {
                        return Err(format!("start '{s}' is not a square of {}", r.board));
                    }
                }
                if r.cycles.is_some() || r.largest_cycle.is_some() {
                    return Err("cycles is set, but only network trials record cycles".into());
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trial_sets_merge_ranges() {
        let mut s = TrialSet::default();
        for g in [0, 1, 2, 5, 4, 3, 10, 8, 9] {
            assert!(s.insert(g));
        }
        assert!(!s.insert(4));
        assert_eq!(s.len(), 9);
        assert_eq!(s.ranges(), 2);
        assert!(s.contains(5) && s.contains(8) && s.contains(10));
        assert!(!s.contains(6) && !s.contains(7) && !s.contains(11));
    }

    #[test]
    fn differences_name_the_key() {
        let a = Spec::parse(
            "seed = 6\ntrials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n",
            "small",
            "a",
        )
        .unwrap();
        let mut b = a.clone();
        assert_eq!(first_difference(&a, &b), None);
        b.seed = 5;
        assert_eq!(first_difference(&a, &b).unwrap(), "seed: 6 vs 5");
        let mut c = a.clone();
        c.cells[0].trials = 4;
        assert_eq!(first_difference(&a, &c).unwrap(), "cells[0].trials: 3 vs 4");
    }
}
