//! Architecture presets, one per compute capability from 1.0 to 12.x.
//!
//! An [`Arch`] holds the facts that the models need. This module only names the presets and parses
//! names; the bank rules live in [`crate::bank`] and the per-SM resource limits in
//! [`crate::occupancy`], each keyed by [`Arch`].

use std::fmt;

/// The architecture family, which decides the shared-memory bank rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// CC 1.x (Tesla): 16 banks, half-warp requests.
    Tesla,
    /// CC 2.x (Fermi): 32 banks of 4 bytes, multicast.
    Fermi,
    /// CC 3.x (Kepler): 32 banks, 4- or 8-byte bank mode.
    Kepler,
    /// CC 5.x (Maxwell).
    Maxwell,
    /// CC 6.x (Pascal).
    Pascal,
    /// CC 7.0 and 7.2 (Volta).
    Volta,
    /// CC 7.5 (Turing).
    Turing,
    /// CC 8.x except 8.9 (Ampere).
    Ampere,
    /// CC 8.9 (Ada Lovelace).
    Ada,
    /// CC 9.0 (Hopper).
    Hopper,
    /// CC 10.x and 11.0 (Blackwell data-centre and Thor).
    Blackwell,
    /// CC 12.x (Blackwell consumer / workstation).
    BlackwellGeForce,
}

/// One architecture preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arch {
    /// The `sm_XY` name, e.g. `sm_90`.
    pub name: &'static str,
    /// Compute capability, major part.
    pub major: u8,
    /// Compute capability, minor part.
    pub minor: u8,
    /// Family (bank rules).
    pub family: Family,
    /// A representative GPU, for messages.
    pub example_gpu: &'static str,
}

impl Arch {
    /// The compute capability as `major * 10 + minor` (e.g. 90).
    pub fn cc(&self) -> u32 {
        u32::from(self.major) * 10 + u32::from(self.minor)
    }

    /// Threads per warp (32 on every architecture).
    pub fn warp_size(&self) -> u32 {
        32
    }

    /// Looks a preset up by `sm_XY`, `sm_XYZ`, `compute_XY`, `XY`, or `X.Y`.
    pub fn parse(text: &str) -> Result<&'static Arch, UnknownArch> {
        let t = text.trim().to_ascii_lowercase();
        let digits = t
            .strip_prefix("sm_")
            .or_else(|| t.strip_prefix("compute_"))
            .unwrap_or(&t);
        let digits = digits.trim_end_matches(['a', 'f']);
        let cc = if let Some((maj, min)) = digits.split_once('.') {
            match (maj.parse::<u32>(), min.parse::<u32>()) {
                (Ok(a), Ok(b)) if b < 10 => Some(a * 10 + b),
                _ => None,
            }
        } else {
            digits.parse::<u32>().ok()
        };
        cc.and_then(|cc| ALL.iter().find(|a| a.cc() == cc))
            .ok_or_else(|| UnknownArch(text.to_string()))
    }

    /// Every preset, oldest first.
    pub fn all() -> &'static [Arch] {
        ALL
    }
}

/// Kepler's selectable shared-memory bank width (`cudaDeviceSetSharedMemConfig`). Ignored elsewhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BankMode {
    /// 4-byte banks (the default).
    #[default]
    FourByte,
    /// 8-byte banks.
    EightByte,
}

/// The shared-memory bank facts of one architecture (and bank mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BankFacts {
    /// Number of banks.
    pub banks: u32,
    /// Width of one bank word in bytes.
    pub bank_bytes: u32,
    /// Lanes whose requests the hardware services together in the basic case (16 on CC 1.x, where a
    /// warp request is split into half-warp requests; 32 elsewhere). Wider accesses can be split
    /// further; see [`crate::bank`].
    pub request_lanes: u32,
    /// Whether several lanes reading different words of one bank row can be served at once
    /// (multicast), rather than one broadcast word per step (CC 1.x).
    pub multicast: bool,
    /// Whether the bank width is selectable (CC 3.x).
    pub selectable_mode: bool,
}

