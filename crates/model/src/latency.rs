//! Latency hiding by Little's law: the parallelism needed = latency x throughput.
//!
//! * Arithmetic: operations in flight per SM = latency (cycles) x operations per cycle per SM; one warp
//!   instruction is 32 operations, so warps per SM = that / 32.
//! * Memory: bytes in flight per device = latency (cycles) x bandwidth (bytes per cycle, i.e. GB/s over
//!   the clock in GHz); threads = bytes / bytes each thread loads; warps = threads / 32; per SM =
//!   warps / SMs.
//!
//! Presets: `fermi` reproduces seed 002's worked example (Professional CUDA C Programming's Fermi
//! figures: FMA latency 20 cycles at 32 operations per cycle per SM; 800 cycles memory latency,
//! 144 GB/s at a 1.566 GHz memory clock, 16 SMs: 20 warps per SM for arithmetic, about 74 KB in flight,
//! 579 warps per device and 36 per SM for memory). `h100` uses latencies measured on an H100 SXM with
//! the microbenchmarks in `calibration/latency/` (numbers and command in its README).

/// Inputs of the calculation.
#[derive(Clone, Debug, PartialEq)]
pub struct LatencyInput {
    /// Dependent-issue latency of the arithmetic instruction, cycles.
    pub arith_latency: f64,
    /// Its throughput, operations (threads) per cycle per SM.
    pub arith_ops_per_cycle: f64,
    /// Memory latency, cycles (of `clock_ghz`).
    pub mem_latency: f64,
    /// Memory bandwidth of the device, GB/s.
    pub bandwidth_gbs: f64,
    /// The clock the memory latency is counted in, GHz (bytes per cycle = GB/s / GHz).
    pub clock_ghz: f64,
    /// Bytes each thread has in flight (4 for one float).
    pub bytes_per_thread: f64,
    /// SMs on the device.
    pub sms: u32,
    /// Round the bytes in flight to whole kilobytes of 1000 bytes before dividing, as the seed's
    /// worked example does (it rounds 73.6 KB to 74 KB).
    pub round_kb: bool,
}

/// The answer.
#[derive(Clone, Debug, PartialEq)]
pub struct LatencyAnswer {
    /// Arithmetic operations in flight per SM.
    pub arith_ops_in_flight: f64,
    /// Warps per SM that hide the arithmetic latency.
    pub arith_warps_per_sm: f64,
    /// Bytes per cycle the memory delivers.
    pub bytes_per_cycle: f64,
    /// Bytes in flight per device that hide the memory latency.
    pub bytes_in_flight: f64,
    /// Threads per device.
    pub mem_threads: f64,
    /// Warps per device (rounded up).
    pub mem_warps_device: u64,
    /// Warps per SM (`mem_warps_device / sms`).
    pub mem_warps_per_sm: f64,
    /// Bytes in flight per SM.
    pub bytes_in_flight_per_sm: f64,
}

/// Little's law over both kinds of latency.
pub fn littles_law(i: &LatencyInput) -> LatencyAnswer {
    let arith_ops = i.arith_latency * i.arith_ops_per_cycle;
    let bytes_per_cycle = i.bandwidth_gbs / i.clock_ghz;
    let exact = i.mem_latency * bytes_per_cycle;
    let bytes = if i.round_kb {
        (exact / 1000.0).round() * 1000.0
    } else {
        exact
    };
    let threads = bytes / i.bytes_per_thread;
    let warps = (threads / 32.0).ceil() as u64;
    LatencyAnswer {
        arith_ops_in_flight: arith_ops,
        arith_warps_per_sm: arith_ops / 32.0,
        bytes_per_cycle,
        bytes_in_flight: bytes,
        mem_threads: threads,
        mem_warps_device: warps,
        mem_warps_per_sm: warps as f64 / f64::from(i.sms),
        bytes_in_flight_per_sm: bytes / f64::from(i.sms),
    }
}

/// A named set of inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    /// Name for `--preset`.
    pub name: &'static str,
    /// Where the numbers come from.
    pub source: &'static str,
    /// The inputs.
    pub input: LatencyInput,
}

