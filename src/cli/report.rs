//! The output formats of every command: [`Format`] (text or JSON) for the commands
//! that print one answer, and [`ReportFormat`] (also Markdown) for the report commands
//! (`compare`, `growth`, `stats`), with one way to write rows as JSON, Markdown, or text
//! (a header line, then the Markdown).

use std::io::Write;

use clap::ValueEnum;
use serde::Serialize;

use super::Failure;

/// `--format` of a command that prints one answer (`solve`, `exists`, `count`, `check`,
/// `queens`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `--format` of a report command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    Markdown,
}

impl ReportFormat {
    /// Write `rows` in this format: a JSON document of `command` (docs/json.md) holding
    /// the fields of `meta` (an object: seed, trials, threads, ...) and the rows under
    /// `"rows"`; the Markdown `tables`; or `header`, a newline, then the tables.
    pub fn write<T: Serialize + ?Sized>(
        self,
        command: &str,
        meta: serde_json::Value,
        rows: &T,
        tables: String,
        header: impl FnOnce() -> String,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let text = match self {
            ReportFormat::Json => {
                let mut body = meta;
                body["rows"] = serde_json::to_value(rows).map_err(anyhow::Error::from)?;
                super::json::to_text(&super::json::document(command, body))?
            }
            ReportFormat::Markdown => tables,
            ReportFormat::Text => format!("{}\n{tables}", header()),
        };
        out.write_all(text.as_bytes())?;
        Ok(())
    }
}

/// "s" for a count other than one.
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
