//! Moves on a checkered board: a tour (the path as segments between square centres,
//! start and end marked, optional move numbers), the several cycles of a failed attempt
//! (each cycle in its own colour), or any set of active moves (squares whose number of
//! active moves is not two are ringed). The animation draws its frames with this too,
//! also of the open graph, whose apex is not drawn ([`BoardFigure::outputs`]).

use std::path::Path;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::palette::{self, INK, SQUARE_DARK, SQUARE_LIGHT};
use super::{DrawResult, FONT, Figure, PlotError, de, render};
use crate::board::Board;
use crate::error::{InputError, Refusal};
use crate::geometry::{Geometry, MoveGraph};
use crate::graph::{KnightGraph, Source, Tours, open_path};
use crate::network::OutputState;
use crate::network::classify;
use crate::solvers::Solution;
use crate::solvers::on_graph::GraphSolution;
use crate::tour::{Tour, cycles_from_edges};

/// One path of squares, drawn as segments between square centres.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardPath {
    /// The squares in path order.
    pub squares: Vec<u32>,
    /// Draw the move from the last square back to the first.
    pub closed: bool,
    /// Mark the first square (start) and the last (end).
    pub mark_ends: bool,
}

/// Everything a board figure shows. Build one with [`BoardFigure::tour`],
/// [`BoardFigure::cycles`] or [`BoardFigure::outputs`], adjust, then [`BoardFigure::save`].
#[derive(Debug, Clone)]
pub struct BoardFigure {
    /// The board drawn.
    pub board: Board,
    /// The title line.
    pub title: String,
    /// A second, smaller line under the title (solver, seed, outcome...).
    pub subtitle: String,
    /// Paths; when there are several, each gets its own colour.
    pub paths: Vec<BoardPath>,
    /// Active moves that belong to no path (an unsettled state), drawn in grey.
    pub loose: Vec<(u32, u32)>,
    /// Squares to ring (for example: not exactly two active moves).
    pub flagged: Vec<u32>,
    /// Squares whose move to the open graph's apex is active, in a state that is not a
    /// degree-2 cover (the apex itself is not drawn); marked with a dot.
    pub apex_joined: Vec<u32>,
    /// Write each square's move number (1-based) along the first path.
    pub move_numbers: bool,
    /// Draw the legend strip under the board.
    pub legend: bool,
    /// Beyond the knight on a whole plane board: the leaper, surface and shape the
    /// paths move on. Holes are drawn dark and crossed; a move that leaves one edge and
    /// comes back at the other is drawn as two halves, each running off its edge.
    pub geometry: Option<Geometry>,
}

/// A subtitle's account of a network's effort (`, 3 attempts, 120 iterations`); empty
/// for the solvers that do not iterate.
fn effort(attempts: u64, iterations: u64) -> String {
    if iterations == 0 {
        return String::new();
    }
    format!(
        ", {attempts} attempt{}, {iterations} iterations",
        if attempts == 1 { "" } else { "s" }
    )
}

/// The colour of a hole of a shape.
const HOLE: RGBColor = RGBColor(0x45, 0x45, 0x45);

/// Default: move numbers are written on boards up to this many squares per side.
pub(crate) const NUMBERS_UP_TO_SIDE: usize = 16;

impl BoardFigure {
    /// The title of a tour's figure: "Closed knight's tour on 8x8".
    pub fn tour_title(tour: &Tour) -> String {
        format!(
            "{} knight's tour on {}",
            if tour.is_closed() { "Closed" } else { "Open" },
            tour.board()
        )
    }

    /// A solver's tour as `solve --png/--svg` draws it: the tour, titled by its kind and
    /// board, the subtitle naming the solver, the seed and (for the network) the attempts
    /// and iterations. `None` when the solution has no tour.
    pub fn solution(sol: &Solution, seed: u64) -> Option<Self> {
        let tour = sol.tour()?;
        let who = sol.solver_label();
        let effort = effort(sol.attempts, sol.iterations);
        Some(BoardFigure::tour(
            tour,
            Self::tour_title(tour),
            format!("{who}, seed {seed}{effort}"),
        ))
    }

    /// A tour found on a geometry, as `solve --png/--svg` draws it
    /// ([`BoardFigure::geometry_tour`]). `None` without a tour, or on a graph read
    /// from a file (no squares to draw).
    pub fn graph_solution(sol: &GraphSolution, graph: &KnightGraph, seed: u64) -> Option<Self> {
        let (Some(tour), Source::Geometry(moves)) = (&sol.tour, graph.source()) else {
            return None;
        };
        let effort = effort(sol.attempts, sol.iterations);
        Some(BoardFigure::geometry_tour(
            moves.geometry(),
            moves.squares_of(tour.vertices()),
            tour.is_closed(),
            format!("{}, seed {seed}{effort}", sol.solver),
        ))
    }

    /// The default width in pixels of a figure of `board`: 100 a column, 800 to 1000
    /// (an 8x8 board's squares about 90 pixels, its move numbers about 24).
    pub fn default_width(board: Board) -> u32 {
        (board.cols() as u32 * 100).clamp(800, 1000)
    }

