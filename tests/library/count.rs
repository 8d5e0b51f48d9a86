//! Counting: the frontier dynamic program against exhaustive search (the oracle) on
//! every board up to 5x6 in both orientations and on random thin boards, 2-factors
//! against a brute-force count, published values, and the `count` command's contract
//! (bounded time on boards the theorems decide, budgets, memory refusal).

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use knightnet::board::Board;
use knightnet::count::frontier::{self, FrontierRequest, Quantity};
use knightnet::count::{self, Count, CountSpec, Method};
use proptest::prelude::*;

use crate::common::{assert_refused, json_of, knightnet as run_cli};

const GIB: u64 = 1 << 30;

fn spec(board: Board, closed: bool, start: Option<u32>, method: Method) -> CountSpec {
    CountSpec {
        board,
        closed,
        start,
        max_steps: u64::MAX,
        method,
    }
}

/// The exhaustive search's count (the oracle), made once per board, kind and start for
/// the whole test program: the oracle tests below compare several methods with the same
/// searches, which take most of their time. A second caller waits for the first.
fn by_search(board: Board, closed: bool, start: Option<u32>) -> Count {
    type Key = (usize, usize, bool, Option<u32>);
    static SEARCHES: OnceLock<Mutex<HashMap<Key, Arc<OnceLock<Count>>>>> = OnceLock::new();
    let key = (board.rows(), board.cols(), closed, start);
    let slot = SEARCHES
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry(key)
        .or_default()
        .clone();
    slot.get_or_init(|| {
        let c =
            count::search::count(&spec(board, closed, start, Method::Search), |_, _| {}).unwrap();
        assert!(c.complete);
        c
    })
    .clone()
}

fn by_frontier(board: Board, closed: bool, start: Option<u32>) -> Count {
    let c = count::frontier_count(
        &spec(board, closed, start, Method::Frontier),
        4 * GIB,
        |_| {},
    )
    .unwrap();
    assert!(c.complete);
    c
}

fn by_split(board: Board, closed: bool) -> Count {
    let c =
        count::frontier_count(&spec(board, closed, None, Method::Split), 4 * GIB, |_| {}).unwrap();
    assert!(c.complete);
    c
}

/// A request for the whole board, without budget, under 4 GiB.
fn request(board: Board, quantity: Quantity, start: Option<u32>) -> FrontierRequest {
    FrontierRequest {
        board,
        quantity,
        start,
        max_transitions: u64::MAX,
        max_memory: 4 * GIB,
        rows_limit: None,
    }
}

/// The dynamic program itself, without the theorem shortcut.
fn raw(board: Board, quantity: Quantity, start: Option<u32>) -> u128 {
    frontier::run(&request(board, quantity, start), |_| {})
        .unwrap()
        .count
        .unwrap()
}

fn assert_same(board: Board, closed: bool, start: Option<u32>) {
    let s = by_search(board, closed, start);
    let f = by_frontier(board, closed, start);
    assert_eq!(
        (f.directed, f.undirected),
        (s.directed, s.undirected),
        "{board} closed={closed} start={start:?}"
    );
}

/// Frontier against search on every board up to 6 x 6 whose shorter side `short` admits.
fn frontier_matches_search(short: impl Fn(usize) -> bool) {
    for m in 1..=6 {
        for n in 1..=6 {
            if m.min(n) > 5 || !short(m.min(n)) {
                continue;
            }
            let board = Board::new(m, n).unwrap();
            assert_same(board, true, None);
            assert_same(board, false, None);
            // Search over all starts also gives the count from each start.
            let all = by_search(board, false, None);
            for [r, c, k] in all.per_start {
                let s = board.index(r as usize, c as usize);
                let f = by_frontier(board, false, Some(s));
                assert_eq!(f.directed, u128::from(k), "{board} from {r},{c}");
            }
        }
    }
}

#[test]
fn frontier_matches_search_on_every_board_up_to_4x6() {
    frontier_matches_search(|short| short <= 4);
}

#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn frontier_matches_search_on_the_five_rank_boards_up_to_5x6() {
    frontier_matches_search(|short| short == 5);
}

