//! Statistics for the project's claims: the Wilson score interval for a proportion,
//! Newcombe's hybrid score interval for a difference of two proportions, the
//! two-proportion z test, the one-sample score test against a published proportion,
//! Holm's step-down correction for multiple comparisons, and the time to solution of
//! restarted stochastic solvers (R99, TTS99), each an [`Estimate`] with its interval.
//!
//! Sources:
//! - Newcombe, "Two-sided confidence intervals for the single proportion: comparison
//!   of seven methods", Statistics in Medicine 17 (1998) 857-872 (worked values).
//! - Wilson, "Probable inference, the law of succession, and statistical inference",
//!   J. American Statistical Association 22 (1927) 209-212.
//! - Newcombe, "Interval estimation for the difference between independent
//!   proportions: comparison of eleven methods", Statistics in Medicine 17 (1998)
//!   873-890: method 10 (the hybrid score interval from two Wilson intervals).
//! - Holm, "A simple sequentially rejective multiple test procedure", Scandinavian J.
//!   of Statistics 6 (1979) 65-70.
//! - R99 and TTS99, the runs (and time) for 99% confidence of at least one success when
//!   independent runs each succeed with probability p: R99 = ⌈ln 0.01 / ln(1 − p)⌉, as
//!   in the benchmarking of annealers and stochastic search (Rønnow et al., "Defining and
//!   detecting quantum speedup", Science 345 (2014) 420-424, eq. 1).
//! - The normal tail through the complementary error function, with the Chebyshev
//!   approximation of Press, Teukolsky, Vetterling and Flannery, *Numerical Recipes in
//!   C*, 2nd ed. (1992), section 6.2 (`erfcc`): fractional error below 1.2e-7
//!   everywhere, so p-values carry at most that relative error.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `k` successes in `n` trials at normal quantile `z`.
/// Exact 0 and 1 at the ends; (0, 1) when `n` is 0.
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n_f = n as f64;
    let p = k.min(n) as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z / denom * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt();
    let lo = if k == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if k >= n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// Complementary error function (Numerical Recipes `erfcc`, fractional error < 1.2e-7).
pub(crate) fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}
#[cfg(test)]
/// Standard normal distribution function Φ(x).
pub(crate) fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Two-sided p-value of a standard normal statistic: P(|Z| >= |z|), computed from the
/// upper tail directly so that small p-values keep their relative accuracy.
pub(crate) fn two_sided_p(z: f64) -> f64 {
    if z.is_nan() {
        return 1.0;
    }
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// The result of a test of two proportions (or of one against a fixed value).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Test {
    /// Estimated difference p1 - p2 (or p - p0).
    pub difference: f64,
    /// The z statistic.
    pub z: f64,
    /// Two-sided p-value.
    pub p: f64,
}

/// Two-proportion z test with the pooled variance, two-sided: k1/n1 against k2/n2.
/// (Its z² is Pearson's chi-square of the 2 x 2 table without continuity correction.)
/// Degenerate tables (no trials, or all or no successes in both) give z = 0, p = 1.
pub fn two_proportion(k1: u64, n1: u64, k2: u64, n2: u64) -> Test {
    if n1 == 0 || n2 == 0 {
        return Test {
            difference: 0.0,
            z: 0.0,
            p: 1.0,
        };
    }
    let (p1, p2) = (k1 as f64 / n1 as f64, k2 as f64 / n2 as f64);
    let pooled = (k1 + k2) as f64 / (n1 + n2) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
    let d = p1 - p2;
    if se == 0.0 {
        return Test {
            difference: d,
            z: 0.0,
            p: 1.0,
        };
    }
    let z = d / se;
    Test {
        difference: d,
        z,
        p: two_sided_p(z),
    }
}

/// One-sample score test of k/n against a fixed proportion `p0` (0 < p0 < 1), two-sided:
/// z = (k/n - p0) / sqrt(p0 (1 - p0) / n). The test inverted by the Wilson interval.
pub fn score_test(k: u64, n: u64, p0: f64) -> Test {
    if n == 0 || !(p0 > 0.0 && p0 < 1.0) {
        return Test {
            difference: 0.0,
            z: 0.0,
            p: 1.0,
        };
    }
    let p = k as f64 / n as f64;
    let z = (p - p0) / (p0 * (1.0 - p0) / n as f64).sqrt();
    Test {
        difference: p - p0,
        z,
        p: two_sided_p(z),
    }
}