    /// A tour: one path (closed or open), start and end marked, move numbers on boards
    /// at most `NUMBERS_UP_TO_SIDE` squares wide and tall.
    pub fn tour(tour: &Tour, title: impl Into<String>, subtitle: impl Into<String>) -> Self {
        BoardFigure::one_path(
            tour.board(),
            tour.squares().to_vec(),
            tour.is_closed(),
            title.into(),
            subtitle.into(),
        )
    }

    /// One path of `squares` on `board`, start and end marked, move numbers on boards
    /// at most `NUMBERS_UP_TO_SIDE` squares wide and tall.
    fn one_path(
        board: Board,
        squares: Vec<u32>,
        closed: bool,
        title: String,
        subtitle: String,
    ) -> Self {
        BoardFigure {
            board,
            title,
            subtitle,
            paths: vec![BoardPath {
                squares,
                closed,
                mark_ends: true,
            }],
            loose: Vec::new(),
            flagged: Vec::new(),
            apex_joined: Vec::new(),
            move_numbers: board.rows().max(board.cols()) <= NUMBERS_UP_TO_SIDE,
            legend: true,
            geometry: None,
        }
    }

    /// A tour on a geometry (another leaper, a cylinder or torus, a shape with holes),
    /// as `solve --png/--svg` draws it: `squares` in visiting order, titled by its kind,
    /// leaper and board, the subtitle naming the solver and the seed.
    pub fn geometry_tour(
        geometry: &Geometry,
        squares: Vec<u32>,
        closed: bool,
        subtitle: impl Into<String>,
    ) -> Self {
        let board = geometry.board();
        let title = format!(
            "{} ({})-leaper tour on {} {}{}",
            if closed { "Closed" } else { "Open" },
            geometry.leaper(),
            board,
            geometry.surface(),
            geometry
                .shape()
                .holes_phrase()
                .map_or_else(String::new, |h| format!(", {h}"))
        );
        BoardFigure {
            geometry: Some(geometry.clone()),
            ..BoardFigure::one_path(board, squares, closed, title, subtitle.into())
        }
    }

    /// The move from `a` to `b` as the board shows it, in square units from `a`'s
    /// centre: the plane displacement, or on a cylinder or torus the wrapped one that
    /// is a move of the leaper (then `true`: the move runs off one edge).
    fn displacement(&self, a: u32, b: u32) -> ((i64, i64), bool) {
        let (ar, ac) = self.board.coords(a);
        let (br, bc) = self.board.coords(b);
        let plain = (br as i64 - ar as i64, bc as i64 - ac as i64);
        let Some(g) = &self.geometry else {
            return (plain, false);
        };
        let offsets = g.leaper().offsets();
        if offsets.contains(&plain) {
            return (plain, false);
        }
        let (rows, cols) = (self.board.rows() as i64, self.board.cols() as i64);
        let row_shifts: &[i64] = if g.surface().wraps_rows() {
            &[0, -1, 1]
        } else {
            &[0]
        };
        let col_shifts: &[i64] = if g.surface().wraps_cols() {
            &[0, -1, 1]
        } else {
            &[0]
        };
        for &i in row_shifts {
            for &j in col_shifts {
                let d = (plain.0 + i * rows, plain.1 + j * cols);
                if offsets.contains(&d) {
                    return (d, d != plain);
                }
            }
        }
        (plain, false)
    }

    /// Whether any move drawn (of the paths, or loose) wraps round an edge.
    fn wraps(&self) -> bool {
        self.geometry.is_some()
            && (self.loose.iter().any(|&(a, b)| self.displacement(a, b).1)
                || self.paths.iter().any(|p| {
                    let mut moves: Vec<(u32, u32)> =
                        p.squares.windows(2).map(|w| (w[0], w[1])).collect();
                    if p.closed && p.squares.len() > 2 {
                        moves.push((p.squares[p.squares.len() - 1], p.squares[0]));
                    }
                    moves.iter().any(|&(a, b)| self.displacement(a, b).1)
                }))
    }

    /// The disjoint cycles of a degree-2 cover, each in its own colour (how the network
    /// fails when it settles on several cycles).
    pub fn cycles(
        board: Board,
        cycles: &[Vec<u32>],
        title: impl Into<String>,
        subtitle: impl Into<String>,
    ) -> Self {
        let mut cycles = cycles.to_vec();
        cycles.sort_by_key(|c| std::cmp::Reverse(c.len()));
        BoardFigure {
            board,
            title: title.into(),
            subtitle: subtitle.into(),
            paths: cycles
                .into_iter()
                .map(|squares| BoardPath {
                    squares,
                    closed: true,
                    mark_ends: false,
                })
                .collect(),
            loose: Vec::new(),
            flagged: Vec::new(),
            apex_joined: Vec::new(),
            move_numbers: false,
            legend: true,
            geometry: None,
        }
    }

