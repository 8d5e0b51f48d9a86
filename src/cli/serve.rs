//! `knightnet serve`: the Play view in a browser, on a local HTTP server (src/serve/).
//! Built only with the `serve` feature; without it the command says how to get it.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;

use clap::Args;

use super::Failure;
#[cfg(not(feature = "serve"))]
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
    #[arg(long, default_value = "127.0.0.1", value_parser = parse_host)]
    pub host: IpAddr,
}

/// `--host`: an IP address, or `localhost` (127.0.0.1). Parsed by clap, so a bad value is
/// refused naming the flag whether or not the binary has the server.
fn parse_host(text: &str) -> Result<IpAddr, String> {
    match text {
        "localhost" => Ok(Ipv4Addr::LOCALHOST.into()),
        text => text.parse().map_err(|_| {
            "not an IP address: expected one like 127.0.0.1, ::1 or 0.0.0.0 (or localhost)"
                .to_string()
        }),
    }
}

/// Run the server until the process is stopped.
#[cfg(feature = "serve")]
pub fn run(args: ServeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let config = crate::serve::Config::new(
        std::net::SocketAddr::new(args.host, args.port),
        &args.results,
    )?;
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
