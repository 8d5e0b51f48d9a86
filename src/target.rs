//! Where a tour is looked for when it is not the knight on a whole plane board: a
//! geometry (any leaper, surface and shape) or a graph read from a file, each read once
//! at the edge (command-line flags, spec keys) and handed on typed. `solve`, `exists`,
//! `count`, `compare` and experiment cells all name their graph through it.

use std::path::{Path, PathBuf};

use crate::board::Board;
use crate::error::{Error, InputError, Param, Phrase};
use crate::geometry::{Geometry, Leaper, Shape, Surface};
use crate::graph::KnightGraph;
use crate::graph_file::FileGraph;

/// A geometry that is not the plain knight, or a graph read from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A leaper, a surface and a shape.
    Geometry(Geometry),
    /// A graph read from the file at `path`.
    File {
        /// The file it was read from, as named where it was given (resolved against the
        /// spec's folder for a spec's `graph` key).
        path: PathBuf,
        /// The graph.
        graph: FileGraph,
    },
}

/// What a board and the geometry settings name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    /// The knight on a whole plane board.
    Knight(Board),
    /// Anything else.
    Other(Target),
}

impl Target {
    /// What a board (or a shape, which brings its own board), a leaper (default the
    /// knight) and a surface (default the plane) name: [`Named::Knight`] when that is the
    /// knight on a whole plane board. Refused when neither a board nor a shape is given.
    /// A graph file is named by [`Target::read_file`] alone.
    pub fn name(
        board: Option<Board>,
        shape: Option<Shape>,
        leaper: Option<Leaper>,
        surface: Option<Surface>,
    ) -> Result<Named, InputError> {
        let shape = match (shape, board) {
            (Some(shape), _) => shape,
            (None, Some(board)) => Shape::full(board),
            (None, None) => {
                return Err(InputError::named(
                    Phrase::new()
                        .text("give ")
                        .param(Param::Board)
                        .text(", ")
                        .param(Param::Shape)
                        .text(" or ")
                        .param(Param::Graph),
                ));
            }
        };
        let geometry = Geometry::new(
            shape,
            leaper.unwrap_or(Leaper::KNIGHT),
            surface.unwrap_or(Surface::Plane),
        );
        Ok(if geometry.is_plain_knight() {
            Named::Knight(geometry.board())
        } else {
            Named::Other(Target::Geometry(geometry))
        })
    }

    /// The graph read from the file at `path` ([`FileGraph::read`]).
    pub fn read_file(path: &Path) -> Result<Target, Error> {
        Ok(Target::File {
            path: path.to_path_buf(),
            graph: FileGraph::read(path)?,
        })
    }

    /// The graph the solvers of [`crate::solvers::on_graph`] run on (refused when it
    /// would not fit memory or 32-bit indices).
    pub fn graph(&self) -> Result<KnightGraph, InputError> {
        Ok(match self {
            Target::Geometry(g) => KnightGraph::from_moves(g.moves()?)?,
            Target::File { graph, .. } => KnightGraph::from_file(graph.clone())?,
        })
    }

    /// The geometry, for a geometry target.
    pub fn geometry(&self) -> Option<&Geometry> {
        match self {
            Target::Geometry(g) => Some(g),
            Target::File { .. } => None,
        }
    }

    /// The graph file's name in labels and seeds: its stem (`petersen` for
    /// `graphs/petersen.dimacs`), the same from any working folder.
    pub fn file_stem(path: &Path) -> String {
        path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into(),
        )
    }

    /// How summaries, figures and comparisons name it: the board followed by what
    /// differs from the knight on the plane (`8x8 torus (2,3)-leaper`, `6x6 cylinder`,
    /// `8x8 with 2 holes`), or `graph NAME` (the file's stem).
    pub fn label(&self) -> String {
        match self {
            Target::Geometry(g) => {
                let mut s = g.board().to_string();
                if g.surface() != crate::geometry::Surface::Plane {
                    s += &format!(" {}", g.surface());
                }
                if g.leaper() != crate::geometry::Leaper::KNIGHT {
                    s += &format!(" ({})-leaper", g.leaper());
                }
                if let Some(h) = g.shape().holes_phrase() {
                    s += &format!(" with {h}");
                }
                s
            }
            Target::File { path, .. } => format!("graph {}", Target::file_stem(path)),
        }
    }

    /// The text that enters the seeds of an experiment cell on it, after its label:
    /// the board, leaper and surface, and a shape's picture (rows joined by `/`), or
    /// `graph NAME`; never a bare board, so a cell on a target never shares its seeds
    /// with the knight's cell of the same label and board.
    pub fn seed_text(&self) -> String {
        match self {
            Target::Geometry(g) => {
                let mut s = format!("{} leaper {} {}", g.board(), g.leaper(), g.surface());
                if !g.shape().is_full() {
                    s += &format!(" shape {}", shape_text(g));
                }
                s
            }
            Target::File { .. } => self.label(),
        }
    }
}

/// A geometry's shape as one line: the picture's rows joined by `/` (`..#/.../...`),
/// which [`parse_shape_line`] reads back.
pub fn shape_text(g: &Geometry) -> String {
    g.shape().to_string().trim_end().replace('\n', "/")
}

/// A shape written by [`shape_text`].
pub fn parse_shape_line(text: &str) -> Result<crate::geometry::Shape, InputError> {
    text.replace('/', "\n").parse()
}
