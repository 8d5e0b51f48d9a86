//! Every figure a results folder supports, decided in one place: which figures its
//! records (and its `run.json`, and the optional published rates and H/F counts) allow,
//! in the order they are drawn, each with the file name it is written under and, when
//! it cannot be drawn, why.

use std::path::{Path, PathBuf};

use super::data::{Records, aggregate};
use super::failures::{self, FailureAnatomy};
use super::{
    cost::CostPerTour, hf, hf::HfRatio, iterations::IterationHistograms, outcomes::OutcomeShares,
    phase::PhaseDiagram, published::Published, run_length::RunLengths, tour_rate::TourRate,
};
use crate::experiment::Replay;

/// One figure of a results folder, ready to be written.
#[derive(Debug)]
#[non_exhaustive]
pub enum ResultsFigure {
    /// Outcome shares by board ([`OutcomeShares`]).
    Outcomes(OutcomeShares),
    /// p(tour) per board on a log axis (`TourRate`).
    TourRate(TourRate),
    /// Tours among settled attempts against H/F ([`HfRatio`]).
    HfRatio(HfRatio),
    /// Iteration histograms ([`IterationHistograms`]).
    Iterations(IterationHistograms),
    /// Cost per tour ([`CostPerTour`]).
    Cost(CostPerTour),
    /// Run-length distributions (`RunLengths`).
    RunLengths(RunLengths),
    /// Phase diagram of a sweep ([`PhaseDiagram`]).
    Phase(PhaseDiagram),
    /// Anatomy of several-cycle failures ([`FailureAnatomy`]).
    Failures(FailureAnatomy),
}

impl ResultsFigure {
    /// Write the figure and its data (`.csv` beside it).
    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        match self {
            ResultsFigure::Outcomes(f) => f.save(path),
            ResultsFigure::TourRate(f) => f.save(path),
            ResultsFigure::HfRatio(f) => f.save(path),
            ResultsFigure::Iterations(f) => f.save(path),
            ResultsFigure::Cost(f) => f.save(path),
            ResultsFigure::RunLengths(f) => f.save(path),
            ResultsFigure::Phase(f) => f.save(path),
            ResultsFigure::Failures(f) => f.save(path),
        }
    }
}

impl ResultsFigure {
    /// The figure's data, as written beside it (`.csv`).
    pub fn table(&self) -> super::table::Table {
        match self {
            ResultsFigure::Outcomes(f) => f.table(),
            ResultsFigure::TourRate(f) => f.table(),
            ResultsFigure::HfRatio(f) => f.table(),
            ResultsFigure::Iterations(f) => f.table(),
            ResultsFigure::Cost(f) => f.table(),
            ResultsFigure::RunLengths(f) => f.table(),
            ResultsFigure::Phase(f) => f.table(),
            ResultsFigure::Failures(f) => f.table(),
        }
    }
}

/// One row of the table: a figure of the folder, or why it is left out.
#[derive(Debug)]
pub struct Planned {
    /// File name without extension (`outcomes`, `tour-rate`, ...).
    pub stem: &'static str,
    /// What the figure shows, as said when it is written.
    pub drawn: &'static str,
    /// What it would show, as said when it is skipped.
    pub skipped: &'static str,
    /// The figure, or why the folder does not support it.
    pub figure: Result<ResultsFigure, String>,
}

/// What the figures of a results folder are drawn from.
#[derive(Debug)]
pub struct ResultsInputs<'a> {
    /// The name in the figures' subtitles ([`source_name`]).
    pub source: &'a str,
    /// The results folder, where `run.json` is looked for (a records file given instead
    /// has none: the figures that need the run are left out).
    pub results: &'a Path,
    /// The folder's records.
    pub records: &'a Records,
    /// Published tour rates to draw beside the measured p(tour).
    pub published: Option<Published>,
    /// Closed-tour and 2-factor counts per board: with them, the H/F figure is planned.
    pub counts: Option<hf::Counts>,
}

