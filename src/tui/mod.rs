//! The terminal front end of `knightnet play` (ratatui + crossterm). The game logic lives
//! in [`knightnet::puzzle`]; [`app`] maps keys to it and [`ui`] draws it. This module owns the
//! terminal: raw mode, bracketed paste and the alternate screen are entered once and
//! always left again, on a normal quit, on an error (a guard's `Drop`), on Ctrl-C (a key
//! in raw mode), on SIGTERM, SIGINT, SIGHUP and SIGQUIT (caught with `signal-hook`: the
//! loop stops, the terminal is restored, then the process ends as the signal would have)
//! and on a panic (a panic hook restores the terminal before the message is printed).
//!
//! SIGTSTP (`kill -TSTP`; in raw mode Ctrl-Z is a key) restores the terminal and stops the
//! process (it raises SIGSTOP); when it continues (SIGCONT, `fg`), the game enters raw
//! mode and the alternate screen again and redraws the whole screen. A SIGCONT after a
//! stop the game did not see (SIGSTOP from outside) redraws the whole screen too.
//!
//! Input is bounded: all queued events are handled before one redraw (at most
//! [`EVENTS_PER_FRAME`]), a paste arrives as one event, and the typed-square field holds
//! at most [`app::MAX_INPUT`] characters.

pub mod app;
pub mod keys;
pub mod ui;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{self, DisableBracketedPaste, EnableBracketedPaste, Event, KeyEventKind};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

pub use app::App;

/// Most events handled between two redraws: a paste of thousands of characters (sent as
/// keys by a terminal without bracketed paste) is taken in a few frames, not one redraw
/// per character.
pub const EVENTS_PER_FRAME: usize = 1024;

/// Where events come from: the terminal, or a script in tests.
pub trait EventSource {
    /// Whether an event is ready within `timeout`.
    fn poll(&mut self, timeout: Duration) -> io::Result<bool>;
    /// The next event (call after `poll` said one is ready).
    fn read(&mut self) -> io::Result<Event>;
}

/// The terminal's events, through crossterm.
struct Crossterm;

impl EventSource for Crossterm {
    fn poll(&mut self, timeout: Duration) -> io::Result<bool> {
        event::poll(timeout)
    }
    fn read(&mut self) -> io::Result<Event> {
        event::read()
    }
}

/// Exit status of a game whose terminal went away without a signal: 128 + SIGHUP, as a
/// shell reports a process the hang-up ended.
#[cfg(unix)]
pub const HUNG_UP_STATUS: i32 = 128 + libc::SIGHUP;

/// Watch the terminal on standard input from a thread, and end the process when it hangs
/// up (its other side closed). A terminal that goes away while it is not the game's
/// controlling terminal (a multiplexer's pane destroyed, for one) sends no SIGHUP, and
/// the terminal library's reader then spins on end-of-file inside its own poll, never
/// returning to the game loop: only a separate thread can see it. There is nothing left
/// to restore, so the process exits at once with [`HUNG_UP_STATUS`].
#[cfg(unix)]
fn exit_when_the_terminal_hangs_up() {
    std::thread::spawn(|| {
        loop {
            let mut fd = libc::pollfd {
                fd: 0,
                events: 0,
                revents: 0,
            };
            // SAFETY: `fd` is one valid pollfd that lives across the call; with no events
            // asked, poll blocks until the descriptor hangs up, fails or is invalid, and
            // writes only `revents`.
            let n = unsafe { libc::poll(&mut fd, 1, -1) };
            if n > 0 && fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                std::process::exit(HUNG_UP_STATUS);
            }
            if n < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return; // cannot watch; the signals still end the game
            }
        }
    });
}

#[cfg(not(unix))]
fn exit_when_the_terminal_hangs_up() {}

