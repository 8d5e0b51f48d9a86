//! `Board`: a rectangular board, and the board arguments every function takes (a
//! `Board` or a `"ROWSxCOLS"` string).

use knightnet::board::Board;
use pyo3::prelude::*;

use crate::errors;

/// A rectangular board of ``rows`` x ``cols`` squares (each side 1 to 1,000,000).
///
/// Squares are numbered ``row * cols + col`` from 0 at the top left (row 0 is the top
/// rank, as the command line prints boards); ``square_name`` gives the algebraic name on
/// boards up to 26 columns (``a1`` is the bottom left), ``row,col`` otherwise.
#[pyclass(module = "knightnet", name = "Board", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyBoard {
    pub board: Board,
}

#[pymethods]
impl PyBoard {
    #[new]
    fn new(rows: usize, cols: usize) -> PyResult<PyBoard> {
        Board::new(rows, cols)
            .map(|board| PyBoard { board })
            .map_err(errors::input)
    }

    /// A board from its text ``"ROWSxCOLS"`` (as ``--board`` takes it).
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyBoard> {
        text.parse()
            .map(|board| PyBoard { board })
            .map_err(errors::input)
    }

    /// Number of rows (ranks).
    #[getter]
    fn rows(&self) -> usize {
        self.board.rows()
    }

    /// Number of columns (files).
    #[getter]
    fn cols(&self) -> usize {
        self.board.cols()
    }

    /// Number of squares.
    #[getter]
    fn squares(&self) -> usize {
        self.board.squares()
    }

    /// The square's name: algebraic (``c3``) on boards up to 26 columns, else ``row,col``.
    fn square_name(&self, square: u32) -> PyResult<String> {
        self.check_square(square)?;
        Ok(self.board.square_name(square))
    }

    /// The square named ``text``: ``ROW,COL`` (0-based, row 0 at the top) or algebraic.
    fn parse_square(&self, text: &str) -> PyResult<u32> {
        self.board.parse_square(text).map_err(errors::input)
    }

    /// ``(row, col)`` of a square number.
    fn coords(&self, square: u32) -> PyResult<(usize, usize)> {
        self.check_square(square)?;
        Ok(self.board.coords(square))
    }

    /// The squares a knight reaches from ``square``.
    fn knight_moves(&self, square: u32) -> PyResult<Vec<u32>> {
        self.check_square(square)?;
        Ok(self.board.knight_moves(square).collect())
    }

    fn __str__(&self) -> String {
        self.board.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Board({}, {})", self.board.rows(), self.board.cols())
    }
}

impl PyBoard {
    fn check_square(&self, square: u32) -> PyResult<()> {
        if (square as usize) < self.board.squares() {
            Ok(())
        } else {
            Err(pyo3::exceptions::PyValueError::new_err(format!(
                "square {square} is not on the {} board; give 0 to {}",
                self.board,
                self.board.squares() - 1
            )))
        }
    }
}

/// A board argument: a `Board` or its text `"ROWSxCOLS"`.
pub fn extract(arg: &Bound<'_, PyAny>) -> PyResult<Board> {
    if let Ok(b) = arg.cast::<PyBoard>() {
        return Ok(b.get().board);
    }
    match arg.extract::<String>() {
        Ok(text) => text.parse().map_err(errors::input),
        Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(
            "board must be a knightnet.Board or a string 'ROWSxCOLS' such as '8x8'",
        )),
    }
}
