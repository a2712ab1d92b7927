//! What the Hopper replay tests share (hopper_kernels.rs, hopper_triton2.rs): the hosts' input
//! generators, the H200's stored tables (ncu's raw page, the output hashes), one launch emulated
//! as `warpscope run` analyses it, and the comparison of every counter labelled exact.

#![allow(dead_code)] // each test file uses its own part

pub mod run2;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use warpscope_cudart::analysis::{LaunchWatch, analyse_launch, kernel_analysis};
use warpscope_emu::mem::Global;
use warpscope_emu::tma::{Layout, TensorMap};
use warpscope_emu::{Arg, Launch, Limits};
use warpscope_model::arch::Arch;
use warpscope_toolchain::sass::SassKernel;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The hosts' (hopper_run.cu, hopper_run2.cu) `hash`.
pub fn hash(seed: u32, i: u32) -> u32 {
    let mut h = i.wrapping_mul(2654435761) ^ seed.wrapping_mul(0x9E37_79B9);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297A_2D39);
    h ^= h >> 15;
    h
}

/// Value `i` of input `seed`: k/256, k in [-1000, 1000].
pub fn input_value(seed: u32, i: u32) -> f32 {
    ((hash(seed, i) % 2001) as i32 - 1000) as f32 / 256.0
}

