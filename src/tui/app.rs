//! The state of `knightnet play` and what each key does. No terminal code here: keys
//! arrive as crossterm [`KeyEvent`]s and the screen is drawn by [`super::ui`] from this
//! state, so tests drive it with synthetic keys and a `TestBackend`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::board::Board;
use crate::puzzle::complete::{complete, Completion, Hint, SEARCH_BUDGET};
use crate::puzzle::watch::{Stepper, WatchKind};
use crate::puzzle::{Game, Verdict};

/// Watch-mode speeds: steps per tick (a tick is [`TICK_MS`] ms), or one step every few
/// ticks for the slow speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    /// One step every 10 ticks (2 steps a second).
    Slow,
    /// One step per tick (20 a second).
    Normal,
    /// 50 steps per tick.
    Fast,
    /// 5000 steps per tick.
    Fastest,
}

/// Most characters the typed-square field holds (the longest square name of the largest
/// board, `99999,99999`, has 11).
pub const MAX_INPUT: usize = 16;

/// Milliseconds between ticks of the event loop.
pub const TICK_MS: u64 = 50;

impl Speed {
    pub fn name(self) -> &'static str {
        match self {
            Speed::Slow => "slow",
            Speed::Normal => "normal",
            Speed::Fast => "fast",
            Speed::Fastest => "fastest",
        }
    }

    fn faster(self) -> Speed {
        match self {
            Speed::Slow => Speed::Normal,
            Speed::Normal => Speed::Fast,
            _ => Speed::Fastest,
        }
    }

    fn slower(self) -> Speed {
        match self {
            Speed::Fastest => Speed::Fast,
            Speed::Fast => Speed::Normal,
            _ => Speed::Slow,
        }
    }

    /// Steps to take on tick number `tick`.
    pub fn steps_on_tick(self, tick: u64) -> u64 {
        match self {
            Speed::Slow => tick.is_multiple_of(10) as u64,
            Speed::Normal => 1,
            Speed::Fast => 50,
            Speed::Fastest => 5000,
        }
    }
}

/// A solver being watched.
pub struct Watch {
    pub kind: WatchKind,
    /// `None` when the solver refused the board (the reason is in `error`).
    pub stepper: Option<Box<dyn Stepper>>,
    pub error: Option<String>,
    pub paused: bool,
    pub speed: Speed,
}

/// What the screen shows.
pub enum Mode {
    Play,
    Watch(Watch),
}

/// The whole state of the game screen.
pub struct App {
    pub game: Game,
    /// The highlighted square (moved with the arrow keys).
    pub cursor: u32,
    /// A square name being typed.
    pub input: String,
    /// The last message for the user.
    pub message: String,
    /// The cheap dead-position verdict of the current position.
    pub verdict: Verdict,
    /// The square suggested by the last hint.
    pub hint: Option<u32>,
    pub mode: Mode,
    pub seed: u64,
    pub quit: bool,
    ticks: u64,
}

impl App {
    pub fn new(board: Board, seed: u64) -> App {
        let game = Game::new(board);
        let verdict = game.verdict();
        App {
            game,
            cursor: 0,
            input: String::new(),
            message: "pick a start square: arrows + Enter, or type a square (c3 or 2,3) + Enter"
                .into(),
            verdict,
            hint: None,
            mode: Mode::Play,
            seed,
            quit: false,
            ticks: 0,
        }
    }

    pub fn board(&self) -> Board {
        self.game.board()
    }

    /// Recompute the verdict and the cursor after moves made on `game` directly.
    pub fn play_refresh(&mut self) {
        self.refresh();
        let b = self.board();
        self.message = self.verdict.message(b);
        if self.verdict.is_dead() {
            self.message = format!("warning: {}", self.message);
        }
    }

    fn refresh(&mut self) {
        self.verdict = self.game.verdict();
        self.hint = None;
        if let Some(c) = self.game.current() {
            self.cursor = c;
        }
    }

