//! `analyze --measure`'s comparison: the analysed launch run once more on the local GPU with the
//! same argument bytes, its counters measured by Nsight Compute in a child run, predicted and
//! measured counters side by side with every difference of a counter claimed exact counted, and
//! every output buffer compared bit for bit with the emulator's. A recorded measurement (the JSON
//! of an earlier run, with ncu's own CSV inside) replays through the same comparison with no GPU.

use std::ffi::OsString;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use warpscope_analysis::banks::MatrixKind;
use warpscope_emu::{Arg, Launch, Limits};
use warpscope_gpu::measure::{Image, KernelArg, LaunchSpec};
use warpscope_model::arch::Arch;
use warpscope_ptx::Program;

use crate::error::{Context, Error, Result, bail};

/// The shared-memory and branch counters compared, with their Nsight Compute names; then the
/// instructions and wavefronts of LDSM, STSM and LDGSTS (`ldmatrix`, `stmatrix`, `cp.async`; the
/// names calibration/ldsm/ measured them with), compared for a kernel that has them.
pub const METRICS: [&str; 13] = [
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "smsp__sass_average_branch_targets_threads_uniform.pct",
    MatrixKind::Ldsm.ncu_instructions(),
    MatrixKind::Ldsm.ncu_wavefronts(),
    MatrixKind::Stsm.ncu_instructions(),
    MatrixKind::Stsm.ncu_wavefronts(),
    MatrixKind::Ldgsts.ncu_instructions(),
    MatrixKind::Ldgsts.ncu_wavefronts(),
];

/// One counter, predicted beside measured.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CounterRow {
    /// Nsight Compute metric name.
    pub metric: String,
    /// warpscope's prediction.
    pub predicted: f64,
    /// ncu's value (`None` when not measured).
    pub measured: Option<f64>,
    /// Whether they are equal (`None` when not measured).
    pub equal: Option<bool>,
    /// `exact` (the model claims equality: shared-memory counters of a whole-grid emulation) or
    /// `estimate` (PTX-level branch figures, extrapolated totals).
    pub claim: String,
}

/// One buffer argument, emulator beside GPU.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BufferRow {
    /// Argument index (0-based).
    pub arg: usize,
    /// Bytes.
    pub bytes: usize,
    /// FNV-1a 64 of the emulator's final bytes (hex).
    pub emulator_fnv1a64: String,
    /// FNV-1a 64 of the GPU's final bytes (hex).
    pub gpu_fnv1a64: String,
    /// Bit for bit equal.
    pub equal: bool,
    /// 32-bit words that differ (when both sides' bytes were at hand).
    pub differing_words: Option<usize>,
    /// The first differing word: `word I: emulator 0x..., GPU 0x...`.
    pub first_difference: Option<String>,
}

/// The comparison: what `--measure` adds to the analysis (JSON field `measurement`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Measurement {
    /// The GPU, its CC, the driver and ncu versions.
    pub measured_on: String,
    /// How the GPU got the code: `CUBIN (NVRTC)` or `PTX (driver JIT)`.
    pub image: String,
    /// Counters side by side.
    pub counters: Vec<CounterRow>,
    /// Buffers side by side.
    pub buffers: Vec<BufferRow>,
    /// Counters claimed exact that differ, plus buffers that differ.
    pub differences: usize,
    /// Why something was not measured or compared.
    pub notes: Vec<String>,
    /// ncu's own output (`--csv --page raw`) of the launch, as recorded.
    pub ncu_csv: Option<String>,
}

/// FNV-1a 64.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One kind of matrix instruction (LDSM, STSM, LDGSTS) as an analysis totals it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatrixPredicted {
    /// Warp instructions inside the measured rules.
    pub instructions: u64,
    /// Warp instructions outside them (counted, their wavefronts not modelled).
    pub unmodelled: u64,
    /// Wavefronts of the modelled instructions.
    pub wavefronts: u64,
}

/// The shared-memory counters an analysis predicts (its banks section).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SharedPredicted {
    /// Loads: (instructions, wavefronts).
    pub load: (u64, u64),
    /// Stores: (instructions, wavefronts).
    pub store: (u64, u64),
    /// The matrix instructions the kernel has (kinds it does not have left out).
    pub matrix: Vec<(MatrixKind, MatrixPredicted)>,
}

