//! Drawing the `play` screen from an [`App`]: a title line, the board on the left, the
//! status and keys on the right, the last message at the bottom. An 80×24 terminal fits
//! every board up to 10×10, and boards of fewer than 100 squares up to 12 columns wide
//! (19 rows at most).
//!
//! Board cells: the move number on each visited square, `.` on unvisited squares, `#` on
//! the holes of a shaped board (dark, never a move), `+` on the knight's legal moves
//! (wrapped moves on a cylinder or torus too), `!` on the square the dead-position
//! warning names; the
//! cursor is drawn in brackets `[ .]`, the knight's square in reverse video. In watch
//! mode the network's active moves are drawn as lines (braille dots, ratatui's canvas)
//! between square centres (a wrapped move straight across the board), each square whose
//! active degree is not 2 shows that degree, and holes show `#`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Line as CanvasLine};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use knightnet::board::Board;
use knightnet::puzzle::watch::{Status, View};
use knightnet::puzzle::{Field, Verdict};
use knightnet::solvers::Outcome;

use super::app::{App, Mode};
use super::keys;

/// Narrowest right-hand panel.
pub const MIN_PANEL: u16 = 25;

/// Digits of the largest move number.
fn digits(board: Board) -> usize {
    board.squares().to_string().len()
}

/// Width of one square's cell: the number plus a bracket column on each side.
fn cell_width(board: Board) -> usize {
    digits(board) + 2
}

/// Width of the rank labels.
fn label_width(board: Board) -> usize {
    board.rows().to_string().len() + 1
}

/// Outer size (with borders) of the board panel.
pub fn board_panel_size(board: Board) -> (u16, u16) {
    let w = label_width(board) + board.cols() * cell_width(board) + 2;
    let h = board.rows() + 3;
    (
        w.min(u16::MAX as usize) as u16,
        h.min(u16::MAX as usize) as u16,
    )
}

/// The smallest terminal `(cols, rows)` that shows `board`.
pub fn needed_size(board: Board) -> (u16, u16) {
    let (w, h) = board_panel_size(board);
    (w.saturating_add(MIN_PANEL), h.saturating_add(2).max(20))
}

fn file_label(board: Board, c: usize) -> String {
    if board.has_algebraic_names() {
        ((b'a' + c as u8) as char).to_string()
    } else {
        c.to_string()
    }
}

fn rank_label(board: Board, r: usize) -> String {
    if board.has_algebraic_names() {
        (board.rows() - r).to_string()
    } else {
        r.to_string()
    }
}

/// Draw the whole screen.
pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    let board = app.board();
    let (need_w, need_h) = needed_size(board);
    if area.width < need_w || area.height < need_h {
        let text = format!(
            "The {board} board needs a terminal of at least {need_w}x{need_h}; this one is {}x{}. Enlarge it, or press Q to quit.",
            area.width, area.height
        );
        f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let [title, middle, message] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let (bw, bh) = board_panel_size(board);
    let [left, right] =
        Layout::horizontal([Constraint::Length(bw), Constraint::Min(MIN_PANEL)]).areas(middle);
    let board_area = Rect {
        height: bh.min(left.height),
        ..left
    };
    f.render_widget(Paragraph::new(title_line(app)), title);
    match &app.mode {
        Mode::Play => {
            draw_path_board(f, app, app.game.path(), board_area, true);
            draw_play_panel(f, app, right);
        }
        Mode::Watch(w) => {
            match w.stepper.as_ref().map(|s| s.view()) {
                Some(View::Edges { edges, degree, .. }) => {
                    draw_edges_board(f, app.game.field(), &edges, &degree, board_area)
                }
                Some(View::Path(path)) => draw_path_board(f, app, path, board_area, false),
                None => draw_path_board(f, app, &[], board_area, false),
            }
            draw_watch_panel(f, app, right);
        }
    }
    let style = if app.message.starts_with("warning") || app.message.starts_with("illegal") {
        Style::default().fg(Color::Red).add_modifier(Modifier::BOLD)
    } else {
        Style::default()
    };
    f.render_widget(
        Paragraph::new(Span::styled(app.message.as_str(), style)),
        message,
    );
}

