//! The one shape of every `--format json` document (docs/json.md): an object that carries
//! `"knightnet": {"version", "engine_version", "schema"}` and `"command"`, names a
//! board as `{"rows", "cols"}` and a square as `[row, col]` (0-based, row 0 at the top)
//! with its printed name beside it in a `*_name` field.

use serde_json::{Map, Value, json};

use crate::board::Board;
use crate::graph::{KnightGraph, Source};
use crate::solvers::Solution;
use crate::solvers::on_graph::GraphSolution;

/// The version of the JSON shape: bumped when a field of any document is renamed,
/// removed or changes its type (new fields do not bump it).
pub(crate) const SCHEMA: u32 = 2;

/// The provenance object every document carries as `"knightnet"`.
pub fn provenance() -> Value {
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "engine_version": crate::ENGINE_VERSION,
        "schema": SCHEMA,
    })
}

/// `body` (an object) as the document of `command`: the provenance and the command name
/// beside the body's fields (keys are printed in sorted order). A body that is not an object is kept whole under `"result"`.
pub fn document(command: &str, body: Value) -> Value {
    let mut doc = Map::new();
    doc.insert("knightnet".into(), provenance());
    doc.insert("command".into(), json!(command));
    match body {
        Value::Object(m) => doc.extend(m),
        other => {
            doc.insert("result".into(), other);
        }
    }
    Value::Object(doc)
}

/// A board as `{"rows", "cols"}`.
pub fn board(b: Board) -> Value {
    json!({"rows": b.rows(), "cols": b.cols()})
}

/// A square as `[row, col]`.
pub fn square(b: Board, s: u32) -> Value {
    let (r, c) = b.coords(s);
    json!([r, c])
}

/// A document as the pretty-printed text a command writes (with the final newline).
pub fn to_text(doc: &Value) -> serde_json::Result<String> {
    Ok(serde_json::to_string_pretty(doc)? + "\n")
}

/// Every field of the JSON document of a solution (`solve --format json`, docs/json.md)
/// but the tour's squares (`"tour"` is `null` here).
pub fn solution_fields(sol: &Solution, board: Board, seed: u64) -> Map<String, Value> {
    let mut v = json!({
        "knightnet": provenance(),
        "command": "solve",
        "board": board,
        "solver": sol.solver().family().name(),
        "variant": sol.solver().detail(),
        "seed": seed,
        "closed": sol.closed(),
        "tour": Value::Null,
        "start": sol.tour().map(|t| square(board, t.start())),
        "start_name": sol.tour().map(|t| board.square_name(t.start())),
        "outcome": sol.outcome(),
        "iterations": sol.iterations,
        "attempts": sol.attempts,
        "restarts": sol.attempts.saturating_sub(1),
    });
    if let Some(steps) = sol.steps {
        v["steps"] = json!(steps);
    }
    // The facts never hold timings, so that a seed gives the same bytes.
    if let Value::Object(facts) = json!(sol.facts) {
        for (k, x) in facts {
            v[k] = x;
        }
    }
    match v {
        Value::Object(m) => m,
        _ => unreachable!("json! of an object literal is an object"),
    }
}

/// The JSON document of a solution (`solve --format json`) as one value, the whole tour
/// included (`solve` streams the same bytes square by square).
pub fn solution(sol: &Solution, board: Board, seed: u64) -> Value {
    let mut m = solution_fields(sol, board, seed);
    if let Some(t) = sol.tour() {
        m.insert("tour".into(), json!(t.coords()));
    }
    Value::Object(m)
}

/// How a graph that is not a knight's board is named: a geometry as `{"kind":
/// "geometry", "board", "leaper": "R,S", "surface", "holes": [[row, col], ...],
/// "vertex_count", "edge_count"}`, a file graph as `{"kind": "file", "name", "format",
/// "vertex_count", "edge_count"}`; `null` for a knight's board (its documents name it by
/// `"board"`).
pub fn graph(g: &KnightGraph) -> Value {
    match g.source() {
        Source::Knight(_) => Value::Null,
        Source::Geometry(m) => {
            let geo = m.geometry();
            let b = geo.board();
            let holes: Vec<Value> = geo.shape().holes().iter().map(|&h| square(b, h)).collect();
            json!({
                "kind": "geometry",
                "board": board(b),
                "leaper": geo.leaper(),
                "surface": geo.surface(),
                "holes": holes,
                "vertex_count": g.squares(),
                "edge_count": g.edges(),
            })
        }
        Source::File(f) => json!({
            "kind": "file",
            "name": f.name(),
            "format": f.format().map(|x| x.name()),
            "vertex_count": g.squares(),
            "edge_count": g.edges(),
        }),
    }
}