/// The split (two parts joined) counts what the whole-board program and the search
/// count, closed tours and open tours from every start: search up to 5x6, the frontier
/// program beyond, every width the split takes (3 to 8) and both orientations.
fn split_matches_search_and_frontier(
    by_search_boards: &[(usize, usize)],
    closed_boards: &[(usize, usize)],
    open_boards: &[(usize, usize)],
) {
    for &(m, n) in by_search_boards {
        for (board, closed) in [
            (Board::new(m, n).unwrap(), true),
            (Board::new(n, m).unwrap(), true),
            (Board::new(m, n).unwrap(), false),
            (Board::new(n, m).unwrap(), false),
        ] {
            let s = by_search(board, closed, None);
            let t = by_split(board, closed);
            assert_eq!(
                (t.directed, t.undirected),
                (s.directed, s.undirected),
                "{board} closed={closed}"
            );
        }
    }
    for &(m, n) in closed_boards {
        let board = Board::new(m, n).unwrap();
        let f = by_frontier(board, true, None);
        let t = by_split(board, true);
        assert_eq!(t.undirected, f.undirected, "{board}");
        assert_eq!(t.method, Method::Split);
    }
    for &(m, n) in open_boards {
        let board = Board::new(m, n).unwrap();
        let f = by_frontier(board, false, None);
        let t = by_split(board, false);
        assert_eq!(t.undirected, f.undirected, "{board} open");
    }
}

#[test]
fn split_matches_search_and_frontier_on_small_boards() {
    split_matches_search_and_frontier(
        &[(3, 5), (3, 6), (4, 5)],
        &[(3, 8), (7, 4), (4, 12)],
        &[(4, 7), (3, 12)],
    );
}

#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn split_matches_search_and_frontier_up_to_6x8() {
    split_matches_search_and_frontier(
        &[(3, 5), (3, 6), (4, 5), (4, 6), (5, 5), (5, 6)],
        &[
            (6, 6),
            (5, 8),
            (6, 7),
            (3, 16),
            (4, 12),
            (5, 10),
            (6, 8),
            (8, 5),
            (3, 8),
            (7, 4),
        ],
        &[(6, 6), (5, 8), (7, 5), (4, 7), (3, 12), (5, 7)],
    );
}

/// The split without the theorem shortcut finds no tour on boards with none (closed:
/// odd boards, 4 x n; open: 3x5, 3x6): the join rejects every pair (4 x n has pairs
/// to reject).
fn split_finds_no_tour(closed: &[(usize, usize)], open: &[(usize, usize)]) {
    let mut rejected = 0;
    for (m, n, quantity) in closed
        .iter()
        .map(|&(m, n)| (m, n, Quantity::Cycles))
        .chain(open.iter().map(|&(m, n)| (m, n, Quantity::Paths)))
    {
        let board = Board::new(m, n).unwrap();
        let run = count::split::run(&request(board, quantity, None), |_| {}).unwrap();
        assert_eq!(run.count, Some(0), "{board} {quantity:?}");
        rejected += run.pairs_joined;
    }
    assert!(rejected > 0);
}

#[test]
fn split_finds_no_tour_where_the_theorems_say_none_on_small_boards() {
    split_finds_no_tour(&[(5, 5), (3, 7), (4, 8)], &[(3, 5)]);
}

#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn split_finds_no_tour_where_the_theorems_say_none() {
    split_finds_no_tour(
        &[(5, 5), (5, 7), (4, 8), (7, 7), (3, 7), (4, 11)],
        &[(3, 5), (6, 3)],
    );
}

#[test]
fn dynamic_program_finds_no_tour_where_the_theorems_say_none() {
    // Without the shortcut: the program alone must find 0 where the theorems (checked
    // against exhaustive search in the existence module) say there is no tour.
    for m in 1..=5 {
        for n in 1..=7 {
            let board = Board::new(m, n).unwrap();
            let closed = knightnet::existence::closed_tour(board).exists;
            let open = knightnet::existence::open_tour(board).exists;
            assert_eq!(raw(board, Quantity::Cycles, None) > 0, closed, "{board}");
            assert_eq!(raw(board, Quantity::Paths, None) > 0, open, "{board}");
        }
    }
}

/// Brute-force count of 2-factors: every square picks its 2 edges, square by square.
fn brute_two_factors(board: Board) -> u64 {
    fn go(board: Board, v: u32, deg: &mut [u8]) -> u64 {
        let n = board.squares() as u32;
        if v == n {
            return 1;
        }
        if deg[v as usize] == 2 {
            return go(board, v + 1, deg);
        }
        let later: Vec<u32> = board
            .knight_moves(v)
            .filter(|&u| u > v && deg[u as usize] < 2)
            .collect();
        let mut total = 0;
        match deg[v as usize] {
            1 => {
                for &a in &later {
                    deg[a as usize] += 1;
                    total += go(board, v + 1, deg);
                    deg[a as usize] -= 1;
                }
            }
            _ => {
                for i in 0..later.len() {
                    for j in i + 1..later.len() {
                        let (a, b) = (later[i], later[j]);
                        deg[a as usize] += 1;
                        deg[b as usize] += 1;
                        total += go(board, v + 1, deg);
                        deg[a as usize] -= 1;
                        deg[b as usize] -= 1;
                    }
                }
            }
        }
        total
    }
    go(board, 0, &mut vec![0; board.squares()])
}