fn title_line(app: &App) -> Line<'static> {
    let board = app.board();
    let mode = match &app.mode {
        Mode::Play => "play".to_string(),
        Mode::Watch(w) => format!("watch {}", w.kind),
    };
    Line::from(vec![
        Span::styled(
            " knightnet play ",
            Style::default().add_modifier(Modifier::REVERSED),
        ),
        Span::raw(format!(
            " {board} board{} · move {} of {} · {mode}",
            beyond(app),
            app.game.path().len(),
            app.game.field().squares()
        )),
    ])
}

/// The leaper and surface in the title when they are not the knight's plane: ` · zebra ·
/// torus`.
fn beyond(app: &App) -> String {
    let field = app.game.field();
    let g = field.geometry();
    let mut text = String::new();
    if g.leaper() != knightnet::geometry::Leaper::KNIGHT {
        text.push_str(&format!(" · {}", field.piece()));
    }
    if g.surface() != knightnet::geometry::Surface::Plane {
        text.push_str(&format!(" · {}", g.surface()));
    }
    text
}

/// The board with move numbers for `path`.
fn draw_path_board(f: &mut Frame, app: &App, path: &[u32], area: Rect, playing: bool) {
    let board = app.board();
    let d = digits(board);
    let lw = label_width(board);
    let mut number = vec![0usize; board.squares()];
    for (i, &s) in path.iter().enumerate() {
        number[s as usize] = i + 1;
    }
    let knight = path.last().copied();
    let field = app.game.field();
    let legal: Vec<u32> = match (playing, knight) {
        (true, Some(k)) => field
            .moves_from(k)
            .into_iter()
            .filter(|&t| number[t as usize] == 0)
            .collect(),
        _ => Vec::new(),
    };
    let warned = if playing { app.verdict.square() } else { None };
    let mut lines = Vec::with_capacity(board.rows() + 1);
    for r in 0..board.rows() {
        let mut spans = vec![Span::styled(
            format!("{:>w$} ", rank_label(board, r), w = lw - 1),
            Style::default().fg(Color::DarkGray),
        )];
        for c in 0..board.cols() {
            let s = board.index(r, c);
            let n = number[s as usize];
            let (text, mut style) = if n > 0 {
                (format!("{n:>d$}"), Style::default())
            } else if field.is_hole(s) {
                (
                    format!("{:>d$}", "#"),
                    Style::default().fg(Color::DarkGray).bg(Color::Black),
                )
            } else if Some(s) == warned {
                (
                    format!("{:>d$}", "!"),
                    Style::default().fg(Color::White).bg(Color::Red),
                )
            } else if legal.contains(&s) {
                (format!("{:>d$}", "+"), Style::default().fg(Color::Green))
            } else {
                (format!("{:>d$}", "."), Style::default().fg(Color::DarkGray))
            };
            if Some(s) == knight {
                style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
            }
            if Some(s) == app.hint && playing {
                style = style.fg(Color::Yellow).add_modifier(Modifier::BOLD);
            }
            let cursor = playing && s == app.cursor;
            let (open, close) = if cursor { ("[", "]") } else { (" ", " ") };
            let bracket = Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD);
            spans.push(Span::styled(open, bracket));
            spans.push(Span::styled(text, style));
            spans.push(Span::styled(close, bracket));
        }
        lines.push(Line::from(spans));
    }
    lines.push(file_labels(board));
    let block = Block::default().borders(Borders::ALL).title(" board ");
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// The network's active moves as lines (a wrapped move drawn straight across the
/// board, as the game's path draws it), active degrees other than 2, and holes as `#`.
fn draw_edges_board(f: &mut Frame, field: &Field, edges: &[(u32, u32)], degree: &[u8], area: Rect) {
    let board = field.board();
    let holes = field.geometry().shape().holes();
    let block = Block::default().borders(Borders::ALL).title(EDGES_TITLE);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let lw = label_width(board) as u16;
    let grid = Rect {
        x: inner.x + lw,
        width: inner.width.saturating_sub(lw),
        height: inner.height.saturating_sub(1),
        ..inner
    };
    let (rows, cols) = (board.rows() as f64, board.cols() as f64);
    let center = |s: u32| {
        let (r, c) = board.coords(s);
        (c as f64 + 0.5, rows - r as f64 - 0.5)
    };
    let canvas = Canvas::default()
        .marker(Marker::Braille)
        .x_bounds([0.0, cols])
        .y_bounds([0.0, rows])
        .paint(move |ctx| {
            for &(a, b) in edges {
                let (x1, y1) = center(a);
                let (x2, y2) = center(b);
                ctx.draw(&CanvasLine::new(x1, y1, x2, y2, Color::Cyan));
            }
            ctx.layer();
            for &s in holes {
                let (x, y) = center(s);
                ctx.print(
                    x - 0.1,
                    y,
                    Span::styled("#", Style::default().fg(Color::DarkGray).bg(Color::Black)),
                );
            }
            for s in 0..board.squares() as u32 {
                let dg = degree.get(s as usize).copied().unwrap_or(0);
                if dg != 2 && !field.is_hole(s) {
                    let (x, y) = center(s);
                    let color = if dg < 2 { Color::Yellow } else { Color::Red };
                    ctx.print(
                        x - 0.1,
                        y,
                        Span::styled(dg.to_string(), Style::default().fg(color)),
                    );
                }
            }
        });
    f.render_widget(canvas, grid);
    let labels: Vec<Line> = (0..board.rows())
        .map(|r| {
            Line::from(Span::styled(
                format!("{:>w$} ", rank_label(board, r), w = lw as usize - 1),
                Style::default().fg(Color::DarkGray),
            ))
        })
        .collect();
    f.render_widget(
        Paragraph::new(labels),
        Rect {
            width: lw,
            height: grid.height,
            ..inner
        },
    );
    // The file labels under the lines, as under the path board (the canvas stops above).
    f.render_widget(
        Paragraph::new(file_labels(board)),
        Rect {
            y: grid.y + grid.height,
            height: inner.height - grid.height,
            ..inner
        },
    );
}