/// The branch counters an analysis predicts (its divergence section).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BranchPredicted {
    /// The PTX's branch targets and divergent targets.
    pub ptx: (u64, u64),
    /// The machine code's, when it was read: (targets, divergent, whether every line matched the
    /// PTX's or its control flow was followed on the launch).
    pub machine: Option<(u64, u64, bool)>,
}

/// What an analysis predicts, the figures [`predictions`] turns into Nsight Compute's metrics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Predicted {
    /// Only some blocks were emulated and the totals scaled to the grid.
    pub extrapolated: bool,
    /// The shared-memory counters, when the banks section was answered.
    pub shared: Option<SharedPredicted>,
    /// The branch counters, when the divergence section was answered.
    pub branches: Option<BranchPredicted>,
}

/// The predictions of an analysis, in [`METRICS`] order, each with its claim: the shared-memory
/// counters exact for a whole-grid emulation (a matrix kind's wavefronts only when every request
/// was inside the measured rules); the branch counters exact when the machine code's branches were
/// read and matched (calibration/branch/), else the PTX-level count, an estimate.
pub fn predictions(p: &Predicted) -> Vec<Prediction> {
    let shared = if p.extrapolated { "estimate" } else { "exact" };
    let mut v = Vec::new();
    if let Some(s) = &p.shared {
        v.extend([
            (METRICS[0], s.load.0 as f64, shared),
            (METRICS[1], s.load.1 as f64, shared),
            (METRICS[2], s.store.0 as f64, shared),
            (METRICS[3], s.store.1 as f64, shared),
        ]);
        // LDSM / STSM / LDGSTS of a kernel that has them: the instructions always, the wavefronts
        // exact when every request was inside the measured rules
        for (k, m) in &s.matrix {
            let wf = if m.unmodelled == 0 { shared } else { "estimate" };
            v.push((
                k.ncu_instructions(),
                (m.instructions + m.unmodelled) as f64,
                shared,
            ));
            v.push((k.ncu_wavefronts(), m.wavefronts as f64, wf));
        }
    }
    if let Some(b) = &p.branches {
        // The machine code's branches when it was read and every line matched the PTX's
        // (calibration/branch/), else the PTX-level count: an estimate.
        let (targets, divergent, claim) = match b.machine {
            Some((t, dv, true)) => (t, dv, "exact"),
            Some((t, dv, false)) => (t, dv, "estimate"),
            None => (b.ptx.0, b.ptx.1, "estimate"),
        };
        v.push((METRICS[4], targets as f64, claim));
        v.push((METRICS[5], divergent as f64, claim));
        // Nsight Compute prints 0 % for a launch with no branch target (0 of 0).
        let pct = if targets == 0 {
            0.0
        } else {
            100.0 * (targets - divergent) as f64 / targets as f64
        };
        v.push((METRICS[6], pct, claim));
    }
    v
}

/// Compares predictions with ncu's rows of one launch (`None`: not measured).
pub fn compare_counters(
    preds: &[Prediction],
    rows: Option<&[warpscope_gpu::lab::ncu::NcuRow]>,
) -> Vec<CounterRow> {
    preds
        .iter()
        .map(|&(metric, predicted, claim)| {
            let measured = rows.and_then(|r| r.iter().find(|x| x.metric == metric).and_then(|x| x.value));
            // Percentages are printed by ncu with two decimals.
            let equal = measured.map(|m| {
                if metric.ends_with(".pct") {
                    (m - predicted).abs() < 0.005 + 1e-9
                } else {
                    m == predicted
                }
            });
            CounterRow {
                metric: metric.to_string(),
                predicted,
                measured,
                equal,
                claim: claim.to_string(),
            }
        })
        .collect()
}