/// Newcombe's hybrid score interval (1998, method 10) for p1 - p2 at quantile `z`:
/// from the Wilson intervals (l1, u1) and (l2, u2),
/// [d - sqrt((p1 - l1)² + (u2 - p2)²), d + sqrt((u1 - p1)² + (p2 - l2)²)].
pub fn newcombe(k1: u64, n1: u64, k2: u64, n2: u64, z: f64) -> (f64, f64) {
    let p = |k: u64, n: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let (p1, p2) = (p(k1, n1), p(k2, n2));
    let (l1, u1) = wilson(k1, n1, z);
    let (l2, u2) = wilson(k2, n2, z);
    let d = p1 - p2;
    (
        d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt(),
        d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt(),
    )
}

/// Holm's step-down adjusted p-values, in the input order: sort ascending, multiply
/// the i-th smallest (from 0) by m - i, keep the running maximum, cap at 1. A
/// hypothesis is rejected at family-wise level alpha iff its adjusted p is <= alpha.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// Attempts needed for a 99% chance of at least one success when each attempt succeeds
/// independently with probability `p`: R99 = ⌈ln 0.01 / ln(1 − p)⌉ (a whole number, as
/// `f64` because it outgrows `u64` as p approaches 0). Edge cases: p ≥ 1 needs one
/// attempt, `Some(1.0)`; p ≤ 0 (or NaN) never succeeds, `None` (unbounded).
pub fn r99(p: f64) -> Option<f64> {
    if p.is_nan() || p <= 0.0 {
        return None;
    }
    if p >= 1.0 {
        return Some(1.0);
    }
    // ln(1 - p) through ln_1p keeps its accuracy for small p.
    let r = (0.01f64.ln() / (-p).ln_1p()).ceil();
    Some(r.max(1.0))
}

/// An estimate with its 95% interval, the one JSON shape of such a quantity
/// (docs/json.md): `{"value", "low", "high"}`. `value` is `None` where there is no
/// estimate (no success to estimate from); an end is `None` where it is unbounded.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Estimate {
    /// The estimate.
    pub value: Option<f64>,
    /// Lower end of the 95% interval.
    pub low: Option<f64>,
    /// Upper end of the 95% interval; `None` when unbounded.
    pub high: Option<f64>,
}

impl Estimate {
    /// The share `k / n` with its Wilson score interval at normal quantile `z` (no
    /// estimate, and the interval (0, 1), when `n` is 0).
    pub fn share(k: u64, n: u64, z: f64) -> Estimate {
        let (lo, hi) = wilson(k, n, z);
        Estimate {
            value: (n > 0).then(|| k.min(n) as f64 / n as f64),
            low: Some(lo),
            high: Some(hi),
        }
    }

    /// R99 of `k` successes in `n` attempts with the interval from the Wilson bounds of p
    /// at normal quantile `z` (R99 falls as p rises, so its lower end comes from the upper
    /// bound of p): `value` is `None` when k = 0, `high` when the lower bound of p is 0.
    /// With no attempts every field is `None` except the lower end, 1.
    pub fn r99(k: u64, n: u64, z: f64) -> Estimate {
        let (lo, hi) = wilson(k, n, z);
        Estimate {
            value: if n == 0 {
                None
            } else {
                r99(k.min(n) as f64 / n as f64)
            },
            low: r99(hi),
            high: r99(lo),
        }
    }