/// The title of the network's board: short enough for the narrowest board panel that
/// watch mode draws (3x3); what the digits mean is said in the watch panel.
pub const EDGES_TITLE: &str = " network ";

/// The line of file labels under a board, aligned with its cells.
fn file_labels(board: Board) -> Line<'static> {
    let d = digits(board);
    let mut files = vec![Span::raw(" ".repeat(label_width(board)))];
    for c in 0..board.cols() {
        files.push(Span::styled(
            format!(" {:>d$} ", file_label(board, c)),
            Style::default().fg(Color::DarkGray),
        ));
    }
    Line::from(files)
}

/// Width of the key column of the help.
const KEY_COLUMN: usize = 10;

/// The help lines for `keys` in a panel `width` columns wide inside its borders: each
/// description wrapped at word boundaries under its own column, so the keys stay
/// readable on a narrow panel.
fn key_help(keys: &[(String, String)], width: u16) -> Vec<Line<'static>> {
    let room = (width as usize).saturating_sub(KEY_COLUMN).max(8);
    let mut lines = Vec::new();
    for (k, what) in keys {
        let mut rows: Vec<String> = vec![String::new()];
        for word in what.split(' ') {
            let row = rows.last_mut().expect("one row at least");
            if !row.is_empty() && row.chars().count() + 1 + word.chars().count() > room {
                rows.push(word.to_string());
            } else {
                if !row.is_empty() {
                    row.push(' ');
                }
                row.push_str(word);
            }
        }
        for (i, row) in rows.into_iter().enumerate() {
            let key = if i == 0 { k.as_str() } else { "" };
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{key:<KEY_COLUMN$}"),
                    Style::default().fg(Color::Cyan),
                ),
                Span::raw(row),
            ]));
        }
    }
    lines
}

