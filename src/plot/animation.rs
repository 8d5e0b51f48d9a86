//! Animated GIF of the network settling: one frame per recorded state (the initial
//! outputs, then after every step or sweep), each drawn as a [`BoardFigure`] of the
//! active moves. Squares without exactly two active moves are ringed; once the outputs
//! form a degree-2 cover, each cycle gets its own colour. The last frame is held.
//! On the open graph the apex is not drawn (see [`BoardFigure::outputs`]); the title
//! says so.

use std::path::Path;

use plotters::prelude::*;

use super::board::BoardFigure;
use super::trace::squares_off_two;
use super::{Figure, PlotError, bitmap_err, prepare, register_fonts};
use crate::graph::KnightGraph;
use crate::network::OutputState;
use crate::network::Termination;
use crate::trace_file::IterationUnit;

/// What to animate.
#[derive(Debug, Clone)]
pub struct Animation<'g> {
    /// The graph the neurons are the edges of.
    pub graph: &'g KnightGraph,
    /// The recorded states, the initial one first: one frame each.
    pub outputs: Vec<OutputState>,
    /// First title line, for example "network (parberry) on 8x8, seed 5".
    pub title: String,
    /// What one recorded step is (a step or a sweep), as the subtitles count them.
    pub unit: IterationUnit,
    /// How the attempt ended, shown on the last frame.
    pub termination: Termination,
}

/// Frame timing and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GifOptions {
    /// Width in pixels (the height follows from the board).
    pub width: u32,
    /// Milliseconds per frame.
    pub delay_ms: u32,
    /// At most this many frames in the GIF, held last frames included (1..=[`MAX_FRAMES`];
    /// states evenly sampled, first and last kept).
    pub max_frames: usize,
    /// Extra copies of the last frame, so the settled state stays on screen (within
    /// `max_frames`: see `plan_frames`).
    pub hold: usize,
}

impl Default for GifOptions {
    fn default() -> Self {
        GifOptions {
            width: 420,
            delay_ms: 250,
            max_frames: 120,
            hold: 8,
        }
    }
}

/// Most frames a GIF may have (`--max-frames`): each frame is drawn and encoded, so the
/// count is time.
pub const MAX_FRAMES: usize = 2000;

/// Indices of the states shown: all if at most `max`, else `max` evenly spaced ones
/// including the first and the last (only the last when `max` is 1).
pub(crate) fn sample_frames(total: usize, max: usize) -> Vec<usize> {
    if total <= max {
        return (0..total).collect();
    }
    if max <= 1 {
        return vec![total - 1];
    }
    let mut v: Vec<usize> = (0..max)
        .map(|i| ((i as f64) * (total - 1) as f64 / (max - 1) as f64).round() as usize)
        .collect();
    v.dedup();
    v
}

/// The states to draw and how many repeats of the last one hold it on screen, within
/// `max` frames in all: the hold takes at most a tenth of the frames (none below 10),
/// the rest are the sampled states.
pub(crate) fn plan_frames(total: usize, max: usize, hold: usize) -> (Vec<usize>, usize) {
    let hold = hold.min(max / 10);
    let frames = sample_frames(total, max - hold);
    let hold = hold.min(max - frames.len());
    (frames, hold)
}

impl Animation<'_> {
    /// How the attempt ended, in words ("a closed tour", "3 cycles (40 + 16 + 8)",
    /// ...); squares without two moves are counted over the squares only.
    pub fn ending(&self) -> String {
        let open = self.graph.apex().is_some();
        match &self.termination {
            Termination::Tour if open => "an open tour".to_string(),
            Termination::Tour => "a closed tour".to_string(),
            Termination::MultipleCycles { lengths } => format!(
                "{} cycles ({}){}",
                lengths.len(),
                lengths
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join(" + "),
                if open { ", one through the apex" } else { "" }
            ),
            Termination::StableNotDegreeTwo { .. } => {
                let off = self
                    .outputs
                    .last()
                    .map_or(self.graph.squares() as u32, |last| {
                        squares_off_two(self.graph, last)
                    });
                format!("stable, {off} squares without 2 moves")
            }
            Termination::IterationCap => "iteration cap reached".to_string(),
        }
    }

    /// The figure of recorded state `i` (which must be one: panics past the last, as
    /// indexing does); refused on a graph that is not a knight's board
    /// ([`BoardFigure::outputs`]).
    pub fn frame(&self, i: usize) -> Result<BoardFigure, PlotError> {
        let last = self.outputs.len() - 1;
        let when = if i == 0 {
            format!("initial state (0 of {last} {}s)", self.unit)
        } else {
            format!("after {} {i} of {last}", self.unit)
        };
        let mut subtitle = if i == last {
            format!("{when}: {}", self.ending())
        } else {
            when
        };
        if self.graph.apex().is_some() {
            subtitle.push_str("; open graph, apex not drawn");
        }
        BoardFigure::outputs(self.graph, &self.outputs[i], self.title.clone(), subtitle)
    }

    /// Write the GIF; returns the number of frames written.
    pub fn save_gif(&self, path: &Path, opts: GifOptions) -> Result<usize, PlotError> {
        if self.outputs.is_empty() {
            return Err(PlotError::Empty("nothing to animate".into()));
        }
        register_fonts();
        let (frames, hold) = plan_frames(self.outputs.len(), opts.max_frames, opts.hold);
        let size = self.frame(0)?.size(opts.width);
        prepare(path)?;
        let mut written = 0;
        crate::io::write_atomic_at(path, &mut |tmp: &Path| {
            let backend = BitMapBackend::gif(tmp, size, opts.delay_ms.max(10)).map_err(|e| {
                bitmap_err(plotters::drawing::DrawingAreaErrorKind::BackendError(
                    plotters_backend::DrawingErrorKind::DrawingError(e),
                ))
            })?;
            let root = backend.into_drawing_area();
            let last = *frames.last().expect("at least one frame");
            written = 0;
            for &i in frames.iter().chain(std::iter::repeat_n(&last, hold)) {
                self.frame(i)
                    .map_err(PlotError::into_io)?
                    .draw(&root)
                    .map_err(PlotError::into_io)?;
                root.present().map_err(bitmap_err)?;
                written += 1;
            }
            Ok(())
        })?;
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_keeps_ends() {
        assert_eq!(sample_frames(5, 10), vec![0, 1, 2, 3, 4]);
        let v = sample_frames(1000, 50);
        assert_eq!(v.len(), 50);
        assert_eq!((v[0], v[49]), (0, 999));
        assert_eq!(sample_frames(40, 1), vec![39]);
    }

    #[test]
    fn planned_frames_never_pass_the_maximum() {
        // The held copies count against the cap too (one frame asked for must not give
        // 2 states + 8 held copies = 10 frames).
        for total in [1, 2, 5, 40, 1000] {
            for max in 1..=130 {
                let (frames, hold) = plan_frames(total, max, 8);
                assert!(frames.len() + hold <= max, "{total} states, {max}");
                assert_eq!(*frames.last().unwrap(), total - 1);
                if max >= 2 && total >= 2 {
                    assert_eq!(frames[0], 0);
                }
            }
        }
        assert_eq!(plan_frames(40, 120, 8), ((0..40).collect(), 8));
    }
}