/// f32 -> f16 bits for values k/256, |k| <= 1000 (exact: no rounding needed).
pub fn f16_bits(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let b = v.to_bits();
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!(exp > 0 && exp < 31 && b & 0x1fff == 0, "{v} is not exact in f16");
    ((b >> 16) & 0x8000) as u16 | ((exp as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

/// FNV-1a 64, the hosts' output hash.
pub fn fnv(b: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &c in b {
        h ^= c as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// Where the hosts place buffer `i`.
pub fn base(i: usize) -> u64 {
    0x1000_0000 + i as u64 * 0x10_0000
}

/// A 2-D tensor map with a 128-byte swizzle, as the hosts build them: element type `dtype`
/// (the driver's enum) of `es` bytes, dims (inner, outer), box (box_i, box_o).
pub fn map2d(addr: u64, dtype: u8, es: u64, dims: [u32; 2], boxes: [u16; 2]) -> Vec<u8> {
    TensorMap {
        layout: Layout::Tiled,
        rank: 2,
        dtype,
        interleave: 0,
        swizzle: 3,
        l2: 0,
        fill: 0,
        address: addr,
        dims: [dims[0], dims[1], 1, 1, 1],
        strides: [dims[0] as u64 * es, 0, 0, 0],
        boxes: [boxes[0], boxes[1], 1, 1, 1],
        estrides: [1; 5],
        channels: 0,
        pixels: 0,
        lower: [0; 3],
        upper: [0; 3],
    }
    .to_bytes()
    .to_vec()
}

/// Nsight Compute's `--csv --page raw` rows of `dir/file`, in launch order: metric -> value.
pub fn ncu_rows(dir: &str, file: &str) -> Vec<BTreeMap<String, f64>> {
    let text = std::fs::read_to_string(repo().join(dir).join(file)).unwrap();
    let mut rows = text.lines().filter(|l| l.starts_with('"')).map(|l| {
        l.trim_matches('"')
            .split("\",\"")
            .map(str::to_string)
            .collect::<Vec<String>>()
    });
    let head = rows.next().unwrap();
    rows.skip(1)
        .map(|r| {
            head.iter()
                .zip(&r)
                .filter_map(|(h, v)| v.replace(',', "").parse::<f64>().ok().map(|v| (h.clone(), v)))
                .collect()
        })
        .collect()
}

/// The device's output hashes per kernel, in order (`dir/run.txt`).
pub fn device_hashes(dir: &str) -> BTreeMap<String, Vec<u64>> {
    let text = std::fs::read_to_string(repo().join(dir).join("run.txt")).unwrap();
    let mut out: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for l in text.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() == 4 {
            out.entry(f[0].to_string())
                .or_default()
                .push(u64::from_str_radix(f[3], 16).unwrap());
        }
    }
    out
}

/// The machine code of a cubin (nvdisasm of WARPSCOPE_CUDA_ROOT's toolkit).
pub fn disassemble(cubin: &Path) -> Result<Vec<SassKernel>, String> {
    let root = warpscope_toolchain::locate::find_root().map_err(|e| e.to_string())?;
    let text =
        warpscope_toolchain::sass::disassemble(&root.bin("nvdisasm"), cubin).map_err(|e| e.to_string())?;
    warpscope_toolchain::sass::parse_disassembly(&text).map_err(|e| e.to_string())
}

/// One launch to emulate: its PTX and machine code, shape, arguments and buffers (each placed
/// at `base(i)`, with whether it is an output whose bytes are hashed).
pub struct Replay<'a> {
    pub name: &'a str,
    pub ptx: &'a str,
    pub symbol: &'a str,
    pub sass: Result<Vec<SassKernel>, String>,
    pub grid: [u32; 3],
    pub block: u32,
    pub dyn_smem: u32,
    pub args: Vec<Arg>,
    pub bufs: Vec<(Vec<u8>, bool)>,
}

/// One kernel's emulation: output hashes (in buffer order), `run`'s metrics, faults.
pub struct Emulated {
    pub hashes: Vec<u64>,
    pub metrics: BTreeMap<String, f64>,
    pub fault: Option<String>,
}

/// Emulates `r` as `warpscope run` analyses a launch on sm_90a. HOPPER_DUMP=dir writes each
/// output's bytes there.
pub fn emulate(r: Replay) -> Result<Emulated, String> {
    let arch = Arch::parse("sm_90a").unwrap();
    let program = warpscope_ptx::compile(r.ptx).map_err(|e| format!("compile: {e:?}"))?;
    if let Err(e) = &r.sass {
        return Err(format!("no machine code: {e}"));
    }
    let (ka, _) = kernel_analysis(&program, r.ptx, r.symbol, &r.sass, None, arch);
    let global = Global::new(
        r.bufs
            .iter()
            .enumerate()
            .map(|(i, b)| (base(i), b.0.clone()))
            .collect(),
    );
    let mut launch = Launch::new(r.grid, [r.block, 1, 1], r.args);
    launch.dyn_smem = r.dyn_smem;
    let watch = LaunchWatch {
        progress: None,
        deadline: None,
        budget_s: None,
    };
    let a = analyse_launch(
        &program,
        r.symbol,
        &launch,
        &Limits::default(),
        &global,
        &ka,
        false,
        None,
        None,
        watch,
    )
    .map_err(|e| e.to_string())?;
    let mut hashes = Vec::new();
    for (i, (b, out)) in r.bufs.iter().enumerate() {
        if *out {
            let mut o = vec![0u8; b.len()];
            global.read_range(base(i), &mut o).unwrap();
            hashes.push(fnv(&o));
            if let Ok(dir) = std::env::var("HOPPER_DUMP") {
                std::fs::write(format!("{dir}/{}_{i}.bin", r.name), &o).unwrap();
            }
        }
    }
    Ok(Emulated {
        hashes,
        metrics: a.metrics,
        fault: a.fault,
    })
}

/// The compared counters, each with the label (`run`'s metric) that says whether it is exact.
pub const COUNTERS: &[(&str, &str)] = &[
    (
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "warpscope__shared_counters_exact",
    ),
    (
        "smsp__sass_inst_executed_op_shared_st.sum",
        "warpscope__shared_counters_exact",
    ),
    (
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "warpscope__shared_counters_exact",
    ),
    (
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "warpscope__shared_counters_exact",
    ),
    (
        "smsp__sass_inst_executed_op_ldsm.sum",
        "warpscope__matrix_counters_exact",
    ),
    (
        "smsp__inst_executed_op_stsm.sum",
        "warpscope__matrix_counters_exact",
    ),
    (
        "smsp__inst_executed_op_ldgsts.sum",
        "warpscope__matrix_counters_exact",
    ),
    (
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
        "warpscope__matrix_counters_exact",
    ),
    (
        "smsp__sass_inst_executed_op_shared_gmma.sum",
        "warpscope__shared_counters_exact",
    ),
    (
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum",
        "warpscope__shared_counters_exact",
    ),
    (
        "smsp__sass_branch_targets.sum",
        "warpscope__branch_counters_exact",
    ),
    (
        "smsp__sass_branch_targets_threads_divergent.sum",
        "warpscope__branch_counters_exact",
    ),
    (
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "warpscope__global_counters_exact",
    ),
    (
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "warpscope__global_counters_exact",
    ),
    (
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "warpscope__global_counters_exact",
    ),
    (
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "warpscope__global_counters_exact",
    ),
    ("smsp__sass_inst_executed_op_tma.sum", ""),
];

/// Each compared counter's (emulated, measured, labelled exact): the counters both `run` and
/// ncu's rows `a`/`b` give.
pub fn compare(
    e: &Emulated,
    a: &BTreeMap<String, f64>,
    b: &BTreeMap<String, f64>,
) -> Vec<(&'static str, f64, f64, bool)> {
    let mut out = Vec::new();
    for (name, label) in COUNTERS {
        let Some(m) = a.get(*name).or_else(|| b.get(*name)) else {
            continue;
        };
        // a counter `run` does not give for this kernel (no instruction of its kind ran)
        let Some(v) = e.metrics.get(*name) else { continue };
        let exact = label.is_empty() || e.metrics.get(*label) == Some(&1.0);
        out.push((*name, *v, *m, exact));
    }
    out
}

/// One ncu row: metric -> value.
pub type Row = BTreeMap<String, f64>;

/// Prints one kernel's outputs and counters against the H200's (the exploration tests).
pub fn print_against(name: &str, e: &Emulated, device: Option<&Vec<u64>>, rows: Option<(&Row, &Row)>) {
    println!(
        "== {name} outputs {} fault {:?}",
        match device {
            Some(d) if *d == e.hashes => "EQUAL",
            Some(_) => "DIFFER",
            None => "(no H200 run)",
        },
        e.fault
    );
    let labels: Vec<String> = e
        .metrics
        .iter()
        .filter(|(n, _)| n.ends_with("_exact"))
        .map(|(n, v)| format!("{}={v}", n.trim_start_matches("warpscope__")))
        .collect();
    println!("   labels {}", labels.join(" "));
    match rows {
        Some((a, b)) => {
            for (n, v, m, x) in compare(e, a, b) {
                println!(
                    "   {:4} {:5} {n} emu {v} gpu {m}",
                    if v == m { "ok" } else { "DIFF" },
                    if x { "exact" } else { "est" }
                );
            }
        }
        None => {
            for (n, _) in COUNTERS {
                if let Some(v) = e.metrics.get(*n) {
                    println!("   {n} {v}");
                }
            }
        }
    }
}

/// What a replay must equal: the H200's tables in `dir` (ncu_a.csv, ncu_b.csv, run.txt), the
/// kernels whose outputs are known to differ and the exact counters known to differ (each with
/// its reason; asserted as they are, so that a change is seen), and how many exact counters
/// must at least be compared.
pub struct Expect<'a> {
    pub dir: &'a str,
    pub outputs_differ: &'a [(&'a str, &'a str)],
    pub counters_differ: &'a [(&'a str, &'a str, &'a str)],
    pub min_compared: usize,
}

