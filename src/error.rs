//! Errors a request can meet before or while it is served. An error value carries what
//! went wrong as fields: the parameter ([`Param`]), the value given, what is accepted,
//! and a suggestion ([`Hint`]) naming another setting. Its `Display` words parameters
//! neutrally (`threads = 0 is not accepted; give 1 to 1024`); a front end words them its
//! own way through [`InputError::render`] and a [`Naming`] (the command line as flags,
//! the Python bindings as keyword arguments).
//!
//! [`InputError`] is what the input must change (exit code 2 on the command line);
//! [`Error`](enum@Error) adds the environment's failures (out of memory, threads that cannot start,
//! a file the system refuses: exit code 1).

use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

/// A quantity a request can set, named by a front end its own way ([`Naming`]).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Param {
    /// The board, `ROWSxCOLS`.
    Board,
    /// The start square.
    Start,
    /// Closed tours only.
    Closed,
    /// Open tours allowed.
    Open,
    /// The tour walked the other way from the start.
    Reverse,
    /// The solver.
    Solver,
    /// A list of solvers.
    Solvers,
    /// The network's variant.
    Variant,
    /// The random seed.
    Seed,
    /// Trials per solver.
    Trials,
    /// Worker threads.
    Threads,
    /// The memory bound, in GiB.
    MaxMemory,
    /// The step budget of a search.
    MaxSteps,
    /// The network's attempts per run.
    MaxAttempts,
    /// Warnsdorff's restarts.
    Restarts,
    /// Warnsdorff's tie-break.
    TieBreak,
    /// The counting method.
    Method,
    /// The tour written square by square as it is built.
    Stream,
    /// The tile side of network+merge.
    Tile,
    /// Counting every solution.
    Count,
    /// The time budget, in seconds.
    Budget,
    /// The board sides of a growth fit.
    Sizes,
    /// Where results are written: an experiment's or a merge's folder, a figure's file.
    Out,
    /// Continuing the run a results folder holds.
    Resume,
    /// The share of an experiment's trials one process runs, `I/N`.
    Shard,
    /// Records rows replayed per records file when a folder is checked.
    Replay,
    /// Merging folders that do not hold every trial.
    Partial,
    /// The file of published tour rates a figure compares with.
    Published,
    /// The counts file of H (closed tours) and F (two-factors) per board.
    Hf,
    /// The image of an animation's last state.
    Final,
    /// A PNG image's path.
    Png,
    /// An SVG image's path.
    Svg,
    /// A figure's file, as the Python bindings name it.
    Path,
    /// The leaper, `R,S`.
    Leaper,
    /// The surface: plane, cylinder or torus.
    Surface,
    /// The board as a picture of squares and holes.
    Shape,
    /// A graph read from a file.
    Graph,
    /// The network's cycles merged into one tour.
    Merge,
}

impl Param {
    /// The neutral name, words joined by `-` (`max-steps`).
    pub fn name(self) -> &'static str {
        match self {
            Param::Board => "board",
            Param::Start => "start",
            Param::Closed => "closed",
            Param::Open => "open",
            Param::Reverse => "reverse",
            Param::Solver => "solver",
            Param::Solvers => "solvers",
            Param::Variant => "variant",
            Param::Seed => "seed",
            Param::Trials => "trials",
            Param::Threads => "threads",
            Param::MaxMemory => "max-memory",
            Param::MaxSteps => "max-steps",
            Param::MaxAttempts => "max-attempts",
            Param::Restarts => "restarts",
            Param::TieBreak => "tie-break",
            Param::Method => "method",
            Param::Stream => "stream",
            Param::Tile => "tile",
            Param::Count => "count",
            Param::Budget => "budget",
            Param::Sizes => "sizes",
            Param::Out => "out",
            Param::Resume => "resume",
            Param::Shard => "shard",
            Param::Replay => "replay",
            Param::Partial => "partial",
            Param::Published => "published",
            Param::Hf => "hf",
            Param::Final => "final",
            Param::Png => "png",
            Param::Svg => "svg",
            Param::Path => "path",
            Param::Leaper => "leaper",
            Param::Surface => "surface",
            Param::Shape => "shape",
            Param::Graph => "graph",
            Param::Merge => "merge",
        }
    }
}

