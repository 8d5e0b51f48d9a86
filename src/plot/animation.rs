//! Animated GIF of the network settling: one frame per recorded state (the initial
//! outputs, then after every step or sweep), each drawn as a [`BoardFigure`] of the
//! active moves. Squares without exactly two active moves are ringed; once the outputs
//! form a degree-2 cover, each cycle gets its own colour. The last frame is held.

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;

use super::board::BoardFigure;
use super::{de, finish, register_fonts, temp_path};
use crate::graph::KnightGraph;

/// What to animate.
#[derive(Debug, Clone)]
pub struct Animation<'g> {
    pub graph: &'g KnightGraph,
    /// One '0'/'1' string per recorded state, the initial state first.
    pub outputs: Vec<String>,
    /// First title line, for example "network (parberry) on 8x8, seed 5".
    pub title: String,
    /// "step" or "sweep".
    pub unit: String,
    /// How the attempt ended, shown on the last frame.
    pub outcome: String,
}

/// Frame timing and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GifOptions {
    /// Width in pixels (the height follows from the board).
    pub width: u32,
    /// Milliseconds per frame.
    pub delay_ms: u32,
    /// At most this many frames of the run (evenly sampled, first and last kept).
    pub max_frames: usize,
    /// Extra copies of the last frame, so the settled state stays on screen.
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

/// Indices of the frames shown: all if at most `max`, else `max` evenly spaced ones
/// including the first and the last.
pub fn sample_frames(total: usize, max: usize) -> Vec<usize> {
    let max = max.max(2);
    if total <= max {
        return (0..total).collect();
    }
    let mut v: Vec<usize> = (0..max)
        .map(|i| ((i as f64) * (total - 1) as f64 / (max - 1) as f64).round() as usize)
        .collect();
    v.dedup();
    v
}

impl Animation<'_> {
    /// The figure of recorded state `i`.
    pub fn frame(&self, i: usize) -> BoardFigure {
        let last = self.outputs.len() - 1;
        let when = if i == 0 {
            format!("initial state (0 of {last} {}s)", self.unit)
        } else {
            format!("after {} {i} of {last}", self.unit)
        };
        let subtitle = if i == last {
            format!("{when}: {}", self.outcome)
        } else {
            when
        };
        BoardFigure::outputs(self.graph, &self.outputs[i], self.title.clone(), subtitle)
    }

    /// Write the GIF; returns the number of frames written.
    pub fn save_gif(&self, path: &Path, opts: GifOptions) -> anyhow::Result<usize> {
        anyhow::ensure!(!self.outputs.is_empty(), "nothing to animate");
        register_fonts();
        if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create folder {}", dir.display()))?;
        }
        let frames = sample_frames(self.outputs.len(), opts.max_frames);
        let size = self.frame(0).size(opts.width);
        let tmp = temp_path(path);
        let result = (|| -> anyhow::Result<usize> {
            let backend = BitMapBackend::gif(&tmp, size, opts.delay_ms.max(10))
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            let root = backend.into_drawing_area();
            let last = *frames.last().expect("at least one frame");
            let mut written = 0;
            for &i in frames.iter().chain(std::iter::repeat_n(&last, opts.hold)) {
                self.frame(i).draw(&root)?;
                root.present().map_err(de)?;
                written += 1;
            }
            Ok(written)
        })();
        match result {
            Ok(n) => {
                finish(&tmp, path)?;
                Ok(n)
            }
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(e)
            }
        }
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
    }
}
