//! The first implementation of Warnsdorff's rule (bounds checks on every move, keys
//! computed on the fly), kept as the oracle that every walk must reproduce move for move
//! and tie for tie (tests only).

use rand::Rng as _;

use super::frame::VISITED;
use super::squirrel_cull::squirrel_cull_table;
use super::{Run, TieBreak};
use crate::Rng;
use crate::board::{Board, KNIGHT_OFFSETS};

/// One run of Warnsdorff's rule from `start` with the given tie-break. `rng` is used
/// only by [`TieBreak::Random`]. Works on any board size the caller can afford.
pub(super) fn run(board: Board, start: u32, tie: TieBreak, rng: &mut Rng) -> Run {
    // Squirrel–Cull is defined from the top-left corner of a square board; the other
    // corners run in the reflected frame and map back.
    let (rows, cols) = (board.rows(), board.cols());
    let (sr, sc) = board.coords(start);
    let (flip_r, flip_c) = if tie == TieBreak::SquirrelCull
        && rows == cols
        && (sr == 0 || sr == rows - 1)
        && (sc == 0 || sc == cols - 1)
    {
        (sr != 0, sc != 0)
    } else {
        (false, false)
    };
    let map = |r: usize, c: usize| {
        (
            if flip_r { rows - 1 - r } else { r },
            if flip_c { cols - 1 - c } else { c },
        )
    };
    let (vr, vc) = map(sr, sc);
    let mut out = run_frame(board, (vr, vc), tie, rng);
    if flip_r || flip_c {
        for s in out.path.iter_mut() {
            let (r, c) = board.coords(*s);
            let (r, c) = map(r, c);
            *s = board.index(r, c);
        }
    }
    out
}

fn run_frame(board: Board, start: (usize, usize), tie: TieBreak, rng: &mut Rng) -> Run {
    let (rows, cols) = (board.rows(), board.cols());
    let n = board.squares();
    let offs: Vec<(i64, i64, i64)> = KNIGHT_OFFSETS
        .iter()
        .map(|&(dr, dc)| (dr as i64, dc as i64, dr as i64 * cols as i64 + dc as i64))
        .collect();
    let on = |r: usize, c: usize, k: usize| -> bool {
        let (nr, nc) = (r as i64 + offs[k].0, c as i64 + offs[k].1);
        nr >= 0 && nc >= 0 && (nr as usize) < rows && (nc as usize) < cols
    };
    // deg[s] = number of unvisited neighbours of s, or VISITED.
    let mut deg = vec![0u8; n];
    for r in 0..rows {
        for c in 0..cols {
            deg[r * cols + c] = (0..8).filter(|&k| on(r, c, k)).count() as u8;
        }
    }
    let table = if tie == TieBreak::SquirrelCull {
        squirrel_cull_table(rows)
    } else {
        Vec::new()
    };
    let mut rule = 0usize;
    // Doubled coordinates of the centre, for Roth's distance.
    let (cr2, cc2) = (rows as i64 - 1, cols as i64 - 1);
    let dist2 = |r: usize, c: usize| {
        let (a, b) = (2 * r as i64 - cr2, 2 * c as i64 - cc2);
        a * a + b * b
    };

    let mut path = Vec::with_capacity(n);
    let (mut r, mut c) = start;
    let mut ties = 0u64;
    loop {
        let s = r * cols + c;
        path.push(s as u32);
        deg[s] = VISITED;
        // Candidates: unvisited neighbours, after removing s from their counts.
        let mut cand = [(0usize, 0u8); 8];
        let mut nc = 0;
        for (k, off) in offs.iter().enumerate() {
            if on(r, c, k) {
                let t = (s as i64 + off.2) as usize;
                if deg[t] != VISITED {
                    deg[t] -= 1;
                    cand[nc] = (k, deg[t]);
                    nc += 1;
                }
            }
        }
        if nc == 0 {
            break;
        }
        if let Some(ord) = table.get(rule)
            && ord.until == Some((r, c))
            && rule + 1 < table.len()
        {
            rule += 1;
        }
        let min = cand[..nc].iter().map(|x| x.1).min().unwrap();
        let mut tied = [0usize; 8];
        let mut nt = 0;
        for &(k, d) in &cand[..nc] {
            if d == min {
                tied[nt] = k;
                nt += 1;
            }
        }
        let target = |k: usize| (r as i64 + offs[k].0, c as i64 + offs[k].1);
        let k = if nt == 1 {
            tied[0]
        } else {
            ties += 1;
            match tie {
                TieBreak::First => tied[0],
                TieBreak::Random => tied[rng.random_range(0..nt)],
                TieBreak::Roth => *tied[..nt]
                    .iter()
                    .max_by_key(|&&k| {
                        let (tr, tc) = target(k);
                        // Largest distance; among equals the first in clockwise order.
                        (dist2(tr as usize, tc as usize), std::cmp::Reverse(k))
                    })
                    .unwrap(),
                TieBreak::Pohl => *tied[..nt]
                    .iter()
                    .min_by_key(|&&k| {
                        let (tr, tc) = target(k);
                        let (tr, tc) = (tr as usize, tc as usize);
                        let t = tr * cols + tc;
                        let sum: u32 = (0..8)
                            .filter(|&j| on(tr, tc, j))
                            .map(|j| deg[(t as i64 + offs[j].2) as usize])
                            .filter(|&d| d != VISITED)
                            .map(u32::from)
                            .sum();
                        (sum, k)
                    })
                    .unwrap(),
                TieBreak::SquirrelCull => {
                    let ord = &table[rule];
                    *tied[..nt].iter().min_by_key(|&&k| ord.rank[k]).unwrap()
                }
            }
        };
        let (nr, ncol) = target(k);
        r = nr as usize;
        c = ncol as usize;
    }
    Run { path, ties }
}
