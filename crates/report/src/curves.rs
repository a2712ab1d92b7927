//! The occupancy calculator's three curves around one launch (occupancy vs threads per block, vs
//! registers per thread, vs shared memory per block), each with the launch's own point marked.

use warpscope_model::occupancy::{Launch, Limits, OccupancyError, occupancy};

use crate::chart::{LineChart, Series};

/// The three curves of `launch` under `limits`; `label` names the series (e.g. the architecture).
pub fn occupancy_charts(
    limits: &Limits,
    launch: &Launch,
    label: &str,
) -> Result<Vec<LineChart>, OccupancyError> {
    let pct = |l: &Launch| -> Result<f64, OccupancyError> { Ok(100.0 * occupancy(limits, l)?.occupancy()) };
    let mut by_threads = Vec::new();
    for t in (32..=limits.max_threads_per_block).step_by(32) {
        let mut l = launch.clone();
        l.threads = t;
        by_threads.push((f64::from(t), pct(&l)?));
    }
    let mut by_regs = Vec::new();
    for r in 0..=limits.max_regs_per_thread {
        let mut l = launch.clone();
        l.regs_per_thread = r;
        by_regs.push((f64::from(r), pct(&l)?));
    }
    let mut by_smem = Vec::new();
    let top = limits.smem_per_block_optin.saturating_sub(launch.static_smem);
    for d in (0..=top).step_by(512) {
        let mut l = launch.clone();
        l.dyn_smem = d;
        by_smem.push((f64::from(l.static_smem + d), pct(&l)?));
    }
    let name = format!(
        "{label} ({} thr, {} regs, {} B smem)",
        launch.threads,
        launch.regs_per_thread,
        launch.smem()
    );
    let here = format!("this launch ({:.0}%)", pct(launch)?);
    Ok(vec![
        LineChart::new("occupancy vs block size", "threads per block", "occupancy (%)")
            .series(Series::new(name.clone(), by_threads))
            .mark(f64::from(launch.threads), here.clone())
            .y_range(0.0, 100.0),
        LineChart::new("occupancy vs registers", "registers per thread", "occupancy (%)")
            .series(Series::new(name.clone(), by_regs))
            .mark(f64::from(launch.regs_per_thread), here.clone())
            .y_range(0.0, 100.0),
        LineChart::new(
            "occupancy vs shared memory",
            "shared memory per block (bytes)",
            "occupancy (%)",
        )
        .series(Series::new(name, by_smem))
        .mark(launch.smem() as f64, here)
        .y_range(0.0, 100.0),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_model::arch::Arch;

    #[test]
    fn curves_pass_through_the_launch_point() {
        let arch = Arch::parse("sm_90").unwrap();
        let limits = Limits::for_arch(arch).unwrap();
        let mut launch = Launch::new(1024, 10);
        launch.static_smem = 4096;
        let charts = occupancy_charts(&limits, &launch, "sm_90").unwrap();
        assert_eq!(charts.len(), 3);
        // H100: 1024 threads, 10 registers -> 2 blocks of 32 warps = 64 of 64 warps, 100%.
        let at = |c: &LineChart, x: f64| c.series[0].points.iter().find(|p| p.0 == x).unwrap().1;
        assert_eq!(at(&charts[0], 1024.0), 100.0);
        assert_eq!(charts[0].marks[0].0, 1024.0);
        assert_eq!(charts[1].marks[0].0, 10.0);
        assert_eq!(charts[2].marks[0].0, 4096.0);
        // 255 registers at 1024 threads do not fit in a 64K register file: 0%.
        assert_eq!(at(&charts[1], 255.0), 0.0);
    }
}
