//! Summary statistics of repeated timings.

use serde::Serialize;

/// Summary of repeated measurements (milliseconds).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Stats {
    /// Number of samples.
    pub n: usize,
    /// Median.
    pub median: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (0 for one sample).
    pub stdev: f64,
}

impl Stats {
    /// Summarises `samples`; `None` when empty or when a sample is not finite.
    pub fn of(samples: &[f64]) -> Option<Stats> {
        if samples.is_empty() || samples.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let mut v = samples.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        let mean = v.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Some(Stats {
            n,
            median,
            min: v[0],
            max: v[n - 1],
            mean,
            stdev: var.sqrt(),
        })
    }
}

/// Bandwidth in GB/s (10^9 bytes per second) for `bytes` moved in `ms` milliseconds.
pub fn gbs(bytes: f64, ms: f64) -> f64 {
    bytes / (ms * 1e-3) / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_and_even() {
        assert_eq!(Stats::of(&[3.0, 1.0, 2.0]).unwrap().median, 2.0);
        let s = Stats::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!((s.median, s.min, s.max, s.mean), (2.5, 1.0, 4.0, 2.5));
        assert!((s.stdev - 1.290_994).abs() < 1e-6);
    }

    #[test]
    fn empty_or_nan_has_no_stats() {
        assert!(Stats::of(&[]).is_none());
        assert!(Stats::of(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn bandwidth_units() {
        // 256 MiB read + 256 MiB written in 0.185 ms... the seed's copy: 2 * 268435456 B / 185 us.
        assert!((gbs(2.0 * 268_435_456.0, 0.185) - 2902.0).abs() < 1.0);
    }
}
