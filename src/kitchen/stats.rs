//! The statistics of a benchmark run (semantics §10.1, Simmer's `bootstrap_analysis.py`):
//! bootstrap 95% intervals of a sum or a rate, the paired bootstrap test and the paired t-test.
//!
//! The resampling uses its own generator, SplitMix64 (Steele, Lea and Flood, 2014), seeded once
//! per analysis and drawn from in the order §10.1 gives, so that a seed reproduces the bounds
//! exactly; they agree with Simmer's (numpy's generator) up to resampling noise, while the sums,
//! rates, means and the t-test are exact.

use serde::Serialize;

/// SplitMix64: a 64-bit state advanced by a constant and mixed; small, fast and of good
/// statistical quality for resampling.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A position in `0..n` (`n` > 0), by the multiply-high method (bias below 2^-32 here).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// The `q`-th percentile (0–100) of sorted values, interpolated linearly between the two
/// nearest ranks (numpy's default); `NaN` for no values.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    let Some(last) = sorted.len().checked_sub(1) else {
        return f64::NAN;
    };
    let rank = q / 100.0 * last as f64;
    let low = rank.floor() as usize;
    let high = (low + 1).min(last);
    let fraction = rank - low as f64;
    sorted[low] + (sorted[high] - sorted[low]) * fraction
}

/// What is computed over the per-task values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statistic {
    Sum,
    Mean,
}

impl Statistic {
    pub fn of(self, values: &[f64]) -> f64 {
        // A fold from +0.0: `sum()` of no values is -0.0.
        let sum = values.iter().fold(0.0, |a, b| a + b);
        match self {
            Statistic::Sum => sum,
            Statistic::Mean if values.is_empty() => f64::NAN,
            Statistic::Mean => sum / values.len() as f64,
        }
    }
}

/// A statistic over `n` tasks with its bootstrap 95% interval. No value is made up: with no
/// task there is no value, below two tasks no interval (one task resampled is itself every
/// time), and `reason` says why a field is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub value: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The number of tasks (or, for a paired test, of pairs) it is over.
    pub n: usize,
    /// Why there is no value or no interval, when there is none.
    pub reason: Option<&'static str>,
}

/// Why an estimate over no task has no value.
pub const NO_TASK: &str = "no task was run";
/// Why an estimate over one task has no interval.
pub const NO_INTERVAL: &str = "no interval below 2 tasks";
/// Why a paired comparison of one task has no interval and no test.
pub const NO_TEST: &str = "no interval and no test below 2 tasks";
/// Why there is no interval when no resample was asked for.
pub const NO_RESAMPLES: &str = "no interval without bootstrap resamples";

impl Estimate {
    /// The observed value alone, for the reason given.
    fn without_interval(value: Option<f64>, n: usize, reason: &'static str) -> Estimate {
        Estimate {
            value,
            low: None,
            high: None,
            n,
            reason: Some(reason),
        }
    }
}

/// The statistic of `samples` resamples (n values drawn with replacement each time), sorted.
fn resampled(
    values: &[f64],
    statistic: Statistic,
    samples: usize,
    rng: &mut SplitMix64,
) -> Vec<f64> {
    let n = values.len();
    let mut out: Vec<f64> = (0..samples)
        .map(|_| {
            let sum: f64 = (0..n).map(|_| values[rng.below(n)]).sum();
            match statistic {
                Statistic::Sum => sum,
                Statistic::Mean => sum / n as f64,
            }
        })
        .collect();
    out.sort_by(f64::total_cmp);
    out
}

/// The 2.5th and 97.5th percentiles of resampled statistics around the observed value.
fn interval(value: f64, n: usize, resampled: &[f64]) -> Estimate {
    Estimate {
        value: Some(value),
        low: Some(percentile(resampled, 2.5)),
        high: Some(percentile(resampled, 97.5)),
        n,
        reason: None,
    }
}

/// The statistic with its bootstrap 95% interval over `samples` resamples; with no value, one
/// value or no samples, what can be said and why the rest cannot (no resampling is done).
pub fn bootstrap(
    values: &[f64],
    statistic: Statistic,
    samples: usize,
    rng: &mut SplitMix64,
) -> Estimate {
    let n = values.len();
    match n {
        0 => Estimate::without_interval(None, 0, NO_TASK),
        1 => Estimate::without_interval(Some(statistic.of(values)), 1, NO_INTERVAL),
        _ if samples == 0 => {
            Estimate::without_interval(Some(statistic.of(values)), n, NO_RESAMPLES)
        }
        _ => interval(
            statistic.of(values),
            n,
            &resampled(values, statistic, samples, rng),
        ),
    }
}

