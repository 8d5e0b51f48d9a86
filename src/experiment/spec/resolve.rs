//! From the TOML layer to the resolved spec: the spec's name and bounds, then each
//! `[[solver]]` entry expanded into its cells (one per sweep point and board, boards
//! innermost), each checked against its solver before any trial runs.

use std::collections::HashSet;
use std::ops::Range;

use toml::Spanned;

use super::cell::{Cell, StartRule};
use super::file::{Entry, SpecFile};
use super::sweep::{Setting, sweep_point};
use super::{MAX_CELLS, MAX_ENTRIES, MAX_TRIALS, Spec, escaped};
use crate::board::Board;
use crate::error::{InputError, SpecEntry, SpecError};
use crate::network::NetworkParams;
use crate::solvers::SolverKind;
use crate::solvers::neural_merge::TileMode;

/// Where a spec's errors point: its text (for line numbers) and where it came from.
pub(super) struct Source<'a> {
    pub text: &'a str,
    /// The spec's path, or `built-in quickstart.toml`.
    pub origin: &'a str,
}

impl Source<'_> {
    /// The 1-based line where `span` starts.
    pub fn line(&self, span: &Range<usize>) -> usize {
        self.text[..span.start.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    /// An error at `span` (`ORIGIN, line N: MESSAGE`), about `key` when one is named.
    pub fn at(&self, span: &Range<usize>, key: Option<&str>, msg: String) -> InputError {
        self.error(Some(span), None, key, msg)
    }

    /// An error about the spec as a whole (`ORIGIN: MESSAGE`).
    pub fn whole(&self, msg: String) -> InputError {
        self.error(None, None, None, msg)
    }

    fn error(
        &self,
        span: Option<&Range<usize>>,
        entry: Option<SpecEntry>,
        key: Option<&str>,
        message: String,
    ) -> InputError {
        // A value the message quotes may hold a newline or another control character:
        // escaped, so the message stays one line and shows what the spec holds.
        SpecError {
            origin: self.origin.to_string(),
            line: span.map(|s| self.line(s)),
            entry,
            key: key.map(str::to_string),
            message: escaped(&message).into_owned(),
        }
        .into()
    }
}

/// The spec-wide defaults an entry falls back on.
struct Defaults<'a> {
    trials: Option<u64>,
    boards: Option<&'a Vec<Spanned<String>>>,
}

/// Check the TOML layer of a spec and resolve it into cells.
pub(super) fn resolve(
    file: SpecFile,
    src: &Source,
    default_name: &str,
) -> Result<Spec, InputError> {
    let name = spec_name(file.name.as_ref(), default_name, src)?;
    check_size(&file, src)?;
    let defaults = Defaults {
        trials: file
            .trials
            .as_ref()
            .map(|t| check_trials(t, src))
            .transpose()?,
        boards: file.boards.as_ref(),
    };
    let mut cells: Vec<Cell> = Vec::new();
    let mut keys: HashSet<String> = HashSet::new();
    for (k, entry) in file.solver.iter().enumerate() {
        let at = EntryAt {
            src,
            number: k + 1,
            entry,
        };
        at.expand(&defaults, &mut cells, &mut keys)?;
    }
    let reference = reference(file.reference.as_ref(), &cells, src)?;
    Ok(Spec {
        name,
        description: file.description.unwrap_or_default().trim().to_string(),
        seed: file.seed.unwrap_or(crate::DEFAULT_SEED),
        cells,
        reference,
    })
}

/// The spec's `name` (it names the results folder), else `default_name`.
fn spec_name(
    name: Option<&Spanned<String>>,
    default_name: &str,
    src: &Source,
) -> Result<String, InputError> {
    let Some(n) = name else {
        return Ok(default_name.to_string());
    };
    let s = n.get_ref().trim().to_string();
    let ok = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if !ok {
        return Err(src.at(
            &n.span(),
            Some("name"),
            format!("name = \"{s}\" is not accepted; use letters, digits, '.', '_' and '-' (it names the results folder)"),
        ));
    }
    Ok(s)
}

