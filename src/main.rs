//! The `knightnet` binary: everything happens in [`cli::run`], after the
//! process-wide signal set-up that only a binary may do:
//!
//! - SIGXFSZ is ignored, so a write past `ulimit -f` fails with EFBIG and is reported
//!   like a full disk (exit 1, one line, the temporary file removed) instead of killing
//!   the process with no message.
//! - SIGINT and SIGTERM are taken by a thread (through `signal-hook`) that removes every
//!   temporary file [`knightnet::io`] holds and exits 130 or 143 (128 + the signal). Two
//!   commands handle them themselves and this thread then leaves them alone: `play`
//!   (while the game owns the terminal, see [`tui::owns_signals`]), and
//!   `experiment`, which takes its first SIGINT as "stop after the trials in flight"
//!   ([`cli::experiment::stop_gracefully`]); a second one, or SIGTERM, ends
//!   it here.

mod cli;
#[cfg(feature = "serve")]
mod serve;
mod tui;

fn main() {
    #[cfg(unix)]
    signals();
    std::process::exit(cli::run(std::env::args_os()));
}

#[cfg(unix)]
fn signals() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    // SAFETY: setting a signal's disposition to "ignore" runs no code of ours in a
    // handler; it is done before any other thread exists.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    // Without the thread the default actions stay: the process still ends on the signal
    // (only a temporary file could be left).
    let Ok(mut caught) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        for sig in caught.forever() {
            if tui::owns_signals() || (sig == SIGINT && cli::experiment::stop_gracefully()) {
                continue;
            }
            let name = if sig == SIGINT { "SIGINT" } else { "SIGTERM" };
            cli::say(&format!("interrupted by {name}"));
            knightnet::io::remove_temporary_files_and_exit(128 + sig);
        }
    });
}