/// The statistics of `samples` resamples of `n` items (n positions drawn with replacement each
/// time, handed to `statistics`), each statistic's values sorted, a resample where it has no
/// value left out: for statistics that are not a sum or a mean of one value per item (a rate
/// over a subset, an F1), computed from the drawn items together. A seed reproduces them.
pub fn resample_statistics<const M: usize>(
    n: usize,
    samples: usize,
    rng: &mut SplitMix64,
    mut statistics: impl FnMut(&[usize]) -> [Option<f64>; M],
) -> [Vec<f64>; M] {
    let mut out: [Vec<f64>; M] = std::array::from_fn(|_| Vec::with_capacity(samples));
    if n == 0 {
        return out;
    }
    let mut drawn = vec![0; n];
    for _ in 0..samples {
        for position in &mut drawn {
            *position = rng.below(n);
        }
        for (values, value) in out.iter_mut().zip(statistics(&drawn)) {
            values.extend(value);
        }
    }
    for values in &mut out {
        values.sort_by(f64::total_cmp);
    }
    out
}

/// An observed value over `n` items with the 95% interval of its sorted resampled values; with
/// no value, below two items or no resampled value, what can be said and why (`absent` is the
/// reason when there is no value, `single` below two items, in the caller's words).
pub fn estimate_of(
    value: Option<f64>,
    n: usize,
    resampled: &[f64],
    (absent, single): (&'static str, &'static str),
) -> Estimate {
    match value {
        None => Estimate::without_interval(None, n, absent),
        Some(_) if n < 2 => Estimate::without_interval(value, n, single),
        Some(_) if resampled.is_empty() => Estimate::without_interval(value, n, NO_RESAMPLES),
        Some(value) => interval(value, n, resampled),
    }
}

/// A paired test of two methods on one metric.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairedTest {
    /// The mean of the differences a − b, with the bootstrap 95% interval of that mean.
    pub mean_difference: Estimate,
    /// Two-sided: twice the share of resampled means on the other side of zero, capped at 1;
    /// `None` below two pairs (the mean difference's `reason` says so).
    pub p: Option<f64>,
}

impl PairedTest {
    /// `***` below 0.001, `**` below 0.01, `*` below 0.05, else `ns`; `None` without a test.
    pub fn stars(&self) -> Option<&'static str> {
        self.p.map(stars)
    }
}

/// Significance stars of a p-value, as Simmer prints them.
pub fn stars(p: f64) -> &'static str {
    if p < 0.001 {
        "***"
    } else if p < 0.01 {
        "**"
    } else if p < 0.05 {
        "*"
    } else {
        "ns"
    }
}

/// The differences of values aligned by position, cut to the shorter list.
fn differences(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x - y).collect()
}

/// The paired bootstrap test of the mean difference a − b (§10.1): the interval and the
/// two-sided p-value come from the same resampled means; p is twice the share of them on the
/// other side of zero from the observed mean (≤ 0 when it is positive, ≥ 0 otherwise), capped
/// at 1. Below two pairs (or with no samples) there is no interval and no p: one pair
/// resampled is itself every time, which would give p = 0.
pub fn paired_bootstrap(a: &[f64], b: &[f64], samples: usize, rng: &mut SplitMix64) -> PairedTest {
    let d = differences(a, b);
    let n = d.len();
    let untested = |estimate| PairedTest {
        mean_difference: estimate,
        p: None,
    };
    match n {
        0 => return untested(Estimate::without_interval(None, 0, NO_TASK)),
        1 => return untested(Estimate::without_interval(Some(d[0]), 1, NO_TEST)),
        _ if samples == 0 => {
            let mean = Statistic::Mean.of(&d);
            return untested(Estimate::without_interval(Some(mean), n, NO_RESAMPLES));
        }
        _ => {}
    }
    let observed = Statistic::Mean.of(&d);
    let means = resampled(&d, Statistic::Mean, samples, rng);
    let other_side = means
        .iter()
        .filter(|&&mean| {
            if observed > 0.0 {
                mean <= 0.0
            } else {
                mean >= 0.0
            }
        })
        .count();
    PairedTest {
        mean_difference: interval(observed, n, &means),
        p: Some((2.0 * other_side as f64 / samples as f64).min(1.0)),
    }
}

/// Student's paired t-test (scipy's `ttest_rel`): the statistic, its degrees of freedom and the
/// two-sided p-value; with differences that are all zero there is no statistic (scipy's NaN),
/// and `reason` says so.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TTest {
    pub t: Option<f64>,
    pub df: usize,
    pub p: Option<f64>,
    pub reason: Option<&'static str>,
}

/// Why the t-test has no statistic.
pub const NO_DIFFERENCE: &str = "every task's difference is 0";

