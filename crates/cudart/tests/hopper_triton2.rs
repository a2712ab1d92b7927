//! The second set of Triton kernels of calibration/hopper/ (gen_triton2.py: fp8, tf32, bf16 and
//! int8 dots, 4-stage TMA pipelines, split-K atomics, causal and warp-specialised kernels, a spin
//! lock, scans, sorts, histograms, inline assembly, libdevice functions), each emulated as `warpscope
//! run` analyses a launch (Triton's own cubin for the machine code) on the inputs
//! calibration/hopper/host/hopper_run2.cu gives them on the GPU. Both read one launch table,
//! calibration/hopper/triton2/launches.tsv. The outputs must equal the H200's byte for byte (FNV-1a
//! 64 hashes in calibration/hopper/h200_triton2/run.txt) and every counter labelled exact must
//! equal Nsight Compute's (h200_triton2/ncu_*.csv); what differs is listed below with its reason
//! and asserted as it is, so that a change is seen.

mod common;

use common::{
    Emulated, Expect, Replay, base, device_hashes, disassemble, f16_bits, hash, input_value, map2d, ncu_rows,
    print_against, replay_against_h200, repo,
};
use std::collections::BTreeMap;
use warpscope_emu::Arg;

const DIR: &str = "calibration/hopper/triton2";
const H200: &str = "calibration/hopper/h200_triton2";