    /// A network state: `outputs` has one output per neuron of `graph` (canonical
    /// order). A degree-2 cover is drawn as its cycles; otherwise the active moves are
    /// drawn in grey and the squares without exactly two active moves are ringed.
    ///
    /// On the open graph the apex is not drawn: in a degree-2 cover its cycle is drawn
    /// as the open path between its two neighbours (ends marked, from the held start
    /// when there is one), before the other cycles; otherwise the squares whose apex
    /// move is active get a dot, and a square's degree counts that move.
    pub fn outputs(
        graph: &KnightGraph,
        outputs: &OutputState,
        title: impl Into<String>,
        subtitle: impl Into<String>,
    ) -> Result<Self, PlotError> {
        if let Source::Geometry(moves) = graph.source() {
            return Ok(Self::geometry_outputs(
                moves, graph, outputs, title, subtitle,
            ));
        }
        let Some(board) = graph.source().knight_board() else {
            return Err(PlotError::Input(InputError::Unsupported(Refusal::new(
                format!(
                    "the network's states are drawn on boards, and {} has no squares to draw",
                    graph.describe()
                ),
            ))));
        };
        let active: Vec<(u32, u32)> = outputs.active().map(|e| graph.endpoints(e)).collect();
        let Some(apex) = graph.apex() else {
            if let Ok(cycles) = cycles_from_edges(board, &active) {
                return Ok(BoardFigure::cycles(board, &cycles, title, subtitle));
            }
            return Ok(Self::unsettled(board, active, Vec::new(), title, subtitle));
        };
        let cover = classify(graph, &outputs.to_bytes(), true, 0).cycles;
        if cover.is_empty() {
            let (joined, moves): (Vec<_>, Vec<_>) = active.into_iter().partition(|e| e.1 == apex);
            let joined = joined.into_iter().map(|e| e.0).collect();
            return Ok(Self::unsettled(board, moves, joined, title, subtitle));
        }
        let start = match graph.tours() {
            Tours::Open { start } => start,
            Tours::Closed => None,
        };
        let mut figure = BoardFigure::cycles(board, &[], title, subtitle);
        for cycle in cover {
            match open_path(&cycle, apex) {
                Some(mut path) => {
                    if start.is_some_and(|s| path.last() == Some(&s)) {
                        path.reverse();
                    }
                    figure.paths.insert(
                        0,
                        BoardPath {
                            squares: path,
                            closed: false,
                            mark_ends: true,
                        },
                    );
                }
                None => figure.paths.push(BoardPath {
                    squares: cycle,
                    closed: true,
                    mark_ends: false,
                }),
            }
        }
        // The path first, then the cycles longest first (as `cycles` orders them).
        figure.paths[1..].sort_by_key(|p| std::cmp::Reverse(p.squares.len()));
        Ok(figure)
    }

    /// [`BoardFigure::outputs`] on a geometry (another leaper, a cylinder or torus, a
    /// shape): the network's vertices drawn on their squares, a degree-2 cover as its
    /// cycles, otherwise the active moves in grey with the squares (never the holes)
    /// without two active moves ringed; holes and wrapped moves as a geometry's tour
    /// draws them.
    fn geometry_outputs(
        moves: &MoveGraph,
        graph: &KnightGraph,
        outputs: &OutputState,
        title: impl Into<String>,
        subtitle: impl Into<String>,
    ) -> Self {
        let geometry = moves.geometry();
        let board = geometry.board();
        let cover = classify(graph, &outputs.to_bytes(), true, 0).cycles;
        let mut figure = if cover.is_empty() {
            let active = outputs
                .active()
                .map(|e| {
                    let (a, b) = graph.endpoints(e);
                    (moves.square(a), moves.square(b))
                })
                .collect();
            let mut figure = Self::unsettled(board, active, Vec::new(), title, subtitle);
            figure.flagged.retain(|&s| !geometry.shape().is_hole(s));
            figure
        } else {
            let cycles: Vec<Vec<u32>> = cover.iter().map(|c| moves.squares_of(c)).collect();
            BoardFigure::cycles(board, &cycles, title, subtitle)
        };
        figure.geometry = Some(geometry.clone());
        figure
    }

