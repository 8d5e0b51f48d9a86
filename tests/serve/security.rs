//! Each refusal of the security model (docs/serve.md), checked against a live server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

use super::server::{Server, open_stream, start};

/// A results folder with a file inside, a secret beside it, and a symlink out.
fn folders() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    std::fs::create_dir(&results).unwrap();
    std::fs::write(results.join("spec.toml"), "name = \"x\"\n").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), results.join("out.txt")).unwrap();
    (dir, results)
}

#[test]
fn only_the_named_folders_are_readable() {
    let (_dir, results) = folders();
    let s = start(&[&results]);
    let (ok, body) = s.request("GET", "/files/0/spec.toml", &[], "");
    assert_eq!((ok, body.as_str()), (200, "name = \"x\"\n"));
    for path in [
        "/files/0/../secret.txt",
        "/files/0/%2e%2e/secret.txt",
        "/files/0/%2E%2E/secret.txt",
        "/files/0/..%2fsecret.txt",
        "/files/0//etc/passwd",
        "/files/0/%2fetc%2fpasswd",
        "/files/0/out.txt",
        "/files/1/spec.toml",
    ] {
        let (status, body) = s.request("GET", path, &[], "");
        assert!(
            (400..500).contains(&status) && !body.contains("secret"),
            "{path}: {status} {body}"
        );
    }
    let long = format!("/files/0/{}", "a/".repeat(600));
    assert_eq!(s.request("GET", &long, &[], "").0, 400);
}

#[test]
fn posts_need_the_token_and_the_host_must_name_the_server() {
    let s = start(&[]);
    let body = r#"{"rows":5,"cols":5,"seed":1}"#;
    assert_eq!(s.post("/api/play/new", body).0, 200);
    let none = s.request(
        "POST",
        "/api/play/new",
        &["Content-Type: application/json"],
        body,
    );
    assert_eq!(none.0, 403);
    let wrong = s.request(
        "POST",
        "/api/play/new",
        &[
            "Content-Type: application/json",
            "X-Knightnet-Token: 0123456789abcdef0123456789abcdef",
        ],
        body,
    );
    assert_eq!(wrong.0, 403);
    let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        stream,
        "GET / HTTP/1.1\r\nHost: evil.example:{}\r\nConnection: close\r\n\r\n",
        s.port
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 421"), "{answer}");
}

#[test]
fn bodies_and_boards_are_bounded_and_moves_checked() {
    let s = start(&[]);
    let big = format!(r#"{{"rows":5,"cols":5,"path":[{}0]}}"#, "0,".repeat(20_000));
    assert_eq!(s.post("/api/play/state", &big).0, 413);
    let (status, body) = s.post("/api/play/new", r#"{"rows":17,"cols":5,"seed":1}"#);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("sides 1 to 16"), "{body}");
    // a1 then b1: not a knight move.
    let (status, body) = s.post("/api/play/state", r#"{"rows":5,"cols":5,"path":[20,21]}"#);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("move 2"), "{body}");
}

#[test]
fn the_game_is_the_library_s() {
    let s = start(&[]);
    // a1 (row 4, col 0 on 5x5): legal moves b3 and c2.
    let (status, body) = s.post("/api/play/state", r#"{"rows":5,"cols":5,"path":[20]}"#);
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let mut legal: Vec<u64> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    legal.sort();
    assert_eq!(legal, vec![11, 17]);
    let (status, body) = s.post("/api/play/finish", r#"{"rows":5,"cols":5,"path":[20]}"#);
    assert_eq!(status, 200, "{body}");
    let f: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(f["outcome"], "found");
    let mut path = vec![20u64];
    path.extend(
        f["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap()),
    );
    let req = serde_json::json!({"rows": 5, "cols": 5, "path": path}).to_string();
    let v: serde_json::Value = serde_json::from_str(&s.post("/api/play/state", &req).1).unwrap();
    assert_eq!(v["complete"], true);
    assert_eq!(v["ending"], "open", "5x5 has no closed tour");
}

/// The Watch view's stream count, from `GET /api/status`.
fn watchers(s: &Server) -> u64 {
    let (status, body) = s.request("GET", "/api/status", &[], "");
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v["watchers"].as_u64().unwrap()
}

#[test]
fn watch_streams_are_checked_bounded_and_stop_when_the_client_leaves() {
    let s = start(&[]);
    let query = |extra: &str| {
        format!(
            "/api/watch?token={}&solver=network&rows=8&cols=8&seed=1{extra}",
            s.token
        )
    };
    let (status, body) = s.request(
        "GET",
        "/api/watch?token=0&solver=network&rows=8&cols=8&seed=1",
        &[],
        "",
    );
    assert_eq!((status, body.contains("token")), (403, true), "{body}");
    for (extra, what) in [
        ("&rate=51", "1 to 50 steps per second"),
        ("&to=20001", "<= 20000"),
        ("&from=5&to=4", "from <= to"),
        ("&start=64", "start 64 is off"),
    ] {
        let (status, body) = s.request("GET", &query(extra), &[], "");
        assert_eq!(status, 400, "{extra}: {body}");
        assert!(body.contains(what), "{extra}: {body}");
    }
    let bad = format!(
        "/api/watch?token={}&solver=dfs&rows=8&cols=8&seed=1",
        s.token
    );
    let (status, body) = s.request("GET", &bad, &[], "");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("accepted: backtrack"), "{body}");
    let big = format!(
        "/api/watch?token={}&solver=network&rows=17&cols=8&seed=1",
        s.token
    );
    assert_eq!(s.request("GET", &big, &[], "").0, 400);

    // A stream runs while its client reads, and stops when the client goes away.
    assert_eq!(watchers(&s), 0);
    let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        stream,
        "GET {} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        query("&rate=50"),
        s.port
    )
    .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut frames = 0;
    let mut line = String::new();
    while frames < 3 {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        if line.starts_with("data:") {
            frames += 1;
        }
    }
    assert_eq!(watchers(&s), 1, "one stream runs");
    drop(reader);
    stream.shutdown(std::net::Shutdown::Both).unwrap();
    drop(stream);
    let left = std::time::Instant::now();
    while watchers(&s) != 0 {
        assert!(
            left.elapsed() < std::time::Duration::from_secs(5),
            "the stream's work did not stop after its client left"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn at_most_64_watch_streams_run_at_once() {
    let s = start(&[]);
    let query = format!(
        "/api/watch?token={}&solver=network&rows=8&cols=8&seed=1&rate=1",
        s.token
    );
    let open: Vec<_> = (0..64).map(|_| open_stream(&s, &query)).collect();
    assert_eq!(watchers(&s), 64);
    let (status, body) = s.request("GET", &query, &[], "");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("too many watchers"), "{body}");
    drop(open);
    let left = std::time::Instant::now();
    while watchers(&s) != 0 {
        assert!(
            left.elapsed() < std::time::Duration::from_secs(5),
            "{} streams still run after their clients left",
            watchers(&s)
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