    /// Move the knight to `square`, reporting illegal moves and a dead position.
    pub fn play(&mut self, square: u32) {
        match self.game.play(square) {
            Ok(()) => {
                self.refresh();
                let b = self.board();
                self.message = match &self.verdict {
                    Verdict::Complete => "tour complete! every square visited".into(),
                    v if v.is_dead() => format!("warning: {}", v.message(b)),
                    _ => format!(
                        "move {} to {}",
                        self.game.path().len(),
                        b.square_name(square)
                    ),
                };
            }
            Err(e) => self.message = format!("illegal: {e}"),
        }
    }

    pub fn undo(&mut self) {
        match self.game.undo() {
            Some(s) => {
                self.refresh();
                self.message = format!("undid the move to {}", self.board().square_name(s));
            }
            None => self.message = "nothing to undo".into(),
        }
    }

    pub fn redo(&mut self) {
        match self.game.redo() {
            Some(s) => {
                self.refresh();
                self.message = format!("redid the move to {}", self.board().square_name(s));
            }
            None => self.message = "nothing to redo".into(),
        }
    }

    /// Point the cursor at the hint: the next move of a tour the solver's search finds
    /// from here (or, when its budget runs out, its first choice: Warnsdorff's move).
    pub fn hint(&mut self) {
        let b = self.board();
        let (square, why) = match self.game.hint() {
            Some(Hint::Completes(h)) => (h, "a tour continues from there"),
            Some(Hint::Warnsdorff(h)) => (h, "Warnsdorff's move; no tour found in the budget"),
            Some(Hint::None) => {
                self.message = "no tour continues this position; undo some moves".into();
                return;
            }
            None if self.game.current().is_none() => {
                self.message = "pick a start square first".into();
                return;
            }
            None => {
                self.message = "the tour is complete".into();
                return;
            }
        };
        self.hint = Some(square);
        self.cursor = square;
        self.message = format!("hint: {} ({why}); Enter plays it", b.square_name(square));
    }

    /// Let the completion search finish the tour from here.
    pub fn give_up(&mut self) {
        if self.game.is_complete() {
            self.message = "the tour is already complete".into();
            return;
        }
        if self.game.current().is_none() {
            self.game.play(self.cursor).expect("any start is legal");
        }
        let search = complete(self.board(), self.game.path(), SEARCH_BUDGET);
        match search.completion {
            Completion::Found(rest) => {
                let from = self.game.path().len();
                self.game
                    .extend(&rest)
                    .expect("the search plays legal moves");
                self.refresh();
                self.message = format!(
                    "solver finished the tour from move {from} ({} search steps); U undoes its moves",
                    search.steps
                );
            }
            Completion::Impossible => {
                self.refresh();
                self.message = format!(
                    "no tour continues this position (proved in {} search steps); undo some moves",
                    search.steps
                );
            }
            Completion::Budget => {
                self.refresh();
                self.message = format!(
                    "the solver gave up after {} search steps; undo some moves and try again",
                    search.steps
                );
            }
        }
    }

    /// Start watching `kind` from the current position (or the cursor square).
    pub fn watch(&mut self, kind: WatchKind) {
        let (stepper, error) =
            match kind.build(self.board(), self.game.path(), self.cursor, self.seed) {
                Ok(s) => (Some(s), None),
                Err(e) => (None, Some(e.to_string())),
            };
        let (paused, speed) = match &self.mode {
            Mode::Watch(w) => (w.paused, w.speed),
            Mode::Play => (true, Speed::Normal),
        };
        self.message = match &error {
            Some(e) => format!("{kind}: {e}"),
            None => format!("watching {kind}: Space run/pause, S step, +/- speed, Tab next"),
        };
        self.mode = Mode::Watch(Watch {
            kind,
            stepper,
            error,
            paused,
            speed,
        });
    }

