//! How the apex of the open graph behaves in the network (issue 16, open tours): for
//! each board, `N` attempts of the `parberry` preset on the open graph (free ends, and
//! the corner held as start), drawn as `solve` draws attempts `0..N` of base seed 16.
//!
//! ```text
//! cargo run --release --example open_apex -- [N [ORDER]]   # default 400, parberry's order
//! ```
//!
//! Prints, per board and start: the outcome counts; the apex's mean degree and the mean
//! lowest U of its neurons after the first sweep and at the end; and in how many attempts
//! that ended settled the apex's active edges (the tour's two ends) were already those
//! after the first sweep; and where the tours' ends lie, as the mean row of the end
//! squares scaled to 0 (top row, whose apex neurons a row-major sweep visits first) ..
//! 1 (bottom row).

use knightnet::board::Board;
use knightnet::graph::KnightGraph;
use knightnet::network::{Dynamics, Network, Preset, State, Termination, attempt_rng};

fn main() {
    let n_attempts: u64 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("N is a count of attempts"))
        .unwrap_or(400);
    let mut params = Preset::Parberry.params();
    if let Some(order) = std::env::args().nth(2) {
        params.order = order.parse().expect("an update order");
    }
    for name in ["5x5", "7x7", "8x8", "12x12", "3x10", "4x11"] {
        let board: Board = name.parse().unwrap();
        for start in [None, Some(0)] {
            let graph = KnightGraph::open(board, start);
            let apex = graph.apex().expect("the open graph has an apex");
            let net = Network::new(&graph, params).unwrap();
            let apex_edges = |d: &Dynamics<'_>| -> Vec<u32> {
                graph
                    .incident(apex)
                    .iter()
                    .copied()
                    .filter(|&e| d.state().v()[e as usize] == 1)
                    .collect()
            };
            let lowest_u = |d: &Dynamics<'_>| -> i32 {
                graph
                    .incident(apex)
                    .iter()
                    .map(|&e| d.state().u()[e as usize])
                    .min()
                    .unwrap()
            };
            let mut counts = [0u64; 4];
            let (mut deg1, mut low1, mut deg_end, mut low_end) = (0f64, 0f64, 0f64, 0f64);
            let (mut settled, mut ends_from_sweep_1) = (0u64, 0u64);
            let (mut end_rows, mut ends) = (0f64, 0u64);
            for i in 0..n_attempts {
                let state = State::random(&graph, &params, &mut attempt_rng(16, i));
                let attempt = net.attempt_from(state.clone(), None);
                counts[attempt.termination.index()] += 1;
                let mut d = Dynamics::new(&graph, params, state);
                d.step();
                let first = apex_edges(&d);
                deg1 += first.len() as f64;
                low1 += lowest_u(&d) as f64;
                for _ in 1..attempt.iterations {
                    d.step();
                }
                deg_end += apex_edges(&d).len() as f64;
                low_end += lowest_u(&d) as f64;
                if attempt.termination == Termination::Tour {
                    for e in apex_edges(&d) {
                        let (square, _) = graph.endpoints(e as usize);
                        let row = board.coords(square).0 as f64;
                        end_rows += row / (board.rows() - 1) as f64;
                        ends += 1;
                    }
                }
                if attempt.termination != Termination::IterationCap {
                    settled += 1;
                    ends_from_sweep_1 += (apex_edges(&d) == first) as u64;
                }
            }
            let m = n_attempts as f64;
            println!(
                "{name} {}: {n_attempts} attempts, outcomes {:?} = {counts:?}",
                start.map_or("free ends".to_string(), |s| format!(
                    "from {}",
                    board.square_name(s)
                )),
                Termination::NAMES
            );
            println!(
                "  apex degree after sweep 1 {:.2}, at the end {:.2}; lowest apex U after sweep 1 {:.1}, at the end {:.1} (n = {})",
                deg1 / m,
                deg_end / m,
                low1 / m,
                low_end / m,
                board.squares()
            );
            println!(
                "  ends already those of sweep 1 in {ends_from_sweep_1} of {settled} settled attempts; mean row of tour ends {:.2} (0 top, 1 bottom)",
                end_rows / ends.max(1) as f64
            );
        }
    }
}