/// Wait up to `timeout` for an event, then handle it and every event already queued
/// behind it, at most [`EVENTS_PER_FRAME`]; returns how many were handled. An
/// interrupted wait (a signal) handles none.
pub fn handle_events(
    app: &mut App,
    events: &mut dyn EventSource,
    timeout: Duration,
) -> io::Result<usize> {
    match events.poll(timeout) {
        Ok(true) => {}
        Ok(false) => return Ok(0),
        Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(0),
        Err(e) => return Err(e),
    }
    let mut handled = 0;
    loop {
        match events.read()? {
            Event::Key(k) if k.kind != KeyEventKind::Release => app.key(k),
            Event::Paste(text) => app.paste(&text),
            _ => {}
        }
        handled += 1;
        if app.quit || handled >= EVENTS_PER_FRAME || !events.poll(Duration::ZERO).unwrap_or(false)
        {
            return Ok(handled);
        }
    }
}

/// The game loop: draw, take the queued events, advance the clock; until the user quits
/// or `stop` says so (a signal arrived).
pub fn event_loop(
    app: &mut App,
    events: &mut dyn EventSource,
    mut draw: impl FnMut(&App) -> io::Result<()>,
    stop: impl Fn() -> bool,
) -> io::Result<()> {
    let tick = Duration::from_millis(app::TICK_MS);
    let mut last = Instant::now();
    while !app.quit && !stop() {
        draw(app)?;
        handle_events(app, events, tick.saturating_sub(last.elapsed()))?;
        if last.elapsed() >= tick {
            app.tick();
            last = Instant::now();
        }
    }
    Ok(())
}

/// Leave the game's terminal state: bracketed paste off, cursor shown, alternate screen
/// left, raw mode off. Safe to call more than once; errors are ignored (the terminal may
/// be gone, as after SIGHUP).
pub fn restore_terminal(out: &mut impl Write) {
    let _ = execute!(out, DisableBracketedPaste, cursor::Show);
    ratatui::restore();
}

/// Restores the terminal when dropped.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        restore_terminal(&mut io::stdout());
    }
}

/// Whether the game owns the terminal (and handles SIGINT and SIGTERM itself).
static OWNS_SIGNALS: AtomicBool = AtomicBool::new(false);

/// Whether a game is running and handles SIGINT and SIGTERM itself (restoring the
/// terminal first): the binary's own handler (which removes temporary files and exits)
/// then leaves them to it.
pub fn owns_signals() -> bool {
    OWNS_SIGNALS.load(Ordering::SeqCst)
}

/// Marks the game as handling its signals while alive.
struct OwnSignals;

impl OwnSignals {
    fn take() -> OwnSignals {
        OWNS_SIGNALS.store(true, Ordering::SeqCst);
        OwnSignals
    }
}

impl Drop for OwnSignals {
    fn drop(&mut self) {
        OWNS_SIGNALS.store(false, Ordering::SeqCst);
    }
}

/// Leave the game's terminal state, stop the process (SIGSTOP), and when it continues,
/// enter it again: raw mode, the alternate screen, bracketed paste, the cursor hidden, and
/// the screen cleared so the next draw repaints all of it.
fn suspend(terminal: &mut ratatui::DefaultTerminal) -> io::Result<()> {
    restore_terminal(&mut io::stdout());
    #[cfg(unix)]
    signal_hook::low_level::raise(libc::SIGSTOP)?;
    resume(terminal)
}

/// Enter the game's terminal state again after a stop, and repaint everything.
fn resume(terminal: &mut ratatui::DefaultTerminal) -> io::Result<()> {
    crossterm::terminal::enable_raw_mode()?;
    execute!(
        io::stdout(),
        crossterm::terminal::EnterAlternateScreen,
        EnableBracketedPaste,
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
    )?;
    terminal.hide_cursor()?;
    // Both buffers emptied: the next draw is compared with a blank screen, so it
    // repaints everything (`Terminal::clear` would ask the terminal where its cursor is).
    terminal.swap_buffers();
    Ok(())
}

/// Install a panic hook that restores the terminal, then runs the previous hook.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal(&mut io::stdout());
        previous(info);
    }));
}

