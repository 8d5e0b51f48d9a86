//! Experiment specs: the TOML format, its checking, and the resolved list of cells.
//!
//! A spec names boards, solvers and trials; every (solver entry, board) pair is a
//! *cell*. Unknown keys and bad values are errors naming the key and the line.
//!
//! ```toml
//! name = "example"          # names the results folder; letters, digits, '.', '_', '-'
//! description = "..."       # optional, free text
//! seed = 1                  # base seed (default 1); see `seeds` for the derivation
//! trials = 200              # trials per cell unless an entry says otherwise
//! boards = ["6x6", "8x8"]   # boards of every entry unless an entry says otherwise
//!
//! [[solver]]
//! solver = "network:parberry"   # any name `SolverKind` accepts
//! label = "parberry"            # optional; default: the preset/solver name
//! trials = 500                  # optional
//! boards = ["8x8"]              # optional
//! # network overrides (network solvers only):
//! # c, s, upper, lower (integers), order, init, stop (names), clamp (integer or "none"),
//! # max_iterations (the per-attempt cap)
//! # open = true: open tours, on the network's open graph; start = a fixed square
//! # ("corner", "r,c" or a name) is then held as every tour's first square
//! # sweeps: c, s, upper, lower, order, init and max_iterations may each be a list,
//! # e.g. c = [3, 4, 5]; the entry expands into the product of the lists (see below)
//!
//! [[solver]]
//! solver = "warnsdorff"
//! start = "corner"              # classical only: "corner", "random", "r,c" or "c3"
//! closed = false                # classical only: require a closed tour
//! # max_steps = 1000000         # classical only: step cap of the search solvers
//! # restarts = 10               # classical only: restarts within one solve
//! ```
//!
//! Cells are numbered in the order of the `[[solver]]` entries, each entry's boards in
//! the order given.
//!
//! **Sweeps.** A network key given as a list (`c = [3, 4, 5]`, `s = [0, 1]`, `upper`,
//! `lower`, `order`, `init`, `max_iterations`) makes the entry a sweep: it expands into
//! one cell per combination of the listed values and board, the keys varying in the order
//! just given (the last fastest), boards innermost. Each cell's label is the entry's
//! label (default: the preset, or `preset*` when single values override it) followed by
//! `key=value` for every listed key, e.g. `parberry c=4 s=2`. A key given as a list names
//! itself in the label even with one value, so a label depends on that cell's values
//! alone: as trial seeds come from the label and board (see [`super::seeds`]), adding a
//! value to a list adds cells and changes no other cell's trials, and a hand-written
//! entry with `label = "parberry c=4 s=2"`, `c = 4`, `s = 2` runs the same trials.
//!
//! `reference = "LABEL"` (top level, optional) names the cells every other cell of the
//! same board is compared with in the summary; default: the first network cell's label.
//!
//! Bounds, checked before any work: a spec file is at most `MAX_SPEC_BYTES` bytes, with
//! at most `MAX_ENTRIES` `[[solver]]` entries and `MAX_CELLS` cells (a sweep's cells
//! counted from its list lengths before any is made); each cell runs 1 to
//! [`MAX_TRIALS`] trials. Trials are produced one at a time and never listed, so a run's
//! memory does not grow with its trial count.

mod cell;
mod file;
mod resolve;
mod sweep;

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

pub use cell::{Cell, StartRule};
use file::SpecFile;
use resolve::{Source, resolve};
pub use sweep::Setting;

use crate::error::InputError;

/// The quickstart spec, built into the binary.
pub(crate) const QUICKSTART: &str = include_str!("../../../experiments/quickstart.toml");

/// The names of the specs built into the library ([`Spec::built_in`]), each the stem of its
/// file in `experiments/`: they run the same on any machine, with no file to find.
pub const BUILT_IN: &[&str] = &["quickstart"];

/// `path` as the name of a built-in spec ([`BUILT_IN`]): one plain path component without
/// an extension (`quickstart`). A spec file is named by a path with a folder or a suffix
/// (`./quickstart`, `quickstart.toml`).
pub fn built_in_name(path: &std::path::Path) -> Option<&str> {
    let mut parts = path.components();
    match (parts.next(), parts.next()) {
        (Some(std::path::Component::Normal(name)), None) if path.extension().is_none() => {
            name.to_str()
        }
        _ => None,
    }
}

