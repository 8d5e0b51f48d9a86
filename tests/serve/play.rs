//! The Play view's API beyond the knight on a whole plane board: a leaper, a surface
//! and a shape in the request build the game's board on the server; wrapped moves are
//! legal, holes never are; bad geometry is refused in one line.

use crate::server::{Server, start};

fn json(s: &Server, path: &str, body: &str) -> serde_json::Value {
    let (status, text) = s.post(path, body);
    assert_eq!(status, 200, "{body}: {text}");
    serde_json::from_str(&text).unwrap()
}

fn squares(v: &serde_json::Value) -> Vec<u64> {
    let mut out: Vec<u64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    out.sort_unstable();
    out
}

#[test]
fn play_api_serves_leapers_surfaces_and_shapes() {
    let s = start(&[]);
    // a1 on 6x6 is square 30; on the torus its knight moves wrap to rows 0 and 1.
    let torus = json(
        &s,
        "/api/play/state",
        r#"{"rows":6,"cols":6,"path":[30],"surface":"torus"}"#,
    );
    assert_eq!(squares(&torus["legal"]), [2, 4, 7, 11, 19, 23, 26, 28]);
    assert_eq!(torus["surface"], "torus");
    let plane = json(&s, "/api/play/state", r#"{"rows":6,"cols":6,"path":[30]}"#);
    assert_eq!(squares(&plane["legal"]), [19, 26]);
    assert_eq!(plane["leaper"], "1,2");
    // The wrapped move is played; on the plane it is refused.
    let played = json(
        &s,
        "/api/play/state",
        r#"{"rows":6,"cols":6,"path":[30,4],"surface":"torus"}"#,
    );
    assert_eq!(played["path"], serde_json::json!([30, 4]));
    let (status, body) = s.post("/api/play/state", r#"{"rows":6,"cols":6,"path":[30,4]}"#);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("not a knight move"), "{body}");
    // A shape: the holes are in the view, never legal, refused as moves, and the game
    // is complete without them.
    let shape = r#""shape":"....\n.##.\n....\n""#;
    let v = json(
        &s,
        "/api/play/state",
        &format!(r#"{{"rows":3,"cols":4,"path":[],{shape}}}"#),
    );
    assert_eq!(squares(&v["holes"]), [5, 6]);
    assert_eq!(v["squares"], 10);
    assert!(!squares(&v["legal"]).contains(&5));
    let (status, body) = s.post(
        "/api/play/state",
        &format!(r#"{{"rows":3,"cols":4,"path":[5],{shape}}}"#),
    );
    assert_eq!(status, 400);
    assert!(body.contains("is a hole"), "{body}");
    // On a cylinder the ring is finished by the game's completion (every square but the
    // holes, each move checked by the server again), or proved impossible.
    let body = format!(r#"{{"rows":3,"cols":4,"path":[0],"surface":"cylinder",{shape}}}"#);
    let f = json(&s, "/api/play/finish", &body);
    if f["outcome"] == "found" {
        let mut path = vec![0u64];
        path.extend(
            f["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap()),
        );
        let body = format!(r#"{{"rows":3,"cols":4,"path":{path:?},"surface":"cylinder",{shape}}}"#);
        let done = json(&s, "/api/play/state", &body);
        assert_eq!(done["complete"], true, "{done}");
        assert_eq!(path.len(), 10);
    } else {
        assert_eq!(f["outcome"], "impossible", "{f}");
    }
    // A new game never starts on a hole.
    for seed in 0..20 {
        let v = json(
            &s,
            "/api/play/new",
            &format!(r#"{{"rows":3,"cols":4,"seed":{seed},{shape}}}"#),
        );
        let start = v["path"][0].as_u64().unwrap();
        assert!(start != 5 && start != 6, "seed {seed}: {v}");
    }
    // Refusals: one line each, naming what is accepted.
    for (body, needle) in [
        (
            r#"{"rows":6,"cols":6,"path":[],"surface":"sphere"}"#,
            "surface",
        ),
        (r#"{"rows":6,"cols":6,"path":[],"leaper":"2"}"#, "leaper"),
        (r#"{"rows":6,"cols":6,"path":[],"leaper":"1,99"}"#, "leaper"),
        (
            r#"{"rows":3,"cols":5,"path":[],"shape":"....\n.##.\n....\n"}"#,
            "shape is 3x4",
        ),
        (
            r#"{"rows":3,"cols":4,"path":[],"shape":"..x.\n....\n....\n"}"#,
            "line 1",
        ),
    ] {
        let (status, text) = s.post("/api/play/state", body);
        assert_eq!(status, 400, "{body}: {text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let msg = v["error"].as_str().unwrap();
        assert!(msg.contains(needle) && !msg.contains('\n'), "{body}: {msg}");
    }
}
