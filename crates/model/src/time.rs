//! Modelled time of one kernel launch from its counters: the slowest of the throughputs it needs
//! (warp instructions issued and shared-memory wavefronts on the SMs its blocks occupy, global
//! sectors moved) or, when it touches global memory, one memory latency, plus a launch overhead. A model, labelled as such wherever it
//! is shown: it knows no caches (every sector is charged at the device's copy bandwidth), no
//! dependency chains and no overlap between launches.
//!
//! The H100 preset takes its clock, DRAM latency and copy bandwidth from [`crate::latency`]'s
//! measured H100 figures; the issue rate is four warp instructions per SM per cycle (four
//! schedulers) and the shared-memory rate one wavefront per SM per cycle (128 bytes a cycle).
//!
//! ```
//! use warpscope_model::time::{Rates, Work, launch_time};
//!
//! // 528 warp instructions a cycle on 132 SMs: 1,056,000 take 2,000 cycles, 1.0025 µs at 1.995 GHz
//! let t = launch_time(&Rates::h100(), &Work { warp_instructions: 1_056_000, ..Work::default() });
//! assert!((t.issue_us - 2000.0 / 1995.0).abs() < 1e-12);
//! assert_eq!(t.bound, "issue");
//! ```

use crate::latency::h100_measured;

/// The device's rates.
#[derive(Clone, Debug, PartialEq)]
pub struct Rates {
    /// SMs.
    pub sms: u32,
    /// SM clock, GHz.
    pub clock_ghz: f64,
    /// Warp instructions issued per SM per cycle.
    pub issue_per_sm_cycle: f64,
    /// Shared-memory wavefronts per SM per cycle.
    pub shared_wavefronts_per_sm_cycle: f64,
    /// Bytes per second the device's memory moves (read + write), GB/s.
    pub memory_gbs: f64,
    /// Memory latency, cycles.
    pub memory_latency_cycles: f64,
    /// Fixed cost of a launch, µs.
    pub launch_us: f64,
}

impl Rates {
    /// The H100 SXM (132 SMs) with the measured clock, DRAM latency and copy bandwidth of
    /// [`h100_measured`]; 2 µs per launch, the runtime's event clock's figure.
    pub fn h100() -> Rates {
        Rates {
            sms: 132,
            clock_ghz: h100_measured::CLOCK_GHZ,
            issue_per_sm_cycle: 4.0,
            shared_wavefronts_per_sm_cycle: 1.0,
            memory_gbs: h100_measured::COPY_GBS,
            memory_latency_cycles: h100_measured::DRAM,
            launch_us: 2.0,
        }
    }
}

/// What a launch did (counters over the whole grid).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Work {
    /// Warp instructions executed.
    pub warp_instructions: u64,
    /// Shared-memory wavefronts (loads and stores).
    pub shared_wavefronts: u64,
    /// Global-memory sectors (32 bytes) loaded and stored.
    pub global_sectors: u64,
    /// Blocks in the grid: the instructions and wavefronts spread over this many SMs at most
    /// (0: over every SM).
    pub blocks: u64,
}

/// The modelled time and its parts, µs.
#[derive(Clone, Debug, PartialEq)]
pub struct Modelled {
    /// Issuing the warp instructions on every SM.
    pub issue_us: f64,
    /// The shared-memory wavefronts on every SM.
    pub shared_us: f64,
    /// Moving the global sectors.
    pub global_us: f64,
    /// One memory latency, when the launch touches global memory (0 otherwise).
    pub latency_us: f64,
    /// The launch overhead plus the largest of the four.
    pub total_us: f64,
    /// Which part is the largest: `issue`, `shared`, `global` or `latency` (`launch` when all are 0).
    pub bound: &'static str,
}

/// The modelled time of a launch doing `w` on a device with `r`.
pub fn launch_time(r: &Rates, w: &Work) -> Modelled {
    let per_us = r.clock_ghz * 1e3; // cycles per µs
    let sms = match w.blocks {
        0 => f64::from(r.sms.max(1)),
        b => b.min(u64::from(r.sms.max(1))) as f64,
    };
    let issue_us = w.warp_instructions as f64 / (sms * r.issue_per_sm_cycle) / per_us;
    let shared_us = w.shared_wavefronts as f64 / (sms * r.shared_wavefronts_per_sm_cycle) / per_us;
    let global_us = w.global_sectors as f64 * 32.0 / (r.memory_gbs * 1e3);
    let latency_us = if w.global_sectors > 0 {
        r.memory_latency_cycles / per_us
    } else {
        0.0
    };
    let parts = [
        ("issue", issue_us),
        ("shared", shared_us),
        ("global", global_us),
        ("latency", latency_us),
    ];
    let (bound, worst) = parts
        .iter()
        .copied()
        .fold(("launch", 0.0), |a, p| if p.1 > a.1 { p } else { a });
    Modelled {
        issue_us,
        shared_us,
        global_us,
        latency_us,
        total_us: r.launch_us + worst,
        bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_by_hand() {
        let r = Rates::h100();
        // 132 wavefronts a cycle: 264,000 take 2,000 cycles
        let t = launch_time(
            &r,
            &Work {
                shared_wavefronts: 264_000,
                warp_instructions: 528,
                ..Work::default()
            },
        );
        assert!((t.shared_us - 2000.0 / 1995.0).abs() < 1e-12);
        assert!((t.issue_us - 1.0 / 1995.0).abs() < 1e-12);
        assert_eq!((t.bound, t.latency_us, t.global_us), ("shared", 0.0, 0.0));
        assert!((t.total_us - (2.0 + 2000.0 / 1995.0)).abs() < 1e-12);
        // 9,203,125 sectors are 294.5 MB: 100 µs at 2,945 GB/s
        let t = launch_time(
            &r,
            &Work {
                global_sectors: 9_203_125,
                ..Work::default()
            },
        );
        assert!((t.global_us - 100.0).abs() < 1e-9, "{}", t.global_us);
        assert_eq!(t.bound, "global");
        // one sector: the DRAM latency, 689.2 cycles
        let t = launch_time(
            &r,
            &Work {
                global_sectors: 1,
                ..Work::default()
            },
        );
        assert_eq!(t.bound, "latency");
        assert!((t.latency_us - 689.2 / 1995.0).abs() < 1e-12);
        // one block: one SM does it all: 1,056 wavefronts take 1,056 cycles
        let one = launch_time(
            &r,
            &Work {
                shared_wavefronts: 1056,
                blocks: 1,
                ..Work::default()
            },
        );
        assert!((one.shared_us - 1056.0 / 1995.0).abs() < 1e-12);
        // more blocks than SMs: all 132
        let many = launch_time(
            &r,
            &Work {
                shared_wavefronts: 264_000,
                blocks: 1000,
                ..Work::default()
            },
        );
        assert!((many.shared_us - 2000.0 / 1995.0).abs() < 1e-12);
        let idle = launch_time(&r, &Work::default());
        assert_eq!((idle.bound, idle.total_us), ("launch", 2.0));
    }
}
