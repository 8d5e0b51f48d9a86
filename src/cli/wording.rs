//! The library's errors in the command line's words: each [`Param`] is named by its flag
//! (`--threads`, `--max-memory`), through the one mapping [`flag`].

use knightnet::error::{Error, InputError, Naming, Param};

/// The flag that sets `p`, without its dashes: every setting's flag is its neutral name
/// (`max-steps` → `--max-steps`), so this is the one place that would say otherwise.
pub fn flag(p: Param) -> &'static str {
    p.name()
}

/// Parameters named as flags: `--threads`, `--threads 0`.
pub struct Flags;

impl Naming for Flags {
    fn param(&self, p: Param) -> String {
        format!("--{}", flag(p))
    }
    fn setting(&self, p: Param, value: &str) -> String {
        format!("--{} {value}", flag(p))
    }
}

/// A bad input's line, parameters named as flags.
pub fn input(e: &InputError) -> String {
    e.render(&Flags)
}

/// A library error's line, parameters named as flags.
pub fn error(e: &Error) -> String {
    e.render(&Flags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use knightnet::error::{Accepted, Hint, Phrase, Refusal, Scope, Setting, ThreadsError};

    #[test]
    fn a_value_out_of_range_names_its_flag() {
        let e = knightnet::check_threads(0).unwrap_err();
        assert_eq!(input(&e), "--threads 0 is not accepted; give 1 to 1024");
        assert_eq!(e.to_string(), "threads = 0 is not accepted; give 1 to 1024");
        let e = InputError::OutOfRange {
            param: Param::Trials,
            value: "0".into(),
            accepted: Accepted::Range { min: 1, max: 1000 },
        };
        assert_eq!(input(&e), "--trials 0 is not accepted; give 1 to 1000");
    }

    #[test]
    fn hints_name_flags() {
        let e = InputError::TooLarge(
            Refusal::new("counting on 8x8 needs 2 GiB").hint(Hint::Raise(Param::MaxMemory)),
        );
        assert_eq!(
            input(&e),
            "counting on 8x8 needs 2 GiB; raise --max-memory (GiB) to allow it"
        );
        let e = InputError::Impossible(Refusal::new("no closed tour").hint(Hint::AllowOpen {
            or_solver: "divide-conquer",
        }));
        assert_eq!(
            input(&e),
            "no closed tour; add --open (or try --solver divide-conquer)"
        );
        let e = InputError::Unsupported(
            Refusal::new("the open tour starts on the start square")
                .about([
                    Setting::of(Param::Reverse),
                    Setting::of(Param::Open),
                    Setting::of(Param::Start),
                ])
                .hint(Hint::Drop(Param::Reverse)),
        );
        assert_eq!(
            input(&e),
            "--reverse with --open and --start: the open tour starts on the start square; drop --reverse"
        );
        let e = InputError::NotApplicable {
            param: Param::TieBreak,
            solver: "backtrack".into(),
            scope: Scope::Solver("warnsdorff"),
            hint: None,
        };
        assert_eq!(
            input(&e),
            "--tie-break applies only to --solver warnsdorff, not 'backtrack'"
        );
    }

    #[test]
    fn environment_failures_name_flags_too() {
        let e = Error::from(ThreadsError {
            threads: 9,
            reason: "refused".into(),
        });
        assert_eq!(
            error(&e),
            "cannot start 9 threads: refused; give fewer with --threads"
        );
    }

    #[test]
    fn phrases_name_their_parameters_as_flags() {
        let e: InputError = "3/2".parse::<knightnet::experiment::Shard>().unwrap_err();
        assert!(
            input(&e).starts_with("--shard '3/2' is not accepted; give I/N"),
            "{e}"
        );
        assert!(
            e.to_string().starts_with("shard = '3/2' is not accepted"),
            "{e}"
        );
        let e = InputError::Named(
            Phrase::new()
                .text("out/q already holds a run; pass ")
                .switch(Param::Resume)
                .text(" to continue it, or choose another ")
                .param(Param::Out),
        );
        assert_eq!(
            input(&e),
            "out/q already holds a run; pass --resume to continue it, or choose another --out"
        );
        assert_eq!(e.about(), Some(Param::Resume));
    }

    #[test]
    fn every_flag_is_the_name_with_dashes() {
        for p in [
            Param::MaxMemory,
            Param::TieBreak,
            Param::MaxSteps,
            Param::Board,
        ] {
            assert_eq!(flag(p), p.name());
        }
    }
}