/// The name a results folder's figures give it: the folder's name (of `results`, or of
/// the folder holding the records file `results`), else `results`.
pub fn source_name(results: &Path) -> String {
    let dir = if results.is_dir() {
        results
    } else {
        results.parent().unwrap_or(Path::new("."))
    };
    dir.file_name().map_or_else(
        || crate::experiment::RESULTS_DIR.to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The folder a results folder's figures go to when none is named: `out/plots/SOURCE`.
pub fn default_out(source: &str) -> PathBuf {
    Path::new("out").join("plots").join(source)
}

/// Every figure the inputs support, in drawing order, or why each is left out (the H/F
/// figure is planned only with counts). A network trial whose replay does not match its
/// record is an error ([`FailureAnatomy::new`]), not a skipped figure.
pub fn plan(inputs: ResultsInputs<'_>) -> Result<Vec<Planned>, super::PlotError> {
    let ResultsInputs {
        source,
        results,
        records,
        published,
        counts,
    } = inputs;
    let groups = aggregate(records);
    let why = |why: &str| why.to_string();
    let mut plan = vec![
        Planned {
            stem: "outcomes",
            drawn: "outcome shares by board",
            skipped: "outcome shares",
            figure: OutcomeShares::new(source, &groups)
                .map(ResultsFigure::Outcomes)
                .ok_or_else(|| {
                    why("no network trials (network+merge that always found a tour is left out)")
                }),
        },
        Planned {
            stem: "tour-rate",
            drawn: "p(tour) per board, log axis",
            skipped: "p(tour) per board",
            figure: TourRate::new(source, &groups, published)
                .map(ResultsFigure::TourRate)
                .ok_or_else(|| why("no network trials")),
        },
    ];
    if let Some(counts) = counts {
        plan.push(Planned {
            stem: "hf-ratio",
            drawn: "tours among settled attempts against H/F",
            skipped: "tours among settled attempts against H/F",
            figure: HfRatio::new(source, &groups, counts)
                .map(ResultsFigure::HfRatio)
                .ok_or_else(|| why("no network trial settled on a board of the counts file")),
        });
    }
    // A folder whose rows do not match its run.json loses the figures that need it only.
    // Rows are replayed by the figures that need their cycles (a mismatch there is an
    // error), not here.
    let run_json = results.join(crate::experiment::RUN);
    let run = if std::fs::symlink_metadata(&run_json).is_ok() {
        crate::experiment::summary::from_folder(results, Replay::Sample(0))
            .map_err(|e| format!("cannot read the run: {e}"))
    } else {
        Err(why(
            "needs the results folder's run.json (the cells' parameters)",
        ))
    };
    plan.push(Planned {
        stem: "iterations",
        drawn: "iteration histograms",
        skipped: "iteration histograms",
        figure: records
            .has_iterations
            .then(|| IterationHistograms::new(source, &groups))
            .flatten()
            .map(ResultsFigure::Iterations)
            .ok_or_else(|| why("no network trials with an 'iterations' column")),
    });
    plan.push(Planned {
        stem: "cost",
        drawn: "cost per tour",
        skipped: "cost per tour",
        figure: records
            .time_column
            .as_deref()
            .and_then(|col| CostPerTour::new(source, col, &groups))
            .map(|cost| match &run {
                Ok((spec, _)) => cost.with_tiling(spec, records),
                Err(_) => cost,
            })
            .map(ResultsFigure::Cost)
            .ok_or_else(|| why("needs a timing column ending in _ns and at least one tour")),
    });
    plan.push(Planned {
        stem: "run-length",
        drawn: "run-length distributions",
        skipped: "run-length distributions",
        figure: RunLengths::new(source, records)
            .map(ResultsFigure::RunLengths)
            .ok_or_else(|| why("needs an 'iterations' column and at least one tour")),
    });
    plan.push(Planned {
        stem: "phase",
        drawn: "phase diagram of the sweep",
        skipped: "phase diagram",
        figure: match &run {
            Ok((spec, summary)) => {
                PhaseDiagram::new(source, spec, summary).map(ResultsFigure::Phase)
            }
            Err(why) => Err(why.clone()),
        },
    });
    let failures = match &run {
        Ok((spec, _)) => FailureAnatomy::new(source, spec, &records.rows, failures::PER_BOARD)?
            .map(ResultsFigure::Failures)
            .ok_or_else(|| why("no network trial ended in several cycles")),
        Err(why) => Err(why.clone()),
    };
    plan.push(Planned {
        stem: "failures",
        drawn: "anatomy of several-cycle failures",
        skipped: "anatomy of several-cycle failures",
        figure: failures,
    });
    Ok(plan)
}