/// Most trials one cell may ask for.
pub const MAX_TRIALS: u64 = 1_000_000_000;

/// Largest spec file read, in bytes.
pub(crate) const MAX_SPEC_BYTES: u64 = 1 << 20;

/// Most `[[solver]]` entries in a spec.
pub(crate) const MAX_ENTRIES: usize = 1_000;

/// Most cells (entry × board pairs) in a spec.
pub(crate) const MAX_CELLS: usize = 10_000;

/// `text` with its control characters escaped as Rust writes them (`\n`, `\r`, `\t`,
/// `\u{1b}`), so that a spec value (or a value read from a results file) quoted in an
/// error message keeps the message on one line and shows what the file holds.
pub fn escaped(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// A checked spec: a name, a base seed, and its cells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    /// The spec's name (its `name` key, else the file's stem); records carry it.
    pub name: String,
    /// What the experiment is for, in words (may be empty).
    #[serde(default)]
    pub description: String,
    /// The base seed every trial's seed derives from ([`crate::seeds`]).
    pub seed: u64,
    /// The cells, in spec order: every board of every solver entry.
    pub cells: Vec<Cell>,
    /// The label of the reference cells (spec key `reference`); `None`: the default,
    /// see `Spec::reference_label`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

impl Spec {
    /// The label of the cells the summary compares every other cell of the same board
    /// with: the spec's `reference`, else the first network cell's label, else the first
    /// cell's.
    pub(crate) fn reference_label(&self) -> Option<&str> {
        self.reference.as_deref().or_else(|| {
            self.cells
                .iter()
                .find(|c| c.is_network())
                .or(self.cells.first())
                .map(|c| c.label.as_str())
        })
    }

    /// Whether a cell runs beyond the knight on a whole plane board (a geometry or a
    /// graph file): its records then carry the geometry columns
    /// ([`super::records::GEOMETRY_COLUMNS`]).
    pub fn has_targets(&self) -> bool {
        self.cells.iter().any(|c| c.target.is_some())
    }

    /// Total trials over all cells.
    pub fn total_trials(&self) -> u64 {
        self.cells.iter().map(|c| c.trials).sum()
    }

    /// Global index of each cell's trial 0: trials are numbered cell by cell, in cell
    /// order (the numbering sharding uses).
    pub fn offsets(&self) -> Vec<u64> {
        // At most MAX_CELLS × MAX_TRIALS in all, far below u64::MAX; saturating anyway.
        let mut acc: u64 = 0;
        self.cells
            .iter()
            .map(|c| {
                let o = acc;
                acc = acc.saturating_add(c.trials);
                o
            })
            .collect()
    }

    /// The built-in quickstart spec.
    pub fn quickstart() -> Spec {
        Spec::parse(QUICKSTART, "quickstart", "built-in quickstart.toml")
            .expect("the built-in spec is valid")
    }

    /// A built-in spec by name, one of [`BUILT_IN`] (`quickstart` is [`Spec::quickstart`]);
    /// another name is [`InputError::Unknown`], which lists them.
    pub fn built_in(name: &str) -> Result<Spec, InputError> {
        match name {
            "quickstart" => Ok(Spec::quickstart()),
            _ => Err(InputError::unknown(
                "built-in spec",
                name,
                BUILT_IN.iter().copied(),
            )),
        }
    }

    /// The spec a front end was given and its origin as `run.json` records it: the
    /// built-in quickstart for none, a built-in spec for a bare name ([`built_in_name`]:
    /// `quickstart`), else the spec file at `path` ([`Spec::from_file`]).
    pub fn load(path: Option<&std::path::Path>) -> Result<(Spec, String), crate::error::Error> {
        let Some(path) = path else {
            return Ok((Spec::quickstart(), "built-in quickstart.toml".to_string()));
        };
        match built_in_name(path) {
            Some(name) => Ok((Spec::built_in(name)?, format!("built-in {name}.toml"))),
            None => Ok((Spec::from_file(path)?, path.display().to_string())),
        }
    }

    /// Read and check a spec file; the default name is the file stem. A missing file, one
    /// that is not a regular file (a FIFO, a device: refused without blocking on it), too
    /// large or not UTF-8 is bad input ([`InputError`]); a file that cannot be read
    /// (permissions) is the environment's failure.
    pub fn from_file(path: &std::path::Path) -> Result<Spec, crate::error::Error> {
        use std::io::Read;
        let cannot = |e: std::io::Error| -> crate::error::Error {
            if crate::io::is_input_problem(&e) {
                InputError::File(format!(
                    "spec {} {}; give a TOML file",
                    path.display(),
                    match e.kind() {
                        std::io::ErrorKind::NotFound => "does not exist".to_string(),
                        _ => e.to_string(),
                    }
                ))
                .into()
            } else {
                crate::io::environment("read spec", path, e)
            }
        };
        let mut bytes = Vec::new();
        crate::io::open_input(path)
            .map_err(cannot)?
            .take(MAX_SPEC_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        if bytes.len() as u64 > MAX_SPEC_BYTES {
            return Err(InputError::File(format!(
                "spec {} is too large: spec files are limited to {MAX_SPEC_BYTES} bytes",
                path.display()
            ))
            .into());
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            InputError::File(format!(
                "spec {} is not UTF-8 text (invalid byte at offset {}); give a TOML file",
                path.display(),
                e.utf8_error().valid_up_to()
            ))
        })?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "experiment".into());
        Ok(Spec::parse(&text, &stem, &path.display().to_string())?)
    }

    /// Parse and check spec text. `default_name` is used when the spec has no `name`;
    /// `origin` (a path) starts every error message.
    pub fn parse(text: &str, default_name: &str, origin: &str) -> Result<Spec, InputError> {
        let src = Source { text, origin };
        let file: SpecFile = toml::from_str(text).map_err(|e| {
            let msg = e.message().trim_end().replace('\n', "; ");
            match e.span() {
                Some(span) => {
                    let line = src.line(&span);
                    let source = text.lines().nth(line - 1).unwrap_or("").trim();
                    let source: String = source.chars().take(80).collect();
                    src.at(&span, None, format!("{msg} (in `{source}`)"))
                }
                None => src.whole(msg),
            }
        })?;
        resolve(file, &src, default_name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::graph::Tours;
    use crate::network::UpdateOrder;
    use crate::solvers::SolverKind;
    use serde_json::Value;

    fn parse(t: &str) -> Result<Spec, InputError> {
        Spec::parse(t, "t", "t.toml")
    }

    #[test]
    fn escaped_values_stay_on_one_line() {
        assert_eq!(escaped("a\nb\r\tc\u{1b}"), "a\\nb\\r\\tc\\u{1b}");
        assert!(matches!(
            escaped("parberry c=4"),
            Cow::Borrowed("parberry c=4")
        ));
    }

    #[test]
    fn quickstart_parses() {
        let s = Spec::quickstart();
        assert_eq!(s.name, "quickstart");
        assert!(!s.cells.is_empty());
    }

    #[test]
    fn built_in_specs_by_name() {
        for name in BUILT_IN {
            assert_eq!(Spec::built_in(name).unwrap().name, *name);
        }
        let err = Spec::built_in("quickstrat").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown built-in spec 'quickstrat'; did you mean 'quickstart'? accepted: quickstart"
        );
    }

    #[test]
    fn cells_and_overrides() {
        let s = parse(
            "seed = 7\ntrials = 3\nboards = [\"6x6\", \"8x8\"]\n[[solver]]\nsolver = \"network:brant\"\n[[solver]]\nsolver = \"network\"\nc = 5\nmax_iterations = 50\nclamp = \"none\"\nboards = [\"10x10\"]\ntrials = 4\n",
        )
        .unwrap();
        assert_eq!(s.seed, 7);
        assert_eq!(s.cells.len(), 3);
        assert_eq!(s.cells[0].key(), "brant/6x6");
        assert_eq!(s.cells[2].key(), "parberry*/10x10");
        assert_eq!(s.cells[2].variant(), "parberry --c 5 --max-iterations 50");
        assert_eq!(s.cells[0].variant(), "brant");
        let p = s.cells[2].params().unwrap();
        assert_eq!(
            (p.c, p.max_iterations, p.clamp, s.cells[2].trials),
            (5, 50, None, 4)
        );
        assert_eq!(s.total_trials(), 3 + 3 + 4);
    }

    #[test]
    fn errors_name_key_and_line() {
        let e =
            parse("trials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nbogus = 1\n")
                .unwrap_err()
                .to_string();
        assert!(e.contains("bogus") && e.contains("line 5"), "{e}");
        let e = parse("trials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\norder = \"diagonal\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("diagonal") && e.contains("line 5"), "{e}");
        let e =
            parse("trials = 3\nboards = [\"6x6\",\n \"5x5\"]\n[[solver]]\nsolver = \"network\"\n")
                .unwrap_err()
                .to_string();
        assert!(e.contains("line 3") && e.contains("5x5"), "{e}");
        let e = parse("trials = 0\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("trials") && e.contains("line 1"), "{e}");
        let e =
            parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nupper = -5\n")
                .unwrap_err()
                .to_string();
        assert!(e.contains("line 4") && e.contains("upper"), "{e}");
        let e = parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n[[solver]]\nsolver = \"network:parberry\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("twice") && e.contains("label"), "{e}");
        let e = parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nstart = \"corner\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 5") && e.contains("start"), "{e}");
    }

    #[test]
    fn errors_carry_what_they_name() {
        let spec_err = |t: &str| match parse(t).unwrap_err() {
            InputError::Spec(e) => *e,
            other => panic!("not a spec error: {other:?}"),
        };
        let e = spec_err("trials = 0\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n");
        assert_eq!(
            (
                e.origin.as_str(),
                e.line,
                e.key.as_deref(),
                e.entry.as_ref()
            ),
            ("t.toml", Some(1), Some("trials"), None)
        );
        assert_eq!(
            e.to_string(),
            "t.toml, line 1: trials = 0 is not accepted; give 1 to 1000000000"
        );
        let e = spec_err(
            "trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n[[solver]]\nsolver = \" network:brant\"\nclosed = true\n",
        );
        let entry = crate::error::SpecEntry {
            number: 2,
            solver: "network:brant".into(),
        };
        assert_eq!(
            (e.line, e.key.as_deref(), e.entry.clone()),
            (Some(6), Some("closed"), Some(entry))
        );
        assert!(e.to_string().starts_with(
            "t.toml, line 6: [[solver]] #2 (\"network:brant\"): closed applies to classical solvers only"
        ));
        let e = spec_err("trials = 1\nboards = [\"6x6\"]\n");
        assert_eq!((e.line, e.key.clone(), e.entry.clone()), (None, None, None));
        assert!(
            e.to_string()
                .starts_with("t.toml: the spec has no [[solver]] entry")
        );
        let e = spec_err(
            "trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warnsdorff\"\nstart = \"z9\"\n",
        );
        assert_eq!((e.line, e.key.as_deref()), (Some(5), Some("start")));
    }

    #[test]
    fn lists_expand_into_labelled_cells() {
        let s = parse(
            "trials = 2\nboards = [\"6x6\", \"8x8\"]\n[[solver]]\nsolver = \"network\"\nc = [3, 4]\ns = [2]\norder = \"square-sweep\"\n[[solver]]\nsolver = \"network:brant\"\nlabel = \"b\"\ninit = [\"random-outputs\"]\nboards = [\"6x6\"]\n",
        )
        .unwrap();
        let keys: Vec<String> = s.cells.iter().map(Cell::key).collect();
        assert_eq!(
            keys,
            [
                "parberry* c=3 s=2/6x6",
                "parberry* c=3 s=2/8x8",
                "parberry* c=4 s=2/6x6",
                "parberry* c=4 s=2/8x8",
                "b init=random-outputs/6x6",
            ]
        );
        let p = s.cells[1].params().unwrap();
        assert_eq!((p.c, p.s, p.order), (3, 2, UpdateOrder::SquareSweep));
        assert_eq!(s.cells[1].variant(), "parberry --c 3 --order square-sweep");
        assert_eq!(
            s.cells.iter().map(|c| c.index).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        // The default reference is the first network cell's label.
        assert_eq!(s.reference_label(), Some("parberry* c=3 s=2"));
    }

    #[test]
    fn sweep_bounds_are_checked_before_expansion() {
        // 200 x 200 x 1 = 40,000 cells: refused from the list lengths.
        let list: Vec<String> = (0..200).map(|i| i.to_string()).collect();
        let text = format!(
            "trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nc = [{0}]\nupper = [{0}]\n",
            list.join(", ")
        );
        let e = parse(&text).unwrap_err().to_string();
        assert!(e.contains("40000 cells") && e.contains("10000"), "{e}");
        let e = parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nc = []\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("empty list") && e.contains("line 5"), "{e}");
        let e = parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\norder = [\"row-major\", \"diagonal\"]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("diagonal") && e.contains("line 5"), "{e}");
        let e =
            parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nc = [4, 4]\n")
                .unwrap_err()
                .to_string();
        assert!(e.contains("twice"), "{e}");
        let e = parse(
            "trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warnsdorff\"\nc = [4, 5]\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("network solvers only"), "{e}");
    }

    #[test]
    fn cells_hold_typed_values_and_read_back_as_written() {
        let s = parse(
            "trials = 2\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network:parberry\"\nopen = true\nstart = \"2,1\"\n[[solver]]\nsolver = \"network+merge\"\ntile = \"whole\"\n[[solver]]\nsolver = \"warnsdorff:random\"\nrestarts = 3\nstart = \"random\"\n[[solver]]\nsolver = \"backtrack\"\nmax_steps = 100\nstart = \"c3\"\n",
        )
        .unwrap();
        let board: Board = "6x6".parse().unwrap();
        let c = &s.cells;
        assert_eq!(c[0].board, board);
        assert_eq!(c[0].start, Some(StartRule::Square(board.index(2, 1))));
        assert_eq!(
            c[0].tours(),
            Tours::Open {
                start: Some(board.index(2, 1))
            }
        );
        assert_eq!(c[0].params().map(|p| p.max_attempts), Some(1));
        assert!(matches!(
            c[1].solver,
            SolverKind::NetworkMerge {
                tile: crate::solvers::neural_merge::TileMode::Whole,
                ..
            }
        ));
        assert!(matches!(
            c[2].solver,
            SolverKind::Warnsdorff { restarts: 3, .. }
        ));
        assert_eq!(c[2].start, Some(StartRule::Random));
        assert!(matches!(
            c[3].solver,
            SolverKind::Backtrack { max_steps: 100 }
        ));
        assert_eq!(c[3].start, Some(StartRule::Square(board.index(3, 2))));
        // run.json: the strings a spec gives, the square by its name, the caps given.
        let json = serde_json::to_value(&s).unwrap();
        let cell = |i: usize, key: &str| json["cells"][i][key].clone();
        assert_eq!(cell(0, "board"), "6x6");
        assert_eq!(cell(0, "solver"), "network:parberry");
        assert_eq!(cell(0, "start"), "b4");
        assert_eq!(cell(1, "solver"), "network+merge:parberry");
        assert_eq!(cell(1, "merge")["tile"], "none");
        assert!(cell(1, "params").is_null());
        assert_eq!(cell(2, "solver"), "warnsdorff:random");
        assert_eq!(
            (cell(2, "restarts"), cell(2, "max_steps")),
            (3.into(), Value::Null)
        );
        assert_eq!(
            (cell(3, "max_steps"), cell(3, "start")),
            (100.into(), "c3".into())
        );
        let back: Spec = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, s);
        // A stored cell whose values do not parse or do not fit together is refused.
        for (i, key, value, needle) in [
            (
                0,
                "solver",
                "network:brant",
                "not the name of its parameters",
            ),
            (0, "board", "0x6", "zero side"),
            (1, "merge", "", "tile"),
            (2, "solver", "warnsdorff:sideways", "sideways"),
            (3, "start", "z9", "z9"),
            (2, "max_steps", "", "max-steps"),
        ] {
            let mut j = json.clone();
            j["cells"][i][key] = match (key, value) {
                ("merge", _) => {
                    serde_json::json!({"params": cell(1, "merge")["params"], "tile": "huge"})
                }
                ("max_steps", _) => 5.into(),
                _ => value.into(),
            };
            let e = serde_json::from_value::<Spec>(j).unwrap_err().to_string();
            assert!(
                e.contains(needle) && e.contains(&format!("cell {i}")),
                "{key}: {e}"
            );
        }
    }

    #[test]
    fn reference_must_name_a_label() {
        let t = "trials = 1\nboards = [\"6x6\"]\nreference = \"parberry c=5\"\n[[solver]]\nsolver = \"network\"\nc = [4, 5]\n";
        assert_eq!(parse(t).unwrap().reference_label(), Some("parberry c=5"));
        let e = parse(&t.replace("c=5\"", "c=6\"")).unwrap_err().to_string();
        assert!(
            e.contains("line 3") && e.contains("parberry c=6") && e.contains("parberry c=4"),
            "{e}"
        );
    }
}
