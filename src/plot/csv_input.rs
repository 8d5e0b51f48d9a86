//! The small CSV files figures take as input (published rates, H/F counts): `#` comment
//! lines, trimmed cells, columns found by name, and every error one line naming the
//! parameter that gave the file ([`Param`]), the file, and the line and column where it
//! applies.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use csv::StringRecord;

use crate::error::{InputError, Param, Phrase};

/// A CSV input file, read whole.
#[derive(Debug)]
pub(crate) struct CsvInput {
    param: Param,
    path: PathBuf,
    /// What the columns should be, for the error when one is missing.
    expected: &'static str,
    headers: StringRecord,
    records: Vec<StringRecord>,
}

/// One data row of a [`CsvInput`].
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    file: &'a CsvInput,
    record: &'a StringRecord,
    /// The row's line in the file (comment lines counted).
    pub line: u64,
}

impl CsvInput {
    /// Read `path`, given as `param`; `expected` describes the columns (for example
    /// `"n,trials,success"`). A file with a header and no row is an error.
    pub fn read(param: Param, path: &Path, expected: &'static str) -> Result<CsvInput, InputError> {
        let mut file = CsvInput {
            param,
            path: path.to_path_buf(),
            expected,
            headers: StringRecord::new(),
            records: Vec::new(),
        };
        let text = crate::io::read_input_to_string(path)
            .map_err(|e| file.error(format!("cannot read: {}", crate::io::os_reason(&e))))?;
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .comment(Some(b'#'))
            .from_reader(text.as_bytes());
        file.headers = reader
            .headers()
            .map_err(|e| file.error(format!("cannot read the header row: {e}")))?
            .clone();
        for record in reader.records() {
            let record = record.map_err(|e| file.error(e))?;
            file.records.push(record);
        }
        if file.records.is_empty() {
            return Err(file.error("has a header but no rows"));
        }
        Ok(file)
    }

    /// An error about the file as a whole.
    pub fn error(&self, msg: impl std::fmt::Display) -> InputError {
        InputError::named(
            Phrase::new()
                .param(self.param)
                .text(format!(" {}: {msg}", self.path.display())),
        )
    }

    /// The index of the column `name`.
    pub fn column(&self, name: &str) -> Result<usize, InputError> {
        self.headers.iter().position(|h| h == name).ok_or_else(|| {
            self.error(format!(
                "the column '{name}' is missing; expected columns {}",
                self.expected
            ))
        })
    }

    /// The index of the column `name`, `None` when the file has none.
    pub fn optional_column(&self, name: &str) -> Option<usize> {
        self.headers.iter().position(|h| h == name)
    }

    /// The data rows, in file order.
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.records.iter().map(|record| Row {
            file: self,
            record,
            line: record.position().map_or(0, |p| p.line()),
        })
    }

    /// The file's name without its extension.
    pub fn stem(&self) -> Option<String> {
        self.path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
    }
}

impl<'a> Row<'a> {
    /// The cell of column `c` (empty when the row is short).
    pub fn field(&self, c: usize) -> &'a str {
        self.record.get(c).unwrap_or("")
    }

    /// The cell of column `c`, named `name`, as a whole number.
    pub fn number<T: FromStr>(&self, c: usize, name: &str) -> Result<T, InputError> {
        let s = self.field(c);
        s.parse::<T>().map_err(|_| {
            self.error(format!(
                "column '{name}' has '{s}', expected a whole number"
            ))
        })
    }

    /// An error about this row.
    pub fn error(&self, msg: impl std::fmt::Display) -> InputError {
        self.file.error(format!("line {}: {msg}", self.line))
    }
}
