//! The release checklist (CONTRIBUTING.md) as checks: one version everywhere it is
//! written, a CHANGELOG section for it, and, on a commit tagged `vX.Y.Z`, a release that
//! says so (the tag is the version, the CHANGELOG's newest section is that version, not
//! "Unreleased", and CITATION.cff has its release date).

use std::path::Path;
use std::process::Command;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The value of the first line `key = "value"` (TOML) or `key: value` (CFF) in `text`.
fn field(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let rest = l.strip_prefix(key)?.trim_start();
        let value = rest.strip_prefix('=').or_else(|| rest.strip_prefix(':'))?;
        Some(value.trim().trim_matches('"').to_string())
    })
}

/// The CHANGELOG's section headings (`## Unreleased`, `## 0.1.0`, ...), newest first.
fn changelog_sections() -> Vec<String> {
    read("CHANGELOG.md")
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(|h| h.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn one_version_everywhere_it_is_written() {
    let version = env!("CARGO_PKG_VERSION");
    // The wheel's version is python/Cargo.toml's (pyproject.toml: dynamic = ["version"]).
    for path in [
        "python/Cargo.toml",
        "benches/Cargo.toml",
        "examples/library-tour/Cargo.toml",
    ] {
        assert_eq!(
            field(&read(path), "version").as_deref(),
            Some(version),
            "{path}: its version is not knightnet's {version} (CONTRIBUTING.md, Release)"
        );
    }
    assert!(
        read("python/pyproject.toml").contains("dynamic = [\"version\"]"),
        "python/pyproject.toml must take its version from python/Cargo.toml"
    );
    assert_eq!(
        field(&read("CITATION.cff"), "version").as_deref(),
        Some(version),
        "CITATION.cff: version"
    );
    let sections = changelog_sections();
    assert!(
        sections.iter().any(|s| s == version),
        "CHANGELOG.md has no section for {version}: {sections:?}"
    );
}

#[test]
fn a_tagged_commit_is_a_whole_release() {
    let tag = Command::new("git")
        .args(["describe", "--tags", "--exact-match", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let version = env!("CARGO_PKG_VERSION");
    let sections = changelog_sections();
    match tag.as_deref().and_then(|t| t.strip_prefix('v')) {
        Some(tagged) => {
            assert_eq!(
                tagged, version,
                "tag v{tagged} on a tree of version {version}"
            );
            assert_eq!(
                sections.first().map(String::as_str),
                Some(version),
                "a release's CHANGELOG starts with its version, not {:?}",
                sections.first()
            );
            assert!(
                field(&read("CITATION.cff"), "date-released").is_some(),
                "CITATION.cff: a release has date-released"
            );
        }
        // Between releases the newest section collects what is not released yet.
        None => assert_eq!(
            sections.first().map(String::as_str),
            Some("Unreleased"),
            "CHANGELOG.md: the newest section between releases is 'Unreleased'"
        ),
    }
}
