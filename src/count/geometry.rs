//! The frontier program ([`super::frontier`]) on a geometry beyond the knight's
//! rectangle: any leaper, the cylinder and the torus, boards with holes.
//!
//! The program works on any graph whose vertices are put in a processing order: it
//! keeps the squares that can still receive an edge, the last `p` processed, where `p`
//! (the window) is the largest span of an edge in that order. Its cost grows roughly
//! geometrically with `p`, so the order is chosen to make it small, and the window
//! decides where the frontier applies at all (at most [`MAX_WINDOW`] squares, what the
//! packed state holds):
//!
//! - **plane** (any leaper, holes or not): row by row along the rows or along the
//!   columns, whichever gives the smaller window; an (r, s)-leaper on `w` columns spans
//!   up to `s·w + r` (the knight's `2w + 1`);
//! - **cylinder** (the columns wrap): row by row, so that a move round the seam stays
//!   within `s` rows (up to `(s + 1)·w - 1`); column by column a move round the seam
//!   would span the whole board;
//! - **torus**: row by row as well, but a move round the rows' seam spans the whole
//!   board, so only tori of at most about [`MAX_WINDOW`] squares fit; the others are
//!   counted by exhaustive search (tours) or refused (2-factors).
//!
//! Holes are not vertices: the order skips them, so they shorten spans rather than sit
//! in the window. Each square's degree bound and its neighbours are the move graph's,
//! whatever the leaper.

use super::frontier::{self, FrontierRequest, FrontierRun, MAX_WINDOW, Plan, Quantity};
use crate::error::{Hint, InputError, Param, Refusal, Setting};
use crate::geometry::{MoveGraph, Surface};

pub use super::frontier::Progress;

/// The processing order of a move graph and the window it needs.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Processing index -> vertex of the move graph.
    order: Vec<u32>,
    /// The neighbours of each processing index, as processing indices.
    neighbours: Vec<Vec<usize>>,
    /// Whether the board is processed column by column (plane only).
    pub by_columns: bool,
    /// The squares of a processing line (the board's columns, or its rows when
    /// `by_columns`).
    pub line: usize,
    /// The window: the largest span of an edge in the order.
    pub window: usize,
}

impl Layout {
    /// The order with the smaller window for `graph` (see the module docs).
    pub fn of(graph: &MoveGraph) -> Layout {
        let board = graph.geometry().board();
        let rows = Layout::ordered(graph, false, board.cols());
        if graph.geometry().surface() != Surface::Plane {
            return rows;
        }
        let cols = Layout::ordered(graph, true, board.rows());
        if cols.window < rows.window {
            cols
        } else {
            rows
        }
    }

    fn ordered(graph: &MoveGraph, by_columns: bool, line: usize) -> Layout {
        let board = graph.geometry().board();
        let mut order: Vec<u32> = (0..graph.vertices() as u32).collect();
        if by_columns {
            order.sort_by_key(|&v| {
                let (r, c) = board.coords(graph.square(v));
                (c, r)
            });
        }
        let mut index = vec![0usize; order.len()];
        for (i, &v) in order.iter().enumerate() {
            index[v as usize] = i;
        }
        let neighbours: Vec<Vec<usize>> = order
            .iter()
            .map(|&v| {
                graph
                    .neighbours(v)
                    .iter()
                    .map(|&u| index[u as usize])
                    .collect()
            })
            .collect();
        let window = frontier::window(&neighbours);
        Layout {
            order,
            neighbours,
            by_columns,
            line,
            window,
        }
    }

    /// Whether the frontier program takes this order: its window fits the state.
    pub fn fits(&self) -> bool {
        self.window <= MAX_WINDOW
    }

    /// The vertex processed at index `i`.
    pub fn vertex(&self, i: usize) -> u32 {
        self.order[i]
    }

    /// What the order is, in words: `row by row, window 13 squares`.
    pub fn describe(&self) -> String {
        format!(
            "{}, window {} squares",
            if self.by_columns {
                "column by column"
            } else {
                "row by row"
            },
            self.window
        )
    }
}

/// Count `quantity` (cycles, paths from every start, or 2-factors) on `graph` by the
/// frontier program, within `max_transitions` and `max_memory` (bytes, as
/// [`FrontierRequest`]); refused in one line when the window does not fit the state.
pub fn run(
    graph: &MoveGraph,
    layout: &Layout,
    quantity: Quantity,
    max_transitions: u64,
    max_memory: u64,
    progress: &mut dyn FnMut(Progress),
) -> Result<FrontierRun, InputError> {
    let geometry = graph.geometry();
    if !layout.fits() {
        return Err(InputError::too_large(
            Refusal::new(format!(
                "the frontier method cannot count on {}: its processing order ({}) needs a window of {} squares, and the state holds at most {MAX_WINDOW}; count it by exhaustive search",
                describe(graph),
                if layout.by_columns {
                    "column by column"
                } else {
                    "row by row"
                },
                layout.window
            ))
            .hint(Hint::Use(Setting::with(Param::Method, "search"))),
        ));
    }
    let plan = Plan::from_neighbours(
        quantity,
        layout.line.max(1),
        layout.window,
        &layout.neighbours,
        None,
        false,
    );
    let req = FrontierRequest {
        board: geometry.board(),
        quantity,
        start: None,
        max_transitions,
        max_memory,
        rows_limit: None,
    };
    frontier::run_plan(&req, &plan, progress)
}

/// The geometry in words, as refusals name it: `the (2,3) leaper on 6x6 (cylinder)`.
fn describe(graph: &MoveGraph) -> String {
    let g = graph.geometry();
    let holes = g.shape().holes().len();
    format!(
        "the ({}) leaper on {} ({}{})",
        g.leaper(),
        g.board(),
        g.surface(),
        match holes {
            0 => String::new(),
            1 => ", 1 hole".to_string(),
            k => format!(", {k} holes"),
        }
    )
}
