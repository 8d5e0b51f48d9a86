//! `knightnet serve`: the Play view in a browser, on a local HTTP server (src/serve/).
//! Built only with the `serve` feature; without it the command says how to get it.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::Failure;
use knightnet::error::InputError;

/// The port `serve` listens on unless `--port` says otherwise.
pub const DEFAULT_PORT: u16 = 8030;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Examples:\n  knightnet serve\n  knightnet serve experiments/results/quickstart --port 0"
)]
pub struct ServeArgs {
    /// Results folders the server may read (nothing else on disk is served).
    #[arg(value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
    /// Port to listen on; 0 picks a free port (the address printed is the real one).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Address to bind: 127.0.0.1 (the default) or ::1 keep the server to this machine;
    /// any other address lets other machines reach it, and prints a warning.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
}

/// Run the server until the process is stopped.
#[cfg(feature = "serve")]
pub fn run(args: ServeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let host: std::net::IpAddr = match args.host.as_str() {
        "localhost" => std::net::Ipv4Addr::LOCALHOST.into(),
        text => text.parse().map_err(|_| {
            InputError::param(format!(
                "--host '{text}' is not an IP address: expected one like 127.0.0.1, ::1 or 0.0.0.0 (or localhost)"
            ))
        })?,
    };
    let config =
        crate::serve::Config::new(std::net::SocketAddr::new(host, args.port), &args.results)?;
    crate::serve::run(config, out)
}

/// Without the `serve` feature: one line saying how to build the binary with it.
#[cfg(not(feature = "serve"))]
pub fn run(_args: ServeArgs, _out: &mut dyn Write) -> Result<(), Failure> {
    Err(InputError::param(
        "this knightnet was built without the web server: build it with the serve feature (cargo run --release --features serve -- serve)",
    )
    .into())
}
