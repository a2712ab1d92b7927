//! calibration/run/bench18's programs (written for this project, in shapes the earlier sets lack:
//! batched Gauss-Jordan inversion with a warp's pivot search and a zero-pivot exit; a rank/select
//! directory over a bit vector (popc word counts, ballot positions, binary-search selects); dynamic
//! time warping a warp a pair by register wavefronts and shuffles; cyclic Jacobi eigenvalues a
//! thread a matrix in local arrays; Boyer-Moore-Horspool search with shift tables in shared
//! memory; Jones-Plassmann graph colouring a launch a round; a radix select by shared histograms
//! and a stable ballot compaction; natural cubic splines by the Thomas algorithm and binary-search
//! evaluation; a bilateral filter with constant spatial weights), built with the wheels' nvcc
//! (`build.sh`), under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench18/h200/, measured by `ncu.sh` on these binaries): each program prints
//! what the GPU printed; every launch's registers and theoretical occupancy equal the H200's; every
//! launch whose counters are labelled exact equals the H200's; and at least the launches listed
//! below are labelled exact.

mod support;
support::bench_programs!(built "calibration/run/bench18");

program!(gjinv, 2, [2, 2, 2]);
program!(rankselect, 5, [5, 5, 5]);
program!(dtw, 2, [2, 2, 2]);
program!(jeig, 2, [2, 2, 2]);
program!(horspool, 1, [1, 1, 1]);
program!(jpcolor, 47, [47, 47, 47]);
program!(radixsel, 12, [12, 12, 12]);
program!(spline, 2, [2, 2, 2]);
// bilat: ptxas reuses the centre value (a load of line 26) for the 7x7 window's centre tap, so
// the machine code has 48 loads on line 30 where the PTX has 49 (calibration/run/bench18/README.md);
// the reconciliation finds the hole in the unrolled copies, the machine-code flow counts the loads
// the machine runs, and both launches are exact and equal to the H200.
program!(bilat, 2, [2, 2, 2]);