/// Compares final buffers (`gpu`: the bytes, or only a recorded hash).
pub fn compare_buffer(arg: usize, emu: &[u8], gpu: std::result::Result<&[u8], (usize, u64)>) -> BufferRow {
    let e = fnv1a64(emu);
    match gpu {
        Ok(g) => {
            let words = emu.len().max(g.len()).div_ceil(4);
            let word = |b: &[u8], i: usize| -> Option<u32> {
                let s = b.get(i * 4..(i * 4 + 4).min(b.len()))?;
                let mut w = [0u8; 4];
                w[..s.len()].copy_from_slice(s);
                Some(u32::from_le_bytes(w))
            };
            let diffs: Vec<usize> = (0..words).filter(|&i| word(emu, i) != word(g, i)).collect();
            BufferRow {
                arg,
                bytes: g.len(),
                emulator_fnv1a64: format!("{e:016x}"),
                gpu_fnv1a64: format!("{:016x}", fnv1a64(g)),
                equal: emu == g,
                differing_words: Some(diffs.len()),
                first_difference: diffs.first().map(|&i| {
                    let hex = |w: Option<u32>| w.map_or("none".into(), |w| format!("0x{w:08x}"));
                    format!(
                        "word {i}: emulator {}, GPU {}",
                        hex(word(emu, i)),
                        hex(word(g, i))
                    )
                }),
            }
        }
        Err((bytes, hash)) => BufferRow {
            arg,
            bytes,
            emulator_fnv1a64: format!("{e:016x}"),
            gpu_fnv1a64: format!("{hash:016x}"),
            equal: e == hash && emu.len() == bytes,
            differing_words: None,
            first_difference: None,
        },
    }
}

/// Counters claimed exact that differ, plus buffers that differ.
pub fn count_differences(counters: &[CounterRow], buffers: &[BufferRow]) -> usize {
    counters
        .iter()
        .filter(|c| c.claim == "exact" && c.equal == Some(false))
        .count()
        + buffers.iter().filter(|b| !b.equal).count()
}

/// What the comparison needs from the analysed launch.
pub struct Input<'a> {
    /// The analysed PTX text.
    pub ptx: &'a str,
    /// The CUBIN NVRTC built for `arch`, when the input was CUDA C++.
    pub cubin: Option<&'a [u8]>,
    /// The lowered program.
    pub program: &'a Program,
    /// The kernel.
    pub kernel: &'a str,
    /// The launch as emulated.
    pub launch: &'a Launch,
    /// The analysed architecture.
    pub arch: &'static Arch,
}