impl Arch {
    /// The bank facts for this architecture; `mode` matters only on CC 3.x.
    pub fn bank_facts(&self, mode: BankMode) -> BankFacts {
        match self.family {
            Family::Tesla => BankFacts {
                banks: 16,
                bank_bytes: 4,
                request_lanes: 16,
                multicast: false,
                selectable_mode: false,
            },
            Family::Kepler => BankFacts {
                banks: 32,
                bank_bytes: if mode == BankMode::EightByte { 8 } else { 4 },
                request_lanes: 32,
                multicast: true,
                selectable_mode: true,
            },
            _ => BankFacts {
                banks: 32,
                bank_bytes: 4,
                request_lanes: 32,
                multicast: true,
                selectable_mode: false,
            },
        }
    }
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// Where one of a preset's rules comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Basis {
    /// Measured with Nsight Compute or the driver on a GPU of this architecture; `table` is the
    /// checked-in measurement that a test replays.
    Measured {
        /// The GPU measured.
        device: &'static str,
        /// The calibration folder or file.
        table: &'static str,
    },
    /// Taken over from another architecture's measured rule, unmeasured on this one.
    Assumed {
        /// The preset whose measured rule is applied.
        like: &'static str,
    },
    /// From NVIDIA's documentation (programming guide, `cuda_occupancy.h`), unmeasured here.
    Documented {
        /// The document.
        source: &'static str,
    },
}

impl Basis {
    /// `measured`, `assumed` or `documented`.
    pub fn status(&self) -> &'static str {
        match self {
            Basis::Measured { .. } => "measured",
            Basis::Assumed { .. } => "assumed",
            Basis::Documented { .. } => "documented",
        }
    }

    /// One line for people: `measured on H100 80GB HBM3 (calibration/bank/)`, ...
    pub fn describe(&self) -> String {
        match self {
            Basis::Measured { device, table } => format!("measured on {device} ({table})"),
            Basis::Assumed { like } => {
                format!("assumed: {like}'s measured rule, not measured on this architecture")
            }
            Basis::Documented { source } => format!("documented ({source}), not measured"),
        }
    }
}

/// The bases of a preset's rules: the shared-memory bank rule, the occupancy limits and the
/// wavefront rules of the matrix and asynchronous-copy instructions ([`crate::matrix`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Provenance {
    /// The bank rule ([`crate::bank`]).
    pub bank: Basis,
    /// The occupancy limits ([`crate::occupancy`]).
    pub occupancy: Basis,
    /// `ldmatrix` (LDSM) wavefronts; `None` where the instruction does not exist (before CC 7.5).
    pub ldmatrix: Option<Basis>,
    /// `stmatrix` (STSM) wavefronts; `None` before CC 9.0.
    pub stmatrix: Option<Basis>,
    /// `cp.async` (LDGSTS) wavefronts; `None` before CC 8.0.
    pub cp_async: Option<Basis>,
}

