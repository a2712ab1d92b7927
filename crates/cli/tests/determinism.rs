//! The same inputs give byte-identical JSON whatever the number of threads: `analyze` and `check`
//! run with RAYON_NUM_THREADS = 1, 2 and 4 on kernels of several blocks (seed, classic and
//! planted-bug suites), and every output must equal the single-threaded one.

use std::path::PathBuf;
use std::process::Command;

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel)
}

fn run_with_threads(threads: u32, args: &[String]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .env("RAYON_NUM_THREADS", threads.to_string())
        .args(args)
        .output()
        .expect("run warpscope");
    // `check` exits 1 when it finds errors; both 0 and 1 give a JSON report.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.stdout.is_empty(), "{args:?}: no output");
    out.stdout
}

fn same_for_all_thread_counts(args: &[String]) {
    let one = run_with_threads(1, args);
    serde_json::from_slice::<serde_json::Value>(&one).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"));
    for t in [2, 4] {
        let other = run_with_threads(t, args);
        assert!(
            one == other,
            "{args:?}: RAYON_NUM_THREADS={t} output differs from the single-threaded one"
        );
    }
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn analyze_json_is_identical_for_1_2_4_threads() {
    for (file, grid, block, args) in [
        (
            "crates/cli/fixtures/classic/matmulTiled.ptx",
            "4,4",
            "16,16",
            &["buf:16384", "buf:16384", "buf:16384"][..],
        ),
        (
            "crates/cli/fixtures/classic/transposeF.ptx",
            "2,2",
            "32,8",
            &["buf:16384", "buf:16384"][..],
        ),
        (
            "crates/cli/fixtures/classic/scanBlelloch.ptx",
            "2",
            "256",
            &["buf:4096", "buf:4096"][..],
        ),
        (
            "crates/cli/fixtures/seeds/sqRowCol.ptx",
            "1",
            "32,32",
            &["buf:4096"][..],
        ),
    ] {
        let mut a = s(&[
            "analyze",
            "--grid",
            grid,
            "--block",
            block,
            "--ptx-widths",
            "--format",
            "json",
        ]);
        a.push(repo(file).display().to_string());
        for x in args {
            a.push("--arg".into());
            a.push(x.to_string());
        }
        same_for_all_thread_counts(&a);
    }
}

#[test]
fn check_json_is_identical_for_1_2_4_threads() {
    // Kernels with findings (races, barriers, out of bounds) and a clean one, 2 blocks or more.
    for (kernel, grid, block, dyn_smem, n) in [
        ("race_raw_nosync", "2", "64", "0", 128),
        ("divergent_barrier_odd", "2", "64", "0", 128),
        ("oob_global_noguard", "2", "64", "0", 100),
        ("uninit_dyn", "2", "64", "256", 128),
        ("ok_transpose_pad", "2,2", "16,16", "0", 1024),
    ] {
        let ptx = repo(&format!("calibration/bugs/ptx/{kernel}.ptx"));
        let mut a = s(&[
            "check",
            "--grid",
            grid,
            "--block",
            block,
            "--dyn-smem",
            dyn_smem,
            "--format",
            "json",
        ]);
        a.push(ptx.display().to_string());
        for x in [
            format!("buf:{}:zero", 4 * n),
            format!("buf:{}", 4 * n),
            format!("i32:{n}"),
        ] {
            a.push("--arg".into());
            a.push(x);
        }
        same_for_all_thread_counts(&a);
    }
}

/// 4,096 blocks of 64 threads: a shared store whose stride doubles with `blockIdx.x % 4` (1, 2, 4
/// and 8-way bank conflicts: every fourth block ties for the worst request, the first of them is
/// the one reported), a branch that diverges by `(tid + blockIdx.x) % 3`, and a global store. With
/// 2 and 4 threads the blocks' counters are folded in parts of 64 consecutive blocks on the threads
/// that ran them and combined in block order; the JSON must equal the single-threaded one.
const MANY_BLOCKS: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
.visible .entry k(.param .u64 out)\n{\n\
 .reg .pred %p<3>;\n .reg .b32 %r<20>;\n .reg .b64 %rd<6>;\n .shared .align 4 .b32 sm[4096];\n\
 ld.param.u64 %rd1, [out];\n mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n\
 mad.lo.s32 %r4, %r1, %r2, %r3;\n and.b32 %r5, %r1, 3;\n mov.u32 %r8, 1;\n shl.b32 %r7, %r8, %r5;\n\
 mul.lo.u32 %r9, %r3, %r7;\n and.b32 %r9, %r9, 4095;\n shl.b32 %r10, %r9, 2;\n mov.u32 %r11, sm;\n\
 add.u32 %r12, %r11, %r10;\n st.shared.u32 [%r12], %r4;\n bar.sync 0;\n ld.shared.u32 %r13, [%r12];\n\
 add.u32 %r14, %r3, %r1;\n rem.u32 %r14, %r14, 3;\n setp.eq.u32 %p1, %r14, 0;\n @%p1 bra $L_skip;\n\
 add.u32 %r13, %r13, 7;\n$L_skip:\n mul.wide.u32 %rd2, %r4, 4;\n add.s64 %rd3, %rd1, %rd2;\n\
 st.global.u32 [%rd3], %r13;\n ret;\n}\n";

#[test]
fn analyze_json_of_thousands_of_blocks_is_identical_for_1_2_4_threads() {
    let dir = std::env::temp_dir().join(format!("warpscope-determinism-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = dir.join("many.ptx");
    std::fs::write(&ptx, MANY_BLOCKS).unwrap();
    let mut a = s(&[
        "analyze",
        "--grid",
        "4096",
        "--block",
        "64",
        "--ptx-widths",
        "--format",
        "json",
    ]);
    a.push(ptx.display().to_string());
    a.push("--arg".into());
    a.push(format!("buf:{}", 4096 * 64 * 4));
    same_for_all_thread_counts(&a);
    // what is compared is there: per four blocks (two warps each) 2 x (1 + 2 + 4 + 8) wavefronts
    // for each of the store and the load, the worst an 8-way request of block 3 (the first block
    // with stride 8, the later ties give way), and every warp's branch divergent
    let v: serde_json::Value = serde_json::from_slice(&run_with_threads(4, &a)).unwrap();
    let insts = v["instructions"].as_array().unwrap();
    let store = insts.iter().find(|i| i["side"] == "store").unwrap();
    assert_eq!(store["instructions"], 8192);
    assert_eq!(store["wavefronts"], 1024 * 2 * (1 + 2 + 4 + 8));
    assert_eq!(store["worst"]["block"], 3);
    assert_eq!(store["worst"]["wavefronts"], 8);
    let branch = &v["divergence"]["branches"][0];
    assert_eq!(
        (&branch["executions"], &branch["divergent"]),
        (&8192.into(), &8192.into())
    );
    let _ = std::fs::remove_dir_all(&dir);
}