impl Param {
    /// The name as an identifier, words joined by `_` (`max_steps`): a Python keyword
    /// argument, a spec key.
    pub fn keyword(self) -> String {
        self.name().replace('-', "_")
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a front end names parameters in an error's words.
pub trait Naming {
    /// A parameter by itself: `threads`, `--threads`.
    fn param(&self, p: Param) -> String;
    /// A parameter given a value: `threads = 0`, `--threads 0`.
    fn setting(&self, p: Param, value: &str) -> String;
    /// A switch turned on: `open`, `--open` (a flag without a value), `open=True`.
    fn switch(&self, p: Param) -> String {
        self.param(p)
    }
    /// A parameter whose value is a bound, with its unit: `max-memory (GiB)`.
    fn bound(&self, p: Param) -> String {
        match p {
            Param::MaxMemory => format!("{} (GiB)", self.param(p)),
            Param::Budget => format!("{} (seconds)", self.param(p)),
            _ => self.param(p),
        }
    }
}

/// The library's own wording: [`Param::name`], and `name = value`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Neutral;

impl Naming for Neutral {
    fn param(&self, p: Param) -> String {
        p.name().to_string()
    }
    fn setting(&self, p: Param, value: &str) -> String {
        format!("{} = {value}", p.name())
    }
}

/// A parameter, with the value given when it has one (`None`: a switch, such as
/// [`Param::Open`], or a parameter named without its value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// The parameter.
    pub param: Param,
    /// Its value.
    pub value: Option<String>,
}

impl Setting {
    /// A switch or a parameter named without its value.
    pub fn of(param: Param) -> Setting {
        Setting { param, value: None }
    }

    /// A parameter with its value.
    pub fn with(param: Param, value: impl fmt::Display) -> Setting {
        Setting {
            param,
            value: Some(value.to_string()),
        }
    }

    fn words(&self, n: &dyn Naming) -> String {
        match &self.value {
            Some(v) => n.setting(self.param, v),
            None => n.param(self.param),
        }
    }
}

/// A message that names parameters in its sentence, each worded by the front end
/// ([`Naming`]): `OUT already holds a run; pass RESUME to continue it`. Built word by
/// word ([`Phrase::text`], [`Phrase::param`], ...); [`Phrase::params`] lists what it
/// names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Phrase(Vec<Word>);

/// One piece of a [`Phrase`].
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Word {
    /// Words that name no parameter.
    Text(String),
    /// A parameter by itself ([`Naming::param`]).
    Param(Param),
    /// A parameter given a value ([`Naming::setting`]).
    Setting(Param, String),
    /// A switch turned on ([`Naming::switch`]).
    Switch(Param),
}

impl Phrase {
    /// An empty phrase.
    pub fn new() -> Phrase {
        Phrase::default()
    }

    /// The phrase followed by `text`.
    pub fn text(mut self, text: impl Into<String>) -> Phrase {
        self.0.push(Word::Text(text.into()));
        self
    }

    /// The phrase followed by the parameter `p`.
    pub fn param(mut self, p: Param) -> Phrase {
        self.0.push(Word::Param(p));
        self
    }

    /// The phrase followed by `p` given `value`.
    pub fn setting(mut self, p: Param, value: impl fmt::Display) -> Phrase {
        self.0.push(Word::Setting(p, value.to_string()));
        self
    }

    /// The phrase followed by the switch `p` turned on.
    pub fn switch(mut self, p: Param) -> Phrase {
        self.0.push(Word::Switch(p));
        self
    }

    /// Its pieces, in order.
    pub fn words(&self) -> &[Word] {
        &self.0
    }

    /// The parameters it names, in order.
    pub fn params(&self) -> impl Iterator<Item = Param> + '_ {
        self.0.iter().filter_map(|w| match w {
            Word::Text(_) => None,
            Word::Param(p) | Word::Setting(p, _) | Word::Switch(p) => Some(*p),
        })
    }

    /// The phrase's words, parameters named by `n`.
    pub fn render(&self, n: &dyn Naming) -> String {
        let mut s = String::new();
        for w in &self.0 {
            match w {
                Word::Text(t) => s.push_str(t),
                Word::Param(p) => s.push_str(&n.param(*p)),
                Word::Setting(p, v) => s.push_str(&n.setting(*p, v)),
                Word::Switch(p) => s.push_str(&n.switch(*p)),
            }
        }
        s
    }
}