/// Measured on NVIDIA H100 80GB HBM3 (SXM, 132 SMs) with `calibration/latency/run.sh`; see
/// `calibration/latency/README.md` for the raw numbers.
pub mod h100_measured {
    /// FP32 FMA dependent-issue latency, cycles.
    pub const FMA: f64 = 4.0;
    /// Shared-memory load (pointer chase), cycles.
    pub const SHARED: f64 = 23.0;
    /// L1 hit, cycles.
    pub const L1: f64 = 32.0;
    /// L2 hit, cycles.
    pub const L2: f64 = 277.4;
    /// DRAM, cycles.
    pub const DRAM: f64 = 689.2;
    /// SM clock during the measurement, GHz.
    pub const CLOCK_GHZ: f64 = 1.995;
    /// Device-to-device copy bandwidth (read + write), GB/s.
    pub const COPY_GBS: f64 = 2945.0;
}

/// The presets.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset {
            name: "fermi",
            source: "seed 002 (Professional CUDA C Programming): Tesla C2070, FMA 20 cycles x 32 ops/cycle/SM; \
                     800 cycles, 144 GB/s, 1.566 GHz memory clock, 16 SMs, 4 bytes per thread",
            input: LatencyInput {
                arith_latency: 20.0,
                arith_ops_per_cycle: 32.0,
                mem_latency: 800.0,
                bandwidth_gbs: 144.0,
                clock_ghz: 1.566,
                bytes_per_thread: 4.0,
                sms: 16,
                round_kb: true,
            },
        },
        Preset {
            name: "h100",
            source: "measured on an H100 80GB HBM3 (calibration/latency/): FP32 FMA latency, DRAM pointer-chase \
                     latency in SM cycles at the measured SM clock, device-to-device copy bandwidth; 128 FP32 \
                     FMA per cycle per SM; 132 SMs; 4 bytes per thread",
            input: LatencyInput {
                arith_latency: h100_measured::FMA,
                arith_ops_per_cycle: 128.0,
                mem_latency: h100_measured::DRAM,
                bandwidth_gbs: h100_measured::COPY_GBS,
                clock_ghz: h100_measured::CLOCK_GHZ,
                bytes_per_thread: 4.0,
                sms: 132,
                round_kb: false,
            },
        },
    ]
}

/// Looks a preset up by name.
pub fn preset(name: &str) -> Option<Preset> {
    presets().into_iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduces_the_seed_fermi_example() {
        let a = littles_law(&preset("fermi").unwrap().input);
        assert_eq!(a.arith_ops_in_flight, 640.0);
        assert_eq!(a.arith_warps_per_sm, 20.0);
        assert!((a.bytes_per_cycle - 91.95).abs() < 0.01, "{}", a.bytes_per_cycle);
        assert_eq!(a.bytes_in_flight, 74_000.0); // "about 74 KB"
        assert_eq!(a.mem_threads, 18_500.0);
        assert_eq!(a.mem_warps_device, 579);
        assert_eq!(a.mem_warps_per_sm.round(), 36.0);
        // Without the seed's rounding: 73,563 bytes, 575 warps, still 36 per SM.
        let mut exact = preset("fermi").unwrap().input;
        exact.round_kb = false;
        let e = littles_law(&exact);
        assert!(
            (e.bytes_in_flight - 73_563.2).abs() < 0.1,
            "{}",
            e.bytes_in_flight
        );
        assert_eq!(e.mem_warps_device, 575);
        assert_eq!(e.mem_warps_per_sm.round(), 36.0);
    }

    #[test]
    fn h100_preset_uses_measured_numbers() {
        let p = preset("H100").unwrap();
        assert!(p.input.mem_latency > 300.0 && p.input.mem_latency < 2000.0);
        assert!(p.input.clock_ghz > 1.0 && p.input.clock_ghz < 2.2);
        assert!(p.input.bandwidth_gbs > 1000.0);
        let a = littles_law(&p.input);
        assert!(a.arith_warps_per_sm >= 4.0 && a.arith_warps_per_sm <= 64.0);
    }
}
