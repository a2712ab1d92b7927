//! Tensor memory access end to end. `warpscope run` on calibration/tma/tma.cu (built here with
//! the wheels' nvcc by calibration/tma/build.sh): the program gets `cuTensorMapEncodeTiled` and
//! `cuTensorMapEncodeIm2col` through `cudaGetDriverEntryPointByVersion`, loads boxes with every
//! swizzle mode, out of bounds, with element strides, in 1 to 5 dimensions, one im2col column, a
//! multicast load in a cluster of 2, stores and reductions back to global memory,
//! `tensormap.replace` in global and shared memory, and asks the driver for bad maps; its output
//! equals the GPU's byte for byte up to the launch the GPU stopped (calibration/tma/h200/tma.stdout)
//! and every measured launch's shared-memory and TMA counters equal Nsight Compute's
//! (calibration/tma/h200/tma.ncu.csv; two launches' held as estimates). `analyze` takes a tensor
//! map as a kernel argument (`--arg tensormap:...`) and refuses bad ones with the reason.

use std::path::Path;
use std::process::{Command, Output};

mod support;
use support::{cuda_root, read_ncu_csv, repo};

/// Shared instructions and wavefronts: the TMA's own shared-memory traffic is not in them (the
/// launches' counts are the kernels' own loads and stores).
const SHARED: &[&str] = &[
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_inst_executed_op_shared_atom.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
];

/// TMA counters: instructions, and the global sectors (and bytes) the loads read (a multicast
/// load's once per block it reaches), the stores wrote and the reductions updated.
const TMA_EXACT: &[&str] = &[
    "smsp__sass_inst_executed_op_tma.sum",
    "smsp__sass_inst_executed_op_tma_ld.sum",
    "smsp__sass_inst_executed_op_tma_st.sum",
    "smsp__sass_inst_executed_op_tma_red.sum",
    SECTORS,
    LD_BYTES,
    "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum",
    "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum",
    "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum",
    "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum",
];
const SECTORS: &str = "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum";
const LD_BYTES: &str = "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum";
/// Launches whose TMA load sectors and bytes warpscope estimates (`f16_2d_none`: 8 sectors, 256
/// bytes against the GPU's 10, 320).
const ESTIMATED: &[usize] = &[17];
/// Launches whose shared instructions and wavefronts warpscope estimates (`replace_shared`: 3
/// loads, 11 stores against the GPU's 6, 14; the machine code edits the map in shared memory with
/// LDS/STS, 2 loads and 3 stores for the two `tensormap.replace`, and `tensormap.cp_fenceproxy`
/// reads it with one LDS, which warpscope does not count).
const SHARED_ESTIMATED: &[usize] = &[25];

/// `text` up to the first case whose launch the GPU stopped (`an illegal instruction was
/// encountered`: the context is lost for the rest of the process), and that case's line.
fn until_stopped(text: &str) -> (&str, Option<&str>) {
    match text.find("an illegal instruction was encountered") {
        None => (text, None),
        Some(at) => {
            let case = text[..at].rfind("\ncase ").map_or(0, |c| c + 1);
            (&text[..case], Some(text[case..].lines().next().unwrap_or("")))
        }
    }
}