impl fmt::Display for Phrase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&Neutral))
    }
}

/// What a parameter accepts.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepted {
    /// A whole number from `min` to `max`.
    Range {
        /// The least accepted.
        min: u64,
        /// The most accepted.
        max: u64,
    },
    /// A whole number of at least this.
    AtLeast(u64),
    /// A positive number of this unit.
    Positive(&'static str),
    /// Board sides of at least this (smaller boards have no tour).
    BoardSides(u64),
}

impl fmt::Display for Accepted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Accepted::Range { min, max } => write!(f, "{min} to {max}"),
            Accepted::AtLeast(min) => write!(f, "at least {min}"),
            Accepted::Positive(unit) => write!(f, "a positive number of {unit}"),
            Accepted::BoardSides(min) => {
                write!(f, "sides of at least {min} (smaller boards have no tour)")
            }
        }
    }
}

/// Which requests a parameter applies to.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// One solver, by its name.
    Solver(&'static str),
    /// The search solvers (backtrack, forward-check, warnsdorff-backtrack).
    SearchSolvers,
    /// The exhaustive solvers of the queens puzzle.
    ExhaustiveSolvers,
    /// Warnsdorff's random tie-break (a deterministic one repeats the same run).
    RandomTieBreak,
}

/// A suggestion: what to change so that the request can be served.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// Use another solver (the first named; the others also do).
    UseSolver(&'static [&'static str]),
    /// Allow an open tour (or use another solver).
    AllowOpen {
        /// A solver that finds one.
        or_solver: &'static str,
    },
    /// Ask for closed tours.
    AskClosed,
    /// Raise a bound.
    Raise(Param),
    /// Drop a parameter.
    Drop(Param),
    /// Give a parameter this value.
    Use(Setting),
    /// Either of two changes.
    Either(Box<Hint>, Box<Hint>),
    /// Give the parameter a value it accepts.
    GiveAccepted(Param),
    /// Give the parameter in this form.
    Give(Setting),
    /// Serve the request without the parameter.
    Without(Param),
    /// Use another parameter for another kind of solver.
    Instead {
        /// The other parameter.
        param: Param,
        /// The solvers it is for.
        solvers: &'static str,
    },
    /// Choose another tile side (or none).
    OtherTile {
        /// Even sides from this up tile an open tour's board.
        even_from: Option<u64>,
        /// Whether no tiling is also a way.
        or_none: bool,
    },
    /// Give solvers that find open tours.
    OpenSolvers,
}

impl Hint {
    /// The hint's words, parameters named by `n`.
    pub fn render(&self, n: &dyn Naming) -> String {
        match self {
            Hint::UseSolver(names) => {
                let first = n.setting(Param::Solver, names[0]);
                match &names[1..] {
                    [] => format!("use {first}"),
                    rest => format!("use {first} (or {})", rest.join(", ")),
                }
            }
            Hint::AllowOpen { or_solver } => format!(
                "add {} (or try {})",
                n.switch(Param::Open),
                n.setting(Param::Solver, or_solver)
            ),
            Hint::AskClosed => format!("add {}", n.switch(Param::Closed)),
            Hint::Raise(p) => format!("raise {} to allow it", n.bound(*p)),
            Hint::Drop(p) => format!("drop {}", n.param(*p)),
            Hint::Use(s) => format!("use {}", s.words(n)),
            Hint::Either(a, b) => format!("{}, or {}", a.render(n), b.render(n)),
            Hint::GiveAccepted(p) => format!("give {} it accepts", n.param(*p)),
            Hint::Give(s) => format!("give {}", s.words(n)),
            Hint::Without(p) => format!("serve it without {}", n.param(*p)),
            Hint::Instead { param, solvers } => {
                format!("use {} for {solvers}", n.param(*param))
            }
            Hint::OtherTile { even_from, or_none } => {
                let mut s = match even_from {
                    Some(m) => format!("give an even tile side of {m} or more"),
                    None => format!("choose another {}", n.param(Param::Tile)),
                };
                if *or_none {
                    s.push_str(&format!(", or {}", n.setting(Param::Tile, "none")));
                }
                s
            }
            Hint::OpenSolvers => format!(
                "with {} give solvers that find open tours (network, network+merge, warnsdorff, backtrack, forward-check, warnsdorff-backtrack, divide-conquer)",
                n.param(Param::Open)
            ),
        }
    }
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&Neutral))
    }
}