    /// Take `n` steps of the watched solver.
    pub fn watch_steps(&mut self, n: u64) {
        if let Mode::Watch(w) = &mut self.mode {
            if let Some(s) = w.stepper.as_mut() {
                for _ in 0..n {
                    if !s.step().is_running() {
                        w.paused = true;
                        break;
                    }
                }
            }
        }
    }

    /// One tick of the event loop: advance a running watch.
    pub fn tick(&mut self) {
        self.ticks += 1;
        let n = match &self.mode {
            Mode::Watch(w) if !w.paused => w.speed.steps_on_tick(self.ticks),
            _ => 0,
        };
        if n > 0 {
            self.watch_steps(n);
        }
    }

    /// Handle one key. Ctrl-C and Ctrl-D quit (as in a shell); any other key held with
    /// Ctrl or Alt does nothing (it is not the letter typed).
    pub fn key(&mut self, k: KeyEvent) {
        if k.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(k.code, KeyCode::Char('c' | 'C') | KeyCode::Char('d' | 'D'))
        {
            self.quit = true;
            return;
        }
        if k.modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SUPER)
        {
            return;
        }
        if matches!(self.mode, Mode::Watch(_)) {
            self.watch_key(k);
        } else {
            self.play_key(k);
        }
    }

    /// Pasted text (one event with bracketed paste): in play mode it goes into the
    /// typed-square field, keeping the characters a square name has, at most
    /// [`MAX_INPUT`] in the field; it never runs commands.
    pub fn paste(&mut self, text: &str) {
        if !matches!(self.mode, Mode::Play) {
            return;
        }
        let room = MAX_INPUT.saturating_sub(self.input.len());
        for (kept, ch) in text.chars().filter(|&c| square_char(c)).enumerate() {
            if kept == room {
                self.message = format!(
                    "paste cut to {MAX_INPUT} characters: a square is a name like c3 or 2,3"
                );
                break;
            }
            self.input.push(ch);
        }
    }

    fn move_cursor(&mut self, dr: i64, dc: i64) {
        let b = self.board();
        let (r, c) = b.coords(self.cursor);
        let nr = (r as i64 + dr).clamp(0, b.rows() as i64 - 1) as usize;
        let nc = (c as i64 + dc).clamp(0, b.cols() as i64 - 1) as usize;
        self.cursor = b.index(nr, nc);
    }

    fn play_key(&mut self, k: KeyEvent) {
        match k.code {
            KeyCode::Up => self.move_cursor(-1, 0),
            KeyCode::Down => self.move_cursor(1, 0),
            KeyCode::Left => self.move_cursor(0, -1),
            KeyCode::Right => self.move_cursor(0, 1),
            KeyCode::Enter | KeyCode::Char(' ') => {
                if self.input.is_empty() {
                    self.play(self.cursor);
                } else {
                    let text = std::mem::take(&mut self.input);
                    match self.board().parse_square(&text) {
                        Ok(s) => {
                            self.cursor = s;
                            self.play(s);
                        }
                        Err(e) => self.message = e.to_string(),
                    }
                }
            }
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Esc => {
                if self.input.is_empty() {
                    self.quit = true;
                } else {
                    self.input.clear();
                }
            }
            // A full field ignores more (no other key is a square character).
            KeyCode::Char(ch) if square_char(ch) && self.input.len() < MAX_INPUT => {
                self.input.push(ch);
            }
            KeyCode::Char('U') => self.undo(),
            KeyCode::Char('R') => self.redo(),
            KeyCode::Char('H') => self.hint(),
            KeyCode::Char('G') => self.give_up(),
            KeyCode::Char('W') => self.watch(WatchKind::all().swap_remove(0)),
            KeyCode::Char('N') => {
                let cursor = self.cursor;
                *self = App::new(self.board(), self.seed);
                self.cursor = cursor;
                self.message = "new game: pick a start square".into();
            }
            KeyCode::Char('Q') => self.quit = true,
            _ => {}
        }
    }

    fn watch_key(&mut self, k: KeyEvent) {
        let Mode::Watch(w) = &mut self.mode else {
            return;
        };
        match k.code {
            KeyCode::Char(' ') => w.paused = !w.paused,
            KeyCode::Char('s') | KeyCode::Char('S') | KeyCode::Char('.') => {
                w.paused = true;
                self.watch_steps(1);
            }
            KeyCode::Char('+') | KeyCode::Char('=') | KeyCode::Char('f') => {
                w.speed = w.speed.faster()
            }
            KeyCode::Char('-') | KeyCode::Char('_') | KeyCode::Char('l') => {
                w.speed = w.speed.slower()
            }
            KeyCode::Tab => {
                let next = w.kind.next();
                self.watch(next);
            }
            KeyCode::Char('r') => {
                let kind = w.kind.clone();
                self.watch(kind);
            }
            KeyCode::Esc | KeyCode::Char('W') | KeyCode::Char('w') => {
                self.mode = Mode::Play;
                self.message = "back to the game".into();
            }
            KeyCode::Char('Q') | KeyCode::Char('q') => self.quit = true,
            _ => {}
        }
    }
}