/// At least one entry, at most [`MAX_ENTRIES`], and at most [`MAX_CELLS`] cells counted
/// from the list lengths before any cell is made.
fn check_size(file: &SpecFile, src: &Source) -> Result<(), InputError> {
    if file.solver.is_empty() {
        return Err(src.whole(
            "the spec has no [[solver]] entry; add at least one, e.g. [[solver]] with solver = \"network:parberry\" on the next line".into(),
        ));
    }
    if file.solver.len() > MAX_ENTRIES {
        return Err(src.whole(format!(
            "{} [[solver]] entries; a spec may have at most {MAX_ENTRIES}",
            file.solver.len()
        )));
    }
    let cell_count: usize = file
        .solver
        .iter()
        .map(|e| {
            let boards = e
                .boards
                .as_ref()
                .or(file.boards.as_ref())
                .map_or(0, Vec::len);
            e.cells(boards)
        })
        .fold(0usize, usize::saturating_add);
    if cell_count > MAX_CELLS {
        return Err(src.whole(format!(
            "{} cells (entries × swept values × boards); a spec may have at most {MAX_CELLS}",
            if cell_count == usize::MAX {
                "too many".to_string()
            } else {
                cell_count.to_string()
            }
        )));
    }
    Ok(())
}

/// A trial count from 1 to [`MAX_TRIALS`].
fn check_trials(t: &Spanned<u64>, src: &Source) -> Result<u64, InputError> {
    let n = *t.get_ref();
    if n == 0 || n > MAX_TRIALS {
        return Err(src.at(
            &t.span(),
            Some("trials"),
            format!("trials = {n} is not accepted; give 1 to {MAX_TRIALS}"),
        ));
    }
    Ok(n)
}

/// The spec's `reference`, which must be some cell's label.
fn reference(
    r: Option<&Spanned<String>>,
    cells: &[Cell],
    src: &Source,
) -> Result<Option<String>, InputError> {
    let Some(r) = r else {
        return Ok(None);
    };
    let label = r.get_ref().trim().to_string();
    if !cells.iter().any(|c| c.label == label) {
        let mut labels: Vec<&str> = cells.iter().map(|c| c.label.as_str()).collect();
        labels.dedup();
        let shown: Vec<&str> = labels.iter().take(10).copied().collect();
        return Err(src.at(
            &r.span(),
            Some("reference"),
            format!(
                "reference = \"{label}\" is no cell's label; the labels are {}{}",
                shown.join(", "),
                if labels.len() > 10 { ", ..." } else { "" }
            ),
        ));
    }
    Ok(Some(label))
}

/// One `[[solver]]` entry being resolved: its number from 1, for its errors.
struct EntryAt<'a> {
    src: &'a Source<'a>,
    number: usize,
    entry: &'a Entry,
}