/// A request refused, with the settings it concerns, why, and what to change:
/// `[SETTING[ with SETTING[ and SETTING]]: ]REASON[; HINT]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The settings the refusal is about (empty: the request as a whole).
    pub about: Vec<Setting>,
    /// Why, in words that name no parameter.
    pub reason: String,
    /// What to change, if something would do.
    pub hint: Option<Hint>,
}

impl Refusal {
    /// A refusal for `reason`, about nothing in particular and without a hint.
    pub fn new(reason: impl Into<String>) -> Refusal {
        Refusal {
            about: Vec::new(),
            reason: reason.into(),
            hint: None,
        }
    }

    /// The same refusal about `settings`.
    pub fn about(mut self, settings: impl IntoIterator<Item = Setting>) -> Refusal {
        self.about.extend(settings);
        self
    }

    /// The same refusal with a hint.
    pub fn hint(mut self, hint: Hint) -> Refusal {
        self.hint = Some(hint);
        self
    }

    /// The refusal's words, parameters named by `n`.
    pub fn render(&self, n: &dyn Naming) -> String {
        let mut s = String::new();
        for (i, a) in self.about.iter().enumerate() {
            s.push_str(match i {
                0 => "",
                1 => " with ",
                _ => " and ",
            });
            s.push_str(&a.words(n));
        }
        if !self.about.is_empty() {
            s.push_str(": ");
        }
        s.push_str(&self.reason);
        if let Some(h) = &self.hint {
            s.push_str("; ");
            s.push_str(&h.render(n));
        }
        s
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&Neutral))
    }
}

impl From<String> for Refusal {
    fn from(reason: String) -> Refusal {
        Refusal::new(reason)
    }
}

impl From<&str> for Refusal {
    fn from(reason: &str) -> Refusal {
        Refusal::new(reason)
    }
}

