//! From the TOML layer to the resolved spec: the spec's name and bounds, then each
//! `[[solver]]` entry expanded into its cells (one per sweep point and board, boards
//! innermost), each checked against its solver before any trial runs.

use std::collections::HashSet;
use std::ops::Range;

use toml::Spanned;

use super::cell::{Cell, StartRule};
use super::file::{Entry, GeometryKeys, SpecFile};
use super::sweep::{Setting, sweep_point};
use super::{MAX_CELLS, MAX_ENTRIES, MAX_TRIALS, Spec, escaped};
use crate::board::Board;
use crate::error::{InputError, SpecEntry, SpecError};
use crate::geometry::{Geometry, Leaper, Shape, Surface};
use crate::network::NetworkParams;
use crate::solvers::SolverKind;
use crate::solvers::neural_merge::TileMode;
use crate::solvers::on_graph::{self, GraphRequest, GraphSolver};
use crate::target::Target;

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
    geometry: GeometryKeys<'a>,
}

/// Where one cell runs: its board, its target beyond the knight on a whole plane board,
/// and the span its errors point to (the board's, the shape's or the graph's).
struct Place {
    board: Board,
    target: Option<Target>,
    span: Range<usize>,
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
        geometry: file.geometry(),
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
        let places = self.places(defaults)?;
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
            for place in &places {
                let cell = self.cell(cells.len(), &label, &kind, place, trials)?;
                if !keys.insert(cell.key()) {
                    return Err(self.src.at(
                        &place.span,
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

    /// Where the entry's cells run, read once: each of its boards (with the entry's
    /// leaper and surface, a target unless that is the knight on the plane), or the one
    /// board its `shape` pictures, or the graph file its `graph` names (relative to the
    /// spec file's folder).
    fn places(&self, defaults: &Defaults) -> Result<Vec<Place>, InputError> {
        let keys = self.entry.geometry(defaults.geometry);
        let at = |span: Range<usize>, key: &str, msg: String| self.src.at(&span, Some(key), msg);
        if let Some(g) = keys.graph {
            if let Some((key, span)) = [
                ("leaper", keys.leaper.map(Spanned::span)),
                ("surface", keys.surface.map(Spanned::span)),
                ("shape", keys.shape.map(Spanned::span)),
                (
                    "boards",
                    self.entry.boards.as_ref().map(|_| self.entry.solver.span()),
                ),
            ]
            .into_iter()
            .find_map(|(k, s)| s.map(|s| (k, s)))
            {
                return Err(at(
                    span,
                    key,
                    format!(
                        "{key} does not apply with graph = \"{}\" (a graph file has no board); give one or the other",
                        escaped(g.get_ref())
                    ),
                ));
            }
            let base = std::path::Path::new(self.src.origin)
                .parent()
                .unwrap_or(std::path::Path::new(""));
            let path = base.join(g.get_ref().trim());
            let target = Target::read_file(&path).map_err(|e| match e {
                crate::error::Error::Input(e) => at(g.span(), "graph", format!("graph: {e}")),
                other => at(g.span(), "graph", format!("graph: {other}")),
            })?;
            let Some(Target::File { graph, .. }) = Some(&target) else {
                unreachable!("read_file reads a file")
            };
            let board = Board::new(1, graph.vertices() as usize)
                .map_err(|e| at(g.span(), "graph", format!("graph: {e}")))?;
            return Ok(vec![Place {
                board,
                target: Some(target),
                span: g.span(),
            }]);
        }
        let leaper = match keys.leaper {
            Some(l) => leaper_of(l.get_ref()).map_err(|e| at(l.span(), "leaper", e.to_string()))?,
            None => Leaper::KNIGHT,
        };
        let surface = match keys.surface {
            Some(t) => t
                .get_ref()
                .parse::<Surface>()
                .map_err(|e| at(t.span(), "surface", e.to_string()))?,
            None => Surface::Plane,
        };
        let place = |shape: Shape, span: Range<usize>| {
            let geometry = Geometry::new(shape, leaper, surface);
            Place {
                board: geometry.board(),
                target: (!geometry.is_plain_knight()).then_some(Target::Geometry(geometry)),
                span,
            }
        };
        if let Some(p) = keys.shape {
            if self.entry.boards.is_some() {
                return Err(self.err(
                    Some("boards"),
                    "boards does not apply with shape (the picture is the board); give one or the other".into(),
                ));
            }
            let shape: Shape = p
                .get_ref()
                .parse()
                .map_err(|e: InputError| at(p.span(), "shape", e.to_string()))?;
            return Ok(vec![place(shape, p.span())]);
        }
        self.boards(defaults)?
            .iter()
            .map(|b| {
                let board: Board = b
                    .get_ref()
                    .parse()
                    .map_err(|err: InputError| at(b.span(), "boards", err.to_string()))?;
                Ok(place(Shape::full(board), b.span()))
            })
            .collect()
    }

    /// Cell number `index` at `place`, checked against its solver (a board without
    /// the tours asked for, a start square the solver cannot use; on a target, a solver
    /// that does not run there or a graph that theory rules out).
    fn cell(
        &self,
        index: usize,
        label: &str,
        kind: &SolverKind,
        place: &Place,
        trials: u64,
    ) -> Result<Cell, InputError> {
        let e = self.entry;
        let board = place.board;
        if let Some(target) = &place.target {
            return self.target_cell(index, label, kind, place, target, trials);
        }
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
            target: None,
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
                    .at(&place.span, None, format!("{label} on {board}: {err}")),
            })?;
        Ok(cell)
    }

    /// A cell on a target: a solver of [`on_graph`] ([`GraphSolver::from_kind`] refuses
    /// the others), closed tours for the network, `start` only as `"random"` (a uniform
    /// vertex; default: the first vertex), and a graph that [`on_graph::check`] accepts.
    fn target_cell(
        &self,
        index: usize,
        label: &str,
        kind: &SolverKind,
        place: &Place,
        target: &Target,
        trials: u64,
    ) -> Result<Cell, InputError> {
        let e = self.entry;
        let on = || format!("{label} on {}", target.label());
        let refuse = |msg: String| self.src.at(&place.span, None, format!("{}: {msg}", on()));
        let solver = GraphSolver::from_kind(kind).map_err(|err| refuse(err.to_string()))?;
        if e.open == Some(true) {
            return Err(refuse(
                "open = true is not accepted beyond the knight on a whole plane board: the network looks for closed tours there".into(),
            ));
        }
        let start = match &e.start {
            None => None,
            Some(s) if s.get_ref().trim() == "random" => Some(StartRule::Random),
            Some(s) => {
                return Err(self.src.at(
                    &s.span(),
                    Some("start"),
                    format!(
                        "{}: start = \"{}\" is not accepted there; give \"random\" (a uniform vertex) or leave it out (the first vertex)",
                        on(),
                        escaped(s.get_ref().trim())
                    ),
                ));
            }
        };
        let closed = e.closed.unwrap_or(solver.closed_by_default());
        let graph = target.graph().map_err(|err| match err {
            err if err.is_environment() => err,
            err => refuse(err.to_string()),
        })?;
        on_graph::check(
            &graph,
            &solver,
            &GraphRequest {
                closed,
                start: None,
            },
        )
        .map_err(|err| match err {
            err if err.is_environment() => err,
            err => refuse(err.to_string()),
        })?;
        Ok(Cell {
            index,
            label: label.to_string(),
            board: place.board,
            target: Some(target.clone()),
            solver: kind.clone(),
            start,
            closed: e.closed,
            open: false,
            trials,
        })
    }
}

/// A spec's `leaper`: `"R,S"` or a leaper's name ([`Leaper`]'s parser), or `[R, S]`.
fn leaper_of(value: &toml::Value) -> Result<Leaper, InputError> {
    let leg = |x: &toml::Value| x.as_integer().and_then(|i| u32::try_from(i).ok());
    match value {
        toml::Value::String(t) => t.parse(),
        toml::Value::Array(a) if a.len() == 2 => match (leg(&a[0]), leg(&a[1])) {
            (Some(r), Some(s)) => Leaper::new(r, s),
            _ => Err(InputError::param(format!(
                "leaper = {value} is not accepted; give two whole numbers 0 <= R <= S, e.g. [2, 3]"
            ))),
        },
        other => Err(InputError::param(format!(
            "leaper = {other} is not accepted; give \"R,S\", [R, S] or a name (knight, camel, zebra, giraffe)"
        ))),
    }
}
