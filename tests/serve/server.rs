//! The harness: a `knightnet serve` on a free port, and requests written by hand.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// A server on a free port, serving `folders`; stopped when dropped.
pub struct Server {
    child: Child,
    /// The port it listens on.
    pub port: u16,
    /// The token its page holds.
    pub token: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `knightnet serve FOLDERS --port 0`, once it has printed its address.
pub fn start(folders: &[&std::path::Path]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .arg("serve")
        .args(folders)
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("knightnet starts");
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line
        .trim()
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .parse()
        .unwrap_or_else(|_| panic!("no port in {line:?}"));
    let mut s = Server {
        child,
        port,
        token: String::new(),
    };
    let page = s.request("GET", "/", &[], "").1;
    let at = page
        .find("knightnet-token\" content=\"")
        .expect("the page holds a token")
        + 26;
    s.token = page[at..at + 32].to_string();
    s
}

impl Server {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Send one request; the status and the body.
    pub fn request(&self, method: &str, path: &str, headers: &[&str], body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let mut text = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.port,
            body.len()
        );
        for h in headers {
            text.push_str(h);
            text.push_str("\r\n");
        }
        text.push_str("\r\n");
        stream.write_all(text.as_bytes()).unwrap();
        let _ = stream.write_all(body.as_bytes());
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let status = answer
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {answer:?}"));
        let body = answer
            .split_once("\r\n\r\n")
            .map_or("", |b| b.1)
            .to_string();
        (status, body)
    }

    /// A `POST` with the token.
    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        let token = format!("X-Knightnet-Token: {}", self.token);
        self.request(
            "POST",
            path,
            &[&token, "Content-Type: application/json"],
            body,
        )
    }
}

/// Open a watch stream with `query` and read its first frame; the connection stays open.
pub fn open_stream(s: &Server, query: &str) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        stream,
        "GET {query} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        s.port
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    loop {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        if line.starts_with("data:") {
            return reader;
        }
    }
}