    /// The estimate and both ends times `factor` (TTS99: R99 times the time of one
    /// attempt, in any unit; the interval then carries the uncertainty of p only, not
    /// that of the mean time).
    pub fn times(&self, factor: f64) -> Estimate {
        Estimate {
            value: self.value.map(|r| r * factor),
            low: self.low.map(|r| r * factor),
            high: self.high.map(|r| r * factor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn normal_distribution_matches_tables() {
        // Abramowitz and Stegun (1964), Table 26.1: Φ(1) = 0.8413447461,
        // Φ(2) = 0.9772498681, Φ(3) = 0.9986501020; Φ(1.959964) = 0.975.
        assert!(close(normal_cdf(1.0), 0.841_344_746_1, 2e-7));
        assert!(close(normal_cdf(2.0), 0.977_249_868_1, 2e-7));
        assert!(close(normal_cdf(-3.0), 1.0 - 0.998_650_102_0, 2e-9));
        assert!(close(normal_cdf(Z95), 0.975, 2e-7));
        assert!(close(two_sided_p(Z95), 0.05, 1e-7));
        // Far tail, relative accuracy: P(|Z| >= 6) = 1.973175e-9 (A&S 26.2.Q tables).
        assert!(close(two_sided_p(6.0) / 1.973_175e-9, 1.0, 1e-5));
        assert_eq!(two_sided_p(f64::NAN), 1.0);
    }

    #[test]
    fn wilson_known_values() {
        // Newcombe, "Two-sided confidence intervals for the single proportion",
        // Statistics in Medicine 17 (1998) 857-872, Table I (Wilson score): 81/263 -> 0.2553 to 0.3662; 0/20 -> 0 to 0.1611;
        // 1/29 -> 0.0061 to 0.1718.
        let (lo, hi) = wilson(81, 263, Z95);
        assert!(
            close(lo, 0.2553, 5e-5) && close(hi, 0.3662, 5e-5),
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 20, Z95);
        assert!(lo == 0.0 && close(hi, 0.1611, 5e-5));
        let (lo, hi) = wilson(1, 29, Z95);
        assert!(
            close(lo, 0.0061, 5e-5) && close(hi, 0.1718, 5e-5),
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
        assert_eq!(wilson(10, 10, Z95).1, 1.0);
    }

    #[test]
    fn newcombe_matches_the_papers_examples() {
        // Newcombe (1998) Table II, method 10: (a) 56/70 - 48/80: 0.0524 to 0.3339;
        // (b) 9/10 - 3/10: 0.1705 to 0.8090; (d) 5/56 - 0/29: -0.0381 to 0.1926;
        // (f) 0/10 - 0/10: -0.2775 to 0.2775.
        for (k1, n1, k2, n2, lo, hi) in [
            (56, 70, 48, 80, 0.0524, 0.3339),
            (9, 10, 3, 10, 0.1705, 0.8090),
            (5, 56, 0, 29, -0.0381, 0.1926),
            (0, 10, 0, 10, -0.2775, 0.2775),
        ] {
            let (l, h) = newcombe(k1, n1, k2, n2, Z95);
            assert!(
                close(l, lo, 5e-5) && close(h, hi, 5e-5),
                "{k1}/{n1}-{k2}/{n2}: {l} {h}"
            );
        }
    }

    #[test]
    fn two_proportion_z_squared_is_pearsons_chi_square() {
        // The identity z² = X² (Pearson, no continuity correction) for a 2 x 2 table;
        // X² from observed and expected counts directly.
        for (k1, n1, k2, n2) in [
            (56u64, 70u64, 48u64, 80u64),
            (4506, 20000, 3881, 20000),
            (3, 10, 9, 10),
        ] {
            let t = two_proportion(k1, n1, k2, n2);
            let obs = [k1, n1 - k1, k2, n2 - k2].map(|x| x as f64);
            let (r1, r2) = (n1 as f64, n2 as f64);
            let (c1, c2) = ((k1 + k2) as f64, (n1 + n2 - k1 - k2) as f64);
            let total = r1 + r2;
            let exp = [
                r1 * c1 / total,
                r1 * c2 / total,
                r2 * c1 / total,
                r2 * c2 / total,
            ];
            let x2: f64 = obs.iter().zip(exp).map(|(o, e)| (o - e).powi(2) / e).sum();
            assert!(
                close(t.z * t.z, x2, 1e-9 * x2.max(1.0)),
                "{} {x2}",
                t.z * t.z
            );
            assert!(close(t.p, two_sided_p(x2.sqrt()), 1e-12));
        }
        assert_eq!(two_proportion(0, 10, 0, 20).p, 1.0);
        assert_eq!(two_proportion(1, 0, 0, 20).p, 1.0);
    }

    #[test]
    fn score_test_inverts_the_wilson_interval() {
        // p0 on the Wilson 95% bound gives p = 0.05 exactly (the interval is the set of
        // p0 the score test does not reject).
        let (lo, hi) = wilson(81, 263, Z95);
        assert!(close(score_test(81, 263, lo).p, 0.05, 1e-6));
        assert!(close(score_test(81, 263, hi).p, 0.05, 1e-6));
        assert!(score_test(81, 263, 81.0 / 263.0).p > 0.999_999);
        assert_eq!(score_test(1, 10, 0.0).p, 1.0);
    }

    #[test]
    fn holm_matches_the_step_down_rule() {
        // p = (0.01, 0.04, 0.03, 0.005): sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1
        // = 0.02, 0.03, 0.06, 0.04, running maximum 0.02, 0.03, 0.06, 0.06 (as R's
        // p.adjust(method = "holm") gives).
        let adj = holm(&[0.01, 0.04, 0.03, 0.005]);
        for (a, b) in adj.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!(close(*a, b, 1e-12), "{adj:?}");
        }
        assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn r99_by_hand_and_at_the_edges() {
        // p = 0.5: 0.5^6 = 1.6% > 1%, 0.5^7 = 0.78% <= 1%: 7 attempts.
        assert_eq!(r99(0.5), Some(7.0));
        // p = 0.9: 0.1^2 = 1% exactly, the ceiling of ln 0.01 / ln 0.1 = 2.
        assert_eq!(r99(0.9), Some(2.0));
        // The defining property: (1 - p)^R99 <= 0.01 < (1 - p)^(R99 - 1).
        for p in [0.001, 0.0137, 0.2254, 0.31, 0.77, 0.999] {
            let r = r99(p).unwrap();
            assert!((1.0 - p).powf(r) <= 0.01 + 1e-12, "{p} {r}");
            assert!((1.0 - p).powf(r - 1.0) > 0.01, "{p} {r}");
        }
        assert_eq!(r99(1.0), Some(1.0));
        assert_eq!(r99(0.999_999), Some(1.0));
        assert_eq!(r99(0.0), None);
        assert_eq!(r99(f64::NAN), None);
        // Small p: about 4.605 / p.
        let r = r99(1e-9).unwrap();
        assert!((r * 1e-9 - 0.01f64.ln().abs()).abs() < 1e-6, "{r}");
    }

    #[test]
    fn r99_interval_comes_from_the_wilson_bounds() {
        let (lo, hi) = wilson(81, 263, Z95);
        let r = Estimate::r99(81, 263, Z95);
        assert_eq!(r.value, r99(81.0 / 263.0));
        assert_eq!((r.low, r.high), (r99(hi), r99(lo)));
        assert!(r.low.unwrap() <= r.value.unwrap() && r.value.unwrap() <= r.high.unwrap());
        // No success: R99 and its upper end unbounded, the lower end finite.
        let r = Estimate::r99(0, 20, Z95);
        assert_eq!((r.value, r.high), (None, None));
        assert_eq!(r.low, r99(wilson(0, 20, Z95).1));
        // Every attempt a success: one attempt, the upper end from the lower bound.
        let r = Estimate::r99(10, 10, Z95);
        assert_eq!(r.value, Some(1.0));
        assert_eq!(r.low, Some(1.0));
        assert!(r.high.unwrap() >= 1.0);
        let t = Estimate::r99(1, 2, Z95).times(3.0);
        assert_eq!(t.value, Some(21.0));
        assert_eq!(Estimate::r99(0, 0, Z95).value, None);
    }

    #[test]
    fn a_share_is_k_over_n_inside_its_wilson_interval() {
        let s = Estimate::share(81, 263, Z95);
        assert_eq!(s.value, Some(81.0 / 263.0));
        assert_eq!((s.low.unwrap(), s.high.unwrap()), wilson(81, 263, Z95));
        assert!(s.low < s.value && s.value < s.high);
        assert_eq!(Estimate::share(0, 0, Z95).value, None);
        let json = serde_json::to_value(Estimate::r99(0, 20, Z95)).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["high", "low", "value"]);
        assert_eq!(json["value"], serde_json::Value::Null);
    }
}