/// A character of a square's name (`c3`, `2,3`).
fn square_char(ch: char) -> bool {
    ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == ','
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    fn typed(app: &mut App, text: &str) {
        for ch in text.chars() {
            app.key(key(KeyCode::Char(ch)));
        }
        app.key(key(KeyCode::Enter));
    }

    #[test]
    fn typing_squares_plays_legal_moves_only() {
        let b = Board::new(8, 8).unwrap();
        let mut app = App::new(b, 1);
        typed(&mut app, "a1");
        typed(&mut app, "a2");
        assert!(app.message.starts_with("illegal"), "{}", app.message);
        typed(&mut app, "b3");
        assert_eq!(app.game.path().len(), 2);
        typed(&mut app, "zz");
        assert!(app.message.contains("malformed"), "{}", app.message);
        app.key(key(KeyCode::Char('U')));
        assert_eq!(app.game.path().len(), 1);
        app.key(key(KeyCode::Char('R')));
        assert_eq!(app.game.path().len(), 2);
        app.key(key(KeyCode::Char('H')));
        assert!(app.hint.is_some());
        app.key(key(KeyCode::Enter));
        assert_eq!(app.game.path().len(), 3);
    }

    #[test]
    fn arrows_and_enter_pick_the_start() {
        let b = Board::new(5, 5).unwrap();
        let mut app = App::new(b, 1);
        app.key(key(KeyCode::Down));
        app.key(key(KeyCode::Right));
        app.key(key(KeyCode::Right));
        app.key(key(KeyCode::Enter));
        assert_eq!(app.game.path(), &[b.index(1, 2)]);
    }

    #[test]
    fn give_up_completes_the_tour() {
        let b = Board::new(8, 8).unwrap();
        let mut app = App::new(b, 1);
        typed(&mut app, "d4");
        app.key(key(KeyCode::Char('G')));
        assert!(app.game.is_complete(), "{}", app.message);
        crate::tour::validate(b, app.game.path(), false).unwrap();
    }

    #[test]
    fn watch_mode_steps_and_leaves() {
        let b = Board::new(6, 6).unwrap();
        let mut app = App::new(b, 1);
        app.key(key(KeyCode::Char('W')));
        for _ in 0..5 {
            app.key(key(KeyCode::Char('s')));
        }
        let Mode::Watch(w) = &app.mode else { panic!() };
        assert_eq!(w.stepper.as_ref().unwrap().steps(), 5);
        app.key(key(KeyCode::Char(' ')));
        app.key(key(KeyCode::Char('+')));
        app.tick();
        let Mode::Watch(w) = &app.mode else { panic!() };
        assert_eq!(w.stepper.as_ref().unwrap().steps(), 55);
        app.key(key(KeyCode::Esc));
        assert!(matches!(app.mode, Mode::Play));
        app.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert!(app.quit);
    }
}
