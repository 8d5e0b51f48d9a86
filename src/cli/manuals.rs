//! `knightnet completions SHELL` and `knightnet manpage`: shell completions and man pages
//! generated from the same clap definitions the command line parses with, so they never
//! drift from the flags.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use clap_complete::Shell;

use super::{Failure, command};
use knightnet::error::InputError;

#[derive(Debug, Args)]
#[command(
    after_help = "Example: knightnet completions bash > ~/.local/share/bash-completion/completions/knightnet"
)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Args)]
#[command(after_help = "Example: knightnet manpage --out out/man && man out/man/knightnet.1")]
pub struct ManpageArgs {
    /// A folder to write knightnet.1 and one page per subcommand (knightnet-solve.1, ...)
    /// into, created with its parents if missing; without it the main page goes to
    /// stdout.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn completions(args: CompletionsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let mut cmd = command();
    clap_complete::generate(args.shell, &mut cmd, "knightnet", out);
    Ok(())
}

/// One page in roff.
fn render(cmd: &clap::Command) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut bytes)?;
    Ok(bytes)
}

pub fn manpage(args: ManpageArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let cmd = command();
    let Some(dir) = args.out else {
        out.write_all(&render(&cmd)?)?;
        return Ok(());
    };
    // A file, a FIFO, a device or a dangling link where the folder should be.
    if std::fs::symlink_metadata(&dir).is_ok() && !dir.is_dir() {
        return Err(InputError::param(format!(
            "--out {} exists and is not a folder; give a folder (created if missing) for knightnet.1 and knightnet-SUBCOMMAND.1",
            dir.display()
        ))
        .into());
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| knightnet::io::io_failure("create folder", &dir, e))?;
    let mut written = vec![dir.join("knightnet.1")];
    knightnet::io::write_atomic(&written[0], &render(&cmd)?)?;
    for sub in cmd.get_subcommands() {
        let name = format!("knightnet-{}", sub.get_name());
        let page = sub.clone().name(name.clone());
        let path = dir.join(format!("{name}.1"));
        knightnet::io::write_atomic(&path, &render(&page)?)?;
        written.push(path);
    }
    writeln!(
        out,
        "wrote {} man pages into {}",
        written.len(),
        dir.display()
    )?;
    Ok(())
}
