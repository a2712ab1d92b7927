//! calibration/run/bench5's programs (written for this project in modern CUDA C++ shapes the
//! earlier sets lack: cooperative-groups tiles, scans and coalesced groups; `__match_*_sync` and
//! `__reduce_*_sync` under partial masks; half and bfloat16 arithmetic; integer SIMD and bit
//! intrinsics; `cuda::atomic_ref`, 64-bit and wrapping atomics; `cuda::barrier`,
//! `cuda::pipeline` and cache-hint loads and stores; virtual functions, lambdas,
//! `__launch_bounds__` and `cudaLaunchKernelEx`; recursion), built with the wheels' nvcc
//! (`build.sh`), under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench5/h200/, measured by `ncu.sh`): each program prints what the GPU printed;
//! every launch's registers and theoretical occupancy equal the H200's; every launch whose
//! branch, shared-memory or global-memory counters are labelled exact equals the H200's; and at
//! least the launches listed below are labelled exact, so a change that loses them fails.

use std::process::Command;

mod support;
support::bench_programs!(built "calibration/run/bench5");

// `compact`'s machine code branches on the warps' bases in shared memory (counted on the PTX,
// equal); `aggregate`'s stores go to slots a coalesced group's atomic handed out (equal)
program!(cgtile, 4, [3, 4, 3]);
// `reduxPartial`'s branches on `__activemask()`'s lanes are counted on the PTX (equal)
program!(warpint, 4, [3, 4, 4]);
// `h2exp`'s and `hrcp`'s fix-ups compare packed halves (`set.eq.f16x2`); the results' bits equal
// the H200's (h200/halfbf.bin)
program!(halfbf, 2, [2, 2, 2]);
// `dp4a`, `dp2a`, `vabsdiff4`
program!(bits, 2, [2, 2, 2]);
// `wide`'s atomicCAS loop for a double maximum splits each warp and what follows runs once per
// group of lanes that left together (global loads 4472 and 2564 requests in two H200 runs, 1256
// counted): branch and global counters are estimates; `wideSync` reconverges with __syncwarp
// first: its global counters are exact and equal; `lastBlock` waits on an acq_rel ticket
program!(atom, 4, [1, 4, 2]);
// `barrierStencil`'s and `pipeSum`'s machine code branches on the barrier's and the pipeline's
// state in shared memory: branch counters are estimates; the async copies' global counters too
program!(pipe, 4, [2, 4, 2]);
program!(cxx, 3, [3, 3, 3]);

/// Recursion is refused with a clear message (every call is inlined): the launch is not
/// recorded and the program's own check fails, where the H200 printed PASS.
#[test]
fn recurse_is_refused_with_a_clear_message() {
    let bin = support::built("calibration/run/bench5").join("recurse");
    let dir = support::scratch("bench5-recurse");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export"])
        .arg(dir.path().join("run.json"))
        .arg("--")
        .arg(&bin)
        .env("WARPSCOPE_CUDA_ROOT", support::cuda_root())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("recurse(const int *, int *, int *, int)` cannot be emulated")
            && err.contains("recursion is not supported"),
        "{err}"
    );
}
