//! `cudaHostGetFlags` answered `cudaHostAllocMapped` (2) whatever `cudaHostAlloc` was given; the
//! H200 answered 3 for `cudaHostAllocMapped | cudaHostAllocPortable` (calibration/run/bench14/
//! zerocopy.cu printed `flags 3`, warpscope `flags 2`). It now answers the allocation's flags with
//! the mapped flag added (own program data/hostFlags.cu).

use std::process::Command;

mod support;
use support::{cuda_root, repo};

#[test]
fn host_get_flags_answers_the_allocations_flags() {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "crates/cli/tests/data/hostFlags.cu"])
        .current_dir(repo())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{printed}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "asked 3 got 3 inside 3",
        "asked 2 got 2 inside 2",
        "asked 6 got 6 inside 6",
        "asked 0 got 2 inside 2",
    ] {
        assert!(printed.lines().any(|l| l == line), "{line}: {printed}");
    }
}
