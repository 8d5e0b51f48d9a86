//! The `knightnet` binary: everything happens in [`knightnet::cli::run`].

fn main() {
    std::process::exit(knightnet::cli::run(std::env::args_os()));
}
