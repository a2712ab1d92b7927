//! calibration/run/bench6's programs (written for this project in the shapes of Parboil, SHOC
//! and PolyBench-GPU: a register-tiled SGEMM and PolyBench's gemm; sparse matrix-vector products
//! in CSR (a thread and a warp per row), ELLPACK and JDS; a two-point angular correlation with
//! shared atomics and a binary search over bins in constant memory; MRI-Q's constant-memory loop
//! with sincosf and __sincosf; a cutoff Coulomb potential over bins staged in shared memory; a
//! D3Q19 lattice-Boltzmann step in structure of arrays with obstacle and inflow cells; a 1024-point
//! FFT with shared-memory and shuffle butterflies and sincospif twiddles; PolyBench's atax, bicg,
//! Gram-Schmidt, fdtd-2d and correlation; a saturating histogram with global atomics, a SAD motion
//! search through a 2-D texture and a 9-point stencil with halos), built with the wheels' nvcc
//! (`build.sh`), under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench6/h200/, measured by `ncu.sh`): each program prints what the GPU
//! printed; every launch's registers and theoretical occupancy equal the H200's; every launch
//! whose branch, shared-memory or global-memory counters are labelled exact equals the H200's; and
//! at least the launches listed below are labelled exact, so a change that loses them fails.

mod support;
support::bench_programs!(built "calibration/run/bench6");

program!(sgemm, 2, [2, 2, 2]);
// the wheels' nvcc and the H200's (13.0) compile `ell` differently but count alike
program!(spmv, 4, [4, 4, 4]);
// shared atomics (ATOMS.POPC.INC) in a binary search's bin
program!(tpacf, 2, [2, 2, 2]);
program!(cutcp, 1, [1, 1, 1]);
// 19 loads and stores a cell, obstacle and inflow branches, float division (FCHK)
program!(lbm, 6, [6, 6, 6]);
program!(fft, 3, [3, 3, 3]);
// sqrtf and float division (their slow-path branches), double sqrt and division, 103 launches
program!(poly, 103, [103, 103, 103]);
// `histoSat` reads bins other warps' atomics fill (branch and global counters: estimates);
// `bestOffset`'s short-circuit compare is laid out with its fall-through block moved: counted on
// the machine code (before: 2346 branch targets labelled exact, the H200 2194)
program!(imgproc, 6, [5, 6, 5]);

/// MRI-Q: the H200's binary was built by the GPU machine's nvcc 13.0, whose `computeQ` keeps
/// sincosf's slow argument reduction in local memory (25 registers) where the wheels' nvcc does
/// not (28): the counters belong to different machine code, so only the output is compared here
/// (the H200's own binary under `warpscope run` equals every counter: calibration/run/bench6's
/// README).
#[test]
fn mriq_prints_what_the_gpu_printed() {
    let bin = support::built("calibration/run/bench6").join("mriq");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--"])
        .arg(&bin)
        .env("WARPSCOPE_CUDA_ROOT", support::cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let gpu =
        std::fs::read_to_string(support::repo().join("calibration/run/bench6/h200/mriq.stdout")).unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let theirs: Vec<&str> = gpu.lines().filter(|l| !l.starts_with("==")).collect();
    let mine: Vec<&str> = printed.lines().take(theirs.len()).collect();
    assert_eq!(mine, theirs);
}
