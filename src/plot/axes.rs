//! Tick positions chosen by the figures themselves rather than by plotters' defaults,
//! which drop category labels on padded axes (the second of two boards lost its label),
//! leave log axes with one labelled decade, and print fractional ticks of a narrow
//! integer axis as "999 1000 1000 1000". Each function returns the exact positions to
//! label; the figures bind them to a coordinate with [`ticked`].

use std::ops::Range;

use plotters::coord::ranged1d::{AsRangedCoord, DefaultFormatting, KeyPointHint, Ranged};

/// A coordinate labelled at given positions only (plotters' own `WithKeyPoints` has no
/// default formatting, so its mesh cannot take a label formatter).
#[derive(Clone)]
pub(crate) struct Ticked<R: Ranged> {
    inner: R,
    ticks: Vec<R::ValueType>,
}

/// Bind `ticks` to the coordinate `range` (a range, or a log-scale range).
pub(crate) fn ticked<R: AsRangedCoord>(range: R, ticks: Vec<R::Value>) -> Ticked<R::CoordDescType> {
    Ticked {
        inner: range.into(),
        ticks,
    }
}

impl<R: Ranged> Ranged for Ticked<R>
where
    R::ValueType: Clone,
{
    type FormatOption = DefaultFormatting;
    type ValueType = R::ValueType;

    fn map(&self, value: &Self::ValueType, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<Self::ValueType> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<Self::ValueType> {
        self.inner.range()
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> Range<i32> {
        self.inner.axis_pixel_range(limit)
    }
}

/// Category positions to label among `0, 1, .., n-1`: all of them when at most `max`
/// fit, else about every `n / max`-th, spread evenly from the first to the last (both
/// ends are always labelled), never closer than `ceil(n / max)` apart.
pub(crate) fn categories(n: usize, max: usize) -> Vec<f64> {
    let every = n.div_ceil(max.max(1)).max(1);
    if every == 1 || n < 2 {
        return (0..n).map(|i| i as f64).collect();
    }
    let labels = (n - 1) / every + 1;
    if labels < 2 {
        return vec![0.0];
    }
    (0..labels)
        .map(|i| ((i * (n - 1)) as f64 / (labels - 1) as f64).round())
        .collect()
}

/// The category axis for `n` items at 0, 1, .., n-1: at least three slots wide, so that
/// one item does not make one giant bar.
pub(crate) fn category_range(n: usize) -> Range<f64> {
    let pad = (3usize.saturating_sub(n)) as f64 / 2.0;
    -0.5 - pad..n as f64 - 0.5 + pad
}

/// The item a category tick at `x` stands for, if `x` is one of 0, 1, .., n-1 (the
/// label formatters of every category axis).
pub(crate) fn category_index(x: f64, n: usize) -> Option<usize> {
    let i = x.round();
    ((x - i).abs() <= 1e-6 && i >= 0.0 && (i as usize) < n).then_some(i as usize)
}

/// The x axis of a figure with one category per board (or graph), labelled as densely as
/// their names fit on an axis `width` pixels long.
pub(crate) fn board_axis(
    boards: &[impl std::fmt::Display],
    width: u32,
) -> Ticked<plotters::coord::types::RangedCoordf64> {
    let n = boards.len();
    let longest = boards
        .iter()
        .map(|b| b.to_string().chars().count())
        .max()
        .unwrap_or(1);
    // Every label when each one and its neighbour fit in their two half slots (names of
    // different lengths, like graphs beside boards); else evenly spaced ones.
    let max = if width >= axis_width_for_every_label(boards) {
        n
    } else {
        labels_that_fit(width, longest)
    };
    ticked(category_range(n), categories(n, max))
}

/// The shortest axis, in pixels, on which [`board_axis`] labels every category: each
/// label beside its neighbour in their two half slots, at the width
/// [`labels_that_fit`] allows a character.
pub(crate) fn axis_width_for_every_label(boards: &[impl std::fmt::Display]) -> u32 {
    let lengths: Vec<usize> = boards
        .iter()
        .map(|b| b.to_string().chars().count())
        .collect();
    let pair = lengths
        .windows(2)
        .map(|w| (w[0] + w[1]) * 5 + 16)
        .max()
        .unwrap_or(0);
    let range = category_range(boards.len());
    ((range.end - range.start) * pair as f64).ceil() as u32
}

/// How many category labels of up to `longest` characters fit side by side on an axis
/// `width` pixels long (about 10 px a character at the figures' 18 px tick font, plus a
/// gap).
pub(crate) fn labels_that_fit(width: u32, longest: usize) -> usize {
    (width as usize / (longest * 10 + 16)).max(1)
}

/// Ticks of a log axis over `[lo, hi]`: powers of ten, with 2 and 5 between them when
/// the range spans fewer than three decades, and 1–9 when it spans less than one.
pub(crate) fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    let decades = (hi / lo).log10();
    let mantissas: &[f64] = if decades < 1.0 {
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]
    } else if decades < 3.0 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0]
    };
    let step = if decades > 8.0 {
        (decades / 6.0).ceil() as i32
    } else {
        1
    };
    let mut v = Vec::new();
    let mut e = lo.log10().floor() as i32;
    while 10f64.powi(e) <= hi * 1.000_001 {
        if e.rem_euclid(step) == 0 {
            for m in mantissas {
                let t = m * 10f64.powi(e);
                if t >= lo * 0.999_999 && t <= hi * 1.000_001 {
                    v.push(t);
                }
            }
        }
        e += 1;
    }
    v
}