    /// A state that is not a degree-2 cover: its active `moves` in grey, the squares
    /// `joined` to the open graph's apex dotted, and the squares without exactly two
    /// moves (apex moves included) ringed.
    fn unsettled(
        board: Board,
        moves: Vec<(u32, u32)>,
        joined: Vec<u32>,
        title: impl Into<String>,
        subtitle: impl Into<String>,
    ) -> Self {
        let mut degree = vec![0u32; board.squares()];
        for &(a, b) in &moves {
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        for &s in &joined {
            degree[s as usize] += 1;
        }
        BoardFigure {
            board,
            title: title.into(),
            subtitle: subtitle.into(),
            paths: Vec::new(),
            loose: moves,
            flagged: (0..board.squares() as u32)
                .filter(|&s| degree[s as usize] != 2)
                .collect(),
            apex_joined: joined,
            move_numbers: false,
            legend: true,
            geometry: None,
        }
    }

    /// Write the figure (`.png`, `.svg` or `.pdf` by extension) and its squares as CSV
    /// beside it. `width` pixels wide; the height follows from the board's shape.
    pub fn save(&self, path: &Path, width: u32) -> Result<(), super::PlotError> {
        render(self, path, self.size(width))?;
        self.table().write(&super::table::csv_path(path))
    }

    /// The squares drawn: each path's squares in order (`path`, path number, position),
    /// each active move outside a path as its two ends (`active-move`), the ringed
    /// squares (`flagged`) and a shape's holes (`hole`); rows and columns count from 0
    /// at the top left.
    pub fn table(&self) -> super::table::Table {
        let mut t = super::table::Table::new(&["kind", "number", "position", "row", "col"]);
        let mut push = |kind: &str, number: usize, position: usize, square: u32| {
            let (r, c) = self.board.coords(square);
            t.push(vec![
                kind.to_string(),
                number.to_string(),
                position.to_string(),
                r.to_string(),
                c.to_string(),
            ]);
        };
        for (i, p) in self.paths.iter().enumerate() {
            for (j, &sq) in p.squares.iter().enumerate() {
                push("path", i, j, sq);
            }
        }
        for (i, &(a, b)) in self.loose.iter().enumerate() {
            push("active-move", i, 0, a);
            push("active-move", i, 1, b);
        }
        for (i, &sq) in self.flagged.iter().enumerate() {
            push("flagged", 0, i, sq);
        }
        for (i, &sq) in self.apex_joined.iter().enumerate() {
            push("apex-move", 0, i, sq);
        }
        if let Some(g) = &self.geometry {
            for (i, &sq) in g.shape().holes().iter().enumerate() {
                push("hole", 0, i, sq);
            }
        }
        t
    }

    /// Pixel size for a given width: room for the title, the board and the legend.
    pub fn size(&self, width: u32) -> (u32, u32) {
        let margin = 2 * SIDE_MARGIN;
        let cell = (width.saturating_sub(margin)) as f64 / self.board.cols() as f64;
        let h = (cell * self.board.rows() as f64).ceil() as u32
            + HEADER
            + if self.legend { FOOTER } else { FOOTER / 3 };
        (width, h)
    }

    fn draw_legend<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        y: i32,
        w: i32,
    ) -> DrawResult {
        let size = (w as f64 / 45.0).clamp(11.0, 16.0);
        let font = (FONT, size).into_font().color(&INK);
        let mut items: Vec<(Mark, String)> = Vec::new();
        if self.paths.len() == 1 {
            let p = &self.paths[0];
            let kind = if p.closed { "closed" } else { "open" };
            items.push((
                Mark::Line(palette::BLUE),
                format!("{kind} path, {} squares", p.squares.len()),
            ));
            if p.mark_ends {
                items.push((Mark::Dot(palette::GREEN), "start (move 1)".into()));
                items.push((
                    Mark::Square(palette::VERMILLION),
                    format!("end (move {})", p.squares.len()),
                ));
            }
        } else if !self.paths.is_empty() {
            let shown = self.paths.len().min(6);
            for (i, p) in self.paths.iter().take(shown).enumerate() {
                let kind = if p.closed { "cycle" } else { "path" };
                items.push((
                    Mark::Line(palette::series(i)),
                    format!("{kind} {}: {}", i + 1, p.squares.len()),
                ));
            }
            if self.paths.len() > shown {
                items.push((
                    Mark::None,
                    format!("+{} more cycles", self.paths.len() - shown),
                ));
            }
        }
        if !self.loose.is_empty() || !self.flagged.is_empty() {
            items.push((
                Mark::Line(palette::GREY),
                format!("{} active moves", self.loose.len()),
            ));
            items.push((
                Mark::Ring(palette::VERMILLION),
                format!("{} squares without 2 moves", self.flagged.len()),
            ));
        }
        if !self.apex_joined.is_empty() {
            items.push((
                Mark::Dot(palette::GREEN),
                format!("{} moves to the apex", self.apex_joined.len()),
            ));
        }
        if let Some(g) = &self.geometry {
            if let Some(holes) = g.shape().holes_phrase() {
                items.push((Mark::Square(HOLE), holes));
            }
            if self.wraps() {
                items.push((Mark::None, "moves wrap round the edges".into()));
            }
        }
        legend_row(root, &items, &font, y, w)
    }
}

