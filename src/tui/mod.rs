//! The terminal front end of `knightnet play` (ratatui + crossterm). The game logic lives
//! in [`crate::puzzle`]; [`app`] maps keys to it and [`ui`] draws it. This module owns the
//! terminal: raw mode and the alternate screen are entered once and always left again,
//! on a normal quit, on an error (a guard's `Drop`), on Ctrl-C (a key in raw mode) and
//! on a panic (a panic hook restores the terminal before the message is printed).

pub mod app;
pub mod ui;

use std::io;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyEventKind};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;

pub use app::App;

/// Restores the terminal when dropped.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

/// Install a panic hook that restores the terminal, then runs the previous hook.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        ratatui::restore();
        previous(info);
    }));
}

/// Run the interactive game until the user quits.
pub fn run(mut app: App) -> io::Result<()> {
    install_panic_hook();
    let mut terminal = ratatui::try_init()?;
    let _restore = Restore;
    let tick = Duration::from_millis(app::TICK_MS);
    let mut last = Instant::now();
    while !app.quit {
        terminal.draw(|f| ui::draw(f, &app))?;
        let timeout = tick.saturating_sub(last.elapsed());
        if event::poll(timeout)? {
            if let Event::Key(k) = event::read()? {
                if k.kind != KeyEventKind::Release {
                    app.key(k);
                }
            }
        }
        if last.elapsed() >= tick {
            app.tick();
            last = Instant::now();
        }
    }
    Ok(())
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
