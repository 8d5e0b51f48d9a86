//! `--open` and `--start` of the drawing commands that run the network (`animate`,
//! `convergence`): open tours on the network's open graph, from a held start square.

use clap::Args;

use super::Failure;
use super::flags::start_square;
use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::solvers::Request;

#[derive(Debug, Clone, Default, Args)]
pub struct OpenFlags {
    /// Open tours: run the network on its open graph (the board plus an apex joined to
    /// every square; the apex is not drawn).
    #[arg(long)]
    pub open: bool,
    /// With --open: the square the tour starts on (its apex move held on): ROW,COL
    /// (0-based, row 0 at the top) or algebraic like c3.
    #[arg(long, allow_hyphen_values = true)]
    pub start: Option<String>,
}

impl OpenFlags {
    /// The tours asked for on `board`: open ones (from `--start`) with `--open`, else
    /// the network's closed ones.
    pub fn request(&self, board: Board) -> Result<Request, Failure> {
        if self.start.is_some() && !self.open {
            return Err(InputError::param(
                "--start holds the first square of an open tour; add --open (a closed tour has no start square)",
            )
            .into());
        }
        let start = start_square(board, self.start.as_deref())?;
        Ok(Request {
            closed: self.open.then_some(false).into(),
            start,
            ..Request::new(board)
        })
    }
}
