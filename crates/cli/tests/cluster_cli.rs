//! `--cluster` on the emulating commands: a cluster kernel given as PTX runs with the cluster
//! dimensions the flag gives (or its own `.reqnctapercluster`), `check` finds a race in a block's
//! own shared memory and none where the cluster barrier orders the accesses, and bad dimensions
//! are bad input (exit status 2) with the reason.

use std::process::{Command, Output};

const HEAD: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n";

/// Each block writes `rank * 1000 + tid` into the next rank's `s[tid]`, passes the cluster
/// barrier, then reads `s[tid ^ 32]` (another warp's slot) into `out`. With `racy`, the second
/// cluster barrier is gone and thread `tid` also writes its own `s[tid]` itself: the read of that
/// slot by the thread 32 apart (another warp) is then unordered with the write, a race.
fn kernel(racy: bool, dims: &str) -> String {
    let (barrier, own) = if racy {
        ("", "st.shared.u32 [%r8], %r3;")
    } else {
        (
            "barrier.cluster.arrive.release.aligned;\n    barrier.cluster.wait.acquire.aligned;",
            "",
        )
    };
    format!(
        r#"{HEAD}
.visible .entry ring(.param .u64 out)
{dims}
{{
    .reg .b32 %r<20>;
    .reg .b64 %rd<8>;
    .shared .align 4 .b8 s[256];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %cluster_ctarank;
    mov.u32 %r2, %cluster_nctarank;
    mov.u32 %r3, %tid.x;
    add.u32 %r4, %r1, 1;
    rem.u32 %r5, %r4, %r2;
    mov.u32 %r6, s;
    shl.b32 %r7, %r3, 2;
    add.u32 %r8, %r6, %r7;
    xor.b32 %r15, %r8, 128;
    mad.lo.u32 %r10, %r1, 1000, %r3;
    barrier.cluster.arrive.relaxed.aligned;
    barrier.cluster.wait.aligned;
    mapa.shared::cluster.u32 %r9, %r8, %r5;
    st.shared::cluster.u32 [%r9], %r10;
    {own}
    {barrier}
    ld.shared.u32 %r11, [%r15];
    mov.u32 %r12, %ctaid.x;
    mov.u32 %r13, %ntid.x;
    mad.lo.u32 %r14, %r12, %r13, %r3;
    mul.wide.u32 %rd2, %r14, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r11;
    barrier.cluster.arrive.aligned;
    barrier.cluster.wait.aligned;
    ret;
}}
"#
    )
}

fn warpscope(cmd: &str, ptx: &str, extra: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("warpscope-cluster-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("k{}.ptx", ptx.len()));
    std::fs::write(&path, ptx).unwrap();
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg(cmd)
        .arg(&path)
        .args([
            "--grid",
            "8",
            "--block",
            "64",
            "--arg",
            "buf:2048",
            "--ptx-widths",
            "--format",
            "json",
        ])
        .args(extra)
        .output()
        .unwrap()
}

fn findings(o: &Output) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)));
    v["findings"].as_array().cloned().unwrap_or_default()
}

#[test]
fn check_orders_accesses_by_the_cluster_barrier() {
    let clean = warpscope("check", &kernel(false, ""), &["--cluster", "4"]);
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    assert!(findings(&clean).is_empty(), "{:?}", findings(&clean));
    let racy = warpscope("check", &kernel(true, ""), &["--cluster", "4"]);
    let f = findings(&racy);
    assert!(
        f.iter().any(|x| x["kind"] == "race"),
        "{f:?}\n{}",
        String::from_utf8_lossy(&racy.stderr)
    );
    assert!(!f.iter().any(|x| x["kind"] == "uninitialized_read"), "{f:?}");
}

#[test]
fn analyze_runs_the_kernels_own_clusters_and_the_flags() {
    // `.reqnctapercluster 4` without the flag, the same with it; another size is refused
    let own = kernel(false, ".reqnctapercluster 4, 1, 1");
    let a = warpscope("analyze", &own, &[]);
    assert_eq!(a.status.code(), Some(0), "{}", String::from_utf8_lossy(&a.stderr));
    let b = warpscope("analyze", &own, &["--cluster", "4,1,1"]);
    assert_eq!(b.status.code(), Some(0), "{}", String::from_utf8_lossy(&b.stderr));
    let c = warpscope("analyze", &own, &["--cluster", "2"]);
    assert_eq!(c.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&c.stderr).contains("__cluster_dims__"));
}

#[test]
fn bad_cluster_dimensions_are_bad_input() {
    let k = kernel(false, "");
    for (flags, why) in [
        (vec!["--cluster", "3"], "not a whole number"),
        (vec!["--cluster", "16"], "over the 8"),
        (vec!["--cluster", "0"], "at least 1"),
        (vec!["--cluster", "8", "--blocks", "2"], "cannot be used with"),
    ] {
        let o = warpscope("analyze", &k, &flags);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {err}");
        assert!(err.contains(why), "{flags:?}: {err}");
    }
    // 16 with the non-portable size allowed: the grid must be 16 blocks
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("check")
        .arg({
            let p = std::env::temp_dir().join(format!("warpscope-cluster16-{}.ptx", std::process::id()));
            std::fs::write(&p, &k).unwrap();
            p
        })
        .args([
            "--grid",
            "16",
            "--block",
            "64",
            "--arg",
            "buf:4096",
            "--ptx-widths",
        ])
        .args(["--cluster", "16", "--cluster-nonportable", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
}
