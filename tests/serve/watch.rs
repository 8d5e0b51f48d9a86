//! The Watch view's stream beyond the knight on a whole plane board: a leaper, a surface
//! and a shape in the query (read by Play's one reader) run the solver on the move
//! graph; its frames are the library's watcher's states (the moves, the active moves,
//! the degrees, the holes); what does not run there is refused in one line.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;

use knightnet::board::Board;
use knightnet::geometry::{Geometry, Leaper, Shape, Surface};
use knightnet::puzzle::Field;
use knightnet::puzzle::watch::{View, WatchKind};

use crate::server::{Server, start};

/// Every frame of the stream `query` answers, up to its last (a refusal fails the test).
fn frames(s: &Server, query: &str) -> Vec<serde_json::Value> {
    let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        stream,
        "GET {query} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        s.port
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.contains(" 200 "), "{query}: {line}");
    let mut out = Vec::new();
    loop {
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "{query}: ended early"
        );
        if let Some(data) = line.strip_prefix("data:") {
            let f: serde_json::Value = serde_json::from_str(data.trim()).unwrap();
            let last = f["last"] == true;
            out.push(f);
            if last {
                return out;
            }
        }
    }
}

/// A shape's picture as a query value (`#` and line ends escaped).
fn picture(text: &str) -> String {
    text.replace('#', "%23").replace('\n', "%0A")
}

fn pairs(v: &serde_json::Value) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap() as u32, p[1].as_u64().unwrap() as u32))
        .collect();
    out.sort_unstable();
    out
}

fn sorted(mut v: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    v.sort_unstable();
    v
}

