//! The harness of the browser tests: a `knightnet serve` on a free port, a ChromeDriver
//! on another, and a headless Chromium session driven through it (WebDriver, by
//! `fantoccini` over plain HTTP). Each process is stopped when its guard is dropped, so
//! a failing test leaves nothing running.
//!
//! The tests build nothing: they run the `knightnet` binary built with the `serve`
//! feature, named by `KNIGHTNET_BIN` or else `target/release/knightnet` of this
//! workspace (`cargo build --release --features serve`). ChromeDriver is `CHROMEDRIVER`
//! or `chromedriver` on the `PATH`; Chromium is `CHROME` or `/usr/bin/chromium`.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;

/// How long a page may take to reach the state a test waits for.
pub const WAIT: Duration = Duration::from_secs(20);

/// A child process in a process group of its own; the group (the process and whatever
/// it started, such as ChromeDriver's Chromium) is killed and the child reaped when
/// dropped.
pub struct Process {
    child: Child,
}

impl Process {
    /// Spawn `command` as the leader of a new process group.
    fn spawn(command: &mut Command) -> std::io::Result<Process> {
        use std::os::unix::process::CommandExt;
        let child = command.process_group(0).spawn()?;
        Ok(Process { child })
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group this guard's
            // child leads (created by `process_group(0)`); it touches no memory.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The repository's root (this package lives in `tests/browser`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `knightnet` binary with the server, or a panic saying how to build it.
pub fn binary() -> PathBuf {
    let path = std::env::var_os("KNIGHTNET_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/release/knightnet"));
    assert!(
        path.is_file(),
        "no knightnet binary at {}: build it with `cargo build --release --features serve` (or set KNIGHTNET_BIN)",
        path.display()
    );
    path
}

/// A program named by the environment variable `var`, else the first of `names` found
/// on the `PATH` or as a path; a panic saying how to install it otherwise.
fn program(var: &str, names: &[&str]) -> PathBuf {
    if let Some(p) = std::env::var_os(var) {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        let direct = Path::new(name);
        if direct.is_absolute() && direct.is_file() {
            return direct.to_path_buf();
        }
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "{} not found (set {var}): install Chromium and ChromeDriver, e.g. `apt-get install chromium chromium-driver`",
        names.join(" or ")
    )
}

/// A running `knightnet serve`.
pub struct Server {
    /// The address it printed, e.g. `http://127.0.0.1:41234/`.
    pub url: String,
    /// Its standard output, kept open so that a late line never meets a closed pipe.
    _out: BufReader<std::process::ChildStdout>,
    _process: Process,
}

impl Server {
    /// `knightnet serve FOLDERS --port 0`, once it has printed its address.
    pub fn start(folders: &[&Path]) -> Server {
        let bin = binary();
        let mut process = Process::spawn(
            Command::new(&bin)
                .arg("serve")
                .args(folders)
                .args(["--port", "0"])
                .stdout(Stdio::piped()),
        )
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
        let mut out = BufReader::new(process.child.stdout.take().expect("piped"));
        let mut line = String::new();
        if out.read_line(&mut line).unwrap_or(0) == 0 {
            panic!(
                "{} serve printed no address (built without --features serve? its error is above)",
                bin.display()
            );
        }
        let url = line
            .trim()
            .strip_prefix("knightnet serve: ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server {
            url,
            _out: out,
            _process: process,
        }
    }
}

/// A free TCP port on 127.0.0.1 (free when this returns; the caller binds it next).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A ChromeDriver and a headless Chromium session through it.
pub struct Browser {
    /// The WebDriver session.
    pub client: Client,
    _driver: Process,
}

impl Browser {
    /// Start ChromeDriver on a free port and open a headless Chromium session
    /// (`--headless=new --no-sandbox --disable-gpu`: CI runs as root, without a display).
    pub async fn start() -> Browser {
        let driver = program("CHROMEDRIVER", &["chromedriver"]);
        let chrome = program("CHROME", &["chromium", "/usr/bin/chromium"]);
        let port = free_port();
        let process = Process::spawn(
            Command::new(&driver)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
        )
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", driver.display()));
        let up = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                up.elapsed() < WAIT,
                "{} did not listen on port {port} within {WAIT:?}",
                driver.display()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": chrome,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1000,900"],
            }),
        );
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap_or_else(|e| panic!("no Chromium session through {}: {e}", driver.display()));
        Browser {
            client,
            _driver: process,
        }
    }

    /// The element with this CSS selector, once it exists.
    pub async fn find(&self, css: &str) -> fantoccini::elements::Element {
        tokio::time::timeout(WAIT, self.client.wait().for_element(Locator::Css(css)))
            .await
            .unwrap_or_else(|_| panic!("no element {css} within {WAIT:?}"))
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
    }

    /// The value of `document.body.dataset[key]` (an attribute the page sets after each
    /// answer), once `ready` accepts it.
    pub async fn body_data(&self, key: &str, ready: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let v = self
                .client
                .execute(
                    "return document.body.dataset[arguments[0]] ?? null;",
                    vec![key.into()],
                )
                .await
                .expect("the script runs");
            if let Some(s) = v.as_str()
                && ready(s)
            {
                return s.to_string();
            }
            assert!(
                start.elapsed() < WAIT,
                "body data-{key} is {v} after {WAIT:?}"
            );
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    /// Save a PNG of the window to `path` (under the repository's root) when the
    /// environment variable `KNIGHTNET_SCREENSHOTS` is set, so an ordinary test run
    /// never rewrites a committed file.
    pub async fn screenshot(&self, path: &str) {
        if std::env::var_os("KNIGHTNET_SCREENSHOTS").is_none() {
            return;
        }
        let png = self.client.screenshot().await.expect("a screenshot");
        let path = root().join(path);
        std::fs::write(&path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}