/// Run the interactive game until the user quits, or until SIGTERM, SIGINT, SIGHUP or
/// SIGQUIT arrives; in every case the terminal is restored before returning. Returns the
/// signal that ended the game, if one did (the caller then ends the process as that
/// signal would have). SIGTSTP suspends the game (see the module docs).
pub fn run(mut app: App) -> io::Result<Option<i32>> {
    let _own = OwnSignals::take();
    let signals = signals::Caught::register()?;
    install_panic_hook();
    let mut terminal = ratatui::try_init()?;
    let _restore = Restore;
    exit_when_the_terminal_hangs_up();
    execute!(io::stdout(), EnableBracketedPaste)?;
    event_loop(
        &mut app,
        &mut Crossterm,
        |app| {
            if signals.take_suspend() {
                suspend(&mut terminal)?;
                signals.take_resumed();
            } else if signals.take_resumed() {
                resume(&mut terminal)?;
            }
            terminal.draw(|f| ui::draw(f, app)).map(|_| ())
        },
        || signals.caught().is_some(),
    )?;
    Ok(signals.caught())
}

/// The signals that end `play`, caught so that the terminal is restored first.
pub mod signals {
    use std::io;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// SIGTERM (`kill`), SIGINT (`kill -INT`; the Ctrl-C key is read as a key in raw
    /// mode), SIGHUP (the terminal closed) and SIGQUIT (`kill -QUIT`).
    #[cfg(unix)]
    pub const ENDING: [i32; 4] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGQUIT];

    /// Which ending signal arrived, if any. A second one ends the process at once (if
    /// the game were stuck, the user could still stop it). Also whether SIGTSTP (stop
    /// asked) or SIGCONT (continued) arrived since last asked.
    pub struct Caught {
        which: Arc<AtomicUsize>,
        suspend: Arc<AtomicBool>,
        resumed: Arc<AtomicBool>,
    }

    impl Caught {
        /// Register the handlers: the first signal is recorded, a second one exits.
        #[cfg(unix)]
        pub fn register() -> io::Result<Caught> {
            use signal_hook::flag;
            let which = Arc::new(AtomicUsize::new(0));
            let seen = Arc::new(AtomicBool::new(false));
            for sig in ENDING {
                flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&seen))?;
                flag::register(sig, Arc::clone(&seen))?;
                flag::register_usize(sig, Arc::clone(&which), sig as usize)?;
            }
            let suspend = Arc::new(AtomicBool::new(false));
            let resumed = Arc::new(AtomicBool::new(false));
            flag::register(libc::SIGTSTP, Arc::clone(&suspend))?;
            flag::register(libc::SIGCONT, Arc::clone(&resumed))?;
            Ok(Caught {
                which,
                suspend,
                resumed,
            })
        }

        #[cfg(not(unix))]
        pub fn register() -> io::Result<Caught> {
            Ok(Caught {
                which: Arc::new(AtomicUsize::new(0)),
                suspend: Arc::new(AtomicBool::new(false)),
                resumed: Arc::new(AtomicBool::new(false)),
            })
        }

        /// Whether SIGTSTP arrived since last asked.
        pub fn take_suspend(&self) -> bool {
            self.suspend.swap(false, Ordering::SeqCst)
        }

        /// Whether SIGCONT arrived since last asked.
        pub fn take_resumed(&self) -> bool {
            self.resumed.swap(false, Ordering::SeqCst)
        }

        /// The signal that arrived, if one did.
        pub fn caught(&self) -> Option<i32> {
            match self.which.load(Ordering::SeqCst) {
                0 => None,
                s => Some(s as i32),
            }
        }
    }

    /// End the process as `sig` would have, now that the terminal is restored.
    #[cfg(unix)]
    pub fn die_of(sig: i32) -> ! {
        let _ = signal_hook::low_level::emulate_default_handler(sig);
        std::process::exit(128 + sig)
    }
}

/// Render the app into a `cols × rows` test buffer.
pub fn render(app: &App, cols: u16, rows: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(cols, rows)).expect("test backend");
    terminal
        .draw(|f| ui::draw(f, app))
        .expect("drawing to a test backend cannot fail");
    terminal.backend().buffer().clone()
}

/// A buffer as plain text, one line per row, trailing spaces trimmed.
pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut s = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests;