/// Replays `kernels` (name, emulation, in launch order) against the H200: outputs byte for byte
/// and every counter labelled exact; panics with every difference not listed in `x`.
pub fn replay_against_h200(
    x: &Expect,
    kernels: impl ExactSizeIterator<Item = (String, Result<Emulated, String>)>,
) {
    let (a, b) = (ncu_rows(x.dir, "ncu_a.csv"), ncu_rows(x.dir, "ncu_b.csv"));
    let dev = device_hashes(x.dir);
    assert_eq!(a.len(), kernels.len(), "one ncu row per kernel, in launch order");
    let (mut equal, mut compared, mut estimates) = (0, 0, Vec::new());
    let mut bad = Vec::new();
    for (i, (name, e)) in kernels.enumerate() {
        let e = match e {
            Ok(e) => e,
            Err(err) => {
                bad.push(format!("{name}: refused: {err}"));
                continue;
            }
        };
        assert_eq!(e.fault, None, "{name}");
        if x.outputs_differ.iter().any(|(n, _)| *n == name) {
            assert_ne!(
                dev[&name], e.hashes,
                "{name}: now bit-exact: take it off OUTPUTS_DIFFER"
            );
        } else if dev[&name] != e.hashes {
            bad.push(format!("{name}: outputs differ from the H200's"));
        }
        for (n, v, m, exact) in compare(&e, &a[i], &b[i]) {
            if !exact {
                estimates.push(format!("{name} {n}: {v} (H200 {m})"));
                continue;
            }
            compared += 1;
            let known = x
                .counters_differ
                .iter()
                .any(|(kn, cn, _)| *kn == name && *cn == n);
            if v == m {
                equal += 1;
                assert!(!known, "{name} {n}: now equal: take it off COUNTERS_DIFFER");
            } else if !known {
                bad.push(format!("{name} {n}: {v}, the H200 {m} (labelled exact)"));
            }
        }
    }
    println!(
        "{equal} of {compared} exact counters equal; estimates:\n  {}",
        estimates.join("\n  ")
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(
        compared >= x.min_compared,
        "{compared} counters compared, fewer than {}",
        x.min_compared
    );
}