impl EntryAt<'_> {
    /// An error about the entry, at its `solver` line:
    /// `[[solver]] #K ("SOLVER"): MESSAGE`, about `key` when one is named.
    fn err(&self, key: Option<&str>, msg: String) -> InputError {
        let entry = SpecEntry {
            number: self.number,
            solver: escaped(self.entry.solver.get_ref().trim()).into_owned(),
        };
        self.src
            .error(Some(&self.entry.solver.span()), Some(entry), key, msg)
    }

    /// Append the entry's cells to `cells`: sweep points in order, boards innermost.
    /// `keys` holds the cell keys so far, so that none appears twice.
    fn expand(
        &self,
        defaults: &Defaults,
        cells: &mut Vec<Cell>,
        keys: &mut HashSet<String>,
    ) -> Result<(), InputError> {
        let base: SolverKind = self
            .entry
            .solver
            .get_ref()
            .trim()
            .parse()
            .map_err(|e: InputError| self.err(Some("solver"), e.to_string()))?;
        if self.entry.tile.is_some() && !matches!(base, SolverKind::NetworkMerge { .. }) {
            return Err(self.err(Some("tile"), "tile applies to network+merge only".into()));
        }
        let axes = self.entry.axes();
        let points: usize = axes.iter().map(Vec::len).product();
        for point in 0..points {
            let settings = sweep_point(&axes, point);
            let (kind, default_label) = self.solver_at(&base, &settings)?;
            let label = self.label(&kind, default_label, &settings)?;
            let trials = match &self.entry.trials {
                Some(t) => check_trials(t, self.src)?,
                None => defaults.trials.ok_or_else(|| {
                    self.err(
                        Some("trials"),
                        "no trial count: give trials = N here or at the top of the spec".into(),
                    )
                })?,
            };
            for b in self.boards(defaults)? {
                let cell = self.cell(cells.len(), &label, &kind, b, trials)?;
                if !keys.insert(cell.key()) {
                    return Err(self.src.at(
                        &b.span(),
                        None,
                        format!(
                            "cell {} appears twice; give the entries distinct labels (label = \"...\")",
                            cell.key()
                        ),
                    ));
                }
                cells.push(cell);
            }
        }
        Ok(())
    }

    /// The solver of one sweep point, with the entry's values and the point's
    /// `settings` folded in, and the label it gives the cells unless the entry names
    /// them (`None`: the solver's name).
    fn solver_at(
        &self,
        base: &SolverKind,
        settings: &[Setting],
    ) -> Result<(SolverKind, Option<String>), InputError> {
        let mut kind = base.clone();
        let label = match &mut kind {
            SolverKind::NetworkMerge { params, tile } => {
                Some(self.merge_solver(params, tile, settings)?)
            }
            SolverKind::Network(p) => Some(self.network_solver(p, settings)?),
            classical => {
                self.classical_solver(classical)?;
                None
            }
        };
        Ok((kind, label))
    }

    /// A `network+merge` entry: closed tours, attempts capped by the preset.
    fn merge_solver(
        &self,
        params: &mut NetworkParams,
        tile: &mut TileMode,
        settings: &[Setting],
    ) -> Result<String, InputError> {
        let e = self.entry;
        if e.start.is_some()
            || e.open.is_some()
            || e.closed.is_some()
            || e.max_steps.is_some()
            || e.restarts.is_some()
        {
            return Err(self.err(
                None,
                "start, open, closed, max_steps and restarts do not apply to network+merge (closed tours, attempts capped by the preset)".into(),
            ));
        }
        *params = e.apply(*params);
        let label = format!("merge-{}", params.seed_label());
        for x in settings {
            x.apply(params);
        }
        params
            .check()
            .map_err(|err| self.err(None, err.to_string()))?;
        if let Some(t) = &e.tile {
            *tile = t
                .get_ref()
                .parse()
                .map_err(|err: InputError| self.src.at(&t.span(), Some("tile"), err.to_string()))?;
        }
        Ok(label)
    }

    /// A network entry: one trial is one attempt; open tours only with `open = true`,
    /// from a held first square when `start` names one.
    fn network_solver(
        &self,
        p: &mut NetworkParams,
        settings: &[Setting],
    ) -> Result<String, InputError> {
        let e = self.entry;
        match (&e.start, e.open == Some(true)) {
            (Some(s), false) => return Err(self.src.at(
                &s.span(),
                Some("start"),
                "start applies to classical solvers, and to network solvers with open = true (a closed tour has no start square)".into(),
            )),
            (Some(s), true) if s.get_ref().trim() == "random" => return Err(self.src.at(
                &s.span(),
                Some("start"),
                "start = \"random\" is not accepted for a network entry: its held start square is part of the graph; give \"corner\", \"ROW,COL\" or a square name".into(),
            )),
            _ => {}
        }
        if e.closed.is_some() {
            return Err(self.err(
                Some("closed"),
                "closed applies to classical solvers only; the network always looks for closed tours".into(),
            ));
        }
        if e.max_steps.is_some() || e.restarts.is_some() {
            return Err(self.err(
                None,
                "max_steps and restarts apply to classical solvers only; a network trial is one attempt, capped by max_iterations".into(),
            ));
        }
        *p = e.apply(*p);
        let label = p.seed_label();
        for x in settings {
            x.apply(p);
        }
        // One trial is one attempt: record it so, and so that
        // `solve --seed SEED --max-attempts 1` replays a trial.
        p.max_attempts = 1;
        p.check().map_err(|err| self.err(None, err.to_string()))?;
        Ok(label)
    }

    /// A classical entry: no network keys; its caps folded into the solver.
    fn classical_solver(&self, kind: &mut SolverKind) -> Result<(), InputError> {
        let e = self.entry;
        let mut keys = e.network_keys();
        if e.open.is_some() {
            keys.push("open");
        }
        if !keys.is_empty() {
            let key = keys[0];
            return Err(self.err(
                Some(key),
                format!("{} applies to network solvers only", keys.join(", ")),
            ));
        }
        kind.apply_classical_flags(None, e.max_steps, e.restarts)
            .map_err(|err| self.err(None, err.to_string()))
    }

    /// The label of one sweep point's cells: the entry's `label`, else `default` (else
    /// the solver's name), followed by `key=value` for every swept key.
    fn label(
        &self,
        kind: &SolverKind,
        default: Option<String>,
        settings: &[Setting],
    ) -> Result<String, InputError> {
        let label = match &self.entry.label {
            Some(l) => {
                let s = l.get_ref().trim().to_string();
                if s.is_empty() || s.contains(['/', ',', '"']) || s.chars().any(char::is_control) {
                    return Err(self.src.at(
                        &l.span(),
                        Some("label"),
                        format!("label = \"{s}\" is not accepted; give a non-empty name without '/', ',', quotes or control characters (newline, tab, ...)"),
                    ));
                }
                s
            }
            None => default.unwrap_or_else(|| kind.to_string()),
        };
        Ok(std::iter::once(label)
            .chain(settings.iter().map(|x| x.label()))
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// The entry's boards, else the spec's; at least one.
    fn boards<'d>(&'d self, defaults: &Defaults<'d>) -> Result<&'d [Spanned<String>], InputError> {
        let boards = self
            .entry
            .boards
            .as_ref()
            .or(defaults.boards)
            .ok_or_else(|| {
                self.err(
                    Some("boards"),
                    "no boards: give boards = [\"8x8\", ...] here or at the top of the spec".into(),
                )
            })?;
        if boards.is_empty() {
            return Err(self.err(Some("boards"), "the board list is empty".into()));
        }
        Ok(boards)
    }

    /// Cell number `index` on board `b`, checked against its solver (a board without
    /// the tours asked for, a start square the solver cannot use).
    fn cell(
        &self,
        index: usize,
        label: &str,
        kind: &SolverKind,
        b: &Spanned<String>,
        trials: u64,
    ) -> Result<Cell, InputError> {
        let e = self.entry;
        let board: Board = b
            .get_ref()
            .parse()
            .map_err(|err: InputError| self.src.at(&b.span(), Some("boards"), err.to_string()))?;
        let start = match &e.start {
            Some(s) => Some(StartRule::parse(s.get_ref(), board).map_err(|err| {
                self.src
                    .at(&s.span(), Some("start"), format!("on {board}: {err}"))
            })?),
            None => None,
        };
        let cell = Cell {
            index,
            label: label.to_string(),
            board,
            solver: kind.clone(),
            start,
            closed: e.closed,
            open: e.open == Some(true),
            trials,
        };
        cell.solver
            .build()
            .check(&cell.request())
            .map_err(|err| match err {
                // Out of memory is the environment's failure (exit 1), not the spec's.
                err if err.is_environment() => err,
                err => self
                    .src
                    .at(&b.span(), None, format!("{label} on {board}: {err}")),
            })?;
        Ok(cell)
    }
}