/// The network on a 6x6 torus and on a torus with holes: the stream's first frames are
/// the library's watcher's states with the same seed, step by step (every move of the
/// move graph, wrapped ones included; the active moves; the degrees by square, 0 on a
/// hole; the squares off two), and the first frame names the holes.
#[test]
fn a_torus_watch_stream_is_the_library_s_run() {
    let s = start(&[]);
    for (shape, holes) in [
        ("", vec![]),
        (
            "#.....\n......\n......\n......\n......\n....#.\n",
            vec![0u32, 34],
        ),
    ] {
        let geometry = Geometry::new(
            if shape.is_empty() {
                Shape::full(Board::new(6, 6).unwrap())
            } else {
                shape.parse().unwrap()
            },
            Leaper::KNIGHT,
            Surface::Torus,
        );
        let field = Field::new(geometry).unwrap();
        for seed in [1u64, 5] {
            let mut query = format!(
                "/api/watch?token={}&solver=network:parberry&rows=6&cols=6&seed={seed}&surface=torus&leaper=1,2&to=6&rate=50",
                s.token
            );
            if !shape.is_empty() {
                query += &format!("&shape={}", picture(shape));
            }
            let got = frames(&s, &query);
            assert_eq!(got.len(), 7, "{query}");
            let mut w = "network:parberry"
                .parse::<WatchKind>()
                .unwrap()
                .build(field.clone(), &[], 0, seed)
                .unwrap();
            let first = &got[0];
            let holes_sent: Vec<u32> = first["holes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_u64().unwrap() as u32)
                .collect();
            assert_eq!(holes_sent, holes);
            for (i, f) in got.iter().enumerate() {
                if i > 0 {
                    w.step();
                }
                assert_eq!(f["step"], i as u64);
                let View::Edges {
                    edges,
                    degree,
                    off_two,
                    moves,
                    ..
                } = w.view()
                else {
                    panic!("the network's view")
                };
                if i == 0 {
                    let sent = pairs(&first["moves"]);
                    assert_eq!(sent, sorted(moves.clone()));
                    // Every move is one: a wrapped move included (a1 to b5 wraps on 6x6).
                    assert!(sent.iter().all(|&(a, b)| field.is_move(a, b)));
                    assert!(
                        sent.iter()
                            .all(|&(a, b)| !holes.contains(&a) && !holes.contains(&b))
                    );
                    assert!(
                        sent.iter().any(|&(a, b)| {
                            let (ra, ca) = (a / 6, a % 6);
                            let (rb, cb) = (b / 6, b % 6);
                            ra.abs_diff(rb) > 2 || ca.abs_diff(cb) > 2
                        }),
                        "no wrapped move"
                    );
                } else {
                    assert!(f["moves"].is_null());
                }
                assert_eq!(pairs(&f["active"]), sorted(edges), "seed {seed}, step {i}");
                let sent: Vec<u8> = f["degree"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d.as_u64().unwrap() as u8)
                    .collect();
                assert_eq!(sent, degree);
                assert!(holes.iter().all(|&h| sent[h as usize] == 0));
                assert_eq!(f["off_two"], off_two);
            }
        }
    }
}

/// Warnsdorff's walk on a cylinder streams its path to the tour `solve` finds there; a
/// solver built on the knight's board, a disconnected leaper, a start on a hole and a
/// shape that is not the board's size are refused in one line, 400.
#[test]
fn a_geometry_the_solver_does_not_run_on_is_refused() {
    let s = start(&[]);
    let got = frames(
        &s,
        &format!(
            "/api/watch?token={}&solver=warnsdorff&rows=5&cols=6&seed=1&surface=cylinder&start=7&rate=50&from=100",
            s.token
        ),
    );
    let last = got.last().unwrap();
    assert_eq!(last["running"], false);
    assert_eq!(last["outcome"], "tour", "{last}");
    assert_eq!(last["path"].as_array().unwrap().len(), 30);
    assert_eq!(last["path"][0], 7);
    for (extra, needle) in [
        (
            "solver=warnsdorff:first&surface=torus",
            "network[:PRESET], warnsdorff, backtrack and forward-check",
        ),
        (
            "solver=warnsdorff-backtrack&leaper=zebra",
            "runs only on the knight on a whole plane board",
        ),
        ("solver=network&leaper=camel", "no closed tour"),
        (
            "solver=backtrack&shape=%23.....%0A......%0A......%0A......%0A......%0A....%23.",
            "hole",
        ),
        (
            "solver=network&shape=....%0A....",
            "draw the picture 6 rows of 6",
        ),
        ("solver=network&surface=sphere", "surface"),
    ] {
        let (status, body) = s.request(
            "GET",
            &format!("/api/watch?token={}&rows=6&cols=6&seed=1&{extra}", s.token),
            &[],
            "",
        );
        assert_eq!(status, 400, "{extra}: {body}");
        let e: serde_json::Value = serde_json::from_str(&body).unwrap();
        let e = e["error"].as_str().unwrap();
        assert!(e.contains(needle), "{extra}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

/// The committed beyond-the-knight results: each cell's first offered replay on a
/// cylinder, a torus or another leaper opens the Watch view on that geometry (the
/// query names it), and run to its end there it ends as its record says.
#[test]
fn a_geometry_cell_s_replay_is_its_recorded_run() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("experiments/results/beyond-the-knight");
    let s = start(&[&dir]);
    let (status, body) = s.request("GET", "/api/results/0", &[], "");
    assert_eq!(status, 200, "{body}");
    let folder: serde_json::Value = serde_json::from_str(&body).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let (mut replayed, mut tours) = (0, 0);
    for r in folder["replays"].as_array().unwrap() {
        let watch = r["watch"].as_str().unwrap();
        if !watch.contains("leaper=") || !seen.insert(r["cell"].as_u64().unwrap()) {
            continue;
        }
        assert!(watch.contains("&surface="), "{watch}");
        let got = frames(
            &s,
            &format!("/api/watch?token={}&{watch}&from=20000", s.token),
        );
        let last = got.last().unwrap();
        assert_eq!(last["running"], false, "{watch}");
        assert_eq!(last["outcome"], r["outcome"], "{watch}");
        replayed += 1;
        tours += usize::from(r["outcome"] == "tour");
    }
    // Cylinders and tori of six sizes for two solvers, and the other leapers.
    assert!(replayed >= 24, "{replayed}");
    assert!(tours > 0 && tours < replayed, "{tours} of {replayed}");
}

/// Play and Watch offer the same leaper, surface and shape inputs (one fragment both
/// pages include), every placeholder filled.
#[test]
fn play_and_watch_pages_share_the_geometry_inputs() {
    let s = start(&[]);
    let inputs = |page: &str| {
        let (status, html) = s.request("GET", page, &[], "");
        assert_eq!(status, 200, "{page}");
        assert!(!html.contains("{{"), "{page} has an unfilled placeholder");
        let at = html.find("<label>Leaper").expect("a leaper input");
        let end = html[at..]
            .find("</textarea></label>")
            .expect("a shape input")
            + at;
        html[at..end].to_string()
    };
    let play = inputs("/play");
    assert_eq!(play, inputs("/watch"));
    for id in [
        "id=\"leaper\"",
        "id=\"surface\"",
        "id=\"shape\"",
        "value=\"torus\"",
    ] {
        assert!(play.contains(id), "{id}");
    }
}
