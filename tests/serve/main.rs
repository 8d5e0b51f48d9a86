//! `knightnet serve` against the running server (feature `serve`): the security layer and the Results view's data (results folders and convergence data).
//! Requests are written by hand on a TCP stream, so that paths reach the server exactly as
//! written (an HTTP client would normalise `..` away).

mod convergence;
mod load;
mod play;
mod results;
mod security;
mod server;
mod watch;