/// Bad input: a board, square, parameter, file or request that cannot be served. What
/// the input must change; the environment's failures are [`Error`](enum@Error)'s other variants.
#[non_exhaustive]
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum InputError {
    /// A board that cannot be read or served.
    #[error("{0}")]
    Board(String),
    /// A square that cannot be read or is off the board.
    #[error("{0}")]
    Square(String),
    /// A parameter's value, in words (the typed variants below say more).
    #[error("{0}")]
    Parameter(String),
    /// A parameter given a value it does not accept.
    #[error("{}", self.render(&Neutral))]
    OutOfRange {
        /// The parameter.
        param: Param,
        /// The value given.
        value: String,
        /// What it accepts.
        accepted: Accepted,
    },
    /// A parameter given to a solver it does not apply to.
    #[error("{}", self.render(&Neutral))]
    NotApplicable {
        /// The parameter.
        param: Param,
        /// The solver given.
        solver: String,
        /// What it applies to.
        scope: Scope,
        /// What to use instead.
        hint: Option<Hint>,
    },
    /// A list that names nothing.
    #[error("{}", self.render(&Neutral))]
    Empty {
        /// The list's parameter.
        param: Param,
    },
    /// A name that names nothing of its kind (a solver, a variant, a tie-break, ...).
    #[error("{}", self.render(&Neutral))]
    Unknown {
        /// The kind of name (`solver`, `variant`, `tie-break`, ...).
        what: &'static str,
        /// The name given.
        given: String,
        /// The names accepted, in the order to show them.
        accepted: Vec<String>,
    },
    /// Settings that cannot be served together, or a setting the request cannot take.
    #[error("{}", self.render(&Neutral))]
    Unsupported(Refusal),
    /// The request is impossible by a theorem (for example a closed tour on an odd board).
    #[error("{}", self.render(&Neutral))]
    Impossible(Refusal),
    /// The request is beyond a bound given ([`Param::MaxMemory`]) or a hard
    /// representation limit (32-bit edge indices, the frontier key's width).
    #[error("{}", self.render(&Neutral))]
    TooLarge(Refusal),
    /// The request needs more memory than this process may use
    /// ([`crate::memory::limit`]), or a large buffer could not be allocated: not the
    /// input's fault but the environment's ([`InputError::is_environment`]).
    #[error(transparent)]
    OutOfMemory(#[from] crate::memory::MemoryError),
    /// The worker threads asked for could not be started: the environment's failure.
    #[error(transparent)]
    Threads(#[from] ThreadsError),
    /// An error about one of several things a request names (a solver of a list).
    #[error("{}", self.render(&Neutral))]
    Within {
        /// The thing, as the request names it (`network:parberry`).
        what: String,
        /// Its error.
        error: Box<InputError>,
    },
    /// A spec, tour or trace file that cannot be read or parsed.
    #[error("{0}")]
    File(String),
    /// Bad input whose message names parameters in its sentence (a results folder
    /// given where another is needed, a value in a form not accepted).
    #[error("{}", self.render(&Neutral))]
    Named(Phrase),
    /// A spec whose content cannot be served, with what the message names as fields.
    #[error("{0}")]
    Spec(Box<SpecError>),
    /// A line of a records file that cannot be read as a record (not CSV, not UTF-8, a
    /// field that does not parse).
    #[error("{}, line {line}: {what}; it is not a knightnet records file, or was edited", path.display())]
    RecordsLine {
        /// The records file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// What is wrong with it.
        what: String,
    },
}

impl InputError {
    /// The error's words, parameters named by `n` (`Display` is this with `Neutral`).
    pub fn render(&self, n: &dyn Naming) -> String {
        match self {
            InputError::OutOfRange {
                param,
                value,
                accepted,
            } => format!(
                "{} is not accepted; give {accepted}",
                n.setting(*param, value)
            ),
            InputError::NotApplicable {
                param,
                solver,
                scope,
                hint,
            } => {
                let scope = match scope {
                    Scope::Solver(s) => n.setting(Param::Solver, s),
                    Scope::SearchSolvers => {
                        "the search solvers (backtrack, forward-check, warnsdorff-backtrack)".into()
                    }
                    Scope::ExhaustiveSolvers => {
                        "an exhaustive solver (brute-force, backtracking, forward-checking)".into()
                    }
                    Scope::RandomTieBreak => {
                        "the random tie-break (a deterministic one repeats the same run)".into()
                    }
                };
                let mut s = format!(
                    "{} applies only to {scope}, not '{solver}'",
                    n.param(*param)
                );
                if let Some(h) = hint {
                    s.push_str("; ");
                    s.push_str(&h.render(n));
                }
                s
            }
            InputError::Empty { param } => {
                format!("{} is empty; name at least one", n.param(*param))
            }
            InputError::Unknown {
                what,
                given,
                accepted,
            } => {
                let guess = closest(given, accepted)
                    .map(|g| format!("did you mean '{g}'? "))
                    .unwrap_or_default();
                format!(
                    "unknown {what} '{given}'; {guess}accepted: {}",
                    accepted.join(", ")
                )
            }
            InputError::Unsupported(r) | InputError::Impossible(r) | InputError::TooLarge(r) => {
                r.render(n)
            }
            InputError::Threads(t) => t.render(n),
            InputError::Within { what, error } => format!("{what}: {}", error.render(n)),
            InputError::Named(p) => p.render(n),
            e => e.to_string(),
        }
    }

    /// Whether the failure is the environment's (exit code 1) rather than the input's
    /// (exit code 2): out of memory, or threads that could not start.
    pub fn is_environment(&self) -> bool {
        matches!(self, InputError::OutOfMemory(_) | InputError::Threads(_))
    }

    /// Bad input whose message names parameters ([`InputError::Named`]).
    pub fn named(phrase: Phrase) -> InputError {
        InputError::Named(phrase)
    }

    /// A name of kind `what` (`solver`, `variant`, ...) that is none of `accepted`.
    pub fn unknown<S: Into<String>>(
        what: &'static str,
        given: &str,
        accepted: impl IntoIterator<Item = S>,
    ) -> InputError {
        InputError::Unknown {
            what,
            given: given.to_string(),
            accepted: accepted.into_iter().map(Into::into).collect(),
        }
    }

    /// A parameter error in words; the typed variants ([`InputError::OutOfRange`],
    /// [`InputError::NotApplicable`], ...) carry more.
    pub fn param(msg: impl Into<String>) -> InputError {
        InputError::Parameter(msg.into())
    }

    /// A step budget of 0 ([`Param::MaxSteps`] accepts at least 1).
    pub(crate) fn max_steps_zero() -> InputError {
        InputError::OutOfRange {
            param: Param::MaxSteps,
            value: "0".into(),
            accepted: Accepted::AtLeast(1),
        }
    }

    /// A request impossible by a theorem.
    pub fn impossible(r: impl Into<Refusal>) -> InputError {
        InputError::Impossible(r.into())
    }

    /// A request beyond a bound.
    pub(crate) fn too_large(r: impl Into<Refusal>) -> InputError {
        InputError::TooLarge(r.into())
    }

    /// Settings that cannot be served together.
    pub(crate) fn unsupported(r: impl Into<Refusal>) -> InputError {
        InputError::Unsupported(r.into())
    }

    /// The parameter this error is about, when it names one.
    pub fn about(&self) -> Option<Param> {
        match self {
            InputError::OutOfRange { param, .. }
            | InputError::NotApplicable { param, .. }
            | InputError::Empty { param } => Some(*param),
            InputError::Unsupported(r) | InputError::Impossible(r) | InputError::TooLarge(r) => {
                r.about.first().map(|s| s.param)
            }
            InputError::Named(p) => p.params().next(),
            _ => None,
        }
    }
}

/// Worker threads that could not be started (`crate::thread_pool`): more than the
/// memory allows, or refused by the system.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("{}", self.render(&Neutral))]
pub struct ThreadsError {
    /// Threads asked for.
    pub threads: usize,
    /// Why not: the memory they would reserve, or the system's message.
    pub reason: String,
}

impl ThreadsError {
    /// The error's words, parameters named by `n`.
    pub fn render(&self, n: &dyn Naming) -> String {
        format!(
            "cannot start {} threads: {}; give fewer with {}",
            self.threads,
            self.reason,
            n.param(Param::Threads)
        )
    }
}

/// Any failure of a library call: bad input, or the environment's (memory, threads, a
/// file the system refuses).
#[non_exhaustive]
#[derive(Debug, Error)]
pub enum Error {
    /// What the input must change.
    #[error(transparent)]
    Input(InputError),
    /// The request needs more memory than this process may use.
    #[error(transparent)]
    OutOfMemory(crate::memory::MemoryError),
    /// The worker threads asked for could not be started.
    #[error(transparent)]
    Threads(ThreadsError),
    /// A check the library makes on its own work failed: a bug, reported rather than
    /// returned as a wrong answer.
    #[error("internal error: {0}")]
    Internal(String),
    /// A file the system would not read or write.
    #[error("cannot {action} {}: {}", path.display(), crate::io::os_reason(source))]
    Io {
        /// What was tried: `write`, `read`, `create folder`, ...
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A results folder another process is writing (it holds the folder's lock).
    #[error(
        "{} is in use: {} is writing it (lock {}); wait for it to finish, or choose another folder",
        folder.display(),
        match holder { Some(pid) => format!("process {pid}"), None => "another process".into() },
        lock.display()
    )]
    InUse {
        /// The folder.
        folder: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// The holder's process ID, when the lock file names it.
        holder: Option<u32>,
    },
}

impl Error {
    /// Whether the failure is the environment's (exit code 1) rather than the input's
    /// (exit code 2).
    pub fn is_environment(&self) -> bool {
        !matches!(self, Error::Input(_))
    }

    /// The error's words, parameters named by `n`.
    pub fn render(&self, n: &dyn Naming) -> String {
        match self {
            Error::Input(e) => e.render(n),
            Error::Threads(t) => t.render(n),
            e => e.to_string(),
        }
    }
}

impl From<InputError> for Error {
    fn from(e: InputError) -> Error {
        match e {
            InputError::OutOfMemory(m) => Error::OutOfMemory(m),
            InputError::Threads(t) => Error::Threads(t),
            e => Error::Input(e),
        }
    }
}

impl From<crate::memory::MemoryError> for Error {
    fn from(e: crate::memory::MemoryError) -> Error {
        Error::OutOfMemory(e)
    }
}

impl From<ThreadsError> for Error {
    fn from(e: ThreadsError) -> Error {
        Error::Threads(e)
    }
}

/// An experiment spec's content that cannot be served, carrying as fields what its
/// message names: the file, the line, the `[[solver]]` entry and the key. It prints one
/// line, `ORIGIN[, line N]: [[[solver]] #K ("SOLVER"): ]MESSAGE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    /// The spec's path, or `built-in quickstart.toml`.
    pub origin: String,
    /// The 1-based line pointed at (`None`: the spec as a whole).
    pub line: Option<usize>,
    /// The `[[solver]]` entry the message names, if it names one.
    pub entry: Option<SpecEntry>,
    /// The spec key concerned (`trials`, `boards`, `start`, ...), when the message names
    /// one.
    pub key: Option<String>,
    /// What is wrong and what is accepted.
    pub message: String,
}

/// A `[[solver]]` entry of a spec, as errors name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecEntry {
    /// Its position among the entries, from 1.
    pub number: usize,
    /// Its `solver` text.
    pub solver: String,
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.origin)?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        f.write_str(": ")?;
        if let Some(e) = &self.entry {
            write!(f, "[[solver]] #{} (\"{}\"): ", e.number, e.solver)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for SpecError {}

impl From<SpecError> for InputError {
    fn from(e: SpecError) -> InputError {
        InputError::Spec(Box::new(e))
    }
}

/// The accepted name closest to `given`, when one is close enough to be a slip of the
/// keyboard: at most one edit for names of up to four characters, two up to eight,
/// three beyond (Levenshtein distance); the first of equally close names.
fn closest<'a>(given: &str, accepted: &'a [String]) -> Option<&'a str> {
    let given = given.trim();
    let limit = match given.chars().count() {
        0 => return None,
        1..=4 => 1,
        5..=8 => 2,
        _ => 3,
    };
    accepted
        .iter()
        .map(|name| (strsim::levenshtein(given, name), name))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, name)| name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_name_suggests_the_closest_accepted_one_only_when_close() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let solvers = names(&["warnsdorff", "backtrack", "network", "network+merge"]);
        assert_eq!(closest("warnsdorf", &solvers), Some("warnsdorff"));
        assert_eq!(closest("netwrok", &solvers), Some("network"));
        assert_eq!(closest("oracle", &solvers), None);
        assert_eq!(closest("", &solvers), None);
        // Short names allow one edit only: "bt" is not "backtrack".
        assert_eq!(closest("ab", &names(&["a", "abc", "xy"])), Some("a"));
        assert_eq!(closest("ab", &names(&["xy"])), None);
        let e = InputError::unknown("solver", "warnsdorf", ["warnsdorff", "backtrack"]);
        assert_eq!(
            e.to_string(),
            "unknown solver 'warnsdorf'; did you mean 'warnsdorff'? accepted: warnsdorff, backtrack"
        );
        let e = InputError::unknown("solver", "oracle", ["warnsdorff", "backtrack"]);
        assert_eq!(
            e.to_string(),
            "unknown solver 'oracle'; accepted: warnsdorff, backtrack"
        );
    }

    #[test]
    fn a_value_out_of_range_carries_its_parameter_value_and_range() {
        let e = crate::check_threads(0).unwrap_err();
        assert_eq!(
            e,
            InputError::OutOfRange {
                param: Param::Threads,
                value: "0".into(),
                accepted: Accepted::Range { min: 1, max: 1024 },
            }
        );
        assert_eq!(e.about(), Some(Param::Threads));
        assert_eq!(e.to_string(), "threads = 0 is not accepted; give 1 to 1024");
        let e = crate::growth::check_trials(0).unwrap_err();
        assert!(matches!(
            e,
            InputError::OutOfRange {
                param: Param::Trials,
                accepted: Accepted::Range { min: 1, max: 1000 },
                ..
            }
        ));
    }

    #[test]
    fn a_parameter_for_another_solver_names_both() {
        let mut kind: crate::solvers::SolverKind = "circuit".parse().unwrap();
        let e = kind.apply_classical_flags(None, Some(3), None).unwrap_err();
        assert_eq!(
            e,
            InputError::NotApplicable {
                param: Param::MaxSteps,
                solver: "circuit".into(),
                scope: Scope::SearchSolvers,
                hint: None,
            }
        );
        let e = kind.apply_classical_flags(None, Some(0), None).unwrap_err();
        assert_eq!(e, InputError::max_steps_zero());
    }

    #[test]
    fn suggestions_are_typed_hints() {
        let board = crate::board::Board::new(5, 5).unwrap();
        let mut req = crate::solvers::Request::new(board);
        req.closed = crate::solvers::Closure::Closed;
        let kind: crate::solvers::SolverKind = "network".parse().unwrap();
        match kind.build().check(&req) {
            Err(InputError::Impossible(r)) => {
                assert_eq!(
                    r.hint,
                    Some(Hint::AllowOpen {
                        or_solver: "divide-conquer"
                    })
                );
                assert!(
                    r.to_string()
                        .ends_with("add open (or try solver = divide-conquer)")
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn environment_failures_are_not_input_errors() {
        let e = Error::from(InputError::from(ThreadsError {
            threads: 4,
            reason: "refused".into(),
        }));
        assert!(matches!(e, Error::Threads(_)));
        assert!(e.is_environment());
        let e = Error::from(crate::check_threads(0).unwrap_err());
        assert!(matches!(e, Error::Input(_)) && !e.is_environment());
    }

    #[test]
    fn a_phrase_names_its_parameters_through_the_naming() {
        let e = InputError::named(
            Phrase::new()
                .setting(Param::Out, "r")
                .text(" already holds a run; pass ")
                .switch(Param::Resume)
                .text(" to continue it"),
        );
        assert_eq!(e.about(), Some(Param::Out));
        assert_eq!(
            e.to_string(),
            "out = r already holds a run; pass resume to continue it"
        );
        let e = Error::InUse {
            folder: "r".into(),
            lock: "r/.lock".into(),
            holder: Some(7),
        };
        assert!(e.is_environment());
        assert_eq!(
            e.to_string(),
            "r is in use: process 7 is writing it (lock r/.lock); wait for it to finish, or choose another folder"
        );
    }

    /// The library's files whose strings are checked for flags: every file but the
    /// binary's (`cli`, `tui`, `serve`, `main.rs`).
    fn library_sources() -> Vec<std::path::PathBuf> {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let skip = ["cli", "tui", "serve", "main.rs"];
        let mut todo = vec![src.clone()];
        let mut files = Vec::new();
        while let Some(dir) = todo.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let rel = path.strip_prefix(&src).unwrap();
                let top = rel.components().next().unwrap().as_os_str();
                if skip.iter().any(|s| top == *s) {
                    continue;
                }
                if path.is_dir() {
                    todo.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files.push(path);
                }
            }
        }
        files
    }

    /// Strings with `--` that are not a front end's words, by file and text: another
    /// program's flags, and the tool's notation for replaying a run, which is data
    /// (the records' `variant` column, a file format) and a figure's caption (the same
    /// picture whichever front end draws it, reproduced byte for byte).
    const NOT_FLAGS: [(&str, &str); 5] = [
        // git's own flags, to read the source tree's revision.
        (
            "experiment/mod.rs",
            "\"--porcelain\", \"--untracked-files=no\"",
        ),
        // The `variant` column of records.csv (docs/experiments.md).
        ("experiment/spec/cell.rs", "--start {r},{c}"),
        ("experiment/spec/cell.rs", "--open{from}"),
        // The convergence figure's caption: how to replay the run drawn.
        ("plot/convergence.rs", "solve --seed"),
        // PDF without the `pdf` feature: the cargo command that builds it.
        ("plot/mod.rs", "cargo build --release --features pdf"),
    ];

    /// Whether `line` has `--` followed by a letter (a command-line flag).
    fn names_a_flag(line: &str) -> bool {
        line.as_bytes()
            .windows(3)
            .any(|w| w[0] == b'-' && w[1] == b'-' && w[2].is_ascii_lowercase())
    }

    #[test]
    fn no_library_error_names_a_command_line_flag() {
        let mut found = Vec::new();
        for path in library_sources() {
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, line) in text.lines().enumerate() {
                if line.trim_start() == "#[cfg(test)]" {
                    break;
                }
                let code = line.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                let rel = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
                let rel = rel.strip_prefix("src").unwrap().to_string_lossy();
                let allowed = NOT_FLAGS
                    .iter()
                    .any(|(file, text)| rel == *file && code.contains(text));
                if names_a_flag(code) && !allowed {
                    found.push(format!("{}:{}: {code}", path.display(), i + 1));
                }
            }
        }
        assert!(
            found.is_empty(),
            "flags in library strings:\n{}",
            found.join("\n")
        );
    }
}