impl Figure for BoardFigure {
    /// Draw on any backend (the figure fills `root`).
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let (w, h) = root.dim_in_pixel();
        let (w, h) = (w as i32, h as i32);
        let rows = self.board.rows() as i32;
        let cols = self.board.cols() as i32;
        let footer = if self.legend {
            FOOTER as i32
        } else {
            FOOTER as i32 / 3
        };
        let avail_w = (w - 2 * SIDE_MARGIN as i32).max(cols);
        let avail_h = (h - HEADER as i32 - footer).max(rows);
        let cell = (avail_w as f64 / cols as f64).min(avail_h as f64 / rows as f64);
        let board_w = cell * cols as f64;
        let board_h = cell * rows as f64;
        let x0 = (w as f64 - board_w) / 2.0;
        let y0 = HEADER as f64 + (avail_h as f64 - board_h) / 2.0;
        let px = |x: f64| x.round() as i32;
        let centre = |sq: u32| {
            let (r, c) = self.board.coords(sq);
            (
                px(x0 + (c as f64 + 0.5) * cell),
                px(y0 + (r as f64 + 0.5) * cell),
            )
        };

        // Title and subtitle.
        let title_size = (w as f64 / 28.0).clamp(14.0, 26.0);
        root.draw(&Text::new(
            self.title.clone(),
            (w / 2, 8),
            (FONT, title_size)
                .into_font()
                .style(FontStyle::Bold)
                .color(&INK)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(de)?;
        root.draw(&Text::new(
            self.subtitle.clone(),
            (w / 2, 8 + title_size as i32 + 6),
            (FONT, title_size * 0.68)
                .into_font()
                .color(&INK)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(de)?;

        // Squares; a hole dark and crossed.
        for r in 0..rows {
            for c in 0..cols {
                let hole = self
                    .geometry
                    .as_ref()
                    .is_some_and(|g| g.shape().is_hole(self.board.index(r as usize, c as usize)));
                let colour = if hole {
                    HOLE
                } else if (r + c) % 2 == 0 {
                    SQUARE_LIGHT
                } else {
                    SQUARE_DARK
                };
                let tl = (px(x0 + c as f64 * cell), px(y0 + r as f64 * cell));
                let br = (
                    px(x0 + (c + 1) as f64 * cell),
                    px(y0 + (r + 1) as f64 * cell),
                );
                root.draw(&Rectangle::new([tl, br], colour.filled()))
                    .map_err(de)?;
                if hole {
                    for line in [[tl, br], [(tl.0, br.1), (br.0, tl.1)]] {
                        root.draw(&PathElement::new(line.to_vec(), WHITE.stroke_width(1)))
                            .map_err(de)?;
                    }
                }
            }
        }
        root.draw(&Rectangle::new(
            [(px(x0), px(y0)), (px(x0 + board_w), px(y0 + board_h))],
            INK.stroke_width(1),
        ))
        .map_err(de)?;

        // File letters and rank numbers on boards that have algebraic names.
        let label_size = (cell * 0.3).clamp(8.0, 14.0);
        if self.board.has_algebraic_names() && cell >= 14.0 {
            let style = (FONT, label_size).into_font().color(&palette::GREY);
            for c in 0..cols {
                let name = ((b'a' + c as u8) as char).to_string();
                root.draw(&Text::new(
                    name,
                    (px(x0 + (c as f64 + 0.5) * cell), px(y0 + board_h) + 3),
                    style.pos(Pos::new(HPos::Center, VPos::Top)),
                ))
                .map_err(de)?;
            }
            for r in 0..rows {
                root.draw(&Text::new(
                    (rows - r).to_string(),
                    (px(x0) - 4, px(y0 + (r as f64 + 0.5) * cell)),
                    style.pos(Pos::new(HPos::Right, VPos::Center)),
                ))
                .map_err(de)?;
            }
        }

        // Moves. One element per move: plotters joins wide polylines with miters, which
        // spike far beyond the sharp turns a knight's path makes. A move that wraps round
        // an edge is drawn as two halves, from each end towards the other across the edge.
        let line = ((cell / 14.0).round() as u32).clamp(1, 5);
        let segments = |sa: u32, sb: u32| -> Vec<Vec<(i32, i32)>> {
            let (a, b) = (centre(sa), centre(sb));
            let ((dr, dc), wraps) = self.displacement(sa, sb);
            if !wraps {
                return vec![vec![a, b]];
            }
            // From each end along the move until it leaves the board (and a few pixels
            // more, inside the figure's margins).
            let margin = (cell * 0.2).min(10.0);
            let (left, top) = (x0 - margin, y0 - margin);
            let (right, bottom) = (x0 + board_w + margin, y0 + board_h + margin);
            let off = |from: (i32, i32), sign: f64| {
                let (x, y) = (from.0 as f64, from.1 as f64);
                let (vx, vy) = (sign * dc as f64 * cell, sign * dr as f64 * cell);
                let exit = |p: f64, v: f64, lo: f64, hi: f64| {
                    if v > 0.0 {
                        (hi - p) / v
                    } else if v < 0.0 {
                        (lo - p) / v
                    } else {
                        f64::INFINITY
                    }
                };
                let t = exit(x, vx, left, right)
                    .min(exit(y, vy, top, bottom))
                    .min(1.0);
                (px(x + t * vx), px(y + t * vy))
            };
            vec![vec![a, off(a, 1.0)], vec![b, off(b, -1.0)]]
        };
        for &(a, b) in &self.loose {
            for seg in segments(a, b) {
                root.draw(&PathElement::new(seg, palette::GREY.stroke_width(line)))
                    .map_err(de)?;
            }
        }
        let several = self.paths.len() > 1;
        for (i, p) in self.paths.iter().enumerate() {
            let colour = if several {
                palette::series(i)
            } else {
                palette::BLUE
            };
            let mut squares = p.squares.clone();
            if p.closed && p.squares.len() > 2 {
                squares.push(p.squares[0]);
            }
            for pair in squares.windows(2) {
                for seg in segments(pair[0], pair[1]) {
                    root.draw(&PathElement::new(seg, colour.stroke_width(line)))
                        .map_err(de)?;
                }
            }
            // Numbered squares get a node over their centre instead (drawn below).
            if !(self.move_numbers && i == 0) {
                let dot = ((cell * 0.09).round() as i32).max(2);
                for &s in &p.squares {
                    root.draw(&Circle::new(centre(s), dot, colour.filled()))
                        .map_err(de)?;
                }
            }
        }
        for &s in &self.flagged {
            let r = (cell * 0.3).round() as i32;
            root.draw(&Circle::new(
                centre(s),
                r.max(3),
                palette::VERMILLION.stroke_width(line.max(2)),
            ))
            .map_err(de)?;
        }
        for &s in &self.apex_joined {
            let r = ((cell * 0.14).round() as i32).max(2);
            root.draw(&Circle::new(centre(s), r, palette::GREEN.filled()))
                .map_err(de)?;
        }
        // Start and end of marked paths (drawn last, on top); a numbered path marks them
        // with its nodes.
        let numbered = if self.move_numbers { 1 } else { 0 };
        for p in self
            .paths
            .iter()
            .skip(numbered)
            .filter(|p| p.mark_ends && !p.squares.is_empty())
        {
            let r = ((cell * 0.2).round() as i32).max(3);
            let start = centre(p.squares[0]);
            let end = centre(*p.squares.last().expect("non-empty"));
            root.draw(&Circle::new(start, r, palette::GREEN.filled()))
                .map_err(de)?;
            root.draw(&Circle::new(start, r, INK.stroke_width(1)))
                .map_err(de)?;
            root.draw(&Rectangle::new(
                [(end.0 - r, end.1 - r), (end.0 + r, end.1 + r)],
                palette::VERMILLION.filled(),
            ))
            .map_err(de)?;
            root.draw(&Rectangle::new(
                [(end.0 - r, end.1 - r), (end.0 + r, end.1 + r)],
                INK.stroke_width(1),
            ))
            .map_err(de)?;
        }
        // Move numbers along the first path, each in a node over its square's centre:
        // the two moves of a square end under its node, and a move passing a square
        // keeps at least 0.44 of a square from its centre (a knight's move between two
        // other squares crosses only their edges), so no line crosses a number.
        if self.move_numbers
            && let Some(p) = self.paths.first()
        {
            let r = (cell * NODE_RADIUS).round() as i32;
            let digits = p.squares.len().to_string().len() as f64;
            let size = (cell * 0.3).min(1.7 * r as f64 / (0.64 * digits)).max(7.0);
            let last = p.squares.len() - 1;
            for (i, &s) in p.squares.iter().enumerate() {
                let at = centre(s);
                let (fill, ink) = match i {
                    0 if p.mark_ends => (palette::GREEN, WHITE),
                    i if i == last && p.mark_ends => (palette::VERMILLION, WHITE),
                    _ => (WHITE, INK),
                };
                if i == last && p.mark_ends {
                    let square = [(at.0 - r, at.1 - r), (at.0 + r, at.1 + r)];
                    root.draw(&Rectangle::new(square, fill.filled()))
                        .map_err(de)?;
                    root.draw(&Rectangle::new(square, INK.stroke_width(1)))
                        .map_err(de)?;
                } else {
                    root.draw(&Circle::new(at, r, fill.filled())).map_err(de)?;
                    let ring = if i == 0 { INK } else { palette::BLUE };
                    root.draw(&Circle::new(at, r, ring.stroke_width(line.clamp(1, 2))))
                        .map_err(de)?;
                }
                let style = (FONT, size)
                    .into_font()
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center));
                root.draw(&Text::new((i + 1).to_string(), at, style))
                    .map_err(de)?;
            }
        }

        if self.legend {
            let y = h - FOOTER as i32 / 2 + 4;
            self.draw_legend(root, y, w)?;
        }
        Ok(())
    }
}

/// A legend swatch.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Mark {
    Line(RGBColor),
    /// A line in a colour and dash (a series' line: [`Mark::series`]).
    Stroke(RGBColor, palette::Dash),
    Dot(RGBColor),
    Square(RGBColor),
    Ring(RGBColor),
    /// A filled box (bars, bands).
    Box(RGBColor),
    /// A downward triangle: the upper end of an interval with no success
    /// ([`super::panel::interval_bar`]).
    Down(RGBColor),
    None,
}