/// [`log_ticks`], thinned to powers of ten when that gives more than `max` ticks (a
/// narrow panel).
pub(crate) fn log_ticks_at_most(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    let t = log_ticks(lo, hi);
    if t.len() <= max {
        return t;
    }
    let decades: Vec<f64> = t
        .iter()
        .copied()
        .filter(|v| {
            let m = v / 10f64.powf(v.log10().floor());
            (m - 1.0).abs() < 1e-9
        })
        .collect();
    if decades.len() >= 2 { decades } else { t }
}

/// About `target` evenly spaced ticks on `[lo, hi]` at a step of 1, 2 or 5 times a power
/// of ten; whole numbers when `integer` (never a step below 1).
pub(crate) fn linear_ticks(lo: f64, hi: f64, target: usize, integer: bool) -> Vec<f64> {
    if !(hi > lo && lo.is_finite() && hi.is_finite()) {
        return vec![lo];
    }
    let raw = (hi - lo) / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let mut step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    if integer {
        step = step.max(1.0).round();
    }
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// A tick label that keeps only the digits it needs, with one rule on every axis: below
/// a thousand as is (0.5, 2, 950), thousands as k (1k, 1.5k, 200k), millions as M (2M).
pub fn number(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if a >= 1e3 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

/// Seconds as a value in ns, µs, ms or s and that unit.
pub(crate) fn engineering(s: f64) -> (f64, &'static str) {
    let a = s.abs();
    if a < 1e-6 {
        (s * 1e9, "ns")
    } else if a < 1e-3 {
        (s * 1e6, "µs")
    } else if a < 1.0 {
        (s * 1e3, "ms")
    } else {
        (s, "s")
    }
}

/// A time tick (in seconds) in engineering units without needless digits: 1 ms, 20 µs,
/// 2.5 s (every time axis of the figures).
pub fn seconds(s: f64) -> String {
    let (v, unit) = engineering(s);
    format!("{} {unit}", trim((v * 1000.0).round() / 1000.0))
}

/// A count in full with its thousands grouped, the one form of every n= label and
/// trial count the figures print: 950, 2,500, 10,000, 147,777.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A percentage tick on a log axis: 0.01%, 0.1%, 2%, 50%.
pub fn percent(p: f64) -> String {
    format!("{}%", trim(p * 100.0))
}

fn trim(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_category_is_labelled_when_few() {
        assert_eq!(categories(2, 16), vec![0.0, 1.0]);
        // Many: both ends labelled, evenly spread, never closer than every third.
        let c = categories(48, 16);
        assert_eq!((c[0], c[c.len() - 1]), (0.0, 47.0));
        assert!(c.len() <= 16, "{c:?}");
        assert!(c.windows(2).all(|w| w[1] - w[0] >= 3.0), "{c:?}");
        assert_eq!(categories(11, 4), vec![0.0, 3.0, 7.0, 10.0]);
    }

    #[test]
    fn log_ticks_label_below_the_first_decade() {
        // 20 µs .. 2 ms: 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3.
        let t = log_ticks(2e-5, 2e-3);
        assert_eq!(t.len(), 7, "{t:?}");
        assert!((t[0] - 2e-5).abs() < 1e-12);
    }

    #[test]
    fn linear_ticks_of_a_narrow_integer_axis_are_distinct_whole_numbers() {
        let t = linear_ticks(999.5, 1000.5, 5, true);
        assert_eq!(t, vec![1000.0]);
        let t = linear_ticks(0.0, 10.0, 5, true);
        assert_eq!(t, vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(number(20000.0), "20k");
        // One format on a log axis: 100, 1k, 10k (never 1000 beside 10k).
        let labels: Vec<String> = log_ticks(100.0, 1e5).into_iter().map(number).collect();
        assert_eq!(labels, ["100", "1k", "10k", "100k"]);
        assert_eq!(seconds(1e-5), "10 µs");
        assert_eq!(count(950), "950");
        assert_eq!(count(2500), "2,500");
        assert_eq!(count(10_000), "10,000");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(seconds(1e-3), "1 ms");
        assert_eq!(seconds(2.5), "2.5 s");
        assert_eq!(percent(0.0003), "0.03%");
    }
}