/// f32 -> bf16 bits, rounded to nearest even (finite values).
fn bf16_bits(v: f32) -> u16 {
    let b = v.to_bits();
    ((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16
}

fn num<T: std::str::FromStr>(s: &str) -> T {
    s.parse()
        .unwrap_or_else(|_| panic!("launches.tsv: bad number {s:?}"))
}

/// A buffer token of launches.tsv: its bytes, and whether it is an output.
fn buffer(tok: &str) -> (Vec<u8>, bool) {
    let f: Vec<&str> = tok.split(':').collect();
    match f[0] {
        "out" => return (vec![0; num(f[1])], true),
        "zero" => return (vec![0; num(f[1])], false),
        _ => {}
    }
    let (seed, n): (u32, u32) = (num(f[1]), num(f[2]));
    let mut b = Vec::new();
    for i in 0..n {
        let h = hash(seed, i);
        let sign = ((h >> 20) & 1) << 7;
        match f[0] {
            "f32" => b.extend(input_value(seed, i).to_le_bytes()),
            "f16" => b.extend(f16_bits(input_value(seed, i)).to_le_bytes()),
            "bf16" => b.extend(bf16_bits(input_value(seed, i)).to_le_bytes()),
            "e4m3" => b.push(((h % 0x70) | sign) as u8),
            "e5m2" => b.push(((h % 0x48) | sign) as u8),
            "i8" => b.push(h as u8),
            "imod" => b.extend(((h as u64 % num::<u64>(f[3])) as u32).to_le_bytes()),
            k => panic!("launches.tsv: buffer kind {k}"),
        }
    }
    (b, false)
}

struct K {
    name: String,
    symbol: String,
    grid: [u32; 3],
    block: u32,
    dyn_smem: u32,
    /// Each buffer's bytes and whether it is an output; scratch buffers of `scratch:` params last.
    bufs: Vec<(Vec<u8>, bool)>,
    args: Vec<Arg>,
}

fn kernels() -> Vec<K> {
    let text = std::fs::read_to_string(repo().join(DIR).join("launches.tsv")).unwrap();
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        assert_eq!(c.len(), 7, "launches.tsv: {line}");
        let g: Vec<u32> = c[2].split(',').map(num).collect();
        let mut bufs: Vec<(Vec<u8>, bool)> = c[5].split(' ').map(buffer).collect();
        let mut args = Vec::new();
        for p in c[6].split(' ') {
            let f: Vec<&str> = p.split(':').collect();
            args.push(match f[0] {
                "p" => Arg::U64(base(num(f[1]))),
                "null" => Arg::U64(0),
                "i32" => Arg::I32(num(f[1])),
                "i64" => Arg::I64(num(f[1])),
                "f32" => Arg::F32(num(f[1])),
                "scratch" => {
                    bufs.push((vec![0; num(f[1])], false));
                    Arg::U64(base(bufs.len() - 1))
                }
                "map" => Arg::Bytes(map(&f)),
                t => panic!("launches.tsv: param {t}"),
            });
        }
        out.push(K {
            name: c[0].into(),
            symbol: c[1].into(),
            grid: [g[0], g[1], g[2]],
            block: num(c[3]),
            dyn_smem: num(c[4]),
            bufs,
            args,
        });
    }
    out
}

/// hopper_run2.cu's `map:I:DT:INNER:OUTER:BOXI:BOXO`: a 2-D tensor map, 128-byte swizzle.
fn map(f: &[&str]) -> Vec<u8> {
    let (dtype, es) = match f[2] {
        "u8" => (0, 1),
        "f16" => (6, 2),
        "f32" => (7, 4),
        "bf16" => (9, 2),
        d => panic!("launches.tsv: map type {d}"),
    };
    map2d(
        base(num(f[1])),
        dtype,
        es,
        [num(f[3]), num(f[4])],
        [num(f[5]), num(f[6])],
    )
}

/// Emulates `k` with Triton's own cubin for the machine code.
fn emulate(k: &K) -> Result<Emulated, String> {
    let ptx = std::fs::read_to_string(repo().join(DIR).join(format!("{}.ptx", k.name))).unwrap();
    common::emulate(Replay {
        name: &k.name,
        ptx: &ptx,
        symbol: &k.symbol,
        sass: disassemble(&repo().join(DIR).join(format!("{}.cubin", k.name))),
        grid: k.grid,
        block: k.block,
        dyn_smem: k.dyn_smem,
        args: k.args.clone(),
        bufs: k.bufs.clone(),
    })
}

#[test]
#[ignore = "exploration: prints every counter against the H200's (HOPPER_ONLY=name: one kernel)"]
fn print_triton2_counters_against_the_h200() {
    let have = repo().join(H200).join("run.txt").exists();
    let (a, b) = if have {
        (ncu_rows(H200, "ncu_a.csv"), ncu_rows(H200, "ncu_b.csv"))
    } else {
        (Vec::new(), Vec::new())
    };
    let dev = if have {
        device_hashes(H200)
    } else {
        BTreeMap::new()
    };
    let only = std::env::var("HOPPER_ONLY").ok();
    for (i, k) in kernels().iter().enumerate() {
        if only.as_deref().is_some_and(|o| o != k.name) {
            continue;
        }
        let t = std::time::Instant::now();
        match emulate(k) {
            Ok(e) => print_against(&k.name, &e, dev.get(&k.name), have.then(|| (&a[i], &b[i]))),
            Err(err) => println!("== {} REFUSED: {err}", k.name),
        }
        println!("   ({:.1} s)", t.elapsed().as_secs_f64());
    }
}

/// Kernels whose outputs are not bit-exact yet, and why.
const OUTPUTS_DIFFER: &[(&str, &str)] = &[];

/// Counters labelled exact that differ from the H200's, and why.
const COUNTERS_DIFFER: &[(&str, &str, &str)] = &[];

#[test]
fn every_second_set_triton_kernel_replays_the_h200() {
    let x = Expect {
        dir: H200,
        outputs_differ: OUTPUTS_DIFFER,
        counters_differ: COUNTERS_DIFFER,
        min_compared: 103,
    };
    let ks = kernels();
    replay_against_h200(&x, ks.iter().map(|k| (k.name.clone(), emulate(k))));
}

/// Triton's masked copies (`cp.async.cg [..], [..], 16, %r` with `%r` a `selp` of 16 and 0, which
/// ptxas makes `LDGSTS.E.BYPASS.128 [..], [..], P`): per instruction, the executions and shared
/// wavefronts the emulator counts equal Nsight Compute's source page
/// (calibration/srcpred/triton2_ldgsts.tsv, from h200_triton2/triton2.sass.csv.gz): the prologue
/// copies of mm_e4m3 (15 per execution: 144-byte rows of 64 bytes, every lane reading), its loop
/// copies (6.67: the K tail and the copies past it, zero-filled lanes as a src-size-0 copy), and
/// the copies whose predicate operand is `P0` or `!P0` (mm_tf32, mm_splitk: the instrumentation
/// takes `P0` as false). The PTX copies pair with the machine code's `LDGSTS`s in code order.
#[test]
fn masked_copies_count_per_instruction_as_the_source_page() {
    use warpscope_analysis::banks::MatrixKind;
    let page = std::fs::read_to_string(repo().join("calibration/srcpred/triton2_ldgsts.tsv")).unwrap();
    let rows: Vec<Vec<String>> = page
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    let arch = warpscope_model::arch::Arch::parse("sm_90a").unwrap();
    let mut checked = 0;
    for (i, k) in kernels().iter().enumerate() {
        let want: Vec<(u64, u64)> = rows
            .iter()
            .filter(|r| r[0] == i.to_string())
            .map(|r| (r[3].parse().unwrap(), r[4].parse().unwrap()))
            .collect();
        if want.is_empty() {
            continue;
        }
        let ptx = std::fs::read_to_string(repo().join(DIR).join(format!("{}.ptx", k.name))).unwrap();
        let program = warpscope_ptx::compile(&ptx).unwrap();
        let sass = disassemble(&repo().join(DIR).join(format!("{}.cubin", k.name))).unwrap();
        let sass = sass.into_iter().find(|s| s.name == k.symbol).unwrap();
        let recon = warpscope_analysis::reconcile::Reconciliation::build(
            &program,
            &k.symbol,
            &warpscope_analysis::reconcile::machine_accesses(&sass),
        )
        .with_copy_predicates(&program, &k.symbol, &sass);
        let widths = warpscope_driver::Widths {
            recon: std::sync::Arc::new(recon),
            note: "Triton's cubin".into(),
            sass: None,
        };
        assert!(
            !widths.recon.copy_predicates.is_empty(),
            "{}: no LDGSTS predicate read off the machine code",
            k.name
        );
        let global = warpscope_emu::mem::Global::new(
            k.bufs
                .iter()
                .enumerate()
                .map(|(i, b)| (base(i), b.0.clone()))
                .collect(),
        );
        let mut launch = warpscope_emu::Launch::new(k.grid, [k.block, 1, 1], k.args.clone());
        launch.dyn_smem = k.dyn_smem;
        let sections = warpscope_driver::Sections {
            banks: true,
            ..warpscope_driver::Sections::NONE
        };
        let r = warpscope_driver::analyze_launch_in(
            &program,
            &k.symbol,
            &launch,
            &global,
            &sections,
            arch,
            &widths,
            &warpscope_driver::RunOptions::default(),
        )
        .unwrap();
        let report = &r.banks.as_ref().unwrap().report;
        let mut got: Vec<(u32, u64, u64, u64)> = report
            .matrix
            .values()
            .filter(|s| s.kind == MatrixKind::Ldgsts)
            .map(|s| (s.pc, s.counts.instructions, s.counts.wavefronts, s.unmodelled))
            .collect();
        got.sort_unstable();
        let got: Vec<(u64, u64)> = got
            .iter()
            .map(|&(_, n, w, u)| {
                assert_eq!(u, 0, "{}: copies outside the rules", k.name);
                (n, w)
            })
            .collect();
        assert_eq!(got, want, "{}: (executions, wavefronts) per LDGSTS", k.name);
        checked += want.len();
    }
    // mm_e4m3, mm_i8, mm_tf32 (12, 12, 24), mm_splitk 12, attn_causal 24
    assert_eq!(checked, 84);
}

/// The five kernels with `cp.async.cg` pipelines repeated their global load requests and sectors,
/// LDGSTS wavefronts and LDGSTS bank conflicts exactly over five H200 runs, three with the metric
/// list and two with the source counters' sections too (calibration/cgcrowd/repeat.tsv), and the
/// emulation gives those counts (the global ones are labelled estimates for the H100's `.cg`
/// pipelines: docs/counters.md).
#[test]
fn bypass_pipelines_repeat_their_counts_and_equal_the_emulation() {
    let text = std::fs::read_to_string(repo().join("calibration/cgcrowd/repeat.tsv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let cols = [
        (
            col("ld_requests"),
            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        ),
        (
            col("ld_sectors"),
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        ),
        (
            col("ldgsts_wavefronts"),
            "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
        ),
        (
            col("ldgsts_conflicts"),
            "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
        ),
    ];
    let mut runs: BTreeMap<String, Vec<Vec<f64>>> = BTreeMap::new();
    for l in lines {
        let f: Vec<&str> = l.split('\t').collect();
        if !f[0].contains("triton") {
            continue;
        }
        runs.entry(f[2].to_string())
            .or_default()
            .push(cols.iter().map(|&(c, _)| num::<f64>(f[c])).collect());
    }
    assert_eq!(runs.len(), 5);
    let ks = kernels();
    for (name, v) in &runs {
        assert_eq!(v.len(), 5, "{name}: runs");
        assert!(v.iter().all(|r| r == &v[0]), "{name}: the runs differ: {v:?}");
        let k = ks.iter().find(|k| &k.name == name).unwrap();
        let e = emulate(k).unwrap();
        for (i, &(_, metric)) in cols.iter().enumerate() {
            assert_eq!(e.metrics.get(metric), Some(&v[0][i]), "{name}: {metric}");
        }
    }
}