impl Mark {
    /// The line of the `i`-th series: its colour and dash ([`palette::dash`]).
    pub(crate) fn series(i: usize) -> Mark {
        Mark::Stroke(palette::series(i), palette::dash(i))
    }
}

/// Pixels of a legend item's swatch, the space after it and the gap to the next item.
const SWATCH: i32 = 22;
const AFTER_SWATCH: i32 = 6;
const ITEM_GAP: i32 = 16;
/// Pixels from one legend row to the next.
pub(crate) const LEGEND_ROW: i32 = 28;

/// Each legend item's width in pixels (swatch and text) in `font`.
fn item_widths<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(Mark, String)],
    font: &TextStyle<'_>,
) -> Vec<i32> {
    items
        .iter()
        .map(|(_, t)| {
            let tw = root
                .estimate_text_size(t, font)
                .map(|(tw, _)| tw as i32)
                .unwrap_or(8 * t.len() as i32);
            SWATCH + AFTER_SWATCH + tw
        })
        .collect()
}

/// The legend items split into rows no wider than `w` pixels, in order.
fn legend_lines(widths: &[i32], w: i32) -> Vec<std::ops::Range<usize>> {
    let mut rows = Vec::new();
    let (mut start, mut used) = (0, 0);
    for (i, iw) in widths.iter().enumerate() {
        if i > start && used + ITEM_GAP + iw > w - 8 {
            rows.push(start..i);
            (start, used) = (i, 0);
        }
        used += if i > start { ITEM_GAP + iw } else { *iw };
    }
    if start < widths.len() {
        rows.push(start..widths.len());
    }
    rows
}

