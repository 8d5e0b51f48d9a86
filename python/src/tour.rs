//! `Tour`: a knight's tour that has passed the library's validity oracle, and the
//! conversions of tours to numpy arrays.

use knightnet::board::Board;
use knightnet::graph::Source;
use knightnet::plot::board::BoardFigure;
use knightnet::tour::Tour;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;

use crate::board::{self, PyBoard};
use crate::graph_solve::Named;
use crate::{errors, figure};

/// A knight's tour, checked by the library's oracle (every square once, every step a
/// knight move, and the last square a knight move from the first when ``closed``).
///
/// ``Tour(board, squares, closed=True)`` checks ``squares``: square numbers
/// (``row * cols + col``) or ``(row, col)`` pairs, in visiting order. A sequence that
/// is not a tour raises ``ValueError`` naming the first fault.
#[pyclass(module = "knightnet", name = "Tour", frozen)]
#[derive(Clone)]
pub struct PyTour {
    pub tour: Tour,
}

#[pymethods]
impl PyTour {
    #[new]
    #[pyo3(signature = (board, squares, closed = true))]
    fn new(board: &Bound<'_, PyAny>, squares: &Bound<'_, PyAny>, closed: bool) -> PyResult<Self> {
        let board = board::extract(board)?;
        let squares = square_numbers(board, squares)?;
        Tour::new(board, squares, closed)
            .map(|tour| PyTour { tour })
            .map_err(errors::tour)
    }

    /// The board.
    #[getter]
    fn board(&self) -> PyBoard {
        PyBoard {
            board: self.tour.board(),
        }
    }

    /// Square numbers in visiting order (a new ``uint32`` array on every access).
    #[getter]
    fn squares<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_slice(py, self.tour.squares())
    }

    /// ``(row, col)`` of every square in visiting order, shape ``(squares, 2)`` (a new
    /// ``int64`` array on every access; the ``"tour"`` of ``solve --format json``).
    #[getter]
    fn coords<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i64>> {
        coords(py, &self.tour)
    }

    /// Whether the last square is a knight move from the first.
    #[getter]
    fn closed(&self) -> bool {
        self.tour.is_closed()
    }

    /// Name of the first square.
    #[getter]
    fn start(&self) -> String {
        self.tour.board().square_name(self.tour.start())
    }

    /// The closed tour started at ``start`` (a square number or name), walked the other
    /// way when ``reverse``; ``ValueError`` if an open tour cannot start there.
    #[pyo3(signature = (start, reverse = false))]
    fn rotated(&self, start: &Bound<'_, PyAny>, reverse: bool) -> PyResult<PyTour> {
        let board = self.tour.board();
        let square = square_arg(board, start)?;
        self.tour
            .rotated(square, reverse)
            .map(|tour| PyTour { tour })
            .ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "this {} tour cannot be started at {} in that direction",
                    if self.tour.is_closed() {
                        "closed"
                    } else {
                        "open"
                    },
                    board.square_name(square)
                ))
            })
    }

    /// Draw the tour (``.png``, ``.svg`` or ``.pdf`` by extension) with the library's
    /// board figure; its squares are written beside it as CSV.
    #[pyo3(signature = (path, title = None, subtitle = None, width = None))]
    fn save_figure(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        title: Option<String>,
        subtitle: Option<String>,
        width: Option<u32>,
    ) -> PyResult<()> {
        let board = self.tour.board();
        let title = title.unwrap_or_else(|| BoardFigure::tour_title(&self.tour));
        let fig = BoardFigure::tour(&self.tour, title, subtitle.unwrap_or_default());
        figure::save(
            py,
            &fig,
            &path,
            width.unwrap_or_else(|| BoardFigure::default_width(board)),
        )
    }

    fn __len__(&self) -> usize {
        self.tour.squares().len()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyTour>()
            .is_ok_and(|o| o.get().tour == self.tour)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Tour: {} on {} from {}>",
            if self.tour.is_closed() {
                "closed"
            } else {
                "open"
            },
            self.tour.board(),
            self.start()
        )
    }
}

/// `(row, col)` rows of a tour.
pub fn coords<'py>(py: Python<'py>, tour: &Tour) -> Bound<'py, PyArray2<i64>> {
    let board = tour.board();
    let mut flat = Vec::with_capacity(tour.squares().len() * 2);
    for &sq in tour.squares() {
        let (r, c) = board.coords(sq);
        flat.push(r as i64);
        flat.push(c as i64);
    }
    let array = ndarray::Array2::from_shape_vec((tour.squares().len(), 2), flat)
        .expect("two numbers per square");
    PyArray2::from_owned_array(py, array)
}

