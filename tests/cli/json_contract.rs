//! The one JSON shape (docs/json.md): every `--format json` document carries the
//! provenance object and its command's name, a board as `{"rows", "cols"}` and a square
//! as `[row, col]` with its name beside it.

use crate::common::knightnet;
use knightnet::board::Board;
use serde_json::{Value, json};

/// The JSON a command printed (whatever its exit status: `exists` answers "no" with 1).
fn document(args: &[&str]) -> Value {
    let out = knightnet(args);
    assert_ne!(
        out.status.code(),
        Some(2),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn assert_contract(doc: &Value, command: &str, board: Board) {
    let k = &doc["knightnet"];
    assert_eq!(k["version"], env!("CARGO_PKG_VERSION"), "{command}: {doc}");
    assert_eq!(k["engine_version"], knightnet::ENGINE_VERSION, "{command}");
    assert!(k["schema"].as_u64().is_some_and(|s| s >= 1), "{command}");
    assert_eq!(doc["command"], command);
    assert_eq!(
        doc["board"],
        json!({"rows": board.rows(), "cols": board.cols()}),
        "{command}"
    );
    assert!(
        doc.get("version").is_none(),
        "{command}: the version lives in `knightnet`"
    );
}

/// `start` is `[row, col]` naming the same square as `start_name`.
fn assert_start(doc: &Value, board: Board, name: &str) {
    let (r, c) = board.coords(board.parse_square(name).unwrap());
    assert_eq!(doc["start"], json!([r, c]), "{doc}");
    assert_eq!(doc["start_name"], name, "{doc}");
}

#[test]
fn solve_exists_count_check_and_queens_share_one_shape() {
    let b8 = Board::new(8, 8).unwrap();
    let b5 = Board::new(5, 5).unwrap();

    let solve = document(&[
        "solve",
        "--solver",
        "warnsdorff:roth",
        "--start",
        "c3",
        "--format",
        "json",
    ]);
    assert_contract(&solve, "solve", b8);
    assert_start(&solve, b8, "c3");

    let exists = document(&[
        "exists", "--board", "5x5", "--start", "b2", "--format", "json",
    ]);
    assert_contract(&exists, "exists", b5);
    assert_start(&exists, b5, "b2");
    let no = document(&["exists", "--board", "5x5", "--closed", "--format", "json"]);
    assert_contract(&no, "exists", b5);
    assert_eq!(no["exists"], false);
    assert_eq!(no["start"], Value::Null);

    let count = document(&[
        "count", "--board", "5x5", "--start", "a1", "--format", "json",
    ]);
    assert_contract(&count, "count", b5);
    assert_start(&count, b5, "a1");
    let b6 = Board::new(6, 6).unwrap();
    let factors = document(&[
        "count",
        "--board",
        "6x6",
        "--two-factors",
        "--format",
        "json",
    ]);
    assert_contract(&factors, "count", b6);
    let profile = document(&[
        "count",
        "--board",
        "5x6",
        "--closed",
        "--profile-rows",
        "2",
        "--format",
        "json",
    ]);
    assert_contract(&profile, "count", Board::new(5, 6).unwrap());

    let dir = tempfile::tempdir().unwrap();
    let tour = dir.path().join("tour.json");
    std::fs::write(&tour, serde_json::to_vec(&solve).unwrap()).unwrap();
    let check = document(&["check", tour.to_str().unwrap(), "--format", "json"]);
    assert_contract(&check, "check", b8);
    assert_eq!(check["valid"], true);

    let queens = document(&[
        "queens", "--size", "6", "--solver", "neural", "--format", "json",
    ]);
    assert_contract(&queens, "queens", Board::new(6, 6).unwrap());
    assert!(queens["last_termination"]["kind"].is_string(), "{queens}");
    let qcount = document(&["queens", "--size", "6", "--count", "--format", "json"]);
    assert_contract(&qcount, "queens", Board::new(6, 6).unwrap());

    let compare = document(&[
        "compare",
        "--board",
        "6x6",
        "--trials",
        "2",
        "--threads",
        "1",
        "--format",
        "json",
    ]);
    assert_contract(&compare, "compare", b6);
    let results = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/results/quickstart"
    );
    let stats = document(&["stats", results, "--format", "json"]);
    assert_eq!(stats["command"], "stats");
    assert_eq!(stats["knightnet"]["schema"], compare["knightnet"]["schema"]);
    assert!(
        stats["cells"].as_array().is_some_and(|c| !c.is_empty()),
        "{stats}"
    );
}