/// Draw legend items in centred rows no wider than `w`, the first at height `y` (the
/// vertical centre), the next [`LEGEND_ROW`] lower.
pub(crate) fn legend_row<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(Mark, String)],
    font: &TextStyle<'_>,
    y: i32,
    w: i32,
) -> DrawResult {
    let widths = item_widths(root, items, font);
    for (k, row) in legend_lines(&widths, w).into_iter().enumerate() {
        let y = y + k as i32 * LEGEND_ROW;
        let total: i32 =
            widths[row.clone()].iter().sum::<i32>() + ITEM_GAP * (row.len() as i32 - 1).max(0);
        let mut x = ((w - total) / 2).max(4);
        for i in row {
            let (mark, text) = &items[i];
            draw_mark(root, *mark, x, y, SWATCH)?;
            root.draw(&Text::new(
                text.clone(),
                (x + SWATCH + AFTER_SWATCH, y),
                font.pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(de)?;
            x += widths[i] + ITEM_GAP;
        }
    }
    Ok(())
}

/// Rows the legend of [`legend_below`] takes on `root`.
pub(crate) fn legend_rows<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(Mark, String)],
    px: u32,
) -> usize {
    let font = (FONT, px).into_font().color(&INK);
    let widths = item_widths(root, items, &font);
    legend_lines(&widths, root.dim_in_pixel().0 as i32)
        .len()
        .max(1)
}

/// The part of `root` for a figure's body, `top` pixels below its top edge and `left`
/// and `right` from its sides, above the rows of its [`legend_below`] (50 pixels for one
/// row, [`LEGEND_ROW`] more for each further one).
pub(crate) fn above_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(Mark, String)],
    px: u32,
    (top, left, right): (u32, u32, u32),
) -> DrawingArea<DB, Shift> {
    let rows = legend_rows(root, items, px) as u32;
    root.margin(top, 50 + (rows - 1) * LEGEND_ROW as u32, left, right)
}

/// Draw a figure's legend in centred rows along the bottom of `root`, in `px` text; the
/// last row 24 pixels above the bottom edge, the others above it ([`legend_rows`]).
pub(crate) fn legend_below<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(Mark, String)],
    px: u32,
) -> DrawResult {
    let (w, h) = root.dim_in_pixel();
    let rows = legend_rows(root, items, px) as i32;
    legend_row(
        root,
        items,
        &(FONT, px).into_font().color(&INK),
        h as i32 - 24 - (rows - 1) * LEGEND_ROW,
        w as i32,
    )
}

