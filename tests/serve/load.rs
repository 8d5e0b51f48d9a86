//! By hand: 50 clients watching at once. Opens 50 watch streams of a network that never
//! settles (`network:wikipedia`, so every stream runs for the whole measurement) at the
//! highest rate (50 steps per second), reads them for ten seconds, and prints the frames
//! received per second, the server's resident memory (VmRSS) before, at its peak and
//! after the clients leave, and how long `GET /api/status` takes under the load:
//!
//! ```sh
//! cargo test --release --features serve --test serve by_hand_ -- --ignored --nocapture
//! ```

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::server::start;

/// Clients watching at once.
const CLIENTS: usize = 50;
/// How long the streams are read.
const SPAN: Duration = Duration::from_secs(10);

/// The resident memory of process `pid`, in kB (Linux: /proc).
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/PID/status")
}

#[test]
#[ignore = "by hand: measures, about 25 s"]
fn by_hand_fifty_watchers_memory_and_frames() {
    for side in [8, 16] {
        let s = start(&[]);
        let pid = s.pid();
        let before = rss_kb(pid);
        let frames = Arc::new(AtomicU64::new(0));
        let bytes = Arc::new(AtomicU64::new(0));
        let mut sockets = Vec::new();
        let mut readers = Vec::new();
        for seed in 0..CLIENTS {
            let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
            write!(
                stream,
                "GET /api/watch?token={}&solver=network:wikipedia&rows={side}&cols={side}&seed={seed}&rate=50 HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
                s.token, s.port
            )
            .unwrap();
            sockets.push(stream.try_clone().unwrap());
            let (frames, bytes) = (frames.clone(), bytes.clone());
            readers.push(std::thread::spawn(move || {
                let mut reader = BufReader::new(stream);
                let mut line = String::new();
                while reader.read_line(&mut line).unwrap_or(0) > 0 {
                    if line.starts_with("data:") {
                        frames.fetch_add(1, Ordering::Relaxed);
                        bytes.fetch_add(line.len() as u64, Ordering::Relaxed);
                    }
                    line.clear();
                }
            }));
        }
        let t0 = Instant::now();
        let (mut peak, mut slowest) = (before, Duration::ZERO);
        let mut running = 0;
        while t0.elapsed() < SPAN {
            std::thread::sleep(Duration::from_millis(500));
            peak = peak.max(rss_kb(pid));
            let asked = Instant::now();
            let (status, body) = s.request("GET", "/api/status", &[], "");
            slowest = slowest.max(asked.elapsed());
            assert_eq!(status, 200, "{body}");
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            running = v["watchers"].as_u64().unwrap();
        }
        let span = t0.elapsed().as_secs_f64();
        let (n, b) = (
            frames.load(Ordering::Relaxed),
            bytes.load(Ordering::Relaxed),
        );
        for socket in &sockets {
            let _ = socket.shutdown(Shutdown::Both);
        }
        for r in readers {
            r.join().unwrap();
        }
        let left = Instant::now();
        while left.elapsed() < Duration::from_secs(5) {
            let (_, body) = s.request("GET", "/api/status", &[], "");
            if body.contains("\"watchers\":0") {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(500));
        let after = rss_kb(pid);
        println!(
            "{CLIENTS} clients watching network:wikipedia on {side}x{side} at 50 steps/s for {span:.1} s: \
             {running} streams running, {:.0} frames/s in all ({:.1} per client, {:.1} MB/s), \
             server RSS {before} kB before, {peak} kB at the peak, {after} kB after they left; \
             slowest GET /api/status {:.1} ms",
            n as f64 / span,
            n as f64 / span / CLIENTS as f64,
            b as f64 / span / 1e6,
            slowest.as_secs_f64() * 1e3,
        );
        assert_eq!(running as usize, CLIENTS, "every stream ran");
    }
}