#[test]
fn two_factors_match_brute_force() {
    let mut nonzero = 0;
    for (m, n) in [
        (3, 4),
        (4, 3),
        (4, 4),
        (3, 6),
        (4, 5),
        (5, 4),
        (5, 5),
        (4, 6),
        (3, 8),
    ] {
        let board = Board::new(m, n).unwrap();
        let f = raw(board, Quantity::TwoFactors, None);
        assert_eq!(f, u128::from(brute_two_factors(board)), "{board}");
        // Every Hamiltonian cycle is a 2-factor.
        assert!(f >= raw(board, Quantity::Cycles, None), "{board}");
        nonzero += usize::from(f > 0);
    }
    assert!(nonzero >= 5);
}

#[test]
fn frontier_reproduces_published_counts() {
    let b = |m, n| Board::new(m, n).unwrap();
    // OEIS A001230 (closed tours on 2n x 2n): 6x6 has 9,862.
    assert_eq!(by_frontier(b(6, 6), true, None).undirected, Some(9862));
    // OEIS A165134 (directed open tours on n x n): 5x5 has 1,728; from a corner 304.
    assert_eq!(by_frontier(b(5, 5), false, None).directed, 1728);
    assert_eq!(by_frontier(b(5, 5), false, Some(0)).directed, 304);
    // OEIS A070030 / A383660 (closed tours on 3 x 2n): 3x10 16, 3x12 176, 3x14 1536,
    // 3x30 126,169,362,176 (A383660 with 2n = 90 cells).
    for (n, k) in [(10, 16), (12, 176), (14, 1536), (30, 126_169_362_176)] {
        assert_eq!(
            by_frontier(b(3, n), true, None).undirected,
            Some(k),
            "3x{n}"
        );
    }
    // OEIS A175881 (closed tours on 6 x n, counted by the split by default): 6x7
    // 1,067,638 to 6x9 3,374,967,940 (6x10 and 6x11 in the full suite, below).
    for (n, k) in [(7, 1_067_638u128), (8, 55_488_142), (9, 3_374_967_940)] {
        assert_eq!(by_split(b(6, n), true).undirected, Some(k), "6x{n}");
    }
    // OEIS A383661 (closed tours of the first 2n cells of a 5-row board; the whole
    // 5 x 2k boards): 5x8 44,202, 5x10 13,311,268, 5x12 4,557,702,762.
    for (n, k) in [(8, 44_202u128), (10, 13_311_268), (12, 4_557_702_762)] {
        assert_eq!(by_split(b(n, 5), true).undirected, Some(k), "{n}x5");
    }
    // OEIS A118067 (directed Hamiltonian paths of the 3 x n knight graph).
    for (n, k) in [
        (4, 16),
        (7, 104),
        (8, 792),
        (9, 1120),
        (10, 6096),
        (12, 114_496),
    ] {
        assert_eq!(by_frontier(b(3, n), false, None).directed, k, "3x{n}");
        assert_eq!(by_frontier(b(n, 3), false, None).directed, k, "{n}x3");
    }
}

