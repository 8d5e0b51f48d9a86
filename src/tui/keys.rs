//! The keys of `knightnet play` in one table: [`super::app`] dispatches from it and the
//! screen's help ([`play_help`], [`watch_help`]) is written from it, so the two cannot
//! drift apart.
//!
//! One meaning per key in both modes: a key either does the same thing in the game and
//! in watch mode (W watch / back, N start again, Q quit) or belongs to one mode and is
//! explained, not reinterpreted, in the other (R is redo; pressed while watching it says
//! so instead of restarting the solver).
//!
//! Command letters are capitals. A lowercase letter acts as its capital unless it is a
//! file letter of the board (`a`..`h` on 8x8), which always starts a square name: the
//! rule depends only on the board, never on what is in the square field, so a letter
//! does the same thing every time it is typed on a given board.

use crossterm::event::KeyCode;

use knightnet::board::Board;

/// What a key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Undo,
    Redo,
    Hint,
    GiveUp,
    /// Watch mode from the game, back to the game from watch mode.
    Watch,
    /// Start again: a new game, or the watched solver from its start.
    New,
    Quit,
    RunPause,
    Step,
    Faster,
    Slower,
    NextSolver,
}

/// The command letters of the game, in the order the help lists them.
pub const PLAY_LETTERS: [char; 7] = ['U', 'R', 'H', 'G', 'W', 'N', 'Q'];

impl Command {
    /// The command of `code` (a letter in either case), whichever mode it belongs to.
    pub fn of(code: KeyCode) -> Option<Command> {
        Some(match code {
            KeyCode::Tab => Command::NextSolver,
            KeyCode::Char(' ') => Command::RunPause,
            KeyCode::Char('.') => Command::Step,
            KeyCode::Char('+' | '=') => Command::Faster,
            KeyCode::Char('-' | '_') => Command::Slower,
            KeyCode::Char(ch) => match ch.to_ascii_uppercase() {
                'U' => Command::Undo,
                'R' => Command::Redo,
                'H' => Command::Hint,
                'G' => Command::GiveUp,
                'W' => Command::Watch,
                'N' => Command::New,
                'Q' => Command::Quit,
                'S' => Command::Step,
                _ => return None,
            },
            _ => return None,
        })
    }

    /// Whether the command acts in the game (else it acts in watch mode only, except
    /// the commands of both).
    pub fn in_play(self) -> bool {
        !matches!(
            self,
            Command::RunPause
                | Command::Step
                | Command::Faster
                | Command::Slower
                | Command::NextSolver
        )
    }

    /// What it does, for messages.
    pub fn what(self) -> &'static str {
        match self {
            Command::Undo => "undo",
            Command::Redo => "redo",
            Command::Hint => "hint",
            Command::GiveUp => "give up",
            Command::Watch => "watch / back to the game",
            Command::New => "new game / restart the solver",
            Command::Quit => "quit",
            Command::RunPause => "run / pause",
            Command::Step => "single step",
            Command::Faster => "faster",
            Command::Slower => "slower",
            Command::NextSolver => "next solver",
        }
    }
}

/// Whether `ch` is a file letter of `board` (`a`..`h` on 8x8; none on boards wider than
/// 26 columns, whose squares have no algebraic names).
pub fn is_file(board: Board, ch: char) -> bool {
    board.has_algebraic_names()
        && ch.is_ascii_lowercase()
        && ((ch as u8 - b'a') as usize) < board.cols()
}

/// Whether typing `ch` in the game goes into the square field: digits, the comma of
/// `ROW,COL`, and the board's file letters.
pub fn types_into_field(board: Board, ch: char) -> bool {
    ch.is_ascii_digit() || ch == ',' || is_file(board, ch)
}

/// The square the help uses as its example: row 2, column 3 (0-based from the top
/// left), or the nearest square of a smaller board.
fn example(board: Board) -> (usize, usize) {
    (2.min(board.rows() - 1), 3.min(board.cols() - 1))
}

fn pair(k: impl Into<String>, what: impl Into<String>) -> (String, String) {
    (k.into(), what.into())
}

/// The game's keys, as (key, what it does) lines; a line with an empty key continues
/// the one above.
pub fn play_help(board: Board) -> Vec<(String, String)> {
    let (r, c) = example(board);
    let rc = format!("{r},{c} Enter");
    let mut lines = vec![pair("arrows", "move cursor"), pair("Enter", "move there")];
    if board.has_algebraic_names() {
        let name = board.square_name(board.index(r, c));
        lines.push(pair(format!("{name} Enter"), format!("move to {name}")));
        lines.push(pair(rc, format!("{name}: row {r}, column {c},")));
    } else {
        lines.push(pair(rc, format!("move to row {r}, column {c},")));
    }
    lines.push(pair("", "from 0 at the top left"));
    lines.extend([
        pair("U / R", "undo / redo"),
        pair("H / G", "hint / give up (solver)"),
        pair("W", "watch solvers"),
        pair("N / Q", "new game / quit"),
    ]);
    let lower: Vec<String> = PLAY_LETTERS
        .iter()
        .map(|l| l.to_ascii_lowercase())
        .filter(|&l| !is_file(board, l))
        .map(String::from)
        .collect();
    lines.push(pair("lowercase", format!("{} too", lower.join(" "))));
    lines
}

/// Watch mode's keys.
pub fn watch_help() -> Vec<(String, String)> {
    vec![
        pair("Space", "run / pause"),
        pair("S", "single step"),
        pair("+ / -", "faster / slower"),
        pair("Tab", "next solver"),
        pair("N", "restart the solver"),
        pair("W / Esc", "back to the game"),
        pair("Q", "quit"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key the help names does what the help says, in its mode; no key has two
    /// meanings.
    #[test]
    fn one_meaning_per_key() {
        for ch in ('a'..='z').chain('A'..='Z') {
            let lower = Command::of(KeyCode::Char(ch.to_ascii_lowercase()));
            let upper = Command::of(KeyCode::Char(ch.to_ascii_uppercase()));
            assert_eq!(lower, upper, "{ch}");
        }
        assert_eq!(Command::of(KeyCode::Char('r')), Some(Command::Redo));
        assert_eq!(Command::of(KeyCode::Char('n')), Some(Command::New));
        for c in PLAY_LETTERS {
            assert!(Command::of(KeyCode::Char(c)).unwrap().in_play(), "{c}");
        }
    }

    #[test]
    fn files_type_and_other_letters_act() {
        let b = Board::new(8, 8).unwrap();
        assert!(types_into_field(b, 'h') && types_into_field(b, 'a'));
        assert!(!types_into_field(b, 'u') && !types_into_field(b, 'q'));
        let small = Board::new(5, 5).unwrap();
        assert!(!types_into_field(small, 'h') && !types_into_field(small, 'g'));
        let wide = Board::new(3, 30).unwrap();
        assert!(!types_into_field(wide, 'a') && types_into_field(wide, ','));
        let help = play_help(b);
        assert!(help.contains(&pair("d6 Enter", "move to d6")), "{help:?}");
        assert!(help.contains(&pair("2,3 Enter", "d6: row 2, column 3,")));
        assert!(help.contains(&pair("lowercase", "u r w n q too")));
    }
}
