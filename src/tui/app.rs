//! The state of `knightnet play` and what each key does. No terminal code here: keys
//! arrive as crossterm [`KeyEvent`]s and the screen is drawn by [`super::ui`] from this
//! state, so tests drive it with synthetic keys and a `TestBackend`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use knightnet::board::Board;
use knightnet::puzzle::complete::{Completion, Hint, SEARCH_BUDGET, complete_on};
use knightnet::puzzle::watch::{Stepper, WatchKind};
use knightnet::puzzle::{Field, Game, Verdict};

use super::keys::{self, Command};

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
    pub stepper: Option<Box<dyn Stepper + Send>>,
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
        App::on(Field::knight(board), seed)
    }

    /// The game on `field`: a leaper, surface and shape beyond the knight's board.
    pub fn on(field: Field, seed: u64) -> App {
        let game = Game::on(field);
        let cursor = game.legal_moves().first().copied().unwrap_or(0);
        let verdict = game.verdict();
        App {
            game,
            cursor,
            input: String::new(),
            message:
                "pick a start square: arrows + Enter, or type its name (c3) or ROW,COL + Enter"
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
                self.message = match (&self.verdict, self.game.ending()) {
                    (_, Some(end)) => {
                        format!("tour complete! every square visited: {} tour", end.name())
                    }
                    (v, None) if v.is_dead() => format!("warning: {}", v.message(b)),
                    (_, None) => format!(
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
        if self.game.current().is_none()
            && let Err(e) = self.game.play(self.cursor)
        {
            self.message = format!("illegal: {e}");
            return;
        }
        let search = complete_on(self.game.field(), self.game.path(), SEARCH_BUDGET);
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
        let field = self.game.field().clone();
        let (stepper, error) = match kind.build(field, self.game.path(), self.cursor, self.seed) {
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
        if let Mode::Watch(w) = &mut self.mode
            && let Some(s) = w.stepper.as_mut()
        {
            for _ in 0..n {
                if !s.step().is_running() {
                    w.paused = true;
                    break;
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
                    "paste cut to {MAX_INPUT} characters: a square is a name like c3 or ROW,COL"
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
        let board = self.board();
        match k.code {
            KeyCode::Up => self.move_cursor(-1, 0),
            KeyCode::Down => self.move_cursor(1, 0),
            KeyCode::Left => self.move_cursor(0, -1),
            KeyCode::Right => self.move_cursor(0, 1),
            KeyCode::Enter => {
                if self.input.is_empty() {
                    self.play(self.cursor);
                } else {
                    let text = std::mem::take(&mut self.input);
                    match board.parse_square(&text) {
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
            // A full field ignores more.
            KeyCode::Char(ch) if keys::types_into_field(board, ch) => {
                if self.input.len() < MAX_INPUT {
                    self.input.push(ch);
                }
            }
            code => match Command::of(code) {
                Some(c) if c.in_play() => self.play_command(c),
                Some(c) => {
                    self.message = format!(
                        "{}: {} is a key of watch mode (W)",
                        key_name(code),
                        c.what()
                    )
                }
                None => {
                    if let KeyCode::Char(ch @ 'a'..='z') = code {
                        self.message = format!(
                            "'{ch}' is neither a file of this board nor a command (see the keys)"
                        );
                    }
                }
            },
        }
    }

    fn play_command(&mut self, c: Command) {
        match c {
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::Hint => self.hint(),
            Command::GiveUp => self.give_up(),
            Command::Watch => self.watch(WatchKind::all().swap_remove(0)),
            Command::New => {
                let cursor = self.cursor;
                *self = App::new(self.board(), self.seed);
                self.cursor = cursor;
                self.message = "new game: pick a start square".into();
            }
            Command::Quit => self.quit = true,
            _ => {}
        }
    }

    fn watch_key(&mut self, k: KeyEvent) {
        let Mode::Watch(w) = &mut self.mode else {
            return;
        };
        let command = match k.code {
            KeyCode::Esc => Some(Command::Watch),
            code => Command::of(code),
        };
        match command {
            Some(Command::RunPause) => w.paused = !w.paused,
            Some(Command::Step) => {
                w.paused = true;
                self.watch_steps(1);
            }
            Some(Command::Faster) => w.speed = w.speed.faster(),
            Some(Command::Slower) => w.speed = w.speed.slower(),
            Some(Command::NextSolver) => {
                let next = w.kind.next();
                self.watch(next);
            }
            Some(Command::New) => {
                let kind = w.kind.clone();
                self.watch(kind);
            }
            Some(Command::Watch) => {
                self.mode = Mode::Play;
                self.message = "back to the game".into();
            }
            Some(Command::Quit) => self.quit = true,
            Some(c) => {
                self.message = format!(
                    "{}: {} is a key of the game (W goes back); N restarts the solver",
                    key_name(k.code),
                    c.what()
                )
            }
            None => {}
        }
    }
}

/// A key as the help names it.
fn key_name(code: KeyCode) -> String {
    match code {
        KeyCode::Char(' ') => "Space".into(),
        KeyCode::Char(ch) => ch.to_ascii_uppercase().to_string(),
        KeyCode::Tab => "Tab".into(),
        other => format!("{other:?}"),
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
        typed(&mut app, "ab");
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
        knightnet::tour::validate(b, app.game.path(), false).unwrap();
    }

    /// Lowercase u, r, h, q act as their keys; they are not typed into the square field.
    #[test]
    fn lowercase_letters_act_unless_they_are_files() {
        let b = Board::new(8, 8).unwrap();
        let mut app = App::new(b, 1);
        typed(&mut app, "a1");
        typed(&mut app, "b3");
        app.key(key(KeyCode::Char('u')));
        assert_eq!(app.game.path().len(), 1, "{}", app.message);
        app.key(key(KeyCode::Char('r')));
        assert_eq!(app.game.path().len(), 2, "{}", app.message);
        assert!(app.input.is_empty(), "{:?}", app.input);
        // h and g are files of 8x8: they start a square name, never a command.
        app.key(key(KeyCode::Char('h')));
        assert_eq!((app.input.as_str(), app.hint), ("h", None));
        app.key(key(KeyCode::Backspace));
        typed(&mut app, "c1");
        assert_eq!(app.game.path().len(), 3);
        // A letter that is neither a file nor a command says so.
        app.key(key(KeyCode::Char('z')));
        assert!(app.message.contains("'z' is neither"), "{}", app.message);
        assert!(app.input.is_empty());
        app.key(key(KeyCode::Char('q')));
        assert!(app.quit);
        // On 5x5 (files a-e), h and g are the hint and give-up commands.
        let b = Board::new(5, 5).unwrap();
        let mut app = App::new(b, 1);
        typed(&mut app, "a1");
        app.key(key(KeyCode::Char('h')));
        assert!(app.hint.is_some(), "{}", app.message);
        app.key(key(KeyCode::Char('g')));
        assert!(app.game.is_complete(), "{}", app.message);
    }

    /// One meaning per key in both modes: R is redo only (watch mode says so) and N
    /// starts again.
    #[test]
    fn one_meaning_per_key_across_modes() {
        let b = Board::new(6, 6).unwrap();
        let mut app = App::new(b, 1);
        app.key(key(KeyCode::Char('W')));
        for _ in 0..5 {
            app.key(key(KeyCode::Char('s')));
        }
        let steps = |app: &App| match &app.mode {
            Mode::Watch(w) => w.stepper.as_ref().unwrap().steps(),
            Mode::Play => panic!("left watch mode"),
        };
        for r in ['r', 'R'] {
            app.key(key(KeyCode::Char(r)));
            assert_eq!(steps(&app), 5);
            assert!(
                app.message.contains("redo is a key of the game"),
                "{}",
                app.message
            );
        }
        app.key(key(KeyCode::Char('n')));
        assert_eq!(steps(&app), 0);
        // In the game, the watch keys are explained, not reinterpreted.
        app.key(key(KeyCode::Char('w')));
        assert!(matches!(app.mode, Mode::Play));
        app.key(key(KeyCode::Tab));
        assert!(app.message.contains("key of watch mode"), "{}", app.message);
        assert!(matches!(app.mode, Mode::Play));
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