fn draw_play_panel(f: &mut Frame, app: &App, area: Rect) {
    let board = app.board();
    let g = &app.game;
    let mut lines = Vec::new();
    let knight = match g.current() {
        Some(k) => board.square_name(k),
        None => "not placed".into(),
    };
    let piece = g.field().piece();
    let mut piece_title = piece[..1].to_uppercase();
    piece_title.push_str(&piece[1..]);
    lines.push(Line::from(format!(
        "{piece_title} {knight}, {} legal move{}",
        if g.current().is_some() {
            g.legal_moves().len()
        } else {
            0
        },
        if g.legal_moves().len() == 1 { "" } else { "s" }
    )));
    lines.push(Line::from(format!(
        "Cursor {}, redo {}",
        board.square_name(app.cursor),
        g.redo_len()
    )));
    let verdict_style = match &app.verdict {
        v if v.is_dead() => Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
        Verdict::Complete => Style::default()
            .fg(Color::Green)
            .add_modifier(Modifier::BOLD),
        _ => Style::default(),
    };
    lines.push(Line::from(Span::styled(
        app.verdict.message(board),
        verdict_style,
    )));
    lines.push(Line::from(format!("Square: {}_", app.input)));
    lines.push(Line::from(""));
    lines.extend(key_help(
        &keys::play_help(board),
        area.width.saturating_sub(2),
    ));
    let block = Block::default().borders(Borders::ALL).title(" game ");
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

fn draw_watch_panel(f: &mut Frame, app: &App, area: Rect) {
    let Mode::Watch(w) = &app.mode else {
        return;
    };
    let mut lines = vec![Line::from(format!("Solver {}", w.kind))];
    match (&w.stepper, &w.error) {
        (Some(s), _) => {
            let state = match s.status() {
                Status::Running if w.paused => "paused".to_string(),
                Status::Running => "running".to_string(),
                done => match done.outcome() {
                    Some(Ok(Outcome::Tour)) => "solved: tour found".to_string(),
                    Some(Ok(outcome)) => format!("failed: {outcome}"),
                    Some(Err(e)) => format!("failed: {e}"),
                    None => unreachable!("a run that is over"),
                },
            };
            lines.push(Line::from(format!("Step {}", s.steps())));
            lines.push(Line::from(s.counters()));
            lines.push(Line::from(format!("Speed {}, {state}", w.speed.name())));
            match s.view() {
                View::Path(p) => lines.push(Line::from(format!(
                    "Path {} of {} squares",
                    p.len(),
                    app.game.field().squares()
                ))),
                View::Edges {
                    edges,
                    off_two,
                    attempt,
                    ..
                } => {
                    lines.push(Line::from(format!(
                        "Attempt {attempt}, {} active moves",
                        edges.len()
                    )));
                    lines.push(Line::from(Span::styled(
                        format!("Squares with degree ≠ 2: {off_two}"),
                        Style::default().add_modifier(Modifier::BOLD),
                    )));
                    lines.push(Line::from("lines: active moves"));
                    lines.push(Line::from("digits: degree ≠ 2"));
                }
            }
        }
        (None, Some(e)) => lines.push(Line::from(Span::styled(
            e.clone(),
            Style::default().fg(Color::Red),
        ))),
        (None, None) => {}
    }
    lines.push(Line::from(""));
    lines.extend(key_help(&keys::watch_help(), area.width.saturating_sub(2)));
    let block = Block::default().borders(Borders::ALL).title(" watch ");
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}