#[test]
fn the_tma_program_prints_what_the_gpu_printed_and_counts_its_shared_memory() {
    let dir = std::env::temp_dir().join(format!("warpscope-tma-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("sh")
        .arg(repo().join("calibration/tma/build.sh"))
        .arg(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "build.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let export = dir.join("tma.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export", export.to_str().unwrap(), "--", "./tma"])
        .current_dir(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}\n{stdout}");
    let want = std::fs::read_to_string(repo().join("calibration/tma/h200/tma.stdout")).unwrap();
    // the GPU's output up to the first launch it stopped (none in a complete measurement)
    let (measured, stopped) = until_stopped(&want);
    assert!(
        stdout.starts_with(measured),
        "output differs from the GPU's\n--- warpscope run\n{stdout}\n--- GPU\n{measured}"
    );
    // every case ran on the GPU (the store it stops is a probe): the boxes, im2col, multicast,
    // tensormap.replace, the store and the four reductions (calibration/tma/README.md)
    assert!(stopped.is_none(), "the GPU stopped {stopped:?}");
    let cases = measured.lines().filter(|l| l.starts_with("case ")).count();
    assert_eq!(cases, 35, "cases measured");
    // the 26 encode calls (one correct, 25 with a bad argument), the driver's code for each
    let codes = measured
        .lines()
        .filter(|l| l.starts_with("encode_error "))
        .count();
    assert_eq!(codes, 26, "encode results");
    // the driver's refusals say why
    assert!(
        stderr.contains("cuTensorMapEncodeTiled: globalStrides[0] = 100 is not a multiple of 16"),
        "{stderr}"
    );
    assert!(
        stderr.contains("the driver function cuNoSuchFunction is not provided"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let recorded = v["launches"].as_array().unwrap();
    let hw = read_ncu_csv(&repo().join("calibration/tma/h200/tma.ncu.csv"));
    if stopped.is_none() {
        assert_eq!(recorded.len(), hw.len(), "launches");
    }
    // launches up to the one the GPU stopped
    let ran = stopped.map_or(hw.len(), |_| hw.len() - 1);
    assert_eq!(ran, 35, "launches measured");
    for (i, l) in recorded.iter().enumerate().take(ran) {
        let (name, m) = &hw[&(i as u64)];
        for &k in SHARED.iter().chain(TMA_EXACT) {
            let ours = l["metrics"][k].as_f64().unwrap_or(0.0);
            if SHARED.contains(&k) && SHARED_ESTIMATED.contains(&i) && !k.ends_with("shared_atom.sum") {
                // the map edited in shared memory (SHARED_ESTIMATED)
                assert_ne!(Some(&ours), m.get(k), "launch {i} ({name}): {k} now exact");
                continue;
            }
            if (k == SECTORS || k == LD_BYTES) && ESTIMATED.contains(&i) {
                // the one measured box whose sectors the rule misses (calibration/tma/README.md)
                assert_ne!(Some(&ours), m.get(k), "launch {i} ({name}): {k} now exact");
                continue;
            }
            assert_eq!(Some(&ours), m.get(k), "launch {i} ({name}): {k}");
        }
    }
    // the probes the GPU ran, one per process (calibration/tma/h200/probes.stdout): in-bounds u8
    // boxes of 250-byte rows and of a tensor 16 bytes into its allocation, an fp32 box of 80-byte
    // rows, u8 boxes crossing the last row and (32 bytes wide) the last column, 5-D fp32 boxes
    // crossing edges and in bounds
    let probes = std::fs::read_to_string(repo().join("calibration/tma/h200/probes.stdout")).unwrap();
    let mut ran = 0;
    for section in probes.split("== probe ").skip(1) {
        let (name, want) = section.split_once('\n').unwrap();
        if want.contains("an illegal instruction was encountered") {
            // u8_250_oob, u8_2d_oob, u16_4d, u16_4d_inb, store_f32_oob_neg_sw128: the GPU stops
            // them (calibration/tma/README.md); warpscope loads and stores the boxes
            continue;
        }
        let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .args(["run", "--", "./tma", "probe", name])
            .current_dir(&dir)
            .env("WARPSCOPE_CUDA_ROOT", cuda_root())
            .output()
            .unwrap();
        let got = String::from_utf8_lossy(&out.stdout);
        assert!(
            got.starts_with(want),
            "probe {name}\n--- warpscope run\n{got}\n--- GPU\n{want}"
        );
        ran += 1;
    }
    assert_eq!(ran, 7);
    std::fs::remove_dir_all(&dir).ok();
}

/// A kernel that loads an 8 x 4 fp32 box at (x, 1) of its tensor map argument and traps unless
/// the box's element (3, 1) (global (x + 3, 2)) is `want`.
const KERNEL: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n\
.visible .entry tmaload(.param .align 64 .b8 tm[128], .param .u64 tensor, .param .u32 x, .param .u32 want)\n{\n\
 .reg .b32 %r<12>;\n .reg .b64 %rd<4>;\n .reg .pred %p<3>;\n\
 .shared .align 1024 .b8 buf[1024];\n .shared .align 8 .b64 bar;\n\
 mov.u32 %r1, %tid.x;\n setp.ne.u32 %p1, %r1, 0;\n @%p1 bra END;\n\
 ld.param.u32 %r2, [x];\n ld.param.u32 %r3, [want];\n mov.u32 %r4, bar;\n mov.u32 %r5, buf;\n\
 mbarrier.init.shared::cta.b64 [%r4], 1;\n mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r4], 128;\n\
 mov.b64 %rd1, tm;\n cvta.param.u64 %rd2, %rd1;\n mov.u32 %r6, 1;\n\
 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r5], [%rd2, {%r2, %r6}], [%r4];\n\
W:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r4], 0;\n @!%p2 bra W;\n\
 ld.shared.u32 %r7, [buf+44];\n setp.ne.u32 %p1, %r7, %r3;\n @%p1 trap;\n\
END:\n ret;\n}\n";

fn analyze(dir: &Path, map: &str, want: u32) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "analyze", "k.ptx", "--grid", "1", "--block", "32", "--format", "json",
        ])
        .args([
            "--arg",
            &format!("tensormap:{map}"),
            "--arg",
            "buf:@t.bin",
            "--arg",
            "u32:5",
        ])
        .args(["--arg", &format!("u32:{want}")])
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn analyze_takes_a_tensor_map_argument_and_refuses_bad_ones() {
    let dir = std::env::temp_dir().join(format!("warpscope-tma-arg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.ptx"), KERNEL).unwrap();
    // a 64 x 64 fp32 tensor whose element (x, y) is y * 64 + x
    let t: Vec<u8> = (0..4096u32).flat_map(|i| i.to_le_bytes()).collect();
    std::fs::write(dir.join("t.bin"), t).unwrap();
    let faults = |o: &Output| -> Vec<String> {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["faults"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_string())
            .collect()
    };
    let map = "buf=1,type=f32,dims=64x64,box=8x4";
    // element (5 + 3, 1 + 1) = 2 * 64 + 8
    assert_eq!(faults(&analyze(&dir, map, 136)), Vec::<String>::new());
    let f = faults(&analyze(&dir, map, 137));
    assert!(f.len() == 1 && f[0].contains("traps"), "{f:?}");
    // a map over the buffer's second half (offset 8192 bytes: rows 32 and up)
    let half = "buf=1,type=f32,dims=64x32,box=8x4,offset=8192";
    assert_eq!(faults(&analyze(&dir, half, 32 * 64 + 136)), Vec::<String>::new());
    for (bad, why) in [
        (
            "buf=2,type=f32,dims=64x64,box=8x4",
            "argument 2 is not a `buf:` argument",
        ),
        (
            "buf=1,type=f32,dims=64x65,box=8x4",
            "the tensor ends at byte 16640 of buffer argument 1, which holds 16384 bytes",
        ),
        (
            "buf=1,type=f32,dims=64x64,box=64x4,swizzle=128B",
            "the inner box dimension is 256 bytes, more than the 128-byte swizzle span",
        ),
        (
            "buf=1,type=f32,dims=64x64,box=8x4,strides=100",
            "globalStrides[0] = 100 is not a multiple of 16",
        ),
        (
            "buf=1,type=f32,dims=64x64,box=8x300",
            "boxDim[1] = 300 is not 1 to 256",
        ),
        ("buf=1,type=f33,dims=64x64,box=8x4", "`type=f33`: one of u8, u16"),
        (
            "buf=1,type=f32,dims=64x64",
            "needs `dims=AxB...` and `box=AxB...`",
        ),
        (
            "buf=1,type=s32,dims=64x64,box=8x4,fill=nan",
            "needs a floating-point element type, not INT32",
        ),
        (
            "buf=1,type=f32,dims=64x64,box=8x4,colour=red",
            "unknown key `colour`",
        ),
    ] {
        let o = analyze(&dir, bad, 0);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains(why) && err.contains(&format!("tensormap:{bad}")),
            "{bad}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_takes_the_tma_writes_as_writes() {
    let dir = std::env::temp_dir().join(format!("warpscope-tma-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t: Vec<u8> = (0..4096u32).flat_map(|i| i.to_le_bytes()).collect();
    std::fs::write(dir.join("t.bin"), t).unwrap();
    let kinds = |kernel: &str| -> Vec<(String, String)> {
        std::fs::write(dir.join("k.ptx"), kernel).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .args([
                "check", "k.ptx", "--grid", "1", "--block", "32", "--format", "json",
            ])
            .args([
                "--arg",
                "tensormap:buf=1,type=f32,dims=64x64,box=8x4",
                "--arg",
                "buf:@t.bin",
            ])
            .args(["--arg", "u32:5", "--arg", "u32:136"])
            .current_dir(&dir)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["kind"].as_str().unwrap().to_string(),
                    f["message"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    // the box's bytes are written by the copy: reading them is no uninitialised read
    assert_eq!(kinds(KERNEL), Vec::<(String, String)>::new());
    // byte 600 is past the 128-byte box: never written
    let f = kinds(&KERNEL.replace("[buf+44]", "[buf+600]"));
    assert!(
        f.iter()
            .any(|(k, m)| k == "uninitialized_read" && m.contains("byte 600 of `buf`")),
        "{f:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