/// Square numbers from a sequence of numbers or of `(row, col)` pairs.
fn square_numbers(board: Board, squares: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    if let Ok(numbers) = squares.extract::<Vec<i64>>() {
        return numbers
            .into_iter()
            .map(|s| {
                if (0..board.squares() as i64).contains(&s) {
                    Ok(s as u32)
                } else {
                    Err(pyo3::exceptions::PyValueError::new_err(format!(
                        "square {s} is not on the {board} board; give 0 to {}",
                        board.squares() - 1
                    )))
                }
            })
            .collect();
    }
    // Pairs as tuples, lists or the rows of an (n, 2) array (what `Tour.tour` is).
    let pairs: Vec<[i64; 2]> = squares.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(
            "squares must be a sequence of square numbers or of (row, col) pairs \
             (tuples, lists, or an (n, 2) array such as Tour.tour)",
        )
    })?;
    pairs.into_iter().map(|[r, c]| pair(board, r, c)).collect()
}

fn pair(board: Board, r: i64, c: i64) -> PyResult<u32> {
    if board.contains(r, c) {
        Ok(board.index(r as usize, c as usize))
    } else {
        Err(pyo3::exceptions::PyValueError::new_err(format!(
            "square ({r}, {c}) is not on the {board} board; rows 0 to {}, columns 0 to {}",
            board.rows() - 1,
            board.cols() - 1
        )))
    }
}

/// A square argument: a number, a `(row, col)` pair, or a name the board parses
/// (`"c3"`, `"2,2"`).
pub fn square_arg(board: Board, arg: &Bound<'_, PyAny>) -> PyResult<u32> {
    if let Ok(text) = arg.extract::<String>() {
        return board.parse_square(&text).map_err(errors::input);
    }
    if let Ok((r, c)) = arg.extract::<(i64, i64)>() {
        return pair(board, r, c);
    }
    match arg.extract::<i64>() {
        Ok(s) if (0..board.squares() as i64).contains(&s) => Ok(s as u32),
        Ok(s) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "square {s} is not on the {board} board; give 0 to {}",
            board.squares() - 1
        ))),
        Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(
            "a square is a number, a (row, col) pair or a name such as 'a1' or '0,0'",
        )),
    }
}

/// `is_tour(board, squares, closed=True, *, leaper, surface, shape, graph)`: whether the
/// oracle accepts the sequence, on the knight's `board` or on the graph the keywords of
/// `solve` name (`board` may then be `None` for a shape or a graph file). On a board,
/// squares are numbers `row * cols + col` or `(row, col)` pairs; on a graph file, the
/// file's vertex numbers. A square or number that is no vertex (off the board, a hole)
/// is not a tour.
#[pyfunction]
#[pyo3(signature = (board, squares, closed = true, *, leaper = None, surface = None,
    shape = None, graph = None))]
#[allow(clippy::too_many_arguments)]
pub fn is_tour<'py>(
    board: Option<&Bound<'py, PyAny>>,
    squares: &Bound<'py, PyAny>,
    closed: bool,
    leaper: Option<&Bound<'py, PyAny>>,
    surface: Option<String>,
    shape: Option<String>,
    graph: Option<std::path::PathBuf>,
) -> PyResult<bool> {
    let board = board.map(board::extract).transpose()?;
    let named = Named::from_keywords(board, leaper, surface, shape, graph)?;
    let off = |e: PyErr| {
        if e.is_instance_of::<pyo3::exceptions::PyValueError>(squares.py()) {
            Ok(false)
        } else {
            Err(e)
        }
    };
    let graph = match named {
        Named::Knight(board) => {
            return match square_numbers(board, squares) {
                Ok(s) => Ok(knightnet::tour::validate(board, &s, closed).is_ok()),
                Err(e) => off(e),
            };
        }
        Named::Graph(graph) => graph,
    };
    let vertices: Option<Vec<u32>> = match graph.source() {
        Source::Geometry(m) => match square_numbers(m.geometry().board(), squares) {
            Ok(s) => s.into_iter().map(|sq| m.vertex(sq)).collect(),
            Err(e) => return off(e),
        },
        _ => {
            let numbers: Vec<i64> = squares.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "on a graph file, squares must be a sequence of the file's vertex numbers",
                )
            })?;
            numbers
                .into_iter()
                .map(|x| {
                    u64::try_from(x)
                        .ok()
                        .and_then(|x| knightnet::json::vertex_from_number(&graph, x))
                })
                .collect()
        }
    };
    Ok(vertices.is_some_and(|v| knightnet::tour::check_on(&graph, &v, closed).is_ok()))
}