impl Provenance {
    /// The matrix rules as (instruction, first CC that has it, basis).
    pub fn matrix_rules(&self) -> [(&'static str, u32, Option<Basis>); 3] {
        [
            ("ldmatrix", 75, self.ldmatrix),
            ("stmatrix", 90, self.stmatrix),
            ("cp.async", 80, self.cp_async),
        ]
    }
}

/// The GPU that measured the CC 9.0 tables.
pub const MEASURED_ON_H100: &str = "H100 80GB HBM3 (CC 9.0)";

impl Arch {
    /// Whether this preset's rules are measured, assumed or documented, and by which table.
    ///
    /// Bank rule: measured on CC 9.0 (`calibration/bank/`, 3710 requests); CC 7.0 and later
    /// apply it unmeasured; CC 1.x–6.x follow the programming guides. Occupancy: the driver's
    /// `cuOccupancyMaxActiveBlocksPerMultiprocessor` compared on CC 9.0 (`calibration/lab/`); the
    /// calculator equals `cuda_occupancy.h` on every preset from CC 5.0; older presets follow the
    /// programming guide's tables. A maintainer who checks in another GPU's `warpscope calibrate`
    /// tables turns that architecture's entries to [`Basis::Measured`] here.
    ///
    /// Matrix rules (`ldmatrix`, `stmatrix`, `cp.async` wavefronts): measured on CC 9.0
    /// (`calibration/ldsm/`, 2 650 instructions); applied unmeasured from the CC where each
    /// instruction exists (7.5, 9.0, 8.0); `None` below it.
    pub fn provenance(&self) -> Provenance {
        let bank = match self.cc() {
            90 => Basis::Measured {
                device: MEASURED_ON_H100,
                table: "calibration/bank/",
            },
            cc if cc >= 70 => Basis::Assumed { like: "sm_90" },
            _ => Basis::Documented {
                source: "CUDA C++ Programming Guide, shared memory of each compute capability",
            },
        };
        let occupancy = match self.cc() {
            90 => Basis::Measured {
                device: MEASURED_ON_H100,
                table: "calibration/lab/h100/occupancy.json",
            },
            cc if cc >= 50 => Basis::Documented {
                source: "cuda_occupancy.h",
            },
            _ => Basis::Documented {
                source: "CUDA C++ Programming Guide, compute capability tables",
            },
        };
        let matrix = |since: u32| -> Option<Basis> {
            match self.cc() {
                90 => Some(Basis::Measured {
                    device: MEASURED_ON_H100,
                    table: "calibration/ldsm/",
                }),
                cc if cc >= since => Some(Basis::Assumed { like: "sm_90" }),
                _ => None,
            }
        };
        Provenance {
            bank,
            occupancy,
            ldmatrix: matrix(75),
            stmatrix: matrix(90),
            cp_async: matrix(80),
        }
    }
}

/// An architecture name that matches no preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownArch(pub String);

impl fmt::Display for UnknownArch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown architecture `{}`; known: ", self.0)?;
        for (i, a) in ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(a.name)?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownArch {}

macro_rules! arch {
    ($name:literal, $maj:literal, $min:literal, $fam:ident, $gpu:literal) => {
        Arch {
            name: $name,
            major: $maj,
            minor: $min,
            family: Family::$fam,
            example_gpu: $gpu,
        }
    };
}

static ALL: &[Arch] = &[
    arch!("sm_10", 1, 0, Tesla, "GeForce 8800 GTX"),
    arch!("sm_11", 1, 1, Tesla, "GeForce 9600 GT"),
    arch!("sm_12", 1, 2, Tesla, "GeForce GT 240"),
    arch!("sm_13", 1, 3, Tesla, "GeForce GTX 280"),
    arch!("sm_20", 2, 0, Fermi, "Tesla C2050"),
    arch!("sm_21", 2, 1, Fermi, "GeForce GTX 460"),
    arch!("sm_30", 3, 0, Kepler, "GeForce GTX 680"),
    arch!("sm_32", 3, 2, Kepler, "Tegra K1"),
    arch!("sm_35", 3, 5, Kepler, "Tesla K20"),
    arch!("sm_37", 3, 7, Kepler, "Tesla K80"),
    arch!("sm_50", 5, 0, Maxwell, "GeForce GTX 750 Ti"),
    arch!("sm_52", 5, 2, Maxwell, "GeForce GTX 980"),
    arch!("sm_53", 5, 3, Maxwell, "Jetson TX1"),
    arch!("sm_60", 6, 0, Pascal, "Tesla P100"),
    arch!("sm_61", 6, 1, Pascal, "GeForce GTX 1080"),
    arch!("sm_62", 6, 2, Pascal, "Jetson TX2"),
    arch!("sm_70", 7, 0, Volta, "Tesla V100"),
    arch!("sm_72", 7, 2, Volta, "Jetson AGX Xavier"),
    arch!("sm_75", 7, 5, Turing, "GeForce RTX 2080"),
    arch!("sm_80", 8, 0, Ampere, "A100"),
    arch!("sm_86", 8, 6, Ampere, "GeForce RTX 3090"),
    arch!("sm_87", 8, 7, Ampere, "Jetson AGX Orin"),
    arch!("sm_89", 8, 9, Ada, "GeForce RTX 4090"),
    arch!("sm_90", 9, 0, Hopper, "H100"),
    arch!("sm_100", 10, 0, Blackwell, "B200"),
    arch!("sm_103", 10, 3, Blackwell, "B300"),
    arch!("sm_110", 11, 0, Blackwell, "Jetson Thor"),
    arch!("sm_120", 12, 0, BlackwellGeForce, "GeForce RTX 5090"),
    arch!("sm_121", 12, 1, BlackwellGeForce, "DGX Spark"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_spelling() {
        for text in ["sm_90", "SM_90a", "compute_90", "90", "9.0"] {
            assert_eq!(Arch::parse(text).unwrap().name, "sm_90", "{text}");
        }
        assert_eq!(Arch::parse("sm_120").unwrap().cc(), 120);
        assert!(Arch::parse("sm_91").is_err());
        assert!(Arch::parse("banana").unwrap_err().to_string().contains("sm_90"));
    }

    #[test]
    fn bank_facts_per_family() {
        let tesla = Arch::parse("sm_13").unwrap().bank_facts(BankMode::FourByte);
        assert_eq!(
            (tesla.banks, tesla.request_lanes, tesla.multicast),
            (16, 16, false)
        );
        let kepler = Arch::parse("sm_35").unwrap();
        assert_eq!(kepler.bank_facts(BankMode::EightByte).bank_bytes, 8);
        assert_eq!(kepler.bank_facts(BankMode::FourByte).bank_bytes, 4);
        let hopper = Arch::parse("sm_90").unwrap().bank_facts(BankMode::EightByte);
        assert_eq!(
            (hopper.banks, hopper.bank_bytes, hopper.selectable_mode),
            (32, 4, false)
        );
    }

    #[test]
    fn only_measured_presets_say_measured() {
        let p = Arch::parse("sm_90").unwrap().provenance();
        assert_eq!((p.bank.status(), p.occupancy.status()), ("measured", "measured"));
        assert!(p.bank.describe().contains("calibration/bank/"));
        for name in ["sm_70", "sm_80", "sm_89", "sm_100", "sm_120"] {
            let p = Arch::parse(name).unwrap().provenance();
            assert_eq!(p.bank, Basis::Assumed { like: "sm_90" }, "{name}");
            assert_eq!(p.occupancy.status(), "documented", "{name}");
        }
        assert_eq!(
            Arch::parse("sm_61").unwrap().provenance().bank.status(),
            "documented"
        );
        assert_eq!(
            Arch::parse("sm_35").unwrap().provenance().occupancy.status(),
            "documented"
        );
    }

    #[test]
    fn matrix_rules_are_measured_on_sm_90_and_absent_before_their_instruction() {
        let p = Arch::parse("sm_90").unwrap().provenance();
        for (_, _, b) in p.matrix_rules() {
            assert_eq!(
                b,
                Some(Basis::Measured {
                    device: MEASURED_ON_H100,
                    table: "calibration/ldsm/"
                })
            );
        }
        let p = Arch::parse("sm_80").unwrap().provenance();
        assert_eq!(p.ldmatrix, Some(Basis::Assumed { like: "sm_90" }));
        assert_eq!(p.cp_async, Some(Basis::Assumed { like: "sm_90" }));
        assert_eq!(p.stmatrix, None);
        let p = Arch::parse("sm_75").unwrap().provenance();
        assert_eq!((p.ldmatrix.is_some(), p.cp_async, p.stmatrix), (true, None, None));
        let p = Arch::parse("sm_70").unwrap().provenance();
        assert_eq!((p.ldmatrix, p.cp_async, p.stmatrix), (None, None, None));
        let p = Arch::parse("sm_120").unwrap().provenance();
        assert!(
            p.matrix_rules()
                .iter()
                .all(|(_, _, b)| b.map(|b| b.status()) == Some("assumed"))
        );
    }

    #[test]
    fn presets_are_sorted_and_unique() {
        let ccs: Vec<u32> = Arch::all().iter().map(Arch::cc).collect();
        assert!(ccs.windows(2).all(|w| w[0] < w[1]));
    }
}