fn kernel_args(args: &[Arg]) -> Vec<KernelArg> {
    args.iter()
        .map(|a| match a {
            Arg::Buffer(b) => KernelArg::Buffer(b.clone()),
            Arg::U32(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::I32(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::U64(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::I64(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::F32(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::F64(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::Bytes(b) => KernelArg::Bytes(b.clone()),
        })
        .collect()
}

fn spec(input: &Input) -> LaunchSpec {
    LaunchSpec {
        image: match input.cubin {
            Some(c) => Image::Cubin(c.to_vec()),
            None => Image::Ptx(input.ptx.to_string()),
        },
        kernel: input.kernel.to_string(),
        grid: input.launch.grid,
        block: input.launch.block,
        dyn_smem: input.launch.dyn_smem,
        args: kernel_args(&input.launch.args),
    }
}

/// `--measure-child`: the launch alone, on the GPU (ncu counts it). Prints nothing.
pub fn child(device: usize, input: &Input) -> Result<()> {
    warpscope_gpu::measure::launch(device, &spec(input))?;
    Ok(())
}

/// The emulator's final buffers for the whole grid (`None` when the analysis sampled blocks).
/// The emulator's final buffers: those of the analysis's own emulation when it ran the whole grid
/// (one emulation serves the analysis and the comparison), else one run for the buffers alone (a
/// request whose sections emulate nothing); `None` when `--blocks` sampled the grid.
fn emulator_buffers(
    input: &Input,
    emulated: Option<Vec<Option<Vec<u8>>>>,
) -> Result<Option<Vec<Option<Vec<u8>>>>> {
    if input.launch.blocks.is_some() {
        return Ok(None);
    }
    if let Some(b) = emulated {
        return Ok(Some(b));
    }
    let res = warpscope_emu::run(
        input.program,
        input.kernel,
        input.launch,
        &Limits::default(),
        |_| (),
    )
    .map_err(|e| Error::Input(e.to_string()))?;
    Ok(Some(res.buffers))
}

/// Where and how to measure: `analyze --measure`'s options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Replay this recorded measurement instead of measuring (no GPU).
    pub measured: Option<PathBuf>,
    /// Device ordinal.
    pub device: usize,
    /// Nsight Compute executable (default: found on PATH, /usr/local/cuda/bin, /opt/nvidia).
    pub ncu: Option<PathBuf>,
    /// Measure without ncu (buffers only, no counters).
    pub no_ncu: bool,
}

/// A prediction: (Nsight Compute metric, value, claim `exact` or `estimate`).
pub type Prediction = (&'static str, f64, &'static str);

/// Runs the measurement (or replays a recorded one) and compares it with the predictions
/// (`extrapolated`: the analysis sampled blocks). `child_args` is the command line that launches
/// the kernel alone under ncu (this program's, with `--measure-child`).
pub fn run(
    o: &Options,
    input: &Input,
    preds: &[Prediction],
    extrapolated: bool,
    emulated: Option<Vec<Option<Vec<u8>>>>,
    child_args: Vec<OsString>,
) -> Result<Measurement> {
    let emu = emulator_buffers(input, emulated)?;
    let mut notes = Vec::new();
    if emu.is_none() {
        notes.push("--blocks sampled the grid: buffers are not compared".to_string());
    }
    if extrapolated {
        notes.push("totals are extrapolated from sampled blocks: counters are estimates".into());
    }
    if preds
        .iter()
        .any(|(m, _, c)| m.contains("branch_targets") && *c == "estimate")
    {
        notes.push(
            "branch counters are estimates (no machine code read, or its branches do not match the PTX's line for line; calibration/branch/): a difference there is shown, not counted"
                .into(),
        );
    }
    if let Some(path) = &o.measured {
        return replay(path, preds, emu, notes);
    }
    warpscope_gpu::ensure_driver()?;
    let info = warpscope_gpu::device::query(o.device)?;
    let cc = info.cc_major * 10 + info.cc_minor;
    if cc != input.arch.cc() {
        bail!(
            "--measure: GPU {} is CC {}.{} but the launch was analysed for {}; pass --arch sm_{cc}",
            o.device,
            info.cc_major,
            info.cc_minor,
            input.arch.name
        );
    }
    let ncu_path = if o.no_ncu {
        notes.push("ncu turned off (--no-ncu): counters not measured".into());
        None
    } else {
        let p = warpscope_gpu::measure::find_ncu(o.ncu.as_deref());
        if p.is_none() {
            notes.push("ncu not found (pass --ncu PATH): counters not measured".into());
        }
        p
    };
    let versions = warpscope_gpu::measure::versions(o.device, ncu_path.as_deref())?;
    let s = spec(input);
    let image = match s.image {
        Image::Cubin(_) => "CUBIN (NVRTC)",
        Image::Ptx(_) => "PTX (driver JIT)",
    };
    let gpu = warpscope_gpu::measure::launch(o.device, &s)?;
    let image = match &gpu.ptx_version {
        Some(v) => format!("{image}, .version lowered to {v} for this driver (no instruction changed)"),
        None => image.to_string(),
    };
    let mut ncu_csv = None;
    let rows = match &ncu_path {
        Some(ncu) => {
            let exe = std::env::current_exe().context("the path of this program (to re-run under ncu)")?;
            let (rows, text) = warpscope_gpu::measure::profile(ncu, &exe, child_args, &METRICS, None)?;
            let n = warpscope_gpu::lab::ncu::launch_count(&rows);
            if n != 1 {
                bail!("ncu profiled {n} launches of the child, expected 1");
            }
            ncu_csv = Some(text);
            Some(rows)
        }
        None => None,
    };
    let counters = compare_counters(preds, rows.as_deref());
    let buffers: Vec<BufferRow> = match &emu {
        Some(emu) => emu
            .iter()
            .zip(&gpu.buffers)
            .enumerate()
            .filter_map(|(i, (e, g))| Some(compare_buffer(i, e.as_ref()?, Ok(g.as_ref()?))))
            .collect(),
        None => Vec::new(),
    };
    Ok(Measurement {
        measured_on: versions.header(),
        image,
        differences: count_differences(&counters, &buffers),
        counters,
        buffers,
        notes,
        ncu_csv,
    })
}

/// The recorded measurement of `path` (the `measurement` of an analysis JSON) against these
/// predictions: counters from the recorded ncu CSV, buffers by the recorded GPU hashes.
fn replay(
    path: &std::path::Path,
    preds: &[Prediction],
    emu: Option<Vec<Option<Vec<u8>>>>,
    mut notes: Vec<String>,
) -> Result<Measurement> {
    let text = warpscope_driver::limits::read_source(path)?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Error::Input(format!(
            "{}:{}:{}: not valid JSON: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    let rec: Measurement =
        serde_json::from_value(v.get("measurement").cloned().unwrap_or(v)).with_context(|| {
            format!(
                "{}: not a recorded measurement (analyze --measure --format json)",
                path.display()
            )
        })?;
    let rows = match &rec.ncu_csv {
        Some(csv) => Some(
            warpscope_gpu::measure::parse_raw_csv(csv)
                .with_context(|| format!("{}: the recorded ncu CSV", path.display()))?,
        ),
        None => None,
    };
    let counters = compare_counters(preds, rows.as_deref());
    let mut buffers = Vec::new();
    if let Some(emu) = &emu {
        for b in &rec.buffers {
            let Some(Some(e)) = emu.get(b.arg) else {
                bail!(
                    "{}: argument {} is not a buffer of this launch",
                    path.display(),
                    b.arg
                );
            };
            let hash = u64::from_str_radix(&b.gpu_fnv1a64, 16)
                .with_context(|| format!("{}: argument {}: gpu_fnv1a64 is not hex", path.display(), b.arg))?;
            buffers.push(compare_buffer(b.arg, e, Err((b.bytes, hash))));
        }
    }
    notes.push(format!(
        "replayed from {} (recorded, no GPU used)",
        path.display()
    ));
    Ok(Measurement {
        measured_on: rec.measured_on,
        image: rec.image,
        differences: count_differences(&counters, &buffers),
        counters,
        buffers,
        notes,
        ncu_csv: rec.ncu_csv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_gpu::lab::ncu::NcuRow;

    /// The analysis's own emulation serves the comparison: with its buffers at hand nothing runs
    /// again (the kernel named here does not exist, so a second run would fail); without them
    /// (sections that emulate nothing) one run makes them; `--blocks` compares none.
    #[test]
    fn the_analysis_emulation_gives_the_buffers() {
        let ptx =
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n ret;\n}\n";
        let program = warpscope_ptx::compile(ptx).unwrap();
        let launch = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![7; 16])]);
        let arch = Arch::parse("sm_90").unwrap();
        let input = |kernel| Input {
            ptx,
            cubin: None,
            program: &program,
            kernel,
            launch: &launch,
            arch,
        };
        let given = vec![Some(vec![1u8; 16])];
        let b = emulator_buffers(&input("no_such_kernel"), Some(given.clone())).unwrap();
        assert_eq!(b, Some(given));
        assert!(emulator_buffers(&input("no_such_kernel"), None).is_err());
        assert_eq!(
            emulator_buffers(&input("k"), None).unwrap(),
            Some(vec![Some(vec![7; 16])])
        );
    }

    fn row(metric: &str, value: Option<f64>) -> NcuRow {
        NcuRow {
            id: 0,
            kernel: "k".into(),
            metric: metric.into(),
            unit: String::new(),
            value,
        }
    }

    #[test]
    fn predictions_carry_their_claims() {
        let ldsm = MatrixPredicted {
            instructions: 4,
            unmodelled: 1,
            wavefronts: 16,
        };
        let p = Predicted {
            extrapolated: false,
            shared: Some(SharedPredicted {
                load: (8, 32),
                store: (2, 2),
                matrix: vec![(MatrixKind::Ldsm, ldsm)],
            }),
            branches: Some(BranchPredicted {
                ptx: (10, 3),
                machine: Some((8, 2, true)),
            }),
        };
        let v = predictions(&p);
        assert_eq!(
            v[..4],
            [
                (METRICS[0], 8.0, "exact"),
                (METRICS[1], 32.0, "exact"),
                (METRICS[2], 2.0, "exact"),
                (METRICS[3], 2.0, "exact"),
            ]
        );
        // 4 modelled + 1 outside the rules; the wavefronts of an incomplete model are an estimate
        assert_eq!(v[4], (MatrixKind::Ldsm.ncu_instructions(), 5.0, "exact"));
        assert_eq!(v[5], (MatrixKind::Ldsm.ncu_wavefronts(), 16.0, "estimate"));
        // the machine code's branches, matched: 6 of 8 targets uniform
        assert_eq!(
            v[6..],
            [
                (METRICS[4], 8.0, "exact"),
                (METRICS[5], 2.0, "exact"),
                (METRICS[6], 75.0, "exact"),
            ]
        );
        // sampled blocks: every shared counter an estimate; no machine code: the PTX's branches;
        // no branch target: 0 %, as ncu prints it
        let p = Predicted {
            extrapolated: true,
            shared: Some(SharedPredicted::default()),
            branches: Some(BranchPredicted {
                ptx: (0, 0),
                machine: None,
            }),
        };
        let v = predictions(&p);
        assert!(v[..4].iter().all(|x| x.2 == "estimate"));
        assert_eq!(v[6], (METRICS[6], 0.0, "estimate"));
        // no sections answered: nothing to compare
        assert!(predictions(&Predicted::default()).is_empty());
    }

    #[test]
    fn counters_equal_differ_or_unmeasured() {
        let preds: [Prediction; 3] = [
            (METRICS[1], 1024.0, "exact"),
            (METRICS[3], 32.0, "exact"),
            (METRICS[6], 80.0, "estimate"),
        ];
        let rows = [
            row(METRICS[1], Some(1024.0)),
            row(METRICS[3], Some(64.0)),
            row(METRICS[6], Some(80.004)),
        ];
        let c = compare_counters(&preds, Some(&rows));
        assert_eq!(
            c.iter().map(|r| r.equal).collect::<Vec<_>>(),
            [Some(true), Some(false), Some(true)]
        );
        assert_eq!(count_differences(&c, &[]), 1);
        let none = compare_counters(&preds, None);
        assert!(none.iter().all(|r| r.measured.is_none() && r.equal.is_none()));
        // An estimate that differs is shown but not counted.
        let rows = [row(METRICS[6], Some(75.0))];
        let c = compare_counters(&preds[2..], Some(&rows));
        assert_eq!((c[0].equal, count_differences(&c, &[])), (Some(false), 0));
    }

    #[test]
    fn buffers_bit_for_bit_with_the_first_differing_word() {
        let a = [1u8, 0, 0, 0, 2, 0, 0, 0];
        let mut b = a;
        let same = compare_buffer(0, &a, Ok(&b));
        assert!(same.equal && same.differing_words == Some(0) && same.first_difference.is_none());
        b[5] = 0x80;
        let d = compare_buffer(1, &a, Ok(&b));
        assert!(!d.equal);
        assert_eq!(d.differing_words, Some(1));
        assert_eq!(
            d.first_difference.as_deref(),
            Some("word 1: emulator 0x00000002, GPU 0x00008002")
        );
        let by_hash = compare_buffer(0, &a, Err((8, fnv1a64(&a))));
        assert!(by_hash.equal);
        assert!(!compare_buffer(0, &a, Err((8, fnv1a64(&b)))).equal);
    }

    #[test]
    fn scalar_arguments_are_their_little_endian_bytes() {
        let k = kernel_args(&[Arg::U32(0x0102_0304), Arg::F64(1.0), Arg::Buffer(vec![9; 3])]);
        assert_eq!(k[0], KernelArg::Bytes(vec![4, 3, 2, 1]));
        assert_eq!(k[1], KernelArg::Bytes(1.0f64.to_le_bytes().to_vec()));
        assert_eq!(k[2], KernelArg::Buffer(vec![9; 3]));
    }
}