/// The paired t-test of a against b, aligned by position and cut to the shorter list; `None`
/// with fewer than two pairs. Differences that are all equal give t = ±∞ (p = 0); all zero,
/// no statistic (scipy's NaN).
pub fn paired_t_test(a: &[f64], b: &[f64]) -> Option<TTest> {
    let d = differences(a, b);
    let n = d.len();
    if n < 2 {
        return None;
    }
    let mean = d.iter().sum::<f64>() / n as f64;
    let variance = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let t = mean / (variance / n as f64).sqrt();
    let df = n - 1;
    if t.is_nan() {
        return Some(TTest {
            t: None,
            df,
            p: None,
            reason: Some(NO_DIFFERENCE),
        });
    }
    Some(TTest {
        t: Some(t),
        df,
        p: Some(two_sided_p(t, df)),
        reason: None,
    })
}

/// The two-sided tail probability of Student's t with `df` (≥ 1) degrees of freedom: 1 − A(t|ν)
/// by the finite series of Abramowitz and Stegun 26.7.3 (ν odd) and 26.7.4 (ν even), exact for
/// whole degrees of freedom and free of gamma functions.
pub fn two_sided_p(t: f64, df: usize) -> f64 {
    if t.is_infinite() {
        return 0.0;
    }
    let theta = (t.abs() / (df as f64).sqrt()).atan();
    let (sin, cos) = theta.sin_cos();
    let cos2 = cos * cos;
    let a = if df % 2 == 1 {
        // (2/π)[θ + sin θ (cos θ + 2/3 cos³θ + … + (2·4⋯(ν−3))/(1·3⋯(ν−2)) cos^(ν−2) θ)]
        let mut sum = 0.0;
        if df > 1 {
            let mut term = cos;
            sum = term;
            for k in (3..df).step_by(2) {
                term *= cos2 * (k - 1) as f64 / k as f64;
                sum += term;
            }
        }
        2.0 / std::f64::consts::PI * (theta + sin * sum)
    } else {
        // sin θ [1 + 1/2 cos²θ + (1·3)/(2·4) cos⁴θ + … + (1·3⋯(ν−3))/(2·4⋯(ν−2)) cos^(ν−2) θ]
        let mut term = 1.0;
        let mut sum = 1.0;
        for k in (2..df).step_by(2) {
            term *= cos2 * (k - 1) as f64 / k as f64;
            sum += term;
        }
        sin * sum
    };
    (1.0 - a).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn splitmix64_gives_the_published_sequence() {
        // The reference outputs for seeds 0 and 42, computed with Python's integers from the
        // algorithm's definition.
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut rng = SplitMix64::new(42);
        assert_eq!(rng.next_u64(), 0xBDD7_3226_2FEB_6E95);
        assert_eq!(rng.next_u64(), 0x28EF_E333_B266_F103);
        assert_eq!(rng.next_u64(), 0x4752_6757_130F_9F52);
        let mut rng = SplitMix64::new(7);
        assert!((0..1000).all(|_| rng.below(3) < 3));
    }

    #[test]
    fn percentiles_interpolate_linearly_as_numpy_does() {
        // numpy.percentile([1, 2, 3, 4], 25) = 1.75; 97.5 → 3.925; 50 → 2.5.
        let v = [1.0, 2.0, 3.0, 4.0];
        assert!(close(percentile(&v, 25.0), 1.75, 1e-12));
        assert!(close(percentile(&v, 97.5), 3.925, 1e-12));
        assert!(close(percentile(&v, 50.0), 2.5, 1e-12));
        assert_eq!(percentile(&[5.0], 2.5), 5.0);
        assert!(percentile(&[], 50.0).is_nan());
    }

    #[test]
    fn a_bootstrap_of_equal_values_has_no_spread_and_others_stay_in_range() {
        let mut rng = SplitMix64::new(42);
        let same = bootstrap(&[2.0; 10], Statistic::Sum, 1000, &mut rng);
        assert_eq!(
            (same.value, same.low, same.high, same.n),
            (Some(20.0), Some(20.0), Some(20.0), 10)
        );
        let values = [0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0];
        let rate = bootstrap(&values, Statistic::Mean, 2000, &mut rng);
        assert_eq!((rate.value, rate.reason), (Some(0.5), None));
        let (low, high) = (rate.low.unwrap_or(-1.0), rate.high.unwrap_or(-1.0));
        assert!((0.0..0.5).contains(&low) && (0.5..=1.0).contains(&high) && high > 0.5);
        // With a fixed seed the bounds are reproduced exactly.
        let again = |seed| bootstrap(&values, Statistic::Mean, 500, &mut SplitMix64::new(seed));
        assert_eq!(again(1), again(1));
    }

    /// Too few values for an interval or a test: what can be said, and why not the rest; no
    /// draw from the generator.
    #[test]
    fn below_two_tasks_there_is_no_interval_and_no_test_and_never_a_nan() {
        let mut rng = SplitMix64::new(42);
        // The values, the statistic, the resamples, and the value and reason expected.
        type Case = (&'static [f64], Statistic, usize, Option<f64>, &'static str);
        let cases: [Case; 5] = [
            (&[], Statistic::Sum, 100, None, NO_TASK),
            (&[], Statistic::Mean, 100, None, NO_TASK),
            (&[3.0], Statistic::Sum, 100, Some(3.0), NO_INTERVAL),
            (&[1.0], Statistic::Mean, 100, Some(1.0), NO_INTERVAL),
            (&[1.0, 2.0], Statistic::Sum, 0, Some(3.0), NO_RESAMPLES),
        ];
        for (values, statistic, samples, value, reason) in cases {
            let estimate = bootstrap(values, statistic, samples, &mut rng);
            let expected = (value, None, None, values.len(), Some(reason));
            let got = (
                estimate.value,
                estimate.low,
                estimate.high,
                estimate.n,
                estimate.reason,
            );
            assert_eq!(got, expected, "{values:?}");
        }
        let one = paired_bootstrap(&[1.0], &[1.5], 100, &mut rng);
        assert_eq!((one.mean_difference.value, one.p), (Some(-0.5), None));
        assert_eq!(
            (one.mean_difference.n, one.mean_difference.reason),
            (1, Some(NO_TEST))
        );
        assert_eq!(one.stars(), None);
        let none = paired_bootstrap(&[], &[1.0], 100, &mut rng);
        assert_eq!(
            (none.mean_difference.value, none.mean_difference.reason),
            (None, Some(NO_TASK))
        );
        // Nothing was drawn: the generator is where a fresh one starts.
        assert_eq!(rng.next_u64(), SplitMix64::new(42).next_u64());
    }

    #[test]
    fn the_paired_bootstrap_test_finds_no_resample_across_zero_when_every_difference_is_positive() {
        let mut rng = SplitMix64::new(42);
        let test = paired_bootstrap(&[3.0, 4.0, 5.0], &[1.0, 1.0, 1.0], 1000, &mut rng);
        assert!(close(
            test.mean_difference.value.unwrap_or_default(),
            3.0,
            1e-12
        ));
        assert_eq!(test.p, Some(0.0));
        assert_eq!(test.stars(), Some("***"));
        assert_eq!(test.mean_difference.n, 3);
        // Differences symmetric about zero: about half the means fall on each side, so p is 1.
        let test = paired_bootstrap(&[1.0, 0.0], &[0.0, 1.0], 1000, &mut rng);
        assert_eq!(test.mean_difference.value, Some(0.0));
        assert_eq!(test.p, Some(1.0));
    }

    #[test]
    fn the_t_test_matches_a_hand_worked_case_and_the_closed_forms() {
        // d = [1, 1, 3, 0, 3]: mean 1.6, s = sqrt(1.8), t = 1.6 / (s / sqrt 5) = 8/3, df 4;
        // p = 0.056 (the t density integrated numerically).
        let t = paired_t_test(&[3.0, 1.0, 4.0, 1.0, 5.0], &[2.0, 0.0, 1.0, 1.0, 2.0])
            .expect("five pairs");
        assert!(close(t.t.unwrap_or_default(), 8.0 / 3.0, 1e-12));
        assert_eq!(t.df, 4);
        let p = t.p.unwrap_or_default();
        assert!(close(p, 0.056, 1e-9), "{p}");
        // ν = 1 (Cauchy): p = 1 − 2 atan(t) / π; ν = 2: p = 1 − t / sqrt(2 + t²).
        for x in [0.3, 1.0, 2.5, 12.0] {
            let cauchy = 1.0 - 2.0 * f64::atan(x) / std::f64::consts::PI;
            assert!(close(two_sided_p(x, 1), cauchy, 1e-12));
            assert!(close(
                two_sided_p(x, 2),
                1.0 - x / (2.0 + x * x).sqrt(),
                1e-12
            ));
        }
        // Numerical integrations of the density: (2.0, 10) 0.0733880348, (1.0, 49)
        // 0.3222234060, (3.5, 7) 0.0099930409.
        assert!(close(two_sided_p(2.0, 10), 0.073_388_034_8, 1e-9));
        assert!(close(two_sided_p(1.0, 49), 0.322_223_406_0, 1e-9));
        assert!(close(two_sided_p(-3.5, 7), 0.009_993_040_9, 1e-9));
        assert!(paired_t_test(&[1.0], &[0.0]).is_none());
        let zero = paired_t_test(&[1.0, 1.0], &[1.0, 1.0]).expect("two pairs");
        assert_eq!(
            (zero.t, zero.p, zero.reason),
            (None, None, Some(NO_DIFFERENCE))
        );
    }
}