/// How a vertex of `g` is numbered in JSON: its square's index `row * cols + col` on a
/// board or a geometry, its number in the file (from 1) on a file graph.
pub fn vertex_number(g: &KnightGraph, v: u32) -> u64 {
    match g.source() {
        Source::Knight(_) => u64::from(v),
        Source::Geometry(m) => u64::from(m.square(v)),
        Source::File(f) => u64::from(f.file_number(v)),
    }
}

/// The vertex of `g` that output numbers `number` ([`vertex_number`]'s inverse), or
/// `None` when no vertex has that number (a hole, a square off the board, a number the
/// file does not use).
pub fn vertex_from_number(g: &KnightGraph, number: u64) -> Option<u32> {
    match g.source() {
        Source::Knight(_) => (number < g.squares() as u64).then_some(number as u32),
        Source::Geometry(m) => u32::try_from(number).ok().and_then(|s| m.vertex(s)),
        Source::File(f) => f.vertex(number),
    }
}

/// The JSON document of a solution on a geometry or a file graph (`solve --format json`
/// with `--leaper`, `--surface`, `--shape` or `--graph`, docs/json.md): `"target"` names
/// the graph ([`graph`]), `"numbering"` says how `"vertices"` numbers the tour
/// (`"square-index"`: `row * cols + col`; `"file"`: the file's vertex numbers), and on a
/// geometry `"tour"` gives the same squares as `[row, col]`.
pub fn graph_solution(sol: &GraphSolution, g: &KnightGraph, seed: u64) -> Value {
    let geometry = g.source().geometry();
    let vertices: Option<Vec<u64>> = sol
        .tour
        .as_ref()
        .map(|t| t.vertices().iter().map(|&v| vertex_number(g, v)).collect());
    let mut v = json!({
        "knightnet": provenance(),
        "command": "solve",
        "target": graph(g),
        "solver": sol.solver,
        "seed": seed,
        "closed": sol.closed,
        "numbering": if geometry.is_some() { "square-index" } else { "file" },
        "vertices": vertices,
        "start_name": sol.tour.as_ref().map(|t| g.vertex_name(t.vertices()[0])),
        "outcome": sol.outcome,
        "iterations": sol.iterations,
        "attempts": sol.attempts,
        "restarts": sol.attempts.saturating_sub(1),
    });
    if let Some(steps) = sol.steps {
        v["steps"] = json!(steps);
    }
    if let Some(geo) = geometry {
        let b = geo.board();
        v["tour"] = match (&sol.tour, g.source()) {
            (Some(t), Source::Geometry(m)) => {
                json!(
                    t.vertices()
                        .iter()
                        .map(|&x| square(b, m.square(x)))
                        .collect::<Vec<_>>()
                )
            }
            _ => Value::Null,
        };
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_opens_with_provenance_and_command_and_keeps_the_body() {
        let doc = document("count", json!({"board": board(Board::new(3, 4).unwrap())}));
        let m = doc.as_object().unwrap();
        let keys: Vec<&str> = m.keys().map(String::as_str).collect();
        assert!(keys.contains(&"knightnet") && keys.contains(&"command"));
        assert_eq!(doc["command"], "count");
        assert_eq!(doc["knightnet"]["schema"], SCHEMA);
        assert_eq!(doc["knightnet"]["engine_version"], crate::ENGINE_VERSION);
        assert_eq!(doc["board"], json!({"rows": 3, "cols": 4}));
        assert_eq!(document("x", json!([1, 2]))["result"], json!([1, 2]));
    }

    #[test]
    fn a_square_is_row_then_column() {
        let b = Board::new(3, 5).unwrap();
        assert_eq!(square(b, 7), json!([1, 2]));
    }
}