/// OEIS A175881 continued: 6x10 239,187,240,144 and 6x11 15,360,134,570,696 closed tours.
#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn split_reproduces_the_published_6x10_and_6x11_counts() {
    for (n, k) in [(10, 239_187_240_144u128), (11, 15_360_134_570_696)] {
        let board = Board::new(6, n).unwrap();
        assert_eq!(by_split(board, true).undirected, Some(k), "6x{n}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random thin boards (3 x n, 4 x n, either way round), every quantity.
    #[test]
    fn frontier_matches_search_on_thin_boards(
        three in any::<bool>(),
        n in 3usize..=10,
        transpose in any::<bool>(),
        kind in 0u8..3,
        start_pick in any::<u32>(),
    ) {
        let m = if three { 3 } else { 4 };
        let n = if three { n } else { n.min(8) };
        let board = if transpose { Board::new(n, m) } else { Board::new(m, n) }.unwrap();
        let start = start_pick % board.squares() as u32;
        if count::split::fits(board) {
            let closed = kind == 0;
            prop_assert_eq!(by_split(board, closed).undirected, by_frontier(board, closed, None).undirected);
        }
        match kind {
            0 => assert_same(board, true, None),
            1 => assert_same(board, false, None),
            _ => assert_same(board, false, Some(start)),
        }
    }
}

/// Run the binary with a wall-time bound (to detect a hang); returns the output.
fn run_bounded(args: &[&str], limit: Duration) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            panic!("{args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `count --board 1x100000 --max-steps 100000` stays bounded: boards the theorems decide
/// are answered at once, and the budget covers the set-up of each start (an O(squares)
/// set-up per start outside it would be quadratic: minutes at 1x10^6).
#[test]
fn count_is_bounded_on_long_boards() {
    let limit = Duration::from_secs(20);
    for method in ["search", "frontier"] {
        let o = run_bounded(
            &[
                "count",
                "--board",
                "1x1000000",
                "--max-steps",
                "100000",
                "--method",
                method,
                "--format",
                "json",
            ],
            limit,
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["directed"], "0");
        assert_eq!(v["complete"], true);
        assert!(v["decided_by"].as_str().unwrap().contains("1x1000000"));
    }
    // A long board with tours: the budget (not the board) bounds the search.
    let o = run_bounded(
        &[
            "count",
            "--board",
            "5x200000",
            "--method",
            "search",
            "--max-steps",
            "100000",
        ],
        limit,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("incomplete"));
}

#[test]
fn count_command_contract() {
    let v = json_of(&["count", "--board", "6x6", "--closed", "--format", "json"]);
    assert_eq!(v["undirected"], "9862");
    assert_eq!(
        v["method"], "split",
        "closed tours are split where the split applies"
    );
    assert!(v["peak_states"].as_u64().unwrap() > 0);
    assert!(v["pairs_joined"].as_u64().unwrap() > 0);
    let v = json_of(&["count", "--board", "4x6", "--format", "json"]);
    assert_eq!(
        v["method"], "split",
        "open tours from every start are split too"
    );
    let v = json_of(&[
        "count", "--board", "4x6", "--start", "a1", "--format", "json",
    ]);
    assert_eq!(
        v["method"], "frontier",
        "open tours from one start: the frontier"
    );
    let v = json_of(&["count", "--board", "4x4", "--closed", "--format", "json"]);
    assert_eq!(v["method"], "frontier", "4x4 is too short for the split");
    let v = json_of(&[
        "count", "--board", "6x6", "--closed", "--method", "frontier", "--format", "json",
    ]);
    assert_eq!(
        (v["undirected"].clone(), v["method"].clone()),
        ("9862".into(), "frontier".into())
    );
    assert_refused(
        &[
            "count", "--board", "6x6", "--method", "split", "--start", "a1",
        ],
        "drop --start",
    );
    let v = json_of(&[
        "count", "--board", "5x6", "--method", "split", "--format", "json",
    ]);
    assert_eq!(
        (v["directed"].clone(), v["method"].clone()),
        ("37568".into(), "split".into())
    );
    assert_refused(
        &["count", "--board", "10x10", "--closed", "--method", "split"],
        "narrow side is 3 to 8",
    );
    // Beyond a --max-memory given (and within the memory there is): exit 2, at once.
    assert_refused(
        &["count", "--board", "8x8", "--closed", "--max-memory", "4"],
        "--max-memory",
    );
    let v = json_of(&[
        "count", "--board", "5x5", "--method", "search", "--format", "json",
    ]);
    assert_eq!(v["directed"], "1728");
    // The frontier budget: too few transitions gives no count and exit 1.
    let o = run_cli(&["count", "--board", "6x6", "--closed", "--max-steps", "1000"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("gave up"));
    // Memory: a wide board is refused before any work, with the estimate: beyond the
    // memory the process has (the default bound), exit 1 naming it; beyond a
    // --max-memory given, exit 2 naming the flag.
    let o = run_cli(&["count", "--board", "12x12", "--closed"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(o.stdout.is_empty());
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    assert!(
        e.contains("(estimate) needs about") && e.contains("free under"),
        "{e}"
    );
    let e = assert_refused(
        &["count", "--board", "12x12", "--closed", "--max-memory", "4"],
        "--max-memory",
    );
    assert!(e.contains("estimate"), "{e}");
    assert_refused(
        &["count", "--board", "6x6", "--max-memory", "0"],
        "--max-memory",
    );
    assert_refused(&["count", "--board", "30x30"], "too large");
    assert_refused(
        &["count", "--board", "6x6", "--profile-rows", "0"],
        "--profile-rows",
    );
    assert_refused(
        &[
            "count",
            "--board",
            "6x6",
            "--two-factors",
            "--method",
            "search",
        ],
        "--method frontier",
    );
    // 2-factors and the ratio H/F.
    let v = json_of(&[
        "count",
        "--board",
        "4x5",
        "--two-factors",
        "--format",
        "json",
    ]);
    assert_eq!(v["closed_tours"], "0");
    let f: u64 = v["two_factors"].as_str().unwrap().parse().unwrap();
    assert_eq!(f, brute_two_factors(Board::new(4, 5).unwrap()));
    // The profile: one state count per processed square.
    let v = json_of(&[
        "count",
        "--board",
        "6x8",
        "--closed",
        "--profile-rows",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(v["states"].as_array().unwrap().len(), 18);
    assert_eq!(v["width"], 6);
    assert!(v["count"].is_null());
    // A profile of the whole board also gives the count; of 2-factors with --two-factors.
    let v = json_of(&[
        "count",
        "--board",
        "4x5",
        "--two-factors",
        "--profile-rows",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(v["count"], f.to_string());
}
