//! `knightnet completions` and `knightnet manpage`: generated from the clap definitions,
//! so they name every subcommand; a missing folder is created, a file in its place is
//! bad input.

use crate::common::{assert_refused, knightnet};

/// The subcommands `knightnet --help` lists.
fn subcommands() -> Vec<String> {
    let out = knightnet(&["--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|s| s != "help")
        .collect()
}

#[test]
fn completions_name_every_subcommand_in_every_shell() {
    let subs = subcommands();
    assert!(subs.len() >= 15, "{subs:?}");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = knightnet(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let text = String::from_utf8(out.stdout).unwrap();
        for sub in &subs {
            assert!(
                text.contains(sub.as_str()),
                "{shell} completions miss {sub}"
            );
        }
    }
    assert_refused(&["completions", "tcsh"], "tcsh");
}

#[test]
fn man_pages_are_written_one_per_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let out = knightnet(&["manpage", "--out", dir.path().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let main = std::fs::read_to_string(dir.path().join("knightnet.1")).unwrap();
    assert!(
        main.starts_with(".ie") || main.contains(".TH"),
        "not roff: {}",
        &main[..80]
    );
    for sub in subcommands() {
        let page = std::fs::read_to_string(dir.path().join(format!("knightnet-{sub}.1")))
            .unwrap_or_else(|e| panic!("knightnet-{sub}.1: {e}"));
        assert!(page.contains(".TH"), "{sub}");
    }
    let stdout = knightnet(&["manpage"]);
    assert!(stdout.status.success());
    assert_eq!(stdout.stdout, main.as_bytes(), "stdout holds the main page");
    // A folder that does not exist yet is created, with its parents.
    let nested = dir.path().join("out").join("man");
    let out = knightnet(&["manpage", "--out", nested.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(nested.join("knightnet.1")).unwrap(),
        main.as_bytes()
    );
    // Something that is not a folder is refused and left as it is.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "keep").unwrap();
    assert_refused(
        &["manpage", "--out", file.to_str().unwrap()],
        "not a folder",
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
    #[cfg(unix)]
    {
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        assert_refused(&["manpage", "--out", dangling.to_str().unwrap()], "--out");
        assert!(!dir.path().join("nowhere").exists());
    }
}