pub(crate) fn draw_mark<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    mark: Mark,
    x: i32,
    y: i32,
    swatch: i32,
) -> DrawResult {
    let mid = (x + swatch / 2, y);
    match mark {
        Mark::Line(c) => root
            .draw(&PathElement::new(
                vec![(x, y), (x + swatch, y)],
                c.stroke_width(3),
            ))
            .map_err(de),
        Mark::Stroke(c, dash) => {
            let style = c.stroke_width(3);
            match super::panel::dash_pixels(dash, 2) {
                (0, _) => root
                    .draw(&PathElement::new(vec![(x, y), (x + swatch, y)], style))
                    .map_err(de),
                (dash, gap) => root
                    .draw(&DashedPathElement::new(
                        vec![(x, y), (x + swatch, y)],
                        dash,
                        gap,
                        style,
                    ))
                    .map_err(de),
            }
        }
        Mark::Dot(c) => {
            root.draw(&Circle::new(mid, 6, c.filled())).map_err(de)?;
            root.draw(&Circle::new(mid, 6, INK.stroke_width(1)))
                .map_err(de)
        }
        Mark::Square(c) => {
            let r = [(mid.0 - 6, y - 6), (mid.0 + 6, y + 6)];
            root.draw(&Rectangle::new(r, c.filled())).map_err(de)?;
            root.draw(&Rectangle::new(r, INK.stroke_width(1)))
                .map_err(de)
        }
        Mark::Ring(c) => root
            .draw(&Circle::new(mid, 7, c.stroke_width(2)))
            .map_err(de),
        Mark::Box(c) => root
            .draw(&Rectangle::new(
                [(x, y - 7), (x + swatch, y + 7)],
                c.filled(),
            ))
            .map_err(de),
        Mark::Down(c) => root
            .draw(&Polygon::new(
                vec![(mid.0 - 7, y - 5), (mid.0 + 7, y - 5), (mid.0, y + 7)],
                c.filled(),
            ))
            .map_err(de),
        Mark::None => Ok(()),
    }
}

/// Radius of a numbered square's node, as a share of the square's side.
const NODE_RADIUS: f64 = 0.3;

/// Pixels above the board for the title and subtitle.
const HEADER: u32 = 70;
/// Pixels below the board for file letters and the legend.
const FOOTER: u32 = 54;
/// Pixels left and right of the board (rank numbers).
const SIDE_MARGIN: u32 = 26;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Leaper, Shape, Surface};

    fn graph(shape: Shape, surface: Surface) -> KnightGraph {
        let geometry = Geometry::new(shape, Leaper::new(1, 2).unwrap(), surface);
        KnightGraph::from_moves(geometry.moves().unwrap()).unwrap()
    }

    #[test]
    fn a_geometrys_state_is_drawn_on_its_squares_with_wrapped_moves() {
        let board = Board::new(6, 6).unwrap();
        let g = graph(Shape::full(board), Surface::Torus);
        let on = OutputState::new((0..g.edges()).map(|e| e % 3 == 0).collect());
        let fig = BoardFigure::outputs(&g, &on, "t", "s").unwrap();
        let active: Vec<(u32, u32)> = on.active().map(|e| g.endpoints(e)).collect();
        assert_eq!(fig.loose, active);
        assert!(fig.paths.is_empty() && fig.wraps());
        let mut degree = [0; 36];
        for &(a, b) in &active {
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        let off: Vec<u32> = (0..36).filter(|&s| degree[s as usize] != 2).collect();
        assert_eq!(fig.flagged, off);
        // The plane's same state has no wrapped move.
        let plane = graph(Shape::full(board), Surface::Plane);
        let none = OutputState::new(vec![true; plane.edges()]);
        assert!(
            !BoardFigure::outputs(&plane, &none, "t", "s")
                .unwrap()
                .wraps()
        );
    }

    #[test]
    fn holes_are_never_ringed_and_a_cover_is_drawn_as_its_cycles() {
        let board = Board::new(6, 6).unwrap();
        let shape = Shape::new(board, [14, 21]).unwrap();
        let g = graph(shape, Surface::Plane);
        let fig =
            BoardFigure::outputs(&g, &OutputState::new(vec![false; g.edges()]), "t", "s").unwrap();
        assert_eq!(fig.flagged.len(), 34);
        assert!(!fig.flagged.contains(&14) && !fig.flagged.contains(&21));
        // A closed tour of the 6x6 torus, as the network's outputs: drawn as that one
        // cycle on its squares.
        let torus = graph(Shape::full(board), Surface::Torus);
        let request = crate::solvers::on_graph::GraphRequest {
            closed: true,
            start: None,
        };
        let tour = crate::solvers::on_graph::solve(
            &torus,
            &crate::solvers::on_graph::GraphSolver::Circuit,
            &request,
            &mut crate::rng_from_seed(1),
        )
        .unwrap()
        .tour
        .unwrap();
        let cycle = tour.vertices();
        let mut on = vec![false; torus.edges()];
        for (i, &a) in cycle.iter().enumerate() {
            let b = cycle[(i + 1) % cycle.len()];
            on[torus.edge_between(a, b).unwrap()] = true;
        }
        let fig = BoardFigure::outputs(&torus, &OutputState::new(on), "t", "s").unwrap();
        assert!(fig.loose.is_empty() && fig.flagged.is_empty());
        assert_eq!(fig.paths.len(), 1);
        let drawn = &fig.paths[0].squares;
        assert_eq!(drawn.len(), 36);
        let at = drawn.iter().position(|&s| s == cycle[0]).unwrap();
        let mut rotated = drawn.clone();
        rotated.rotate_left(at);
        if rotated[1] != cycle[1] {
            rotated[1..].reverse();
        }
        assert_eq!(rotated, cycle);
    }
}
